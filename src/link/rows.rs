//! Fields read from the map a whole-hash read filled (`HGETALL`), joined
//! across functions: a field taken from a parameter is a read of what the
//! function's callers pass there, and one taken from what a call returned
//! a read of what that function returns (the value-flow core follows it).
//! A caller that passes the reply of an `HGETALL`
//! ([`hash_reply`](crate::facts::hash_reply)), or a function that returns
//! one, makes it a read of that key; a caller that passes its own
//! parameter on makes it a read of what its own callers pass, to a bounded
//! depth. Anything else (a value the code does not show came from a hash)
//! reads nothing.

use crate::hash::{HashMap, HashSet};

use super::calls::{targets, FnIndex};
use super::flow::{follow, follow_returned, At};
use super::{literal_span, Ctx, FieldReadUse, LinkInput, Model, Resolver, SpeakerId};
use crate::facts::{hash_reply_parts, CallFact, FieldRead, FileFacts, FileId, Span, Value};

/// Callers followed up from a parameter, at most.
const MAX_DEPTH: usize = 8;
/// Replies one read may come to, at most.
const MAX_SOURCES: usize = 16;
/// Arguments followed for one parameter, at most (a call among them may
/// come to no reply).
const MAX_ARGS: usize = 64;

/// A field read of `key` (read by `command`, where it is not `HGETALL`
/// itself), the key written in `key_cx`'s file and the read in `r`'s.
pub(super) fn push_read(
    resolver: &Resolver<'_>,
    model: &mut Model,
    r: &FieldRead,
    (key, command): (&Value, Option<&Value>),
    key_cx: &Ctx,
    read_cx: &Ctx,
) {
    // The command a definition names: a read of what `HGETALL` read.
    let hgetall = |v: &Value| match resolver.templates(v, key_cx).as_slice() {
        [t] => t
            .as_literal()
            .is_some_and(|n| n.eq_ignore_ascii_case("HGETALL")),
        _ => false,
    };
    if command.is_some_and(|v| !hgetall(v)) {
        return;
    }
    let field = match r.field.as_str() {
        Some(field) => Some((field, r.span)),
        // A constant or a call: the one literal it comes to, where that
        // literal is written.
        None => match resolver.templates(&r.field, read_cx).as_slice() {
            [t] => t.as_literal().map(|s| (s, literal_span(t))),
            _ => None,
        },
    };
    if let Some((field, span)) = field {
        model.field_reads.push(FieldReadUse {
            key: resolver.templates(key, key_cx),
            field,
            span,
            speaker: read_cx.speaker,
        });
    }
}

/// A function: its file and index.
type Func = (FileId, usize);

/// The calls that may run each function whose parameter a field is read
/// from, and the functions that pass a parameter of their own on.
struct Callers<'a> {
    of: HashMap<Func, Vec<(FileId, &'a CallFact)>>,
}

