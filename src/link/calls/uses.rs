//! A bound call site made a use of its script: the key count it runs
//! with, the keys and the args it passes, each resolved to the strings it
//! may send.

use super::{NumKeys, Proto, ScriptCallUse};
use crate::facts::{FileId, Op, Span, Template, Value};
use crate::hash::HashMap;
use crate::link::identify::{identify, Lookup};
use crate::link::lists::{flatten, literal_count};
use crate::link::{Arg, Ctx, Resolver, ScriptId, SpeakerId};
use std::sync::Arc;

/// `{body, count} = Scripts.get(:drop)` then `["EVAL", body, count | ..]`:
/// numkeys is the count the same script is registered with; where the
/// code does not show its registration (a loader registers every file of
/// a folder), the count its file name gives (`name-N.lua`), which is what
/// such loaders register.
pub(super) fn registered_count(
    p: &Proto,
    script: ScriptId,
    lk: &Lookup<'_>,
) -> Option<(u32, Span)> {
    let Some(Value::Op {
        op: Op::Field(_),
        args,
        ..
    }) = &p.numkeys
    else {
        return None;
    };
    let [entry] = args.as_slice() else {
        return None;
    };
    let same = identify(entry, p.speaker, p.file, lk, 0) == Some(script);
    let s = &lk.model.scripts[script];
    same.then(|| s.registration.or(s.file_count)).flatten()
}

/// The key values of one speaker's call sites, resolved: a key expression
/// in a wrapper is bound into every call of it and resolves the same from
/// the same file each time (BullMQ's call sites: 6,750 keys, 1,073 of them
/// distinct by file and value).
#[derive(Default)]
pub(super) struct KeyMemo(HashMap<(FileId, Box<str>), KnownKeys>);

/// The strings each value may send, as one file and module resolve them.
type KnownKeys = HashMap<Value, Arc<[Template]>>;

impl KeyMemo {
    /// `v`, passed from `cx`'s file and module, with the strings it may
    /// send.
    fn arg(&mut self, resolver: &Resolver<'_>, v: Value, cx: &Ctx) -> Arg {
        let known = self.0.entry((cx.file, Box::from(cx.module))).or_default();
        let alts = match known.get(&v) {
            Some(alts) => alts.clone(),
            None => {
                let alts: Arc<[Template]> = resolver.templates(&v, cx).into();
                known.insert(v.clone(), alts.clone());
                alts
            }
        };
        Arg { value: v, alts }
    }
}

pub(super) fn use_of(
    resolver: &Resolver<'_>,
    p: &Proto,
    script: ScriptId,
    registered: Option<(u32, Span)>,
    memo: &mut KeyMemo,
) -> ScriptCallUse {
    // The tail as written, unless a part of it is a call that returns a
    // list (then it is copied once, with that list in the call's place).
    let returned: Vec<Option<Value>> = p
        .tail
        .iter()
        .map(|v| returned_list(resolver, p, v))
        .collect();
    let tail: std::borrow::Cow<'_, [Value]> = if returned.iter().all(Option::is_none) {
        std::borrow::Cow::Borrowed(&p.tail)
    } else {
        p.tail
            .iter()
            .zip(returned)
            .map(|(v, r)| r.unwrap_or_else(|| v.clone()))
            .collect()
    };
    let shifted = count_from_tail(p, &tail);
    let (p, tail) = match &shifted {
        Some(q) => (q, std::borrow::Cow::Borrowed(&q.tail[..])),
        None => (p, tail),
    };
    let (mut flat, complete) = flatten(&p.items, &tail, p.open);
    let cx = Ctx {
        speaker: p.speaker,
        module: p.module.as_deref().unwrap_or(""),
        file: p.file,
    };
    // Each key is flattened out of the site once and moved into its `Arg`.
    let arg = |v: Value| memo.arg(resolver, v, &cx);
    let numkeys = numkeys_of(p, registered);
    let split_by_parts = !matches!(numkeys, NumKeys::Literal(..) | NumKeys::Counted(..))
        && p.items.is_empty()
        && tail.len() >= 2;
    let (keys, keys_complete, args, args_complete): (Vec<Arg>, bool, Vec<Value>, bool) =
        if p.keys_only {
            let argv = argv_of(resolver, p);
            (
                flat.into_iter().map(arg).collect(),
                complete,
                argv.0,
                argv.1,
            )
        } else if split_by_parts {
            // `numkeys | keys ++ args`, or a loop over the keys then one over
            // the args, with numkeys the script's own count: the first part
            // appended after numkeys is the keys.
            let (keys, complete) = flatten(&[], &tail[..1], false);
            let (args, args_complete) = flatten(&[], &tail[1..], false);
            (
                keys.into_iter().map(arg).collect(),
                complete,
                args,
                args_complete,
            )
        } else {
            match &numkeys {
                NumKeys::Literal(n, _) | NumKeys::Counted(n, _) if flat.len() >= *n as usize => {
                    let args = flat.split_off(*n as usize);
                    (flat.into_iter().map(arg).collect(), true, args, complete)
                }
                _ => (
                    flat.into_iter().map(arg).collect(),
                    false,
                    Vec::new(),
                    false,
                ),
            }
        };
    ScriptCallUse {
        in_wrapper: false,
        echo: false,
        depth: p.depth,
        site: p.site,
        script,
        speaker: p.speaker,
        span: p.span,
        numkeys,
        keys: keys.into(),
        keys_complete,
        argv: crate::link::argv::resolve(resolver, &args, p.speaker, p.span.file).into(),
        args: args.into(),
        args_complete,
    }
}

