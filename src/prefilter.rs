//! The prefilter: decides from a file's bytes, before any parse, whether the
//! file can be where a speaker of the protocol shows itself.
//!
//! A file *marks* its speaker when its bytes hold one of:
//!
//! - `redis` (any case) or `KEYS[`: Redis calls, embedded Lua
//!   (`looks_like_lua` needs `redis.call`, `redis.pcall` or `KEYS[`);
//! - `include_str!` or `File.read`: a script held in a `.lua` file;
//! - the contract prefix's namespace (`emq`, any case);
//! - a namespace followed by `:` that is a near miss of the prefix's
//!   (`emk:`, `eq:`), found by looking behind every `:`; the same rule as
//!   WL101's (`near` in `checks/keyshape.rs`);
//! - `:{` not preceded by `:` (a namespace then a hash tag, the shape WL101
//!   reads under a foreign prefix; Rust's `::{` is not it);
//! - `}` + separator + a type's lead, or a quote + separator + a type's lead
//!   (`}:job`, `":pending`): a key's tail in a literal of its own;
//! - for a `.lua` file, a stem that names a contract script.
//!
//! The analysis then reads every file of each marked speaker, and `.lua`
//! files that marked files reference (see `analyze.rs`). Resolution of
//! constants and key builders never leaves a speaker, so a speaker with no
//! marked file cannot build a key the checks read: its keys' leading bytes
//! come from its own literals, none of which holds the prefix, a near miss of
//! it or a hash-tag shape. That is the soundness argument; the differential
//! test (`tests/prefilter.rs`) checks it on every fixture and a generated
//! corpus. What it assumes: a namespace and its `:` are written in one
//! literal (not `"em" <> "q:"`, not escaped as `\x65mq:`).

use std::collections::BTreeSet;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::contract::{edit_distance, Contract};
use crate::facts::Lang;
use crate::link::normalize_name;

/// A prefilter built for one contract (or none).
pub struct Prefilter {
    needles: AhoCorasick,
    /// The prefix's namespace without trailing punctuation (`emq`).
    prefix_ns: Option<String>,
    /// Normalised names of the contract's scripts.
    script_names: BTreeSet<String>,
}

/// Longest word looked at behind a `:`.
const MAX_NS: usize = 64;

impl Prefilter {
    pub fn new(contract: Option<&Contract>) -> Prefilter {
        let mut needles: Vec<String> = vec![
            "redis".into(),
            "keys[".into(),
            "include_str!".into(),
            "file.read".into(),
        ];
        let mut prefix_ns = None;
        let mut script_names = BTreeSet::new();
        if let Some(c) = contract {
            if let Some(ks) = &c.keyspace {
                let ns = ks
                    .prefix
                    .trim_end_matches(|c: char| !c.is_alphanumeric())
                    .to_string();
                if !ns.is_empty() {
                    needles.push(ns.clone());
                    prefix_ns = Some(ns);
                }
                for t in &ks.types {
                    let lead = t.lead();
                    if lead.is_empty() {
                        continue;
                    }
                    for open in ["}", "\"", "'"] {
                        needles.push(format!("{open}{}{lead}", ks.separator));
                    }
                }
            }
            for s in &c.scripts {
                script_names.insert(normalize_name(&s.name));
            }
        }
        needles.sort();
        needles.dedup();
        let needles = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostFirst)
            .build(&needles)
            .expect("the needles are a few short literals");
        Prefilter {
            needles,
            prefix_ns,
            script_names,
        }
    }

    /// Whether a file marks its speaker (see the module docs). `stem` is the
    /// file name without its extension.
    pub fn marks(&self, lang: Lang, stem: &str, bytes: &[u8]) -> bool {
        if lang == Lang::Lua
            && self
                .script_names
                .contains(&normalize_name(&crate::extract::script_name_from_stem(
                    stem,
                )))
        {
            return true;
        }
        if self.needles.is_match(bytes) {
            return true;
        }
        self.colon_scan(bytes)
    }

    /// Looks behind and after every `:` for a near miss of the prefix's
    /// namespace, or a hash tag after a namespace.
    fn colon_scan(&self, bytes: &[u8]) -> bool {
        for i in memchr::memchr_iter(b':', bytes) {
            let before = if i > 0 { bytes[i - 1] } else { 0 };
            let after = bytes.get(i + 1).copied().unwrap_or(0);
            if before == b':' || after == b':' {
                continue;
            }
            if after == b'{' {
                return true;
            }
            let Some(ns) = &self.prefix_ns else {
                continue;
            };
            let mut start = i;
            while start > 0 && i - start <= MAX_NS && is_ns_byte(bytes[start - 1]) {
                start -= 1;
            }
            if start == i {
                continue;
            }
            if let Ok(word) = std::str::from_utf8(&bytes[start..i]) {
                if near(word, ns) {
                    return true;
                }
            }
        }
        false
    }
}

