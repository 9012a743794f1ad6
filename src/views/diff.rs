//! `wirelint diff --against REF`: the pull-request check. The observed wire
//! contract (keys, the fields each speaker writes, scripts with their KEYS
//! and SHA1) at a git revision, compared with the work tree's. Every
//! below-the-line change is a finding; names above the line (functions,
//! modules, verbs, the consts holding a script) are never compared.
//!
//! The revision is read from git into memory (`pipeline::git`) and analyzed
//! as an in-memory tree (`pipeline::files`). Both sides are read against the
//! work tree's contract, whose `[retired]` table lists what may be removed.
//!
//! Computes only; `report::diff` renders.

use std::collections::{BTreeMap, BTreeSet};

use crate::contract::Contract;
use crate::facts::{Seg, Span, Template};
use crate::link::calls::NumKeys;
use crate::link::normalize_name;
use crate::link::records::key_shape;
use crate::pipeline::Analysis;

mod calls;
mod dropped;
mod kinds;
mod records;
mod renames;

pub use kinds::{kind, Kind, KINDS};

/// One below-the-line change.
#[derive(Debug, Clone)]
pub struct Change {
    pub code: &'static str,
    pub speaker: String,
    pub message: String,
    /// The item at the base and in the work tree (`None` on the side it is
    /// missing from): a key shape, a field, a script's SHA1 or KEYS.
    pub before: Option<String>,
    pub after: Option<String>,
    /// Spans into the base analysis and the head (work tree) analysis.
    pub base: Option<Span>,
    pub head: Option<Span>,
    /// The file a change with neither span is about (WD001: a file not
    /// read), and whether it is the base's.
    pub file: Option<Unread>,
    /// Work-tree places that still use what the change took away: the
    /// callers that pass a script's old KEYS count, the readers of a
    /// field's old name.
    pub callers: Vec<Span>,
    /// What each of `callers` is and still does: ("a caller", "still
    /// passes the old count"), ("a reader", "still reads `pb`").
    pub still: (&'static str, String),
}

/// A file one side did not read.
#[derive(Debug, Clone)]
pub struct Unread {
    pub path: String,
    pub at_base: bool,
}

impl Unread {
    /// `REF:path` at the base, `path` in the work tree.
    pub fn shown(&self, against: &str) -> String {
        match self.at_base {
            true => format!("{against}:{}", self.path),
            false => self.path.clone(),
        }
    }
}

impl Change {
    pub fn kind(&self) -> &'static Kind {
        kind(self.code)
    }
}

// ---------------------------------------------------------------------------
// One side's observed contract.

#[derive(Clone, Copy)]
struct FieldAt {
    span: Span,
    slot: Option<(usize, usize)>,
}

struct ScriptAt {
    name: String,
    sha1: Option<String>,
    /// The code's own KEYS count (registration, file name, header comment;
    /// else the highest `KEYS[n]` the body uses), where it is written.
    count: Option<(u32, Option<Span>)>,
    roles: Vec<Option<(String, Option<Span>)>>,
    /// `KEYS[n]` the body uses, first use; `None` when the script indexes
    /// KEYS dynamically.
    used: Option<BTreeMap<u32, Span>>,
    def: Span,
    /// The invocations that run it, with the key count they pass where
    /// the code shows it.
    callers: Vec<(u32, Span)>,
    /// Known only by a reference to a file the tree does not hold (a copy
    /// a build step makes): the count registered with it, where written.
    by_reference: Option<(u32, Option<Span>)>,
}

#[derive(Default)]
struct SpeakerAt {
    keys: BTreeMap<String, Template>,
    /// Record key shape → written field → its first write.
    writes: BTreeMap<String, BTreeMap<String, FieldAt>>,
    /// (record key shape, file) → written field → its first write there.
    writes_at: BTreeMap<(String, String), BTreeMap<String, FieldAt>>,
    /// Record key shape → field read by name → its first read.
    reads: BTreeMap<String, BTreeMap<String, Span>>,
    /// Every record key shape used (written or read).
    records: BTreeSet<String>,
    /// Normalized script name → the script.
    scripts: BTreeMap<String, ScriptAt>,
}

