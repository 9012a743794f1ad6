//! The value-flow core: where a value comes from, followed through the
//! definitions of the code base, whatever language wrote them.
//!
//! An extractor states what each definition holds, as language-neutral
//! facts; this module follows them:
//!
//! - a constant (`ConstDef`) holds its value: a `const`, a `static`, a lazy
//!   cell, a module attribute;
//! - a call of a function of the code base evaluates to that function's
//!   `FunctionDef::returns`, its parameters bound to the call's arguments
//!   (every clause the call may pick, across modules and files);
//! - a record is a [`Value::Map`] from field names to values (a struct
//!   literal, an Elixir map), and a projection (`Op::Field(f)` of `base`)
//!   is its field `f`;
//! - a field a type's constructors set is a definition named `.f` in the
//!   type's module (a `ConstDef` per struct literal that sets it), so
//!   `self.f` in a method of `T`, or `.f` of a value whose record the code
//!   does not show, is what `T`'s constructors put there; where that
//!   definition holds the constructor's parameters and call facts `[T,
//!   NEW]` show `T`'s constructions, it is what each passes;
//! - a closure (`Op::Closure` of its body) is a value, and a call of a
//!   value (`Op::Apply(m..)`) the body of each closure it comes to,
//!   its arguments in place of the closure's parameters; else the method
//!   `m` of the type whose call made the record the callee is a field of,
//!   or `m` as named;
//! - the reply of a command the extractor could not read the words of
//!   (`Op::Reply` of the list) is, for `SCRIPT LOAD body`, the SHA1 of
//!   `body`;
//! - the decoding of a value (`Op::Decode` of `[format, v]`, Lua's
//!   `cmsgpack.unpack(ARGV[1])` with a caller's value in place) is, where
//!   `v` comes to an encoding in the same format (`Op::Encode`), the
//!   value encoded: a list as the table its decoding is, whose key `k`
//!   holds its `k`-th item, so a lookup of `k` in it is that item.
//!
//! Each operation is one arm of [`operation`]'s match on [`Op`]; one whose
//! arguments are not as its variant says stands as a library's call does.
//!
//! What it gives back are the values the start may be, each with the file
//! it is written in; the caller reads them (a script, a SHA, a template).
//! Every step is bounded: [`MAX_DEPTH`] definitions deep, [`MAX_LEAVES`]
//! values wide. A value that leads nowhere is given back as it stands, so
//! the caller can still say why it names nothing.

mod texts;

use super::substitute::{substituted, Args};
use super::{Ctx, Resolver, SpeakerId};
use crate::facts::{
    closure_body, decoded, may_run, serial_of, ConstDef, FileId, FunctionDef, Op, Span, Value,
    RECEIVER,
};
use texts::{literal_text, read};

/// Definitions followed from one value, at most.
pub(super) const MAX_DEPTH: usize = 8;
/// Values one start may come to, at most.
const MAX_LEAVES: usize = 8;
/// Clauses or definitions followed per step, at most.
const MAX_FANOUT: usize = 8;

/// Where a value is written: the speaker, the file and the module whose
/// names it uses.
#[derive(Clone, Copy)]
pub(super) struct At<'m> {
    pub speaker: SpeakerId,
    pub file: FileId,
    pub module: &'m str,
    /// The class of the receiver, where a method of one of its bases is
    /// followed (`self.name` in a base's method is the subclass's field).
    pub this: Option<&'m str>,
}

impl At<'_> {
    fn cx(&self) -> Ctx<'_> {
        Ctx {
            speaker: self.speaker,
            module: self.module,
            file: self.file,
        }
    }
}

/// The values `v` may be, followed through definitions, each with the file
/// it is written in. A value no definition explains is its own answer.
pub(super) fn follow(r: &Resolver<'_>, v: &Value, at: At<'_>) -> Vec<(FileId, Value)> {
    let mut out = Vec::new();
    step(r, v, at, 0, &mut out);
    out
}

fn leaf(out: &mut Vec<(FileId, Value)>, file: FileId, v: Value) {
    if out.len() < MAX_LEAVES && !out.iter().any(|(f, x)| *f == file && *x == v) {
        out.push((file, v));
    }
}

/// The last segment of a module path: a method's module ends in its type.
fn type_of(module: &str) -> Option<&str> {
    let t = module.rsplit(['.', ':']).next()?;
    (!t.is_empty()).then_some(t)
}

