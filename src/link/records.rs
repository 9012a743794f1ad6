//! Records as the code uses them, with or without a contract: a record is
//! the set of hash commands on one key template. For each field, who writes
//! it and who reads it, in host code and in Lua (a `KEYS[n]` in a script
//! takes the templates its callers pass in slot n, `script_keys.rs`).

use std::collections::BTreeMap;

use super::{Arg, CommandUse, Model, SpeakerId};
use crate::contract::{Contract, PatTok};
use crate::facts::{Seg, Span, Template};
use crate::keyshape::is_namespace_char;
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
    /// Why the field rules leave the record alone, at the first use that
    /// says so; `None` when every field it is used with is known.
    pub unclear: Option<(Unclear, Span)>,
    /// Some command reads the whole hash (HGETALL): any field may be read.
    pub read_whole: bool,
}

/// Why a record's fields are not all known, so that no field rule may
/// conclude a field is missing from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unclear {
    /// Its key is placeholders and separators alone (`<*>:<*>:<*>`): it
    /// cannot be told from the other hashes of that shape.
    BareKey,
    /// A command names a field through a value the analysis cannot read.
    HiddenField,
    /// A command's arguments end in a list of unknown length.
    OpenTail,
    /// A script that uses it calls functions it does not define (an
    /// included file's), which may use more fields.
    CallsUndefined,
    /// A script writes fields it does not name at a key that resolves to
    /// no record: that write may be this record's.
    UnresolvedWrite,
}

impl Unclear {
    /// Why, in words, for coverage.
    pub fn reason(self) -> &'static str {
        match self {
            Unclear::BareKey => {
                "its key is placeholders and separators alone, so it cannot be told from the other hashes of that shape"
            }
            Unclear::HiddenField => {
                "a command names a field through a value wirelint cannot read, so its fields are not all known"
            }
            Unclear::OpenTail => {
                "a command passes a list of fields of unknown length, so its fields are not all known"
            }
            Unclear::CallsUndefined => {
                "a script that uses it calls functions it does not define (an included file's), which may use more fields"
            }
            Unclear::UnresolvedWrite => {
                "a script writes fields it does not name at a key wirelint cannot resolve (here), which may be this record's"
            }
        }
    }
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

/// One use of a record: its key, the field used, why its field names are
/// unclear (if they are), whether the whole hash is read.
type Use = (
    String,
    Option<(String, FieldUse)>,
    Option<(Unclear, Span)>,
    bool,
);

/// A hash command's access, the arguments that name fields, and whether
/// it writes them; `None` for another command.
pub fn named_fields(cmd: &CommandUse) -> Option<(HashAccess, Vec<&Arg>, bool)> {
    let access = hash_access(&cmd.name)?;
    let rest = cmd.args.get(1..).unwrap_or(&[]);
    let (fields, write): (Vec<_>, bool) = match access {
        HashAccess::WritePairs => (rest.iter().step_by(2).collect(), true),
        HashAccess::WriteOne => (rest.iter().take(1).collect(), true),
        HashAccess::Read => (rest.iter().collect(), false),
        HashAccess::Delete | HashAccess::ReadAll => (Vec::new(), false),
    };
    Some((access, fields, write))
}

/// Infers records from every hash command and field read. A key of holes
/// and separators alone names a record only where the contract's keyspace
/// has a record at that very shape (BullMQ's job hash at
/// `<prefix>:<queue>:<id>`, `<*>:<*>:<*>`); such a key cannot tell that
/// record from the queue's other hashes (`<id>` may be `meta`), so the
/// record is listed with its uses, and unclear to the field rules.
pub(super) fn infer(model: &Model, contract: Option<&Contract>) -> Vec<RecordUse> {
    let mut inf = Inference {
        bare_shapes: contract.map(bare_record_shapes).unwrap_or_default(),
        ..Inference::default()
    };
    for cmd in &model.commands {
        // A script that calls functions it does not define (an included
        // file's) may send what the analysis does not see: the fields of
        // the records it touches are not all known.
        let hidden = cmd
            .script
            .is_some_and(|s| !model.scripts[s].lua.calls.is_empty());
        inf.command(cmd, hidden);
    }
    let unresolved = unresolved_write(model, &inf);
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
                .push((key, Some((r.field.clone(), fu)), None, false));
        }
    }
    let mut records = inf.finish();
    if let Some(span) = unresolved {
        for r in records.iter_mut().filter(|r| r.unclear.is_none()) {
            r.unclear = Some((Unclear::UnresolvedWrite, span));
        }
    }
    records
}

