//! The name pass of the selection (`super::select`): what one parsed file
//! gives it ([`FileNames`]), and the names a speaker's parsed files need or
//! carry ([`speaker_names`]), searched for as whole identifiers in the
//! bytes of its other files ([`Names`]). Why it is sound: `super::prefilter`.

use crate::hash::{HashMap, HashSet};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::{Deserialize, Serialize};

use crate::extract::needles;
use crate::facts::{hash_reply_parts, FileFacts, Lang, ScriptSource, Seg, Template, Value};
use crate::link::normalize_name;

use super::prefilter::Prefilter;

/// Names searched for as whole identifiers (a byte before and after a hit
/// must not be `[A-Za-z0-9_]`): *used* names anywhere, *defined* names only
/// where a definition of them starts (`needles::defines_at`), and fields
/// (`.f`, a defined name a projection reads) only where a field may be set
/// (`needles::sets_field_at`).
pub struct Names {
    /// The automaton over `pats`, built on the first [`Names::hit`]: a
    /// warm run answers from the cache's identifiers ([`Names::hit_in`])
    /// and may never search bytes.
    ac: OnceLock<Option<AhoCorasick>>,
    pats: Vec<String>,
    /// Per pattern: how a hit of it counts ([`USED`], [`DEFINED`], [`FIELD`]).
    kinds: Vec<u8>,
    /// The used names, the defined ones and the fields (without their `.`).
    used_set: HashSet<String>,
    def_set: HashSet<String>,
    field_set: HashSet<String>,
    /// Whether a name holds a byte outside ASCII ([`Idents`] cannot tell).
    wide: bool,
    /// Past [`MANY_NAMES`], [`Names::hit`] looks each identifier of the
    /// text up in the sets, and the automaton holds only the names that are
    /// not plain identifiers: building it for 26,000 names (hostile input,
    /// as many builders in 1 MB) took 1.4 s.
    by_word: bool,
}

/// How many names the automaton of [`Names::hit`] is built for, at most.
const MANY_NAMES: usize = 2000;

/// Any use of the name counts.
const USED: u8 = 1;
/// A definition of the name counts.
const DEFINED: u8 = 2;
/// A place where a field of the name may be set counts.
const FIELD: u8 = 4;

impl Names {
    /// `used` and `defined` as [`needle_of`] gives them (a defined `.f` is
    /// a field: [`refs_of`]).
    pub fn new(used: &BTreeSet<String>, defined: &BTreeSet<String>) -> Names {
        let mut by_name: std::collections::BTreeMap<&str, u8> = Default::default();
        for u in used {
            *by_name.entry(u.strip_prefix('.').unwrap_or(u)).or_default() |= USED;
        }
        for d in defined {
            let (name, kind) = match d.strip_prefix('.') {
                Some(f) => (f, FIELD),
                None => (d.as_str(), DEFINED),
            };
            *by_name.entry(name).or_default() |= kind;
        }
        let set = |k: u8| -> HashSet<String> {
            by_name
                .iter()
                .filter(|(_, v)| **v & k != 0)
                .map(|(n, _)| n.to_string())
                .collect()
        };
        let (used_set, def_set, field_set) = (set(USED), set(DEFINED), set(FIELD));
        let wide = by_name.keys().any(|p| !p.is_ascii());
        let by_word = by_name.len() > MANY_NAMES;
        let word = |p: &str| !p.is_empty() && p.bytes().all(is_ident_byte);
        let (pats, kinds) = by_name
            .into_iter()
            .filter(|(p, _)| !(by_word && word(p)))
            .map(|(p, k)| (p.to_string(), k))
            .unzip();
        Names {
            ac: OnceLock::new(),
            pats,
            kinds,
            used_set,
            def_set,
            field_set,
            wide,
            by_word,
        }
    }

