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
use crate::hash::HashMap;
use crate::link::records::{FieldUse, RecordUse};
use crate::link::SpeakerId;

pub static RULE: Rule = Rule {
    code: "WL204",
    name: "field-never-read",
    layer: Layer::L1,
    severity: Severity::Warning,
    summary: "a speaker writes a field nobody reads where the others write another name",
    source: include_str!("field_never_read.rs"),
    run,
};

/// A field some speaker reads, with its uses.
type Read<'m> = (&'m String, &'m Vec<FieldUse>);

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for rec in &cx.model.records {
        if rec.unclear.is_some() || rec.read_whole {
            continue;
        }
        let contract_record = cx.contract_record_at(&rec.example);
        let mut rivals = Rivals::of(rec);
        for (field, uses) in &rec.fields {
            if uses.iter().any(|u| !u.write) || contract_record.is_some_and(|r| !r.has_field(field))
            {
                continue;
            }
            for w in uses.iter().filter(|u| u.write) {
                let Some(slot) = w.slot else {
                    continue;
                };
                // Another name, written by other speakers in the same place
                // of a write of the same width, and read by someone.
                let Some((other, ouses)) = rivals.find(slot, w.speaker) else {
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

/// The read fields of a record by the places they are written in, so that
/// finding the rival of a write looks only at the fields written in its
/// place, and each place and speaker is looked up once (a write of many
/// fields is otherwise a comparison of every field with every other).
struct Rivals<'m> {
    /// Per place (position, width): the read fields written there, in the
    /// record's order.
    by_slot: HashMap<(usize, usize), Vec<Read<'m>>>,
    found: HashMap<((usize, usize), SpeakerId), Option<Read<'m>>>,
}

impl<'m> Rivals<'m> {
    fn of(rec: &'m RecordUse) -> Self {
        let mut by_slot: HashMap<(usize, usize), Vec<Read<'m>>> = HashMap::default();
        for (g, guses) in &rec.fields {
            if !guses.iter().any(|u| !u.write) {
                continue;
            }
            let mut slots: Vec<(usize, usize)> = guses.iter().filter_map(|u| u.slot).collect();
            slots.sort_unstable();
            slots.dedup();
            for slot in slots {
                by_slot.entry(slot).or_default().push((g, guses));
            }
        }
        Rivals {
            by_slot,
            found: HashMap::default(),
        }
    }

    /// The first read field that another speaker writes in `slot` and
    /// `speaker` never writes. (A field `speaker` writes unread is never
    /// among them: every field here is read.)
    fn find(&mut self, slot: (usize, usize), speaker: SpeakerId) -> Option<Read<'m>> {
        let by_slot = &self.by_slot;
        *self.found.entry((slot, speaker)).or_insert_with(|| {
            by_slot.get(&slot)?.iter().copied().find(|(_, guses)| {
                guses
                    .iter()
                    .any(|u| u.write && u.slot == Some(slot) && u.speaker != speaker)
                    && !guses.iter().any(|u| u.write && u.speaker == speaker)
            })
        })
    }
}
