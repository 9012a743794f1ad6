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
//!   WL101's (`keyshape::near_namespace`);
//! - `:{` not preceded by `:` (a namespace then a hash tag, the shape WL101
//!   reads under a foreign prefix; Rust's `::{` is not it);
//! - `}` + separator + a type's lead, or a quote + separator + a type's lead
//!   (`}:job`, `":pending`): a key's tail in a literal of its own;
//! - for a `.lua` file, a stem that names a contract script.
//!
//! A file may yield a Redis fact of its own (a command, a script call, a
//! field read after HGETALL) only if it holds a *fact needle*
//! ([`Prefilter::fact_marks`]): a quoted command name (`"HSET"`, `'GET'`,
//! what Elixir command lists and `cmd("X")` start with), a typed command
//! method (`.hset`; the generic `.get`, `.set`, … only in a file that holds a
//! receiver word the Rust extractor requires), `cmd`, `.key`, `.invoke`,
//! `.eval`. Field reads need their HGETALL in the same file.
//!
//! `select.rs` then parses, in each marked speaker: the files that mark it,
//! its `.lua` files, the files with a fact needle, the script files and
//! `@include`s parsed files name (whose speakers they mark), and, to a
//! fixpoint, every file whose bytes hold, as a whole identifier
//! ([`Names`]), a name of [`speaker_needles`]:
//!
//! - *needed* names: the last segment of every constant or call looked up
//!   by a value a Redis fact sends (command arguments, script calls, field
//!   reads), by a call of a wrapper (a function that runs a script, or calls
//!   a wrapper) and its arguments, by a template of a marked file or one
//!   that uses a carrier; then the names the definitions of needed names
//!   look up;
//! - *carriers*: the constants and string-returning functions of marked
//!   files, the wrappers, and the definitions that look up a carrier.
//!
//! A `.lua` file anywhere whose stem a call may identify a script by
//! (`link::calls::identify`) marks its speaker.
//!
//! Why this is sound. The link step resolves a constant or a function by
//! its speaker and its last name only (`link::Resolver::pick`,
//! `link::calls::targets`), and every definition of a name holds that name
//! in its file's bytes; so each needed name has all its definitions parsed,
//! and every value that can reach a finding resolves exactly as it would
//! with every file parsed. A file left out defines no needed name or
//! carrier and uses none, marks nothing and yields no Redis fact: its own
//! templates, and the values of its definitions, are built from literals
//! that hold no marker and from definitions of the same kind, so the keys
//! they make read as `Skip` to the key rules, are never sent (WL104 and the
//! records read only commands and script calls), and take no speaker into
//! `active_speakers`. Syntax errors (WL001) are reported only in the files
//! this selection parses, with the prefilter on or off.
//!
//! A speaker with no marked file is not read at all: resolution never leaves
//! a speaker, so its keys' leading bytes come from its own literals, none of
//! which holds the prefix, a near miss of it or a hash-tag shape. The
//! differential test (`tests/prefilter.rs`) checks all of this on every
//! fixture and a generated corpus. What it assumes: a namespace and its `:`
//! are written in one literal (not `"em" <> "q:"`, not escaped as
//! `\x65mq:`).

use std::collections::{BTreeSet, HashMap, HashSet};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::contract::Contract;
use crate::extract::lang::LuaIn;
use crate::facts::{FileFacts, Lang, ScriptSource, Seg, Template, Value};
use crate::keyshape::{is_namespace_char, near_namespace};
use crate::link::normalize_name;

