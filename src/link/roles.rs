//! Key slot roles as evidence: what a script says `KEYS[n]` holds, which key
//! type a call passes there, and when the two positively disagree.
//!
//! A role is evidence only when it names a key type unambiguously:
//!
//! - a contract role (it is one of the contract's key types);
//! - a quoted word in a header comment (`KEYS[1] 'wait'`): quoting is how
//!   such headers write the key's own suffix;
//! - an unquoted header word or a `local waitKey = KEYS[2]` alias, once the
//!   words that only describe a value (`key`, `set`, `sorted`, …) are gone,
//!   when what is left is a key type the code base builds somewhere.
//!
//! Free descriptions (`producer key`), key patterns (`ns:qname`), type notes
//! (`(sorted set key)`) and generic aliases (`local key = KEYS[1]`,
//! `source_key` where no key is a `source`) say nothing. The passed side
//! comes from the key's resolved template alone (its last literal word
//! after a `:`), never from the names of the code that built it. When
//! either side says nothing, a slot is [`SlotVerdict::Unknown`], never a
//! finding.

use std::collections::BTreeSet;

use super::{Arg, Model};
use crate::contract::Contract;
use crate::facts::{Seg, Span, Template};
use crate::hash::HashSet;

/// Where a slot's role is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleSource {
    /// A header comment: `-- KEYS[1] 'wait'`.
    Header,
    /// `local waitKey = KEYS[1]`.
    Alias,
    /// The contract's `keys = [...]`.
    Contract,
}

/// A declared role of one key slot.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotRole {
    pub text: String,
    /// Where the script's code declares it.
    pub span: Option<Span>,
    /// Where the contract declares it.
    pub contract_span: Option<std::ops::Range<usize>>,
    pub source: RoleSource,
}

/// Words that say what kind of value a key holds, not which key it is.
const TYPE_WORDS: &[&str] = &[
    "set", "zset", "sorted", "list", "hash", "string", "stream", "key", "keys", "the", "a", "an",
    "of", "for", "hll", "value", "name",
];

/// Words around a key's own name in code: `get_pending_key`, `jobIdKey`.
const CODE_WORDS: &[&str] = &[
    "get", "build", "make", "key", "keys", "name", "for", "to", "redis", "new",
];

/// Abbreviations that name the same key: a role spelt out and a key's
/// short suffix are one type.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("zset", "sortedset"),
    ("pq", "priorityqueue"),
    ("pc", "prioritycounter"),
    ("ts", "timestamp"),
    ("msg", "message"),
    ("evt", "event"),
    ("cfg", "config"),
    ("q", "queue"),
];

/// Splits `stalledCheckKey`, `stalled_check`, `'stalled-check'` into
/// `{stalled, check}`: lower case, a plural `s` dropped, `drop` words out.
pub fn words(text: &str, drop: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if cur.is_empty() {
            return;
        }
        let mut w = cur.to_lowercase();
        if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
            w.pop();
        }
        if !drop.contains(&w.as_str())
            && !w.chars().all(|c| c.is_ascii_digit())
            && !out.contains(&w)
        {
            out.push(w);
        }
        cur.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower {
                flush(&mut cur, &mut out);
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            cur.push(c);
        } else {
            flush(&mut cur, &mut out);
            prev_lower = false;
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// The alternative names a declared role gives, for display and for
/// `extract --as-contract`: `'jobschedulers' (repeat)` gives
/// `{jobscheduler}` and `{repeat}`; `pending set (ZSET)` gives `{pending}`.
pub fn role_alternatives(text: &str) -> Vec<Vec<String>> {
    let parts = RoleParts::of(text);
    parts
        .quoted
        .iter()
        .chain(&parts.parenthesized)
        .chain(std::iter::once(&parts.rest))
        .map(|g| words(g, TYPE_WORDS))
        .filter(|w| !w.is_empty())
        .collect()
}

/// A role's text in pieces: quoted words, parenthesized notes, the rest.
struct RoleParts {
    quoted: Vec<String>,
    parenthesized: Vec<String>,
    rest: String,
}

impl RoleParts {
    fn of(text: &str) -> RoleParts {
        let mut parts = RoleParts {
            quoted: Vec::new(),
            parenthesized: Vec::new(),
            rest: String::new(),
        };
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            let close = match c {
                '(' => ')',
                '\'' | '"' | '`' => c,
                _ => {
                    parts.rest.push(c);
                    continue;
                }
            };
            let group: String = chars.by_ref().take_while(|d| *d != close).collect();
            match c {
                '(' => parts.parenthesized.push(group),
                _ => parts.quoted.push(group),
            }
        }
        parts
    }
}

