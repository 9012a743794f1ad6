//! Fields renamed (`diff`): the work tree's readers of a field's old
//! name, and a rename where a field is written that the speaker's other
//! writes hide: a file that now writes a new field in the place of one it
//! no longer writes, while another write of the same speaker still writes
//! the old name (a shared Lua function renaming `data`, which another
//! script of the same tree still writes).

use std::collections::{BTreeMap, BTreeSet};

use super::SpeakerDiff;
use crate::facts::Span;
use crate::pipeline::Analysis;

/// (record key shape, field) → the places that read it, in span order.
pub(super) type Readers = BTreeMap<(String, String), Vec<Span>>;

pub(super) fn readers(a: &Analysis) -> Readers {
    let mut out: Readers = BTreeMap::new();
    for r in &a.model.records {
        for (field, uses) in &r.fields {
            let reads = uses.iter().filter(|u| !u.write).map(|u| u.span);
            out.entry((r.key.clone(), field.clone()))
                .or_default()
                .extend(reads);
        }
    }
    for spans in out.values_mut() {
        spans.sort();
        spans.dedup();
    }
    out.retain(|_, spans| !spans.is_empty());
    out
}

impl SpeakerDiff<'_> {
    /// Each field a file no longer writes, in the same place of a write of
    /// the same width as a field it newly writes, where the speaker still
    /// writes the old name elsewhere (so the speaker's own comparison saw
    /// only the new field): WD202 with the old name's readers, in place of
    /// the new field's WD203.
    pub(super) fn renamed_in_place(&mut self, moved: &BTreeMap<String, String>) {
        let (bs, hs) = (self.base, self.head);
        let mut paired: BTreeSet<(String, String)> = BTreeSet::new();
        for ((rkey, file), bw) in &bs.writes_at {
            let hkey = moved.get(rkey).unwrap_or(rkey);
            let Some(hw) = hs.writes_at.get(&(hkey.clone(), file.clone())) else {
                continue;
            };
            let still = |f: &String| hs.writes.get(hkey).is_some_and(|w| w.contains_key(f));
            let retired = |f: &String| {
                self.retired
                    .fields
                    .contains(&(rkey.to_string(), f.to_string()))
            };
            for (f, at) in bw {
                if hw.contains_key(f) || at.slot.is_none() || !still(f) || retired(f) {
                    continue;
                }
                let Some((g, gat)) = hw
                    .iter()
                    .find(|(g, gat)| !bw.contains_key(*g) && gat.slot == at.slot)
                else {
                    continue;
                };
                if !paired.insert((self.record(hkey), g.clone())) {
                    continue;
                }
                let c = self.change(
                    "WD202",
                    format!(
                        "field `{f}` of `{}` is now written as `{g}` here (other writes still write `{f}`)",
                        self.record(hkey)
                    ),
                    Some(f.clone()),
                    Some(g.clone()),
                    Some(at.span),
                    Some(gat.span),
                );
                self.push_field(c, hkey, Some(f));
            }
        }
        let speaker = self.speaker.clone();
        self.out.retain(|c| {
            !(c.code == "WD203"
                && c.speaker == speaker
                && c.after.as_ref().is_some_and(|g| {
                    paired
                        .iter()
                        .any(|(k, p)| p == g && c.message.contains(&format!("`{k}`")))
                }))
        });
    }
}