/// A prefilter built for one contract (or none).
pub struct Prefilter {
    needles: AhoCorasick,
    /// What a file that yields a Redis fact (a command, a script call, a
    /// field read after HGETALL) necessarily holds: see [`Prefilter::fact_marks`].
    fact_needles: AhoCorasick,
    /// Per language, needles that count only together with a guard (Rust
    /// methods that are commands only on some receivers).
    guarded: Vec<(Lang, AhoCorasick, AhoCorasick)>,
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
        let build = |words: &[String]| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .build(words)
                .expect("the needles are short literals")
        };
        // Every language's needles, in every file: a superset.
        let mut facts: Vec<String> = Vec::new();
        let mut guarded = Vec::new();
        for host in crate::extract::lang::HOSTS {
            let n = host.fact_needles();
            facts.extend(n.any);
            if !n.guarded.is_empty() {
                guarded.push((host.lang(), build(&n.guarded), build(&n.guards)));
            }
        }
        Prefilter {
            fact_needles: build(&facts),
            guarded,
            needles,
            prefix_ns,
            script_names,
        }
    }

    /// Whether a file marks its speaker (see the module docs). `stem` is the
    /// file name without its extension.
    pub fn marks(&self, lang: Lang, stem: &str, bytes: &[u8]) -> bool {
        if lang.host().lua() == LuaIn::File
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

    /// Whether a file may yield a Redis fact of its own: a command list
    /// whose head is a command name (`["HSET", ..]`, `'GET'`, `cmd("X")`), a
    /// typed command method (`.hset(..)`; `.get(..)` and the other generic
    /// ones only in a file that names a Redis-like receiver), a script
    /// invocation (`.key(..)`, `.invoke(..)`, fred's `.eval*`). Field reads
    /// after HGETALL need the HGETALL in the same file. Case-blind, and a
    /// superset: `"get"` in an HTTP list counts.
    pub fn fact_marks(&self, lang: Lang, bytes: &[u8]) -> bool {
        if self.fact_needles.is_match(bytes) {
            return true;
        }
        self.guarded.iter().any(|(l, needles, guards)| {
            *l == lang && needles.is_match(bytes) && guards.is_match(bytes)
        })
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
                if near_namespace(word, ns) {
                    return true;
                }
            }
        }
        false
    }
}

/// Names searched for as whole identifiers: a byte before and after a hit
/// must not be `[A-Za-z0-9_]`.
pub struct Names {
    ac: Option<AhoCorasick>,
}

impl Names {
    /// `names` as [`needle_of`] gives them.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a String>) -> Names {
        let names: Vec<&String> = names.into_iter().collect();
        if names.is_empty() {
            return Names { ac: None };
        }
        let ac = AhoCorasickBuilder::new()
            .match_kind(MatchKind::Standard)
            .build(names)
            .expect("names are short literals");
        Names { ac: Some(ac) }
    }

    /// Whether `bytes` hold one of the names as a whole identifier.
    pub fn hit(&self, bytes: &[u8]) -> bool {
        let Some(ac) = &self.ac else {
            return false;
        };
        ac.find_overlapping_iter(bytes).any(|m| {
            let before = m.start().checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(m.end()).copied();
            !before.is_some_and(is_ident_byte) && !after.is_some_and(is_ident_byte)
        })
    }
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
        Value::Str(t) => walk_template(t, depth + 1, f),
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

fn walk_template(t: &Template, depth: usize, f: &mut impl FnMut(&Value)) {
    for s in &t.segs {
        if let Seg::Value(v) = s {
            walk(v, depth, f);
        }
    }
}

/// The names (as [`needle_of`] gives them) that resolving `v` looks up.
fn refs_of(v: &Value, out: &mut BTreeSet<String>) {
    walk(v, 0, &mut |v| {
        if let Value::Const { path, .. } | Value::Call { path, .. } = v {
            if let Some(n) = path.last().and_then(|n| needle_of(n)) {
                out.insert(n);
            }
        }
    });
}

fn template_refs(t: &Template) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in &t.segs {
        if let Seg::Value(v) = s {
            refs_of(v, &mut out);
        }
    }
    out
}

fn is_eval(name: &str) -> bool {
    matches!(name, "EVAL" | "EVALSHA" | "EVAL_RO" | "EVALSHA_RO")
}

/// A call of the code base, as the name pass sees it.
struct CallNames {
    /// The callee's last segment, as written (wrappers are matched on it).
    callee: String,
    /// The names its arguments look up.
    refs: BTreeSet<String>,
    /// The enclosing function's name.
    within: Option<String>,
}

/// A definition, as the name pass sees it.
struct DefNames {
    needle: String,
    /// A constant, or a function that returns a string-like value.
    keyish: bool,
    /// The names its value looks up.
    refs: BTreeSet<String>,
}

