//! Reading a resolved key template against a contract's keyspace. Shared by
//! the key checks (WL101–WL103), the field checks (which record a key
//! addresses), the prefilter (the same near-miss rule), and the views that
//! show keys (whether a template reads as a key at all). It sits beside the
//! contract, below everything that uses it.
//!
//! A template is flattened into atoms: one per literal character (with the
//! span of its bytes where the literal's text matches its source one to
//! one), and one per hole. Holes match anything.

use std::ops::ControlFlow;

mod lookalike;
pub use lookalike::{looks_like, visible};

use crate::contract::{closest, edit_distance, KeyType, Keyspace, PatTok, Record};
use crate::facts::{Seg, Span, Template};

#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    Char(char, Span),
    Hole(String, Span),
}

impl Atom {
    pub fn span(&self) -> Span {
        match self {
            Atom::Char(_, s) | Atom::Hole(_, s) => *s,
        }
    }
    fn is_char(&self, c: char) -> bool {
        matches!(self, Atom::Char(x, _) if *x == c)
    }
}

pub fn atoms(t: &Template) -> Vec<Atom> {
    let mut out = Vec::new();
    for seg in &t.segs {
        match seg {
            Seg::Lit { text, span } => push_chars(&mut out, text, *span),
            Seg::Hole { label, span } => out.push(Atom::Hole(label.clone(), *span)),
            Seg::Value(v) => out.push(Atom::Hole(v.describe(), v.span())),
        }
    }
    out
}

/// A literal's characters, each with its own bytes when the literal's span
/// holds it as written (else the literal's span).
fn push_chars(out: &mut Vec<Atom>, text: &str, span: Span) {
    let exact = span.len() as usize == text.len();
    for (i, c) in text.char_indices() {
        let s = if exact {
            Span::new(
                span.file,
                span.start as usize + i,
                span.start as usize + i + c.len_utf8(),
            )
        } else {
            span
        };
        out.push(Atom::Char(c, s));
    }
}

/// The span covering atoms `[from, to)`; the first atom's span when they lie
/// in different places.
pub fn span_of(atoms: &[Atom], from: usize, to: usize) -> Span {
    let first = atoms[from].span();
    atoms[from + 1..to.max(from + 1)]
        .iter()
        .fold(first, |acc, a| {
            if a.span().file == acc.file {
                acc.join(a.span())
            } else {
                acc
            }
        })
}

fn text_of(atoms: &[Atom]) -> String {
    atoms
        .iter()
        .map(|a| match a {
            Atom::Char(c, _) => c.to_string(),
            Atom::Hole(l, _) => format!("<{}>", crate::facts::short_label(l)),
        })
        .collect()
}

/// What a key template says about the keyspace.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyVerdict {
    /// Not a key of this keyspace, or not enough is known to tell.
    Skip,
    /// Agrees with the keyspace.
    Fine,
    /// The namespace differs (`emk:` for `emq:`).
    Prefix { found: String, span: Span },
    /// The queue is not the hash tag, or the braces are misplaced.
    HashTag { why: &'static str, span: Span },
    /// The type suffix is not one the contract knows.
    Type { found: String, span: Span },
}