    /// Whether only the bytes of the file whose identifiers are `ids` can
    /// tell [`Names::hit`]: a name and the file outside ASCII.
    pub fn needs_bytes(&self, ids: &Idents) -> bool {
        self.wide && ids.wide
    }

    /// [`Names::hit`] of the file whose identifiers are `ids`; `None` when
    /// only its bytes can tell (a name and the file outside ASCII).
    pub fn hit_in(&self, ids: &Idents) -> Option<bool> {
        if self.needs_bytes(ids) {
            return None;
        }
        let any = |list: &str, set: &HashSet<String>| list.split('\n').any(|t| set.contains(t));
        Some(
            any(&ids.all, &self.used_set)
                || any(&ids.defs, &self.def_set)
                || any(&ids.fields, &self.field_set),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.used_set.is_empty() && self.def_set.is_empty() && self.field_set.is_empty()
    }

    /// Whether `bytes` (of a file in `lang`) hold a used name as a whole
    /// identifier, a definition of a defined one, or where a field may be set.
    pub fn hit(&self, lang: Lang, bytes: &[u8]) -> bool {
        if self.by_word && self.word_hit(lang, bytes) {
            return true;
        }
        let ac = self.ac.get_or_init(|| {
            (!self.pats.is_empty()).then(|| {
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::Standard)
                    .build(&self.pats)
                    .expect("names are short literals")
            })
        });
        let Some(ac) = ac else {
            return false;
        };
        ac.find_overlapping_iter(bytes).any(|m| {
            let before = m.start().checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(m.end()).copied();
            !before.is_some_and(is_ident_byte)
                && !after.is_some_and(is_ident_byte)
                && counts(self.kinds[m.pattern().as_usize()], lang, bytes, m.start())
        })
    }

    /// [`Names::hit`] for the names that are plain identifiers: each
    /// longest run of identifier bytes of the text (a hit of the automaton
    /// must be one too) looked up in the sets.
    fn word_hit(&self, lang: Lang, bytes: &[u8]) -> bool {
        ident_runs(bytes).any(|(start, end)| {
            // Identifier bytes are ASCII.
            let word = std::str::from_utf8(&bytes[start..end]).unwrap_or_default();
            let kind = |set: &HashSet<String>, k: u8| if set.contains(word) { k } else { 0 };
            let kinds = kind(&self.used_set, USED)
                | kind(&self.def_set, DEFINED)
                | kind(&self.field_set, FIELD);
            counts(kinds, lang, bytes, start)
        })
    }
}

/// What [`Names::hit`] needs of a file, kept in the facts cache's index
/// so that an unchanged file is never read again to be searched: every
/// whole identifier it holds (a longest run of `[A-Za-z0-9_]`), those
/// found where a definition starts (`needles::defines_at`) and where a
/// field may be set (`needles::sets_field_at`), and whether it holds a
/// byte outside ASCII.
///
/// A name made of those bytes is a hit exactly when it is one of the
/// identifiers (or of the defined ones): the answer is exact, and a file
/// the name pass selects this way is not read either (its facts are the
/// cache's). The identifiers themselves rather than hashes of them: a
/// file of the real corpus holds 192 distinct ones on average, 1.4 kB as
/// text against 0.8 kB as 32-bit hashes, which would collide now and then
/// and need the bytes to confirm a hit. One string each, `\n` between
/// them: one allocation to decode, not one per identifier.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Idents {
    /// Sorted, without repeats, `\n` between them.
    all: String,
    defs: String,
    fields: String,
    wide: bool,
}

impl Idents {
    /// Its identifiers that are words of `vocabulary` ([`words_in`]).
    pub fn words_in(&self, vocabulary: &HashSet<String>) -> HashSet<String> {
        self.all
            .split('\n')
            .filter(|w| vocabulary.contains(*w))
            .map(str::to_string)
            .collect()
    }

