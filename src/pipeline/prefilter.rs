//! The prefilter: decides from a file's bytes, before any parse, whether the
//! file can hold the protocol; and, after a parse, which literals can.
//!
//! # What is parsed
//!
//! A file is parsed first when its bytes ([`Prefilter::scan`]):
//!
//! - may yield a protocol fact of its own: a Redis command, a script call,
//!   a field read after HGETALL, or a script. Its language says so
//!   (`Host::speaks`, `crate::extract::needles`): a quoted command
//!   name at the head of an Elixir list; a Rust file that names a client
//!   crate where code can (`redis::`, `use fred`, `extern crate redis`:
//!   `needles::names_client_crate`); `redis.call`, `redis.pcall` or
//!   `KEYS[` (Lua in a host string); a `.lua` path; in a `.lua` file,
//!   `redis.call`, `redis.pcall`, `KEYS` or `@include`;
//! - or may hold a key of the contract's keyspace ([`KeyMarkers`], with a
//!   contract that has one): the prefix's namespace (`emq`, any case), a
//!   near miss of it before a `:` (`emk:`, or letters that only look like
//!   it: `еmq:`, `em\u{ad}q:`; the rules of WL101,
//!   `keyshape::near_namespace`, `keyshape::looks_like`), a namespace then a hash tag (`bull:{`),
//!   a type's tail after a hash tag (`}:job`, or a literal opening with
//!   `:job`); not in `.lua` files, whose keys sit in Redis calls;
//! - or is a `.lua` file named for a contract script.
//!
//! Then `select.rs` parses, to a fixpoint: the files that may yield one
//! with a client library in scope through another module (`Marks::scoped`:
//! a Rust file that holds a client call and imports from its crate,
//! `super::` or `crate::`) once they name a module of their speaker that
//! has one in scope among the parsed files (`super::gate`); the `.lua` files parsed files
//! name (`include_str!`, `File.read!`, `@include`), identify by name or
//! SHA1 (the script of an EVAL, of a script call, or an argument of a
//! wrapper call), and, per speaker, every host file whose bytes hold, as a
//! whole identifier, a name the parsed files need or carry
//! (`super::names`): the names the values their Redis facts send look up,
//! the wrappers and what their calls pass, the definitions whose values
//! hold a key-marked literal ([`Prefilter::literal_marks`]) and those that
//! look one up, the names key-marked templates look up; then the names the
//! definitions of needed names look up.
//!
//! # Why this is sound
//!
//! The output is made of what the link step builds from Redis facts,
//! scripts and key templates; the rest of a file only feeds resolution.
//!
//! - Every file that can yield a Redis fact or a script is parsed: its
//!   language's needles are a superset of what its extractor reads.
//! - A Rust file's client facts count when a client crate is in its
//!   module scope (`link::scope`): a file that names one is parsed. Scope
//!   flows only from the files that bring a client
//!   (`link::scope::Tree::in_scope` starts there) to the files that import
//!   from a module that has one in scope (a module's own file, and the
//!   file that declares it, sit above or by the importing file), and a
//!   file can import from a module only by naming it or from below it
//!   (`super::gate`): a file marked `scoped` that does neither for any such
//!   module among the parsed files yields nothing.
//! - A `.lua` file left out is no Redis script (`Script::is_redis`: it
//!   calls no Redis, reads no `KEYS`, is no contract script), nothing names
//!   it by path, name or SHA1, and it includes nothing; the rules, the
//!   views and the speakers that take part (`active_speakers`) read only
//!   Redis scripts and scripts that are run.
//! - A key template matters only when its verdict against the keyspace is
//!   not `Skip`; its leading bytes then hold the prefix, a near miss of it
//!   or our shape, so one of the literals it resolves to is key-marked.
//!   That literal's file is parsed, its definition is a carrier, and every
//!   file that holds the name of a carrier (a template or a definition that
//!   looks it up) is parsed, up the chain to the template.
//! - The link step resolves a constant or a function by its speaker and
//!   its last name (`link::Resolver::pick`, `link::calls::targets`): from
//!   the referencing module, the module a qualifier names (its last
//!   segment), the referencing file, a module imported from, and, when
//!   one module defines the name, that one. Every definition of a name
//!   holds that name in its file's bytes, and a module's definitions hold
//!   its last segment as an identifier (a declared module, a type) or in
//!   their path (a module named by its file): so a needed name has parsed
//!   every definition a reference may pick by those words
//!   (`super::names::Within`), and every file that defines it is counted.
//!   A name with definitions left unparsed and more than one file that
//!   defines it is handed to the link (`link::Definers`), which then picks
//!   no lone definition for it, whether the others were parsed or not
//!   (`--no-prefilter` parses them). A value that
//!   reaches a finding resolves as it would with every file parsed, and
//!   every call of a wrapper is seen. A field a projection reads (`.f`:
//!   `job.queue`) is answered by the fields types' constructors set, never
//!   by a function or a constant named `f`, and every place one is set
//!   holds the name where its language sets fields
//!   (`extract::needles::sets_field_at`).
//!
//! A file left out yields nothing that reaches the output: its templates
//! read as `Skip`, its definitions are looked up by nothing that does.
//! Syntax errors (WL001) are reported only in the files this selection
//! parses, with the prefilter on or off. The differential test
//! (`tests/prefilter.rs`) checks all of this on every fixture, neighbours
//! full of near misses, and the real corpus when `WIRELINT_CORPUS` is set.
//!
//! What it assumes, in literals: a key's namespace and its `:` are written
//! in one literal (not `"em" <> "q:"`, not escaped as `\x65mq:`); so are a
//! `:` and the `{` after it, and `}`, the separator and a type's first
//! letters; a hash tag is never written empty (`{}`) or as a name in braces
//! in a Rust string (`"bull:{name}:"`, which `format!` reads as a
//! placeholder) with the type from elsewhere; a command name is written
//! whole between quotes.

