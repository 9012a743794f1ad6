//! Script call sites: every EVAL/EVALSHA command and `Script` invocation,
//! linked to its script, with the keys it passes, including calls made
//! through a project's own wrappers.
//!
//! Wrappers are summarized once: a call site inside a function whose script,
//! numkeys or keys come from the function's parameters is kept as the
//! function's summary. Each call to that function binds its real arguments
//! into the summary; summaries are carried up through calls until nothing
//! changes. What stays unresolved stays unknown, and unknown says nothing.

use std::collections::{HashMap, HashSet};

use super::identify::{identify, unidentified};
use super::{Arg, Ctx, LinkInput, Model, Resolver, ScriptId, SpeakerId};
use crate::facts::{FileFacts, FileId, Seg, Span, Template, Value};

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
    /// The keys passed, in slot order, as far as the code shows them.
    pub keys: Vec<Arg>,
    /// Whether `keys` holds every key passed.
    pub keys_complete: bool,
    /// The args passed after the keys, as far as visible.
    pub args: Vec<Value>,
    /// The body of a wrapper that its callers bind: its call sites are the
    /// invocations; this one is checked for what it passes besides its
    /// parameters, and not counted.
    pub in_wrapper: bool,
}

/// A place a script is run that could not be linked to its script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnlinkedCall {
    pub speaker: SpeakerId,
    pub span: Span,
    /// Why: what the script value is, in words.
    pub reason: String,
}

/// A call site not yet bound to its arguments.
#[derive(Clone, Debug, PartialEq)]
struct Proto {
    script: Value,
    numkeys: Option<Value>,
    /// Visible items after numkeys (keys, then args), or the keys alone.
    items: Vec<Value>,
    /// Collections appended whole.
    tail: Vec<Value>,
    open: bool,
    /// `items` are keys only (a `Script` invocation).
    keys_only: bool,
    span: Span,
    /// The command or invocation this came from, for de-duplication.
    origin: Span,
    file: FileId,
    speaker: SpeakerId,
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
        Value::Call { args, .. } => args.iter().any(|x| has_params(x, depth + 1)),
        _ => false,
    }
}

fn proto_has_params(p: &Proto) -> bool {
    has_params(&p.script, 0)
        || p.numkeys.as_ref().is_some_and(|n| has_params(n, 0))
        || p.items.iter().chain(&p.tail).any(|v| has_params(v, 0))
}

/// Replaces parameters by the call's arguments.
fn substitute(v: &Value, args: &[Value], depth: usize) -> Value {
    if depth > 32 {
        return Value::unknown(v.describe(), v.span());
    }
    match v {
        Value::Param { index, name, span } => match args.get(*index) {
            Some(a) => a.clone(),
            None => Value::unknown(name.clone(), *span),
        },
        Value::Str(t) => Value::Str(Template {
            segs: t
                .segs
                .iter()
                .map(|s| match s {
                    Seg::Value(inner) => match substitute(inner, args, depth + 1) {
                        Value::Str(t2) if t2.segs.len() == 1 => {
                            t2.segs.into_iter().next().unwrap_or(Seg::Hole {
                                label: String::new(),
                                span: t.span,
                            })
                        }
                        other => Seg::Value(Box::new(other)),
                    },
                    other => other.clone(),
                })
                .collect(),
            span: t.span,
        }),
        Value::List { items, tail, span } => Value::List {
            items: items
                .iter()
                .map(|x| substitute(x, args, depth + 1))
                .collect(),
            tail: tail
                .iter()
                .map(|x| substitute(x, args, depth + 1))
                .collect(),
            span: *span,
        },
        Value::Map { pairs, span } => Value::Map {
            pairs: pairs
                .iter()
                .map(|(a, b)| {
                    (
                        substitute(a, args, depth + 1),
                        substitute(b, args, depth + 1),
                    )
                })
                .collect(),
            span: *span,
        },
        Value::Call {
            path,
            args: cargs,
            span,
        } => Value::Call {
            path: path.clone(),
            args: cargs
                .iter()
                .map(|x| substitute(x, args, depth + 1))
                .collect(),
            span: *span,
        },
        other => other.clone(),
    }
}

fn bind(p: &Proto, args: &[Value], span: Span, file: FileId) -> Proto {
    Proto {
        script: substitute(&p.script, args, 0),
        numkeys: p.numkeys.as_ref().map(|n| substitute(n, args, 0)),
        items: p.items.iter().map(|v| substitute(v, args, 0)).collect(),
        tail: p.tail.iter().map(|v| substitute(v, args, 0)).collect(),
        open: p.open,
        keys_only: p.keys_only,
        span,
        origin: p.origin,
        file,
        speaker: p.speaker,
    }
}

