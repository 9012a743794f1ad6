//! The name pass of the selection (`super::select`): what one parsed file
//! gives it ([`FileNames`]), and the names a speaker's parsed files need or
//! carry ([`speaker_names`]), searched for as whole identifiers in the
//! bytes of its other files ([`Names`]). Why it is sound: `super::prefilter`.
//!
//! A name a reference looks up is searched for with where the link may
//! pick its definition ([`Within`]): the link's resolution
//! (`link::Resolver::pick`) takes a definition from the referencing
//! module, the module a qualifier names, the referencing file, a module
//! imported from, or, when one module defines the name, that one. So a
//! file that defines the name is parsed when it holds one of those words
//! or when no other file defines it; when definitions are left unparsed
//! and several files define the name, the link is told
//! ([`crate::link::Definers`]) and picks no lone definition for it, as it
//! would not with every file parsed.

use crate::hash::{HashMap, HashSet};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::facts::{
    closure_body, definer_key, hash_reply_parts, FileFacts, Op, ScriptSource, Seg, Template, Value,
    NEW,
};
use crate::link::normalize_name;

use super::prefilter::Prefilter;

mod refs;
mod search;
pub use refs::Within;
use refs::{merge_refs, Refs};
pub use search::{words_in, Idents, Names, Scan};

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
        Value::Call { args: xs, .. }
        | Value::Op { args: xs, .. }
        | Value::OneOf { alts: xs, .. } => {
            for x in xs {
                walk(x, depth + 1, f);
            }
        }
        _ => {}
    }
}

/// Names a script may be identified by, gathered: a set, or a list made a
/// set at the end.
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

/// Where a value's references are resolved: the module of the definition
/// or function it is written in (none at a file's top), and the modules
/// its file imports from.
#[derive(Clone, Copy)]
struct RefCx<'a> {
    module: Option<&'a str>,
    imports: &'a [String],
}

/// The last segment of a module path (`A.B` → `B`, `a::b` → `b`), when
/// it is a plain identifier the search can find.
fn module_word(m: &str) -> Option<&str> {
    let w = m.rsplit(['.', ':']).next()?;
    let plain = !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    plain.then_some(w)
}

impl RefCx<'_> {
    /// Where the link may pick a definition `path` names (the
    /// referencing file aside): the module its qualifier names; else the
    /// referencing module and those imported from.
    fn within(&self, path: &[String]) -> Within {
        let qualifier = path.len().checked_sub(2).map(|i| path[i].as_str());
        let words: Vec<Option<&str>> = match qualifier {
            Some(q) if !matches!(q, "self" | "Self" | "__MODULE__") => vec![module_word(q)],
            _ => {
                let module = self.module.filter(|m| !m.is_empty()).map(module_word);
                let imports = self.imports.iter().map(|m| module_word(m));
                module.into_iter().chain(imports).collect()
            }
        };
        match words.into_iter().collect::<Option<Vec<_>>>() {
            Some(w) => Within {
                any: false,
                words: sorted(w.into_iter().map(|w| w.to_string()).collect()),
            },
            None => Within::any(),
        }
    }
}

/// The names (as [`definer_key`] gives them) that resolving `v` looks up;
/// a field (`.f`, a projection of a value or a type's field) as `.f`: the
/// link answers it from the definitions of fields a type's constructors
/// set (`link::flow`), never from a function or a constant named `f`.
fn refs_of(v: &Value, cx: RefCx<'_>, out: &mut Refs) {
    walk(v, 0, &mut |v| {
        let (path, within) = match v {
            Value::Const { path, .. } | Value::Call { path, .. } => (&path[..], cx.within(path)),
            // A call of a value runs the method of whatever type the value
            // has, unless the code names the type.
            Value::Op {
                op: Op::Apply(method),
                ..
            } if method.len() < 2 => (&method[..], Within::any()),
            Value::Op {
                op: Op::Apply(method),
                ..
            } => (&method[..], cx.within(method)),
            Value::Op {
                op: Op::Field(f), ..
            } => {
                let field = [format!(".{f}")];
                return add_ref(out, &field, cx.within(&field));
            }
            _ => return,
        };
        add_ref(out, path, within);
    });
}