/// Whether `c` may be part of a key's namespace (the word before its first
/// `:`): ASCII letters, digits, `_`, `-` and `.`.
pub fn is_namespace_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// The literal text of `t` before its first hole: a prefix held in a
/// constant or a field is a literal of its own before the rest
/// (`${this.prefix}:{q}:wait`).
pub fn literal_lead(t: &Template) -> String {
    t.segs
        .iter()
        .map_while(|s| match s {
            Seg::Lit { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether a template reads as a key: a literal namespace and a `:`.
pub fn is_key_like(t: &Template) -> bool {
    let text = literal_lead(t);
    match text.find(':') {
        Some(i) if i > 0 => text[..i].chars().all(is_namespace_char),
        _ => false,
    }
}

/// Whether `ns` (without its colon) could be a near miss of the prefix's
/// namespace: within one edit for short names, a third of the length for
/// long ones. WL101 reads keys with it, and the prefilter marks files with
/// it. A word whose length differs by more than that cannot be near, so
/// long words cost nothing.
pub fn near_namespace(ns: &str, prefix_ns: &str) -> bool {
    let limit = (prefix_ns.chars().count() / 3).max(1);
    if ns.chars().count().abs_diff(prefix_ns.chars().count()) > limit {
        return false;
    }
    edit_distance(ns, prefix_ns) <= limit
}

/// Reads a key template against the keyspace.
pub fn analyze(t: &Template, ks: &Keyspace) -> KeyVerdict {
    read_atoms(&atoms(t), ks)
}

/// The verdict on a key's atoms: as written, or, when that is not fine, a
/// prefix that only looks like the keyspace's ([`lookalike`]).
fn read_atoms(atoms: &[Atom], ks: &Keyspace) -> KeyVerdict {
    // A literal `*` makes a glob (`KEYS`, `SCAN MATCH`, an ACL's key
    // pattern), which names keys but is none.
    if atoms.iter().any(|a| a.is_char('*')) {
        return KeyVerdict::Skip;
    }
    if ks.whole_types().any(|t| whole_match(atoms, t)) {
        return KeyVerdict::Fine;
    }
    if !ks.queue_key {
        // Only whole templates, and none matches: no evidence either way.
        return KeyVerdict::Skip;
    }
    let verdict = exact_verdict(atoms, ks, false);
    if matches!(verdict, KeyVerdict::Fine | KeyVerdict::Prefix { .. }) {
        return verdict;
    }
    // Behind a lookalike prefix, a type that is a bare placeholder (BullMQ's
    // job hash at `<id>`) is no evidence: any word would be one.
    lookalike::lookalike_prefix(atoms, ks, |a| exact_verdict(a, ks, true)).unwrap_or(verdict)
}

/// The verdict on a key's atoms as written; `telling`: only types with a
/// literal make a key of the keyspace.
fn exact_verdict(atoms: &[Atom], ks: &Keyspace, telling: bool) -> KeyVerdict {
    let lead: String = atoms
        .iter()
        .map_while(|a| match a {
            Atom::Char(c, _) => Some(*c),
            Atom::Hole(..) => None,
        })
        .collect();
    if !lead.starts_with(&ks.prefix) {
        return foreign_namespace(atoms, &lead, ks);
    }
    let i = ks.prefix.chars().count();
    if i >= atoms.len() {
        return KeyVerdict::Skip;
    }
    let key = Key {
        atoms,
        sep: ks.separator.chars().collect(),
    };
    let queue_end = if ks.hash_tag {
        key.hash_tag(i)
    } else {
        key.plain_queue(i)
    };
    match queue_end {
        ControlFlow::Continue(i) => type_verdict(&atoms[i..], ks, telling),
        ControlFlow::Break(verdict) => verdict,
    }
}

/// Whether `t` is built with the keyspace's exact prefix, whatever else it
/// gets wrong: its verdict is neither `Skip` nor `Prefix`. A key whose
/// leading literal text does not start with the prefix gets one of those
/// two ([`foreign_namespace`]), which [`leads_with`] tells without making
/// an atom per character: a run asks this of every key until one answers
/// yes (6,700 keys in BullMQ, which none does; 3 ms on the run's one
/// thread, the verdicts made whole).
pub fn in_keyspace(t: &Template, ks: &Keyspace) -> bool {
    if ks.whole_types().any(|w| leads_with(t, w.lead_literal())) {
        let atoms = atoms(t);
        if ks.whole_types().any(|w| whole_match(&atoms, w)) {
            return true;
        }
    }
    ks.queue_key
        && leads_with(t, &ks.prefix)
        && !matches!(analyze(t, ks), KeyVerdict::Skip | KeyVerdict::Prefix { .. })
}

/// Whether the literal text of `t` before its first hole starts with
/// `prefix` (as the `lead` of [`analyze`] does).
fn leads_with(t: &Template, prefix: &str) -> bool {
    let mut rest = prefix;
    for seg in &t.segs {
        let Seg::Lit { text, .. } = seg else {
            break;
        };
        if text.len() >= rest.len() {
            return text.starts_with(rest);
        }
        match rest.strip_prefix(text.as_str()) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

/// A key under another namespace than the prefix's: a near miss of it, or
/// one of our keys' shapes under another prefix, is a prefix divergence.
fn foreign_namespace(atoms: &[Atom], lead: &str, ks: &Keyspace) -> KeyVerdict {
    let Some(colon) = lead.find(':') else {
        return KeyVerdict::Skip;
    };
    let ns = &lead[..colon];
    if ns.is_empty() || !ns.chars().all(is_namespace_char) {
        return KeyVerdict::Skip;
    }
    let prefix_ns = ks.prefix.trim_end_matches(|c: char| !c.is_alphanumeric());
    let ns_chars = ns.chars().count();
    let shaped = shape_after_prefix(&atoms[ns_chars + 1..], ks);
    if near_namespace(ns, prefix_ns) || shaped {
        return KeyVerdict::Prefix {
            found: format!("{ns}:"),
            span: span_of(atoms, 0, ns_chars + 1),
        };
    }
    KeyVerdict::Skip
}

/// Whether a key's atoms are a key of the whole template `t`: the literal
/// the template opens with is written as such (a key that opens with a
/// hole is no evidence), and the rest matches, a placeholder never taking
/// a `:` or a brace (so `rsmq:<queue>` is not `rsmq:q:Q`).
fn whole_match(atoms: &[Atom], t: &KeyType) -> bool {
    let lead = t.lead_literal();
    if lead.is_empty()
        || atoms.len() < lead.chars().count()
        || !atoms.iter().zip(lead.chars()).all(|(a, c)| a.is_char(c))
    {
        return false;
    }
    // An end mark on both sides: neither a last placeholder nor a last hole
    // is at the very end, where it would match any tail.
    let end = Atom::Char('\0', atoms[0].span());
    let mut marked = atoms.to_vec();
    marked.push(end);
    let mut pattern = t.pattern.clone();
    pattern.push(PatTok::Lit("\0".into()));
    matches(&marked, &pattern)
}

/// A key's atoms after the prefix, and the keyspace's separator.
struct Key<'a> {
    atoms: &'a [Atom],
    sep: Vec<char>,
}

impl Key<'_> {
    fn starts_with_sep(&self, at: usize) -> bool {
        self.sep
            .iter()
            .enumerate()
            .all(|(k, c)| self.atoms.get(at + k).is_some_and(|a| a.is_char(*c)))
    }

    /// The queue as a hash tag at `i`: where the rest starts (after the
    /// separator), or the verdict when the tag decides it.
    fn hash_tag(&self, i: usize) -> ControlFlow<KeyVerdict, usize> {
        let atoms = self.atoms;
        match &atoms[i] {
            Atom::Char('{', _) => self.braces(i),
            Atom::Hole(label, _) => {
                // `emq:#{queue}:job`: a plain variable where the tag belongs.
                // An unresolved call may build the tag itself: say nothing.
                if label.contains('(') || i + 1 >= atoms.len() || !self.starts_with_sep(i + 1) {
                    return ControlFlow::Break(KeyVerdict::Skip);
                }
                // The diverging bytes are the separator right after the
                // queue, which should be preceded by `}`: a literal, so the
                // same bytes whichever call site resolved here, and where
                // the builder puts the queue.
                ControlFlow::Break(KeyVerdict::HashTag {
                    why: "the queue is not wrapped in the hash tag `{…}`",
                    span: span_of(atoms, i + 1, i + 1 + self.sep.len()),
                })
            }
            Atom::Char(..) => {
                // A literal queue name without braces, or a type right after
                // the prefix.
                let end = (i..atoms.len())
                    .find(|&j| self.starts_with_sep(j) || matches!(atoms[j], Atom::Hole(..)))
                    .unwrap_or(atoms.len());
                ControlFlow::Break(KeyVerdict::HashTag {
                    why: "the queue is not wrapped in the hash tag `{…}`",
                    span: span_of(atoms, i, end),
                })
            }
        }
    }

    /// `{queue}` at `i`, then the separator.
    fn braces(&self, i: usize) -> ControlFlow<KeyVerdict, usize> {
        let atoms = self.atoms;
        let tag =
            |why: &'static str, span: Span| ControlFlow::Break(KeyVerdict::HashTag { why, span });
        let Some(close) = (i + 1..atoms.len()).find(|&j| atoms[j].is_char('}')) else {
            if atoms[i + 1..].iter().any(|a| matches!(a, Atom::Hole(..))) {
                return ControlFlow::Break(KeyVerdict::Skip);
            }
            return tag("the hash tag `{` is never closed", atoms[i].span());
        };
        if close == i + 1 {
            return tag(
                "the hash tag is empty, so the key hashes whole and leaves the queue's slot",
                span_of(atoms, i, close + 1),
            );
        }
        if (i + 1..close).any(|j| self.starts_with_sep(j)) {
            return tag(
                "the hash tag holds more than the queue, so keys of one queue land in different slots",
                span_of(atoms, i, close + 1),
            );
        }
        let i = close + 1;
        if i == atoms.len() {
            // A base key (`emq:{q}`), completed elsewhere.
            return ControlFlow::Break(KeyVerdict::Fine);
        }
        if !self.starts_with_sep(i) {
            if matches!(atoms[i], Atom::Hole(..)) {
                return ControlFlow::Break(KeyVerdict::Skip);
            }
            return tag(
                "the hash tag is not followed by the separator",
                span_of(atoms, i - 1, i + 1),
            );
        }
        ControlFlow::Continue(i + self.sep.len())
    }

    /// Without hash tags, the queue at `i`: a hole, or literal text up to
    /// the separator.
    fn plain_queue(&self, i: usize) -> ControlFlow<KeyVerdict, usize> {
        let Some(end) = (i..self.atoms.len()).find(|&j| self.starts_with_sep(j)) else {
            return ControlFlow::Break(KeyVerdict::Skip);
        };
        if self.atoms[i].is_char('{') {
            return ControlFlow::Break(KeyVerdict::Skip);
        }
        ControlFlow::Continue(end + self.sep.len())
    }
}

/// What follows the queue: nothing, a hole, or one of the keyspace's types.
fn type_verdict(rest: &[Atom], ks: &Keyspace, telling: bool) -> KeyVerdict {
    if rest.is_empty() || matches!(rest[0], Atom::Hole(..)) {
        return KeyVerdict::Fine;
    }
    let literal = |t: &&KeyType| t.pattern.iter().any(|p| matches!(p, PatTok::Lit(_)));
    let typed = |t: &&KeyType| !telling || literal(t);
    let word_end = rest
        .iter()
        .position(|a| matches!(a, Atom::Hole(..)) || a.is_char(':'))
        .map(|p| if rest[p].is_char(':') { p + 1 } else { p })
        .unwrap_or(rest.len());
    let word_end = word_end.max(1);
    let unknown = || KeyVerdict::Type {
        found: text_of(&rest[..word_end]),
        span: span_of(rest, 0, word_end),
    };
    if !ks
        .queue_types()
        .filter(typed)
        .any(|t| matches(rest, &t.pattern))
    {
        return unknown();
    }
    // Only a bare placeholder type matches (BullMQ's job at `<id>`): a word
    // of three letters or more written in the code, an edit from a type's
    // word (one for each four letters: `wiat`), is that type misspelt, not
    // an id (ids are generated or passed in).
    let word = text_of(&rest[..word_end]);
    let word = word.trim_end_matches(':');
    let spelt = rest[..word_end].iter().all(|a| matches!(a, Atom::Char(..)));
    if spelt
        && !word.bytes().all(|b| b.is_ascii_digit())
        && !ks
            .queue_types()
            .filter(literal)
            .any(|t| matches(rest, &t.pattern))
        && word.chars().count() >= 3
        && closest(
            word,
            ks.queue_types()
                .filter(literal)
                .map(|t| t.lead().trim_end_matches(':')),
        )
        .is_some_and(|t| edit_distance(word, t) <= (word.chars().count() / 4).max(1))
    {
        return unknown();
    }
    KeyVerdict::Fine
}

/// After a foreign namespace: `{…}` then the separator and a known type, the
/// shape of one of our keys under another prefix.
fn shape_after_prefix(rest: &[Atom], ks: &Keyspace) -> bool {
    if !ks.hash_tag || rest.first().is_none_or(|a| !a.is_char('{')) {
        return false;
    }
    let Some(close) = rest.iter().position(|a| a.is_char('}')) else {
        return false;
    };
    let after: String = rest[close + 1..]
        .iter()
        .map_while(|a| match a {
            Atom::Char(c, _) => Some(*c),
            _ => None,
        })
        .collect();
    let Some(tail) = after.strip_prefix(&ks.separator) else {
        return false;
    };
    ks.queue_types().any(|t| {
        !t.lead().is_empty()
            && (tail.starts_with(t.lead()) || t.lead().starts_with(tail) && !tail.is_empty())
    })
}

/// Whether atoms and a pattern can spell the same bytes. A hole matches
/// anything, and so does a placeholder; but a wildcard in the middle of a
/// key does not swallow structure (`{`, `}`, `:`): a queue name does not
/// contain the type. A wildcard at the very end matches any tail.
pub fn matches(atoms: &[Atom], pattern: &[PatTok]) -> bool {
    let mut pat = Vec::new();
    for t in pattern {
        match t {
            PatTok::Lit(s) => pat.extend(s.chars().map(P::C)),
            PatTok::Var(_) => {
                let tagged = matches!(pat.last(), Some(P::C('{')));
                pat.push(P::Any(tagged))
            }
        }
    }
    literal_ends_agree(atoms, &pat) && table(atoms, &pat)
}

/// A pattern as [`matches`] reads it: a byte, or a placeholder.
#[derive(Clone, Copy)]
enum P {
    C(char),
    /// A placeholder; `true` when it is a whole hash tag's content
    /// (`{<server>}`), which may hold `:` (asynq's
    /// `{host:pid:id}`) but no brace.
    Any(bool),
}

/// [`matches`], by filling its table.
fn table(atoms: &[Atom], pat: &[P]) -> bool {
    let structural = |c: char| matches!(c, '{' | '}' | ':');
    let (n, m) = (atoms.len(), pat.len());
    // dp[i][j]: atoms[i..] and pat[j..] can match.
    let w = m + 1;
    let mut dp = vec![false; (n + 1) * w];
    dp[n * w + m] = true;
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            if i == n && j == m {
                continue;
            }
            let v = match (atoms.get(i), pat.get(j)) {
                (Some(Atom::Hole(..)), p) => {
                    let last = i + 1 == n;
                    let can_eat = match p {
                        Some(P::C(c)) => last || !structural(*c),
                        Some(P::Any(_)) => true,
                        None => false,
                    };
                    dp[(i + 1) * w + j] || (can_eat && dp[i * w + j + 1])
                }
                (a, Some(P::Any(tagged))) => {
                    let last = j + 1 == m;
                    let can_eat = match a {
                        Some(Atom::Char(c, _)) => last || !structural(*c) || (*tagged && *c == ':'),
                        _ => false,
                    };
                    dp[i * w + j + 1] || (can_eat && dp[(i + 1) * w + j])
                }
                (Some(Atom::Char(a, _)), Some(P::C(b))) => a == b && dp[(i + 1) * w + j + 1],
                _ => false,
            };
            dp[i * w + j] = v;
        }
    }
    dp[0]
}

/// What [`matches`]'s table concludes at either end without filling it:
/// where both a key and a pattern open (or close) with literal bytes, a
/// byte of the one against a byte of the other can only be equal, as
/// neither a hole nor a placeholder stands there to eat it. `false` when
/// two such bytes differ (no match); `true` says nothing. Most templates
/// of a tree differ from most types of a keyspace there (`wait` against
/// `active`), so the table is filled for few pairs.
fn literal_ends_agree(atoms: &[Atom], pat: &[P]) -> bool {
    let lit = |p: &P| match p {
        P::C(c) => Some(*c),
        P::Any(_) => None,
    };
    let char_of = |a: &Atom| match a {
        Atom::Char(c, _) => Some(*c),
        Atom::Hole(..) => None,
    };
    let agree = |a: Option<&Atom>, p: Option<&P>| match (a.and_then(char_of), p.and_then(&lit)) {
        (Some(a), Some(b)) => Some(a == b),
        _ => None,
    };
    let (n, m) = (atoms.len(), pat.len());
    for k in 0..n.min(m) {
        match agree(atoms.get(k), pat.get(k)) {
            Some(true) => {}
            Some(false) => return false,
            None => break,
        }
    }
    for k in 1..=n.min(m) {
        match agree(atoms.get(n - k), pat.get(m - k)) {
            Some(true) => {}
            Some(false) => return false,
            None => break,
        }
    }
    true
}

/// A template's atoms as [`typing`] reads them: its bytes and holes, the
/// holes unnamed (nothing there reads a hole's name).
fn shape(t: &Template) -> Vec<Atom> {
    let mut out = Vec::new();
    for seg in &t.segs {
        match seg {
            Seg::Lit { text, span } => push_chars(&mut out, text, *span),
            Seg::Hole { span, .. } => out.push(Atom::Hole(String::new(), *span)),
            Seg::Value(v) => out.push(Atom::Hole(String::new(), v.span())),
        }
    }
    out
}

/// [`literal_ends_agree`]'s closing half, against a type's own pattern
/// (the end of every full pattern of it, [`Keyspace::full_pattern`]) and
/// before any is built: `false` when the key's last literal bytes and the
/// pattern's differ.
fn tail_agrees(atoms: &[Atom], pattern: &[PatTok]) -> bool {
    let mut pat = pattern.iter().rev().flat_map(|t| {
        let (lit, var) = match t {
            PatTok::Lit(s) => (Some(s.chars().rev()), None),
            PatTok::Var(_) => (None, Some(None)),
        };
        lit.into_iter().flatten().map(Some).chain(var)
    });
    for a in atoms.iter().rev() {
        match (a, pat.next()) {
            (Atom::Char(a, _), Some(Some(b))) if *a == b => {}
            (Atom::Char(..), Some(Some(_))) => return false,
            _ => return true,
        }
    }
    true
}

/// The one contract record whose key a template addresses, if exactly one
/// matches and the template says enough to tell (a bare hole says nothing).
pub fn record_of<'c>(t: &Template, ks: &Keyspace, records: &'c [Record]) -> Option<&'c Record> {
    let one = match typing(t, ks) {
        Typing::Named(one) => one,
        Typing::Open(_) => return None,
    };
    records.iter().find(|r| r.type_name == one.name)
}

