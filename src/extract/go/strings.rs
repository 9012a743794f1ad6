//! String literals: the text Go makes of them (interpreted strings with
//! their escapes, raw strings with carriage returns dropped, `+`
//! concatenations of them joined), as a template and as a decoded text
//! mapped back to host bytes; a literal holding Lua for Redis is a script,
//! parsed in place.

use tree_sitter::Node;

use crate::extract::parts::{Asks, Parts};
use crate::extract::source::{OnePass, Source};
use crate::facts::{Seg, Span, Value};
use crate::parse::children;

use super::Cx;

/// Whether a node is a string literal.
pub(super) fn is_string(n: Node<'_>) -> bool {
    matches!(
        n.kind(),
        "interpreted_string_literal" | "raw_string_literal"
    )
}

/// The bytes one escape sequence of an interpreted string stands for;
/// one Go does not know stays as written.
fn unescape(e: &[u8]) -> Vec<u8> {
    let hex =
        |s: &[u8]| -> Option<u32> { u32::from_str_radix(std::str::from_utf8(s).ok()?, 16).ok() };
    let ch = |c: u32| char::from_u32(c).map(|c| c.to_string().into_bytes());
    let Some(&c) = e.get(1) else {
        return e.to_vec();
    };
    let known = match c {
        b'n' => Some(vec![b'\n']),
        b't' => Some(vec![b'\t']),
        b'r' => Some(vec![b'\r']),
        b'a' => Some(vec![7]),
        b'b' => Some(vec![8]),
        b'f' => Some(vec![12]),
        b'v' => Some(vec![11]),
        b'\\' | b'\'' | b'"' => Some(vec![c]),
        // `\xHH` and octal escapes are bytes; `\u`, `\U` characters.
        b'x' => hex(&e[2..])
            .and_then(|v| u8::try_from(v).ok())
            .map(|b| vec![b]),
        b'u' | b'U' => hex(&e[2..]).and_then(ch),
        b'0'..=b'7' => std::str::from_utf8(&e[1..])
            .ok()
            .and_then(|s| u8::from_str_radix(s, 8).ok())
            .map(|b| vec![b]),
        _ => None,
    };
    known.unwrap_or_else(|| e.to_vec())
}

impl<'s, 'p> Cx<'s, 'p> {
    /// The value of a string literal, or of a `+` concatenation whose
    /// operands are `ops` (at least one a literal): a script when the
    /// joined text holds Lua for Redis, else its template.
    pub(super) fn concat_value(&mut self, n: Node<'_>, ops: &[Node<'_>], d: usize) -> Value {
        let mut parts = Parts::default();
        for op in ops {
            if is_string(*op) {
                self.string_into(*op, &mut parts);
            } else {
                let verbs = std::mem::replace(&mut self.verbs, false);
                let v = self.value(*op, d + 1);
                self.verbs = verbs;
                parts.interpolation(self.label(*op), op.start_byte(), op.end_byte(), v);
            }
        }
        let at = (n.start_byte(), self.span(n));
        // A `fmt.Sprintf` format is filled before it is sent.
        let asks = match self.verbs {
            true => Asks::Template,
            false => Asks::Looks,
        };
        self.base.string_value(at, parts, asks)
    }

    /// One literal's text, appended to `parts`.
    fn string_into(&mut self, n: Node<'_>, parts: &mut Parts) {
        let raw = n.kind() == "raw_string_literal";
        for c in children(n) {
            let (s, e) = (c.start_byte(), c.end_byte().min(self.base.src.len()));
            match c.kind() {
                "escape_sequence" => {
                    let bytes = unescape(&self.base.src[s.min(e)..e]);
                    parts.escape(&bytes, self.base.file, s, e);
                }
                "interpreted_string_literal_content" | "raw_string_literal_content" => {
                    self.content_into(s, e, raw, parts)
                }
                _ => {}
            }
        }
    }

    /// Host bytes `s..e` of a literal's content; a raw string drops its
    /// carriage returns.
    fn content_into(&self, s: usize, e: usize, raw: bool, parts: &mut Parts) {
        let b = &self.base.src[..e.min(self.base.src.len())];
        let (mut i, mut run) = (s, s);
        while i < b.len() {
            if raw && b[i] == b'\r' {
                parts.raw(self.base.src, self.base.file, run, i);
                parts.decoded.escape(&[], i, i + 1);
                i += 1;
                run = i;
            } else if self.verbs && b[i] == b'%' {
                parts.raw(self.base.src, self.base.file, run, i);
                let len = 1 + b[i + 1..]
                    .iter()
                    .take(16)
                    .position(|c| c.is_ascii_alphabetic() || *c == b'%')
                    .map_or(0, |p| p + 1);
                let end = (i + len).min(b.len());
                let span = Span::new(self.base.file, i, end);
                if b.get(end - 1) == Some(&b'%') && len == 2 {
                    parts.escape(b"%", self.base.file, i, end);
                } else {
                    let label = String::from_utf8_lossy(&b[i..end]).into_owned();
                    // Lua reads the verb as a name of unknown value.
                    parts.decoded.hole(label.clone(), i, end);
                    parts.decoded.escape(b"_", i, end);
                    parts.segs.push(Seg::Hole { label, span });
                }
                i = end;
                run = end;
            } else {
                i += 1;
            }
        }
        parts.raw(self.base.src, self.base.file, run, b.len());
    }
}
