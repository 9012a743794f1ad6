//! Resolution of values within a speaker: a constant is its definition's
//! value, a call of a key builder is the builder's template with the call's
//! arguments in place (a multi-clause builder gives alternatives, at most
//! [`MAX_ALTS`]). Whatever cannot be resolved becomes a hole.

use crate::hash::HashMap;
use std::collections::BTreeSet;

use super::{Definers, LinkInput, SpeakerId};
use index::{DefIndex, INDEXED};

mod index;
use crate::facts::{ConstDef, FileId, FunctionDef, Import, Op, Seg, Span, Template, Value, NEW};

/// Alternatives kept per value.
pub(crate) const MAX_ALTS: usize = 8;
const MAX_DEPTH: usize = 12;

type Alts = Vec<Vec<Seg>>;

pub(crate) struct Ctx<'m> {
    pub(crate) speaker: SpeakerId,
    pub(crate) module: &'m str,
    pub(crate) file: FileId,
}

/// Definitions of one name in one speaker, with the file of each.
type Defs<'a, T> = Vec<(FileId, &'a T)>;

pub(crate) struct Resolver<'a> {
    /// By (speaker, importing module): the modules it imports.
    imports: HashMap<(SpeakerId, &'a str), Vec<&'a Import>>,
    /// By (speaker, file): the modules its modules import, for a reference
    /// whose module is not known.
    file_imports: HashMap<(SpeakerId, FileId), Vec<&'a Import>>,
    consts: HashMap<(SpeakerId, &'a str), Defs<'a, ConstDef>>,
    functions: HashMap<(SpeakerId, &'a str, usize), Defs<'a, FunctionDef>>,
    /// Indexes of the longer lists of `consts` and `functions`.
    const_index: HashMap<(SpeakerId, &'a str), DefIndex<'a>>,
    function_index: HashMap<(SpeakerId, &'a str, usize), DefIndex<'a>>,
    /// By speaker, then class: its constructions outside test code (`new
    /// T(..)`, a call fact whose path ends in [`NEW`]), each with its file
    /// and the module of the function it is written in.
    constructions: HashMap<SpeakerId, HashMap<&'a str, Vec<Construction<'a>>>>,
    definers: &'a Definers,
    /// The classes' bases.
    pub(crate) classes: super::classes::Classes<'a>,
}

/// A construction of a class: the file, the module it is written in and
/// its arguments.
pub(crate) type Construction<'a> = (FileId, &'a str, &'a [Value]);

impl<'a> Resolver<'a> {
    pub(crate) fn new(input: &'a LinkInput<'a>) -> Resolver<'a> {
        let mut consts: HashMap<_, Vec<_>> = HashMap::default();
        let mut functions: HashMap<_, Vec<_>> = HashMap::default();
        let mut imports: HashMap<_, Vec<_>> = HashMap::default();
        let mut file_imports: HashMap<_, Vec<_>> = HashMap::default();
        let mut constructions: HashMap<_, HashMap<_, Vec<_>>> = HashMap::default();
        for (file, facts) in input.facts {
            let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
                continue;
            };
            for i in &facts.imports {
                imports.entry((sp, i.module.as_str())).or_default().push(i);
                file_imports.entry((sp, *file)).or_default().push(i);
            }
            for c in &facts.consts {
                consts
                    .entry((sp, c.name.as_str()))
                    .or_default()
                    .push((*file, c));
            }
            for c in &facts.calls {
                // What a test constructs is not what the code runs with.
                let in_test = || facts.test_regions.iter().any(|t| c.span.inside(*t));
                if let [.., class, last] = c.path.as_slice() {
                    if last == NEW && !in_test() {
                        let module = c
                            .func
                            .and_then(|f| facts.functions.get(f))
                            .map_or("", |f| f.module.as_str());
                        constructions
                            .entry(sp)
                            .or_insert_with(HashMap::default)
                            .entry(class.as_str())
                            .or_default()
                            .push((*file, module, c.args.as_slice()));
                    }
                }
            }
            for f in &facts.functions {
                // A call may leave out the parameters that have defaults.
                let least = f.params.len().saturating_sub(f.defaults);
                for arity in least..=f.params.len() {
                    functions
                        .entry((sp, f.name.as_str(), arity))
                        .or_default()
                        .push((*file, f));
                }
            }
        }
        // A definition by a store function the code base lacks defines
        // nothing (the callee only reads through the pointer).
        for ((sp, _), defs) in consts.iter_mut() {
            defs.retain(|(_, c): &(FileId, &ConstDef)| {
                crate::facts::stored_by(&c.value)
                    .is_none_or(|(f, arity)| functions.contains_key(&(*sp, f, arity)))
            });
        }
        let const_index = consts
            .iter()
            .filter(|(_, d)| d.len() > INDEXED)
            .map(|(k, d)| (*k, DefIndex::of(d, |c: &'a ConstDef| c.module.as_str())))
            .collect();
        let function_index = functions
            .iter()
            .filter(|(_, d)| d.len() > INDEXED)
            .map(|(k, d)| (*k, DefIndex::of(d, |f: &'a FunctionDef| f.module.as_str())))
            .collect();
        Resolver {
            imports,
            file_imports,
            consts,
            functions,
            const_index,
            function_index,
            constructions,
            definers: input.definers,
            classes: super::classes::Classes::of(input),
        }
    }

    /// Whether a definition outside the referencing module, file,
    /// qualifier and imports may be picked for `path`: one file of the
    /// speaker defines its name, as the selection counted them.
    fn lone(&self, path: &[String], cx: &Ctx) -> bool {
        path.last()
            .is_none_or(|n| !self.definers.many(cx.speaker, n))
    }

    /// [`Resolver::pick`] through an index.
    fn pick_indexed<'d, T>(
        cands: &'d [(FileId, &'a T)],
        ix: &DefIndex<'_>,
        path: &[String],
        cx: &Ctx,
        lone: bool,
    ) -> Vec<&'d (FileId, &'a T)> {
        let at = |ids: &[usize]| ids.iter().map(|&i| &cands[i]).collect::<Vec<_>>();
        let qualifier: Option<&str> = if path.len() >= 2 {
            Some(path[path.len() - 2].as_str())
        } else {
            None
        };
        if let None | Some("self") | Some("Self") | Some("__MODULE__") = qualifier {
            let same_module: Vec<usize> = ix
                .by_module
                .get(cx.module)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&i| cands[i].0 == cx.file || !cx.module.is_empty())
                .collect();
            if !same_module.is_empty() {
                return at(&in_file_first(same_module, |i| cands[i].0, cx.file));
            }
        }
        if let Some(q) = qualifier {
            let mut ids: Vec<usize> = ix
                .by_last
                .get(q)
                .into_iter()
                .chain(ix.by_module.get(q))
                .flatten()
                .copied()
                .collect();
            ids.sort_unstable();
            ids.dedup();
            let ids = spelled_in_full(ids, path, |&i| ix.module_at[i]);
            if !ids.is_empty() {
                return at(&in_file_first(ids, |i| cands[i].0, cx.file));
            }
        }
        if let Some(ids) = ix.by_file.get(&cx.file) {
            return at(ids);
        }
        if ix.modules == 1 && lone {
            return cands.iter().collect();
        }
        Vec::new()
    }

    /// Picks the definitions a reference means: the same module (or file)
    /// first, then the module named in the path, then a unique one.
    fn pick<'d, T>(
        cands: &'d [(FileId, &'a T)],
        module_of: impl Fn(&T) -> &str,
        path: &[String],
        cx: &Ctx,
        lone: bool,
    ) -> Vec<&'d (FileId, &'a T)> {
        let qualifier: Option<&str> = if path.len() >= 2 {
            Some(path[path.len() - 2].as_str())
        } else {
            None
        };
        let same_module: Vec<_> = cands
            .iter()
            .filter(|(f, d)| match qualifier {
                None | Some("self") | Some("Self") | Some("__MODULE__") => {
                    module_of(d) == cx.module && (*f == cx.file || !cx.module.is_empty())
                }
                Some(_) => false,
            })
            .collect();
        if !same_module.is_empty() {
            return in_file_first(same_module, |c| c.0, cx.file);
        }
        if let Some(q) = qualifier {
            let by_module: Vec<_> = cands
                .iter()
                .filter(|(_, d)| {
                    let m = module_of(d);
                    m.rsplit(['.', ':']).next() == Some(q) || m == q
                })
                .collect();
            let by_module = spelled_in_full(by_module, path, |c| module_of(c.1));
            if !by_module.is_empty() {
                return in_file_first(by_module, |c| c.0, cx.file);
            }
        }
        let same_file: Vec<_> = cands.iter().filter(|(f, _)| *f == cx.file).collect();
        if !same_file.is_empty() {
            return same_file;
        }
        // A unique definition (all clauses of one function in one module).
        let modules: BTreeSet<&str> = cands.iter().map(|(_, d)| module_of(d)).collect();
        if modules.len() == 1 && lone {
            return cands.iter().collect();
        }
        Vec::new()
    }

    fn resolve(&self, v: &Value, cx: &Ctx, env: Option<&[Alts]>, depth: usize) -> Alts {
        if depth > MAX_DEPTH {
            return hole(v.describe(), v.span());
        }
        match v {
            Value::Str(t) => self.resolve_template(t, cx, env, depth),
            Value::Int { value, span } => vec![vec![Seg::Lit {
                text: value.to_string(),
                span: *span,
            }]],
            // Elixir's `nil` is no text: no bytes of a key (the client
            // refuses it), as Python's `None` and Lua's `nil` are not.
            Value::Atom { name, span } if name == "nil" => hole(name.clone(), *span),
            Value::Atom { name, span } => vec![vec![Seg::Lit {
                text: name.clone(),
                span: *span,
            }]],
            Value::Param { index, name, span } => match env.and_then(|e| e.get(*index)) {
                Some(a) => a.clone(),
                // `self.f` in a method: what the type's constructors set.
                None if *index == crate::facts::RECEIVER && name != "self" => {
                    self.resolve_followed(v, cx, depth)
                }
                None => hole(name.clone(), *span),
            },
            Value::Const { path, span } => self.resolve_const(path, *span, cx, depth),
            Value::Op { op, args, span } => self.resolve_op(v, op, args, *span, cx, env, depth),
            Value::Call { path, args, span } => {
                self.resolve_call(path, args, *span, cx, env, depth)
            }
            Value::OneOf { alts, .. } => {
                let mut out: Alts = Vec::new();
                for a in alts {
                    for r in self.resolve(a, cx, env, depth + 1) {
                        if out.len() < MAX_ALTS && !out.contains(&r) {
                            out.push(r);
                        }
                    }
                }
                out
            }
            other => hole(other.describe(), other.span()),
        }
    }

    /// A template's alternatives: each value inside it resolved, the
    /// combinations kept up to [`MAX_ALTS`].
    fn resolve_template(&self, t: &Template, cx: &Ctx, env: Option<&[Alts]>, depth: usize) -> Alts {
        let mut alts: Alts = vec![Vec::new()];
        for seg in &t.segs {
            match seg {
                Seg::Lit { .. } | Seg::Hole { .. } => {
                    for a in &mut alts {
                        a.push(seg.clone());
                    }
                }
                Seg::Value(inner) => {
                    let r = self.resolve(inner, cx, env, depth + 1);
                    if let [only] = r.as_slice() {
                        // One alternative: extended in place (a clone of
                        // every part so far for each value made a long
                        // concatenation quadratic).
                        for a in &mut alts {
                            a.extend(only.iter().cloned());
                        }
                        continue;
                    }
                    let mut next = Vec::new();
                    'outer: for a in &alts {
                        for b in &r {
                            if next.len() >= MAX_ALTS {
                                break 'outer;
                            }
                            let mut c = a.clone();
                            c.extend(b.iter().cloned());
                            next.push(c);
                        }
                    }
                    alts = next;
                }
            }
        }
        alts
    }

    /// The value a constant is defined as, with the file of the definition
    /// (the pick a reference from `cx` would make).
    pub(crate) fn const_def(&self, path: &[String], cx: &Ctx) -> Option<(FileId, &'a Value)> {
        self.const_full(path, cx).map(|(f, d)| (f, &d.value))
    }

    /// The definition a constant reference from `cx` picks, with its file.
    pub(crate) fn const_full(&self, path: &[String], cx: &Ctx) -> Option<(FileId, &'a ConstDef)> {
        self.const_picks(path, cx).into_iter().next()
    }

    /// The definitions a constant reference from `cx` may pick, the first
    /// picked first: a variable several calls store through a pointer to
    /// has one definition by each ([`crate::facts::stored_by`]).
    pub(crate) fn const_picks(&self, path: &[String], cx: &Ctx) -> Vec<(FileId, &'a ConstDef)> {
        let Some(last) = path.last() else {
            return Vec::new();
        };
        let key = (cx.speaker, last.as_str());
        let Some(cands) = self.consts.get(&key) else {
            return Vec::new();
        };
        let picked = match self.const_index.get(&key) {
            Some(ix) => Self::pick_indexed(cands, ix, path, cx, self.lone(path, cx)),
            None => Self::pick(
                cands,
                |c: &ConstDef| c.module.as_str(),
                path,
                cx,
                self.lone(path, cx),
            ),
        };
        picked.into_iter().map(|(f, d)| (*f, *d)).collect()
    }

    /// The constructions of the class `class` in `speaker`.
    pub(crate) fn constructions(&self, speaker: SpeakerId, class: &str) -> &[Construction<'a>] {
        self.constructions
            .get(&speaker)
            .and_then(|m| m.get(class))
            .map_or(&[], Vec::as_slice)
    }

    /// Every definition of the function `name` with `arity` parameters in
    /// `speaker`, whatever its module, when there are at most `max`: the
    /// methods a call on a value of a type the code does not show may run.
    pub(crate) fn defs_named<'s>(
        &'s self,
        speaker: SpeakerId,
        name: &'s str,
        arity: usize,
        max: usize,
    ) -> &'s [(FileId, &'a FunctionDef)] {
        // The map's keys borrow for `'a`; a shorter borrow reads them too.
        let functions: &'s HashMap<(SpeakerId, &'s str, usize), Defs<'a, FunctionDef>> =
            &self.functions;
        match functions.get(&(speaker, name, arity)) {
            Some(d) if d.len() <= max => d,
            _ => &[],
        }
    }

    /// The definitions a call from `cx` with `arity` arguments picks (every
    /// clause of the function), with their files.
    pub(crate) fn function_defs(
        &self,
        path: &[String],
        arity: usize,
        cx: &Ctx,
    ) -> Vec<(FileId, &'a FunctionDef)> {
        let Some(name) = path.last() else {
            return Vec::new();
        };
        let key = (cx.speaker, name.as_str(), arity);
        let Some(cands) = self.functions.get(&key) else {
            return Vec::new();
        };
        self.pick_function(&key, cands, path, cx)
            .into_iter()
            .map(|(f, d)| (*f, *d))
            .collect()
    }

    /// The clauses a call picks: as [`Resolver::pick`] does, then, for a
    /// bare name none answers, those of the one module the caller's module
    /// (or, where that is not known, a module of its file) imports that
    /// defines it.
    fn pick_function<'d>(
        &self,
        key: &(SpeakerId, &str, usize),
        cands: &'d [(FileId, &'a FunctionDef)],
        path: &[String],
        cx: &Ctx,
    ) -> Vec<&'d (FileId, &'a FunctionDef)> {
        let picked = match self.function_index.get(key) {
            Some(ix) => Self::pick_indexed(cands, ix, path, cx, self.lone(path, cx)),
            None => Self::pick(
                cands,
                |f: &FunctionDef| f.module.as_str(),
                path,
                cx,
                self.lone(path, cx),
            ),
        };
        let [name] = path else {
            return picked;
        };
        if !picked.is_empty() {
            return picked;
        }
        let imports = match cx.module {
            "" => self.file_imports.get(&(cx.speaker, cx.file)),
            m => self.imports.get(&(cx.speaker, m)),
        };
        let mut from: Vec<&str> = imports
            .into_iter()
            .flatten()
            .filter(|i| i.only.as_ref().is_none_or(|o| o.contains(name)))
            .map(|i| i.from.as_str())
            .filter(|m| cands.iter().any(|(_, d)| d.module == *m))
            .collect();
        from.sort_unstable();
        from.dedup();
        match from.as_slice() {
            [one] => cands.iter().filter(|(_, d)| d.module == *one).collect(),
            _ => picked,
        }
    }

    /// A constant: its definition's value, resolved where it is defined.
    fn resolve_const(&self, path: &[String], span: Span, cx: &Ctx, depth: usize) -> Alts {
        if path.is_empty() {
            return hole(String::new(), span);
        }
        let Some((file, def)) = self.const_full(path, cx) else {
            return hole(path.join("::"), span);
        };
        let inner = Ctx {
            speaker: cx.speaker,
            module: def.module.as_str(),
            file,
        };
        self.resolve(&def.value, &inner, None, depth + 1)
    }

    /// A call: what each definition picked returns, with the call's
    /// arguments in place of its parameters.
    fn resolve_call(
        &self,
        path: &[String],
        args: &[Value],
        span: Span,
        cx: &Ctx,
        env: Option<&[Alts]>,
        depth: usize,
    ) -> Alts {
        let label = || format!("{}(…)", path.join("."));
        let Some(name) = path.last() else {
            return hole(label(), span);
        };
        let key = (cx.speaker, name.as_str(), args.len());
        let Some(cands) = self.functions.get(&key) else {
            return hole(label(), span);
        };
        let picked = self.pick_function(&key, cands, path, cx);
        // A literal argument runs only the clauses whose patterns take it.
        let arg_alts: Vec<Alts> = args
            .iter()
            .map(|a| self.resolve(a, cx, env, depth + 1))
            .collect();
        // The clause runs by the values passed: an argument that is a call
        // or a constant coming to one literal string is that string.
        let literal: Vec<Value> = args
            .iter()
            .zip(&arg_alts)
            .map(|(a, alts)| match alts.as_slice() {
                [only] if a.is_followed() && only.iter().all(|s| matches!(s, Seg::Lit { .. })) => {
                    Value::Str(Template {
                        segs: only.clone(),
                        span: a.span(),
                    })
                }
                _ => a.clone(),
            })
            .collect();
        // (An Elixir atom resolves to its name as a string does: only the
        // arms of a Rust `match`, which take strings, are chosen so.)
        let by = if picked.iter().any(|c| c.1.ordered) {
            &literal
        } else {
            args
        };
        let picked = crate::facts::may_run(picked, |c| c.1, by);
        if picked.is_empty() {
            return hole(label(), span);
        }
        let mut out = Vec::new();
        for (file, def) in picked {
            let inner = Ctx {
                speaker: cx.speaker,
                module: def.module.as_str(),
                file: *file,
            };
            for alt in self.resolve(&def.returns, &inner, Some(&arg_alts), depth + 1) {
                if out.len() < MAX_ALTS && !out.contains(&alt) {
                    out.push(alt);
                }
            }
        }
        out
    }

    /// `callee(args..)`: where the callee comes to a closure, what the
    /// value-flow core follows the call to (the arguments the call binds to
    /// one literal in place); else the call of the method `method` names,
    /// or the one of the type a call made the callee's record
    /// (`flow::typed_method`).
    fn resolve_apply(
        &self,
        method: &[String],
        args: &[Value],
        span: Span,
        cx: &Ctx,
        env: Option<&[Alts]>,
        depth: usize,
    ) -> Alts {
        let Some((callee, rest)) = args.split_first() else {
            return hole(String::new(), span);
        };
        let at = super::flow::At {
            speaker: cx.speaker,
            file: cx.file,
            module: cx.module,
            this: None,
        };
        let fns = super::flow::follow(self, callee, at);
        let closures = fns
            .iter()
            .any(|(_, f)| crate::facts::closure_body(f).is_some());
        if closures {
            let args = args
                .iter()
                .map(|a| self.bound_literal(a, cx, env, depth))
                .collect();
            let v = crate::facts::op(Op::Apply(method.into()), args, span);
            return self.resolve_followed(&v, cx, depth);
        }
        match super::flow::typed_method(self, &fns, method, rest.len(), at) {
            Some(typed) => self.resolve_call(&typed, rest, span, cx, env, depth),
            None => self.resolve_call(method, rest, span, cx, env, depth),
        }
    }

    /// An operation of the value core: a call of a value as
    /// [`Self::resolve_apply`] runs it; a record's field, what the value-flow
    /// core follows it to; a lookup by key, the key as the call binds it,
    /// then what the value-flow core follows the collection to. The others
    /// are what no key is made of here: holes named by the operation.
    #[allow(clippy::too_many_arguments)]
    fn resolve_op(
        &self,
        v: &Value,
        op: &Op,
        args: &[Value],
        span: Span,
        cx: &Ctx,
        env: Option<&[Alts]>,
        depth: usize,
    ) -> Alts {
        match op {
            Op::Apply(method) if !method.is_empty() => {
                self.resolve_apply(method, args, span, cx, env, depth)
            }
            Op::Field(f) if !f.is_empty() => self.resolve_followed(v, cx, depth),
            Op::Lookup => {
                let args = args
                    .iter()
                    .map(|a| self.bound_literal(a, cx, env, depth))
                    .collect();
                self.resolve_followed(&v.with_args(args), cx, depth)
            }
            Op::Apply(_)
            | Op::Field(_)
            | Op::Closure
            | Op::Dispatch
            | Op::Sha1
            | Op::Reply
            | Op::Encode
            | Op::Decode
            | Op::Mapped
            | Op::Read => hole(format!("{}(…)", op.name()), span),
        }
    }

    /// A parameter the call binds to one literal, as that literal; any
    /// other value as it stands.
    fn bound_literal(&self, a: &Value, cx: &Ctx, env: Option<&[Alts]>, depth: usize) -> Value {
        if !matches!(a, Value::Param { index, .. } if *index != crate::facts::RECEIVER) {
            return a.clone();
        }
        match self.resolve(a, cx, env, depth + 1).as_slice() {
            [only] if only.iter().all(|s| matches!(s, Seg::Lit { .. })) => Value::Str(Template {
                segs: only.clone(),
                span: a.span(),
            }),
            _ => a.clone(),
        }
    }

    /// A value only the value-flow core explains (a record's field, a
    /// method's `self.f`): what it comes to, when every value it may be
    /// is one this resolver reads; else a hole.
    fn resolve_followed(&self, v: &Value, cx: &Ctx, depth: usize) -> Alts {
        let at = super::flow::At {
            speaker: cx.speaker,
            file: cx.file,
            module: cx.module,
            this: None,
        };
        let mut out: Alts = Vec::new();
        for (file, leaf) in super::flow::follow(self, v, at) {
            let readable = match &leaf {
                Value::Call { .. } => true,
                Value::Op { op, .. } => !matches!(op, Op::Field(_)),
                Value::Atom { name, .. } => name != "nil",
                Value::Str(_) | Value::Const { .. } | Value::Int { .. } => true,
                _ => false,
            };
            if !readable || leaf == *v {
                return hole(v.describe(), v.span());
            }
            let inner = Ctx {
                speaker: cx.speaker,
                module: "",
                file,
            };
            for alt in self.resolve(&leaf, &inner, None, depth + 1) {
                if out.len() < MAX_ALTS && !out.iter().any(|o| same_shape(o, &alt)) {
                    out.push(alt);
                }
            }
        }
        if out.is_empty() {
            return hole(v.describe(), v.span());
        }
        out
    }

    pub(crate) fn templates(&self, v: &Value, cx: &Ctx) -> Vec<Template> {
        let resolved = match v {
            Value::Str(_)
            | Value::Const { .. }
            | Value::Call { .. }
            | Value::Op { .. }
            | Value::Atom { .. }
            | Value::OneOf { .. }
            | Value::Int { .. } => true,
            // `self.key` in a method: what the type's constructors set.
            Value::Param { index, name, .. } => {
                *index == crate::facts::RECEIVER && name != "self" && !cx.module.is_empty()
            }
            _ => false,
        };
        if !resolved {
            return Vec::new();
        }
        self.resolve(v, cx, None, 0)
            .into_iter()
            .map(|segs| {
                Template {
                    segs,
                    span: v.span(),
                }
                .normalized()
            })
            .collect()
    }
}

