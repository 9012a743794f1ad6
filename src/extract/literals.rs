//! Literals read the same way by several languages' value readers: an
//! integer's digits (`1_000`, `0x1F`, `0o17`, `0b101`), and the item a
//! list or a map the code shows holds under a literal index or key.

use tree_sitter::Node;

use crate::extract::source::Source;
use crate::facts::Value;

/// An integer literal's value ([`parse_int`] of its text), else a hole.
pub(crate) fn int_value(cx: &impl Source, n: Node<'_>) -> Value {
    let span = cx.span(n);
    match parse_int(&cx.text(n)) {
        Some(value) => Value::Int { value, span },
        None => Value::unknown(cx.label(n), span),
    }
}

/// An integer literal's value: `_` separators left out, a `0x`, `0o` or
/// `0b` prefix (either case) naming the radix; `None` when it is no
/// `i64`.
pub(crate) fn parse_int(t: &str) -> Option<i64> {
    let t: String = t.chars().filter(|c| *c != '_').collect();
    let lower = t.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            return i64::from_str_radix(rest, radix).ok();
        }
    }
    t.parse().ok()
}

/// `coll[key]` where both are known here: what a map holds under a
/// literal key (its first pair with it), a list's item at a literal index;
/// `None` when the code does not show it.
pub(crate) fn item(coll: &Value, key: &Value) -> Option<Value> {
    match (coll, key) {
        (Value::Map { pairs, .. }, k) if k.as_str().is_some() => pairs
            .iter()
            .find(|(x, _)| x.as_str() == k.as_str())
            .map(|p| p.1.clone()),
        (Value::List { items, tail, .. }, Value::Int { value, .. }) if tail.is_empty() => {
            usize::try_from(*value)
                .ok()
                .and_then(|i| items.get(i).cloned())
        }
        _ => None,
    }
}
