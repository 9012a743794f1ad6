//! What every caller of a script agrees on, for a draft
//! ([`super::observe::as_contract`]): how many keys they pass, the type of
//! the keys in a slot, how many ARGV values they pass.

use std::collections::{BTreeMap, BTreeSet};

use crate::link::calls::NumKeys;
use crate::link::records::key_shape;
use crate::link::{Model, ScriptId};

/// The number of keys every call of a script (any of its `copies`) passes,
/// when each says it (a literal, a counted list, or every key it passes:
/// go-redis's `script.Run(ctx, c, []string{a, b}, ..)`) and they agree.
pub(super) fn callers_count(m: &Model, copies: &[ScriptId]) -> Option<u32> {
    let mut counts = m
        .script_calls
        .iter()
        .filter(|u| copies.contains(&u.script))
        .map(|u| match u.numkeys {
            NumKeys::Literal(n, _) | NumKeys::Counted(n, _) => Some(n),
            NumKeys::FromKeys | NumKeys::Unknown if u.keys_complete => {
                u32::try_from(u.keys.len()).ok()
            }
            _ => None,
        });
    let first = counts.next()??;
    counts.all(|c| c == Some(first)).then_some(first)
}

/// The keyspace type of the keys the callers of a script (any of its
/// `copies`) pass as `KEYS[n]`, when they agree on one. Written as the
/// slot's role, it holds `KEYS[n]` to that type's record when the contract
/// is adopted: a script's write of a renamed field is WL201 against the
/// extracted contract as against the canonical one.
pub(super) fn passed_type(
    m: &Model,
    copies: &[ScriptId],
    n: u32,
    type_of_shape: &BTreeMap<String, String>,
) -> Option<String> {
    let mut found: BTreeSet<&String> = BTreeSet::new();
    for u in m.script_calls.iter().filter(|u| copies.contains(&u.script)) {
        let Some(k) = u.keys.get((n as usize).checked_sub(1)?) else {
            continue;
        };
        for t in k.alts.iter() {
            found.extend(type_of_shape.get(&key_shape(t)));
        }
    }
    let mut it = found.into_iter();
    match (it.next(), it.next()) {
        (Some(t), None) => Some(t.clone()),
        _ => None,
    }
}

/// The number of ARGV values every call of a script (any of its `copies`)
/// passes, when each shows them all and they agree.
pub(super) fn callers_argv(m: &Model, copies: &[ScriptId]) -> Option<u32> {
    let mut counts = m
        .script_calls
        .iter()
        .filter(|u| copies.contains(&u.script) && !u.in_wrapper)
        .map(|u| {
            u.args_complete
                .then(|| u32::try_from(u.args.len()).ok())
                .flatten()
        });
    let first = counts.next()??;
    counts.all(|c| c == Some(first)).then_some(first)
}
