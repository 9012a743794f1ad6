//! # WA101 prefix-miss
//!
//! ## What it does
//! Counts live keys shaped like the contract's keys but under a near miss
//! of its prefix (`emk:{orders}:job:42` where the contract says `emq:`),
//! grouped by template, with a few example keys and their Redis types.
//!
//! ## Why it breaks the wire
//! Every speaker finds a row by building its key byte for byte. Rows under
//! another prefix are not lost, they are unfindable: no worker pops them,
//! no reader sees them, and they stay until someone looks.
//!
//! ## Example
//! A peer built `format!("emk:{{{q}}}:job:{id}")` for a release; the audit
//! finds `1204 keys at emk:{<queue>}:job:<id>`.
//!
//! ## How to fix
//! Fix the speaker first (`wirelint check` reports it as WL101), then move
//! the rows under the contract's prefix (`RENAME` keeps a key in its slot
//! when the hash tag is unchanged), or delete them once they are drained.

use super::{count, examples, redis_types, them, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA101",
    name: "prefix-miss",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "live keys under a near miss of the contract's prefix: no speaker finds them",
    source: include_str!("prefix_miss.rs"),
    run: super::reads_no_code,
};

pub fn describe(found: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let prefix = cx
        .contract
        .keyspace
        .as_ref()
        .map(|k| k.prefix.as_str())
        .unwrap_or_default();
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}`: `{found}` is a near miss of the contract's prefix `{prefix}`, so no speaker finds {}",
            count(g.count, "key"),
            them(g.count)
        ),
        cx.keyspace_label(),
    );
    d.help = Some(format!(
        "{} ({}); fix the speaker that writes them (`wirelint check`, WL101), then move them under `{prefix}`",
        examples(g),
        redis_types(g)
    ));
    d
}