use std::collections::BTreeSet;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use crate::contract::Contract;
use crate::extract::lang::LuaIn;
use crate::facts::Lang;
use crate::keyshape::{is_namespace_char, looks_like, near_namespace};
use crate::link::normalize_name;

/// What the prefilter found in one file's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// It may yield a protocol fact of its own, or is a `.lua` file named
    /// for a contract script.
    pub speaks: bool,
    /// It may yield one when another file of its speaker brings its client
    /// library into scope (`Host::speaks_in_scope`): parsed only
    /// then (`super::select`).
    pub scoped: bool,
    /// It may hold a key of the contract's keyspace.
    pub keys: bool,
    /// It holds an inline suppression's mark (`wirelint:`); looked for only
    /// in the files that are parsed, where suppressions are read.
    pub suppress: bool,
}

impl Marks {
    /// Whether the file is parsed before the name pass.
    pub fn parse(self) -> bool {
        self.speaks || self.keys
    }
}

/// A prefilter built for one contract (or none).
pub struct Prefilter {
    keys: Vec<KeyMarkers>,
    /// The keyspaces' markers looked for in one pass over a file.
    scan: FileScan,
    /// Normalised names of the contract's scripts.
    script_names: BTreeSet<String>,
    /// What the marks depend on, as text (the facts cache keys its index
    /// by it).
    fingerprint: String,
}

/// What a literal of a key of the keyspace holds (see the module docs).
struct KeyMarkers {
    /// The prefix's namespace and, with a hash tag, the types' tails.
    needles: AhoCorasick,
    /// The tails a literal may open with (`:job`), with a hash tag.
    openings: Vec<String>,
    /// The prefix's namespace without trailing punctuation (`emq`).
    prefix_ns: String,
    hash_tag: bool,
    /// Whether a namespace near the prefix's marks a file (`near_miss_at`).
    near_misses: bool,
    /// What the marks depend on, as text.
    fingerprint: String,
}

/// Every keyspace's markers, searched for in a file in one pass each (a
/// file is key-marked when any keyspace marks it): the namespaces in one
/// automaton; a type's tail (`:job`) after a quote or a hash tag's `}` in
/// one walk over those bytes; the near misses and hash tags at one walk
/// over its `:`.
struct FileScan {
    /// One automaton per namespace: with several, a case-blind search
    /// has no rare bytes to skip ahead with, and steps through every byte.
    names: Vec<AhoCorasick>,
    openings: Vec<String>,
    /// The bytes an opening starts with.
    opens_with: [bool; 256],
    /// The keyspaces whose prefix's near misses mark a file.
    near: Vec<usize>,
    hash_tag: bool,
}

