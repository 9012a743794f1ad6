//! A command a client registers for a script ([`Registration`]: ioredis's
//! `defineCommand`, node-redis's `defineScript`) is a method of the
//! speaker's clients: `client.name(keys.., args..)` in any of its files
//! runs the script with the registered key count, where no function of the
//! code base of that name takes the call (the file that registers it reads
//! its own calls itself).

use super::index::FnIndex;
use super::{keywords, speaker_of, Proto};
use crate::facts::{Registration, Value};
use crate::hash::HashMap;
use crate::link::{LinkInput, SpeakerId};

/// The script calls, by enclosing function, that the calls of registered
/// commands in `speaker`'s files are: a method call (`c.name(..)`, a
/// receiver and no module) of a command registered in another of its
/// files, which no function of the code base takes.
pub(super) fn protos(
    input: &LinkInput<'_>,
    fns: &FnIndex<'_>,
    speaker: SpeakerId,
) -> Vec<(crate::facts::FileId, Option<usize>, Proto)> {
    let mine = || {
        input
            .facts
            .iter()
            .filter(move |(file, _)| speaker_of(input, *file) == Some(speaker))
    };
    let mut commands: HashMap<&str, (crate::facts::FileId, &Registration)> = HashMap::default();
    for (file, facts) in mine() {
        for r in &facts.registered {
            commands.entry(r.command.as_str()).or_insert((*file, r));
        }
    }
    let mut out = Vec::new();
    if commands.is_empty() {
        return out;
    }
    for (file, facts) in mine() {
        for call in &facts.calls {
            let ([name], Some(_)) = (call.path.as_slice(), &call.receiver) else {
                continue;
            };
            let Some((at, r)) = commands.get(name.as_str()) else {
                continue;
            };
            let none = |_| None;
            if *at == *file || !keywords::call_targets(fns, speaker, call, *file, none).is_empty() {
                continue;
            }
            let numkeys = r.keys.map(|(value, span)| Value::Int {
                value: i64::from(value),
                span,
            });
            let mut p = Proto::at(call.span, *file, speaker, r.script.clone());
            if r.transforms {
                // What is sent is a function's: neither keys nor arguments
                // are known.
                (p.keys_only, p.open, p.argv_open) = (true, true, true);
            } else {
                p.numkeys = numkeys;
                p.items = call.args.clone();
            }
            out.push((*file, call.func, p));
        }
    }
    out
}
