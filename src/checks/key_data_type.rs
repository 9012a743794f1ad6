//! # WL105 key-data-type
//!
//! ## What it does
//! Flags a command on a key of the contract's keyspace that needs another
//! Redis data type than the contract gives the key's type: `LPUSH` (a list)
//! on a key the contract keeps as a sorted set (`[keyspace.redis]`), or
//! any non-hash command on a key that holds a record. Only a key that
//! names its type by literal bytes counts (a type that is a bare
//! placeholder, BullMQ's job at `<id>`, matches any word); a command of
//! any type (`DEL`, `EXPIRE`) is never flagged.
//!
//! ## Why it breaks the wire
//! Redis keeps one data type per key. The first speaker to write the key
//! makes it a list or a sorted set; every command of the other type on
//! it fails with `WRONGTYPE Operation against a key holding the wrong kind
//! of value`, in whichever runtime comes second.
//!
//! ## Example
//! ```elixir
//! Redix.command(conn, ["LPUSH", "emq:{#{q}}:pending", id])
//! ```
//! (the contract keeps `pending` as a `zset`)
//!
//! ## How to fix
//! Use a command of the contract's data type (`ZADD` for a sorted set), or
//! change the contract's `[keyspace.redis]` and every speaker at once.

use super::{CheckContext, Rule};
use crate::contract::PatTok;
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::keyshape::{typing, Typing};
use crate::redis::data_type;

pub static RULE: Rule = Rule {
    code: "WL105",
    name: "key-data-type",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a command needs another Redis data type than the contract gives its key: WRONGTYPE",
    source: include_str!("key_data_type.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    let Some(ks) = contract.keyspace.as_ref() else {
        return;
    };
    for cmd in &cx.model.commands {
        let positions = crate::redis::key_args(&cmd.name, cmd.args.len());
        for pos in positions {
            let (Some(needs), Some(arg)) = (data_type(&cmd.name, pos), cmd.args.get(pos)) else {
                continue;
            };
            // A script's `KEYS[n]` holds what its callers pass: a key in
            // the wrong slot is WL304's finding, at the call.
            if arg.keys_index().is_some() {
                continue;
            }
            // Every template the key may be names one type, the same one.
            let mut named = arg.alts.iter().map(|t| match typing(t, ks) {
                Typing::Named(ty) => Some(ty),
                Typing::Open(_) => None,
            });
            let Some(Some(ty)) = named.next() else {
                continue;
            };
            // A type that is a bare placeholder (BullMQ's job at `<id>`)
            // matches any word: no evidence of what the key is.
            if !ty.pattern.iter().any(|p| matches!(p, PatTok::Lit(_))) {
                continue;
            }
            if !named.all(|n| n.is_some_and(|n| n.name == ty.name)) {
                continue;
            }
            let (holds, at) = match ks.redis_type_of(&ty.name) {
                Some(r) => (r.redis.as_str(), cx.contract_span(&r.span)),
                None => match contract.records.iter().find(|r| r.type_name == ty.name) {
                    Some(r) => ("hash", cx.contract_span(&r.span)),
                    None => continue,
                },
            };
            if holds == needs {
                continue;
            }
            let span = arg.value.span();
            let mut d = RULE.diagnostic(
                format!(
                    "`{}` needs a {needs} at a `{}` key, which the contract keeps as a {holds}",
                    cmd.name, ty.name
                ),
                Label::new(span, format!("a `{}` key", ty.name)),
            );
            if let Some(s) = at {
                d.related.push(Label::new(
                    s,
                    format!("the contract's `{}` is a {holds}", ty.name),
                ));
            }
            let help = format!(
                "whichever of `{}` and {} writes the key first, the other's commands on it fail with WRONGTYPE",
                cx.speaker_name(cmd.speaker),
                cx.others_phrase(cmd.speaker)
            );
            cx.blame(&mut d, cmd.speaker, help, "what the key holds");
            out.push(d);
        }
    }
}
