//! A command a client registers for a script ([`Registration`]: ioredis's
//! `defineCommand`, node-redis's `defineScript`) is a method of the
//! speaker's clients: `client.name(keys.., args..)` in any of its files
//! runs the script with the registered key count, where no function of the
//! code base of that name takes the call (the file that registers it reads
//! its own calls itself). A registration under a name the code computes
//! (a loader's, over a folder of `name-N.lua` files) makes each method
//! call on a client ([`crate::facts::CallFact::on_client`]) a run of the
//! script its name names, if one does ([`by_method`]).

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
    let mut computed = false;
    for (file, facts) in mine() {
        for r in &facts.registered {
            if r.command.is_empty() {
                computed = true;
                continue;
            }
            commands.entry(r.command.as_str()).or_insert((*file, r));
        }
    }
    let mut out = Vec::new();
    if commands.is_empty() && !computed {
        return out;
    }
    for (file, facts) in mine() {
        for call in &facts.calls {
            let ([name], Some(_)) = (call.path.as_slice(), &call.receiver) else {
                continue;
            };
            let none = |_| None;
            let taken = || !keywords::call_targets(fns, speaker, call, *file, none).is_empty();
            let Some((at, r)) = commands.get(name.as_str()) else {
                if computed && call.on_client && !crate::redis::is_command(name) && !taken() {
                    out.push((*file, call.func, by_method(call, *file, speaker)));
                }
                continue;
            };
            if *at == *file || taken() {
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
                (p.items, p.tail) = spread(&call.args);
            }
            out.push((*file, call.func, p));
        }
    }
    out
}

/// `client.name(..)` in a speaker that registers commands by names the
/// code computes: a run of the script named `name`, with the key count it
/// is registered with (its file name's, as such loaders register), if one
/// goes by that name; no call otherwise ([`Proto::by_method`]).
fn by_method(
    call: &crate::facts::CallFact,
    file: crate::facts::FileId,
    speaker: SpeakerId,
) -> Proto {
    let name = call.path.last().cloned().unwrap_or_default();
    let script = Value::Str(crate::facts::Template::lit(&name, call.span));
    let mut p = Proto::at(call.span, file, speaker, script.clone());
    p.numkeys = Some(crate::facts::field("numberOfKeys", script, call.span));
    (p.items, p.tail) = spread(&call.args);
    p.by_method = true;
    p
}

/// A registered command's arguments as its client sends them: ioredis and
/// node-redis send an array's items in its place, wherever it is passed.
/// What may be an array (a list, a parameter, what a call returns) is
/// appended whole, to be flattened once bound; a string or a number
/// before it is one item.
fn spread(args: &[Value]) -> (Vec<Value>, Vec<Value>) {
    let mut items = Vec::new();
    let mut tail = Vec::new();
    for a in args {
        let scalar = matches!(a, Value::Str(_) | Value::Int { .. } | Value::Atom { .. });
        if scalar && tail.is_empty() {
            items.push(a.clone());
        } else {
            tail.push(a.clone());
        }
    }
    (items, tail)
}
