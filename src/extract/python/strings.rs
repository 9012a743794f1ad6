//! String literals: the text Python makes of them (prefixes, escapes, raw
//! and triple-quoted strings, adjacent literals joined, f-string
//! interpolations as holes), as a template and as a decoded text mapped
//! back to host bytes; a literal holding Lua for Redis is a script, parsed
//! in place.

use tree_sitter::Node;

use crate::extract::parts::Parts;
use crate::extract::source::{OnePass, Source};
use crate::facts::Value;
use crate::parse::children;

use super::Cx;
use crate::extract::fields::PYTHON as F;

/// One escape of a non-raw string at `b[i]` (a `\`): the bytes it
/// stands for and its length. A backslash Python does not know stays.
fn escape_at(b: &[u8], i: usize) -> (Vec<u8>, usize) {
    let Some(&c) = b.get(i + 1) else {
        return (vec![b'\\'], 1);
    };
    let hex = |from: usize, n: usize| -> Option<u32> {
        let s = std::str::from_utf8(b.get(from..from + n)?).ok()?;
        u32::from_str_radix(s, 16).ok()
    };
    let ch = |c: u32| char::from_u32(c).map(|c| c.to_string().into_bytes());
    match c {
        b'\n' => (Vec::new(), 2),
        b'\r' if b.get(i + 2) == Some(&b'\n') => (Vec::new(), 3),
        b'n' => (vec![b'\n'], 2),
        b't' => (vec![b'\t'], 2),
        b'r' => (vec![b'\r'], 2),
        b'a' => (vec![7], 2),
        b'b' => (vec![8], 2),
        b'f' => (vec![12], 2),
        b'v' => (vec![11], 2),
        b'\\' | b'\'' | b'"' => (vec![c], 2),
        b'x' => match hex(i + 2, 2).and_then(ch) {
            Some(v) => (v, 4),
            None => (vec![b'\\', c], 2),
        },
        b'u' => match hex(i + 2, 4).and_then(ch) {
            Some(v) => (v, 6),
            None => (vec![b'\\', c], 2),
        },
        b'U' => match hex(i + 2, 8).and_then(ch) {
            Some(v) => (v, 10),
            None => (vec![b'\\', c], 2),
        },
        b'0'..=b'7' => {
            let n = b[i + 1..]
                .iter()
                .take(3)
                .take_while(|x| (b'0'..=b'7').contains(x))
                .count();
            let v = b[i + 1..i + 1 + n]
                .iter()
                .fold(0u32, |a, d| a * 8 + u32::from(d - b'0'));
            (ch(v).unwrap_or_default(), n + 1)
        }
        _ => (vec![b'\\', c], 2),
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The value of a string literal or of adjacent ones: a script when it
    /// holds Lua for Redis, else its template.
    pub(super) fn string_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let mut parts = Parts::default();
        if n.kind() == "concatenated_string" {
            for c in children(n).into_iter().filter(|c| c.kind() == "string") {
                self.string_into(c, d, &mut parts);
            }
        } else {
            self.string_into(n, d, &mut parts);
        }
        let at = (n.start_byte(), self.span(n));
        self.base.string_value(at, parts, false)
    }

    /// One `string` node's text, appended to `parts`.
    fn string_into(&mut self, n: Node<'_>, d: usize, parts: &mut Parts) {
        let kids = children(n);
        let prefix = kids
            .iter()
            .find(|c| c.kind() == "string_start")
            .map(|c| self.text(*c).to_ascii_lowercase())
            .unwrap_or_default();
        let raw = prefix.contains('r');
        let fmt = prefix.contains('f') || prefix.contains('t');
        for c in kids {
            match c.kind() {
                "string_content" => {
                    self.content_into(c.start_byte(), c.end_byte(), raw, fmt, parts)
                }
                "interpolation" => {
                    let v = match c.child_by_field_id(F.expression) {
                        Some(e) => self.value(e, d + 1),
                        None => Value::unknown(self.label(c), self.span(c)),
                    };
                    parts.interpolation(self.label(c), c.start_byte(), c.end_byte(), v);
                }
                _ => {}
            }
        }
    }

    /// Host bytes `s..e` of a string's content, decoded.
    fn content_into(&self, s: usize, e: usize, raw: bool, fmt: bool, parts: &mut Parts) {
        let b = &self.base.src[..e.min(self.base.src.len())];
        let (mut i, mut run) = (s, s);
        while i < b.len() {
            let special = (!raw && b[i] == b'\\')
                || (fmt && (b[i] == b'{' || b[i] == b'}') && b.get(i + 1) == Some(&b[i]));
            if !special {
                i += 1;
                continue;
            }
            parts.raw(self.base.src, self.base.file, run, i);
            let (bytes, len) = if b[i] == b'\\' {
                escape_at(b, i)
            } else {
                (vec![b[i]], 2)
            };
            let end = (i + len).min(b.len());
            parts.escape(&bytes, self.base.file, i, end);
            i = end;
            run = end;
        }
        parts.raw(self.base.src, self.base.file, run, b.len());
    }
}
