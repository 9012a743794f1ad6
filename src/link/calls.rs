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

/// Links every script call site, through wrappers.
pub(super) fn link_calls(
    resolver: &Resolver<'_>,
    input: &LinkInput<'_>,
    model: &Model,
    script_at: &HashMap<(FileId, usize), ScriptId>,
    sent: &super::sends::Sent,
) -> Vec<ScriptCallUse> {
    let fns = index_functions(input);
    let mut summaries: HashMap<(FileId, usize), Vec<Proto>> = HashMap::new();
    let mut finals: Vec<Proto> = Vec::new();
    for (file, facts) in input.facts {
        let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
            continue;
        };
        for (func, p) in direct_protos(*file, sp, facts, sent) {
            match func {
                Some(f) if proto_has_params(&p) => summaries.entry((*file, f)).or_default().push(p),
                _ => finals.push(p),
            }
        }
    }
    let mut seen_finals: HashSet<(Span, Span)> =
        finals.iter().map(|p| (p.span, p.origin)).collect();
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for (file, facts) in input.facts {
            let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
                continue;
            };
            for call in &facts.calls {
                for target in targets(&fns, sp, &call.path, call.args.len(), *file) {
                    let Some(protos) = summaries.get(&target).cloned() else {
                        continue;
                    };
                    for p in protos {
                        let q = bind(&p, &call.args, call.span, *file);
                        match call.func {
                            Some(f) if proto_has_params(&q) => {
                                let list = summaries.entry((*file, f)).or_default();
                                if list.len() < MAX_SUMMARY
                                    && !list
                                        .iter()
                                        .any(|x| x.span == q.span && x.origin == q.origin)
                                {
                                    list.push(q);
                                    changed = true;
                                }
                            }
                            _ => {
                                if seen_finals.insert((q.span, q.origin)) {
                                    finals.push(q);
                                }
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // A wrapper is also a call site in its own right, its parameters
    // unknown: what it passes besides them is still checked.
    let mut unbound: Vec<Proto> = summaries.into_values().flatten().collect();
    unbound.sort_by_key(|p| (p.file, p.span.start, p.span.end));
    for p in unbound {
        if seen_finals.insert((p.span, p.origin)) {
            finals.push(p);
        }
    }
    let mut out = Vec::new();
    for p in finals {
        // Parameters no call binds stay unknown (holes).
        let Some(script) = identify(&p.script, p.speaker, p.file, model, script_at, 0) else {
            continue;
        };
        out.push(use_of(resolver, p, script));
    }
    out.sort_by_key(|u| (u.span.file, u.span.start, u.span.end, u.script));
    out
}

/// Which script a value names: an embedded body, a const or attribute
/// holding it (or its SHA), its name in any case convention, or its SHA1.
fn identify(
    v: &Value,
    speaker: SpeakerId,
    file: FileId,
    model: &Model,
    script_at: &HashMap<(FileId, usize), ScriptId>,
    depth: usize,
) -> Option<ScriptId> {
    if depth > 4 {
        return None;
    }
    let by_name = |name: &str| -> Option<ScriptId> {
        let norm = super::normalize_name(name);
        // A name that holds a script only in this file (a local, a generic
        // `@script`) names that definition here, and nothing elsewhere.
        let here = model
            .scripts
            .iter()
            .position(|s| s.local_names.contains(&(file, norm.clone())));
        if here.is_some() || !super::shares_identity(&norm, false) {
            return here;
        }
        let exact = model.scripts.iter().position(|s| {
            s.speaker == speaker
                && s.norm_names.contains(&norm)
                && s.names.iter().any(|n| n == name)
        });
        exact
            .or_else(|| {
                model
                    .scripts
                    .iter()
                    .position(|s| s.speaker == speaker && s.norm_names.contains(&norm))
            })
            // Then a shared `.lua` file, then any copy.
            .or_else(|| {
                model
                    .scripts
                    .iter()
                    .position(|s| s.is_file && s.norm_names.contains(&norm))
            })
            .or_else(|| {
                model
                    .scripts
                    .iter()
                    .position(|s| s.norm_names.contains(&norm))
            })
    };
    match v {
        Value::ScriptRef { index, .. } => script_at.get(&(file, *index)).copied(),
        Value::Const { path, .. } => by_name(path.last()?),
        Value::Atom { name, .. } => by_name(name),
        Value::Str(_) => {
            let s = v.as_str()?;
            if s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
                let lower = s.to_ascii_lowercase();
                return model
                    .scripts
                    .iter()
                    .position(|x| x.sha1.as_deref() == Some(lower.as_str()));
            }
            if s.len() > 64 || s.contains(char::is_whitespace) {
                return None;
            }
            by_name(&s)
        }
        Value::Call { args, .. } => args
            .iter()
            .find_map(|a| identify(a, speaker, file, model, script_at, depth + 1)),
        _ => None,
    }
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
        script,
        speaker: p.speaker,
        span: p.span,
        numkeys,
        keys,
        keys_complete,
        args,
    }
}
