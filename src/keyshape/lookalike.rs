//! Keys whose prefix only looks like the keyspace's: the namespace in
//! another case or in letters that render alike (`еmq:` with a Cyrillic
//! `е`, `émq:`), invisible characters inside it (`emq\u{200b}:`,
//! `em\u{ad}q:`, `\u{202e}emq:`), or the separator one edit away
//! (`emq-`, `emq;`, `emq.`, `emq_`, `emq::`, `emq{`).
//!
//! Evidence, not a guess: such a prefix is a divergence only when the rest
//! of the key, with the contract's prefix in its place, is a key of the
//! keyspace as it stands (hash tag, separator, a known type). A word that
//! merely starts like the namespace (`emq_jobs:…`) is left alone.
//!
//! Letters are compared by their UTS #39 skeleton (`unicode-security`,
//! which also drops default-ignorable code points) with combining marks
//! removed, so a prefix spelled in any script reads as the letters it
//! shows.

use unicode_normalization::char::is_combining_mark;

use super::{span_of, Atom, KeyVerdict};
use crate::contract::{edit_distance, Keyspace};

/// How many characters after the namespace a lookalike separator may take.
const MAX_SEP_EXTRA: usize = 2;

/// What `c` reads as: itself for ASCII, else its skeleton without
/// combining marks (empty for an invisible character).
fn reads_as(c: char) -> String {
    if c.is_ascii() {
        return c.to_string();
    }
    unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
        .filter(|d| !is_combining_mark(*d))
        .collect()
}

/// `text` with every character that reads as another (`е` for `e`) or as
/// nothing (a zero-width space) written as its escape (`\u{435}`), so a
/// message shows what differs.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_control() || (!c.is_ascii() && reads_as(c) != c.to_string()) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether the prefix `found` (as written in a key) only looks like the
/// keyspace's `prefix`: the same namespace in any case or script, with
/// invisible characters, or a separator one edit away. Such a prefix is a
/// slip of the keyboard or of a copy, with one right answer.
pub fn looks_like(found: &str, prefix: &str) -> bool {
    if found == prefix {
        return false;
    }
    let (ns, sep) = split_prefix(prefix);
    let clean: String = found.chars().map(reads_as).collect();
    let Some(head) = clean.get(..ns.len()) else {
        return false;
    };
    head.eq_ignore_ascii_case(ns) && edit_distance(&clean[ns.len()..], sep) <= 1
}

/// The prefix's namespace (`emq`) and its separator (`:`).
fn split_prefix(prefix: &str) -> (&str, &str) {
    let ns = prefix.trim_end_matches(|c: char| !c.is_alphanumeric());
    (ns, &prefix[ns.len()..])
}

/// A key whose prefix looks like the keyspace's without being it (see the
/// module docs): the verdict names the bytes written in its place.
/// `analyze` reads the key with the contract's prefix put back.
pub(super) fn lookalike_prefix(
    atoms: &[Atom],
    ks: &Keyspace,
    analyze: impl Fn(&[Atom]) -> KeyVerdict,
) -> Option<KeyVerdict> {
    let (ns, sep) = split_prefix(&ks.prefix);
    if ns.is_empty() || !ns.is_ascii() {
        return None;
    }
    let after_ns = namespace_end(atoms, ns)?;
    let sep_len = sep.chars().count();
    for len in 0..=sep_len + MAX_SEP_EXTRA {
        let end = after_ns + len;
        let Some(written) = atoms.get(after_ns..end) else {
            break;
        };
        let mut sep_read = String::new();
        for a in written {
            match a {
                Atom::Char(c, _) if !c.is_alphanumeric() && !matches!(c, '{' | '}') => {
                    sep_read.push_str(&reads_as(*c));
                }
                _ => return None,
            }
        }
        let found: String = atoms[..end]
            .iter()
            .filter_map(|a| match a {
                Atom::Char(c, _) => Some(*c),
                Atom::Hole(..) => None,
            })
            .collect();
        if found == ks.prefix || edit_distance(&sep_read, sep) > 1 {
            continue;
        }
        // A separator left out is evidence only before a hash tag: without
        // one, the queue's name would be glued to the namespace
        // (`bullmq:` is not `bull:` + `mq:`).
        if len == 0 && !ks.hash_tag {
            continue;
        }
        let mut repaired: Vec<Atom> = ks
            .prefix
            .chars()
            .map(|c| Atom::Char(c, atoms[0].span()))
            .collect();
        repaired.extend_from_slice(&atoms[end..]);
        if analyze(&repaired) == KeyVerdict::Fine {
            return Some(KeyVerdict::Prefix {
                found,
                span: span_of(atoms, 0, end.max(1)),
            });
        }
    }
    None
}