    pub fn of(lang: Lang, bytes: &[u8]) -> Idents {
        let (mut all, mut defs, mut fields) = (Vec::new(), Vec::new(), Vec::new());
        for (start, end) in ident_runs(bytes) {
            let id = &bytes[start..end];
            all.push(id);
            if needles::defines_at(lang, bytes, start) {
                defs.push(id);
            }
            if needles::sets_field_at(lang, bytes, start) {
                fields.push(id);
            }
        }
        let join = |mut v: Vec<&[u8]>| {
            v.sort_unstable();
            v.dedup();
            // ASCII only: `is_ident_byte`.
            String::from_utf8_lossy(&v.join(&b'\n')).into_owned()
        };
        Idents {
            all: join(all),
            defs: join(defs),
            fields: join(fields),
            wide: !bytes.is_ascii(),
        }
    }
}

/// The identifiers of a file's bytes (ASCII runs, as [`Idents`] holds)
/// that are words of `vocabulary`.
pub fn words_in(bytes: &[u8], vocabulary: &HashSet<String>) -> HashSet<String> {
    ident_runs(bytes)
        .filter_map(|(s, e)| std::str::from_utf8(&bytes[s..e]).ok())
        .filter(|w| vocabulary.contains(*w))
        .map(str::to_string)
        .collect()
}

/// Whether a hit of a name of `kinds` at `at` counts.
fn counts(kinds: u8, lang: Lang, bytes: &[u8], at: usize) -> bool {
    kinds & USED != 0
        || (kinds & DEFINED != 0 && needles::defines_at(lang, bytes, at))
        || (kinds & FIELD != 0 && needles::sets_field_at(lang, bytes, at))
}

/// The longest runs of identifier bytes in `bytes`, as `(start, end)`.
fn ident_runs(bytes: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !is_ident_byte(bytes[i]) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        (i > start).then_some((start, i))
    })
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier a definition or reference of `name` holds in the bytes of
/// its file: `@prefix` → `prefix` (an attribute, `@` and all, also written
/// `@ prefix`), `valid?` → `valid`, `r#type` → `type`. A superset of the
/// spellings: searching for less finds more files.
pub fn needle_of(name: &str) -> Option<String> {
    let n = name.trim_start_matches('@');
    let n = n.strip_prefix("r#").unwrap_or(n);
    let n = n.trim_end_matches(['?', '!']);
    let core: &str = n
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|s| !s.is_empty())?;
    Some(core.to_string())
}

/// Calls `f` on `v` and every value inside it.
fn walk(v: &Value, depth: usize, f: &mut impl FnMut(&Value)) {
    if depth > 64 {
        return;
    }
    f(v);
    match v {
        Value::Str(t) => {
            for s in &t.segs {
                if let Seg::Value(v) = s {
                    walk(v, depth + 1, f);
                }
            }
        }
        Value::List { items, tail, .. } => {
            for x in items.iter().chain(tail) {
                walk(x, depth + 1, f);
            }
        }
        Value::Map { pairs, .. } => {
            for (a, b) in pairs {
                walk(a, depth + 1, f);
                walk(b, depth + 1, f);
            }
        }
        Value::Call { args, .. } => {
            for x in args {
                walk(x, depth + 1, f);
            }
        }
        _ => {}
    }
}

/// Where names are gathered: a set, or a list made a set at the end
/// ([`sorted`]): most lists are empty or short, and a `BTreeSet` holds a
/// node of room for eleven the moment it holds one.
trait NameSink {
    fn put(&mut self, name: String);
}

impl NameSink for BTreeSet<String> {
    fn put(&mut self, name: String) {
        self.insert(name);
    }
}

impl NameSink for Vec<String> {
    fn put(&mut self, name: String) {
        self.push(name);
    }
}

/// A list of names made a set: sorted, without repeats.
fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort_unstable();
    names.dedup();
    names
}

