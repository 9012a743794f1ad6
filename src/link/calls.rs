//! Script call sites: every EVAL/EVALSHA command and `Script` invocation,
//! linked to its script, with the keys it passes, including calls made
//! through a project's own wrappers.
//!
//! Wrappers are summarized once: a call site inside a function whose script,
//! numkeys or keys come from the function's parameters is kept as the
//! function's summary. Each call to that function binds its real arguments
//! into the summary; summaries are carried up through calls until nothing
//! changes. What stays unresolved stays unknown, and unknown says nothing.

use crate::hash::{HashMap, HashSet};
use rayon::prelude::*;
use std::sync::Arc;

use super::identify::{identify, unidentified, Loaders, Lookup};
use super::memo::{Kept, LinkMemo, SpeakerFacts};
use super::substitute::{substitute, Args};
use super::{Arg, LinkInput, Model, Resolver, ScriptId, SpeakerId};
use crate::facts::{FileFacts, FileId, Seg, Span, Value};
use uses::{drop_twins, mark_echoes, registered_count, use_of, KeyMemo};

mod delegates;
mod direct;
mod index;
mod keywords;
mod own;
mod registered;
mod uses;
mod wrappers;

pub(super) use index::{index_functions, FnIndex};
pub(super) use keywords::defs as keywords_defs;

/// How numkeys is given at a call site.
#[derive(Clone, Debug, PartialEq)]
pub enum NumKeys {
    /// A literal count (`2`, `"2"`).
    Literal(u32, Span),
    /// Counted from a key list the code shows (`length([a, b])`): the
    /// span is the list's.
    Counted(u32, Span),
    /// Counted from the keys passed (`length(keys)`, redis-rs `Script`).
    FromKeys,
    /// Not visible: the count travels with the script (its registration).
    Unknown,
}

/// One place a script is run.
#[derive(Clone, Debug)]
pub struct ScriptCallUse {
    pub script: ScriptId,
    pub speaker: SpeakerId,
    /// The call site.
    pub span: Span,
    pub numkeys: NumKeys,
    /// The keys passed, in slot order, as far as the code shows them
    /// (shared: a long-lived process keeps each use between runs).
    pub keys: Arc<[Arg]>,
    /// Whether `keys` holds every key passed.
    pub keys_complete: bool,
    /// The args passed after the keys, as far as visible.
    pub args: Arc<[Value]>,
    /// Whether `args` holds every arg passed (ARGV), in order.
    pub args_complete: bool,
    /// `args` resolved, slot by slot (`argv.rs`).
    pub argv: Arc<[Arg]>,
    /// The body of a wrapper that its callers bind: its call sites are the
    /// invocations; this one is checked for what it passes besides its
    /// parameters, and not counted.
    pub in_wrapper: bool,
    /// The same script, numkeys and keys as a use fewer wrappers away (a
    /// caller of a wrapper that passes the wrapper's own key list on):
    /// counted in coverage, not checked again.
    pub echo: bool,
    /// How many wrapper calls bound it.
    depth: u8,
    /// The invocation this use comes from: the innermost place where the
    /// script is known (a call of `script.run(..)`, an EVALSHA whose SHA is
    /// computed there); `None` when no call binds the script.
    pub site: Option<Span>,
}

/// A place a script is run that could not be linked to its script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnlinkedCall {
    pub speaker: SpeakerId,
    pub span: Span,
    /// Why: what the script value is, in words.
    pub reason: String,
    /// The invocation (see [`ScriptCallUse::site`]).
    pub site: Span,
    /// The body of a public wrapper no call in the tree binds: the script
    /// is its callers' ([`wrappers`]).
    pub wrapper: bool,
}

