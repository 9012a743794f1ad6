//! A command's name the file's own definitions give: `redis::cmd(x)` where
//! `x` is a field its type's constructor sets (`Values::new().name`,
//! `self.name`), a method of the type's `impl` returning one, a function's
//! `match` arm chosen by a literal, or a map filled in a constructor and
//! looked up by a literal key. The extractor needs the name itself (the
//! link reads commands by name), and the definitions may come later in the
//! file, so such a command is kept pending and named once the whole file
//! is walked, from the facts it gave: the `.f` definitions of each type
//! (`structs.rs`), the functions' returns and clauses. A name that does not
//! come to one literal leaves no command: nothing is guessed.

use crate::facts::{may_run, FunctionDef, Op, Seg, Span, Template, Value, RECEIVER};

use super::Cx;

/// Definitions followed from one name, at most.
const MAX_DEPTH: usize = 12;

/// A command whose name is a value to reduce after the walk.
pub(super) struct Pending {
    command: usize,
    value: Value,
    /// The type `Self` is where the command is made.
    self_type: Option<String>,
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// A command named by a value the file's definitions may give: kept
    /// with an empty name until [`Cx::settle_names`]. `None` for a value
    /// no definition gives (a parameter, a literal, a hole).
    pub(super) fn defer_name(&mut self, v: Value, span: Span) -> Option<usize> {
        let followable = match &v {
            Value::Call { .. } | Value::Op { .. } | Value::Const { .. } => true,
            Value::Param { index, name, .. } => *index == RECEIVER && name != "self",
            _ => false,
        };
        if !followable {
            return None;
        }
        let command = self.new_command("", v.span(), span);
        self.pending_names.push(Pending {
            command,
            value: v,
            self_type: self.self_type.clone(),
        });
        Some(command)
    }

    /// Names each pending command from what its value comes to; drops the
    /// commands whose value comes to no one literal.
    pub(super) fn settle_names(&mut self) {
        let pending = std::mem::take(&mut self.pending_names);
        let mut drop = Vec::new();
        for p in pending {
            let found = literal(reduce(
                &self.facts.functions,
                &self.facts.consts,
                &p.value,
                p.self_type.as_deref(),
                0,
            ));
            match (found, self.facts.commands.get_mut(p.command)) {
                (Some((name, span)), Some(c)) => {
                    c.name = name.to_ascii_uppercase();
                    c.name_span = span;
                }
                _ => drop.push(p.command),
            }
        }
        drop.sort_unstable();
        for i in drop.into_iter().rev() {
            if i < self.facts.commands.len() {
                self.facts.commands.remove(i);
            }
        }
    }
}

/// The literal a value is, with the span of its text.
fn literal(v: Option<Value>) -> Option<(String, Span)> {
    match v? {
        Value::Str(t) => {
            let span = t.segs.first().map(Seg::span).unwrap_or(t.span);
            Some((t.as_literal()?, span))
        }
        _ => None,
    }
}

/// The last segment of a module path: a method's module ends in its type.
fn type_of(module: &str) -> &str {
    module.rsplit("::").next().unwrap_or(module)
}

/// What a value comes to through the file's definitions, when every way
/// gives the same literal string or map; `None` otherwise.
fn reduce(
    fns: &[FunctionDef],
    consts: &[crate::facts::ConstDef],
    v: &Value,
    ty: Option<&str>,
    depth: usize,
) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let d = depth + 1;
    match v {
        Value::Str(t) => t.as_literal().is_some().then(|| v.clone()),
        Value::Map { .. } => Some(v.clone()),
        Value::Param {
            index: RECEIVER,
            name,
            ..
        } if name != "self" => field(fns, consts, name, ty, d),
        Value::Const { path, .. } => {
            let name = path.last()?;
            agree(
                consts
                    .iter()
                    .filter(|c| c.name == *name)
                    .map(|c| reduce(fns, consts, &c.value, None, d)),
            )
        }
        Value::OneOf { alts, .. } => agree(alts.iter().map(|a| reduce(fns, consts, a, ty, d))),
        Value::Op { op, args, .. } => match (op, args.as_slice()) {
            (Op::Field(f), [base]) if !f.is_empty() => {
                let base_ty = type_named(base, ty);
                field(fns, consts, f, base_ty.as_deref(), d)
            }
            (Op::Lookup, [coll, key]) => {
                let key = reduce(fns, consts, key, ty, d)?.as_str()?;
                let Value::Map { pairs, .. } = reduce(fns, consts, coll, ty, d)? else {
                    return None;
                };
                let (_, x) = pairs
                    .iter()
                    .find(|(k, _)| k.as_str().as_deref() == Some(key.as_str()))?;
                reduce(fns, consts, x, ty, d)
            }
            _ => None,
        },
        Value::Call { path, args, .. } => call(fns, consts, path, args, ty, d),
        _ => None,
    }
}

