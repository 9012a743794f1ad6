//! # WL310 id-gate-missing
//!
//! ## What it does
//! Flags a script that writes a row of a record whose ids the contract
//! gates (`[ids.job]`: `bytes`, `kind`, `gate`) without first checking the
//! id's brand: before its first write to the row, the script must compare
//! the id's brand bytes with the record's `kind` and raise the gate's error
//! (`EMQKIND`) when they differ.
//!
//! ## Why it breaks the wire
//! A job id is branded with its kind, and the Lua side is the one place
//! every speaker goes through. A script that skips the gate writes a row
//! under an id of the wrong kind or length from any speaker, and every
//! other speaker then holds a row it cannot trust.
//!
//! ## Example
//! ```lua
//! -- enqueue, without the gate
//! redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
//! ```
//!
//! ## How to fix
//! Check the brand before the first write:
//! ```lua
//! if string.sub(ARGV[1], 1, 3) ~= 'JOB' then return redis.error_reply('EMQKIND') end
//! ```

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::redis::{hash_access, HashAccess};

pub static RULE: Rule = Rule {
    code: "WL310",
    name: "id-gate-missing",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a script writes a row of a gated record without first checking the id's brand",
    source: include_str!("id_gate_missing.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    if contract.ids.is_empty() {
        return;
    }
    // The first write of each script to each gated record.
    let mut firsts: Vec<(usize, usize, usize)> = Vec::new();
    for (ci, c) in cx.model.commands.iter().enumerate() {
        let Some(script) = c.script else {
            continue;
        };
        if !matches!(
            hash_access(&c.name),
            Some(HashAccess::WritePairs | HashAccess::WriteOne)
        ) {
            continue;
        }
        let Some(record) = cx.record_of_command(c) else {
            continue;
        };
        let Some(id) = contract.ids.iter().position(|i| i.record == record.name) else {
            continue;
        };
        let earlier = firsts.iter().position(|f| f.0 == script && f.1 == id);
        match earlier {
            Some(k) if cx.model.commands[firsts[k].2].span.start <= c.span.start => {}
            Some(k) => firsts[k].2 = ci,
            None => firsts.push((script, id, ci)),
        }
    }
    firsts.sort_unstable();
    for (script, id, ci) in firsts {
        let spec = &contract.ids[id];
        let c = &cx.model.commands[ci];
        let s = &cx.model.scripts[script];
        if gated_before(cx, s.lua.span, c.span.start, &spec.kind, &spec.gate) {
            continue;
        }
        let name = cx.script_name(script);
        let mut d = RULE.diagnostic(
            format!(
                "script `{name}` writes a `{}` row without first checking that its id is a `{}` id",
                spec.record, spec.kind
            ),
            Label::new(
                c.span,
                format!("written before any check of the `{}` brand", spec.kind),
            ),
        );
        if let Some(at) = cx.contract_span(&spec.span) {
            d.related.push(Label::new(
                at,
                format!(
                    "the contract gates `{}` ids: {} bytes, brand `{}`, error `{}`",
                    spec.record, spec.bytes, spec.kind, spec.gate
                ),
            ));
        }
        let help = format!(
            "before the first write, compare the id's first {} bytes with '{}' and return redis.error_reply('{}') when they differ",
            spec.kind.len(),
            spec.kind,
            spec.gate
        );
        cx.blame(&mut d, s.speaker, help, "which ids may own a row");
        out.push(d);
    }
}

/// Whether the script's bytes before `before` name the brand (as a Lua
/// string) and raise the gate's error.
fn gated_before(
    cx: &CheckContext<'_>,
    body: crate::facts::Span,
    before: u32,
    kind: &str,
    gate: &str,
) -> bool {
    let bytes = cx.sources.get(body.file).bytes();
    let end = (before as usize).min(bytes.len());
    let start = (body.start as usize).min(end);
    let text = String::from_utf8_lossy(&bytes[start..end]);
    let brand = [format!("'{kind}'"), format!("\"{kind}\"")];
    let gate_at = text.find(gate);
    let raises = gate_at.is_some_and(|g| {
        let line_start = text[..g].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let line = &text[line_start..];
        line.contains("error") || line.contains("err")
    });
    raises && brand.iter().any(|b| text.contains(b.as_str()))
}