/// Adds the name `path` ends in, looked up `within`, to `out`.
fn add_ref(out: &mut Refs, path: &[String], within: Within) {
    let Some(key) = path.last().and_then(|l| definer_key(l)) else {
        return;
    };
    out.push(key, within);
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
    crate::redis::runs_script(name)
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
    /// The names its arguments look up.
    refs: Refs,
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
    refs: Refs,
}

/// A template that builds a key-like string, as the name pass sees it.
#[derive(PartialEq, Eq, Hash)]
struct TemplateNames {
    /// One of its literals is key-marked.
    marked: bool,
    refs: Refs,
}

/// What one parsed file gives the name pass (see the module docs).
#[derive(PartialEq, Eq, Hash)]
pub struct FileNames {
    /// Names the values its Redis facts send look up (command arguments,
    /// script calls, field reads): always resolved in full.
    seeds: Refs,
    calls: Vec<CallNames>,
    templates: Vec<TemplateNames>,
    defs: Vec<DefNames>,
    /// Every name it defines, as [`definer_key`] gives it (a field its
    /// type's constructors set as `.f`): what the selection counts the
    /// files defining a name by.
    pub defined: BTreeSet<String>,
    /// Functions that run a script in their body (wrappers start there).
    runners: BTreeSet<String>,
    /// Normalised names its EVALs and script calls may identify a script by.
    pub idents: BTreeSet<String>,
    /// Lower-case SHA1s its EVALs and script calls may identify a script by.
    pub shas: BTreeSet<String>,
}

/// Where the values of a file are resolved, by the function they are in.
struct FileCx<'f> {
    facts: &'f FileFacts,
    imports: Vec<String>,
}