/// The names (as [`needle_of`] gives them) that resolving `v` looks up;
/// a field (`.f`, a projection of a value or a type's field) as `.f`: the
/// link answers it from the definitions of fields a type's constructors
/// set (`link::flow`), never from a function or a constant named `f`.
fn refs_of(v: &Value, out: &mut impl NameSink) {
    walk(v, 0, &mut |v| {
        if let Value::Const { path, .. } | Value::Call { path, .. } = v {
            let Some(last) = path.last() else {
                return;
            };
            if let Some(n) = needle_of(last) {
                out.put(match last.starts_with('.') {
                    true => format!(".{n}"),
                    false => n,
                });
            }
        }
    });
}

/// Whether a literal inside `v` (a string's literal bytes, an atom's name)
/// may be part of a key of the keyspace ([`Prefilter::literal_marks`]).
fn holds_key_literal(v: &Value, pf: &Prefilter) -> bool {
    let mut found = false;
    walk(v, 0, &mut |v| match v {
        Value::Str(t) => found |= template_marks(t, pf),
        Value::Atom { name, .. } => found |= pf.literal_marks(name),
        _ => {}
    });
    found
}

fn template_marks(t: &Template, pf: &Prefilter) -> bool {
    t.segs
        .iter()
        .any(|s| matches!(s, Seg::Lit { text, .. } if pf.literal_marks(text)))
}

fn is_eval(name: &str) -> bool {
    matches!(name, "EVAL" | "EVALSHA" | "EVAL_RO" | "EVALSHA_RO")
}

/// A command that may run a script: an EVAL, or one whose name the link
/// has still to follow (it may come to one).
fn may_eval(c: &crate::facts::Command) -> bool {
    is_eval(&c.name) || c.name_of.is_some()
}

/// A call of the code base, as the name pass sees it.
#[derive(PartialEq, Eq, Hash)]
struct CallNames {
    /// The callee's last segment, as written (wrappers are matched on it).
    callee: String,
    /// The names its arguments look up (sorted, without repeats, as the
    /// other lists of names here).
    refs: Vec<String>,
    /// The names a script may be identified by among its arguments (when
    /// the callee is a wrapper).
    idents: Vec<String>,
    /// The enclosing function's name.
    within: Option<String>,
    /// It passes the reply of a whole-hash read (`facts::hash_reply`).
    reply: bool,
    /// It passes a parameter of its own function on.
    forwards: bool,
}

/// A definition, as the name pass sees it.
#[derive(PartialEq, Eq, Hash)]
struct DefNames {
    needle: String,
    /// A constant, or a function that returns a string-like value.
    keyish: bool,
    /// Its value holds a key-marked literal.
    marked: bool,
    /// It returns a whole-hash read's reply (`facts::hash_reply`): its
    /// callers may read fields of it.
    reply: bool,
    /// The names its value looks up.
    refs: Vec<String>,
}

/// A template that builds a key-like string, as the name pass sees it.
#[derive(PartialEq, Eq, Hash)]
struct TemplateNames {
    /// One of its literals is key-marked.
    marked: bool,
    refs: Vec<String>,
}

/// What one parsed file gives the name pass (see the module docs).
#[derive(PartialEq, Eq, Hash)]
pub struct FileNames {
    /// Names the values its Redis facts send look up (command arguments,
    /// script calls, field reads): always resolved in full.
    seeds: BTreeSet<String>,
    calls: Vec<CallNames>,
    templates: Vec<TemplateNames>,
    defs: Vec<DefNames>,
    /// Functions that run a script in their body (wrappers start there).
    runners: BTreeSet<String>,
    /// Normalised names its EVALs and script calls may identify a script by.
    pub idents: BTreeSet<String>,
    /// Lower-case SHA1s its EVALs and script calls may identify a script by.
    pub shas: BTreeSet<String>,
}

