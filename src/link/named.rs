//! Commands whose name a definition of the code base gives: a command
//! list whose head is a call of a function the file does not show
//! (`[Verbs.evalsha(), sha, 1 | keys]`, the function in another module and
//! file, reached through `alias` or `import`) comes from its extractor
//! with its name as that value ([`Command::name_of`]). The link reads
//! commands by name, so before anything else each such name is followed
//! through the definitions of the speaker's code base (`flow.rs`, across
//! modules and files): a value that comes to one literal Redis command name
//! names the command, spanned where that literal is written; any other
//! value leaves no command, as nothing is guessed.
//!
//! In the same pass, an argument of a command that calls a function
//! without arguments (`Values.numkeys()`) is what that function returns
//! when it comes to one literal, spanned at the literal, as the extractor
//! reads such a call in its own file: `SCRIPT LOAD`, a count of keys, a
//! value a finding points at read as the literal they are.

use std::sync::Arc;

use super::flow::{follow, At};
use super::{LinkInput, Resolver, SpeakerId};
use crate::facts::{Command, FileFacts, FileId, Seg, Span, Value};

/// The facts with every pending command named or dropped and its bare
/// calls read; `None` when that changes nothing (the facts stand as they
/// are).
pub(super) fn settle(input: &LinkInput<'_>) -> Option<Vec<(FileId, Arc<FileFacts>)>> {
    let pending = |f: &FileFacts| {
        f.commands
            .iter()
            .any(|c| c.name_of.is_some() || c.args.iter().chain(&c.tail).any(bare_call))
    };
    if !input.facts.iter().any(|(_, f)| pending(f)) {
        return None;
    }
    let r = Resolver::new(input);
    let mut out = input.facts.to_vec();
    let mut changed = false;
    for (file, facts) in &mut out {
        if !pending(facts) {
            continue;
        }
        let sp = input.file_speaker.get(*file as usize).copied().flatten();
        let Some(sp) = sp else {
            continue;
        };
        let settled: Vec<Option<Command>> = facts
            .commands
            .iter()
            .map(|c| settled(&r, sp, *file, facts, c))
            .collect();
        // A file whose commands stand as they were is not copied.
        let same = settled
            .iter()
            .zip(&facts.commands)
            .all(|(s, c)| s.as_ref() == Some(c));
        if !same {
            changed = true;
            Arc::make_mut(facts).commands = settled.into_iter().flatten().collect();
        }
    }
    changed.then_some(out)
}

/// A call of a function without arguments.
fn bare_call(v: &Value) -> bool {
    matches!(v, Value::Call { path, args, .. } if args.is_empty() && !path.is_empty())
}

/// A command named, its bare calls read as the literals they return;
/// `None` for a command whose name comes to no command.
fn settled(
    r: &Resolver<'_>,
    speaker: SpeakerId,
    file: FileId,
    facts: &FileFacts,
    c: &Command,
) -> Option<Command> {
    let module = c
        .func
        .and_then(|f| facts.functions.get(f))
        .map(|f| f.module.as_str())
        .unwrap_or("");
    let at = At {
        speaker,
        file,
        module,
        this: None,
    };
    let mut c = c.clone();
    if let Some(v) = c.name_of.take() {
        let (name, span) = name_of(r, &v, at)?;
        c.name = name;
        c.name_span = span;
    }
    for a in c.args.iter_mut().chain(c.tail.iter_mut()) {
        if !bare_call(a) {
            continue;
        }
        if let [(_, x)] = follow(r, a, at).as_slice() {
            if matches!(x, Value::Int { .. } | Value::Atom { .. }) || literal(x).is_some() {
                *a = x.clone();
            }
        }
    }
    Some(c)
}

/// The name a pending command's value comes to: one literal Redis command
/// name, upper-cased, with the span of the literal.
pub(super) fn name_of(r: &Resolver<'_>, v: &Value, at: At<'_>) -> Option<(String, Span)> {
    let mut found: Option<(String, Span)> = None;
    for (file, leaf) in follow(r, v, at) {
        // A constant stands for itself in the flow; its literal is the name.
        let (name, span) = literal(&leaf).or_else(|| {
            let Value::Const { path, .. } = &leaf else {
                return None;
            };
            let cx = super::Ctx {
                speaker: at.speaker,
                module: at.module,
                file,
            };
            literal(&r.const_full(path, &cx)?.1.value)
        })?;
        match &found {
            Some((n, _)) if !n.eq_ignore_ascii_case(&name) => return None,
            Some(_) => {}
            None => found = Some((name, span)),
        }
    }
    let (name, span) = found?;
    let short = !name.is_empty() && name.len() <= 20;
    (short && crate::redis::is_command(&name)).then(|| (name.to_ascii_uppercase(), span))
}

/// A literal string with the span of its text.
fn literal(v: &Value) -> Option<(String, Span)> {
    let Value::Str(t) = v else {
        return None;
    };
    let name = t.as_literal()?;
    let span = match t.segs.as_slice() {
        [Seg::Lit { span, .. }] => *span,
        _ => t.span,
    };
    Some((name, span))
}