/// A script invocation's args: those listed, else the one list the
/// collection they come from follows to (`argv: params[:argv]`, the map
/// bound from a caller).
fn argv_of(resolver: &Resolver<'_>, p: &Proto) -> (Vec<Value>, bool) {
    let from = p
        .argv_from
        .as_ref()
        .filter(|_| p.argv.is_empty() && p.argv_open);
    let list = from.and_then(|v| match v {
        Value::List { .. } => Some(v.clone()),
        _ => returned_list(resolver, p, v),
    });
    match list {
        Some(list) => flatten(&[], &[list], false),
        None => crate::link::argv::flat_args(&p.argv, p.argv_open),
    }
}

/// `["EVALSHA", sha | arguments]` with `arguments` bound to `[2, k1, k2,
/// v]`: a command list sends its items in order, so where nothing is
/// written between the script and an appended collection, numkeys is that
/// collection's first item and the keys and args follow it. `None` when
/// the command writes numkeys, or the collection shows no first item.
fn count_from_tail(p: &Proto, tail: &[Value]) -> Option<Proto> {
    if p.keys_only || p.numkeys.is_some() || !p.items.is_empty() || tail.is_empty() {
        return None;
    }
    let (flat, complete) = flatten(&[], tail, p.open);
    let (numkeys, items) = flat.split_first()?;
    Some(Proto {
        numkeys: Some(numkeys.clone()),
        items: items.to_vec(),
        tail: Vec::new(),
        open: !complete,
        ..p.clone()
    })
}

/// A collection a function of the code base returns (`self.getKeys([..])`
/// returning `list(map(f, keys))`), or a map's entry (`params[:keys]`,
/// the map bound from a caller), followed to the one list it comes to.
fn returned_list(resolver: &Resolver<'_>, p: &Proto, v: &Value) -> Option<Value> {
    let (Value::Call { .. }
    | Value::Op {
        op: Op::Lookup | Op::Field(_),
        ..
    }) = v
    else {
        return None;
    };
    let at = crate::link::flow::At {
        speaker: p.speaker,
        file: p.file,
        module: "",
        this: None,
    };
    match crate::link::flow::follow(resolver, v, at).as_slice() {
        [(_, list @ Value::List { .. })] => Some(list.clone()),
        [(_, mapped @ Value::Op { op: Op::Mapped, .. })] => Some(mapped.clone()),
        _ => None,
    }
}

/// How numkeys is given at a call site.
fn numkeys_of(p: &Proto, registered: Option<(u32, Span)>) -> NumKeys {
    // Keys and args appended as separate parts say where the keys end
    // better than a count that travels with the script.
    let parts = !p.keys_only && p.items.is_empty() && p.tail.len() >= 2;
    match &p.numkeys {
        _ if registered.is_some() && !parts => registered
            .map(|(n, span)| NumKeys::Literal(n, span))
            .unwrap_or(NumKeys::Unknown),
        None if p.keys_only => NumKeys::FromKeys,
        None => NumKeys::Unknown,
        Some(v) => match literal_count(v) {
            Some((n, span)) => NumKeys::Literal(n, span),
            None => match v {
                Value::Call { args, .. } | Value::Op { args, .. }
                    if matches!(
                        v.callee_name().as_deref(),
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
    }
}

/// One use per call site, script and what it passes: a wrapper that
/// reaches Redis by two commands of the same script (an EVALSHA and its
/// EVAL fallback) binds each of its callers twice, and the two uses are
/// the same call on the wire, to be listed, counted and checked once (the
/// first is kept).
pub(super) fn drop_twins(uses: &mut Vec<ScriptCallUse>) {
    let mut kept: HashMap<(Span, ScriptId, SpeakerId), Vec<usize>> = HashMap::default();
    let mut keep = Vec::with_capacity(uses.len());
    for (i, u) in uses.iter().enumerate() {
        let at = kept.entry((u.span, u.script, u.speaker)).or_default();
        let twin = at.iter().any(|&j| same_use(&uses[j], u));
        if !twin {
            at.push(i);
        }
        keep.push(!twin);
    }
    let mut keep = keep.into_iter();
    uses.retain(|_| keep.next().unwrap_or(true));
}

/// Whether two uses at one place hold the same: everything a use holds
/// (the command it came from is not kept), its echo mark aside (made
/// after).
fn same_use(a: &ScriptCallUse, b: &ScriptCallUse) -> bool {
    let same_args = |x: &Arc<[Arg]>, y: &Arc<[Arg]>| {
        Arc::ptr_eq(x, y)
            || (x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| p.value == q.value && p.alts == q.alts))
    };
    a.numkeys == b.numkeys
        && a.keys_complete == b.keys_complete
        && a.args_complete == b.args_complete
        && a.in_wrapper == b.in_wrapper
        && a.depth == b.depth
        && a.site == b.site
        && same_args(&a.keys, &b.keys)
        && (Arc::ptr_eq(&a.args, &b.args) || a.args == b.args)
        && same_args(&a.argv, &b.argv)
}

/// Marks the uses that repeat a use fewer wrappers away: the same script,
/// numkeys and keys (by where each key is written).
pub(super) fn mark_echoes(uses: &mut [ScriptCallUse]) {
    type Sig = (ScriptId, String, Vec<Span>, bool);
    let sig = |u: &ScriptCallUse| -> Sig {
        (
            u.script,
            format!("{:?}", u.numkeys),
            u.keys.iter().map(|k| k.value.span()).collect(),
            u.keys_complete,
        )
    };
    let mut nearest: HashMap<Sig, u8> = HashMap::default();
    for u in uses.iter().filter(|u| !u.keys.is_empty()) {
        let d = nearest.entry(sig(u)).or_insert(u.depth);
        *d = (*d).min(u.depth);
    }
    for u in uses.iter_mut().filter(|u| !u.keys.is_empty()) {
        u.echo = nearest.get(&sig(u)).is_some_and(|d| *d < u.depth);
    }
}