/// What a key's template says about its contract type.
pub enum Typing<'k> {
    /// It names one type: the only one it can spell, or the only one with
    /// literal bytes among those it can.
    Named(&'k KeyType),
    /// It may be any of these (every type, for a template with no literal
    /// byte: a bare hole, `prefix .. id`).
    Open(Vec<&'k KeyType>),
}

/// The contract types a template can be (see [`Typing`]).
pub fn typing<'k>(t: &Template, ks: &'k Keyspace) -> Typing<'k> {
    let atoms = shape(t);
    if !atoms.iter().any(|a| matches!(a, Atom::Char(..))) {
        return Typing::Open(ks.types.iter().collect());
    }
    let matching: Vec<&KeyType> = ks
        .types
        .iter()
        .filter(|ty| {
            if !tail_agrees(&atoms, &ty.pattern) {
                false
            } else if ty.whole {
                whole_match(&atoms, ty)
            } else {
                matches(&atoms, &ks.full_pattern(ty))
            }
        })
        .collect();
    // A type that is a bare placeholder (BullMQ's job hash at `<id>`) yields
    // to a type with literal bytes that matches too (`meta`).
    let telling: Vec<&KeyType> = matching
        .iter()
        .copied()
        .filter(|t| t.pattern.iter().any(|p| matches!(p, PatTok::Lit(_))))
        .collect();
    match (matching.as_slice(), telling.as_slice()) {
        ([one], _) | (_, [one]) => Typing::Named(one),
        _ => Typing::Open(matching),
    }
}

#[cfg(test)]
mod tests;
