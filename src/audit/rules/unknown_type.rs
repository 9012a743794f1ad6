//! # WA103 unknown-type
//!
//! ## What it does
//! Counts live keys under the contract's prefix and hash tag whose type
//! suffix is none of `[keyspace.types]` (`emq:{orders}:jobs:42` where the
//! contract has `job:<id>`), grouped by template.
//!
//! ## Why it breaks the wire
//! No speaker's template builds these bytes, so no speaker reads the rows:
//! a misspelled type in one release leaves its rows behind, unfindable.
//!
//! ## Example
//! A peer wrote `emq:{q}:jobs:<id>` for a week; the audit finds
//! `5012 keys at emq:{<queue>}:jobs:<id>`.
//!
//! ## How to fix
//! Fix the speaker (`wirelint check` reports it as WL103) and move the rows
//! to the contract's key, or add the type to the contract if every speaker
//! really uses it.

use super::{count, examples, redis_types, them, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA103",
    name: "unknown-type",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "live keys of a type suffix the contract does not define: no speaker reads them",
    source: include_str!("unknown_type.rs"),
    run: super::reads_no_code,
};

pub fn describe(found: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let what = if found.is_empty() {
        "nothing follows the queue".to_string()
    } else {
        format!("the type `{found}` is not in the contract")
    };
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}`: {what}, so no speaker reads {}",
            count(g.count, "key"),
            them(g.count)
        ),
        cx.keyspace_label(),
    );
    d.help = Some(format!(
        "{} ({}); fix the speaker that writes them (`wirelint check`, WL103), or add the type to [keyspace.types]",
        examples(g),
        redis_types(g)
    ));
    d
}