/// What one parsed file gives the name pass (see the module docs).
pub struct FileNames {
    /// The file marks its speaker: its literals may hold the protocol.
    marks: bool,
    /// Names the values its Redis facts send look up (command arguments,
    /// script calls, field reads): always resolved in full.
    seeds: BTreeSet<String>,
    calls: Vec<CallNames>,
    /// Per key-like template, the names it looks up.
    templates: Vec<BTreeSet<String>>,
    defs: Vec<DefNames>,
    /// Functions that run a script in their body (wrappers start there).
    runners: BTreeSet<String>,
}

impl FileNames {
    pub fn of(facts: &FileFacts, marks: bool) -> FileNames {
        let mut seeds = BTreeSet::new();
        let lua_commands = facts.scripts.iter().flat_map(|s| match &s.source {
            ScriptSource::Inline(lua) => lua.commands.as_slice(),
            ScriptSource::File { .. } => &[],
        });
        for c in facts.commands.iter().chain(lua_commands) {
            for v in c.args.iter().chain(&c.tail) {
                refs_of(v, &mut seeds);
            }
        }
        for c in &facts.script_calls {
            let vals = std::iter::once(&c.script)
                .chain(&c.numkeys)
                .chain(&c.keys)
                .chain(&c.args)
                .chain(&c.keys_from);
            for v in vals {
                refs_of(v, &mut seeds);
            }
        }
        for r in &facts.field_reads {
            refs_of(&r.key, &mut seeds);
            refs_of(&r.field, &mut seeds);
        }
        let fn_name = |f: Option<usize>| {
            f.and_then(|f| facts.functions.get(f))
                .map(|d| d.name.clone())
        };
        let calls = facts
            .calls
            .iter()
            .filter_map(|c| {
                let mut refs = BTreeSet::new();
                for v in &c.args {
                    refs_of(v, &mut refs);
                }
                Some(CallNames {
                    callee: c.path.last()?.clone(),
                    refs,
                    within: fn_name(c.func),
                })
            })
            .collect();
        let templates = facts.templates.iter().map(template_refs).collect();
        let mut defs = Vec::new();
        for c in &facts.consts {
            if let Some(needle) = needle_of(&c.name) {
                let mut refs = BTreeSet::new();
                refs_of(&c.value, &mut refs);
                defs.push(DefNames {
                    needle,
                    keyish: true,
                    refs,
                });
            }
        }
        for d in &facts.functions {
            if let Some(needle) = needle_of(&d.name) {
                let mut refs = BTreeSet::new();
                refs_of(&d.returns, &mut refs);
                defs.push(DefNames {
                    needle,
                    keyish: !matches!(d.returns, Value::Unknown { .. }),
                    refs,
                });
            }
        }
        let mut runners = BTreeSet::new();
        let evals = facts
            .commands
            .iter()
            .filter(|c| is_eval(&c.name))
            .map(|c| c.func);
        for f in evals.chain(facts.script_calls.iter().map(|c| c.func)) {
            if let Some(n) = fn_name(f) {
                runners.insert(n);
            }
        }
        FileNames {
            marks,
            seeds,
            calls,
            templates,
            defs,
            runners,
        }
    }
}