/// Longest word looked at behind a `:`.
const MAX_NS: usize = 64;

/// Needle bytes past which an automaton is a contiguous NFA, not a DFA.
const DFA_BYTES: usize = 1024;

/// The automaton for needles of `len` bytes in all ([`DFA_BYTES`]): the
/// library's choice (a DFA for a few needles: the fastest scan) while they
/// are short; past it a contiguous NFA, whose build is linear in the
/// needles. A DFA's build follows the failure links from every state for
/// every byte class: a 20 KB prefix of `a:` repeated took 40 s.
pub(crate) fn automaton_kind(len: usize) -> Option<AhoCorasickKind> {
    (len > DFA_BYTES).then_some(AhoCorasickKind::ContiguousNFA)
}

impl Prefilter {
    pub fn new(contract: Option<&Contract>) -> Prefilter {
        let mut fingerprint = String::new();
        // (keyspace, whether a near miss of its prefix marks a file: only
        // the contract's own, whose moved prefix is a finding)
        let mut keyspaces: Vec<(crate::contract::Keyspace, bool)> = contract
            .and_then(|c| c.keyspace.clone())
            .map(|ks| (ks, true))
            .into_iter()
            .collect();
        // The embedded default, unnamed, gives way to a shipped family whose
        // keys the tree holds (`analyze::family_of`): their keys are marked
        // too, as written: a family is recognised by its keys, never by a
        // near miss of its prefix.
        if contract.is_some_and(|c| c.embedded && !c.chosen) {
            keyspaces.extend(
                crate::contract::shipped::family_keyspaces()
                    .iter()
                    .map(|(_, ks)| (ks.clone(), false)),
            );
        }
        let keys: Vec<KeyMarkers> = keyspaces
            .iter()
            .filter_map(|(ks, near_misses)| {
                let m = KeyMarkers::new(ks, *near_misses)?;
                fingerprint.push_str(&m.fingerprint);
                fingerprint.push('\0');
                Some(m)
            })
            .collect();
        let scan = FileScan::new(&keys);
        let script_names = contract
            .map(|c| c.scripts.iter().map(|s| normalize_name(&s.name)).collect())
            .unwrap_or_default();
        let fingerprint = format!("{fingerprint}\0{script_names:?}");
        Prefilter {
            keys,
            scan,
            script_names,
            fingerprint,
        }
    }

    /// What its marks depend on, as text.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// What a file's bytes hold (see the module docs). `stem` is the file
    /// name without its extension.
    pub fn scan(&self, lang: Lang, stem: &str, bytes: &[u8]) -> Marks {
        let host = lang.host();
        if host.lua() == LuaIn::File {
            let named = self.script_names.contains(&normalize_name(
                &crate::extract::script_name_from_stem(stem),
            ));
            return Marks {
                speaks: named || host.speaks(bytes),
                ..Marks::default()
            };
        }
        let speaks = host.speaks(bytes);
        Marks {
            speaks,
            scoped: !speaks && host.speaks_in_scope(bytes),
            keys: self.in_file(bytes, host.format_braces()),
            suppress: false,
        }
    }

    /// Whether a file's bytes may hold a key of a keyspace: what
    /// [`KeyMarkers::in_file`] of any of them says, in one pass per marker.
    fn in_file(&self, bytes: &[u8], format_braces: bool) -> bool {
        let s = &self.scan;
        if s.names.iter().any(|n| n.is_match(bytes)) || s.tail_in_file(bytes) {
            return true;
        }
        if s.near.is_empty() && !s.hash_tag {
            return false;
        }
        memchr::memchr_iter(b':', bytes).any(|i| {
            s.near.iter().any(|&k| self.keys[k].near_miss_at(bytes, i))
                || (s.hash_tag && hash_tag_in_file(bytes, i, format_braces))
        })
    }

    /// Whether one literal's text (as the runtime sends it) may be part of
    /// a key of the keyspace that does not read as `Skip`: a superset of
    /// what [`Prefilter::scan`] looks for in a file's bytes.
    pub fn literal_marks(&self, text: &str) -> bool {
        self.keys.iter().any(|k| k.in_literal(text))
    }
}