/// A call site not yet bound to its arguments.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Proto {
    script: Value,
    numkeys: Option<Value>,
    /// Visible items after numkeys (keys, then args), or the keys alone.
    items: Vec<Value>,
    /// Collections appended whole.
    tail: Vec<Value>,
    open: bool,
    /// `items` are keys only (a `Script` invocation).
    keys_only: bool,
    /// A `Script` invocation's args, and whether more are added unseen.
    argv: Vec<Value>,
    argv_open: bool,
    /// The collection the args come from when they are not listed.
    argv_from: Option<Value>,
    span: Span,
    /// The command or invocation this came from, for de-duplication.
    origin: Span,
    file: FileId,
    speaker: SpeakerId,
    /// How many wrapper calls bound it.
    depth: u8,
    /// The invocation: the innermost place where the script is known (no
    /// parameter left in it), once binding reaches it.
    site: Option<Span>,
    /// Built and returned by its function (`ScriptCall::returned`): it
    /// runs at the calls of the function, never where it is built.
    returned: bool,
    /// The public wrapper it is the body of, when no call in the tree
    /// binds it and none names it ([`wrappers::public_wrapper`]).
    public_wrapper: Option<Box<str>>,
    /// The module of the function it is written in: the receiver's fields
    /// (`self.key`) are its type's.
    module: Option<Box<str>>,
    /// A client method a registration under a computed name may have
    /// given: a call only if a script goes by the method's name.
    by_method: bool,
}

fn has_params(v: &Value, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    match v {
        Value::Param { .. } => true,
        Value::Str(t) => t
            .segs
            .iter()
            .any(|s| matches!(s, Seg::Value(inner) if has_params(inner, depth + 1))),
        Value::List { items, tail, .. } => {
            items.iter().chain(tail).any(|x| has_params(x, depth + 1))
        }
        Value::Map { pairs, .. } => pairs
            .iter()
            .any(|(a, b)| has_params(a, depth + 1) || has_params(b, depth + 1)),
        Value::Call { args, .. } | Value::Op { args, .. } => {
            args.iter().any(|x| has_params(x, depth + 1))
        }
        _ => false,
    }
}

fn proto_has_params(p: &Proto) -> bool {
    has_params(&p.script, 0)
        || p.numkeys.as_ref().is_some_and(|n| has_params(n, 0))
        || p.items.iter().chain(&p.tail).any(|v| has_params(v, 0))
        || p.argv.iter().chain(&p.argv_from).any(|v| has_params(v, 0))
}

fn bind(p: &Proto, args: Args<'_>, span: Span, file: FileId) -> Proto {
    let script = substitute(&p.script, args, 0);
    Proto {
        numkeys: p.numkeys.as_ref().map(|n| substitute(n, args, 0)),
        items: p.items.iter().map(|v| substitute(v, args, 0)).collect(),
        tail: p.tail.iter().map(|v| substitute(v, args, 0)).collect(),
        open: p.open,
        keys_only: p.keys_only,
        argv: p.argv.iter().map(|v| substitute(v, args, 0)).collect(),
        argv_open: p.argv_open,
        argv_from: p.argv_from.as_ref().map(|v| substitute(v, args, 0)),
        span,
        origin: p.origin,
        file,
        speaker: p.speaker,
        depth: p.depth.saturating_add(1),
        site: p.site,
        returned: false,
        public_wrapper: None,
        module: None,
        by_method: p.by_method,
        script,
    }
}

/// The functions a call may mean: the same file, then the module named in
/// the path, then a unique module.
pub(super) fn targets(
    index: &FnIndex<'_>,
    speaker: SpeakerId,
    path: &[String],
    arity: usize,
    file: FileId,
) -> Vec<(FileId, usize)> {
    let Some(name) = path.last() else {
        return Vec::new();
    };
    let Some(cands) = index.get(&(speaker, name.as_str(), arity)) else {
        return Vec::new();
    };
    let qualifier = (path.len() >= 2).then(|| path[path.len() - 2].as_str());
    if qualifier == Some(crate::facts::ANY_MODULE) {
        // A module chosen where the code runs: any module that defines it.
        return cands.iter().map(|c| (c.0, c.1)).collect();
    }
    let local = matches!(qualifier, None | Some("self" | "Self" | "__MODULE__"));
    if local {
        let same: Vec<_> = cands
            .iter()
            .filter(|c| c.0 == file)
            .map(|c| (c.0, c.1))
            .collect();
        if !same.is_empty() {
            return same;
        }
    }
    if let Some(q) = qualifier.filter(|_| !local) {
        let by_mod: Vec<_> = cands
            .iter()
            .filter(|c| c.2 == q || c.2.rsplit(['.', ':']).next() == Some(q))
            .map(|c| (c.0, c.1))
            .collect();
        if !by_mod.is_empty() {
            return by_mod;
        }
    }
    let modules: HashSet<&str> = cands.iter().map(|c| c.2).collect();
    if modules.len() == 1 {
        return cands.iter().map(|c| (c.0, c.1)).collect();
    }
    Vec::new()
}