/// A field of a type, as a reference its constructors' definitions answer.
fn field_ref(ty: Option<&str>, field: &str, span: crate::facts::Span) -> Value {
    let mut path: Vec<String> = ty.map(str::to_string).into_iter().collect();
    path.push(format!(".{field}"));
    Value::Const { path, span }
}

/// `self.name` in a method: the field as the nearest class of the
/// receiver's lineage that sets it sets it, followed with the receiver's
/// class kept (the receiver is the subclass a base's method runs on, where
/// one is being followed); else the field of the method's own type.
fn receiver_field(
    r: &Resolver<'_>,
    name: &str,
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let own = type_of(at.module);
    let this = match (at.this, own) {
        (Some(t), Some(o)) if r.classes.lineage(at.speaker, t).contains(&o) => Some(t),
        _ => own,
    };
    let Some(this) = this else {
        return step(r, &field_ref(own, name, span), at, depth + 1, out);
    };
    for class in r.classes.lineage(at.speaker, this) {
        let f = field_ref(Some(class), name, span);
        let Value::Const { path, .. } = &f else {
            continue;
        };
        let sets = r.const_full(path, &at.cx());
        if sets.is_some_and(|(_, def)| type_of(&def.module) == Some(class)) {
            let at = At {
                this: Some(this),
                ..at
            };
            return step(r, &f, at, depth + 1, out);
        }
    }
    step(r, &field_ref(own, name, span), at, depth + 1, out)
}

fn step(r: &Resolver<'_>, v: &Value, at: At<'_>, depth: usize, out: &mut Vec<(FileId, Value)>) {
    if depth > MAX_DEPTH || out.len() >= MAX_LEAVES {
        return;
    }
    match v {
        // `self.f` in a method of `T`: the field `T`'s constructors set.
        Value::Param {
            index: RECEIVER,
            name,
            span,
        } if name != "self" => receiver_field(r, name, *span, at, depth, out),
        Value::Const { path, .. } => match r.const_full(path, &at.cx()) {
            // A constant that holds a value of its own (a literal, an
            // `include_str!` the code does not show) is that constant: its
            // name says what it is as much as its value.
            Some((_, def)) if is_literal(&def.value) => leaf(out, at.file, v.clone()),
            Some((_, def)) if constructed(r, def, at, depth, out) => {}
            Some((file, def)) => {
                let inner = At {
                    speaker: at.speaker,
                    file,
                    module: def.module.as_str(),
                    this: at.this,
                };
                step(r, &def.value, inner, depth + 1, out);
            }
            None => leaf(out, at.file, v.clone()),
        },
        Value::OneOf { alts, .. } => {
            for a in alts.iter().take(MAX_FANOUT) {
                step(r, a, at, depth + 1, out);
            }
        }
        Value::Op { op, args, span } => operation(r, v, op, args, *span, at, depth, out),
        Value::Call { path, args, .. } => call(r, v, path, args, at, depth, out),
        other => leaf(out, at.file, other.clone()),
    }
}

/// What an operation of the value core comes to. One whose arguments are
/// not as its [`Op`] says stands as a library's call would
/// ([`foreign_call`]).
#[allow(clippy::too_many_arguments)]
fn operation(
    r: &Resolver<'_>,
    v: &Value,
    op: &Op,
    args: &[Value],
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    match (op, args) {
        (Op::Field(field), [of]) if !field.is_empty() => {
            project(r, field, of, span, at, depth, out)
        }
        (Op::Lookup, [coll, key]) => lookup(r, coll, key, span, at, depth, out),
        (Op::Decode, _) => decode(r, v, at, depth, out),
        (Op::Closure, [_, ..]) => leaf(out, at.file, v.clone()),
        (Op::Apply(method), [callee, rest @ ..]) if !method.is_empty() => {
            apply(r, method, callee, rest, span, at, depth, out)
        }
        (Op::Dispatch, [module, name, list]) => dispatch(r, v, module, name, list, at, depth, out),
        (Op::Reply, [command]) => reply(r, v, command, span, at, depth, out),
        (Op::Read, [path]) => read(r, v, path, span, at, depth, out),
        (
            Op::Field(_)
            | Op::Lookup
            | Op::Closure
            | Op::Apply(_)
            | Op::Dispatch
            | Op::Reply
            | Op::Sha1
            | Op::Encode
            | Op::Mapped
            | Op::Read,
            _,
        ) => foreign_call(r, v, at, depth, out),
    }
}