impl KeyMarkers {
    /// The markers of a keyspace with a queue key's prefix; `None` without
    /// one (a keyspace of whole templates only reports no key).
    fn new(ks: &crate::contract::Keyspace, near_misses: bool) -> Option<KeyMarkers> {
        let ns = ks
            .prefix
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_string();
        if ns.is_empty() {
            return None;
        }
        let mut needles = vec![ns.clone()];
        let mut openings = Vec::new();
        if ks.hash_tag {
            for t in ks.types.iter().map(|t| t.lead()).filter(|l| !l.is_empty()) {
                needles.push(format!("}}{}{t}", ks.separator));
                openings.push(format!("{}{t}", ks.separator).to_ascii_lowercase());
            }
        }
        needles.sort();
        needles.dedup();
        let fingerprint = format!(
            "{ns}\0{needles:?}\0{openings:?}\0{}\0{near_misses}",
            ks.hash_tag
        );
        Some(KeyMarkers {
            needles: AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .kind(automaton_kind(needles.iter().map(String::len).sum()))
                .build(&needles)
                .expect("the needles are a few short literals"),
            openings,
            prefix_ns: ns,
            hash_tag: ks.hash_tag,
            near_misses,
            fingerprint,
        })
    }

    /// Whether a file's bytes may hold a key of this keyspace (the test
    /// [`Prefilter::in_file`] makes for every keyspace at once).
    #[cfg(test)]
    fn in_file(&self, bytes: &[u8], format_braces: bool) -> bool {
        if self.needles.is_match(bytes) || opening_in_file(&self.openings, bytes) {
            return true;
        }
        memchr::memchr_iter(b':', bytes).any(|i| {
            (self.near_misses && self.near_miss_at(bytes, i))
                || (self.hash_tag && hash_tag_in_file(bytes, i, format_braces))
        })
    }

    fn in_literal(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        if self.needles.is_match(bytes) {
            return true;
        }
        let opens = self
            .openings
            .iter()
            .any(|o| bytes.len() >= o.len() && bytes[..o.len()].eq_ignore_ascii_case(o.as_bytes()));
        opens
            || memchr::memchr_iter(b':', bytes).any(|i| {
                (self.near_misses && self.near_miss_at(bytes, i))
                    || (self.hash_tag
                        && bytes.get(i + 1) == Some(&b'{')
                        && (i == 0 || is_ns_byte(bytes[i - 1])))
            })
    }

    /// A namespace that is a near miss of the prefix's right before the `:`
    /// at `i` (not a `::`).
    fn near_miss_at(&self, bytes: &[u8], i: usize) -> bool {
        let before = if i > 0 { bytes[i - 1] } else { 0 };
        if before == b':' || bytes.get(i + 1) == Some(&b':') {
            return false;
        }
        let mut start = i;
        let mut ascii = true;
        while start > 0 && i - start <= MAX_NS && is_word_byte(bytes[start - 1]) {
            start -= 1;
            ascii &= bytes[start].is_ascii();
        }
        if start == i {
            return false;
        }
        let Ok(word) = std::str::from_utf8(&bytes[start..i]) else {
            return false;
        };
        if ascii {
            return near_namespace(word, &self.prefix_ns);
        }
        // Letters of another script, or invisible ones, that may read as
        // the namespace (the rule of WL101, `keyshape::looks_like`): any
        // suffix of the word may be the key's start.
        let prefix = format!("{}:", self.prefix_ns);
        word.char_indices().any(|(at, _)| {
            let w = &word[at..];
            near_namespace(w, &self.prefix_ns) || looks_like(&format!("{w}:"), &prefix)
        })
    }
}