/// A file's speaker (none for the contract file).
fn speaker_of(input: &LinkInput<'_>, file: FileId) -> Option<SpeakerId> {
    input.file_speaker.get(file as usize).copied().flatten()
}

/// Whether a proto runs what a function returns that returns an
/// invocation (`build(q).invoke(con)`): binding that function's invocation
/// into this call is the use, so the proto is none.
fn runs_returned(p: &Proto, fns: &FnIndex<'_>, returning: &HashSet<(FileId, usize)>) -> bool {
    let Value::Call { path, args, .. } = &p.script else {
        return false;
    };
    !returning.is_empty()
        && p.keys_only
        && targets(fns, p.speaker, path, args.len(), p.file)
            .iter()
            .any(|t| returning.contains(t))
}

/// Whether a proto's script is identified where it stands.
type Known<'a> = &'a dyn Fn(&Proto) -> bool;

/// The script a proto of a method of a module (its last segment the
/// method's type) runs, where it is a field of the receiver that names
/// one ([`own`]).
type Own<'a> = &'a dyn Fn(&Proto, &str) -> Option<Value>;

/// The invocation is the innermost place where the script is known: once
/// there, it stays.
fn mark_site(p: &mut Proto, known: Known<'_>) {
    if p.site.is_none() && !p.returned && (!has_params(&p.script, 0) || known(p)) {
        p.site = Some(p.span);
    }
}

const MAX_SUMMARY: usize = 16;
const MAX_ROUNDS: usize = 8;

/// Protos on their way through wrappers: the summaries of functions whose
/// call sites still have parameters, and the call sites that do not.
#[derive(Default)]
struct Binding {
    summaries: HashMap<(FileId, usize), Vec<Proto>>,
    finals: Vec<Proto>,
    seen_finals: HashSet<(Span, Span)>,
    /// Wrappers, each with the functions whose calls bind it.
    called: delegates::Callers,
    /// Per summary, its length when the last round started: every call
    /// has bound the entries before that in an earlier round, and binding
    /// one again only finds it known (lists never shrink), so a round
    /// binds from there on (the same appends, in the same order).
    bound: HashMap<(FileId, usize), usize>,
}

impl Binding {
    /// The call sites each file of the speaker states itself.
    fn start(
        input: &LinkInput<'_>,
        sent: &super::sends::Sent,
        fns: &FnIndex<'_>,
        (known, own): (Known<'_>, Own<'_>),
        speaker: SpeakerId,
    ) -> Binding {
        let mut b = Binding::default();
        let mine = || {
            input
                .facts
                .iter()
                .filter(move |(file, _)| speaker_of(input, *file) == Some(speaker))
        };
        // Functions that return an invocation they build: a caller that
        // runs their result runs that invocation, bound to its arguments.
        let returning: HashSet<(FileId, usize)> = mine()
            .flat_map(|(file, facts)| {
                let file = *file;
                facts
                    .script_calls
                    .iter()
                    .filter(|c| c.returned)
                    .filter_map(move |c| Some((file, c.func?)))
            })
            .collect();
        let direct = mine().flat_map(|(file, facts)| {
            let protos = direct::protos(*file, speaker, facts, sent);
            protos.into_iter().map(move |(func, p)| (*file, func, p))
        });
        let all = direct.chain(registered::protos(input, fns, speaker));
        let by_file: HashMap<FileId, &FileFacts> = mine().map(|(f, x)| (*f, &**x)).collect();
        for (file, func, mut p) in all {
            let Some(facts) = by_file.get(&file) else {
                continue;
            };
            if runs_returned(&p, fns, &returning) {
                continue;
            }
            let module = func
                .and_then(|f| facts.functions.get(f))
                .map(|d| d.module.as_str());
            if let Some(script) = module.and_then(|m| own(&p, m)) {
                p.script = script;
            }
            p.module = module.map(Box::from);
            mark_site(&mut p, known);
            match func {
                Some(f) if proto_has_params(&p) || p.returned => {
                    b.summaries.entry((file, f)).or_default().push(p)
                }
                _ => b.finals.push(p),
            }
        }
        b.seen_finals = b.finals.iter().map(|p| (p.span, p.origin)).collect();
        b
    }