impl FileNames {
    pub fn of(facts: &FileFacts, pf: &Prefilter) -> FileNames {
        let mut seeds = BTreeSet::new();
        let mut idents = BTreeSet::new();
        let mut shas = BTreeSet::new();
        let lua_commands = facts.scripts.iter().flat_map(|s| match &s.source {
            ScriptSource::Inline(lua) => lua.commands.as_slice(),
            ScriptSource::File { .. } => &[],
        });
        for c in facts.commands.iter().chain(lua_commands) {
            for v in c.args.iter().chain(&c.tail).chain(&c.name_of) {
                refs_of(v, &mut seeds);
            }
        }
        for c in facts.commands.iter().filter(|c| may_eval(c)) {
            if let Some(v) = c.args.first() {
                identities(v, &mut idents, &mut shas);
            }
        }
        for c in &facts.script_calls {
            identities(&c.script, &mut idents, &mut shas);
            let vals = std::iter::once(&c.script)
                .chain(&c.numkeys)
                .chain(&c.keys)
                .chain(&c.args)
                .chain(&c.keys_from);
            for v in vals {
                refs_of(v, &mut seeds);
            }
        }
        // The modules a file's scope climbs through matter only to its
        // client facts: a file that sends nothing needs no client in scope.
        if facts.sends() {
            seeds.extend(facts.scope.iter().flat_map(|s| s.needs.iter().cloned()));
        }
        for r in &facts.field_reads {
            refs_of(&r.key, &mut seeds);
            refs_of(&r.field, &mut seeds);
            if let Some(c) = &r.command {
                refs_of(c, &mut seeds);
            }
            // The function whose value it is read from.
            if let Some(row) = &r.row {
                refs_of(row, &mut seeds);
            }
        }
        FileNames {
            seeds,
            calls: calls(facts, &mut shas),
            templates: facts
                .templates
                .iter()
                .map(|t| TemplateNames {
                    marked: template_marks(t, pf),
                    refs: sorted(
                        t.segs
                            .iter()
                            .filter_map(|s| match s {
                                Seg::Value(v) => Some(v),
                                _ => None,
                            })
                            .fold(Vec::new(), |mut acc, v| {
                                refs_of(v, &mut acc);
                                acc
                            }),
                    ),
                })
                .collect(),
            defs: defs(facts, pf),
            runners: runners(facts),
            idents,
            shas,
        }
    }
}

fn fn_name(facts: &FileFacts, f: Option<usize>) -> Option<String> {
    f.and_then(|f| facts.functions.get(f))
        .map(|d| d.name.clone())
}

fn calls(facts: &FileFacts, shas: &mut BTreeSet<String>) -> Vec<CallNames> {
    facts
        .calls
        .iter()
        .filter_map(|c| {
            let mut refs = Vec::new();
            let mut idents = Vec::new();
            for v in &c.args {
                refs_of(v, &mut refs);
                identities(v, &mut idents, shas);
            }
            Some(CallNames {
                callee: c.path.last()?.clone(),
                refs: sorted(refs),
                idents: sorted(idents),
                within: fn_name(facts, c.func),
                reply: c.args.iter().any(|a| hash_reply_parts(a).is_some()),
                forwards: c.args.iter().any(|a| matches!(a, Value::Param { .. })),
            })
        })
        .collect()
}

fn defs(facts: &FileFacts, pf: &Prefilter) -> Vec<DefNames> {
    let mut out = Vec::new();
    // A field its type's constructors set (`.name`) is read through a
    // value of the type, never by its name alone.
    for c in facts.consts.iter().filter(|c| !c.name.starts_with('.')) {
        if let Some(needle) = needle_of(&c.name) {
            let mut refs = Vec::new();
            refs_of(&c.value, &mut refs);
            let refs = sorted(refs);
            out.push(DefNames {
                needle,
                keyish: true,
                marked: holds_key_literal(&c.value, pf),
                reply: false,
                refs,
            });
        }
    }
    for d in &facts.functions {
        if let Some(needle) = needle_of(&d.name) {
            let mut refs = Vec::new();
            refs_of(&d.returns, &mut refs);
            let refs = sorted(refs);
            out.push(DefNames {
                needle,
                keyish: !matches!(d.returns, Value::Unknown { .. }),
                marked: holds_key_literal(&d.returns, pf),
                reply: hash_reply_parts(&d.returns).is_some(),
                refs,
            });
        }
    }
    out
}