impl FileScan {
    fn new(keys: &[KeyMarkers]) -> FileScan {
        let mut names: Vec<&String> = keys.iter().map(|k| &k.prefix_ns).collect();
        names.sort();
        names.dedup();
        let names = names
            .into_iter()
            .map(|n| {
                AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .kind(automaton_kind(n.len()))
                    .build([n])
                    .expect("a namespace is a short literal")
            })
            .collect();
        let mut openings: Vec<String> = keys.iter().flat_map(|k| k.openings.clone()).collect();
        openings.sort();
        openings.dedup();
        let mut opens_with = [false; 256];
        for o in &openings {
            if let Some(&b) = o.as_bytes().first() {
                opens_with[usize::from(b.to_ascii_lowercase())] = true;
                opens_with[usize::from(b.to_ascii_uppercase())] = true;
            }
        }
        FileScan {
            names,
            openings,
            opens_with,
            near: (0..keys.len()).filter(|&k| keys[k].near_misses).collect(),
            hash_tag: keys.iter().any(|k| k.hash_tag),
        }
    }

    /// A type's tail right after a quote (a literal opening with it) or a
    /// `}` (a hash tag closed before it): `":job`, `}:job`.
    fn tail_in_file(&self, bytes: &[u8]) -> bool {
        if self.openings.is_empty() {
            return false;
        }
        memchr::memchr3_iter(b'"', b'\'', b'}', bytes).any(|q| {
            let rest = &bytes[q + 1..];
            rest.first()
                .is_some_and(|&b| self.opens_with[usize::from(b)])
                && self.openings.iter().any(|o| {
                    rest.len() >= o.len() && rest[..o.len()].eq_ignore_ascii_case(o.as_bytes())
                })
        })
    }
}

/// A literal opening with a type's tail: a quote, then `:job`.
#[cfg(test)]
fn opening_in_file(openings: &[String], bytes: &[u8]) -> bool {
    memchr::memchr2_iter(b'"', b'\'', bytes).any(|q| {
        let rest = &bytes[q + 1..];
        openings
            .iter()
            .any(|o| rest.len() >= o.len() && rest[..o.len()].eq_ignore_ascii_case(o.as_bytes()))
    })
}

/// A namespace then a hash tag at the `:` at `i`, in a file's bytes: the
/// `:` follows a namespace byte, a quote that opens a literal, or (in a
/// format string) a placeholder's `}`; the `{` is no placeholder and no
/// empty pair (`{}`, `{:?}`, and with `format_braces` `{name}` and
/// `{name:..}`).
fn hash_tag_in_file(bytes: &[u8], i: usize, format_braces: bool) -> bool {
    if bytes.get(i + 1) != Some(&b'{') {
        return false;
    }
    let after = &bytes[i + 2..];
    match after.first() {
        None | Some(b'}') | Some(b':') => return false,
        _ => {}
    }
    if format_braces {
        let name = after
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if name > 0 && matches!(after.get(name), Some(b'}') | Some(b':')) {
            return false;
        }
    }
    let Some(&before) = i.checked_sub(1).map(|j| &bytes[j]) else {
        return false;
    };
    match before {
        b'"' | b'\'' => {
            // An opening quote: not after a word or a backslash (`"a":{`,
            // `\":{` close a JSON key).
            let prev = i.checked_sub(2).map(|j| bytes[j]);
            !prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == b'_' || p == b'\\' || p == b'"')
        }
        b'}' => true,
        b => is_ns_byte(b),
    }
}

/// Bytes a namespace is made of (as `keyshape::analyze` reads one).
fn is_ns_byte(b: u8) -> bool {
    b.is_ascii() && is_namespace_char(char::from(b))
}

