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

use super::{quoted, CheckContext, Rule};
use crate::contract::{Record, ScriptSpec};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::link::{CommandUse, Script, ScriptId};
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
        let writes = record_writes(cx, id, record);
        let Some(first) = writes.first() else {
            continue;
        };
        let Some(missing) = left_out(cx, &writes, record) else {
            continue;
        };
        if !missing.is_empty() {
            out.push(finding(cx, script, spec, record, first, &missing));
        }
    }
}

/// The hash writes of script `id` on `record`.
fn record_writes<'m>(cx: &CheckContext<'m>, id: ScriptId, record: &Record) -> Vec<&'m CommandUse> {
    cx.model
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
        .collect()
}

/// The fields of `record` that the writes leave out; `None` when a write
/// names a field it does not show, sends more than the code shows (`...`,
/// `unpack(t, i, j)`: those may be any of the missing ones) or one the
/// record lacks (a renamed field is WL201's finding; an unseen name may be
/// any of the missing ones).
fn left_out<'r>(
    cx: &CheckContext<'_>,
    writes: &[&CommandUse],
    record: &'r Record,
) -> Option<Vec<&'r str>> {
    let mut written = Vec::new();
    for w in writes {
        if w.open_tail {
            return None;
        }
        for arg in cx.field_args(w) {
            written.push(arg.literal()?.0);
        }
    }
    if written.iter().any(|f| !record.has_field(f)) {
        return None;
    }
    Some(
        record
            .fields
            .iter()
            .map(|(f, _)| f.as_str())
            .filter(|f| record.always_written(f) && !written.iter().any(|w| w == f))
            .collect(),
    )
}

fn finding(
    cx: &CheckContext<'_>,
    script: &Script,
    spec: &ScriptSpec,
    record: &Record,
    first: &CommandUse,
    missing: &[&str],
) -> Diagnostic {
    let list = quoted(missing);
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
        quoted(record.fields.iter().map(|(f, _)| f)),
        cx.speaker_name(script.speaker)
    );
    cx.blame(&mut d, script.speaker, help, "the job's fields");
    d
}