/// A contract's key type name as one normalized word, as roles are read:
/// `waiting-children` → `waitingchildren`, `events` → `event`.
pub fn key_type_word(name: &str) -> Option<String> {
    type_word(name, TYPE_WORDS)
}

/// A key type as one normalized word: `stalled-check` → `stalledcheck`.
fn type_word(text: &str, drop: &[&str]) -> Option<String> {
    let w = words(text, drop).concat();
    (!w.is_empty()).then_some(w)
}

/// The last literal `:`-separated piece of a key template, outside any hash
/// tag, normalized: `emq:{<q>}:job:<id>` → `job`; `None` when the template
/// has no literal `:` before a literal word.
pub fn template_type(t: &Template) -> Option<String> {
    // A literal `queue:default` is `type:name` as often as `ns:type`: no
    // evidence which piece is the type.
    let literal = t.as_literal();
    if literal.as_ref().is_some_and(|l| l.split(':').count() <= 2) {
        return None;
    }
    type_word(&template_suffix(t)?, CODE_WORDS)
}

/// That piece as written (`events`), for messages.
pub fn template_suffix(t: &Template) -> Option<String> {
    let mut text = String::new();
    for s in &t.segs {
        match s {
            Seg::Lit { text: l, .. } => text.push_str(l),
            _ => text.push('\0'),
        }
    }
    let mut pieces = text.rsplit(':');
    let mut last = None;
    for piece in pieces.by_ref() {
        if piece.is_empty() || piece.contains('\0') {
            continue;
        }
        if piece.contains(['{', '}']) {
            return None;
        }
        last = Some(piece);
        break;
    }
    // A `:` must stand before the word: `dest` alone is a name, not a key
    // type.
    pieces.next()?;
    last.map(str::to_string)
}

/// Whether two key type words name the same key: equal, or one the known
/// abbreviation of the other.
pub fn same_type(a: &str, b: &str) -> bool {
    a == b
        || ABBREVIATIONS
            .iter()
            .any(|(short, long)| (a == *short && b == *long) || (a == *long && b == *short))
}

/// The key types the code builds (and the contract declares).
#[derive(Clone, Debug, Default)]
pub struct KeyTypes(BTreeSet<String>);

impl KeyTypes {
    pub fn of(model: &Model, contract: Option<&Contract>) -> KeyTypes {
        // The keys a wrapper passes repeat at each of its calls (BullMQ:
        // thousands of uses, a fifth of them distinct): each template is
        // read once.
        let mut seen: HashSet<&Template> = HashSet::default();
        let mut out: BTreeSet<String> = model
            .keys
            .iter()
            .map(|k| &k.template)
            .filter(|t| seen.insert(t))
            .filter_map(template_type)
            .collect();
        if let Some(ks) = contract.and_then(|c| c.keyspace.as_ref()) {
            for t in &ks.types {
                // A name of several words (`metrics-data`) names no key by
                // one word: the key's own last word (`data`) is its type.
                if !t.name.contains(['-', '_']) {
                    out.extend(type_word(&t.name, TYPE_WORDS));
                }
                out.extend(type_word(t.lead(), TYPE_WORDS));
            }
        }
        KeyTypes(out)
    }

    fn holds(&self, w: &str) -> bool {
        self.0.iter().any(|t| same_type(t, w))
    }

