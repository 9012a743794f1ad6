//! # WL202 missing-field
//!
//! ## What it does
//! Flags the write that creates a contract record (the HSET of a script the
//! contract marks `creates = "<record>"`) when it leaves out one of the
//! record's fields.
//!
//! ## Why it breaks the wire
//! Every speaker reads the record's fields by name. A row created without
//! `attempts` reads as nil on every speaker, which each runtime then
//! interprets its own way (a crash, a zero, a retry fence that never holds).
//!
//! ## Example
//! ```lua
//! redis.call('HSET', KEYS[1], 'state', 'pending', 'payload', ARGV[2])  -- no attempts
//! ```
//!
//! ## How to fix
//! Write every field of the record in the creating write. When a field was
//! renamed rather than dropped, WL201 reports the new name instead.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::redis::{hash_access, HashAccess};

pub static RULE: Rule = Rule {
    code: "WL202",
    name: "missing-field",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "the write that creates a record leaves out one of its fields",
    source: include_str!("missing_field.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    for (id, script) in cx.model.scripts.iter().enumerate() {
        let Some(spec) = script.contract.map(|i| &contract.scripts[i]) else {
            continue;
        };
        let Some(record) = spec
            .creates
            .as_ref()
            .and_then(|r| contract.records.iter().find(|x| &x.name == r))
        else {
            continue;
        };
        let writes: Vec<_> = cx
            .model
            .commands
            .iter()
            .filter(|c| c.script == Some(id))
            .filter(|c| {
                matches!(
                    hash_access(&c.name),
                    Some(HashAccess::WritePairs | HashAccess::WriteOne)
                )
            })
            .filter(|c| {
                cx.record_of_command(c)
                    .is_some_and(|r| r.name == record.name)
            })
            .collect();
        let Some(first) = writes.first() else {
            continue;
        };
        let mut written = Vec::new();
        let mut unclear = false;
        for w in &writes {
            for arg in cx.field_args(w) {
                match arg.literal() {
                    Some((f, _)) => written.push(f),
                    None => unclear = true,
                }
            }
        }
        // A renamed field is WL201's finding; an unseen field name may be
        // any of the missing ones.
        if unclear || written.iter().any(|f| !record.has_field(f)) {
            continue;
        }
        let missing: Vec<&str> = record
            .fields
            .iter()
            .map(|(f, _)| f.as_str())
            .filter(|f| !written.iter().any(|w| w == f))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let list = missing
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut d = RULE.diagnostic(
            format!(
                "script `{}` creates a `{}` record without {list}",
                spec.name, record.name
            ),
            Label::new(first.name_span, format!("this write leaves out {list}")),
        );
        if let Some(s) = cx.contract_span(&record.fields_span) {
            d.related.push(Label::new(
                s,
                format!("the `{}` record's fields", record.name),
            ));
        }
        let help = format!(
            "write every field ({}) when the row is created: every speaker reads {list} from rows that `{}` creates and finds nil",
            record.fields.iter().map(|(f, _)| format!("`{f}`")).collect::<Vec<_>>().join(", "),
            cx.speaker_name(script.speaker)
        );
        cx.blame(&mut d, script.speaker, help, "read", "the job");
        out.push(d);
    }
}
