//! # WA201 unknown-field
//!
//! ## What it does
//! Counts live record hashes (keys of a record's type holding a hash) with
//! a field the contract's record does not have, one finding per record and
//! field, with example keys. Field values are never read.
//!
//! ## Why it breaks the wire
//! A field that no speaker reads is usually a renamed one: the writer put
//! `data` where every reader looks for `payload`, so the row exists and is
//! unreadable.
//!
//! ## Example
//! The canonical library's `enqueue` wrote `data` for two releases; the
//! audit finds `8841 job rows have field data`, and WA202 finds the same
//! rows without `payload`.
//!
//! ## How to fix
//! Fix the writer (`wirelint check` reports it as WL201), then migrate the
//! rows (`HSET` the contract's field from the stray one, `HDEL` the stray
//! one), or add the field to the record if it is a new one everybody
//! agreed on.

use super::{count, examples, extras, verb, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA201",
    name: "unknown-field",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "live record hashes with a field the record does not have (a rename nobody reads)",
    source: include_str!("unknown_field.rs"),
    run: super::reads_no_code,
};

pub fn describe(record: &str, field: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let rec = cx.contract.records.iter().find(|r| r.name == record);
    let fields: Vec<String> = rec
        .map(|r| r.fields.iter().map(|(f, _)| format!("`{f}`")).collect())
        .unwrap_or_default();
    let label = match rec {
        Some(r) => cx.label(
            &r.fields_span,
            format!("the `{record}` record has {}", fields.join(", ")),
        ),
        None => cx.keyspace_label(),
    };
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}` {} field `{field}`, which the `{record}` record does not have",
            count(g.count, &format!("`{record}` row")),
            verb(g.count, "has", "have")
        ),
        label,
    );
    d.help = Some(format!(
        "{}{}; no speaker reads `{field}`: if it is a renamed field, fix the writer (`wirelint check`, WL201) and migrate the rows",
        examples(g),
        extras(g)
    ));
    d
}
