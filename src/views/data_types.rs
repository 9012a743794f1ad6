//! `[keyspace.redis]` of a drafted contract: each key type's Redis data
//! type, from the commands the code sends on keys of that type
//! ([`crate::redis::data_type`]: `LPUSH` needs a list, `ZADD` a sorted
//! set). A type that one command uses as a list and another as a sorted
//! set is left out, with a comment that says so, for the reviewer.

use std::collections::{BTreeMap, BTreeSet};

use crate::contract::{Keyspace, PatTok};
use crate::facts::Span;
use crate::keyshape::{typing, Typing};
use crate::link::records::key_shape;
use crate::link::{Arg, CommandUse, Model};
use crate::pipeline::Analysis;
use crate::redis::data_type;

use super::observe::quote;

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
    each_key_use(m, kept, |_, arg, kind| {
        for t in arg.alts.iter() {
            if let Some(name) = type_of_shape.get(&key_shape(t)) {
                out.entry(name.clone()).or_default().insert(kind);
            }
        }
    });
    out
}

/// Each key argument of a command outside test code that needs one Redis
/// data type (`LPUSH`'s key: a list), with that type.
fn each_key_use<'m>(
    m: &'m Model,
    kept: &dyn Fn(Span) -> bool,
    mut f: impl FnMut(&'m CommandUse, &'m Arg, &'static str),
) {
    for cmd in m.commands.iter().filter(|c| kept(c.span)) {
        for pos in crate::redis::key_args(&cmd.name, cmd.args.len()) {
            if let (Some(kind), Some(arg)) = (data_type(&cmd.name, pos), cmd.args.get(pos)) {
                f(cmd, arg, kind);
            }
        }
    }
}

/// The keyspace of the contract given (`extract --as-contract --contract
/// bullmq`) when the draft infers none of its own (BullMQ's TypeScript key
/// builder is not read): its `[keyspace]` as the contract writes it, and
/// `[keyspace.redis]` from the commands on keys of its types, a script's
/// `KEYS[n]` by the type its contract role names.
pub(super) fn write_given(text: &mut String, a: &Analysis, kept: &dyn Fn(Span) -> bool) {
    let Some(c) = a.contract.as_ref() else {
        return;
    };
    let Some(ks) = c.keyspace.as_ref() else {
        return;
    };
    text.push_str(&format!(
        "\n# The keyspace of `{}`, as given: the code's key builders are not read.\n[keyspace]\n",
        c.name
    ));
    if ks.queue_key {
        // As written (`<prefix>:<queue>:<type>`), not with the prefix put in.
        let written = c.text.get(ks.pattern_span.clone()).unwrap_or("");
        let written = written.trim().trim_matches('"');
        let pattern = if written.contains("<queue>") {
            written
        } else {
            &ks.pattern
        };
        text.push_str(&format!("key = {}\n", quote(pattern)));
    }
    if let Some((p, _)) = &ks.prefix_value {
        text.push_str(&format!("prefix = {}\n", quote(p)));
    }
    text.push_str(&format!("clustered = {}\n", ks.clustered));
    for (title, whole) in [("types", false), ("keys", true)] {
        let mut types = ks.types.iter().filter(|t| t.whole == whole).peekable();
        if types.peek().is_some() {
            text.push_str(&format!("\n[keyspace.{title}]\n"));
        }
        for t in types {
            text.push_str(&format!("{} = {}\n", key(&t.name), quote(&t.text)));
        }
    }
    let seen = used_as_given(a, ks, kept);
    if !seen.is_empty() {
        text.push_str("\n[keyspace.redis]\n");
    }
    for (t, kinds) in &seen {
        let list: Vec<&str> = kinds.iter().copied().collect();
        match list.as_slice() {
            [one] => text.push_str(&format!("{} = \"{one}\"\n", key(t))),
            many => text.push_str(&format!("# {t}: used as {}\n", many.join(" and "))),
        }
    }
}

/// Each of the given keyspace's types' data types, as the commands on its
/// keys require them.
fn used_as_given(
    a: &Analysis,
    ks: &Keyspace,
    kept: &dyn Fn(Span) -> bool,
) -> BTreeMap<String, BTreeSet<&'static str>> {
    let m = &a.model;
    let contract = a.contract.as_ref();
    let mut out: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    each_key_use(m, kept, |cmd, arg, kind| {
        let mut named: BTreeSet<&str> = BTreeSet::new();
        if let Some(n) = arg.keys_index() {
            let spec = cmd
                .script
                .and_then(|s| m.scripts[s].contract)
                .and_then(|i| contract.map(|c| &c.scripts[i]));
            let role = spec.and_then(|s| s.keys.get((n as usize).checked_sub(1)?));
            named.extend(
                role.and_then(|(r, _)| ks.types.iter().find(|t| &t.name == r))
                    .map(|t| t.name.as_str()),
            );
        } else {
            for t in arg.alts.iter() {
                if let Typing::Named(ty) = typing(t, ks) {
                    // A bare placeholder (BullMQ's job at `<id>`)
                    // matches any word: no evidence.
                    if ty.pattern.iter().any(|p| matches!(p, PatTok::Lit(_))) {
                        named.insert(ty.name.as_str());
                    }
                }
            }
        }
        if let [one] = named.into_iter().collect::<Vec<_>>().as_slice() {
            out.entry(one.to_string()).or_default().insert(kind);
        }
    });
    out
}

/// A TOML key: bare when it can be.
fn key(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        name.to_string()
    } else {
        quote(name)
    }
}