/// Functions that run a script: an EVAL command or a script call in their
/// body.
fn runners(facts: &FileFacts) -> BTreeSet<String> {
    let evals = facts
        .commands
        .iter()
        .filter(|c| may_eval(c))
        .map(|c| c.func);
    evals
        .chain(facts.script_calls.iter().map(|c| c.func))
        .filter_map(|f| fn_name(facts, f))
        .collect()
}

/// What one speaker's parsed files need from its other files.
pub struct SpeakerNames {
    /// Names whose every use matters: carriers (a template or a definition
    /// that looks one up may carry the protocol) and wrappers (their calls
    /// run scripts).
    pub used: BTreeSet<String>,
    /// Names resolved in full: every definition of them matters.
    pub defined: BTreeSet<String>,
    /// Normalised names that calls of its wrappers may identify a script by.
    pub idents: BTreeSet<String>,
}

/// The names one speaker's parsed files need, as whole identifiers (see
/// the module docs of `super::prefilter`): every name a value that may
/// carry the protocol looks up, followed through the definitions it
/// reaches, and every name of a definition that may carry the protocol.
pub fn speaker_names(files: &[&FileNames]) -> SpeakerNames {
    let all_calls = || files.iter().flat_map(|f| &f.calls);
    let all_defs = || files.iter().flat_map(|f| &f.defs);
    // Wrappers: functions that run a script, or call a wrapper.
    let mut callers: HashMap<&str, Vec<&str>> = HashMap::default();
    for c in all_calls() {
        if let Some(w) = &c.within {
            callers.entry(c.callee.as_str()).or_default().push(w);
        }
    }
    let wrappers = closure(
        files
            .iter()
            .flat_map(|f| f.runners.iter().map(|r| Cow::Borrowed(r.as_str()))),
        |w| callers.get(w).into_iter().flatten().copied(),
    );
    // Carriers: definitions whose value holds a key-marked literal, the
    // wrappers, and the key-like definitions that look one up.
    let mut keyish_by_ref: HashMap<&str, Vec<&str>> = HashMap::default();
    for d in all_defs().filter(|d| d.keyish) {
        for r in &d.refs {
            keyish_by_ref.entry(r).or_default().push(&d.needle);
        }
    }
    // A function that returns a whole-hash read's reply is one too: its
    // callers may read its fields (`link::rows`).
    let marked_defs = all_defs()
        .filter(|d| (d.keyish && d.marked) || d.reply)
        .map(|d| Cow::Borrowed(d.needle.as_str()));
    // Each wrapper's needle, made once (not once per call of it: a test
    // suite calls its wrappers thousands of times).
    let needles: HashMap<&str, String> = wrappers
        .iter()
        .filter_map(|w| Some((w.as_ref(), needle_of(w)?)))
        .collect();
    let carriers = closure(
        needles
            .values()
            .map(|n| Cow::Borrowed(n.as_str()))
            .chain(marked_defs),
        |c| keyish_by_ref.get(c).into_iter().flatten().copied(),
    );
    // Names resolved in full: what Redis facts send, what wrapper calls
    // pass, what templates that may carry the protocol look up; then
    // through the definitions they reach.
    let mut seeds: Vec<Cow<'_, str>> = Vec::new();
    // Borrowed until the end: the same names come from many calls.
    let mut idents: HashSet<&str> = HashSet::default();
    for f in files {
        seeds.extend(borrowed(&f.seeds));
        for c in f
            .calls
            .iter()
            .filter(|c| wrappers.contains(c.callee.as_str()))
        {
            seeds.extend(
                needles
                    .get(c.callee.as_str())
                    .map(|n| Cow::Borrowed(n.as_str())),
            );
            seeds.extend(borrowed(&c.refs));
            idents.extend(c.idents.iter().map(String::as_str));
        }
        for t in &f.templates {
            if t.marked || t.refs.iter().any(|r| carriers.contains(r.as_str())) {
                seeds.extend(borrowed(&t.refs));
            }
        }
    }
    // Readers of a row: the functions passed the reply of a whole-hash
    // read, and those they pass a parameter on to (`link::rows`).
    let mut forwarded: HashMap<&str, Vec<&str>> = HashMap::default();
    for c in all_calls().filter(|c| c.forwards) {
        if let Some(w) = &c.within {
            forwarded.entry(w).or_default().push(&c.callee);
        }
    }
    let readers = closure(
        all_calls()
            .filter(|c| c.reply)
            .map(|c| Cow::Borrowed(c.callee.as_str())),
        |f| forwarded.get(f).into_iter().flatten().copied(),
    );
    seeds.extend(readers.iter().filter_map(|r| needle_of(r)).map(Cow::Owned));
    let mut refs_by_def: HashMap<&str, Vec<&str>> = HashMap::default();
    for d in all_defs() {
        refs_by_def
            .entry(&d.needle)
            .or_default()
            .extend(d.refs.iter().map(String::as_str));
    }
    let needed = closure(seeds, |n| refs_by_def.get(n).into_iter().flatten().copied());
    let owned = |set: HashSet<Cow<'_, str>>| set.into_iter().map(Cow::into_owned).collect();
    SpeakerNames {
        used: owned(carriers),
        defined: owned(needed),
        idents: idents.into_iter().map(String::from).collect(),
    }
}