impl<'a> Callers<'a> {
    /// The calls of the functions `wanted` names, and to a fixpoint of
    /// the functions that pass their own parameter to one of them.
    fn find(input: &'a LinkInput<'_>, fns: &FnIndex<'_>, wanted: HashSet<Func>) -> Callers<'a> {
        let facts: HashMap<FileId, &FileFacts> =
            input.facts.iter().map(|(f, x)| (*f, x.as_ref())).collect();
        let name = |(file, f): Func| facts.get(&file)?.functions.get(f).map(|d| d.name.as_str());
        let mut names: HashSet<&str> = wanted.iter().filter_map(|f| name(*f)).collect();
        let mut want = wanted;
        let mut of: HashMap<Func, Vec<(FileId, &'a CallFact)>> = HashMap::default();
        let mut done: HashSet<(FileId, usize)> = HashSet::default();
        for _ in 0..=MAX_DEPTH {
            let mut more = Vec::new();
            for (file, ff) in input.facts {
                let Some(sp) = speaker(input, *file) else {
                    continue;
                };
                for (ci, call) in ff.calls.iter().enumerate() {
                    let Some(last) = call.path.last() else {
                        continue;
                    };
                    if !names.contains(last.as_str()) || done.contains(&(*file, ci)) {
                        continue;
                    }
                    let found = targets(fns, sp, &call.path, call.args.len(), *file);
                    if !found.iter().any(|t| want.contains(t)) {
                        continue;
                    }
                    done.insert((*file, ci));
                    let in_test = ff.test_regions.iter().any(|t| call.span.inside(*t));
                    for t in found.into_iter().filter(|t| want.contains(t)) {
                        if !in_test {
                            of.entry(t).or_default().push((*file, call));
                        }
                    }
                    let forwards = call.args.iter().any(|a| matches!(a, Value::Param { .. }));
                    if let (Some(f), true, false) = (call.func, forwards, in_test) {
                        more.push((*file, f));
                    }
                }
            }
            more.retain(|f| !want.contains(f));
            if more.is_empty() {
                break;
            }
            names.extend(more.iter().filter_map(|f| name(*f)));
            want.extend(more);
        }
        Callers { of }
    }

    /// The values parameter `index` of `func` may hold that may be
    /// replies: each caller's argument, with the file and the function the
    /// call is in (a reply, or a call whose result may be one).
    fn replies(&self, func: Func, index: usize) -> Vec<(FileId, Option<usize>, &'a Value)> {
        let mut out = Vec::new();
        let mut seen: HashSet<(Func, usize)> = HashSet::default();
        let mut stack = vec![(func, index, 0usize)];
        while let Some((func, index, depth)) = stack.pop() {
            if depth > MAX_DEPTH || out.len() >= MAX_ARGS || !seen.insert((func, index)) {
                continue;
            }
            for (file, call) in self.of.get(&func).into_iter().flatten() {
                match call.args.get(index) {
                    Some(Value::Param { index: j, .. }) => {
                        if let Some(f) = call.func {
                            stack.push(((*file, f), *j, depth + 1));
                        }
                    }
                    Some(v @ (Value::Call { .. } | Value::Op { .. })) => {
                        out.push((*file, call.func, v))
                    }
                    _ => {}
                }
            }
        }
        out.truncate(MAX_ARGS);
        out
    }
}

fn speaker(input: &LinkInput<'_>, file: FileId) -> Option<SpeakerId> {
    input.file_speaker.get(file as usize).copied().flatten()
}

/// The field reads of a parameter: a read of each `HGETALL` reply the
/// function's callers pass there (directly, or through parameters of
/// their own).
pub(super) fn link_param_reads(
    resolver: &Resolver<'_>,
    input: &LinkInput<'_>,
    model: &mut Model,
    fns: &FnIndex<'_>,
) {
    let mut reads = Vec::new();
    for (file, facts) in input.facts {
        for r in &facts.field_reads {
            match (&r.row, r.func) {
                (Some(Value::Param { index, .. }), Some(f)) => reads.push((*file, f, *index, r)),
                (Some(v @ (Value::Call { .. } | Value::Op { .. })), _) => {
                    returned_reads(resolver, input, model, *file, facts, r, v)
                }
                _ => {}
            }
        }
    }
    if reads.is_empty() {
        return;
    }
    let wanted = reads.iter().map(|(file, f, _, _)| (*file, *f)).collect();
    let callers = Callers::find(input, fns, wanted);
    let facts: HashMap<FileId, &FileFacts> =
        input.facts.iter().map(|(f, x)| (*f, x.as_ref())).collect();
    for (file, f, index, r) in reads {
        let Some(sp) = speaker(input, file) else {
            continue;
        };
        let read_cx = Ctx {
            speaker: sp,
            module: "",
            file,
        };
        let mut seen: HashSet<Span> = HashSet::default();
        for (kf, func, arg) in callers.replies((file, f), index) {
            // A reply, or what the call it is the result of returns (a
            // function returns its value).
            let leaves = match hash_reply_parts(arg) {
                Some(_) => vec![(kf, arg.clone())],
                None => {
                    let module = func
                        .and_then(|f| facts.get(&kf)?.functions.get(f))
                        .map_or("", |d| d.module.as_str());
                    let at = At {
                        speaker: sp,
                        file: kf,
                        module,
                        this: None,
                    };
                    replies(resolver, arg, at)
                }
            };
            for (lf, leaf) in &leaves {
                let Some((command, key)) = hash_reply_parts(leaf) else {
                    continue;
                };
                if seen.len() >= MAX_SOURCES || !seen.insert(key.span()) {
                    continue;
                }
                let key_cx = Ctx {
                    speaker: sp,
                    module: "",
                    file: *lf,
                };
                push_read(resolver, model, r, (key, Some(command)), &key_cx, &read_cx);
            }
        }
    }
}

/// A field read of what a call returned: a read of each `HGETALL` reply
/// the value-flow core follows the call to.
fn returned_reads(
    resolver: &Resolver<'_>,
    input: &LinkInput<'_>,
    model: &mut Model,
    file: FileId,
    facts: &FileFacts,
    r: &FieldRead,
    call: &Value,
) {
    let Some(sp) = speaker(input, file) else {
        return;
    };
    let module = r
        .func
        .and_then(|f| facts.functions.get(f))
        .map_or("", |d| d.module.as_str());
    let at = At {
        speaker: sp,
        file,
        module,
        this: None,
    };
    let read_cx = Ctx {
        speaker: sp,
        module: "",
        file,
    };
    for (kf, leaf) in replies(resolver, call, at) {
        if let Some((command, key)) = hash_reply_parts(&leaf) {
            let key_cx = Ctx {
                speaker: sp,
                module: "",
                file: kf,
            };
            push_read(resolver, model, r, (key, Some(command)), &key_cx, &read_cx);
        }
    }
}

/// Definitions of one method name followed, at most.
const MAX_METHODS: usize = 8;

/// What `v` comes to through the value-flow core; where it stays a call
/// by a bare name that no one definition answers (`queue.backend.
/// getJobData(id)`, a method of a type the code does not show, several
/// types defining it), what each definition of that name returns, as the
/// call runs whichever the value has: a reply any of them returns may be
/// what the caller gets.
fn replies(resolver: &Resolver<'_>, v: &Value, at: At<'_>) -> Vec<(FileId, Value)> {
    let mut out = follow(resolver, v, at);
    let mut more = Vec::new();
    for (_, leaf) in &out {
        let Value::Call { path, args, .. } = leaf else {
            continue;
        };
        let [name] = path.as_slice() else {
            continue;
        };
        if name.starts_with(['.', '#']) {
            continue;
        }
        for (file, def) in resolver.defs_named(at.speaker, name, args.len(), MAX_METHODS) {
            more.extend(
                follow_returned(resolver, *file, def, args, at)
                    .into_iter()
                    .filter(|(_, x)| hash_reply_parts(x).is_some()),
            );
        }
    }
    out.extend(more);
    out
}