/// The one value every item gives; `None` when one gives none or two
/// differ.
fn agree(mut each: impl Iterator<Item = Option<Value>>) -> Option<Value> {
    let first = each.next()??;
    for x in each.take(64) {
        if !same(&x?, &first) {
            return None;
        }
    }
    Some(first)
}

fn same(a: &Value, b: &Value) -> bool {
    match (a.as_str(), b.as_str()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// The type a value is made of, when its constructor names it
/// (`Values::new()`, `Self::new()`), or `Self` for the receiver.
fn type_named(base: &Value, ty: Option<&str>) -> Option<String> {
    match base {
        Value::Call { path, .. } if path.len() >= 2 => {
            let t = &path[path.len() - 2];
            if t == "Self" {
                ty.map(str::to_string)
            } else {
                Some(t.clone())
            }
        }
        Value::Param {
            index: RECEIVER,
            name,
            ..
        } if name == "self" => ty.map(str::to_string),
        _ => None,
    }
}

/// The field `f` of type `ty` (of any type of the file when not known):
/// what its constructors set.
fn field(
    fns: &[FunctionDef],
    consts: &[crate::facts::ConstDef],
    f: &str,
    ty: Option<&str>,
    d: usize,
) -> Option<Value> {
    let name = format!(".{f}");
    agree(
        consts
            .iter()
            .filter(|c| c.name == name && ty.is_none_or(|t| type_of(&c.module) == t))
            .map(|c| reduce(fns, consts, &c.value, Some(type_of(&c.module)), d)),
    )
}

/// A call of a function or method of the file: the clauses it runs, the
/// arguments in place of the parameters.
fn call(
    fns: &[FunctionDef],
    consts: &[crate::facts::ConstDef],
    path: &[String],
    args: &[Value],
    ty: Option<&str>,
    d: usize,
) -> Option<Value> {
    let name = path.last()?;
    let qualifier = path.len().checked_sub(2).map(|i| path[i].as_str());
    let owner = match qualifier {
        Some("Self") => ty,
        other => other,
    };
    let args: Vec<Value> = args
        .iter()
        .map(|a| reduce(fns, consts, a, ty, d).unwrap_or_else(|| a.clone()))
        .collect();
    let cands: Vec<&FunctionDef> = fns
        .iter()
        .filter(|f| f.name == *name && f.params.len() == args.len())
        .filter(|f| owner.is_none_or(|o| type_of(&f.module) == o))
        .collect();
    let chosen = may_run(cands, |f| *f, &args);
    agree(chosen.into_iter().map(|f| {
        let ret = bind(&f.returns, &args, 0);
        reduce(fns, consts, &ret, Some(type_of(&f.module)), d)
    }))
}

/// A clause's value with the call's arguments in place of its parameters.
fn bind(v: &Value, args: &[Value], depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return v.clone();
    }
    let d = depth + 1;
    match v {
        Value::Param { index, .. } if *index != RECEIVER => {
            args.get(*index).cloned().unwrap_or_else(|| v.clone())
        }
        Value::Call { args: a, .. } | Value::Op { args: a, .. } => {
            v.with_args(a.iter().map(|x| bind(x, args, d)).collect())
        }
        Value::OneOf { alts, span } => Value::OneOf {
            alts: alts.iter().map(|x| bind(x, args, d)).collect(),
            span: *span,
        },
        Value::Str(t) if t.segs.iter().any(|s| matches!(s, Seg::Value(_))) => {
            let segs = t
                .segs
                .iter()
                .map(|s| match s {
                    Seg::Value(x) => Seg::Value(Box::new(bind(x, args, d))),
                    other => other.clone(),
                })
                .collect();
            Value::Str(Template { segs, span: t.span })
        }
        other => other.clone(),
    }
}
