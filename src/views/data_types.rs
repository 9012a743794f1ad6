//! `[keyspace.redis]` of a drafted contract: each key type's Redis data
//! type, from the commands the code sends on keys of that type
//! ([`crate::redis::data_type`]: `LPUSH` needs a list, `ZADD` a sorted
//! set). A type that one command uses as a list and another as a sorted
//! set is left out, with a comment that says so, for the reviewer.

use std::collections::{BTreeMap, BTreeSet};

use crate::facts::Span;
use crate::link::records::key_shape;
use crate::link::Model;
use crate::redis::data_type;

/// Appends `[keyspace.redis]` for the types of `type_of_shape` (key shape
/// -> type name) that commands outside test code use as one data type.
pub(super) fn write(
    text: &mut String,
    m: &Model,
    type_of_shape: &BTreeMap<String, String>,
    kept: &dyn Fn(Span) -> bool,
) {
    let seen = used_as(m, type_of_shape, kept);
    if seen.is_empty() {
        return;
    }
    text.push_str("\n[keyspace.redis]\n");
    for (t, kinds) in &seen {
        match kinds.iter().collect::<Vec<_>>().as_slice() {
            [one] => text.push_str(&format!("{t} = \"{one}\"\n")),
            many => {
                let list: Vec<&str> = many.iter().map(|k| **k).collect();
                text.push_str(&format!("# {t}: used as {}\n", list.join(" and ")));
            }
        }
    }
}

/// Each type's data types, as the commands on its keys require them.
pub(super) fn used_as(
    m: &Model,
    type_of_shape: &BTreeMap<String, String>,
    kept: &dyn Fn(Span) -> bool,
) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut out: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    for cmd in m.commands.iter().filter(|c| kept(c.span)) {
        let positions = crate::redis::key_args(&cmd.name, cmd.args.len());
        for pos in positions {
            let (Some(kind), Some(arg)) = (data_type(&cmd.name, pos), cmd.args.get(pos)) else {
                continue;
            };
            for t in arg.alts.iter() {
                if let Some(name) = type_of_shape.get(&key_shape(t)) {
                    out.entry(name.clone()).or_default().insert(kind);
                }
            }
        }
    }
    out
}
