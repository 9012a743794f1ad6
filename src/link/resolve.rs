//! Resolution of values within a speaker: a constant is its definition's
//! value, a call of a key builder is the builder's template with the call's
//! arguments in place (a multi-clause builder gives alternatives, at most
//! [`MAX_ALTS`]). Whatever cannot be resolved becomes a hole.

use std::collections::{BTreeSet, HashMap};

use super::{LinkInput, SpeakerId};
use crate::facts::{ConstDef, FileId, FunctionDef, Seg, Span, Template, Value};

/// Alternatives kept per value.
pub(crate) const MAX_ALTS: usize = 8;
const MAX_DEPTH: usize = 12;

type Alts = Vec<Vec<Seg>>;

pub(crate) struct Ctx {
    pub(crate) speaker: SpeakerId,
    pub(crate) module: String,
    pub(crate) file: FileId,
}

/// Definitions of one name in one speaker, with the file of each.
type Defs<'a, T> = Vec<(FileId, &'a T)>;

pub(crate) struct Resolver<'a> {
    consts: HashMap<(SpeakerId, &'a str), Defs<'a, ConstDef>>,
    functions: HashMap<(SpeakerId, &'a str, usize), Defs<'a, FunctionDef>>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(input: &'a LinkInput<'a>) -> Resolver<'a> {
        let mut consts: HashMap<_, Vec<_>> = HashMap::new();
        let mut functions: HashMap<_, Vec<_>> = HashMap::new();
        for (file, facts) in input.facts {
            let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
                continue;
            };
            for c in &facts.consts {
                consts
                    .entry((sp, c.name.as_str()))
                    .or_default()
                    .push((*file, c));
            }
            for f in &facts.functions {
                functions
                    .entry((sp, f.name.as_str(), f.params.len()))
                    .or_default()
                    .push((*file, f));
            }
        }
        Resolver { consts, functions }
    }

    /// Picks the definitions a reference means: the same module (or file)
    /// first, then the module named in the path, then a unique one.
    fn pick<'d, T>(
        cands: &'d [(FileId, &'a T)],
        module_of: impl Fn(&T) -> &str,
        path: &[String],
        cx: &Ctx,
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
            return same_module;
        }
        if let Some(q) = qualifier {
            let by_module: Vec<_> = cands
                .iter()
                .filter(|(_, d)| {
                    let m = module_of(d);
                    m.rsplit(['.', ':']).next() == Some(q) || m == q
                })
                .collect();
            if !by_module.is_empty() {
                return by_module;
            }
        }
        let same_file: Vec<_> = cands.iter().filter(|(f, _)| *f == cx.file).collect();
        if !same_file.is_empty() {
            return same_file;
        }
        // A unique definition (all clauses of one function in one module).
        let modules: BTreeSet<&str> = cands.iter().map(|(_, d)| module_of(d)).collect();
        if modules.len() == 1 {
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
            Value::Atom { name, span } => vec![vec![Seg::Lit {
                text: name.clone(),
                span: *span,
            }]],
            Value::Param { index, name, span } => match env.and_then(|e| e.get(*index)) {
                Some(a) => a.clone(),
                None => hole(name.clone(), *span),
            },
            Value::Const { path, span } => self.resolve_const(path, *span, cx, depth),
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
        let cands = self.consts.get(&(cx.speaker, path.last()?.as_str()))?;
        let picked = Self::pick(cands, |c: &ConstDef| c.module.as_str(), path, cx);
        picked.first().map(|(f, d)| (*f, &d.value))
    }

    /// A constant: its definition's value, resolved where it is defined.
    fn resolve_const(&self, path: &[String], span: Span, cx: &Ctx, depth: usize) -> Alts {
        let Some(name) = path.last() else {
            return hole(String::new(), span);
        };
        let Some(cands) = self.consts.get(&(cx.speaker, name.as_str())) else {
            return hole(path.join("::"), span);
        };
        let picked = Self::pick(cands, |c: &ConstDef| c.module.as_str(), path, cx);
        let Some((file, def)) = picked.first() else {
            return hole(path.join("::"), span);
        };
        let inner = Ctx {
            speaker: cx.speaker,
            module: def.module.clone(),
            file: *file,
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
        let label = format!("{}(…)", path.join("."));
        let Some(name) = path.last() else {
            return hole(label, span);
        };
        let Some(cands) = self.functions.get(&(cx.speaker, name.as_str(), args.len())) else {
            return hole(label, span);
        };
        let picked = Self::pick(cands, |f: &FunctionDef| f.module.as_str(), path, cx);
        if picked.is_empty() {
            return hole(label, span);
        }
        let arg_alts: Vec<Alts> = args
            .iter()
            .map(|a| self.resolve(a, cx, env, depth + 1))
            .collect();
        let mut out = Vec::new();
        for (file, def) in picked {
            let inner = Ctx {
                speaker: cx.speaker,
                module: def.module.clone(),
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

    pub(crate) fn templates(&self, v: &Value, cx: &Ctx) -> Vec<Template> {
        match v {
            Value::Str(_)
            | Value::Const { .. }
            | Value::Call { .. }
            | Value::Atom { .. }
            | Value::OneOf { .. }
            | Value::Int { .. } => self
                .resolve(v, cx, None, 0)
                .into_iter()
                .map(|segs| {
                    Template {
                        segs,
                        span: v.span(),
                    }
                    .normalized()
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn hole(label: String, span: Span) -> Alts {
    vec![vec![Seg::Hole { label, span }]]
}