    /// One round: every call of a summarized function binds its arguments
    /// into the summary. Returns whether a summary grew.
    fn round(
        &mut self,
        input: &LinkInput<'_>,
        fns: &FnIndex<'_>,
        found: &keywords::CallTargets,
        known: Known<'_>,
    ) -> bool {
        let mut changed = false;
        let starts: HashMap<(FileId, usize), usize> =
            self.summaries.iter().map(|(k, v)| (*k, v.len())).collect();
        let bound = std::mem::replace(&mut self.bound, starts);
        let defs = std::cell::OnceCell::new();
        for ((file, facts), found) in input.facts.iter().zip(found) {
            let Some(sp) = speaker_of(input, *file) else {
                continue;
            };
            for (call, found) in facts.calls.iter().zip(found) {
                let methods;
                let found = if found.is_empty() && call.receiver.is_some() {
                    methods = self.wrapper_methods(fns, sp, &call.path, call.args.len());
                    &methods
                } else {
                    found
                };
                for target in found {
                    // The summary as it stands before this call binds it
                    // (a recursive wrapper grows its own).
                    let Some(n) = self.summaries.get(target).map(Vec::len) else {
                        continue;
                    };
                    self.called.add(*target, call.func.map(|f| (*file, f)));
                    let Some(passed) = keywords::passed(call, *target, &defs, input) else {
                        continue;
                    };
                    for i in bound.get(target).copied().unwrap_or(0)..n {
                        // A call on the receiver itself (`self.f(..)`, a
                        // bare `f(..)` in a method) keeps the receiver's
                        // fields as the caller's.
                        let on_self = call.receiver.is_none()
                            && (call.path.len() == 1 || call.path[0] == "self");
                        let args = Args {
                            args: &passed,
                            receiver: call.receiver.as_ref(),
                            keep_receiver: on_self,
                        };
                        let mut q = bind(&self.summaries[target][i], args, call.span, *file);
                        q.module = call
                            .func
                            .and_then(|f| facts.functions.get(f))
                            .map(|d| Box::from(d.module.as_str()));
                        mark_site(&mut q, known);
                        changed |= self.take(q, call.func.map(|f| (*file, f)));
                    }
                }
            }
        }
        changed
    }

    /// A method call whose name several types define (`script.run(..)`,
    /// `client.runCommand(..)` on an interface): the receiver's type is not
    /// shown, so the call runs whichever of them the value has, and each
    /// that runs a script is bound.
    fn wrapper_methods(
        &self,
        fns: &FnIndex<'_>,
        speaker: SpeakerId,
        path: &[String],
        arity: usize,
    ) -> Vec<(FileId, usize)> {
        let Some(cands) = path
            .last()
            .and_then(|name| fns.get(&(speaker, name.as_str(), arity)))
        else {
            return Vec::new();
        };
        cands
            .iter()
            .filter(|c| self.summaries.contains_key(&(c.0, c.1)))
            .map(|c| (c.0, c.1))
            .collect()
    }

    /// A bound proto: still a summary of the calling function when it has
    /// parameters left, else a call site. Returns whether a summary grew.
    fn take(&mut self, q: Proto, caller: Option<(FileId, usize)>) -> bool {
        match caller {
            Some(key) if proto_has_params(&q) => {
                let list = self.summaries.entry(key).or_default();
                let known = list
                    .iter()
                    .any(|x| x.span == q.span && x.origin == q.origin);
                if list.len() < MAX_SUMMARY && !known {
                    list.push(q);
                    return true;
                }
                false
            }
            _ => {
                if self.seen_finals.insert((q.span, q.origin)) {
                    self.finals.push(q);
                }
                false
            }
        }
    }

