//! String literals: the text Python makes of them (prefixes, escapes, raw
//! and triple-quoted strings, adjacent literals joined, f-string
//! interpolations as holes), as a template and as a decoded text mapped
//! back to host bytes; a literal holding Lua for Redis is a script, parsed
//! in place, unless it is a template of `str.format` (its fields are
//! filled before anything is sent).

use std::collections::HashSet;

use tree_sitter::Node;

use crate::extract::parts::{Asks, Parts};
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
        if self.is_format_template(n) {
            // Its `{field}`s are filled before anything is sent: the text
            // is no script (nor Lua to parse) as it stands.
            return Value::Str(parts.finish(at.1).0);
        }
        // A piece a template is filled with (`key="KEYS[1]"`) is a script
        // only if it parses as one or calls Redis.
        let piece = self.is_format_piece(n);
        let asks = match piece {
            true => Asks::Parses,
            false => Asks::Looks,
        };
        self.base.string_value(at, parts, asks)
    }

    /// Whether a string literal is an argument of `.format(..)`.
    fn is_format_piece(&self, n: Node<'_>) -> bool {
        let mut p = n.parent();
        if p.is_some_and(|k| k.kind() == "keyword_argument") {
            p = p.and_then(|k| k.parent());
        }
        let call = p
            .filter(|a| a.kind() == "argument_list")
            .and_then(|a| a.parent());
        call.and_then(|c| c.child_by_field_id(F.function))
            .filter(|f| f.kind() == "attribute")
            .and_then(|f| f.child_by_field_id(F.attribute))
            .is_some_and(|a| self.text(a) == "format")
    }

    /// Whether a string literal is a template of `str.format`: the
    /// receiver of `.format(..)`, or assigned to a name the file formats.
    fn is_format_template(&self, n: Node<'_>) -> bool {
        let Some(p) = n.parent() else {
            return false;
        };
        match p.kind() {
            "attribute" => p
                .child_by_field_id(F.attribute)
                .is_some_and(|a| self.text(a) == "format"),
            "assignment" => p.child_by_field_id(F.left).is_some_and(|l| {
                l.kind() == "identifier" && self.templates.contains(&self.text(l))
            }),
            _ => false,
        }
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

/// The names `.format(..)` is called on in a file (`T.format(k=v)`): read
/// only when its bytes hold `.format(`.
pub(super) fn format_receivers(root: Node<'_>, src: &[u8]) -> HashSet<String> {
    let mut out = HashSet::new();
    if memchr::memmem::find(src, b".format(").is_none() {
        return out;
    }
    crate::parse::walk(root, |n| {
        if n.kind() == "attribute" {
            let method = n.child_by_field_id(F.attribute);
            let object = n.child_by_field_id(F.object);
            if let (Some(m), Some(o)) = (method, object) {
                let called = n.parent().is_some_and(|p| p.kind() == "call");
                if called && o.kind() == "identifier" && &src[m.byte_range()] == b"format" {
                    out.insert(String::from_utf8_lossy(&src[o.byte_range()]).into_owned());
                }
            }
        }
        true
    });
    out
}
