//! # WA202 missing-field
//!
//! ## What it does
//! Counts live record hashes without one of the record's fields, one
//! finding per record and field, with example keys. A hash larger than
//! `--sample` fields is asked with `HEXISTS` for each record field.
//!
//! ## Why it breaks the wire
//! The contract's records are written whole (the script that creates one
//! sets every field, or every field of the record's `always`), so every
//! reader expects them. A row without
//! `payload` makes a worker crash or skip the job.
//!
//! ## Example
//! A peer's `enqueue.lua` dropped `attempts`; the audit finds
//! `230 job rows lack field attempts`.
//!
//! ## How to fix
//! Fix the writer (`wirelint check` reports it as WL202), then fill the
//! field in the existing rows, or delete rows that cannot be repaired.

use super::{count, examples, extras, verb, Cx};
use crate::checks::Rule;
use crate::diagnostic::{Diagnostic, Layer, Severity};

use super::super::group::Group;

pub static RULE: Rule = Rule {
    code: "WA202",
    name: "missing-field",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "live record hashes without one of the record's fields",
    source: include_str!("missing_field.rs"),
    run: super::reads_no_code,
};

pub fn describe(record: &str, field: &str, template: &str, g: &Group, cx: &Cx<'_>) -> Diagnostic {
    let span = cx
        .contract
        .records
        .iter()
        .find(|r| r.name == record)
        .and_then(|r| r.fields.iter().find(|(f, _)| f == field))
        .map(|(_, s)| s.clone());
    let label = match span {
        Some(s) => cx.label(&s, format!("every `{record}` row has `{field}`")),
        None => cx.keyspace_label(),
    };
    let mut d = RULE.diagnostic(
        format!(
            "{} at `{template}` {} field `{field}`",
            count(g.count, &format!("`{record}` row")),
            verb(g.count, "lacks", "lack")
        ),
        label,
    );
    d.help = Some(format!(
        "{}{}; every speaker that reads a `{record}` expects `{field}`: fix the writer (`wirelint check`, WL202) and fill the rows",
        examples(g),
        extras(g)
    ));
    d
}