fn observe(a: &Analysis, contract: Option<&Contract>) -> BTreeMap<String, SpeakerAt> {
    let m = &a.model;
    let mut out: BTreeMap<String, SpeakerAt> = BTreeMap::new();
    let name = |sp: usize| m.speakers[sp].name.clone();
    let mut keys: Vec<_> = m.wire_keys().collect();
    keys.sort_by_key(|k| k.template.span);
    for k in keys {
        out.entry(name(k.speaker))
            .or_default()
            .keys
            .entry(key_shape(&k.template))
            .or_insert_with(|| k.template.clone());
    }
    observe_records(a, &mut out);
    let mut callers: BTreeMap<usize, Vec<(u32, Span)>> = BTreeMap::new();
    for c in m.script_calls.iter().filter(|c| !c.echo) {
        // The invocation: a wrapper's body counts at the call that names
        // its script (as `--coverage` counts runs).
        let Some(site) = c.site.or((!c.in_wrapper).then_some(c.span)) else {
            continue;
        };
        let n = match c.numkeys {
            NumKeys::Literal(n, _) | NumKeys::Counted(n, _) => Some(n),
            NumKeys::FromKeys if c.keys_complete => u32::try_from(c.keys.len()).ok(),
            _ => None,
        };
        if let Some(n) = n {
            let v = callers.entry(c.script).or_default();
            if !v.contains(&(n, site)) {
                v.push((n, site));
            }
        }
    }
    for (id, s) in m.scripts.iter().enumerate() {
        let name_of = s.display_name(contract);
        let count = s
            .declared_counts(None)
            .into_iter()
            .next()
            .map(|d| (d.count, d.span))
            .or_else(|| s.body_max().map(|n| (n, None)));
        let roles = (1..=count.map(|c| c.0).unwrap_or(0))
            .map(|n| {
                s.slot_role(n, contract)
                    .map(|r| (normalize_role(&r.text), r.span))
            })
            .collect();
        let used = (!s.lua.dynamic_keys).then(|| {
            let mut u: BTreeMap<u32, Span> = BTreeMap::new();
            for (n, span) in &s.lua.key_uses {
                let e = u.entry(*n).or_insert(*span);
                *e = (*e).min(*span);
            }
            u
        });
        let key = normalize_name(&name_of);
        out.entry(m.speakers[s.speaker].name.clone())
            .or_default()
            .scripts
            .entry(key)
            .or_insert(ScriptAt {
                name: name_of,
                sha1: s.sha1.clone(),
                count,
                roles,
                used,
                def: s.def_span,
                callers: callers.remove(&id).unwrap_or_default(),
                by_reference: (!s.body).then_some(count).flatten(),
            });
    }
    out
}

/// Each speaker's record uses: the fields it writes (by record, and by
/// record and file) and reads.
fn observe_records(a: &Analysis, out: &mut BTreeMap<String, SpeakerAt>) {
    let m = &a.model;
    for r in &m.records {
        for (field, uses) in &r.fields {
            let mut uses: Vec<_> = uses.iter().collect();
            uses.sort_by_key(|u| u.span);
            for u in uses {
                let s = out.entry(m.speakers[u.speaker].name.clone()).or_default();
                s.records.insert(r.key.clone());
                if !u.write {
                    s.reads
                        .entry(r.key.clone())
                        .or_default()
                        .entry(field.clone())
                        .or_insert(u.span);
                }
                if u.write {
                    let at = FieldAt {
                        span: u.span,
                        slot: u.slot,
                    };
                    s.writes
                        .entry(r.key.clone())
                        .or_default()
                        .entry(field.clone())
                        .or_insert(at);
                    let file = a.sources.get(u.span.file).rel.clone();
                    s.writes_at
                        .entry((r.key.clone(), file))
                        .or_default()
                        .entry(field.clone())
                        .or_insert(at);
                }
            }
        }
    }
}

