//! Binding a wrapper's call site to one call of the wrapper: its
//! parameters replaced by the call's arguments (`super::calls`).

use crate::facts::{Seg, Template, Value, RECEIVER};

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
/// [`RECEIVER`]: `self.sha` becomes the value the method is called on).
pub(super) fn substitute(v: &Value, args: Args<'_>, depth: usize) -> Value {
    if depth > 32 {
        return Value::unknown(v.describe(), v.span());
    }
    match v {
        Value::Param { index, name, span } => {
            let bound = if *index == RECEIVER {
                args.receiver
            } else {
                args.args.get(*index)
            };
            match bound {
                None if *index == RECEIVER && args.keep_receiver => v.clone(),
                Some(a) => a.clone(),
                None => Value::unknown(name.clone(), *span),
            }
        }
        Value::Str(t) => Value::Str(Template {
            segs: t
                .segs
                .iter()
                .map(|s| match s {
                    Seg::Value(inner) => match substitute(inner, args, depth + 1) {
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
            items: items
                .iter()
                .map(|x| substitute(x, args, depth + 1))
                .collect(),
            tail: tail
                .iter()
                .map(|x| substitute(x, args, depth + 1))
                .collect(),
            span: *span,
        },
        Value::Map { pairs, span } => Value::Map {
            pairs: pairs
                .iter()
                .map(|(a, b)| {
                    (
                        substitute(a, args, depth + 1),
                        substitute(b, args, depth + 1),
                    )
                })
                .collect(),
            span: *span,
        },
        Value::Call {
            path,
            args: cargs,
            span,
        } => Value::Call {
            path: path.clone(),
            args: cargs
                .iter()
                .map(|x| substitute(x, args, depth + 1))
                .collect(),
            span: *span,
        },
        other => other.clone(),
    }
}
