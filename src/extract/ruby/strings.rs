//! String literals, symbols and heredocs: the text Ruby makes of them
//! (escapes decoded in double-quoted forms, interpolations as holes,
//! adjacent literals joined, a heredoc's body found from its `<<~ID`), as
//! a template and as a decoded text mapped back to host bytes; a literal
//! holding Lua for Redis is a script, parsed in place.

use std::collections::HashMap;

use tree_sitter::Node;

use crate::extract::parts::{Asks, Parts};
use crate::extract::source::{OnePass, Source};
use crate::facts::{Seg, Span, Template, Value};
use crate::parse::{children, walk};

use super::Cx;

/// Each heredoc's body by the start of the `<<~ID` that opens it: the
/// bodies follow their openers in the same order.
pub(super) fn heredoc_bodies(root: Node<'_>) -> HashMap<usize, Node<'_>> {
    let mut openers = Vec::new();
    let mut bodies = Vec::new();
    walk(root, |n| {
        match n.kind() {
            "heredoc_beginning" => openers.push(n.start_byte()),
            "heredoc_body" => bodies.push(n),
            _ => {}
        }
        true
    });
    openers.sort_unstable();
    bodies.sort_by_key(|b| b.start_byte());
    openers.into_iter().zip(bodies).collect()
}

/// What an escape sequence's text (`\n`, `\x41`, `\u{1F600}`, `\'`)
/// stands for.
fn unescape(t: &[u8]) -> Vec<u8> {
    let Some(&c) = t.get(1) else {
        return t.to_vec();
    };
    let num = |s: &[u8], radix: u32| -> Option<Vec<u8>> {
        let s = std::str::from_utf8(s).ok()?;
        let v = u32::from_str_radix(s, radix).ok()?;
        if (radix == 16 && t.get(1) == Some(&b'x')) || radix == 8 {
            return u8::try_from(v).ok().map(|b| vec![b]);
        }
        char::from_u32(v).map(|c| c.to_string().into_bytes())
    };
    let rest = &t[2..];
    let out = match c {
        b'n' => Some(vec![b'\n']),
        b't' => Some(vec![b'\t']),
        b'r' => Some(vec![b'\r']),
        b's' => Some(vec![b' ']),
        b'e' => Some(vec![0x1b]),
        b'a' => Some(vec![7]),
        b'b' => Some(vec![8]),
        b'f' => Some(vec![12]),
        b'v' => Some(vec![11]),
        b'\n' => Some(Vec::new()),
        b'x' => num(rest, 16),
        b'u' => num(
            rest.strip_prefix(b"{")
                .and_then(|r| r.strip_suffix(b"}"))
                .unwrap_or(rest),
            16,
        ),
        b'0'..=b'7' => num(&t[1..], 8),
        _ => Some(t[1..].to_vec()),
    };
    out.unwrap_or_else(|| t.to_vec())
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The value of a string literal, adjacent ones, a symbol or a
    /// heredoc: a script when it holds Lua for Redis, else its template.
    pub(super) fn string_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let mut parts = Parts::default();
        match n.kind() {
            "chained_string" => {
                for c in children(n).into_iter().filter(|c| c.kind() == "string") {
                    self.string_into(c, d, &mut parts);
                }
            }
            "heredoc_beginning" => match self.heredocs.get(&n.start_byte()).copied() {
                Some(body) => self.string_into(body, d, &mut parts),
                None => return Value::unknown(self.label(n), self.span(n)),
            },
            "simple_symbol" | "hash_key_symbol" => {
                let t = self.text(n);
                let name = t.trim_start_matches(':').trim_end_matches(':');
                return Value::Str(Template {
                    segs: vec![Seg::Lit {
                        text: name.to_string(),
                        span: self.span(n),
                    }],
                    span: self.span(n),
                });
            }
            _ => self.string_into(n, d, &mut parts),
        }
        // Text that only quotes `KEYS[n]` and does not parse as Lua is no
        // script (`strict`).
        let at = (n.start_byte(), self.span(n));
        self.base.string_value(at, parts, Asks::Parses)
    }

    /// One literal's pieces (a `string`, a `heredoc_body`, a delimited
    /// symbol), appended to `parts`.
    fn string_into(&mut self, n: Node<'_>, d: usize, parts: &mut Parts) {
        let single = self.base.src.get(n.start_byte()) == Some(&b'\'');
        for c in children(n) {
            match c.kind() {
                "string_content" if single => self.single_quoted(c, parts),
                "string_content" | "heredoc_content" => {
                    parts
                        .decoded
                        .raw(self.base.src, c.start_byte(), c.end_byte());
                    parts.lit(&self.text(c), self.span(c));
                }
                "escape_sequence" => {
                    let bytes = unescape(&self.base.src[c.start_byte()..c.end_byte()]);
                    parts.decoded.escape(&bytes, c.start_byte(), c.end_byte());
                    parts.lit(&String::from_utf8_lossy(&bytes), self.span(c));
                }
                "interpolation" => {
                    let inner = crate::parse::named_children(c).into_iter().last();
                    let v = match inner {
                        Some(e) => self.value(e, d + 1),
                        None => Value::unknown(self.label(c), self.span(c)),
                    };
                    parts
                        .decoded
                        .hole(self.label(c), c.start_byte(), c.end_byte());
                    parts.segs.extend(crate::extract::parts::segs_of(v));
                }
                _ => {}
            }
        }
    }

    /// A single-quoted string's text: `\\` and `\'` are its only escapes.
    fn single_quoted(&self, c: Node<'_>, parts: &mut Parts) {
        let (s, e) = (c.start_byte(), c.end_byte().min(self.base.src.len()));
        let (mut i, mut run) = (s, s);
        while i + 1 < e {
            if self.base.src[i] == b'\\' && matches!(self.base.src[i + 1], b'\\' | b'\'') {
                self.raw_into(run, i, parts);
                let b = [self.base.src[i + 1]];
                parts.decoded.escape(&b, i, i + 2);
                parts.lit(
                    &String::from_utf8_lossy(&b),
                    Span::new(self.base.file, i, i + 2),
                );
                i += 2;
                run = i;
            } else {
                i += 1;
            }
        }
        self.raw_into(run, e, parts);
    }

    fn raw_into(&self, s: usize, e: usize, parts: &mut Parts) {
        parts.raw(self.base.src, self.base.file, s, e);
    }
}
