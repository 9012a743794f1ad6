//! The search side of the name pass: the names a speaker's parsed files
//! need, looked for as whole identifiers in the bytes of its other files
//! ([`Names::scan`]), or in the identifiers the cache's index holds for
//! them ([`Names::scan_in`]); both give the same [`Scan`].

use crate::hash::{HashMap, HashSet};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::{Deserialize, Serialize};

use crate::extract::needles;
use crate::facts::Lang;

use super::Within;

/// How many names the automaton of [`Names::scan`] is built for, at most.
pub(super) const MANY_NAMES: usize = 2000;

/// How a hit of one name counts in a file.
#[derive(Clone, Copy, Default, Debug)]
struct Kinds {
    /// Any use of the name.
    used: bool,
    /// A definition of it, whatever module it is in.
    def_any: bool,
    /// A place where a field of the name may be set, whatever its type.
    field_any: bool,
    /// A definition of it, in a module some reference may pick
    /// ([`Names::bounded`]): its index there.
    def: Option<u32>,
    /// The same, for the field of the name.
    field: Option<u32>,
    /// The name is a word a module may be named by: its index in
    /// [`Names::words`].
    word: Option<u32>,
}

/// What one file holds of the names: whether it must be parsed whatever
/// the others hold (`hit`), the bounded definitions it holds, and the words
/// it holds. The same from the bytes and from the cache's identifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    pub hit: bool,
    /// Indices into [`Names::bounded`], sorted, without repeats.
    pub defs: Vec<u32>,
    /// Indices into [`Names::words`], sorted, without repeats.
    pub words: Vec<u32>,
}

/// Names searched for as whole identifiers (a byte before and after a hit
/// must not be `[A-Za-z0-9_]`): *used* names anywhere, *defined* names only
/// where a definition of them starts (`needles::defines_at`), fields
/// (`.f`, a defined name a projection reads) only where a field may be set
/// (`needles::sets_field_at`), and the words modules may be named by
/// anywhere.
///
/// A defined name whose references pick a definition only in the modules
/// some words name (`Within`) is *bounded*: a file that defines it is
/// parsed when it holds one of those words, or when no other file of the
/// speaker defines it (`super::super::select`).
pub struct Names {
    /// The automaton over `pats`, built on the first [`Names::scan`]: a
    /// warm run answers from the cache's identifiers ([`Names::scan_in`])
    /// and may never search bytes.
    ac: OnceLock<Option<AhoCorasick>>,
    pats: Vec<String>,
    kinds: Vec<Kinds>,
    by_name: HashMap<String, Kinds>,
    /// The bounded names (`.f` for a field) and the words that bound them.
    pub bounded: Vec<(String, Within)>,
    /// The defined names whose definitions any module may hold.
    pub unbounded: Vec<String>,
    pub words: Vec<String>,
    word_ids: HashMap<String, u32>,
    /// Whether a name holds a byte outside ASCII ([`Idents`] cannot tell).
    wide: bool,
    /// Whether any name counts wherever it is used.
    any_used: bool,
    /// Past [`MANY_NAMES`], [`Names::scan`] looks each identifier of the
    /// text up in `by_name`, and the automaton holds only the names that
    /// are not plain identifiers: building it for 26,000 names (hostile
    /// input, as many builders in 1 MB) took 1.4 s.
    pub(super) by_word: bool,
}

impl Names {
    /// `used` names, and `defined` ones with where their references may
    /// pick a definition (a defined `.f` is a field).
    pub fn new(used: &BTreeSet<String>, defined: &BTreeMap<String, Within>) -> Names {
        let mut by_name: BTreeMap<String, Kinds> = BTreeMap::new();
        for u in used {
            let name = u.strip_prefix('.').unwrap_or(u);
            by_name.entry(name.to_string()).or_default().used = true;
        }
        let mut bounded = Vec::new();
        let mut unbounded = Vec::new();
        let mut words: BTreeSet<&str> = BTreeSet::new();
        for (d, within) in defined {
            let (name, field) = match d.strip_prefix('.') {
                Some(f) => (f, true),
                None => (d.as_str(), false),
            };
            let k = by_name.entry(name.to_string()).or_default();
            if within.any {
                unbounded.push(d.clone());
            }
            match (within.any, field) {
                (true, true) => k.field_any = true,
                (true, false) => k.def_any = true,
                (false, _) => {
                    let id = Some(bounded.len() as u32);
                    if field {
                        k.field = id;
                    } else {
                        k.def = id;
                    }
                    bounded.push((d.clone(), within.clone()));
                    words.extend(within.words.iter().map(String::as_str));
                }
            }
        }
        let words: Vec<String> = words.into_iter().map(str::to_string).collect();
        let word_ids: HashMap<String, u32> = words
            .iter()
            .enumerate()
            .map(|(i, w)| (w.clone(), i as u32))
            .collect();
        for (w, i) in &word_ids {
            by_name.entry(w.clone()).or_default().word = Some(*i);
        }
        let wide = by_name.keys().any(|p| !p.is_ascii());
        let any_used = by_name.values().any(|k| k.used);
        let by_word = by_name.len() > MANY_NAMES;
        let word = |p: &str| !p.is_empty() && p.bytes().all(is_ident_byte);
        let (pats, kinds) = by_name
            .iter()
            .filter(|(p, _)| !(by_word && word(p)))
            .map(|(p, k)| (p.clone(), *k))
            .unzip();
        Names {
            ac: OnceLock::new(),
            pats,
            kinds,
            by_name: by_name.into_iter().collect(),
            bounded,
            unbounded,
            words,
            word_ids,
            wide,
            any_used,
            by_word,
        }
    }