/// Functions by (speaker, name, arity): (file, index, module).
pub(super) type FnIndex<'a> = HashMap<(SpeakerId, &'a str, usize), Vec<(FileId, usize, &'a str)>>;

pub(super) fn index_functions<'a>(input: &'a LinkInput<'a>) -> FnIndex<'a> {
    let mut out: FnIndex<'a> = HashMap::new();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        for (i, f) in facts.functions.iter().enumerate() {
            // A call may leave out the parameters that have defaults.
            let least = f.params.len().saturating_sub(f.defaults);
            for arity in least..=f.params.len() {
                out.entry((sp, f.name.as_str(), arity)).or_default().push((
                    *file,
                    i,
                    f.module.as_str(),
                ));
            }
        }
    }
    out
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

fn direct_protos(
    file: FileId,
    speaker: SpeakerId,
    facts: &FileFacts,
    sent: &super::sends::Sent,
) -> Vec<(Option<usize>, Proto)> {
    let mut out = Vec::new();
    for (_, c) in facts
        .commands
        .iter()
        .enumerate()
        .filter(|(i, _)| sent.keeps(file, *i))
    {
        if !matches!(
            c.name.as_str(),
            "EVAL" | "EVALSHA" | "EVAL_RO" | "EVALSHA_RO"
        ) {
            continue;
        }
        let Some(script) = c.args.first() else {
            continue;
        };
        out.push((
            c.func,
            Proto {
                script: script.clone(),
                numkeys: c.args.get(1).cloned(),
                items: c.args.get(2..).map(<[Value]>::to_vec).unwrap_or_default(),
                tail: c.tail.clone(),
                open: c.open_tail,
                keys_only: false,
                span: c.span,
                origin: c.span,
                file,
                speaker,
            },
        ));
    }
    for sc in &facts.script_calls {
        out.push((
            sc.func,
            Proto {
                script: sc.script.clone(),
                numkeys: sc.numkeys.clone(),
                items: sc.keys.clone(),
                tail: sc.keys_from.iter().cloned().collect(),
                open: sc.open_keys,
                keys_only: true,
                span: sc.span,
                origin: sc.span,
                file,
                speaker,
            },
        ));
    }
    out
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
    /// Wrappers with at least one caller that binds them.
    called: HashSet<(FileId, usize)>,
}