impl<'f> FileCx<'f> {
    fn new(facts: &'f FileFacts) -> FileCx<'f> {
        let imports = sorted(facts.imports.iter().map(|i| i.from.clone()).collect());
        FileCx { facts, imports }
    }

    fn at(&self, module: Option<&'f str>) -> RefCx<'_> {
        RefCx {
            module,
            imports: &self.imports,
        }
    }

    /// The context of a fact in function `f` (if any).
    fn in_fn(&self, f: Option<usize>) -> RefCx<'_> {
        let module = f
            .and_then(|f| self.facts.functions.get(f))
            .map(|d| d.module.as_str());
        self.at(module)
    }
}

impl FileNames {
    pub fn of(facts: &FileFacts, pf: &Prefilter) -> FileNames {
        let fcx = FileCx::new(facts);
        let mut seeds = Refs::new();
        let mut idents = BTreeSet::new();
        let mut shas = BTreeSet::new();
        for c in &facts.commands {
            for v in c.args.iter().chain(&c.tail).chain(&c.name_of) {
                refs_of(v, fcx.in_fn(c.func), &mut seeds);
            }
            // A command handed to a function of the code base is sent
            // where that function sends it (`Store.run(conn, ["EVAL", ..])`).
            if let crate::facts::Sink::Call { path, .. } = &c.sink {
                add_ref(&mut seeds, path, fcx.in_fn(c.func).within(path));
            }
        }
        // A command list a function of the file builds (`defp cmd(args),
        // do: ["EVAL"] ++ args`) handed to another function is sent where
        // that function sends it (`Store.run(cmd([..]))`, `link::built`).
        let builders: HashSet<&str> = facts
            .commands
            .iter()
            .filter(|c| c.sink == crate::facts::Sink::Held)
            .filter_map(|c| facts.functions.get(c.func?))
            .map(|d| d.name.as_str())
            .collect();
        let builds = |v: &Value| {
            matches!(v, Value::Call { path, .. }
                if path.last().is_some_and(|l| builders.contains(l.as_str())))
        };
        for c in facts.calls.iter().filter(|c| c.args.iter().any(builds)) {
            add_ref(&mut seeds, &c.path, fcx.in_fn(c.func).within(&c.path));
        }
        let lua_commands = facts.scripts.iter().flat_map(|s| match &s.source {
            ScriptSource::Inline(lua) => lua.commands.as_slice(),
            ScriptSource::File { .. } => &[],
        });
        for c in lua_commands {
            for v in c.args.iter().chain(&c.tail).chain(&c.name_of) {
                refs_of(v, fcx.at(None), &mut seeds);
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
                refs_of(v, fcx.in_fn(c.func), &mut seeds);
            }
        }
        // A closure a construction passes (`new T(.., (id) => names.of(id))`)
        // is what a field of `T` holds: a call of the field runs its body.
        for c in facts
            .calls
            .iter()
            .filter(|c| c.path.last().is_some_and(|l| l == NEW))
        {
            for a in c.args.iter().filter(|a| closure_body(a).is_some()) {
                refs_of(a, fcx.in_fn(c.func), &mut seeds);
            }
        }
        for r in &facts.field_reads {
            let cx = fcx.in_fn(r.func);
            refs_of(&r.key, cx, &mut seeds);
            refs_of(&r.field, cx, &mut seeds);
            if let Some(c) = &r.command {
                refs_of(c, cx, &mut seeds);
            }
            // The function whose value it is read from.
            if let Some(row) = &r.row {
                refs_of(row, cx, &mut seeds);
            }
        }
        FileNames {
            seeds: seeds.sealed(),
            calls: calls(&fcx, &mut shas),
            templates: templates(&fcx, pf),
            defs: defs(&fcx, pf),
            defined: facts
                .consts
                .iter()
                .map(|c| &c.name)
                .chain(facts.functions.iter().map(|f| &f.name))
                .filter_map(|n| definer_key(n))
                .collect(),
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

fn calls(fcx: &FileCx<'_>, shas: &mut BTreeSet<String>) -> Vec<CallNames> {
    fcx.facts
        .calls
        .iter()
        .filter_map(|c| {
            let mut refs = Refs::new();
            let mut idents = Vec::new();
            for v in &c.args {
                refs_of(v, fcx.in_fn(c.func), &mut refs);
                identities(v, &mut idents, shas);
            }
            Some(CallNames {
                callee: c.path.last()?.clone(),
                refs: refs.sealed(),
                idents: sorted(idents),
                within: fn_name(fcx.facts, c.func),
                reply: c.args.iter().any(|a| hash_reply_parts(a).is_some()),
                forwards: c.args.iter().any(|a| matches!(a, Value::Param { .. })),
            })
        })
        .collect()
}

/// Templates are resolved where their file's top is.
fn templates(fcx: &FileCx<'_>, pf: &Prefilter) -> Vec<TemplateNames> {
    fcx.facts
        .templates
        .iter()
        .map(|t| {
            let mut refs = Refs::new();
            for s in &t.segs {
                if let Seg::Value(v) = s {
                    refs_of(v, fcx.at(None), &mut refs);
                }
            }
            TemplateNames {
                marked: template_marks(t, pf),
                refs: refs.sealed(),
            }
        })
        .collect()
}

fn defs(fcx: &FileCx<'_>, pf: &Prefilter) -> Vec<DefNames> {
    let facts = fcx.facts;
    let mut out = Vec::new();
    // A field its type's constructors set (`.name`) is read through a
    // value of the type, never by its name alone.
    for c in facts.consts.iter().filter(|c| !c.name.starts_with('.')) {
        if let Some(needle) = definer_key(&c.name) {
            let mut refs = Refs::new();
            refs_of(&c.value, fcx.at(Some(&c.module)), &mut refs);
            out.push(DefNames {
                needle,
                keyish: true,
                marked: holds_key_literal(&c.value, pf),
                reply: false,
                refs: refs.sealed(),
            });
        }
    }
    for d in &facts.functions {
        if let Some(needle) = definer_key(&d.name) {
            let mut refs = Refs::new();
            refs_of(&d.returns, fcx.at(Some(&d.module)), &mut refs);
            out.push(DefNames {
                needle,
                keyish: !matches!(d.returns, Value::Unknown { .. }),
                marked: holds_key_literal(&d.returns, pf),
                reply: may_be_reply(&d.returns),
                refs: refs.sealed(),
            });
        }
    }
    out
}

/// Functions that run a script: an EVAL command or a script call in their
/// body; and the commands a client registers for a script, a method each
/// of the speaker's clients has (`crate::facts::Registration`).
fn runners(facts: &FileFacts) -> BTreeSet<String> {
    let evals = facts
        .commands
        .iter()
        .filter(|c| may_eval(c))
        .map(|c| c.func);
    let commands = facts.registered.iter().map(|r| r.command.clone());
    evals
        .chain(facts.script_calls.iter().map(|c| c.func))
        .filter_map(|f| fn_name(facts, f))
        .chain(commands)
        .collect()
}

/// Whether a function may return a whole-hash read's reply: its value
/// holds one (`raw if raw else None`, `{:ok, reply}`), or a whole-hash
/// read's command list (`{:ok, to_map(wrapper(conn, ["HGETALL", key]))}`,
/// the reply a call of the code base gives back). Taking more functions
/// for such only parses more files.
fn may_be_reply(v: &Value) -> bool {
    let mut found = false;
    walk(v, 0, &mut |x| {
        found = found
            || hash_reply_parts(x).is_some()
            || matches!(x, Value::List { items, .. }
                if items.first().and_then(Value::as_str)
                    .is_some_and(|h| h.eq_ignore_ascii_case("HGETALL")));
    });
    found
}

/// What one speaker's parsed files need from its other files.
pub struct SpeakerNames {
    /// Names whose every use matters: carriers (a template or a definition
    /// that looks one up may carry the protocol) and wrappers (their calls
    /// run scripts).
    pub used: BTreeSet<String>,
    /// Names resolved in full, with where their definitions may be picked.
    pub defined: BTreeMap<String, Within>,
    /// Normalised names that calls of its wrappers may identify a script by.
    pub idents: BTreeSet<String>,
}

/// The names one speaker's parsed files need, as whole identifiers (see
/// the module docs of `super::prefilter`): every name a value that may
/// carry the protocol looks up, followed through the definitions it
/// reaches, and every name of a definition that may carry the protocol.
pub fn speaker_names(files: &[&FileNames]) -> SpeakerNames {
    let all_defs = || files.iter().flat_map(|f| &f.defs);
    let wrappers = wrappers_of(files);
    // Carriers: definitions whose value holds a key-marked literal, the
    // wrappers, and the key-like definitions that look one up.
    let mut keyish_by_ref: HashMap<&str, Vec<&str>> = HashMap::default();
    for d in all_defs().filter(|d| d.keyish) {
        for r in d.refs.keys() {
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
        .filter_map(|w| Some((w.as_ref(), definer_key(w)?)))
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
    let mut seeds: Vec<&Refs> = Vec::new();
    let mut wrapper_needles: Vec<&str> = Vec::new();
    // Borrowed until the end: the same names come from many calls.
    let mut idents: HashSet<&str> = HashSet::default();
    for f in files {
        seeds.push(&f.seeds);
        for c in f
            .calls
            .iter()
            .filter(|c| wrappers.contains(c.callee.as_str()))
        {
            wrapper_needles.extend(needles.get(c.callee.as_str()).map(String::as_str));
            seeds.push(&c.refs);
            idents.extend(c.idents.iter().map(String::as_str));
        }
        for t in &f.templates {
            if t.marked || t.refs.keys().any(|r| carriers.contains(r.as_str())) {
                seeds.push(&t.refs);
            }
        }
    }
    let reader_needles = reply_readers(files, &mut seeds);
    let mut defs_by_needle: HashMap<&str, Vec<&DefNames>> = HashMap::default();
    for d in all_defs() {
        defs_by_needle.entry(&d.needle).or_default().push(d);
    }
    let start = seeds
        .iter()
        .flat_map(|r| r.keys())
        .map(|n| Cow::Borrowed(n.as_str()))
        .chain(wrapper_needles.iter().map(|n| Cow::Borrowed(*n)))
        .chain(reader_needles.iter().map(|n| Cow::Borrowed(n.as_str())));
    let needed = closure(start, |n| {
        defs_by_needle
            .get(n)
            .into_iter()
            .flatten()
            .copied()
            .flat_map(|d| d.refs.keys().map(String::as_str))
    });
    // Where each needed name's definitions may be picked: from every
    // reference to it the closure went through.
    let mut defined: BTreeMap<String, Within> = BTreeMap::new();
    let reached = needed
        .iter()
        .flat_map(|n| defs_by_needle.get(n.as_ref()).into_iter().flatten())
        .map(|d| &d.refs);
    for refs in seeds.iter().copied().chain(reached) {
        merge_refs(&mut defined, refs);
    }
    for n in wrapper_needles
        .iter()
        .copied()
        .chain(reader_needles.iter().map(String::as_str))
    {
        defined.insert(n.to_string(), Within::any());
    }
    SpeakerNames {
        used: carriers.into_iter().map(Cow::into_owned).collect(),
        defined,
        idents: idents.into_iter().map(String::from).collect(),
    }
}

/// Wrappers: functions that run a script, or call a wrapper.
fn wrappers_of<'a>(files: &[&'a FileNames]) -> HashSet<Cow<'a, str>> {
    let all_calls = || files.iter().flat_map(|f| &f.calls);
    let mut callers: HashMap<&str, Vec<&str>> = HashMap::default();
    for c in all_calls() {
        if let Some(w) = &c.within {
            callers.entry(c.callee.as_str()).or_default().push(w);
        }
    }
    closure(
        files
            .iter()
            .flat_map(|f| f.runners.iter().map(|r| Cow::Borrowed(r.as_str()))),
        |w| callers.get(w).into_iter().flatten().copied(),
    )
}

/// The readers of what functions that return a whole-hash read's reply
/// give back ([`readers_of`]); what a call passes such a reader is
/// followed to the reply (`link::rows`), so the names it looks up are
/// seeds.
fn reply_readers<'a>(files: &[&'a FileNames], seeds: &mut Vec<&'a Refs>) -> Vec<String> {
    let returning: HashSet<&str> = files
        .iter()
        .flat_map(|f| &f.defs)
        .filter(|d| d.reply)
        .map(|d| d.needle.as_str())
        .collect();
    seeds.extend(
        files
            .iter()
            .flat_map(|f| &f.calls)
            .filter(|c| c.refs.keys().any(|r| returning.contains(r.as_str())))
            .map(|c| &c.refs),
    );
    readers_of(files, &returning)
}

/// Readers of a row: the functions passed the reply of a whole-hash read,
/// or the result of a call of a function in `returning` (one that returns
/// such a reply), and those they pass a parameter on to (`link::rows`), as
/// the names of their definitions (every one: a call names them by their
/// last name).
fn readers_of(files: &[&FileNames], returning: &HashSet<&str>) -> Vec<String> {
    let all_calls = || files.iter().flat_map(|f| &f.calls);
    let mut forwarded: HashMap<&str, Vec<&str>> = HashMap::default();
    for c in all_calls().filter(|c| c.forwards) {
        if let Some(w) = &c.within {
            forwarded.entry(w).or_default().push(&c.callee);
        }
    }
    let readers = closure(
        all_calls()
            .filter(|c| c.reply || c.refs.keys().any(|r| returning.contains(r.as_str())))
            .map(|c| Cow::Borrowed(c.callee.as_str())),
        |f| forwarded.get(f).into_iter().flatten().copied(),
    );
    readers.iter().filter_map(|r| definer_key(r)).collect()
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