/// The names of a set, borrowed.
fn borrowed<'a>(set: impl IntoIterator<Item = &'a String>) -> impl Iterator<Item = Cow<'a, str>> {
    set.into_iter().map(|n| Cow::Borrowed(n.as_str()))
}

/// The least set that holds `start` and, with a name, every name `next`
/// gives for it (a worklist: each name is expanded once). The names are
/// borrowed from the files' where they can be, and hashed, not ordered:
/// the sets are made again on each round of the name pass, and what leaves
/// [`speaker_names`] is ordered.
fn closure<'a, I>(
    start: impl IntoIterator<Item = Cow<'a, str>>,
    next: impl Fn(&str) -> I,
) -> HashSet<Cow<'a, str>>
where
    I: Iterator<Item = &'a str>,
{
    let mut set: HashSet<Cow<'a, str>> = HashSet::default();
    let mut todo: Vec<Cow<'a, str>> = Vec::new();
    for s in start {
        if !set.contains(s.as_ref()) {
            set.insert(s.clone());
            todo.push(s);
        }
    }
    while let Some(n) = todo.pop() {
        for m in next(&n) {
            if !set.contains(m) {
                set.insert(Cow::Borrowed(m));
                todo.push(Cow::Borrowed(m));
            }
        }
    }
    set
}

/// Normalised names and SHA1s a script may be identified by in `v`
/// (`link::calls::identify`): atoms, constant names and short literal
/// strings, anywhere inside it.
fn identities(v: &Value, names: &mut impl NameSink, shas: &mut BTreeSet<String>) {
    walk(v, 0, &mut |v| {
        let name = match v {
            Value::Atom { name, .. } => Some(name.clone()),
            Value::Const { path, .. } => path.last().cloned(),
            Value::Str(_) => v.as_str().filter(|s| s.len() <= 64),
            _ => None,
        };
        let Some(n) = name else {
            return;
        };
        if n.len() == 40 && n.bytes().all(|b| b.is_ascii_hexdigit()) {
            shas.insert(n.to_ascii_lowercase());
        }
        names.put(normalize_name(&n));
    });
}

#[cfg(test)]
mod tests;
