//! Binding a wrapper's call site to one call of the wrapper: its
//! parameters replaced by the call's arguments (`super::calls`).

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
    map_params(
        v,
        &|index, name, span, v| {
            if index != RECEIVER && index >= CLOSURE_PARAM {
                return v.clone();
            }
            let bound = if index == RECEIVER {
                args.receiver
            } else {
                args.args.get(index)
            };
            match bound {
                None if index == RECEIVER && args.keep_receiver => v.clone(),
                Some(a) => a.clone(),
                None => Value::unknown(name, span),
            }
        },
        depth,
    )
}

/// A closure's body called with `args`: its parameters ([`CLOSURE_PARAM`]
/// `+ i`) replaced by them, every other parameter left as it is.
pub(super) fn bind_closure(body: &Value, args: &[Value]) -> Value {
    map_params(
        body,
        &|index, name, span, v| {
            if index == RECEIVER || index < CLOSURE_PARAM {
                return v.clone();
            }
            match args.get(index - CLOSURE_PARAM) {
                Some(a) => a.clone(),
                None => Value::unknown(name, span),
            }
        },
        0,
    )
}

/// What a parameter is replaced by: `(index, name, span, the parameter)`.
type ParamMap<'f> = dyn Fn(usize, &str, Span, &Value) -> Value + 'f;

/// `v` with each parameter replaced as `f` says.
fn map_params(v: &Value, f: &ParamMap<'_>, depth: usize) -> Value {
    if depth > 32 {
        return Value::unknown(v.describe(), v.span());
    }
    match v {
        Value::Param { index, name, span } => f(*index, name, *span, v),
        Value::Str(t) => Value::Str(Template {
            segs: t
                .segs
                .iter()
                .map(|s| match s {
                    Seg::Value(inner) => match map_params(inner, f, depth + 1) {
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
            items: items.iter().map(|x| map_params(x, f, depth + 1)).collect(),
            tail: tail.iter().map(|x| map_params(x, f, depth + 1)).collect(),
            span: *span,
        },
        Value::Map { pairs, span } => Value::Map {
            pairs: pairs
                .iter()
                .map(|(a, b)| (map_params(a, f, depth + 1), map_params(b, f, depth + 1)))
                .collect(),
            span: *span,
        },
        Value::Call {
            path,
            args: cargs,
            span,
        } => Value::Call {
            path: path.clone(),
            args: cargs.iter().map(|x| map_params(x, f, depth + 1)).collect(),
            span: *span,
        },
        Value::Op {
            op,
            args: oargs,
            span,
        } => Value::Op {
            op: op.clone(),
            args: oargs.iter().map(|x| map_params(x, f, depth + 1)).collect(),
            span: *span,
        },
        other => other.clone(),
    }
}
