//! Which commands reach Redis. A command list handed to a Redis client is
//! sent; one handed to a function of the code base is sent only when that
//! function is proven to send that argument (a *sender*): it passes the
//! parameter to a client call, or to another sender, to a fixpoint. A
//! command compared, matched or handed to code that only reads it (a
//! command parser under test) is no fact.

use crate::hash::{HashMap, HashSet};

use super::calls::{targets, FnIndex};
use super::LinkInput;
use crate::facts::{FileFacts, FileId, Sink, Value};

/// Fixpoint rounds: a wrapper of a wrapper of … this deep.
const MAX_ROUNDS: usize = 16;

/// The commands that are facts, by file and index.
pub(crate) struct Sent {
    dropped: HashSet<(FileId, usize)>,
}

impl Sent {
    pub fn of(input: &LinkInput<'_>, fns: &FnIndex<'_>) -> Sent {
        let senders = senders(input, fns);
        // Only a function of a sender's name can be one.
        let names = sender_names(input, &senders);
        let mut dropped = HashSet::default();
        for (file, facts) in input.facts {
            let sp = input.file_speaker.get(*file as usize).copied().flatten();
            for (i, c) in facts.commands.iter().enumerate() {
                let sent = match &c.sink {
                    Sink::Client | Sink::Held => true,
                    Sink::Unsent => false,
                    Sink::Call { path, arg, arity } => sp.is_some_and(|sp| {
                        path.last().is_some_and(|n| names.contains(n.as_str()))
                            && targets(fns, sp, path, *arity, *file)
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

fn facts_by_file<'a>(input: &'a LinkInput<'_>) -> HashMap<FileId, &'a FileFacts> {
    input.facts.iter().map(|(f, x)| (*f, x.as_ref())).collect()
}

fn function_name<'a>(
    facts: &HashMap<FileId, &'a FileFacts>,
    file: FileId,
    f: usize,
) -> Option<&'a str> {
    facts
        .get(&file)
        .and_then(|x| x.functions.get(f))
        .map(|d| d.name.as_str())
}

/// The names of the sender functions.
pub(super) fn sender_names<'a>(
    input: &'a LinkInput<'_>,
    senders: &HashSet<(FileId, usize, usize)>,
) -> HashSet<&'a str> {
    if senders.is_empty() {
        return HashSet::default();
    }
    let facts = facts_by_file(input);
    senders
        .iter()
        .filter_map(|(file, f, _)| function_name(&facts, *file, *f))
        .collect()
}

/// `(file, function, parameter)`: the parameters functions send to Redis.
pub(super) fn senders(input: &LinkInput<'_>, fns: &FnIndex<'_>) -> HashSet<(FileId, usize, usize)> {
    let mut out: HashSet<(FileId, usize, usize)> = HashSet::default();
    for (file, facts) in input.facts {
        for s in &facts.sends {
            if let Some(f) = s.func {
                out.extend(params(&s.command).into_iter().map(|p| (*file, f, p)));
            }
        }
    }
    if out.is_empty() {
        return out;
    }
    // A call can reach a sender only through a function of the sender's
    // name: only those calls are resolved (`targets`), once each, when a
    // sender of their name is found (resolving every call of every file
    // first was most of a warm run's link over the corpus).
    let facts_of = facts_by_file(input);
    let name_of = |file: FileId, f: usize| function_name(&facts_of, file, f);
    let mut names: HashSet<&str> = out
        .iter()
        .filter_map(|(file, f, _)| name_of(*file, *f))
        .collect();
    let mut calls = Vec::new();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        for call in &facts.calls {
            if let (Some(f), Some(name)) = (call.func, call.path.last()) {
                calls.push((*file, f, sp, call, name.as_str(), None));
            }
        }
    }
    for _ in 0..MAX_ROUNDS {
        let mut more = Vec::new();
        for (file, f, sp, call, name, found) in &mut calls {
            if !names.contains(*name) {
                continue;
            }
            let found =
                found.get_or_insert_with(|| targets(fns, *sp, &call.path, call.args.len(), *file));
            for (tf, ti) in found.iter() {
                for (j, a) in call.args.iter().enumerate() {
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
        names.extend(more.iter().filter_map(|(file, f, _)| name_of(*file, *f)));
        out.extend(more);
    }
    out
}