/// The first hash write of a script whose key names no record (no
/// template, or placeholders alone) and whose fields are not all shown (a
/// list of unknown length, a field named by a value): it may write any
/// record's fields.
fn unresolved_write(model: &Model, inf: &Inference) -> Option<Span> {
    model
        .commands
        .iter()
        .filter(|c| c.script.is_some())
        .find_map(|cmd| {
            let (_, fields, write) = named_fields(cmd)?;
            let names_one = cmd.args.first()?.alts.iter().any(|t| inf.names_record(t));
            (write && unshown(cmd, &fields).is_some() && !names_one).then_some(cmd.span)
        })
}

/// Why a hash command does not show every field it names: a list of
/// unknown length, or a field named by a value.
fn unshown(cmd: &CommandUse, fields: &[&Arg]) -> Option<Unclear> {
    if cmd.open_tail {
        Some(Unclear::OpenTail)
    } else if fields.iter().any(|f| f.literal().is_none()) {
        Some(Unclear::HiddenField)
    } else {
        None
    }
}

/// The key shapes of the contract's records whose whole key is
/// placeholders and separators, the prefix a placeholder too (a user
/// option, `<prefix>`): BullMQ's job at `<prefix>:<queue>:<id>`.
fn bare_record_shapes(c: &Contract) -> Vec<String> {
    let Some(ks) = c.keyspace.as_ref().filter(|ks| ks.prefix_value.is_some()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in &c.records {
        let Some(ty) = ks.type_named(&r.type_name).filter(|t| !t.whole) else {
            continue;
        };
        let sep = ks.prefix.trim_start_matches(is_namespace_char);
        let mut shape = format!("<*>{sep}");
        for tok in ks.full_pattern(ty).iter().skip(1) {
            match tok {
                PatTok::Lit(l) => shape.push_str(l),
                PatTok::Var(_) => shape.push_str("<*>"),
            }
        }
        let bare = shape
            .split("<*>")
            .all(|lit| lit.chars().all(|ch| !is_namespace_char(ch)));
        if bare && !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

/// Records by key shape, and their uses, as inference finds them.
#[derive(Default)]
struct Inference {
    records: BTreeMap<String, RecordUse>,
    uses: Vec<Use>,
    /// The shapes of the contract's records at keys of holes and
    /// separators alone (`<*>:<*>:<*>`).
    bare_shapes: Vec<String>,
}

impl Inference {
    /// Whether key `t` says enough to name a record: some literal bytes,
    /// or exactly the shape of one of the contract's bare records.
    fn names_record(&self, t: &Template) -> bool {
        informative(t) || self.bare_shapes.contains(&key_shape(t))
    }

    /// The record at key `t`, made if new; `None` when the key says too
    /// little to name one.
    fn touch(&mut self, t: &Template) -> Option<String> {
        if !self.names_record(t) {
            return None;
        }
        let key = key_shape(t);
        let bare = !informative(t);
        self.records
            .entry(key.clone())
            .or_insert_with(|| RecordUse {
                key: key.clone(),
                example: t.clone(),
                fields: BTreeMap::new(),
                unclear: bare.then_some((Unclear::BareKey, t.span)),
                read_whole: false,
            });
        Some(key)
    }

    /// A hash command: the record at each of its key's templates (in a
    /// script, the link step gave `KEYS[n]` its callers' templates), and
    /// the fields it names.
    fn command(&mut self, cmd: &CommandUse, hidden: bool) {
        let Some((access, fields, write)) = named_fields(cmd) else {
            return;
        };
        let Some(key_arg) = cmd.args.first() else {
            return;
        };
        let n = fields.len();
        let why = match hidden {
            true => Some(Unclear::CallsUndefined),
            false => unshown(cmd, &fields),
        };
        let unclear = why.map(|w| (w, cmd.span));
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
                    self.uses.push((key.clone(), Some((name, fu)), None, false));
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
            if rec.unclear.is_none() {
                rec.unclear = unclear;
            }
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
