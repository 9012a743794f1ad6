//! The functions each call of a speaker means, and arguments passed by
//! name (Python's `run(name, keys=[k], args=[v])`): each binds the
//! callee's parameter of that name, so a call with them means the
//! functions whose parameters take every name it passes, and binds them
//! with its arguments in the callee's parameter order.

use std::borrow::Cow;

use super::index::FnIndex;
use super::targets;
use crate::facts::{CallFact, FileId, FunctionDef, Value};
use crate::hash::HashMap;
use crate::link::{LinkInput, SpeakerId};

/// How many parameters past the arguments a call passes a callee may have
/// (its defaults), at most, where the call passes some by name.
const MAX_GAP: usize = 8;

/// The functions each call of one speaker's files may mean, by file and
/// call, in the order of `LinkInput::facts` (none for the other speakers'
/// files): they do not change from one round of binding to the next.
pub(super) type CallTargets = Vec<Vec<Vec<(FileId, usize)>>>;

/// [`CallTargets`] of `speaker`.
pub(super) fn speaker_targets(
    input: &LinkInput<'_>,
    fns: &FnIndex<'_>,
    speaker: SpeakerId,
) -> CallTargets {
    let defs = std::cell::OnceCell::new();
    let def_of = |(file, f): (FileId, usize)| {
        let defs = defs.get_or_init(|| self::defs(input));
        defs.get(&file).and_then(|d| d.get(f))
    };
    input
        .facts
        .iter()
        .map(|(file, facts)| {
            if input.file_speaker.get(*file as usize).copied().flatten() != Some(speaker) {
                return Vec::new();
            }
            facts
                .calls
                .iter()
                .map(|call| call_targets(fns, speaker, call, *file, def_of))
                .collect()
        })
        .collect()
}

/// The functions `call` may mean: by its argument count where it passes
/// none by name; else by each count from the arguments it passes on,
/// the first at which some function takes every name, else by its
/// positional arguments alone (`def_of` gives a target's definition).
pub(super) fn call_targets<'a>(
    fns: &FnIndex<'_>,
    speaker: SpeakerId,
    call: &CallFact,
    file: FileId,
    def_of: impl Fn((FileId, usize)) -> Option<&'a FunctionDef>,
) -> Vec<(FileId, usize)> {
    let passed = call.args.len() + call.named.len();
    if call.named.is_empty() {
        return targets(fns, speaker, &call.path, passed, file);
    }
    for arity in passed..=passed + MAX_GAP {
        let found: Vec<(FileId, usize)> = targets(fns, speaker, &call.path, arity, file)
            .into_iter()
            .filter(|t| def_of(*t).is_some_and(|d| arranged(call, d).is_some()))
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    // No function takes the names: they are one map, passed in the next
    // position (Ruby's trailing options hash, Python's `**kwargs`), else
    // the call is as its positional arguments say.
    let gathered = targets(fns, speaker, &call.path, call.args.len() + 1, file);
    if !gathered.is_empty() {
        return gathered;
    }
    targets(fns, speaker, &call.path, call.args.len(), file)
}

/// `cached_eval(redis, script, sha, keys: [k], argv: [v])` to `def
/// cached_eval(redis, script, sha, params)`: the names no parameter takes,
/// as one map after the positional arguments, where the function has a
/// parameter there.
fn gathered<'c>(call: &'c CallFact, def: &FunctionDef) -> Cow<'c, [Value]> {
    if def.params.len() <= call.args.len() {
        return Cow::Borrowed(&call.args);
    }
    let pairs = call
        .named
        .iter()
        .map(|(name, v)| {
            let key = Value::Atom {
                name: name.clone(),
                span: v.span(),
            };
            (key, v.clone())
        })
        .collect();
    let mut all = call.args.clone();
    all.push(Value::Map {
        pairs,
        span: call.span,
    });
    Cow::Owned(all)
}

/// What `call` passes the function `target` ([`arranged`], or its
/// positional arguments where the names are none of its parameters); the
/// definitions are made once, at the first call that passes an argument
/// by name.
pub(super) fn passed<'c, 'a>(
    call: &'c CallFact,
    (file, f): (FileId, usize),
    defs: &std::cell::OnceCell<HashMap<FileId, &'a [FunctionDef]>>,
    input: &'a LinkInput<'_>,
) -> Option<Cow<'c, [Value]>> {
    if call.named.is_empty() {
        return Some(Cow::Borrowed(&call.args));
    }
    let def = defs.get_or_init(|| self::defs(input)).get(&file)?.get(f)?;
    Some(arranged(call, def).unwrap_or_else(|| gathered(call, def)))
}

/// The definitions of the functions of `input`'s files, by target.
pub(in crate::link) fn defs<'a>(input: &'a LinkInput<'_>) -> HashMap<FileId, &'a [FunctionDef]> {
    input
        .facts
        .iter()
        .map(|(file, facts)| (*file, facts.functions.as_slice()))
        .collect()
}

/// The arguments `call` passes `def`, in its parameter order: those
/// passed by position, then up to the last parameter one passed by name
/// binds, each as passed by name, else its default, else unknown. `None`
/// when a name is no parameter of `def` after those passed by position.
pub(super) fn arranged<'c>(call: &'c CallFact, def: &FunctionDef) -> Option<Cow<'c, [Value]>> {
    if call.named.is_empty() {
        return Some(Cow::Borrowed(&call.args));
    }
    let at = |name: &str| def.params.iter().position(|p| p == name);
    let mut last = None;
    for (name, _) in &call.named {
        let i = at(name).filter(|i| *i >= call.args.len())?;
        last = last.max(Some(i));
    }
    let mut all = call.args.clone();
    for i in call.args.len()..=last? {
        let param = &def.params[i];
        let named = call.named.iter().find(|(n, _)| n == param);
        let v = named
            .map(|(_, v)| v.clone())
            .or_else(|| def.default_values.get(i).cloned().flatten())
            .unwrap_or_else(|| Value::unknown(param, call.span));
        all.push(v);
    }
    Some(Cow::Owned(all))
}