/// The names whose files one speaker's parsed files need, as whole
/// identifiers (see the module docs): every name a value that may carry the
/// protocol looks up, followed through the definitions it reaches, and every
/// name of a definition that may carry the protocol.
pub fn speaker_needles(files: &[&FileNames]) -> BTreeSet<String> {
    // Each closure below is a graph search over an index built once, not a
    // loop over every definition until nothing changes: a chain of N
    // builders, each naming the one before (self-similar names), made that
    // N passes over N definitions, comparing long names each time.
    // Wrappers: functions that run a script, or call a wrapper.
    let mut callers: HashMap<&str, Vec<&str>> = HashMap::new();
    for c in files.iter().flat_map(|f| &f.calls) {
        if let Some(w) = &c.within {
            callers
                .entry(c.callee.as_str())
                .or_default()
                .push(w.as_str());
        }
    }
    let runners = files
        .iter()
        .flat_map(|f| f.runners.iter().map(String::as_str));
    let wrappers = closure(runners, |w| callers.get(w).into_iter().flatten().copied());
    // Definitions that may carry the protocol: those of a marked file, the
    // wrappers, and those that use one of them.
    let mut users: HashMap<&str, Vec<&str>> = HashMap::new();
    for d in files.iter().flat_map(|f| &f.defs).filter(|d| d.keyish) {
        for r in &d.refs {
            users.entry(r.as_str()).or_default().push(d.needle.as_str());
        }
    }
    let wrapper_needles: Vec<String> = wrappers.iter().filter_map(|w| needle_of(w)).collect();
    let marked = files
        .iter()
        .filter(|f| f.marks)
        .flat_map(|f| f.defs.iter().filter(|d| d.keyish))
        .map(|d| d.needle.as_str());
    let carriers = closure(
        wrapper_needles.iter().map(String::as_str).chain(marked),
        |c| users.get(c).into_iter().flatten().copied(),
    );
    // Names resolved in full: what Redis facts send, what wrapper calls
    // pass, what templates that may carry the protocol look up; then
    // through the definitions they reach.
    let mut seeds: BTreeSet<String> = BTreeSet::new();
    for f in files {
        seeds.extend(f.seeds.iter().cloned());
        for c in f
            .calls
            .iter()
            .filter(|c| wrappers.contains(c.callee.as_str()))
        {
            seeds.extend(needle_of(&c.callee));
            seeds.extend(c.refs.iter().cloned());
        }
        for t in &f.templates {
            if f.marks || t.iter().any(|n| carriers.contains(n.as_str())) {
                seeds.extend(t.iter().cloned());
            }
        }
    }
    let mut refs: HashMap<&str, Vec<&str>> = HashMap::new();
    for d in files.iter().flat_map(|f| &f.defs) {
        refs.entry(d.needle.as_str())
            .or_default()
            .extend(d.refs.iter().map(String::as_str));
    }
    let needed = closure(seeds.iter().map(String::as_str), |n| {
        refs.get(n).into_iter().flatten().copied()
    });
    needed
        .into_iter()
        .chain(carriers)
        .map(str::to_string)
        .collect()
}

/// Everything reachable from `start` through `next`: one graph search.
fn closure<'a, I>(
    start: impl Iterator<Item = &'a str>,
    next: impl Fn(&'a str) -> I,
) -> HashSet<&'a str>
where
    I: Iterator<Item = &'a str>,
{
    let mut seen: HashSet<&str> = HashSet::new();
    let mut stack: Vec<&str> = Vec::new();
    for s in start {
        if seen.insert(s) {
            stack.push(s);
        }
    }
    while let Some(n) = stack.pop() {
        for m in next(n) {
            if seen.insert(m) {
                stack.push(m);
            }
        }
    }
    seen
}

/// Normalised names a script may be identified by (`link::calls::identify`):
/// atoms, short literal strings and constant names in the script position of
/// an EVAL or script call, or in any call's arguments (a wrapper's parameter
/// may hold the script).
pub fn identity_names(facts: &FileFacts, out: &mut BTreeSet<String>) {
    let mut add = |v: &Value| {
        let name = match v {
            Value::Atom { name, .. } => Some(name.clone()),
            Value::Const { path, .. } => path.last().cloned(),
            Value::Str(_) => v.as_str().filter(|s| s.len() <= 64),
            _ => None,
        };
        if let Some(n) = name {
            out.insert(normalize_name(&n));
        }
    };
    for c in &facts.commands {
        if matches!(
            c.name.as_str(),
            "EVAL" | "EVALSHA" | "EVAL_RO" | "EVALSHA_RO"
        ) {
            if let Some(v) = c.args.first() {
                walk(v, 0, &mut add);
            }
        }
    }
    for c in &facts.script_calls {
        walk(&c.script, 0, &mut add);
    }
    for c in &facts.calls {
        for v in &c.args {
            walk(v, 0, &mut add);
        }
    }
}

/// Bytes a namespace is made of (as `keyshape::analyze` reads one).
fn is_ns_byte(b: u8) -> bool {
    b.is_ascii() && is_namespace_char(char::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Span;
    use crate::keyshape::{analyze, KeyVerdict};

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
