//! Literals read the same way by several languages' value readers: an
//! integer's digits (`1_000`, `0x1F`, `0o17`, `0b101`), the item a list
//! or a map the code shows holds under a literal index or key, and a
//! method's name written as data (`"hset"`, `:hset`).

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

/// The longest method name read from a literal.
const MAX_NAME: usize = 64;

/// A method's name written whole in a literal: the text between one of
/// `quotes` (or after `:`, a symbol, when `quotes` holds it) and the same
/// closing quote, when it is an identifier of ASCII letters, digits, `_`
/// and the bytes of `extra` (Ruby's `?` and `!`, JavaScript's `$`).
pub(crate) fn method_name(text: &str, quotes: &[char], extra: &[u8]) -> Option<String> {
    let name = match text.strip_prefix(':').filter(|_| quotes.contains(&':')) {
        Some(symbol) => symbol,
        None => {
            let open = text.chars().next().filter(|c| quotes.contains(c))?;
            text.strip_prefix(open)?.strip_suffix(open)?
        }
    };
    let plain = !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || extra.contains(&b));
    plain.then(|| name.to_string())
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

#[cfg(test)]
mod tests {
    use super::method_name;

    #[test]
    fn a_method_name_is_written_whole() {
        let q = &['"', '\'', ':'][..];
        assert_eq!(method_name("\"hset\"", q, b"").as_deref(), Some("hset"));
        assert_eq!(method_name("'hset'", q, b"").as_deref(), Some("hset"));
        assert_eq!(
            method_name(":exists?", q, b"?!").as_deref(),
            Some("exists?")
        );
        for not in [
            "\"hset'",
            "\"h set\"",
            "\"\"",
            "\"1x\"",
            ":exists?",
            "hset",
            "`hset`",
        ] {
            assert_eq!(method_name(not, q, b""), None, "{not}");
        }
        assert_eq!(method_name(&format!("'{}'", "a".repeat(65)), q, b""), None);
    }
}
