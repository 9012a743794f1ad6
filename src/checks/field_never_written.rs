//! # WL203 field-never-written
//!
//! ## What it does
//! Flags a read of a record field that no speaker ever writes, in a record
//! whose other fields the code does write. A record is the set of hash
//! commands on one key template, in any speaker, Lua included; no contract
//! is needed. A record whose fields are not all shown (a field named by a
//! value, a list of unknown length, a script's write at a key that names
//! no record) is left alone: `check --coverage` lists it, with the reason.
//!
//! ## Why it breaks the wire
//! The read always returns nil. The usual cause is a rename on one side:
//! one runtime reads `processedBy` while every writer writes `pb`.
//!
//! ## Example
//! ```rust
//! con.hget(keys.job(id), "processedBy")   // every writer writes "pb"
//! ```
//!
//! ## How to fix
//! Read the field under the name the writers use, or rename it in every
//! writer at once.

use super::{quoted, CheckContext, Rule};
use crate::hash::HashSet;

/// The most written fields a misread field is compared with for a
/// suggestion.
const MAX_COMPARED: usize = 1000;
use crate::contract::suggest;
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL203",
    name: "field-never-written",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a speaker reads a record field that no speaker writes",
    source: include_str!("field_never_written.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let hidden = cx.fields_written_by_unlinked_scripts();
    for rec in &cx.model.records {
        if rec.unclear.is_some() || !rec.has_writes() {
            continue;
        }
        let written: Vec<&str> = rec
            .fields
            .iter()
            .filter(|(_, uses)| uses.iter().any(|u| u.write))
            .map(|(f, _)| f.as_str())
            .collect();
        let is_written: HashSet<&str> = written.iter().copied().collect();
        let list = quoted(&written);
        let contract_record = cx.contract_record_at(&rec.example);
        for (field, uses) in &rec.fields {
            if is_written.contains(field.as_str()) || hidden.contains(field) {
                continue;
            }
            // A field the contract's record lacks is WL201's finding.
            if contract_record.is_some_and(|r| !r.has_field(field)) {
                continue;
            }
            // A record of more written fields than any real one has
            // (hostile input) gets no suggestion: each is a comparison with
            // every written field.
            let mean = (written.len() <= MAX_COMPARED)
                .then(|| suggest(field, written.iter().copied()))
                .flatten()
                .map(|m| format!("{m} "))
                .unwrap_or_default();
            for u in uses.iter().filter(|u| !u.write) {
                let mut d = RULE.diagnostic(
                    format!(
                        "field `{field}` of `{}` is read here, but no speaker writes it",
                        rec.key
                    ),
                    Label::new(u.span, "always nil"),
                );
                if let Some(w) = rec
                    .writers(written.first().copied().unwrap_or_default())
                    .next()
                {
                    d.related.push(Label::new(
                        w.span,
                        format!("`{}` writes the record here", cx.speaker_name(w.speaker)),
                    ));
                }
                let help = format!(
                    "{mean}the writers write {list}; `{}` reads nil here",
                    cx.speaker_name(u.speaker)
                );
                cx.blame(&mut d, u.speaker, help, "the record's fields");
                out.push(d);
            }
        }
    }
}
