//! # WL201 unknown-field
//!
//! ## What it does
//! Flags a hash command on a contract record (HSET, HGET, HMGET, HDEL, …)
//! that names a field the record does not have.
//!
//! ## Why it breaks the wire
//! Field names are part of the contract. A speaker that writes `data` where
//! the record has `payload` writes a field nobody else reads: a claim returns
//! the row, and every other speaker finds no payload. A speaker that reads
//! a field nobody writes always gets nil.
//!
//! ## Example
//! ```lua
//! redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'data', ARGV[2])
//! ```
//!
//! ## How to fix
//! Use the contract's field name (`payload`), or rename the field in the
//! contract and in every speaker at once.

use super::{CheckContext, Rule};
use crate::contract::suggest;
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL201",
    name: "unknown-field",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a hash command on a contract record names a field the record does not have",
    source: include_str!("unknown_field.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for cmd in &cx.model.commands {
        let Some(record) = cx.record_of_command(cmd) else {
            continue;
        };
        for arg in cx.field_args(cmd) {
            let Some((field, span)) = arg.literal() else {
                continue;
            };
            if record.has_field(&field) {
                continue;
            }
            let impact = cx.impact_of(cmd.speaker);
            let writes = crate::redis::hash_access(&cmd.name).is_some_and(|a| {
                matches!(
                    a,
                    crate::redis::HashAccess::WritePairs | crate::redis::HashAccess::WriteOne
                )
            });
            let mut d = RULE.diagnostic(
                format!(
                    "field `{field}` is not a field of the `{}` record",
                    record.name
                ),
                Label::new(
                    span,
                    format!(
                        "`{}` {} `{field}`",
                        cmd.name,
                        if writes { "writes" } else { "names" }
                    ),
                ),
            );
            if let Some(s) = cx.contract_span(&record.fields_span) {
                d.related.push(Label::new(
                    s,
                    format!(
                        "the `{}` record has fields {}",
                        record.name,
                        record
                            .fields
                            .iter()
                            .map(|(f, _)| format!("`{f}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            // A write that leaves out exactly one field and names exactly
            // one unknown field renamed it.
            let named: Vec<String> = cx
                .field_args(cmd)
                .iter()
                .filter_map(|a| a.literal())
                .map(|(f, _)| f)
                .collect();
            let missing: Vec<&str> = record
                .fields
                .iter()
                .map(|(f, _)| f.as_str())
                .filter(|f| !named.iter().any(|n| n == f))
                .collect();
            let unknown = named.iter().filter(|n| !record.has_field(n)).count();
            let mean = if writes && missing.len() == 1 && unknown == 1 {
                format!("`{field}` stands where the contract has `{}`: ", missing[0])
            } else {
                suggest(&field, record.fields.iter().map(|(f, _)| f.as_str()))
                    .map(|m| format!("{m} "))
                    .unwrap_or_default()
            };
            let consequence = if writes {
                format!(
                    "{} read{} the contract's fields and find nothing in rows that `{}` writes",
                    cx.others_phrase(cmd.speaker),
                    if impact.unaffected.len() == 1 {
                        "s"
                    } else {
                        ""
                    },
                    cx.speaker_name(cmd.speaker)
                )
            } else {
                format!("no speaker that follows the contract writes `{field}`, so `{}` always reads nil", cx.speaker_name(cmd.speaker))
            };
            cx.blame(
                &mut d,
                cmd.speaker,
                format!("{mean}{consequence}"),
                "read",
                "the job",
            );
            out.push(d);
        }
    }
    reads_after_hgetall(cx, out);
}

/// `Map.get(row, "data")`, `fields.get("data")` after HGETALL on a contract
/// record: the same finding, on the read.
fn reads_after_hgetall(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    let Some(ks) = contract.keyspace.as_ref() else {
        return;
    };
    for r in &cx.model.field_reads {
        let mut record = None;
        for t in &r.key {
            match super::keyshape::record_of(t, ks, &contract.records) {
                Some(x) if record.is_none_or(|y: &crate::contract::Record| y.name == x.name) => {
                    record = Some(x)
                }
                _ => {
                    record = None;
                    break;
                }
            }
        }
        let Some(record) = record else {
            continue;
        };
        if record.has_field(&r.field) {
            continue;
        }
        let field = &r.field;
        let mut d = RULE.diagnostic(
            format!(
                "field `{field}` is not a field of the `{}` record",
                record.name
            ),
            Label::new(r.span, format!("read of `{field}` after HGETALL")),
        );
        if let Some(s) = cx.contract_span(&record.fields_span) {
            d.related.push(Label::new(
                s,
                format!(
                    "the `{}` record has fields {}",
                    record.name,
                    record
                        .fields
                        .iter()
                        .map(|(f, _)| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let mean = suggest(field, record.fields.iter().map(|(f, _)| f.as_str()))
            .map(|m| format!("{m} "))
            .unwrap_or_default();
        let help = format!(
            "{mean}no speaker that follows the contract writes `{field}`, so `{}` always reads nil",
            cx.speaker_name(r.speaker)
        );
        cx.blame(&mut d, r.speaker, help, "read", "the job");
        out.push(d);
    }
}
