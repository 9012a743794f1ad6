//! What a command list sends, as far as the code shows it: its items and
//! the collections appended to it (`[a, b | rest]`, `keys ++ args`,
//! `Enum.map(args, f)`), and counts written as literals (`2`, `"2"`,
//! `to_string(2)`).

use crate::facts::{Seg, Span, Value};

/// Flattens visible items and appended collections; `false` when a part
/// cannot be seen.
pub(super) fn flatten(items: &[Value], tail: &[Value], open: bool) -> (Vec<Value>, bool) {
    let mut out = items.to_vec();
    let mut complete = true;
    let mut queue: Vec<Value> = tail.to_vec();
    queue.reverse();
    let mut steps = 0;
    while let Some(v) = queue.pop() {
        steps += 1;
        if steps > 64 {
            complete = false;
            break;
        }
        match v {
            Value::List { items, tail, .. } => {
                out.extend(items);
                for t in tail.into_iter().rev() {
                    queue.push(t);
                }
            }
            // `Enum.map(args, &encode/1)`: as many values as the list, each
            // one unknown (the function may change it).
            Value::Call { ref args, .. } | Value::Op { ref args, .. } if is_mapped(&v) => {
                let Some(Value::List { items, tail, .. }) = args.first() else {
                    complete = false;
                    break;
                };
                let (mapped, c) = flatten(items, tail, false);
                out.extend(
                    mapped
                        .iter()
                        .map(|v| Value::unknown("a mapped value", v.span())),
                );
                if !c {
                    complete = false;
                    break;
                }
            }
            _ => {
                complete = false;
                break;
            }
        }
    }
    if open && tail.is_empty() {
        complete = false;
    }
    (out, complete)
}

/// `Enum.map/2`, or a list [`Op::Mapped`](crate::facts::Op::Mapped): a
/// list of the same length.
fn is_mapped(v: &Value) -> bool {
    match v {
        Value::Call { path, .. } => matches!(path.as_slice(), [m, f] if m == "Enum" && f == "map"),
        Value::Op { op, .. } => *op == crate::facts::Op::Mapped,
        _ => false,
    }
}

pub(super) fn literal_count(v: &Value) -> Option<(u32, Span)> {
    match v {
        // `to_string(1)`, `Integer.to_string(2)`: the same count as text.
        Value::Call { path, args, .. }
            if path.last().is_some_and(|l| l == "to_string") && args.len() == 1 =>
        {
            literal_count(&args[0])
        }
        Value::Int { value, span } => u32::try_from(*value).ok().map(|n| (n, *span)),
        Value::Str(t) if t.as_literal().is_none() => match t.segs.as_slice() {
            [Seg::Value(inner)] => literal_count(inner),
            _ => None,
        },
        Value::Str(t) => {
            let s = t.as_literal()?;
            let n = s.trim().parse::<u32>().ok()?;
            Some((n, t.segs.first().map(|x| x.span()).unwrap_or(t.span)))
        }
        _ => None,
    }
}

/// Items spliced from nested appended lists, at most this many levels.
const MAX_SPLICE: usize = 16;

/// `[a] ++ [b | rest]`: one list `[a, b | rest]`, as the wire sends it.
pub(super) fn splice(mut items: Vec<Value>, mut tail: Vec<Value>) -> (Vec<Value>, Vec<Value>) {
    for _ in 0..MAX_SPLICE {
        match tail.as_slice() {
            [Value::List { .. }, ..] => {
                let Value::List {
                    items: more,
                    tail: rest,
                    ..
                } = tail.remove(0)
                else {
                    break;
                };
                items.extend(more);
                tail.splice(0..0, rest);
            }
            _ => break,
        }
    }
    (items, tail)
}