/// `of.field`: the value the record `of` comes to holds under the field;
/// a record the code does not show, the field as the one type that
/// defines it sets it.
fn project(
    r: &Resolver<'_>,
    field: &str,
    of: &Value,
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let mut bases = Vec::new();
    step(r, of, at, depth + 1, &mut bases);
    let before = out.len();
    for (file, base) in bases {
        let inner = At { file, ..at };
        match &base {
            Value::Map { pairs, .. } => {
                if let Some((_, x)) = pairs.iter().find(|(k, _)| names(k, field)) {
                    step(r, x, inner, depth + 1, out);
                }
            }
            _ => leaf(out, file, crate::facts::field(field, base, span)),
        }
    }
    let unexplained = |x: &Value| {
        matches!(
            x,
            Value::Op {
                op: Op::Field(_),
                ..
            }
        )
    };
    if out.len() == before || out[before..].iter().all(|(_, x)| unexplained(x)) {
        let f = field_ref(None, field, span);
        if r.const_full(&[format!(".{field}")], &at.cx()).is_some() {
            out.truncate(before);
            step(r, &f, at, depth + 1, out);
        }
    }
}

/// A field of a class that its constructor sets from its parameters
/// (`constructor(private prefix: string)`), where the code shows the
/// class's constructions (`new T(..)`): what each passes. False where the
/// field holds no parameter or no construction is known.
fn constructed(
    r: &Resolver<'_>,
    def: &ConstDef,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) -> bool {
    if !def.name.starts_with('.') || !def.value.holds_param() {
        return false;
    }
    let Some(class) = type_of(&def.module) else {
        return false;
    };
    let made = r.constructions(at.speaker, class);
    if made.is_empty() {
        return false;
    }
    for (file, module, args) in made.iter().take(MAX_FANOUT) {
        let bound = Args {
            args,
            receiver: None,
            keep_receiver: true,
        };
        let v = substituted(&def.value, bound, 0);
        let inner = At {
            speaker: at.speaker,
            file: *file,
            module,
            this: None,
        };
        step(r, &v, inner, depth + 1, out);
    }
    true
}

/// `callee(args..)`, a call of a value: the body of each closure the
/// callee comes to, the arguments in place of its parameters; where it
/// comes to none, the call of the method the rest of `path` names.
#[allow(clippy::too_many_arguments)]
fn apply(
    r: &Resolver<'_>,
    method: &[String],
    callee: &Value,
    args: &[Value],
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let mut fns = Vec::new();
    step(r, callee, at, depth + 1, &mut fns);
    let mut ran = false;
    for (file, f) in &fns {
        if let Some(body) = closure_body(f) {
            ran = true;
            let body = super::substitute::bind_closure(body, args);
            step(r, &body, At { file: *file, ..at }, depth + 1, out);
        }
    }
    if ran {
        return;
    }
    let call = Value::Call {
        path: typed_method(r, &fns, method, args.len(), at).unwrap_or_else(|| method.to_vec()),
        args: args.to_vec(),
        span,
    };
    step(r, &call, at, depth + 1, out);
}

/// The method a call of a value runs where the callee is the field `m` of
/// a value a call of `T` made (a class called to construct it: `self.scripts
/// = Scripts(..)`, then `self.scripts.toKey(t)`) and `T` defines `m`:
/// `[T, m]`. `callee` holds what the callee comes to.
pub(super) fn typed_method(
    r: &Resolver<'_>,
    callee: &[(FileId, Value)],
    method: &[String],
    arity: usize,
    at: At<'_>,
) -> Option<Vec<String>> {
    let m = method.last()?;
    callee.iter().find_map(|(_, leaf)| {
        let Value::Op {
            op: Op::Field(_),
            args,
            ..
        } = leaf
        else {
            return None;
        };
        let [base] = args.as_slice() else {
            return None;
        };
        let Value::Call { path: made, .. } = base else {
            return None;
        };
        let t = made.last().filter(|t| !t.starts_with(['.', '#']))?;
        let typed = vec![t.clone(), m.clone()];
        (!r.function_defs(&typed, arity, &at.cx()).is_empty()).then_some(typed)
    })
}

