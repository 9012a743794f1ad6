//! # WL204 field-never-read
//!
//! ## What it does
//! Warns about a field that one speaker writes and no speaker reads, where
//! the other speakers write a different name in the same place of the same
//! write (and that name is read). It stays quiet unless the evidence is
//! clear: a record read whole (HGETALL) never triggers it.
//!
//! ## Why it breaks the wire
//! The writer renamed a field the others still use: its rows lack the field
//! everyone reads, and carry one nobody reads.
//!
//! ## Example
//! ```lua
//! redis.call('HSET', KEYS[1], 'state', s, 'data', ARGV[2])   -- others write 'payload'
//! ```
//!
//! ## How to fix
//! Write the field under the name the readers use.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL204",
    name: "field-never-read",
    layer: Layer::L1,
    severity: Severity::Warning,
    summary: "a speaker writes a field nobody reads where the others write another name",
    source: include_str!("field_never_read.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for rec in &cx.model.records {
        if rec.unclear || rec.read_whole {
            continue;
        }
        for (field, uses) in &rec.fields {
            if uses.iter().any(|u| !u.write) || cx.contract_record_lacks(&rec.example, field) {
                continue;
            }
            for w in uses.iter().filter(|u| u.write) {
                let Some(slot) = w.slot else {
                    continue;
                };
                // Another name, written by other speakers in the same place
                // of a write of the same width, and read by someone.
                let rival = rec.fields.iter().find(|(g, guses)| {
                    *g != field
                        && guses.iter().any(|u| !u.write)
                        && guses
                            .iter()
                            .any(|u| u.write && u.slot == Some(slot) && u.speaker != w.speaker)
                        && !guses.iter().any(|u| u.write && u.speaker == w.speaker)
                });
                let Some((other, ouses)) = rival else {
                    continue;
                };
                let mut d = RULE.diagnostic(
                    format!("field `{field}` of `{}` is written here but no speaker reads it; the others write `{other}` in its place", rec.key),
                    Label::new(w.span, "written, never read"),
                );
                if let Some(o) = ouses.iter().find(|u| u.write && u.slot == Some(slot)) {
                    d.related.push(Label::new(
                        o.span,
                        format!("`{}` writes `{other}` here", cx.speaker_name(o.speaker)),
                    ));
                }
                let advice = if cx.model.speakers[w.speaker].canonical {
                    format!(
                        "`{}` is the canonical speaker: the others must follow it to `{field}`, or it goes back to `{other}`; until then",
                        cx.speaker_name(w.speaker)
                    )
                } else {
                    format!("write `{other}`:")
                };
                let help = format!(
                    "{advice} readers look for `{other}` and find nil in rows that `{}` writes",
                    cx.speaker_name(w.speaker)
                );
                cx.blame(&mut d, w.speaker, help, "the job's fields");
                out.push(d);
            }
        }
    }
}
