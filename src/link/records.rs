//! Records as the code uses them, with or without a contract: a record is
//! the set of hash commands on one key template. For each field, who writes
//! it and who reads it, in host code and in Lua (a `KEYS[n]` in a script
//! takes the templates its callers pass in slot n).

use std::collections::BTreeMap;

use super::{Model, SpeakerId};
use crate::facts::{Seg, Span, Template};
use crate::redis::{hash_access, HashAccess};

/// One use of a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldUse {
    pub speaker: SpeakerId,
    pub span: Span,
    pub write: bool,
    /// For writes of several fields: the field's position among them, and
    /// how many the command writes.
    pub slot: Option<(usize, usize)>,
}

/// A record observed in the code.
#[derive(Clone, Debug)]
pub struct RecordUse {
    /// The key with every hole as `<*>`: `bq:{<*>}:job:<*>`.
    pub key: String,
    /// One template that builds it, for spans and messages.
    pub example: Template,
    pub fields: BTreeMap<String, Vec<FieldUse>>,
    /// Some command names a field the analysis cannot see.
    pub unclear: bool,
    /// Some command reads the whole hash (HGETALL): any field may be read.
    pub read_whole: bool,
}

impl RecordUse {
    pub fn writers(&self, field: &str) -> impl Iterator<Item = &FieldUse> {
        self.fields
            .get(field)
            .into_iter()
            .flatten()
            .filter(|u| u.write)
    }
    pub fn readers(&self, field: &str) -> impl Iterator<Item = &FieldUse> {
        self.fields
            .get(field)
            .into_iter()
            .flatten()
            .filter(|u| !u.write)
    }
    pub fn has_writes(&self) -> bool {
        self.fields.values().flatten().any(|u| u.write)
    }
}

/// `emq:{<queue>}:job:<id>` → `emq:{<*>}:job:<*>`: holes carry no name.
pub fn key_shape(t: &Template) -> String {
    let mut s = String::new();
    for seg in &t.segs {
        match seg {
            Seg::Lit { text, .. } => s.push_str(text),
            _ => {
                if !s.ends_with("<*>") {
                    s.push_str("<*>");
                }
            }
        }
    }
    s
}

/// Whether a key says enough to name a record: some literal bytes besides
/// its holes.
fn informative(t: &Template) -> bool {
    t.segs
        .iter()
        .any(|s| matches!(s, Seg::Lit { text, .. } if text.len() > 1))
}

type Use = (String, Option<(String, FieldUse)>, bool, bool);

/// Infers records from every hash command and field read.
pub(super) fn infer(model: &Model) -> Vec<RecordUse> {
    let mut records: BTreeMap<String, RecordUse> = BTreeMap::new();
    let mut touch = |t: &Template| -> Option<String> {
        if !informative(t) {
            return None;
        }
        let key = key_shape(t);
        records.entry(key.clone()).or_insert_with(|| RecordUse {
            key: key.clone(),
            example: t.clone(),
            fields: BTreeMap::new(),
            unclear: false,
            read_whole: false,
        });
        Some(key)
    };
    // (record key, the field used, whether names are unclear, whether the
    // whole hash is read)
    let mut uses: Vec<Use> = Vec::new();
    for cmd in &model.commands {
        let Some(access) = hash_access(&cmd.name) else {
            continue;
        };
        let Some(key_arg) = cmd.args.first() else {
            continue;
        };
        // In a script, the link step gave `KEYS[n]` its callers' templates.
        let templates: Vec<Template> = key_arg.alts.clone();
        let rest = cmd.args.get(1..).unwrap_or(&[]);
        let (fields, write): (Vec<_>, bool) = match access {
            HashAccess::WritePairs => (rest.iter().step_by(2).collect(), true),
            HashAccess::WriteOne => (rest.iter().take(1).collect(), true),
            HashAccess::Read => (rest.iter().collect(), false),
            HashAccess::Delete => (Vec::new(), false),
            HashAccess::ReadAll => (Vec::new(), false),
        };
        let n = fields.len();
        let unclear = cmd.open_tail || fields.iter().any(|f| f.literal().is_none());
        for t in &templates {
            let Some(key) = touch(t) else {
                continue;
            };
            uses.push((key.clone(), None, unclear, access == HashAccess::ReadAll));
            for (i, f) in fields.iter().enumerate() {
                if let Some((name, span)) = f.literal() {
                    let slot = (write && n > 1).then_some((i, n));
                    uses.push((
                        key.clone(),
                        Some((
                            name,
                            FieldUse {
                                speaker: cmd.speaker,
                                span,
                                write,
                                slot,
                            },
                        )),
                        false,
                        false,
                    ));
                }
            }
        }
    }
    for r in &model.field_reads {
        for t in &r.key {
            let Some(key) = touch(t) else {
                continue;
            };
            uses.push((
                key,
                Some((
                    r.field.clone(),
                    FieldUse {
                        speaker: r.speaker,
                        span: r.span,
                        write: false,
                        slot: None,
                    },
                )),
                false,
                false,
            ));
        }
    }
    for (key, u, unclear, whole) in uses {
        let Some(rec) = records.get_mut(&key) else {
            continue;
        };
        rec.unclear |= unclear;
        rec.read_whole |= whole;
        if let Some((name, fu)) = u {
            let list = rec.fields.entry(name).or_default();
            if !list.contains(&fu) {
                list.push(fu);
            }
        }
    }
    records
        .into_values()
        .filter(|r| !r.fields.is_empty())
        .collect()
}