/// `apply(mod, fun, args)`: where `fun` comes to one name and `args` to a
/// list the code shows, what that function returns, run by every module
/// that defines it with as many parameters (at most [`MAX_FANOUT`]
/// definitions): the code does not show which module the value names (a
/// struct's, `%mod{} = backend`), so each may be the one. The module the
/// call is written in is not among them: it is the dispatcher, whose own
/// function of that name is what sent the call here. Where none is found,
/// the call comes back as it stands.
#[allow(clippy::too_many_arguments)]
fn dispatch(
    r: &Resolver<'_>,
    v: &Value,
    module: &Value,
    name: &Value,
    list: &Value,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let name = literal_text(r, name, at, depth);
    let (Some(name), Some(items)) = (name, list_items(list)) else {
        return leaf(out, at.file, v.clone());
    };
    // A method of the receiver's own (Ruby's `send(name)`), or of another
    // module than the one that dispatches (Elixir's `apply(mod, f, args)`
    // in a module that defines `f` itself).
    let on_self = matches!(module, Value::Param { index: RECEIVER, name, .. } if name == "self");
    let defs = r
        .defs_named(at.speaker, &name, items.len(), MAX_FANOUT)
        .iter()
        .filter(|(_, d)| match on_self {
            true => at.module.is_empty() || d.module == at.module,
            false => d.module != at.module,
        })
        .copied()
        .collect();
    let known = runs(r, defs, &items, at, depth);
    if known.is_empty() {
        return leaf(out, at.file, v.clone());
    }
    for (file, def) in known {
        returned(r, file, def, &items, at, depth, out);
    }
}

/// The items of a list the code shows whole: `[a | rest]` where `rest` is
/// a list literal too (an argument list a caller wrote out).
fn list_items(list: &Value) -> Option<Vec<Value>> {
    let Value::List { items, tail, .. } = list else {
        return None;
    };
    let mut all = items.clone();
    for t in tail {
        all.extend(list_items(t)?);
    }
    Some(all)
}

/// A call of a function of the code base: what the clauses it runs
/// return, the call's arguments in place of the parameters.
fn call(
    r: &Resolver<'_>,
    v: &Value,
    path: &[String],
    args: &[Value],
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let defs = r.function_defs(path, args.len(), &at.cx());
    let known = runs(r, defs, args, at, depth);
    if known.is_empty() {
        return foreign_call(r, v, at, depth, out);
    }
    for (file, def) in known {
        returned(r, file, def, args, at, depth, out);
    }
}

/// The clauses among `defs` that a call with `args` may run and whose
/// value the code shows (at most [`MAX_FANOUT`]).
fn runs<'d>(
    r: &Resolver<'_>,
    defs: Vec<(FileId, &'d FunctionDef)>,
    args: &[Value],
    at: At<'_>,
    depth: usize,
) -> Vec<(FileId, &'d FunctionDef)> {
    // Only a position some clause matches a pattern against is compared
    // (`may_run`): the others are passed as they are, unfollowed.
    let patterned = |i: usize| {
        defs.iter()
            .any(|(_, d)| d.patterns.get(i).is_some_and(Option::is_some))
    };
    let literal = literal_args(r, args, at, depth, patterned);
    may_run(defs, |(_, d)| *d, &literal)
        .into_iter()
        .filter(|(_, d)| !matches!(d.returns, Value::Unknown { .. }))
        .take(MAX_FANOUT)
        .collect()
}

/// What one definition returns when called with `args` from `at`,
/// followed: a call the caller chose the definition of itself (`link::rows`
/// runs each definition of a method name).
pub(super) fn follow_returned(
    r: &Resolver<'_>,
    file: FileId,
    def: &FunctionDef,
    args: &[Value],
    at: At<'_>,
) -> Vec<(FileId, Value)> {
    let mut out = Vec::new();
    returned(r, file, def, args, at, 0, &mut out);
    out
}

/// What one clause returns, the call's arguments in place of its
/// parameters.
fn returned(
    r: &Resolver<'_>,
    file: FileId,
    def: &FunctionDef,
    args: &[Value],
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let args = with_defaults(args, def);
    let bound = Args {
        args: &args,
        receiver: None,
        keep_receiver: true,
    };
    let ret = substituted(&def.returns, bound, 0);
    let inner = At {
        speaker: at.speaker,
        file,
        module: def.module.as_str(),
        this: at.this,
    };
    step(r, &ret, inner, depth + 1, out);
}

