//! Binding a wrapper's call site to one call of the wrapper: its
//! parameters replaced by the call's arguments (`super::calls`).

use std::borrow::Cow;

use crate::facts::{Seg, Span, Template, Value, CLOSURE_PARAM, RECEIVER};

/// A call's arguments, and its receiver when it is a method call.
#[derive(Clone, Copy)]
pub(super) struct Args<'a> {
    pub args: &'a [Value],
    pub receiver: Option<&'a Value>,
    /// Without a receiver, `self` and its fields stay parameters (what a
    /// method returns is followed in its own type, `flow.rs`).
    pub keep_receiver: bool,
}

/// Replaces parameters by the call's arguments (the receiver for
/// [`RECEIVER`]: `self.sha` becomes the value the method is called on). A
/// closure's own parameters ([`CLOSURE_PARAM`]) are not the call's.
pub(super) fn substitute(v: &Value, args: Args<'_>, depth: usize) -> Value {
    substituted(v, args, depth).into_owned()
}

/// [`substitute`], borrowing `v` where nothing in it changes.
pub(super) fn substituted<'v>(v: &'v Value, args: Args<'_>, depth: usize) -> Cow<'v, Value> {
    let f = |index: usize, name: &str, span: Span| {
        if index != RECEIVER && index >= CLOSURE_PARAM {
            return None;
        }
        let bound = if index == RECEIVER {
            args.receiver
        } else {
            args.args.get(index)
        };
        match bound {
            None if index == RECEIVER && args.keep_receiver => None,
            Some(a) => Some(a.clone()),
            None => Some(Value::unknown(name, span)),
        }
    };
    owned_or(v, map_params(v, &f, depth))
}

/// A closure's body called with `args`: its parameters ([`CLOSURE_PARAM`]
/// `+ i`) replaced by them, every other parameter left as it is.
pub(super) fn bind_closure<'v>(body: &'v Value, args: &[Value]) -> Cow<'v, Value> {
    let f = |index: usize, name: &str, span: Span| {
        if index == RECEIVER || index < CLOSURE_PARAM {
            return None;
        }
        Some(match args.get(index - CLOSURE_PARAM) {
            Some(a) => a.clone(),
            None => Value::unknown(name, span),
        })
    };
    owned_or(body, map_params(body, &f, 0))
}

fn owned_or(v: &Value, mapped: Option<Value>) -> Cow<'_, Value> {
    match mapped {
        Some(x) => Cow::Owned(x),
        None => Cow::Borrowed(v),
    }
}

/// What a parameter is replaced by, `(index, name, span)`: `None` keeps it.
type ParamMap<'f> = dyn Fn(usize, &str, Span) -> Option<Value> + 'f;

/// `v` with each parameter replaced as `f` says, and each string spliced
/// into the template that holds it; `None` where nothing in `v` changes
/// (so that an unchanged value is never copied).
fn map_params(v: &Value, f: &ParamMap<'_>, depth: usize) -> Option<Value> {
    if depth > 32 {
        return Some(Value::unknown(v.describe(), v.span()));
    }
    match v {
        Value::Param { index, name, span } => f(*index, name, *span),
        Value::Str(t) => {
            let segs = map_each(&t.segs, |s| match s {
                Seg::Value(inner) => {
                    let m = map_params(inner, f, depth + 1);
                    match m.as_ref().unwrap_or(inner) {
                        Value::Str(t2) if t2.segs.len() == 1 => t2.segs.first().cloned(),
                        _ => m.map(|x| Seg::Value(Box::new(x))),
                    }
                }
                _ => None,
            })?;
            Some(Value::Str(Template { segs, span: t.span }))
        }
        Value::List { items, tail, span } => {
            let its = map_each(items, |x| map_params(x, f, depth + 1));
            let ts = map_each(tail, |x| map_params(x, f, depth + 1));
            if its.is_none() && ts.is_none() {
                return None;
            }
            Some(Value::List {
                items: its.unwrap_or_else(|| items.clone()),
                tail: ts.unwrap_or_else(|| tail.clone()),
                span: *span,
            })
        }
        Value::Map { pairs, span } => {
            let pairs = map_each(pairs, |(a, b)| {
                let (ma, mb) = (map_params(a, f, depth + 1), map_params(b, f, depth + 1));
                if ma.is_none() && mb.is_none() {
                    return None;
                }
                Some((
                    ma.unwrap_or_else(|| a.clone()),
                    mb.unwrap_or_else(|| b.clone()),
                ))
            })?;
            Some(Value::Map { pairs, span: *span })
        }
        Value::Call { path, args, span } => Some(Value::Call {
            path: path.clone(),
            args: map_each(args, |x| map_params(x, f, depth + 1))?,
            span: *span,
        }),
        Value::Op { op, args, span } => Some(Value::Op {
            op: op.clone(),
            args: map_each(args, |x| map_params(x, f, depth + 1))?,
            span: *span,
        }),
        _ => None,
    }
}

/// Each item as `f` maps it, `None` where `f` changes none: the items are
/// copied only once one changes.
fn map_each<T: Clone>(xs: &[T], mut f: impl FnMut(&T) -> Option<T>) -> Option<Vec<T>> {
    let mut out: Option<Vec<T>> = None;
    for (i, x) in xs.iter().enumerate() {
        let m = f(x);
        match (&mut out, m) {
            (Some(o), m) => o.push(m.unwrap_or_else(|| x.clone())),
            (None, Some(m)) => {
                let mut o = Vec::with_capacity(xs.len());
                o.extend(xs.iter().take(i).cloned());
                o.push(m);
                out = Some(o);
            }
            (None, None) => {}
        }
    }
    out
}
