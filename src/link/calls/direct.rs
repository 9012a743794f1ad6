//! The script calls a file makes itself: each EVAL-like command its
//! clients send, each script invocation (`Script` run, registered
//! command called in the file), by the function it is written in.

use super::Proto;
use crate::facts::{FileFacts, FileId, Span, Value};
use crate::link::SpeakerId;

/// The file's own script calls ([`Proto`]s), each with the index of the
/// function it is written in.
pub(super) fn protos(
    file: FileId,
    speaker: SpeakerId,
    facts: &FileFacts,
    sent: &crate::link::sends::Sent,
) -> Vec<(Option<usize>, Proto)> {
    let mut out = Vec::new();
    for (_, c) in facts
        .commands
        .iter()
        .enumerate()
        .filter(|(i, _)| sent.keeps(file, *i))
    {
        if !crate::redis::runs_script(&c.name) {
            continue;
        }
        let Some(script) = c.args.first() else {
            continue;
        };
        out.push((
            c.func,
            Proto {
                numkeys: c.args.get(1).cloned(),
                items: c.args.get(2..).map(<[Value]>::to_vec).unwrap_or_default(),
                tail: c.tail.clone(),
                open: c.open_tail,
                ..Proto::at(c.span, file, speaker, script.clone())
            },
        ));
    }
    for sc in &facts.script_calls {
        out.push((
            sc.func,
            Proto {
                numkeys: sc.numkeys.clone(),
                items: sc.keys.clone(),
                tail: sc.keys_from.iter().cloned().collect(),
                open: sc.open_keys,
                keys_only: true,
                argv: sc.args.clone(),
                argv_open: sc.open_args,
                argv_from: sc.args_from.clone(),
                returned: sc.returned,
                ..Proto::at(sc.span, file, speaker, sc.script.clone())
            },
        ));
    }
    out
}

impl Proto {
    /// A script call of `script` at `span` in `file`, passing nothing yet.
    pub(super) fn at(span: Span, file: FileId, speaker: SpeakerId, script: Value) -> Proto {
        Proto {
            script,
            numkeys: None,
            items: Vec::new(),
            tail: Vec::new(),
            open: false,
            keys_only: false,
            argv: Vec::new(),
            argv_open: false,
            argv_from: None,
            span,
            origin: span,
            file,
            speaker,
            depth: 0,
            site: None,
            returned: false,
            public_wrapper: None,
            module: None,
            by_method: false,
        }
    }
}
