//! Records as `diff` names them, and one change per edit: a field
//! renamed where a write reaches two record key shapes (a shared Lua
//! function writing the job hash at `<*>:<*>:<*>` and at
//! `<*>:<*>:repeat:<*>:<*>`) is one change, not one per shape.

use std::collections::BTreeMap;

use super::{Change, SpeakerDiff};
use crate::contract::Contract;
use crate::pipeline::Analysis;

/// Record key shape → the name to show: the contract's record at that key
/// (`job`), else the shape itself.
pub(super) type RecordNames = BTreeMap<String, String>;

/// The contract's name of every record either side uses, where the
/// contract names one.
pub(super) fn record_names(sides: [&Analysis; 2], contract: Option<&Contract>) -> RecordNames {
    let mut out = RecordNames::new();
    let Some(c) = contract else {
        return out;
    };
    let Some(ks) = c.keyspace.as_ref() else {
        return out;
    };
    for a in sides {
        for r in &a.model.records {
            if let Some(rec) = crate::keyshape::record_of(&r.example, ks, &c.records) {
                out.entry(r.key.clone()).or_insert_with(|| rec.name.clone());
            }
        }
    }
    out
}

/// The changes to fields: one per edit.
const FIELD_CODES: [&str; 4] = ["WD201", "WD202", "WD203", "WD204"];

impl SpeakerDiff<'_> {
    /// The name to show for the record at key shape `shape`.
    pub(super) fn record(&self, shape: &str) -> String {
        self.names
            .get(shape)
            .cloned()
            .unwrap_or_else(|| shape.to_string())
    }

    /// A change to a field of the record at `shape`, with the work tree's
    /// readers of `read` (the field's old name) when given. The same
    /// change at the same places already said for another record shape of
    /// the same edit is not said again: that change names this record too
    /// (when its name differs) and takes its readers.
    pub(super) fn push_field(&mut self, c: Change, shape: &str, read: Option<&str>) {
        debug_assert!(FIELD_CODES.contains(&c.code));
        let same = self.out.iter().position(|o| {
            o.code == c.code
                && o.speaker == c.speaker
                && o.before == c.before
                && o.after == c.after
                && o.base == c.base
                && o.head == c.head
        });
        let at = match same {
            Some(i) => {
                let rec = format!("`{}`", self.record(shape));
                let old = &self.out[i].message;
                if !old.contains(&rec) {
                    // "field `f` of `a` ..." → "field `f` of `a` and `b` ...".
                    if let Some(p) = record_end(old) {
                        self.out[i].message.insert_str(p, &format!(" and {rec}"));
                    }
                }
                i
            }
            None => {
                self.out.push(c);
                self.out.len() - 1
            }
        };
        if let Some(f) = read {
            self.with_readers(at, shape, f);
        }
    }

    /// Change `at` also names the work-tree readers of field `f` of the
    /// record at `shape`.
    fn with_readers(&mut self, at: usize, shape: &str, f: &str) {
        let readers = self
            .readers
            .get(&(shape.to_string(), f.to_string()))
            .cloned()
            .unwrap_or_default();
        if readers.is_empty() {
            return;
        }
        let c = &mut self.out[at];
        let had = c.callers.len();
        c.callers.extend(readers);
        c.callers.sort();
        c.callers.dedup();
        if had > 0 {
            if let Some(p) = c.message.rfind("; ") {
                c.message.truncate(p);
            }
        }
        match c.callers.len() {
            1 => c.message.push_str(&format!("; 1 reader still reads `{f}`")),
            n => c
                .message
                .push_str(&format!("; {n} readers still read `{f}`")),
        }
        c.still = ("a reader", format!("still reads `{f}`"));
    }
}

/// Where the record's name ends in a field change's message: after the
/// backticked name that follows "of ".
fn record_end(message: &str) -> Option<usize> {
    let start = message.find(" of `")? + " of `".len();
    let len = message[start..].find('`')?;
    Some(start + len + 1)
}
