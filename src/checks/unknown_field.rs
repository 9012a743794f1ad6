//! # WL201 unknown-field
//!
//! ## What it does
//! Flags a hash command on a contract record (HSET, HGET, HMGET, HDEL, …)
//! that names a field the record does not have. The record is the one its
//! key names; a key of holes and separators only (`ARGV[1] .. id`,
//! `"#{prefix}:#{queue}:#{id}"`) names none, and is the record whose
//! fields the command (or the reads after one HGETALL) names, when at
//! least three and most of them are that record's and no other's as many.
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
//! contract and in every speaker at once. When one field of the record is
//! the closest near miss, one edit away, the finding carries the
//! replacement as a suggestion (`check --fix --unsafe-fixes` applies it):
//! rows already written under the old name stay where they are.

use std::collections::{BTreeSet, HashMap};

use super::{quoted, typing, CheckContext, Rule};
use crate::contract::{closest, suggest, Record};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::{Span, Template};
use crate::link::{CommandUse, SpeakerId};
use crate::redis::{hash_access, HashAccess};

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
        // Once per command, not per field: an HSET with 8,000 unknown
        // fields made this quadratic.
        let named: Vec<(String, Span)> = cx
            .field_args(cmd)
            .iter()
            .filter_map(|a| a.literal())
            .collect();
        let stands_for = renamed(&named, record);
        for (field, span) in &named {
            if !record.has_field(field) {
                out.push(in_command(cx, cmd, record, field, *span, stands_for));
            }
        }
    }
    reads_after_hgetall(cx, out);
}

/// A hash command that names `field`, which `record` lacks.
fn in_command(
    cx: &CheckContext<'_>,
    cmd: &CommandUse,
    record: &Record,
    field: &str,
    span: Span,
    stands_for: Option<&str>,
) -> Diagnostic {
    let writes = matches!(
        hash_access(&cmd.name),
        Some(HashAccess::WritePairs | HashAccess::WriteOne)
    );
    let verb = if writes { "writes" } else { "names" };
    let mut d = unknown(
        cx,
        record,
        field,
        Label::new(span, format!("`{}` {verb} `{field}`", cmd.name)),
    );
    let help = if writes {
        let mean = match stands_for {
            Some(only) => format!("`{field}` stands where the contract has `{only}`: "),
            None => did_you_mean(record, field),
        };
        format!("{mean}{}", unread_write(cx, cmd.speaker))
    } else {
        format!(
            "{}{}",
            did_you_mean(record, field),
            unwritten_read(cx, field, cmd.speaker)
        )
    };
    cx.blame(&mut d, cmd.speaker, help, "the job's fields");
    d.fix = fix(cx, record, field, span);
    d
}

/// `Map.get(row, "data")`, `fields.get("data")` after HGETALL on a contract
/// record: the same finding, on the read.
/// A key that leaves its type open is typed by the fields its speaker
/// reads there, all together (`checks/typing.rs`).
fn reads_after_hgetall(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    type Group<'m> = (SpeakerId, &'m [Template]);
    let mut fields: HashMap<Group<'_>, BTreeSet<&str>> = HashMap::new();
    for r in &cx.model.field_reads {
        fields
            .entry((r.speaker, &r.key))
            .or_default()
            .insert(&r.field);
    }
    for r in &cx.model.field_reads {
        let by_fields = || {
            let named = fields.get(&(r.speaker, &r.key[..]))?;
            typing::by_fields(cx.contract?, &r.key, named)
        };
        let Some(record) = cx.record_of_key(&r.key).or_else(by_fields) else {
            continue;
        };
        if record.has_field(&r.field) {
            continue;
        }
        let field = &r.field;
        let mut d = unknown(
            cx,
            record,
            field,
            Label::new(r.span, format!("read of `{field}` after HGETALL")),
        );
        let help = format!(
            "{}{}",
            did_you_mean(record, field),
            unwritten_read(cx, field, r.speaker)
        );
        cx.blame(&mut d, r.speaker, help, "the job's fields");
        d.fix = fix(cx, record, field, r.span);
        out.push(d);
    }
}

/// The finding, with the contract's list of the record's fields beside it.
fn unknown(cx: &CheckContext<'_>, record: &Record, field: &str, primary: Label) -> Diagnostic {
    let mut d = RULE.diagnostic(
        format!(
            "field `{field}` is not a field of the `{}` record",
            record.name
        ),
        primary,
    );
    if let Some(s) = cx.contract_span(&record.fields_span) {
        d.related.push(Label::new(
            s,
            format!(
                "the `{}` record has fields {}",
                record.name,
                quoted(record.fields.iter().map(|(f, _)| f))
            ),
        ));
    }
    d
}

/// The field a write renamed, when it leaves out exactly one field of the
/// record and names exactly one unknown field.
fn renamed<'r>(named: &[(String, Span)], record: &'r Record) -> Option<&'r str> {
    let names: std::collections::HashSet<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
    let mut missing = record
        .fields
        .iter()
        .map(|(f, _)| f.as_str())
        .filter(|f| !names.contains(f));
    let unknown = named.iter().filter(|(n, _)| !record.has_field(n)).count();
    match (missing.next(), missing.next()) {
        (Some(only), None) if unknown == 1 => Some(only),
        _ => None,
    }
}

/// "did you mean `payload`? ", or nothing.
fn did_you_mean(record: &Record, field: &str) -> String {
    suggest(field, record.fields.iter().map(|(f, _)| f.as_str()))
        .map(|m| format!("{m} "))
        .unwrap_or_default()
}

/// The record's one field closest to `field`, in place of it, when the
/// source spells `field` as is: a suggestion (`--unsafe-fixes`), as rows
/// already written under the old name stay there.
fn fix(
    cx: &CheckContext<'_>,
    record: &Record,
    field: &str,
    span: Span,
) -> Option<crate::diagnostic::Fix> {
    let best = closest(field, record.fields.iter().map(|(f, _)| f.as_str()))?;
    if crate::contract::edit_distance(field, best) != 1 {
        return None;
    }
    let edit = cx.replacement(span, field, best)?;
    Some(crate::diagnostic::Fix::one(
        crate::diagnostic::Applicability::Unsafe,
        format!("replace `{field}` with the contract's `{best}`"),
        edit,
    ))
}

/// What a write of an unknown field does to the readers.
fn unread_write(cx: &CheckContext<'_>, speaker: SpeakerId) -> String {
    // The verbs agree with the phrase: "the other speaker reads", "every
    // other speaker reads", "the other 2 speakers read".
    let (read, find) = match cx.others(speaker).len() {
        0 | 1 => ("reads", "finds"),
        _ => ("read", "find"),
    };
    format!(
        "{} {read} the contract's fields and {find} nothing in rows that `{}` writes",
        cx.others_phrase(speaker),
        cx.speaker_name(speaker)
    )
}

/// What a read of an unknown field gets.
fn unwritten_read(cx: &CheckContext<'_>, field: &str, speaker: SpeakerId) -> String {
    format!(
        "no speaker that follows the contract writes `{field}`, so `{}` always reads nil",
        cx.speaker_name(speaker)
    )
}
