//! # WA102 hash-tag-miss
//!
//! ## What it does
//! Counts live keys under the contract's prefix whose queue is not the
//! hash tag, or whose braces are misplaced (`emq:orders:job:42` where the
//! contract says `emq:{<queue>}:job:<id>`), grouped by template.
//!
//! ## Why it breaks the wire
//! The bytes differ from the ones every speaker builds, so no speaker finds
//! these rows. In a cluster they also hash to another slot than their
//! queue's keys: a script that takes them together with the queue's keys
//! fails with `CROSSSLOT`, and a key moved back into the tagged form
//! changes slot.
//!
//! ## Example
//! A speaker dropped the braces from `queue_key/2`; the audit finds
//! `12 keys at emq:<queue>:job:<id>`.
//!
//! ## How to fix
//! Fix the speaker (`wirelint check` reports it as WL102), then move the
//! rows to their tagged keys (in a cluster, copy with `DUMP`/`RESTORE`
//! across slots), or delete them once drained.

use super::{count, examples, redis_types, them, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA102",
    name: "hash-tag-miss",
    layer: Layer::L1,
    severity: Severity::Error,
    summary:
        "live keys without the queue as their hash tag: unfindable, and in another cluster slot",
    source: include_str!("hash_tag_miss.rs"),
    run: super::reads_no_code,
};

pub fn describe(why: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let clustered = cx.contract.keyspace.as_ref().is_some_and(|k| k.clustered);
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}`: {why}, so no speaker finds {}",
            count(g.count, "key"),
            them(g.count)
        ),
        cx.keyspace_label(),
    );
    let slot = if clustered {
        "; in a cluster they hash to another slot than their queue's keys"
    } else {
        ""
    };
    d.help = Some(format!(
        "{} ({}){slot}; fix the speaker that writes them (`wirelint check`, WL102), then move them to their tagged keys",
        examples(g),
        redis_types(g)
    ));
    d
}