impl Binding {
    /// The call sites each file states itself.
    fn start(input: &LinkInput<'_>, sent: &super::sends::Sent) -> Binding {
        let mut b = Binding::default();
        for (file, facts) in input.facts {
            let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
                continue;
            };
            for (func, p) in direct_protos(*file, sp, facts, sent) {
                match func {
                    Some(f) if proto_has_params(&p) => {
                        b.summaries.entry((*file, f)).or_default().push(p)
                    }
                    _ => b.finals.push(p),
                }
            }
        }
        b.seen_finals = b.finals.iter().map(|p| (p.span, p.origin)).collect();
        b
    }

    /// One round: every call of a summarized function binds its arguments
    /// into the summary. Returns whether a summary grew.
    fn round(&mut self, input: &LinkInput<'_>, fns: &FnIndex<'_>) -> bool {
        let mut changed = false;
        for (file, facts) in input.facts {
            let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
                continue;
            };
            for call in &facts.calls {
                for target in targets(fns, sp, &call.path, call.args.len(), *file) {
                    let Some(protos) = self.summaries.get(&target).cloned() else {
                        continue;
                    };
                    self.called.insert(target);
                    for p in protos {
                        let q = bind(&p, &call.args, call.span, *file);
                        changed |= self.take(q, call.func.map(|f| (*file, f)));
                    }
                }
            }
        }
        changed
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
    fn call_sites(mut self) -> Vec<(Proto, bool)> {
        let called = &self.called;
        let mut unbound: Vec<(Proto, bool)> = std::mem::take(&mut self.summaries)
            .into_iter()
            .flat_map(|(key, list)| {
                let bound = called.contains(&key);
                list.into_iter().map(move |p| (p, bound))
            })
            .collect();
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
pub(super) fn link_calls(
    resolver: &Resolver<'_>,
    input: &LinkInput<'_>,
    model: &Model,
    script_at: &HashMap<(FileId, usize), ScriptId>,
    sent: &super::sends::Sent,
) -> (Vec<ScriptCallUse>, Vec<UnlinkedCall>) {
    let fns = index_functions(input);
    let mut binding = Binding::start(input, sent);
    for _ in 0..MAX_ROUNDS {
        if !binding.round(input, &fns) {
            break;
        }
    }
    let mut out = Vec::new();
    let mut unlinked = Vec::new();
    for (p, in_wrapper) in binding.call_sites() {
        // Parameters no call binds stay unknown (holes).
        match identify(&p.script, p.speaker, p.file, model, script_at, 0) {
            Some(script) => {
                let mut u = use_of(resolver, p, script);
                u.in_wrapper = in_wrapper;
                out.push(u);
            }
            None if !in_wrapper => unlinked.push(UnlinkedCall {
                speaker: p.speaker,
                span: p.span,
                reason: unidentified(&p.script),
            }),
            None => {}
        }
    }
    out.sort_by_key(|u| (u.span.file, u.span.start, u.span.end, u.script));
    unlinked.sort_by_key(|u| (u.span.file, u.span.start, u.span.end));
    unlinked.dedup();
    (out, unlinked)
}

/// Flattens visible items and appended collections; `false` when a part
/// cannot be seen.
fn flatten(items: &[Value], tail: &[Value], open: bool) -> (Vec<Value>, bool) {
    let mut out = items.to_vec();
    let mut complete = true;
    let mut queue: Vec<Value> = tail.to_vec();
    queue.reverse();
    let mut steps = 0;
    while let Some(v) = queue.pop() {
        steps += 1;
        if steps > 64 {
            complete = false;
            break;
        }
        match v {
            Value::List { items, tail, .. } => {
                out.extend(items);
                for t in tail.into_iter().rev() {
                    queue.push(t);
                }
            }
            _ => {
                complete = false;
                break;
            }
        }
    }
    if open && tail.is_empty() {
        complete = false;
    }
    (out, complete)
}

fn literal_count(v: &Value) -> Option<(u32, Span)> {
    match v {
        Value::Int { value, span } => u32::try_from(*value).ok().map(|n| (n, *span)),
        Value::Str(t) => {
            let s = t.as_literal()?;
            let n = s.trim().parse::<u32>().ok()?;
            Some((n, t.segs.first().map(|x| x.span()).unwrap_or(t.span)))
        }
        _ => None,
    }
}

fn use_of(resolver: &Resolver<'_>, p: Proto, script: ScriptId) -> ScriptCallUse {
    let (flat, complete) = flatten(&p.items, &p.tail, p.open);
    let cx = Ctx {
        speaker: p.speaker,
        module: String::new(),
        file: p.file,
    };
    let arg = |v: &Value| Arg {
        value: v.clone(),
        alts: resolver.templates(v, &cx),
    };
    let numkeys = match &p.numkeys {
        None if p.keys_only => NumKeys::FromKeys,
        None => NumKeys::Unknown,
        Some(v) => match literal_count(v) {
            Some((n, span)) => NumKeys::Literal(n, span),
            None => match v {
                Value::Call { path, args, .. }
                    if matches!(
                        path.last().map(String::as_str),
                        Some("length" | "len" | "count" | "size")
                    ) =>
                {
                    match args.first() {
                        Some(Value::List { items, tail, span }) => {
                            let (l, c) = flatten(items, tail, false);
                            if c {
                                NumKeys::Counted(l.len() as u32, *span)
                            } else {
                                NumKeys::FromKeys
                            }
                        }
                        _ => NumKeys::FromKeys,
                    }
                }
                _ => NumKeys::Unknown,
            },
        },
    };
    let (keys, keys_complete, args) = if p.keys_only {
        (flat.iter().map(arg).collect(), complete, Vec::new())
    } else {
        match &numkeys {
            NumKeys::Literal(n, _) | NumKeys::Counted(n, _) if flat.len() >= *n as usize => {
                let n = *n as usize;
                (
                    flat[..n].iter().map(arg).collect(),
                    true,
                    flat[n..].to_vec(),
                )
            }
            _ => (flat.iter().map(arg).collect(), false, Vec::new()),
        }
    };
    ScriptCallUse {
        in_wrapper: false,
        script,
        speaker: p.speaker,
        span: p.span,
        numkeys,
        keys,
        keys_complete,
        args,
    }
}
