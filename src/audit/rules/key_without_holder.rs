//! # WA302 key-without-holder
//!
//! ## What it does
//! Counts live keys of a held type (`[keyspace.holds]`: job rows) whose id
//! no holder of their queue holds (`ZMSCORE`/`SMISMEMBER` on
//! `emq:{q}:pending`), with example keys and how many of them expire.
//! Holders that are lists are not asked (that reads the whole list); the
//! run's notes count the keys left unjudged. When the record names its
//! `state` field, only a row whose state is a holder's name (`pending`)
//! is asked: a finished job (`done`) waits in no queue, and a note counts
//! it.
//!
//! ## Why it breaks the wire
//! A row that no queue holds is never taken by a worker: the job was
//! written and never entered the queue, which is what a script that drops
//! its queue key (`KEYS[2]`) leaves behind.
//!
//! ## Example
//! A peer's `enqueue.lua` stopped using `KEYS[2]`; the audit finds
//! `310 job keys at emq:{<queue>}:job:<id> are held by no pending`.
//!
//! ## How to fix
//! Fix the script (`wirelint check` reports it as WL302), then add the
//! rows' ids to their queue, or delete the rows. A contract that lists
//! only some of the holders (a job may also sit in `active` or `done`)
//! makes this a warning to read with care: list every holder in
//! `[keyspace.holds]`.

use super::{count, examples, extras, verb, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA302",
    name: "key-without-holder",
    layer: Layer::L1,
    severity: Severity::Warning,
    summary: "live keys that no queue holds: written, never taken (warning)",
    source: include_str!("key_without_holder.rs"),
    run: super::reads_no_code,
};

pub fn describe(held: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let ks = cx.contract.keyspace.as_ref();
    let holds: Vec<_> = ks
        .map(|k| k.holds.iter().filter(|h| h.held == held).collect())
        .unwrap_or_default();
    let holders: Vec<String> = holds.iter().map(|h| format!("`{}`", h.holder)).collect();
    let label = match holds.first() {
        Some(h) => cx.label(
            &h.span,
            format!("the members of `{}` name `{held}` keys", h.holder),
        ),
        None => cx.keyspace_label(),
    };
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}` {} held by no {}",
            count(g.count, &format!("`{held}` key")),
            verb(g.count, "is", "are"),
            holders.join(" or ")
        ),
        label,
    );
    d.help = Some(format!(
        "{}{}; no worker takes a row that no queue holds",
        examples(g),
        extras(g)
    ));
    d
}