    /// Every call site, each with whether it is the body of a wrapper that
    /// callers bind. A wrapper is also a call site in its own right, its
    /// parameters unknown: what it passes besides them is still checked.
    fn call_sites<'a>(mut self, input: &'a LinkInput<'a>) -> Vec<(Proto, bool)> {
        let mut names = wrappers::CalledNames::default();
        let mut delegates = HashMap::default();
        let mut unbound: Vec<(Proto, bool)> = Vec::new();
        for (key, list) in std::mem::take(&mut self.summaries) {
            // What a delegate's call bound is the call it delegates to.
            if delegates::delegate(input, key, &mut delegates) {
                continue;
            }
            let (bound, public) = match self.called.standing(input, key, &mut delegates) {
                delegates::Standing::Bound => (true, None),
                delegates::Standing::Unbound(named) => {
                    (false, wrappers::public_wrapper(input, named, &mut names))
                }
            };
            unbound.extend(list.into_iter().map(|mut p| {
                p.public_wrapper.clone_from(&public);
                (p, bound)
            }));
        }
        unbound.sort_by_key(|(p, _)| (p.file, p.span.start, p.span.end));
        let mut out: Vec<(Proto, bool)> = self.finals.into_iter().map(|p| (p, false)).collect();
        for (p, bound) in unbound {
            if self.seen_finals.insert((p.span, p.origin)) {
                out.push((p, bound));
            }
        }
        out
    }
}

/// Links every script call site, through wrappers; the call sites whose
/// script cannot be told are returned apart, with the reason.
///
/// Wrappers bind within a speaker (a call means a function of its own
/// speaker), so each speaker's call sites are bound on their own; with a
/// [`LinkMemo`], a speaker whose facts are those of the last run keeps its
/// call sites and what they pass ([`super::memo`]).
pub(super) fn link_calls(
    resolver: &Resolver<'_>,
    input: &LinkInput<'_>,
    model: &Model,
    inventory: &super::inventory::Inventory,
    sent: &super::sends::Sent,
    fns: &FnIndex<'_>,
) -> (Vec<ScriptCallUse>, Vec<UnlinkedCall>) {
    let script_at = &inventory.script_at;
    let loaders = Loaders::of(input);
    let lk = Lookup {
        followed: Default::default(),
        model,
        script_at,
        loaders: &loaders,
        resolver,
        names: super::identify::ScriptNames::of(model),
        files: inventory,
        sources: input.sources,
        speaker_dirs: &input.speaker_dirs,
    };
    let memo = input.memo;
    let mut kept = memo.map(LinkMemo::take).unwrap_or_default();
    let jobs: Vec<(SpeakerId, Option<Kept>)> = (0..input.speakers.len())
        .map(|sp| (sp, kept.remove(&sp)))
        .collect();
    // Speakers bind on their own, so in parallel; joined in speaker order.
    let done: Vec<SpeakerLink> = jobs
        .into_par_iter()
        .map(|(sp, last)| link_speaker(input, sent, fns, &lk, sp, last))
        .collect();
    let mut keep = HashMap::default();
    let mut spent = Vec::new();
    let mut out = Vec::new();
    let mut unlinked = Vec::new();
    for (sp, (entry, uses, un)) in done.into_iter().enumerate() {
        out.extend(uses);
        unlinked.extend(un);
        if entry.sites.is_empty() {
            continue;
        }
        if memo.is_some() {
            keep.insert(sp, entry);
        } else {
            spent.push(entry);
        }
    }
    if let Some(m) = memo {
        m.put(keep);
    }
    // What no memo keeps (a one-shot run's bound call sites: 1,024 in one
    // speaker of BullMQ) is freed off the run's path.
    if !spent.is_empty() {
        crate::parse::free_later(spent);
    }
    out.sort_by_key(|u| (u.span.file, u.span.start, u.span.end, u.script));
    drop_twins(&mut out);
    mark_echoes(&mut out);
    unlinked.sort_by_key(|u| (u.span.file, u.span.start, u.span.end));
    unlinked.dedup();
    (out, unlinked)
}

