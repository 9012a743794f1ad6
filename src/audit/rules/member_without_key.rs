//! # WA301 member-without-key
//!
//! ## What it does
//! Reads every member of every holder key (`[keyspace.holds]`, such as
//! `pending = "job"`: the members of `emq:{q}:pending` are job ids) and
//! counts the members whose key (`emq:{q}:job:<id>`) does not exist, with
//! the missing keys as examples.
//!
//! ## Why it breaks the wire
//! A worker pops the id and finds no row: the job fails, is retried
//! forever, or crashes the worker. It is what a dropped key or a moved
//! prefix leaves in the queue: the id entered it, the row went elsewhere.
//!
//! ## Example
//! A peer writes its rows under `emk:` but pushes ids to the shared
//! `emq:{q}:pending`; the audit finds `1204 members of
//! emq:{<queue>}:pending name a job key that does not exist`.
//!
//! ## How to fix
//! Find where the rows went (WA101-WA103 usually say), move them back,
//! and remove the ids whose rows are truly gone from the holder.

use super::{count, examples, verb, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA301",
    name: "member-without-key",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "queue members (ids) whose key does not exist: workers pop jobs that are not there",
    source: include_str!("member_without_key.rs"),
    run: super::reads_no_code,
};

pub fn describe(holder: &str, held: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let ks = cx.contract.keyspace.as_ref();
    let holds = ks.and_then(|k| {
        k.holds
            .iter()
            .find(|h| h.holder == holder && h.held == held)
    });
    let holder_key = ks
        .and_then(|k| k.type_named(holder).map(|t| k.render(t)))
        .unwrap_or_default();
    let label = match holds {
        Some(h) => cx.label(
            &h.span,
            format!("the members of `{holder}` name `{held}` keys"),
        ),
        None => cx.keyspace_label(),
    };
    let mut d = RULE.diagnostic(
        format!(
            "{} of `{holder_key}` {} a `{held}` key at `{template}` that does not exist",
            count(g.count, "member"),
            verb(g.count, "names", "name")
        ),
        label,
    );
    d.help = Some(format!(
        "missing keys {}; a worker that pops these ids finds no row",
        examples(g)
    ));
    d
}