    /// The key types a declared role names unambiguously (see the module
    /// docs); empty when it names none.
    pub fn declared(&self, role: &SlotRole, contract: Option<&Contract>) -> Vec<String> {
        let mut out = Vec::new();
        match role.source {
            RoleSource::Contract => {
                // A role that names no key type the contract declares or
                // the code builds (`wait_children`, a description) says
                // nothing about the key in its slot.
                out.extend(type_word(&role.text, TYPE_WORDS).filter(|w| self.holds(w)));
                let ks = contract.and_then(|c| c.keyspace.as_ref());
                if let Some(t) = ks.and_then(|ks| ks.types.iter().find(|t| t.name == role.text)) {
                    out.extend(type_word(t.lead(), TYPE_WORDS));
                    // And as a key passed in the slot is read: asynq's
                    // `aggregation_sets` is `aggregationset` there.
                    out.extend(type_word(t.lead(), CODE_WORDS));
                }
            }
            RoleSource::Header => {
                if role.text.contains(':') {
                    // A key pattern (`ns:qname`) is not a type.
                    return Vec::new();
                }
                let parts = RoleParts::of(&role.text);
                // A quoted token is the key's own suffix; several quoted
                // words (`'event stream'`) are a description.
                let (token, described): (Vec<&String>, Vec<&String>) = parts
                    .quoted
                    .iter()
                    .partition(|q| !q.trim().contains(char::is_whitespace));
                out.extend(token.iter().filter_map(|q| type_word(q, &[])));
                // Unquoted prose alone names a key type only as one word
                // (`meta key`); several (`job schedulers key`) describe,
                // even when they run together into a type's name. Next to
                // a quoted token they spell it out (`'pc' priority counter`).
                let rest = Some(&parts.rest)
                    .filter(|r| !token.is_empty() || words(r, TYPE_WORDS).len() == 1);
                let known = described
                    .into_iter()
                    .chain(&parts.parenthesized)
                    .chain(rest)
                    .filter_map(|g| type_word(g, TYPE_WORDS))
                    .filter(|w| self.holds(w));
                out.extend(known);
            }
            RoleSource::Alias => {
                out.extend(type_word(&role.text, CODE_WORDS).filter(|w| self.holds(w)));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// The key type a call passes: the type of its resolved template, when
/// every alternative agrees.
pub fn passed_type(arg: &Arg) -> Option<String> {
    let mut found: Option<String> = None;
    for t in arg.alts.iter() {
        let w = template_type(t)?;
        if found.as_ref().is_some_and(|f| *f != w) {
            return None;
        }
        found = Some(w);
    }
    found
}

/// What one slot of a call shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotVerdict {
    /// The passed key is of a type the role names.
    Agrees,
    /// The role names key types, and the passed key is of another one.
    Differs,
    /// The role names no type, but the passed key is of the type another
    /// slot (0-based) declares: it belongs there.
    BelongsIn(usize),
    /// One side says nothing: no evidence either way.
    Unknown,
}

/// Each slot's verdict, given the passed types and the declared types of
/// every slot (both in slot order).
pub fn slot_verdicts(passed: &[Option<String>], declared: &[Vec<String>]) -> Vec<SlotVerdict> {
    let fits = |t: &str, j: usize| {
        declared
            .get(j)
            .is_some_and(|d| d.iter().any(|w| same_type(t, w)))
    };
    passed
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let Some(t) = t else {
                return SlotVerdict::Unknown;
            };
            match declared.get(i) {
                Some(d) if !d.is_empty() => {
                    if fits(t, i) {
                        SlotVerdict::Agrees
                    } else {
                        SlotVerdict::Differs
                    }
                }
                _ => (0..declared.len())
                    .find(|&j| j != i && fits(t, j))
                    .map_or(SlotVerdict::Unknown, SlotVerdict::BelongsIn),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(text: &str, source: RoleSource) -> SlotRole {
        SlotRole {
            text: text.into(),
            span: None,
            contract_span: None,
            source,
        }
    }

    fn types(ws: &[&str]) -> KeyTypes {
        KeyTypes(ws.iter().map(|w| w.to_string()).collect())
    }

    fn tpl(text: &str) -> Template {
        // `<x>` marks a hole.
        let mut segs = Vec::new();
        for (i, piece) in text.split(['<', '>']).enumerate() {
            let span = Span::default();
            if i % 2 == 0 {
                if !piece.is_empty() {
                    segs.push(Seg::Lit {
                        text: piece.into(),
                        span,
                    });
                }
            } else {
                segs.push(Seg::Hole {
                    label: piece.into(),
                    span,
                });
            }
        }
        Template {
            segs,
            span: Span::default(),
        }
    }

    #[test]
    fn words_normalize_across_conventions() {
        let w = |s: &str| words(s, CODE_WORDS);
        assert_eq!(w("stalled_check"), w("stalledCheckKey"));
        assert_eq!(w("'stalled-check'"), w("stalled_check"));
    }

    #[test]
    fn the_passed_type_is_the_templates_last_word_after_a_colon() {
        assert_eq!(
            template_type(&tpl("emq:{<q>}:job:<id>")),
            Some("job".into())
        );
        assert_eq!(template_type(&tpl("<base>:pc")), Some("pc".into()));
        assert_eq!(template_type(&tpl("bull:<q>:events")), Some("event".into()));
        assert_eq!(template_type(&tpl("dest")), None);
        assert_eq!(template_type(&tpl("<ns><qname>")), None);
        assert_eq!(template_type(&tpl("emq:{<q>}")), None);
    }

    #[test]
    fn only_unambiguous_roles_name_a_type() {
        let known = types(&["wait", "meta", "prioritized", "pc", "job"]);
        let header = |t: &str| known.declared(&role(t, RoleSource::Header), None);
        assert_eq!(header("'wait'"), vec!["wait"]);
        assert_eq!(header("'jobschedulers' (repeat)"), vec!["jobscheduler"]);
        assert_eq!(header("meta key"), vec!["meta"]);
        assert_eq!(header("prioritized key"), vec!["prioritized"]);
        assert_eq!(
            header("'pc' priority counter"),
            vec!["pc", "prioritycounter"]
        );
        // Free descriptions, patterns and type notes name nothing.
        assert!(header("producer key").is_empty());
        assert!(header("ns:qname     (sorted set key)").is_empty());
        assert!(header("(sorted set key)").is_empty());
        assert!(header("events stream key").is_empty());
        assert!(header("'event stream'").is_empty());
        let alias = |t: &str| known.declared(&role(t, RoleSource::Alias), None);
        assert_eq!(alias("waitKey"), vec!["wait"]);
        assert!(alias("key").is_empty());
        assert!(alias("queue_key").is_empty());
        assert!(alias("source_key").is_empty());
        assert!(alias("baseKey").is_empty());
    }

    #[test]
    fn verdicts_need_evidence_on_both_sides() {
        let s = |w: &str| Some(w.to_string());
        let d = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        // moveToActive: KEYS[1] 'wait', KEYS[2] 'active'; passed swapped.
        assert_eq!(
            slot_verdicts(&[s("active"), s("wait")], &[d(&["wait"]), d(&["active"])]),
            vec![SlotVerdict::Differs, SlotVerdict::Differs]
        );
        // A free description: silent, unless the key belongs elsewhere.
        assert_eq!(
            slot_verdicts(&[s("job"), s("wait")], &[d(&[]), d(&["wait"])]),
            vec![SlotVerdict::Unknown, SlotVerdict::Agrees]
        );
        assert_eq!(
            slot_verdicts(&[s("wait"), s("pc")], &[d(&[]), d(&["wait"])]),
            vec![SlotVerdict::BelongsIn(1), SlotVerdict::Differs]
        );
        // Nothing known of the passed key: silent.
        assert_eq!(
            slot_verdicts(&[None], &[d(&["wait"])]),
            vec![SlotVerdict::Unknown]
        );
        // Abbreviations name the same key.
        assert_eq!(
            slot_verdicts(&[s("pq")], &[d(&["priorityqueue"])]),
            vec![SlotVerdict::Agrees]
        );
    }
}