/// What linking one speaker gives: its memo entry (kept when a memo keeps
/// it, else freed), its uses, and its call sites that could not be linked.
type SpeakerLink = (Kept, Vec<ScriptCallUse>, Vec<UnlinkedCall>);

/// One speaker's call sites linked: from the last run's entry when it
/// holds, else bound again.
fn link_speaker(
    input: &LinkInput<'_>,
    sent: &super::sends::Sent,
    fns: &FnIndex<'_>,
    lk: &Lookup<'_>,
    sp: SpeakerId,
    last: Option<Kept>,
) -> SpeakerLink {
    let memo = input.memo;
    let still = |v: &Value, f: FileId| identify(v, sp, f, lk, 0).is_some();
    let mut entry = match last {
        Some(k) if k.holds(input, sent, sp, &still) => k,
        _ => {
            let log = std::cell::RefCell::new(Vec::new());
            let known = |p: &Proto| {
                let a = identify(&p.script, p.speaker, p.file, lk, 0).is_some();
                if memo.is_some() {
                    log.borrow_mut().push((p.script.clone(), p.file, a));
                }
                a
            };
            let own = |p: &Proto, module: &str| own::own_field_script(p, module, lk);
            let sites = bind_speaker(input, sent, fns, (&known, &own), sp);
            // A speaker without call sites (the shared scripts) is bound
            // again at no cost: nothing is kept of it.
            let worth = memo.is_some() && !sites.is_empty();
            let facts = worth.then(|| SpeakerFacts::of(input, sent, sp));
            Kept::new(facts.unwrap_or_default(), log.into_inner(), sites)
        }
    };
    let keeps = memo.is_some() && !entry.sites.is_empty();
    let (mut out, mut unlinked) = (Vec::new(), Vec::new());
    link_sites(lk, &mut entry, keeps, &mut out, &mut unlinked);
    (entry, out, unlinked)
}

/// One speaker's call sites, bound through its wrappers.
fn bind_speaker(
    input: &LinkInput<'_>,
    sent: &super::sends::Sent,
    fns: &FnIndex<'_>,
    (known, own): (Known<'_>, Own<'_>),
    speaker: SpeakerId,
) -> Vec<(Proto, bool)> {
    let mut binding = Binding::start(input, sent, fns, (known, own), speaker);
    if binding.finals.is_empty() && binding.summaries.is_empty() {
        return Vec::new();
    }
    let found = keywords::speaker_targets(input, fns, speaker);
    for _ in 0..MAX_ROUNDS {
        if !binding.round(input, fns, &found, known) {
            break;
        }
    }
    binding.call_sites(input)
}

/// Each call site of a speaker linked to its script, with what it passes
/// (kept in the entry, when `keep`, for the next run); the others apart.
fn link_sites(
    lk: &Lookup<'_>,
    entry: &mut Kept,
    keep: bool,
    out: &mut Vec<ScriptCallUse>,
    unlinked: &mut Vec<UnlinkedCall>,
) {
    // Each site on its own (in parallel), then taken in site order.
    let linked: Vec<Site> = entry
        .sites
        .par_iter()
        .zip(&entry.uses)
        .map_init(KeyMemo::default, |memo, ((p, in_wrapper), last)| {
            link_site(lk, p, *in_wrapper, last.as_ref(), keep, memo)
        })
        .collect();
    for (i, site) in linked.into_iter().enumerate() {
        match site {
            Site::Linked(linked) => {
                let (u, made) = *linked;
                if let Some(made) = made {
                    entry.uses[i] = Some(made);
                }
                out.push(u);
            }
            Site::Unlinked(u) => unlinked.push(u),
            Site::Each(each) => out.extend(each),
            Site::Wrapper | Site::Command => {}
        }
    }
}

