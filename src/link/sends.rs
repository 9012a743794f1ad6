//! Which commands reach Redis. A command list handed to a Redis client is
//! sent; one handed to a function of the code base is sent only when that
//! function is proven to send that argument (a *sender*): it passes the
//! parameter to a client call, or to another sender, to a fixpoint. A
//! command compared, matched or handed to code that only reads it (a
//! command parser under test) is no fact.

use std::collections::HashSet;

use super::calls::{index_functions, targets, FnIndex};
use super::LinkInput;
use crate::facts::{FileId, Sink, Value};

/// Fixpoint rounds: a wrapper of a wrapper of … this deep.
const MAX_ROUNDS: usize = 16;

/// The commands that are facts, by file and index.
pub(crate) struct Sent {
    dropped: HashSet<(FileId, usize)>,
}

impl Sent {
    pub fn of(input: &LinkInput<'_>) -> Sent {
        let fns = index_functions(input);
        let senders = senders(input, &fns);
        let mut dropped = HashSet::new();
        for (file, facts) in input.facts {
            let sp = input.file_speaker.get(*file as usize).copied().flatten();
            for (i, c) in facts.commands.iter().enumerate() {
                let sent = match &c.sink {
                    Sink::Client | Sink::Held => true,
                    Sink::Unsent => false,
                    Sink::Call { path, arg, arity } => sp.is_some_and(|sp| {
                        targets(&fns, sp, path, *arity, *file)
                            .into_iter()
                            .any(|(tf, ti)| senders.contains(&(tf, ti, *arg)))
                    }),
                };
                if !sent {
                    dropped.insert((*file, i));
                }
            }
        }
        Sent { dropped }
    }

    /// Whether command `index` of `file` reaches Redis.
    pub fn keeps(&self, file: FileId, index: usize) -> bool {
        !self.dropped.contains(&(file, index))
    }

    /// How many command lists are not facts (never sent, or not proven).
    pub fn dropped(&self) -> usize {
        self.dropped.len()
    }
}

/// The parameters a value is made of: the value itself, or the commands
/// of a pipeline list.
fn params(v: &Value) -> Vec<usize> {
    match v {
        Value::Param { index, .. } => vec![*index],
        Value::List { items, tail, .. } => items
            .iter()
            .chain(tail)
            .filter_map(|x| match x {
                Value::Param { index, .. } => Some(*index),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `(file, function, parameter)`: the parameters functions send to Redis.
fn senders(input: &LinkInput<'_>, fns: &FnIndex<'_>) -> HashSet<(FileId, usize, usize)> {
    let mut out: HashSet<(FileId, usize, usize)> = HashSet::new();
    for (file, facts) in input.facts {
        for s in &facts.sends {
            if let Some(f) = s.func {
                out.extend(params(&s.command).into_iter().map(|p| (*file, f, p)));
            }
        }
    }
    // The calls made inside functions, with what each may call: the same
    // in every round.
    let mut calls = Vec::new();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        for call in &facts.calls {
            let Some(f) = call.func else {
                continue;
            };
            let found = targets(fns, sp, &call.path, call.args.len(), *file);
            if !found.is_empty() {
                calls.push((*file, f, &call.args, found));
            }
        }
    }
    for _ in 0..MAX_ROUNDS {
        let mut more = Vec::new();
        for (file, f, args, found) in &calls {
            for (tf, ti) in found {
                for (j, a) in args.iter().enumerate() {
                    if !out.contains(&(*tf, *ti, j)) {
                        continue;
                    }
                    for p in params(a) {
                        if !out.contains(&(*file, *f, p)) {
                            more.push((*file, *f, p));
                        }
                    }
                }
            }
        }
        if more.is_empty() {
            break;
        }
        out.extend(more);
    }
    out
}
