//! A bound call site made a use of its script: the key count it runs
//! with, the keys and the args it passes, each resolved to the strings it
//! may send.

use super::{NumKeys, Proto, ScriptCallUse};
use crate::facts::{Span, Value};
use crate::link::identify::{identify, Lookup};
use crate::link::lists::{flatten, literal_count};
use crate::link::{Arg, Ctx, Resolver, ScriptId};

/// `{body, count} = Scripts.get(:drop)` then `["EVAL", body, count | ..]`:
/// numkeys is the count the same script is registered with.
pub(super) fn registered_count(
    p: &Proto,
    script: ScriptId,
    lk: &Lookup<'_>,
) -> Option<(u32, Span)> {
    let Some(Value::Call { path, args, .. }) = &p.numkeys else {
        return None;
    };
    let [entry] = args.as_slice() else {
        return None;
    };
    if !path.last().is_some_and(|l| l.starts_with('.')) {
        return None;
    }
    let same = identify(entry, p.speaker, p.file, lk, 0) == Some(script);
    same.then(|| lk.model.scripts[script].registration)
        .flatten()
}

pub(super) fn use_of(
    resolver: &Resolver<'_>,
    p: &Proto,
    script: ScriptId,
    registered: Option<(u32, Span)>,
) -> ScriptCallUse {
    let (flat, complete) = flatten(&p.items, &p.tail, p.open);
    let cx = Ctx {
        speaker: p.speaker,
        module: String::new(),
        file: p.file,
    };
    let arg = |v: &Value| Arg {
        value: v.clone(),
        alts: resolver.templates(v, &cx),
    };
    // Keys and args appended as separate parts say where the keys end
    // better than a count that travels with the script.
    let parts = !p.keys_only && p.items.is_empty() && p.tail.len() >= 2;
    let numkeys = match &p.numkeys {
        _ if registered.is_some() && !parts => registered
            .map(|(n, span)| NumKeys::Literal(n, span))
            .unwrap_or(NumKeys::Unknown),
        None if p.keys_only => NumKeys::FromKeys,
        None => NumKeys::Unknown,
        Some(v) => match literal_count(v) {
            Some((n, span)) => NumKeys::Literal(n, span),
            None => match v {
                Value::Call { path, args, .. }
                    if matches!(
                        path.last().map(String::as_str),
                        Some("length" | "len" | "count" | "size")
                    ) =>
                {
                    match args.first() {
                        Some(Value::List { items, tail, span }) => {
                            let (l, c) = flatten(items, tail, false);
                            if c {
                                NumKeys::Counted(l.len() as u32, *span)
                            } else {
                                NumKeys::FromKeys
                            }
                        }
                        _ => NumKeys::FromKeys,
                    }
                }
                _ => NumKeys::Unknown,
            },
        },
    };
    let split_by_parts = !matches!(numkeys, NumKeys::Literal(..) | NumKeys::Counted(..))
        && p.items.is_empty()
        && p.tail.len() >= 2;
    let (keys, keys_complete, args, args_complete): (Vec<Arg>, bool, Vec<Value>, bool) =
        if p.keys_only {
            let argv = crate::link::argv::flat_args(&p.argv, p.argv_open);
            (flat.iter().map(arg).collect(), complete, argv.0, argv.1)
        } else if split_by_parts {
            // `numkeys | keys ++ args`, or a loop over the keys then one over
            // the args, with numkeys the script's own count: the first part
            // appended after numkeys is the keys.
            let (keys, complete) = flatten(&[], &p.tail[..1], false);
            let (args, args_complete) = flatten(&[], &p.tail[1..], false);
            (
                keys.iter().map(arg).collect(),
                complete,
                args,
                args_complete,
            )
        } else {
            match &numkeys {
                NumKeys::Literal(n, _) | NumKeys::Counted(n, _) if flat.len() >= *n as usize => {
                    let n = *n as usize;
                    (
                        flat[..n].iter().map(arg).collect(),
                        true,
                        flat[n..].to_vec(),
                        complete,
                    )
                }
                _ => (flat.iter().map(arg).collect(), false, Vec::new(), false),
            }
        };
    ScriptCallUse {
        in_wrapper: false,
        echo: false,
        depth: p.depth,
        site: p.site,
        script,
        speaker: p.speaker,
        span: p.span,
        numkeys,
        keys: keys.into(),
        keys_complete,
        argv: crate::link::argv::resolve(resolver, &args, p.speaker, p.span.file).into(),
        args: args.into(),
        args_complete,
    }
}
