//! # WA104 wrong-redis-type
//!
//! ## What it does
//! Counts live keys of a contract key type that hold another Redis type
//! than the contract says: a hash for a record's type, or what
//! `[keyspace.redis]` states (`emq:{orders}:pending` holding a list where
//! the contract says `zset`).
//!
//! ## Why it breaks the wire
//! Every command a speaker sends to the key fails with `WRONGTYPE`: the
//! row or queue is there, and nobody can read or write it.
//!
//! ## Example
//! A peer used `RPUSH` on the pending queue while the others use `ZADD`;
//! the audit finds `3 pending keys at emq:{<queue>}:pending hold a list,
//! not a zset`.
//!
//! ## How to fix
//! Fix the speaker that creates the key with the wrong command, then
//! rebuild the key in the contract's type (read it, delete it, write it
//! again) while its queue is paused.

use super::{count, examples, extras, them, verb, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA104",
    name: "wrong-redis-type",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "live keys of a contract type that hold another Redis type: every command fails with WRONGTYPE",
    source: include_str!("wrong_redis_type.rs"),
    run: super::reads_no_code,
};

pub fn describe(
    type_name: &str,
    expected: &str,
    found: &str,
    template: &str,
    g: &Group,
    cx: &Cx<'_>,
) -> Diagnostic {
    let ks = cx.contract.keyspace.as_ref();
    let label = match ks.and_then(|k| k.redis_type_of(type_name)) {
        Some(spec) => cx.label(
            &spec.span,
            format!("the contract makes `{type_name}` keys a {expected}"),
        ),
        None => match cx
            .contract
            .records
            .iter()
            .find(|r| r.type_name == type_name)
        {
            Some(r) => cx.label(&r.span, format!("the `{}` record lives in a hash", r.name)),
            None => cx.keyspace_label(),
        },
    };
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}` {} a {found}, not a {expected}: every command on {} fails with WRONGTYPE",
            count(g.count, &format!("`{type_name}` key")),
            verb(g.count, "holds", "hold"),
            them(g.count)
        ),
        label,
    );
    d.help = Some(format!(
        "{}{}; fix the speaker that creates them with a {found} command",
        examples(g),
        extras(g)
    ));
    d
}