fn normalize_role(r: &str) -> String {
    r.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

// ---------------------------------------------------------------------------
// Comparison.

/// What the contract lets a change remove.
#[derive(Default)]
struct Retired {
    keys: BTreeSet<String>,
    /// (record key shape, field)
    fields: BTreeSet<(String, String)>,
    scripts: BTreeSet<String>,
}

fn retired(contract: Option<&Contract>) -> Retired {
    let mut out = Retired::default();
    let Some(c) = contract else {
        return out;
    };
    for (k, _) in &c.retired.keys {
        out.keys.insert(crate::contract::pattern_shape(k));
    }
    for (rec, field, _) in &c.retired.fields {
        if let Some(shape) = c.record_shape(rec) {
            out.fields.insert((shape, field.clone()));
        }
    }
    for (s, _) in &c.retired.scripts {
        out.scripts.insert(normalize_name(s));
    }
    out
}

/// `emq:{<*>}:job:<*>` split at `:`.
fn segments(shape: &str) -> Vec<&str> {
    shape.split(':').collect()
}

fn one_segment_apart(a: &str, b: &str) -> bool {
    let (x, y) = (segments(a), segments(b));
    x.len() == y.len() && x.iter().zip(&y).filter(|(p, q)| p != q).count() == 1
}

/// The span of the literal bytes of `t` that hold the first byte where its
/// shape differs from `other` (the literal before it when a hole holds it);
/// the whole template when there is none.
fn differing_span(t: &Template, other: &str) -> Span {
    let shape = key_shape(t);
    let at = shape
        .bytes()
        .zip(other.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let mut built = String::new();
    let mut last_lit = None;
    for seg in &t.segs {
        match seg {
            Seg::Lit { text, span } => {
                if at < built.len() + text.len() {
                    return *span;
                }
                built.push_str(text);
                last_lit = Some(*span);
            }
            _ => {
                if !built.ends_with("<*>") {
                    built.push_str("<*>");
                }
                if at < built.len() {
                    // A hole where the other side has bytes: the literal
                    // next to it is what changed.
                    return last_lit.unwrap_or(t.span);
                }
            }
        }
    }
    t.span
}

/// The changes from `base` to `head`, sorted by speaker, code and message.
pub fn compare(base: &Analysis, head: &Analysis, against: &str) -> Vec<Change> {
    let contract = head.contract.as_ref();
    let retired = retired(contract);
    let b = observe(base, contract);
    let h = observe(head, contract);
    let empty = SpeakerAt::default();
    let readers = renames::readers(head);
    let record_names = records::record_names([base, head], contract);
    let base_names: BTreeSet<&String> = b.values().flat_map(|s| s.scripts.keys()).collect();
    // Registrations of a script by name, where the file they name is not
    // in the tree: they pass what they register (a dropped key's callers).
    let mut registered: BTreeMap<&String, Vec<(u32, Span)>> = BTreeMap::new();
    for (key, sc) in h.values().flat_map(|s| &s.scripts) {
        if let Some((n, Some(span))) = sc.by_reference {
            registered.entry(key).or_default().push((n, span));
        }
    }
    let mut out = Vec::new();
    let names: BTreeSet<&String> = b.keys().chain(h.keys()).collect();
    for sp in names {
        let mut d = SpeakerDiff {
            speaker: sp,
            base: b.get(sp).unwrap_or(&empty),
            head: h.get(sp).unwrap_or(&empty),
            retired: &retired,
            readers: &readers,
            names: &record_names,
            base_names: &base_names,
            registered: &registered,
            out: &mut out,
        };
        let moved = d.keys();
        d.fields(&moved);
        d.scripts();
    }
    out.extend(calls::changed(base, head, contract));
    out.extend(not_compared(base, head, against));
    out.sort_by(|x, y| (&x.speaker, x.code, &x.message).cmp(&(&y.speaker, y.code, &y.message)));
    out
}

/// WD001: each source file a side passed over (`skipped: …`, `cannot
/// read: …`): whatever changed in it is not known, so it is said.
fn not_compared(base: &Analysis, head: &Analysis, against: &str) -> Vec<Change> {
    let mut out = Vec::new();
    for (a, at_base) in [(base, true), (head, false)] {
        for n in &a.notes {
            let unread =
                n.message.starts_with("skipped: ") || n.message.starts_with("cannot read: ");
            if !unread || crate::facts::Lang::from_path(std::path::Path::new(&n.path)).is_none() {
                continue;
            }
            let file = Unread {
                path: n.path.clone(),
                at_base,
            };
            let whose = match at_base {
                true => format!("at {against}"),
                false => "in the work tree".to_string(),
            };
            out.push(Change {
                code: "WD001",
                speaker: "(input)".into(),
                message: format!(
                    "{} is not compared: {whose}, {}",
                    file.shown(against),
                    n.message
                ),
                before: None,
                after: None,
                base: None,
                head: None,
                file: Some(file),
                callers: Vec::new(),
                still: ("", String::new()),
            });
        }
    }
    out
}

/// Fields gone, each with the field that took its place if any.
type FieldPairs<'f> = Vec<(&'f String, Option<&'f String>)>;

/// One speaker's two sides, and the changes found so far.
struct SpeakerDiff<'a> {
    speaker: &'a String,
    base: &'a SpeakerAt,
    head: &'a SpeakerAt,
    retired: &'a Retired,
    /// The work tree's reads of each (record key shape, field), every
    /// speaker's.
    readers: &'a renames::Readers,
    /// Record key shape → the contract's name of the record there.
    names: &'a records::RecordNames,
    /// Every script the base knows, any speaker's.
    base_names: &'a BTreeSet<&'a String>,
    /// Normalized script name → the counts registered by name for a file
    /// the work tree does not hold.
    registered: &'a BTreeMap<&'a String, Vec<(u32, Span)>>,
    out: &'a mut Vec<Change>,
}

impl SpeakerDiff<'_> {
    fn push(
        &mut self,
        code: &'static str,
        message: String,
        before: Option<String>,
        after: Option<String>,
        base: Option<Span>,
        head: Option<Span>,
    ) {
        let c = self.change(code, message, before, after, base, head);
        self.out.push(c);
    }

    /// A change of this speaker.
    fn change(
        &self,
        code: &'static str,
        message: String,
        before: Option<String>,
        after: Option<String>,
        base: Option<Span>,
        head: Option<Span>,
    ) -> Change {
        Change {
            code,
            speaker: self.speaker.clone(),
            message,
            before,
            after,
            base,
            head,
            file: None,
            callers: Vec::new(),
            still: ("", String::new()),
        }
    }

    /// Keys removed, changed in one segment, or added. Returns the changed
    /// ones, base shape → head shape.
    fn keys(&mut self) -> BTreeMap<String, String> {
        let (bs, hs) = (self.base, self.head);
        let removed: Vec<&String> = bs
            .keys
            .keys()
            .filter(|k| !hs.keys.contains_key(*k))
            .collect();
        let mut added: Vec<&String> = hs
            .keys
            .keys()
            .filter(|k| !bs.keys.contains_key(*k))
            .collect();
        let mut moved: BTreeMap<String, String> = BTreeMap::new();
        for old in removed {
            let bt = &bs.keys[old];
            if let Some(i) = added.iter().position(|new| one_segment_apart(old, new)) {
                let new = added.remove(i);
                let ht = &hs.keys[new];
                moved.insert(old.clone(), new.clone());
                self.push(
                    "WD102",
                    format!("key `{old}` is now `{new}`"),
                    Some(old.clone()),
                    Some(new.clone()),
                    Some(differing_span(bt, new)),
                    Some(differing_span(ht, old)),
                );
            } else if !self.retired.keys.contains(old) {
                self.push(
                    "WD101",
                    format!("key `{old}` is no longer sent"),
                    Some(old.clone()),
                    None,
                    Some(bt.span),
                    None,
                );
            }
        }
        for new in added {
            self.push(
                "WD103",
                format!("key `{new}` is new"),
                None,
                Some(new.clone()),
                None,
                Some(hs.keys[new].span),
            );
        }
        moved
    }

    /// Fields written, record by record (a moved key takes its record
    /// along; a record whose key is gone is reported as a key).
    fn fields(&mut self, moved: &BTreeMap<String, String>) {
        let (bs, hs) = (self.base, self.head);
        let no_writes = BTreeMap::new();
        for (rkey, bw) in &bs.writes {
            let hkey = moved.get(rkey).unwrap_or(rkey);
            if !hs.records.contains(hkey) && !hs.keys.contains_key(hkey) {
                continue;
            }
            let hw = hs.writes.get(hkey).unwrap_or(&no_writes);
            let (pairs, new) = self.pair_fields(rkey, bw, hw);
            let rec = self.record(hkey);
            for (f, g) in pairs {
                let c = match g {
                    Some(g) => self.change(
                        "WD202",
                        format!("field `{f}` of `{rec}` is now written as `{g}`"),
                        Some(f.clone()),
                        Some(g.clone()),
                        Some(bw[f].span),
                        Some(hw[g].span),
                    ),
                    None => self.change(
                        "WD201",
                        format!("field `{f}` of `{rec}` is no longer written"),
                        Some(f.clone()),
                        None,
                        Some(bw[f].span),
                        None,
                    ),
                };
                self.push_field(c, hkey, Some(f));
            }
            for g in new {
                let c = self.change(
                    "WD203",
                    format!("field `{g}` of `{rec}` is newly written"),
                    None,
                    Some(g.clone()),
                    None,
                    Some(hw[g].span),
                );
                self.push_field(c, hkey, None);
            }
        }
        self.renamed_in_place(moved);
        self.reads(moved);
    }

    /// Fields read by name, record by record: one read field gone and one
    /// new in its place is a renamed read (`HMGET k payload` → `data`).
    fn reads(&mut self, moved: &BTreeMap<String, String>) {
        let (bs, hs) = (self.base, self.head);
        for (rkey, br) in &bs.reads {
            let hkey = moved.get(rkey).unwrap_or(rkey);
            let Some(hr) = hs.reads.get(hkey) else {
                continue;
            };
            let gone: Vec<&String> = br.keys().filter(|f| !hr.contains_key(*f)).collect();
            let new: Vec<&String> = hr.keys().filter(|f| !br.contains_key(*f)).collect();
            if let ([f], [g]) = (gone.as_slice(), new.as_slice()) {
                let c = self.change(
                    "WD204",
                    format!(
                        "field `{f}` of `{}` is now read as `{g}`",
                        self.record(hkey)
                    ),
                    Some((*f).clone()),
                    Some((*g).clone()),
                    Some(br[*f]),
                    Some(hr[*g]),
                );
                self.push_field(c, hkey, None);
            }
        }
    }

    /// The fields of record `rkey` no longer written (not retired), each
    /// with the new field that took its place: the one written in the same
    /// argument slot, or the only one left when one is gone and one is new.
    /// Also the new fields left over.
    fn pair_fields<'f>(
        &self,
        rkey: &str,
        bw: &'f BTreeMap<String, FieldAt>,
        hw: &'f BTreeMap<String, FieldAt>,
    ) -> (FieldPairs<'f>, Vec<&'f String>) {
        let gone: Vec<&String> = bw
            .keys()
            .filter(|f| !hw.contains_key(*f))
            .filter(|f| {
                !self
                    .retired
                    .fields
                    .contains(&(rkey.to_string(), (*f).clone()))
            })
            .collect();
        let mut new: Vec<&String> = hw.keys().filter(|f| !bw.contains_key(*f)).collect();
        let mut pairs: Vec<(&String, Option<&String>)> = Vec::new();
        let mut unpaired = Vec::new();
        for f in gone {
            let slot = bw[f].slot;
            match new
                .iter()
                .position(|g| slot.is_some() && hw[*g].slot == slot)
            {
                Some(i) => pairs.push((f, Some(new.remove(i)))),
                None => unpaired.push(f),
            }
        }
        if let ([f], [g]) = (unpaired.as_slice(), new.as_slice()) {
            pairs.push((f, Some(g)));
            new.clear();
            unpaired.clear();
        }
        pairs.extend(unpaired.into_iter().map(|f| (f, None)));
        (pairs, new)
    }

    /// Scripts gone (not retired), changed or new.
    fn scripts(&mut self) {
        let (bs, hs) = (self.base, self.head);
        for (key, bsc) in &bs.scripts {
            let Some(hsc) = hs.scripts.get(key) else {
                if !self.retired.scripts.contains(key) {
                    self.push(
                        "WD303",
                        format!("script `{}` is gone", bsc.name),
                        Some(bsc.name.clone()),
                        None,
                        Some(bsc.def),
                        None,
                    );
                }
                continue;
            };
            // A key dropped is the change to say; its new bytes go with it.
            if !self.script_keys(bsc, hsc) {
                self.script_body(bsc, hsc);
            }
        }
        for (key, hsc) in &hs.scripts {
            // A registration whose file is gone is no new script: the
            // script it named is (a change to it says so).
            let known = hsc.by_reference.is_some() && self.base_names.contains(key);
            if !bs.scripts.contains_key(key) && !known {
                self.push(
                    "WD304",
                    format!("script `{}` is new", hsc.name),
                    None,
                    Some(hsc.name.clone()),
                    None,
                    Some(hsc.def),
                );
            }
        }
    }

    /// A script's KEYS: their number, else their roles, else the ones its
    /// body uses.
    /// Whether a key was dropped ([`Self::dropped_key`]).
    fn script_keys(&mut self, bsc: &ScriptAt, hsc: &ScriptAt) -> bool {
        let name = &hsc.name;
        if self.dropped_key(bsc, hsc) {
            return true;
        }
        match (bsc.count, hsc.count) {
            (Some((n, bspan)), Some((m, hspan))) if n != m => self.push(
                "WD301",
                format!(
                    "script `{name}` takes {m} key{} in KEYS, not {n}",
                    if m == 1 { "" } else { "s" }
                ),
                Some(format!("{n} KEYS")),
                Some(format!("{m} KEYS")),
                Some(bspan.unwrap_or(bsc.def)),
                Some(hspan.unwrap_or(hsc.def)),
            ),
            _ => {
                if !self.script_roles(bsc, hsc) {
                    self.script_key_uses(bsc, hsc);
                }
            }
        }
        false
    }

    /// Slots whose role changed; whether there was one.
    fn script_roles(&mut self, bsc: &ScriptAt, hsc: &ScriptAt) -> bool {
        let name = &hsc.name;
        let mut roles_changed = false;
        for (i, (br, hr)) in bsc.roles.iter().zip(&hsc.roles).enumerate() {
            let (Some((br, bspan)), Some((hr, hspan))) = (br, hr) else {
                continue;
            };
            if br == hr {
                continue;
            }
            roles_changed = true;
            let n = i + 1;
            let moved_to = bsc
                .roles
                .iter()
                .position(|r| r.as_ref().is_some_and(|r| &r.0 == hr));
            let how = match moved_to {
                Some(j) => format!(" (KEYS[{}] at the base: the order changed)", j + 1),
                None => String::new(),
            };
            self.push(
                "WD301",
                format!("script `{name}`: KEYS[{n}] is now the {hr}, not the {br}{how}"),
                Some(format!("KEYS[{n}] {br}")),
                Some(format!("KEYS[{n}] {hr}")),
                Some(bspan.unwrap_or(bsc.def)),
                Some(hspan.unwrap_or(hsc.def)),
            );
        }
        roles_changed
    }

    /// `KEYS[n]` the base's body used and the head's no longer does.
    fn script_key_uses(&mut self, bsc: &ScriptAt, hsc: &ScriptAt) {
        let (Some(bu), Some(hu)) = (&bsc.used, &hsc.used) else {
            return;
        };
        let name = &hsc.name;
        for (n, bspan) in bu.iter().filter(|(n, _)| !hu.contains_key(n)) {
            let role = bsc
                .roles
                .get(*n as usize - 1)
                .and_then(|r| r.as_ref())
                .map(|r| format!(" (the {})", r.0))
                .unwrap_or_default();
            self.push(
                "WD301",
                format!("script `{name}` no longer uses KEYS[{n}]{role}"),
                Some(format!("KEYS[{n}] used")),
                Some(format!("KEYS[{n}] unused")),
                Some(*bspan),
                Some(hsc.def),
            );
        }
    }

    /// A script's bytes, by their SHA1.
    fn script_body(&mut self, bsc: &ScriptAt, hsc: &ScriptAt) {
        let (Some(x), Some(y)) = (&bsc.sha1, &hsc.sha1) else {
            return;
        };
        if x != y {
            self.push(
                "WD302",
                format!(
                    "script `{}` changed: SHA1 {} is now {}",
                    hsc.name,
                    &x[..x.len().min(12)],
                    &y[..y.len().min(12)]
                ),
                Some(x.clone()),
                Some(y.clone()),
                Some(bsc.def),
                Some(hsc.def),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_apart() {
        assert!(one_segment_apart("emq:{<*>}:job:<*>", "emk:{<*>}:job:<*>"));
        assert!(one_segment_apart("emq:{<*>}:job:<*>", "emq:{<*>}:jobs:<*>"));
        assert!(!one_segment_apart("emq:{<*>}:job:<*>", "emq:{<*>}:pending"));
        assert!(!one_segment_apart("emq:{<*>}:job:<*>", "emq:{<*>}:job:<*>"));
    }
}