/// A call's arguments, each parameter it leaves out (a trailing one with
/// a default, `opts \\ []`) bound to its default, or to a value the code
/// does not show where the definition does not say it.
fn with_defaults<'v>(args: &'v [Value], def: &FunctionDef) -> std::borrow::Cow<'v, [Value]> {
    if args.len() >= def.params.len() {
        return std::borrow::Cow::Borrowed(args);
    }
    let mut all = args.to_vec();
    for i in args.len()..def.params.len() {
        let default = def.default_values.get(i).cloned().flatten();
        all.push(default.unwrap_or_else(|| Value::unknown(&def.params[i], def.name_span)));
    }
    std::borrow::Cow::Owned(all)
}

/// The arguments of a call, each that comes to one literal through the
/// definitions (`script_for(lookup("tick"))`) as that literal: the clause
/// a call runs is chosen by the values it passes. Only the positions
/// `wanted` says are followed; where it says none, the arguments are
/// borrowed as they are.
fn literal_args<'a>(
    r: &Resolver<'_>,
    args: &'a [Value],
    at: At<'_>,
    depth: usize,
    wanted: impl Fn(usize) -> bool,
) -> std::borrow::Cow<'a, [Value]> {
    let follows = |i: usize, a: &Value| a.is_followed() && wanted(i);
    if !args.iter().enumerate().any(|(i, a)| follows(i, a)) {
        return std::borrow::Cow::Borrowed(args);
    }
    args.iter()
        .enumerate()
        .map(|(i, a)| {
            if !follows(i, a) {
                return a.clone();
            }
            let mut got = Vec::new();
            step(r, a, at, depth + 1, &mut got);
            match got.as_slice() {
                [(_, x)] if literal_key(x).is_some() => x.clone(),
                _ => a.clone(),
            }
        })
        .collect()
}

/// `coll[key]`: what the collection the code shows holds under the key,
/// when the key comes to one literal (a map filled with literal keys, as a
/// constructor or a `HashMap::from` fills it). A key the code does not
/// show, or a collection it does not, leaves the lookup as it stands; a
/// literal key the map does not hold gives nothing.
fn lookup(
    r: &Resolver<'_>,
    coll: &Value,
    key: &Value,
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let mut keys = Vec::new();
    step(r, key, at, depth + 1, &mut keys);
    let name = match keys.as_slice() {
        [(_, k)] => literal_key(k),
        _ => None,
    };
    let Some(name) = name else {
        return leaf(out, at.file, lookup_of(coll.clone(), key.clone(), span));
    };
    let mut bases = Vec::new();
    step(r, coll, at, depth + 1, &mut bases);
    for (file, base) in bases {
        let inner = At { file, ..at };
        match &base {
            Value::Map { pairs, .. } => {
                let hit = pairs
                    .iter()
                    .find(|(k, _)| literal_key(k).as_ref() == Some(&name));
                if let Some((_, x)) = hit {
                    step(r, x, inner, depth + 1, out);
                } else if pairs.iter().any(|(k, _)| literal_key(k).is_none()) {
                    leaf(out, file, lookup_of(base.clone(), keys[0].1.clone(), span));
                }
            }
            _ => leaf(out, file, lookup_of(base.clone(), keys[0].1.clone(), span)),
        }
    }
}

/// A key as a literal: a string, an atom's name, an integer's digits.
fn literal_key(k: &Value) -> Option<String> {
    match k {
        Value::Int { value, .. } => Some(value.to_string()),
        other => other.as_str(),
    }
}

fn lookup_of(coll: Value, key: Value, span: Span) -> Value {
    crate::facts::lookup(coll, key, span)
}

/// Redis's reply to a command the extractor could not read the words of:
/// `SCRIPT LOAD body`, its words followed to literals, replies the SHA1 of
/// `body`; any other command's reply stands as it is.
fn reply(
    r: &Resolver<'_>,
    v: &Value,
    command: &Value,
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    // A command list a function of the code base builds
    // (`script_command(["LOAD", body])`): the one list it comes to.
    let built;
    let command = match command {
        Value::Call { .. } => {
            let mut lists = Vec::new();
            step(r, command, at, depth + 1, &mut lists);
            let [(_, Value::List { items, tail, span })] = lists.as_slice() else {
                return leaf(out, at.file, v.clone());
            };
            let (items, tail) = super::lists::splice(items.clone(), tail.clone());
            built = Value::List {
                items,
                tail,
                span: *span,
            };
            &built
        }
        _ => command,
    };
    let Value::List { items, tail, .. } = command else {
        return leaf(out, at.file, v.clone());
    };
    let words = literal_args(r, items, at, depth, |_| true);
    let is = |i: usize, w: &str| {
        words
            .get(i)
            .and_then(Value::as_str)
            .is_some_and(|s| s.eq_ignore_ascii_case(w))
    };
    match items.get(2) {
        Some(body) if items.len() == 3 && tail.is_empty() && is(0, "SCRIPT") && is(1, "LOAD") => {
            leaf(out, at.file, crate::facts::sha1(body.clone(), span));
        }
        _ => leaf(out, at.file, v.clone()),
    }
}

