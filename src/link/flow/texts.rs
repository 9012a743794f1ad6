//! Text the value core reads whole: a file read's path and a name a
//! dispatch calls, each part the code base gives one literal in place.

use super::{leaf, step, At, MAX_DEPTH};
use crate::facts::{FileId, Seg, Span, Template, Value};
use crate::link::Resolver;

/// A file read: its path with each part the code base gives one literal
/// text in place (a parameter a call binds, a field a subclass sets), and
/// the rest holes, written where the read is; the caller reads the path.
#[allow(clippy::too_many_arguments)]
pub(super) fn read(
    r: &Resolver<'_>,
    v: &Value,
    path: &Value,
    span: Span,
    at: At<'_>,
    depth: usize,
    out: &mut Vec<(FileId, Value)>,
) {
    let Value::Str(t) = path else {
        return leaf(out, at.file, v.clone());
    };
    let path = Value::Str(filled(r, t, at, depth));
    leaf(out, at.file, crate::facts::read(path, span));
}

/// A template with each part the code base gives one literal text in
/// place, and the rest holes.
fn filled(r: &Resolver<'_>, t: &Template, at: At<'_>, depth: usize) -> Template {
    let segs = t
        .segs
        .iter()
        .map(|s| match s {
            Seg::Value(x) => match literal_text(r, x, at, depth) {
                Some(text) => Seg::Lit {
                    text,
                    span: x.span(),
                },
                None => Seg::Hole {
                    label: x.describe(),
                    span: x.span(),
                },
            },
            lit_or_hole => lit_or_hole.clone(),
        })
        .collect();
    Template { segs, span: t.span }
}

/// The one literal text every value `x` comes to (a string, an atom's
/// name, a number), if there is one.
pub(super) fn literal_text(
    r: &Resolver<'_>,
    x: &Value,
    at: At<'_>,
    depth: usize,
) -> Option<String> {
    let mut xs = Vec::new();
    step(r, x, at, depth + 1, &mut xs);
    let text = |v: &Value| {
        // A constant holding a literal is given back as the constant.
        let v = match v {
            Value::Const { path, .. } => r.const_full(path, &at.cx()).map_or(v, |(_, d)| &d.value),
            v => v,
        };
        match v {
            Value::Int { value, .. } => Some(value.to_string()),
            Value::Str(t) if depth < MAX_DEPTH => filled(r, t, at, depth + 1).as_literal(),
            other => other.as_str(),
        }
    };
    let (first, rest) = xs.split_first()?;
    let first = text(&first.1)?;
    rest.iter()
        .all(|(_, v)| text(v).as_ref() == Some(&first))
        .then_some(first)
}