/// Where the namespace ends in `atoms` when they open with it, read as
/// letters in any case or script, invisible characters passed over: the
/// index of the first atom after it.
fn namespace_end(atoms: &[Atom], ns: &str) -> Option<usize> {
    let want: Vec<char> = ns.chars().collect();
    let mut got = 0;
    for (i, a) in atoms.iter().enumerate() {
        let Atom::Char(c, _) = a else {
            return None;
        };
        for d in reads_as(*c).chars() {
            if got == want.len() || !d.eq_ignore_ascii_case(&want[got]) {
                return None;
            }
            got += 1;
        }
        if got == want.len() {
            return Some(i + 1);
        }
        if i > want.len() * 4 {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::looks_like;
    use crate::contract::Contract;
    use crate::facts::{Seg, Span, Template};
    use crate::keyshape::{analyze, KeyVerdict};

    /// `prefix` as one literal, then `{`, a hole, and `}` + `tail`.
    fn key(prefix: &str, tail: &str) -> Template {
        let mut at = 0;
        let mut segs = Vec::new();
        for (text, hole) in [
            (format!("{prefix}{{"), false),
            ("q".into(), true),
            (format!("}}{tail}"), false),
        ] {
            let span = Span::new(0, at, at + text.len());
            at += text.len();
            segs.push(if hole {
                Seg::Hole { label: text, span }
            } else {
                Seg::Lit { text, span }
            });
        }
        Template {
            segs,
            span: Span::new(0, 0, at),
        }
    }

    fn verdict(prefix: &str, tail: &str) -> KeyVerdict {
        let c = Contract::embedded();
        analyze(&key(prefix, tail), c.keyspace.as_ref().unwrap())
    }

    #[test]
    fn a_separator_one_edit_away_is_a_prefix_divergence() {
        for sep in ["-", ";", ".", "_", "::", "", " :"] {
            let prefix = format!("emq{sep}");
            assert_eq!(
                verdict(&prefix, ":pending"),
                KeyVerdict::Prefix {
                    found: prefix.clone(),
                    span: Span::new(0, 0, prefix.len() as u32 as usize),
                },
                "{prefix:?}"
            );
        }
    }

    #[test]
    fn case_scripts_and_invisible_characters_read_as_the_letters_shown() {
        for prefix in [
            "EMQ:",
            "Emq-",
            "\u{435}mq:",
            "\u{e9}mq:",
            "emq\u{200b}:",
            "emq\u{a0}:",
            "em\u{ad}q:",
            "\u{202e}emq:",
        ] {
            match verdict(prefix, ":job:") {
                KeyVerdict::Prefix { found, span } => {
                    assert_eq!(found, prefix);
                    assert_eq!(span, Span::new(0, 0, prefix.len()), "{prefix:?}");
                }
                other => panic!("{prefix:?}: {other:?}"),
            }
            assert!(looks_like(prefix, "emq:"), "{prefix:?}");
        }
    }

    #[test]
    fn only_a_key_of_the_keyspace_behind_it_is_evidence() {
        // The rest is no key of ours: the word only starts like the prefix.
        assert_eq!(verdict("emq_jobs", ":pending"), KeyVerdict::Skip);
        assert_eq!(verdict("emq-", ":nosuchtype"), KeyVerdict::Skip);
        // Two edits away is another separator, not a slip.
        assert_eq!(verdict("emq--", ":pending"), KeyVerdict::Skip);
        // The canonical key and the other verdicts are unchanged.
        assert_eq!(verdict("emq:", ":pending"), KeyVerdict::Fine);
        assert!(matches!(
            verdict("emq:", ":pendng"),
            KeyVerdict::Type { .. }
        ));
        assert!(!looks_like("emq:", "emq:"));
        assert!(!looks_like("bull:", "emq:"));
        assert!(!looks_like("emq--", "emq:"));
    }
}