    /// Whether only the bytes of the file whose identifiers are `ids` can
    /// tell [`Names::scan`]: a name and the file outside ASCII.
    pub fn needs_bytes(&self, ids: &Idents) -> bool {
        self.wide && ids.wide
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The index of a word in [`Names::words`].
    pub fn word_id(&self, w: &str) -> Option<u32> {
        self.word_ids.get(w).copied()
    }

    /// [`Names::scan`] of the file whose identifiers are `ids`; `None` when
    /// only its bytes can tell (a name and the file outside ASCII).
    pub fn scan_in(&self, ids: &Idents) -> Option<Scan> {
        if self.needs_bytes(ids) {
            return None;
        }
        let mut s = Scan::default();
        for t in ids.defs.split('\n') {
            if let Some(k) = self.by_name.get(t) {
                s.hit |= k.def_any;
                s.defs.extend(k.def);
            }
        }
        for t in ids.fields.split('\n') {
            if let Some(k) = self.by_name.get(t) {
                s.hit |= k.field_any;
                s.defs.extend(k.field);
            }
        }
        // The words count only beside a bounded definition ([`done`]).
        if self.any_used || !s.defs.is_empty() {
            for t in ids.all.split('\n') {
                if let Some(k) = self.by_name.get(t) {
                    s.hit |= k.used;
                    s.words.extend(k.word);
                }
            }
        }
        Some(done(s))
    }

    /// What `bytes` (of a file in `lang`) hold of the names: a used name as
    /// a whole identifier, a definition of a defined one, a place where a
    /// field may be set, a word.
    pub fn scan(&self, lang: Lang, bytes: &[u8]) -> Scan {
        let mut s = Scan::default();
        if self.by_word {
            for (start, end) in ident_runs(bytes) {
                // Identifier bytes are ASCII.
                let word = std::str::from_utf8(&bytes[start..end]).unwrap_or_default();
                if let Some(k) = self.by_name.get(word) {
                    count(&mut s, k, lang, bytes, start);
                }
            }
        }
        let ac = self.ac.get_or_init(|| {
            (!self.pats.is_empty()).then(|| {
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::Standard)
                    .kind(crate::pipeline::prefilter::automaton_kind(
                        self.pats.iter().map(|p| p.len()).sum(),
                    ))
                    .build(&self.pats)
                    .expect("names are short literals")
            })
        });
        if let Some(ac) = ac {
            for m in ac.find_overlapping_iter(bytes) {
                let before = m.start().checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(m.end()).copied();
                if !before.is_some_and(is_ident_byte) && !after.is_some_and(is_ident_byte) {
                    count(
                        &mut s,
                        &self.kinds[m.pattern().as_usize()],
                        lang,
                        bytes,
                        m.start(),
                    );
                }
            }
        }
        done(s)
    }
}

/// Counts a hit of a name of `k` at `at` into `s`.
fn count(s: &mut Scan, k: &Kinds, lang: Lang, bytes: &[u8], at: usize) {
    s.hit |= k.used;
    s.words.extend(k.word);
    if (k.def_any || k.def.is_some()) && needles::defines_at(lang, bytes, at) {
        s.hit |= k.def_any;
        s.defs.extend(k.def);
    }
    if (k.field_any || k.field.is_some()) && needles::sets_field_at(lang, bytes, at) {
        s.hit |= k.field_any;
        s.defs.extend(k.field);
    }
}

/// A scan made whole: sorted, and without words when it holds no bounded
/// definition (they are read only beside one).
fn done(mut s: Scan) -> Scan {
    if s.defs.is_empty() {
        s.words.clear();
    }
    s.defs.sort_unstable();
    s.defs.dedup();
    s.words.sort_unstable();
    s.words.dedup();
    s
}

/// What [`Names::scan`] needs of a file, kept in the facts cache's index
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

pub(super) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