/// Bytes a namespace may be written with, lookalikes included: its own, and
/// any byte of a character beyond ASCII.
fn is_word_byte(b: u8) -> bool {
    !b.is_ascii() || is_ns_byte(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{Seg, Span, Template};
    use crate::keyshape::{analyze, KeyVerdict};

    fn pf() -> Prefilter {
        Prefilter::new(Some(&Contract::embedded()))
    }

    #[test]
    fn key_markers_are_found() {
        let p = pf();
        for text in [
            "@prefix \"emq:\"",
            "pub const PREFIX: &str = \"EMQ\";",
            "x = \"emk:\" <> q",
            "x = \"bull:{\" <> q",
            "x = \"#{ns}:{#{q}}\"",
            "format!(\"{}:{{{}}}:{}\", P, q, T)",
            "format!(\"{}{{{}}}:job:{}\", P, q, id)",
            "[p, q, \":pending\"]",
            "local k = 'bull:{' .. q",
            "x = @ns <> \":{\" <> q",
        ] {
            assert!(p.scan(Lang::Elixir, "x", text.as_bytes()).keys, "{text}");
        }
    }

    #[test]
    fn ordinary_code_holds_no_key_marker() {
        let p = pf();
        for (lang, text) in [
            (Lang::Rust, "use std::collections::{HashMap, BTreeMap};"),
            (Lang::Rust, "format!(\"{}:{}\", host, port)"),
            (Lang::Rust, "format!(\"http://localhost:{port}/{}\", x)"),
            (Lang::Rust, "write!(f, \"{header}Status:{header:#} {n}\")"),
            (Lang::Rust, "println!(\"{x}:{:?}\", y)"),
            (
                Lang::Elixir,
                "defmodule A do\n  def f(%{a: 1}), do: :ok\nend",
            ),
            (Lang::Elixir, "Logger.info(\"took #{ms}ms\")"),
            (Lang::Elixir, "{:ok, state} = GenServer.call(pid, :pending)"),
            (Lang::Elixir, "~s({\"a\":{\"b\":1}})"),
            (Lang::Elixir, "quote do: {:{}, [], []}"),
        ] {
            assert!(!p.scan(lang, "x", text.as_bytes()).keys, "{text}");
        }
    }

    /// One pass for every keyspace marks what a pass per keyspace marks.
    #[test]
    fn one_pass_marks_what_each_keyspace_marks() {
        let p = pf();
        assert!(p.keys.len() > 1, "the families' keyspaces are marked too");
        for text in [
            "x = \"bull:{\" <> q",
            "key = 'rsmq:' .. q",
            "\"asynq:{\" + qname + \"}:pending\"",
            "\"queue:\" <> name",
            "x = \"emk:\" <> q",
            "[p, q, \":pending\"]",
            "format!(\"{}:{}\", host, port)",
            "render(assigns, full: true, pull: 1)",
            "x = \"\u{0435}mq:{\" <> q",
            "",
        ] {
            for braces in [false, true] {
                let b = text.as_bytes();
                let each = p.keys.iter().any(|k| k.in_file(b, braces));
                assert_eq!(p.in_file(b, braces), each, "{text}");
            }
        }
    }

    #[test]
    fn a_family_is_marked_by_its_keys_never_by_a_near_miss_of_its_prefix() {
        let p = pf();
        for text in ["x = \"bull:\" <> q", "key = 'rsmq:' .. q"] {
            assert!(p.scan(Lang::Elixir, "x", text.as_bytes()).keys, "{text}");
        }
        for text in [
            "render(assigns, full: true, pull: 1)",
            "%{null: nil, dull: 2}",
            "opts = [async: true, rsvp: 1]",
        ] {
            assert!(!p.scan(Lang::Elixir, "x", text.as_bytes()).keys, "{text}");
        }
    }

    #[test]
    fn literals_are_marked_as_keyshape_reads_them() {
        let p = pf();
        for yes in [
            "emq:",
            "EMQ",
            "emk:",
            ":{",
            "}:job:",
            ":pending",
            "bull:{q}:job",
        ] {
            assert!(p.literal_marks(yes), "{yes}");
        }
        for no in ["session:", "::{", "http://x:80", "job", "{}:{}"] {
            assert!(!p.literal_marks(no), "{no}");
        }
        assert!(!Prefilter::new(None).literal_marks("emq:"));
    }

    #[test]
    fn lua_files_speak_by_name_or_by_redis() {
        let p = pf();
        assert!(p.scan(Lang::Lua, "enqueue-2", b"return 1").speaks);
        assert!(
            p.scan(Lang::Lua, "init", b"return redis.call('GET', KEYS[1])")
                .speaks
        );
        let m = p.scan(Lang::Lua, "init", b"local emq = 'emq:{x}:job'\nreturn 1");
        assert!(!m.parse(), "{m:?}");
    }

    /// Every namespace WL101 flags as a near miss is marked, in a file and
    /// in a literal: all words of up to four letters over a small alphabet.
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
                let file = format!("\"{text}\"");
                assert!(p.scan(Lang::Rust, "x", file.as_bytes()).keys, "{w}");
                assert!(p.literal_marks(&text), "{w}");
            }
        }
    }
}
