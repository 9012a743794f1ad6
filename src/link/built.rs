//! Commands a function of the code base builds and a sender sends:
//! `Client.evalsha_command([sha | args]) |> Client.query()`, where
//! `evalsha_command(args)` returns `["EVALSHA"] ++ args` and `query(command)`
//! hands its parameter to a Redis client. The extractor sees no command
//! list at the call (its first item is no command name), only a call
//! passed to a call; the link follows the argument to the one list it
//! returns, and where that list starts with a literal Redis command name,
//! the call is that command, sent where the sender sends its parameter
//! ([`Sink::Call`], proved in `sends.rs` as for a list written in place).
//!
//! Nothing is guessed: a value that comes to several lists, to a list whose
//! head is not one literal command name, or an argument the callee does not
//! send, leaves no command.

use std::sync::Arc;

use super::calls::{index_functions, targets, FnIndex};
use super::flow::{follow, At};
use super::sends::{sender_names, senders};
use super::SpeakerId;
use super::{LinkInput, Resolver};
use crate::facts::{Command, FileFacts, FileId, FunctionDef, Sink, Span, Value};
use crate::hash::HashMap;

/// The facts with the commands built by a function of the code base and
/// handed to a sender, or to a client (`Redix.command(conn,
/// evalsha_command(args))`), added to each file that hands them; `None`
/// when none is (the facts stand as they are).
pub(super) fn commands(input: &LinkInput<'_>) -> Option<Vec<(FileId, Arc<FileFacts>)>> {
    let any = |p: fn(&FileFacts) -> bool| input.facts.iter().any(|(_, f)| p(f));
    if !any(|f| !f.sends.is_empty())
        || !any(|f| {
            f.calls.iter().any(|c| c.args.iter().any(built))
                || f.sends.iter().any(|s| built(&s.command))
        })
    {
        return None;
    }
    let fns = index_functions(input);
    let senders = senders(input, &fns);
    let names = sender_names(input, &senders);
    let defs = super::calls::keywords_defs(input);
    let r = Resolver::new(input);
    let mut out = input.facts.to_vec();
    let mut changed = false;
    for (file, facts) in &mut out {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        let at = |func: Option<usize>| At {
            speaker: sp,
            file: *file,
            module: func
                .and_then(|f| facts.functions.get(f))
                .map_or("", |f| f.module.as_str()),
            this: None,
        };
        let lists = |v: &Value| returns_list(&fns, &defs, sp, v, *file);
        let mut more = Vec::new();
        // Handed to a client: sent.
        for s in facts.sends.iter().filter(|s| lists(&s.command)) {
            more.extend(command(
                &r,
                &s.command,
                at(s.func),
                (s.span, s.func),
                Sink::Client,
            ));
        }
        // Handed to a function of the code base that sends that argument.
        for c in &facts.calls {
            if !c.path.last().is_some_and(|n| names.contains(n.as_str())) {
                continue;
            }
            let sent: Vec<usize> = targets(&fns, sp, &c.path, c.args.len(), *file)
                .into_iter()
                .flat_map(|(tf, ti)| {
                    let senders = &senders;
                    (0..c.args.len()).filter(move |j| senders.contains(&(tf, ti, *j)))
                })
                .collect();
            for (j, a) in c.args.iter().enumerate() {
                if !sent.contains(&j) || !lists(a) {
                    continue;
                }
                let sink = Sink::Call {
                    path: c.path.clone(),
                    arg: j,
                    arity: c.args.len(),
                };
                more.extend(command(&r, a, at(c.func), (c.span, c.func), sink));
            }
        }
        if !more.is_empty() {
            changed = true;
            Arc::make_mut(facts).commands.extend(more);
        }
    }
    changed.then_some(out)
}

/// A value a function of the code base may build: a call.
fn built(v: &Value) -> bool {
    matches!(v, Value::Call { path, .. } if !path.is_empty())
}

/// Whether `v` is a call of a function of the code base that returns a
/// list it writes (`[@evalsha] ++ args`), where a command name may head
/// it: only those are followed.
fn returns_list(
    fns: &FnIndex<'_>,
    defs: &HashMap<FileId, &[FunctionDef]>,
    speaker: SpeakerId,
    v: &Value,
    file: FileId,
) -> bool {
    let Value::Call { path, args, .. } = v else {
        return false;
    };
    let lists = |(f, i): (FileId, usize)| {
        defs.get(&f)
            .and_then(|d| d.get(i))
            .is_some_and(|d| matches!(&d.returns, Value::List { items, .. } if !items.is_empty()))
    };
    let found = targets(fns, speaker, path, args.len(), file);
    !found.is_empty() && found.into_iter().all(lists)
}

/// The command `arg` comes to, handed on at `span` in the function
/// `func` to `sink`: one list whose first item is one literal Redis
/// command name.
fn command(
    r: &Resolver<'_>,
    arg: &Value,
    at: At<'_>,
    (span, func): (Span, Option<usize>),
    sink: Sink,
) -> Option<Command> {
    let mut leaves = follow(r, arg, at);
    let (Some((_, Value::List { items, tail, .. })), None) = (leaves.pop(), leaves.pop()) else {
        return None;
    };
    let (items, tail) = super::lists::splice(items, tail);
    let (head, args) = items.split_first()?;
    let (name, name_span) = super::named::name_of(r, head, at)?;
    Some(Command {
        name,
        name_span,
        name_of: None,
        args: args.to_vec(),
        open_tail: false,
        tail,
        span,
        func,
        sink,
    })
}
