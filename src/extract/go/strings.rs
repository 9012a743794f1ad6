//! String literals: the text Go makes of them (interpreted strings with
//! their escapes, raw strings with carriage returns dropped, `+`
//! concatenations of them joined), as a template and as a decoded text
//! mapped back to host bytes; a literal holding Lua for Redis is a script,
//! parsed in place.

use tree_sitter::Node;

use crate::extract::embedded::Decoded;
use crate::extract::embedded_lua;
use crate::facts::{ScriptDef, ScriptSource, Seg, Span, Template, Value};
use crate::parse::children;

use super::Cx;

/// Whether a string's text is Lua for Redis.
pub(super) fn looks_lua(t: &[u8]) -> bool {
    let has = |n: &[u8]| memchr::memmem::find(t, n).is_some();
    has(b"redis.call") || has(b"redis.pcall") || has(b"KEYS[")
}

/// Whether a node is a string literal.
pub(super) fn is_string(n: Node<'_>) -> bool {
    matches!(
        n.kind(),
        "interpreted_string_literal" | "raw_string_literal"
    )
}

/// A string being read: its decoded text and its template's pieces.
#[derive(Default)]
pub(super) struct Parts {
    decoded: Decoded,
    segs: Vec<Seg>,
}

impl Parts {
    fn lit(&mut self, text: &str, span: Span) {
        if text.is_empty() {
            return;
        }
        if let Some(Seg::Lit { text: t, span: s }) = self.segs.last_mut() {
            if s.end == span.start {
                t.push_str(text);
                s.end = span.end;
                return;
            }
        }
        self.segs.push(Seg::Lit {
            text: text.to_string(),
            span,
        });
    }
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
                parts
                    .decoded
                    .hole(self.label(*op), op.start_byte(), op.end_byte());
                parts.segs.extend(super::values::segs_of(v));
            }
        }
        let span = self.span(n);
        let template = Template {
            segs: parts.segs,
            span,
        };
        if looks_lua(&parts.decoded.text) {
            if let Some(index) = self.inline_script(n, &parts.decoded, &template) {
                return Value::ScriptRef { index, span };
            }
        }
        Value::Str(template)
    }

    /// One literal's text, appended to `parts`.
    fn string_into(&mut self, n: Node<'_>, parts: &mut Parts) {
        let raw = n.kind() == "raw_string_literal";
        for c in children(n) {
            let (s, e) = (c.start_byte(), c.end_byte().min(self.src.len()));
            match c.kind() {
                "escape_sequence" => {
                    let bytes = unescape(&self.src[s.min(e)..e]);
                    parts.decoded.escape(&bytes, s, e);
                    parts.lit(&String::from_utf8_lossy(&bytes), Span::new(self.file, s, e));
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
        let b = &self.src[..e.min(self.src.len())];
        let (mut i, mut run) = (s, s);
        while i < b.len() {
            if raw && b[i] == b'\r' {
                self.raw_into(run, i, parts);
                parts.decoded.escape(&[], i, i + 1);
                i += 1;
                run = i;
            } else if self.verbs && b[i] == b'%' {
                self.raw_into(run, i, parts);
                let len = 1 + b[i + 1..]
                    .iter()
                    .take(16)
                    .position(|c| c.is_ascii_alphabetic() || *c == b'%')
                    .map_or(0, |p| p + 1);
                let end = (i + len).min(b.len());
                let span = Span::new(self.file, i, end);
                if b.get(end - 1) == Some(&b'%') && len == 2 {
                    parts.decoded.escape(b"%", i, end);
                    parts.lit("%", span);
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
        self.raw_into(run, b.len(), parts);
    }

    fn raw_into(&self, s: usize, e: usize, parts: &mut Parts) {
        if s >= e {
            return;
        }
        parts.decoded.raw(self.src, s, e);
        let text = String::from_utf8_lossy(&self.src[s..e]);
        parts.lit(&text, Span::new(self.file, s, e));
    }

    /// A script in a string, parsed in place and named by the binding it
    /// is assigned to.
    fn inline_script(&mut self, n: Node<'_>, decoded: &Decoded, t: &Template) -> Option<usize> {
        if let Some(i) = self.scripts_at.get(&n.start_byte()) {
            return Some(*i);
        }
        let lua = embedded_lua(self.parsers, decoded, self.file)?;
        let (name, name_span, local) = match self.binding.clone() {
            Some((name, span, local)) => (Some(name), span, local),
            None => (None, self.span(n), false),
        };
        let index = self.facts.scripts.len();
        self.facts.scripts.push(ScriptDef {
            name,
            name_span,
            source: ScriptSource::Inline(Box::new(lua)),
            text: t.as_literal(),
            declared_keys: None,
            local,
        });
        self.scripts_at.insert(n.start_byte(), index);
        Some(index)
    }
}