/// One call site linked: its use (and, when made anew and a memo keeps it,
/// what the memo keeps of it), or why it is not.
enum Site {
    Linked(Box<(ScriptCallUse, Option<super::memo::Linked>)>),
    Unlinked(UnlinkedCall),
    /// The body of a wrapper whose script its callers name.
    Wrapper,
    /// A script chosen at run time among several the code names
    /// (`get(if d > 0 { "a" } else { "b" })`): a use of each.
    Each(Vec<ScriptCallUse>),
    /// No script: the name the call runs by is a Redis command's, and no
    /// script has it (`client[name](..)` with `name` bound to `"zcard"`
    /// runs ZCARD, the client's own method), or it is a method no
    /// registration is shown to give ([`Proto::by_method`]).
    Command,
}

fn link_site(
    lk: &Lookup<'_>,
    p: &Proto,
    in_wrapper: bool,
    last: Option<&super::memo::Linked>,
    keep: bool,
    memo: &mut KeyMemo,
) -> Site {
    // Parameters no call binds stay unknown (holes).
    let Some(script) = identify(&p.script, p.speaker, p.file, lk, 0) else {
        if let Some(each) = each_choice(lk, p, in_wrapper, memo) {
            return Site::Each(each);
        }
        if in_wrapper {
            return Site::Wrapper;
        }
        if p.by_method || names_a_command(lk, p) {
            return Site::Command;
        }
        // The script is the parameter itself: what the caller passes.
        let wrapper = p
            .public_wrapper
            .as_deref()
            .filter(|_| matches!(p.script, Value::Param { .. }));
        return Site::Unlinked(UnlinkedCall {
            speaker: p.speaker,
            span: p.span,
            site: p.site.unwrap_or(p.span),
            reason: match wrapper {
                Some(name) => wrappers::reason(&p.script, name),
                None => unidentified(&p.script),
            },
            wrapper: wrapper.is_some(),
        });
    };
    // A method a loader may have given runs a script the loader's way of
    // naming declares: its file, `name-N.lua`, and no other.
    if p.by_method && lk.model.scripts[script].file_count.is_none() {
        return Site::Command;
    }
    let registered = registered_count(p, script, lk);
    let (mut u, made) = match last {
        Some((s, r, u)) if (*s, *r) == (script, registered) => (u.clone(), None),
        _ => {
            let u = use_of(lk.resolver, p, script, registered, memo);
            let made = keep.then(|| (script, registered, u.clone()));
            (u, made)
        }
    };
    u.in_wrapper = in_wrapper;
    Site::Linked(Box::new((u, made)))
}

/// Whether a site's script comes to one literal string, the name of a
/// Redis command (`client[name](..)` with `name` bound to `"zcard"`, or to
/// a constant holding it): the client's own method, not a script.
fn names_a_command(lk: &Lookup<'_>, p: &Proto) -> bool {
    if !matches!(p.script, Value::Str(_)) && !p.script.is_followed() {
        return false;
    }
    let cx = super::Ctx {
        speaker: p.speaker,
        module: p.module.as_deref().unwrap_or(""),
        file: p.file,
    };
    match lk.resolver.templates(&p.script, &cx).as_slice() {
        [t] => t.as_literal().is_some_and(|n| crate::redis::is_command(&n)),
        _ => false,
    }
}

/// A site whose script is one of several, each named: a use of each, at
/// the same invocation.
fn each_choice(
    lk: &Lookup<'_>,
    p: &Proto,
    in_wrapper: bool,
    memo: &mut KeyMemo,
) -> Option<Vec<ScriptCallUse>> {
    let alts = super::identify::choices(&p.script)?;
    let scripts: Vec<ScriptId> = alts
        .iter()
        .map(|a| identify(a, p.speaker, p.file, lk, 0))
        .collect::<Option<_>>()?;
    let mut out: Vec<ScriptCallUse> = Vec::new();
    for script in scripts {
        if out.iter().any(|u| u.script == script) {
            continue;
        }
        let registered = registered_count(p, script, lk);
        let mut u = use_of(lk.resolver, p, script, registered, memo);
        u.in_wrapper = in_wrapper;
        u.site = Some(p.site.unwrap_or(p.span));
        out.push(u);
    }
    Some(out)
}