/// Bytes a namespace is made of (`keyshape::analyze` reads a namespace as
/// ASCII letters, digits, `_`, `-` and `.`).
fn is_ns_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// WL101's near miss (`checks/keyshape.rs`): within a third of the
/// prefix's length in edits, at least one. A word whose length differs by
/// more than that cannot be near, so long words cost nothing.
fn near(word: &str, prefix_ns: &str) -> bool {
    let limit = (prefix_ns.chars().count() / 3).max(1);
    if word.len().abs_diff(prefix_ns.len()) > limit {
        return false;
    }
    edit_distance(word, prefix_ns) <= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::keyshape::{analyze, KeyVerdict};
    use crate::facts::{Seg, Span, Template};

    fn pf() -> Prefilter {
        Prefilter::new(Some(&Contract::embedded()))
    }

    #[test]
    fn markers_are_found() {
        let p = pf();
        for text in [
            "use redis::AsyncCommands;",
            "local k = KEYS[1]",
            "const S: &str = include_str!(\"x.lua\");",
            "@s File.read!(\"priv/x.lua\")",
            "@prefix \"emq:\"",
            "pub const PREFIX: &str = \"EMQ\";",
            "x = \"emk:\" <> q",
            "x = \"bull:{\" <> q",
            "format!(\"{}{{{}}}:job:{}\", P, q, id)",
            "[p, q, \":pending\"]",
        ] {
            assert!(p.marks(Lang::Elixir, "x", text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn ordinary_code_is_not_marked() {
        let p = pf();
        for text in [
            "use std::collections::{HashMap, BTreeMap};",
            "fn f(x: u32) -> Option<String> { None }",
            "defmodule A do\n  def f(%{a: 1}), do: :ok\nend",
            "Logger.info(\"took #{ms}ms\")",
            "{:ok, state} = GenServer.call(pid, :pending)",
        ] {
            assert!(!p.marks(Lang::Rust, "x", text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn lua_files_named_for_a_contract_script_are_marked() {
        let p = pf();
        assert!(p.marks(Lang::Lua, "enqueue-2", b"return 1"));
        assert!(!p.marks(Lang::Lua, "init", b"return 1"));
    }

    /// Every namespace WL101 flags as a near miss is marked: all words of up
    /// to four letters over a small alphabet.
    #[test]
    fn agrees_with_wl101_near_misses() {
        let c = Contract::embedded();
        let ks = c.keyspace.as_ref().unwrap();
        let p = pf();
        let alphabet = ['e', 'm', 'q', 'k', 'x'];
        let mut words = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for w in &words {
                for a in alphabet {
                    next.push(format!("{w}{a}"));
                }
            }
            words.extend(next.clone());
            words.dedup();
        }
        for w in words.iter().filter(|w| !w.is_empty()) {
            let text = format!("{w}:x");
            let t = Template {
                segs: vec![Seg::Lit {
                    text: text.clone(),
                    span: Span::new(0, 0, text.len()),
                }],
                span: Span::new(0, 0, text.len()),
            };
            if matches!(analyze(&t, ks), KeyVerdict::Prefix { .. }) {
                assert!(
                    p.marks(Lang::Rust, "x", format!("\"{text}\"").as_bytes()),
                    "{w}"
                );
            }
        }
    }
}
