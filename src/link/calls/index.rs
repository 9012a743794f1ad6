//! The functions of each speaker by name and arity, as calls look them
//! up ([`super::targets`]); a function that is another under another name
//! is indexed as that one.

use super::targets;
use crate::facts::FileId;
use crate::hash::HashMap;
use crate::link::{LinkInput, SpeakerId};

/// Functions by (speaker, name, arity): (file, index, module).
pub(in crate::link) type FnIndex<'a> =
    HashMap<(SpeakerId, &'a str, usize), Vec<(FileId, usize, &'a str)>>;

pub(in crate::link) fn index_functions<'a>(input: &'a LinkInput<'a>) -> FnIndex<'a> {
    let mut out: FnIndex<'a> = HashMap::default();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        for (i, f) in facts.functions.iter().enumerate() {
            // A call may leave out the parameters that have defaults.
            let least = f.params.len().saturating_sub(f.defaults);
            for arity in least..=f.params.len() {
                out.entry((sp, f.name.as_str(), arity)).or_default().push((
                    *file,
                    i,
                    f.module.as_str(),
                ));
            }
        }
    }
    follow_aliases(input, &mut out);
    out
}

/// A function that is another under another name is indexed as that one
/// (under its own name and module), so a call of it binds what the other
/// does; an alias whose target is not found stays as it is.
fn follow_aliases<'a>(input: &'a LinkInput<'a>, index: &mut FnIndex<'a>) {
    let mut moves = Vec::new();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        for a in &facts.aliases {
            let Some(f) = facts.functions.get(a.func) else {
                continue;
            };
            let least = f.params.len().saturating_sub(f.defaults);
            for arity in least..=f.params.len() {
                let found = targets(index, sp, &a.target, arity, *file);
                if !found.is_empty() {
                    let to = found.into_iter().map(|(x, i)| (x, i, f.module.as_str()));
                    moves.push(((sp, f.name.as_str(), arity), (*file, a.func), to.collect()));
                }
            }
        }
    }
    for (key, from, to) in moves {
        let list: &mut Vec<(FileId, usize, &str)> = index.entry(key).or_default();
        list.retain(|c| (c.0, c.1) != from);
        list.extend::<Vec<_>>(to);
    }
}