/// Whether two alternatives a value may come to send the same bytes, holes
/// aside (two constructions each passing a prefix the code does not show):
/// the first stands for both.
fn same_shape(a: &[Seg], b: &[Seg]) -> bool {
    let shape = |segs: &[Seg]| {
        super::records::key_shape(&Template {
            segs: segs.to_vec(),
            span: Span::new(0, 0, 0),
        })
    };
    a == b || shape(a) == shape(b)
}

/// The definitions of `defs` written in `file`, when there are any: a
/// type or module of the same name in two files (a Rust type's module
/// path does not name its file) means the one beside the reference.
/// Of the definitions a qualified reference's last qualifier picks, those
/// in the module the whole qualifier spells (`A.B.Values.f` means
/// `A.B.Values`, not `A.C.Values`), when the reference spells two or more
/// segments and any definition sits there; else all of them.
fn spelled_in_full<'m, X>(
    defs: Vec<X>,
    path: &[String],
    module_of: impl Fn(&X) -> &'m str,
) -> Vec<X> {
    let qualifier = &path[..path.len().saturating_sub(1)];
    if qualifier.len() < 2 {
        return defs;
    }
    let spelled = |m: &str| {
        let segs: Vec<&str> = m.split(['.', ':']).filter(|s| !s.is_empty()).collect();
        segs.len() >= qualifier.len()
            && segs[segs.len() - qualifier.len()..]
                .iter()
                .zip(qualifier)
                .all(|(a, b)| *a == b)
    };
    if !defs.iter().any(|d| spelled(module_of(d))) {
        return defs;
    }
    defs.into_iter().filter(|d| spelled(module_of(d))).collect()
}

fn in_file_first<X: Copy>(defs: Vec<X>, file_of: impl Fn(X) -> FileId, file: FileId) -> Vec<X> {
    if defs.iter().any(|&d| file_of(d) == file) {
        defs.into_iter().filter(|&d| file_of(d) == file).collect()
    } else {
        defs
    }
}

fn hole(label: String, span: Span) -> Alts {
    vec![vec![Seg::Hole { label, span }]]
}

#[cfg(test)]
mod tests;
