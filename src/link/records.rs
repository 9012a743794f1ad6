//! Records as the code uses them, with or without a contract: a record is
//! the set of hash commands on one key template. For each field, who writes
//! it and who reads it, in host code and in Lua (a `KEYS[n]` in a script
//! takes the templates its callers pass in slot n, `script_keys.rs`).

use std::collections::BTreeMap;

use super::{CommandUse, Model, SpeakerId};
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

/// One use of a record: its key, the field used, whether its field names
/// are unclear, whether the whole hash is read.
type Use = (String, Option<(String, FieldUse)>, bool, bool);

/// Infers records from every hash command and field read.
pub(super) fn infer(model: &Model) -> Vec<RecordUse> {
    let mut inf = Inference::default();
    for cmd in &model.commands {
        // A script that calls functions it does not define (an included
        // file's) may send what the analysis does not see: the fields of
        // the records it touches are not all known.
        let hidden = cmd
            .script
            .is_some_and(|s| !model.scripts[s].lua.calls.is_empty());
        inf.command(cmd, hidden);
    }
    for r in &model.field_reads {
        for t in &r.key {
            let Some(key) = inf.touch(t) else {
                continue;
            };
            let fu = FieldUse {
                speaker: r.speaker,
                span: r.span,
                write: false,
                slot: None,
            };
            inf.uses
                .push((key, Some((r.field.clone(), fu)), false, false));
        }
    }
    inf.finish()
}

/// Records by key shape, and their uses, as inference finds them.
#[derive(Default)]
struct Inference {
    records: BTreeMap<String, RecordUse>,
    uses: Vec<Use>,
}

impl Inference {
    /// The record at key `t`, made if new; `None` when the key says too
    /// little to name one.
    fn touch(&mut self, t: &Template) -> Option<String> {
        if !informative(t) {
            return None;
        }
        let key = key_shape(t);
        self.records
            .entry(key.clone())
            .or_insert_with(|| RecordUse {
                key: key.clone(),
                example: t.clone(),
                fields: BTreeMap::new(),
                unclear: false,
                read_whole: false,
            });
        Some(key)
    }

    /// A hash command: the record at each of its key's templates (in a
    /// script, the link step gave `KEYS[n]` its callers' templates), and
    /// the fields it names.
    fn command(&mut self, cmd: &CommandUse, hidden: bool) {
        let Some(access) = hash_access(&cmd.name) else {
            return;
        };
        let Some(key_arg) = cmd.args.first() else {
            return;
        };
        let rest = cmd.args.get(1..).unwrap_or(&[]);
        let (fields, write): (Vec<_>, bool) = match access {
            HashAccess::WritePairs => (rest.iter().step_by(2).collect(), true),
            HashAccess::WriteOne => (rest.iter().take(1).collect(), true),
            HashAccess::Read => (rest.iter().collect(), false),
            HashAccess::Delete => (Vec::new(), false),
            HashAccess::ReadAll => (Vec::new(), false),
        };
        let n = fields.len();
        let unclear = hidden || cmd.open_tail || fields.iter().any(|f| f.literal().is_none());
        for t in key_arg.alts.iter() {
            let Some(key) = self.touch(t) else {
                continue;
            };
            self.uses
                .push((key.clone(), None, unclear, access == HashAccess::ReadAll));
            for (i, f) in fields.iter().enumerate() {
                if let Some((name, span)) = f.literal() {
                    let fu = FieldUse {
                        speaker: cmd.speaker,
                        span,
                        write,
                        slot: (write && n > 1).then_some((i, n)),
                    };
                    self.uses
                        .push((key.clone(), Some((name, fu)), false, false));
                }
            }
        }
    }

    /// The records with the fields they are used with.
    fn finish(mut self) -> Vec<RecordUse> {
        for (key, u, unclear, whole) in self.uses {
            let Some(rec) = self.records.get_mut(&key) else {
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
        self.records
            .into_values()
            .filter(|r| !r.fields.is_empty())
            .collect()
    }
}