/// The decoding of what a value comes to: where it is an encoding in the
/// same format, the value encoded (a list as the table its decoding is,
/// [`as_table`]); else the decoding of it, as it stands.
fn decode(r: &Resolver<'_>, v: &Value, at: At<'_>, depth: usize, out: &mut Vec<(FileId, Value)>) {
    let (Some((format, inner)), Value::Op { span, .. }) = (serial_of(&Op::Decode, v), v) else {
        return leaf(out, at.file, v.clone());
    };
    let mut sent = Vec::new();
    step(r, inner, at, depth + 1, &mut sent);
    for (file, e) in sent {
        match serial_of(&Op::Encode, &e) {
            Some((f, x)) if f == format => {
                let mut xs = Vec::new();
                step(r, x, At { file, ..at }, depth + 1, &mut xs);
                for (file, x) in xs {
                    leaf(out, file, as_table(x));
                }
            }
            _ => leaf(out, file, decoded(&format, e, *span)),
        }
    }
}

/// A list as a decoder gives it to Lua: a table whose key `k` holds the
/// list's `k`-th item. Items appended the code does not show make any
/// other key unknown (a pair of unknowns); other values stay as they are.
fn as_table(v: Value) -> Value {
    let Value::List { items, tail, span } = v else {
        return v;
    };
    let mut pairs: Vec<(Value, Value)> = items
        .into_iter()
        .zip(1i64..)
        .map(|(x, k)| {
            let at = x.span();
            (Value::Int { value: k, span: at }, x)
        })
        .collect();
    if !tail.is_empty() {
        pairs.push((Value::unknown("..", span), Value::unknown("..", span)));
    }
    Value::Map { pairs, span }
}

/// A call of a function the code base does not define (a library's:
/// `Script::new(enqueue_script())`): what it makes is made from its
/// arguments, so each argument is followed, and the call stands with what
/// each comes to. An argument that comes to several values, to none, or
/// to another call (whose receiver a method call's value does not keep:
/// `.unwrap_or(x)` is not `x`), stays as written. The leaf is in the file of the arguments followed
/// (all in one), else where the call is.
fn foreign_call(
    r: &Resolver<'_>,
    v: &Value,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let (Value::Call { args, .. } | Value::Op { args, .. }) = v else {
        return leaf(out, at.file, v.clone());
    };
    let mut files: Vec<FileId> = Vec::new();
    // The arguments that come to one other value, by position: only
    // those are replaced (the call is copied once, and only if any is).
    let mut swaps: Vec<(usize, Value)> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if !a.is_followed() {
            continue;
        }
        let mut got = Vec::new();
        step(r, a, at, depth + 1, &mut got);
        if got.len() != 1 {
            continue;
        }
        if let Some((f, x)) = got.pop().filter(|(_, x)| x != a && !x.is_computed()) {
            files.push(f);
            swaps.push((i, x));
        }
    }
    let Some(&first) = files.first() else {
        return leaf(out, at.file, v.clone());
    };
    let mut bound = args.to_vec();
    for (i, x) in swaps {
        if let Some(slot) = bound.get_mut(i) {
            *slot = x;
        }
    }
    let file = if files.iter().all(|f| *f == first) {
        first
    } else {
        at.file
    };
    leaf(out, file, v.with_args(bound));
}

/// Whether a value is a literal (or a value the code does not show): it
/// leads to no other definition.
fn is_literal(v: &Value) -> bool {
    matches!(
        v,
        Value::Str(_) | Value::Int { .. } | Value::Atom { .. } | Value::Unknown { .. }
    )
}

/// Whether a record's key names the field: `f`, `:f`, `"f"`, or a
/// tuple's position (`0` of `{:ok, reply}`, what `.0` takes).
fn names(k: &Value, field: &str) -> bool {
    literal_key(k).is_some_and(|s| s == field)
}
