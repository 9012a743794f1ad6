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
use crate::facts::{CallFact, Command, FileFacts, FileId, FunctionDef, Sink, Value};
use crate::hash::HashMap;

/// Items spliced from nested appended lists, at most this many levels.
const MAX_SPLICE: usize = 16;

/// The facts with the commands built by a function of the code base and
/// handed to a sender added to each calling file; `None` when no call
/// hands one (the facts stand as they are).
pub(super) fn commands(input: &LinkInput<'_>) -> Option<Vec<(FileId, Arc<FileFacts>)>> {
    let any = |p: fn(&FileFacts) -> bool| input.facts.iter().any(|(_, f)| p(f));
    if !any(|f| !f.sends.is_empty()) || !any(|f| f.calls.iter().any(|c| c.args.iter().any(built))) {
        return None;
    }
    let fns = index_functions(input);
    let senders = senders(input, &fns);
    let names = sender_names(input, &senders);
    let senders = &senders;
    if names.is_empty() {
        return None;
    }
    let defs = super::calls::keywords_defs(input);
    let r = Resolver::new(input);
    let mut out = input.facts.to_vec();
    let mut changed = false;
    for (file, facts) in &mut out {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        let mut more = Vec::new();
        for c in &facts.calls {
            if !c.path.last().is_some_and(|n| names.contains(n.as_str())) {
                continue;
            }
            let sent: Vec<usize> = targets(&fns, sp, &c.path, c.args.len(), *file)
                .into_iter()
                .flat_map(|(tf, ti)| {
                    (0..c.args.len()).filter(move |j| senders.contains(&(tf, ti, *j)))
                })
                .collect();
            for (j, a) in c.args.iter().enumerate() {
                if !sent.contains(&j) || !returns_list(&fns, &defs, sp, a, *file) {
                    continue;
                }
                let module = c
                    .func
                    .and_then(|f| facts.functions.get(f))
                    .map_or("", |f| f.module.as_str());
                let at = At {
                    speaker: sp,
                    file: *file,
                    module,
                    this: None,
                };
                if let Some(cmd) = command(&r, a, at, c, j) {
                    more.push(cmd);
                }
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

/// The command `arg` (argument `j` of `c`) comes to: one list whose first
/// item is one literal Redis command name.
fn command(r: &Resolver<'_>, arg: &Value, at: At<'_>, c: &CallFact, j: usize) -> Option<Command> {
    let mut leaves = follow(r, arg, at);
    let (Some((_, Value::List { items, tail, .. })), None) = (leaves.pop(), leaves.pop()) else {
        return None;
    };
    let (items, tail) = splice(items, tail);
    let (head, args) = items.split_first()?;
    let (name, name_span) = super::named::name_of(r, head, at)?;
    Some(Command {
        name,
        name_span,
        name_of: None,
        args: args.to_vec(),
        open_tail: false,
        tail,
        span: c.span,
        func: c.func,
        sink: Sink::Call {
            path: c.path.clone(),
            arg: j,
            arity: c.args.len(),
        },
    })
}

/// `[a] ++ [b | rest]`: one list `[a, b | rest]`, as the wire sends it.
fn splice(mut items: Vec<Value>, mut tail: Vec<Value>) -> (Vec<Value>, Vec<Value>) {
    for _ in 0..MAX_SPLICE {
        match tail.as_slice() {
            [Value::List { .. }, ..] => {
                let Value::List {
                    items: more,
                    tail: rest,
                    ..
                } = tail.remove(0)
                else {
                    break;
                };
                items.extend(more);
                tail.splice(0..0, rest);
            }
            _ => break,
        }
    }
    (items, tail)
}
