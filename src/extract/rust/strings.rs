//! String literals: decoded characters with their source bytes, content
//! spans, escapes and integer literals. A literal met by the walk is a Lua
//! script or a key template.

use tree_sitter::Node;

use crate::extract::source::Source;
use crate::facts::{Seg, Span, Template, Value};
use crate::parse::children;

use crate::extract::fields::RUST as F;
use crate::parse::named_children;

use super::scripts::looks_lua;
use super::{args_of, callee, peel_ref, Cx};

/// One decoded character of a string literal and its source bytes.
#[derive(Clone, Copy)]
pub(super) struct Unit {
    pub(super) ch: char,
    pub(super) s: usize,
    pub(super) e: usize,
}

/// Decodes one Rust escape sequence; `None` for a line continuation.
fn decode_escape(esc: &str) -> Option<char> {
    let body = esc.get(1..).unwrap_or("");
    let mut chars = body.chars();
    match chars.next() {
        Some('n') => Some('\n'),
        Some('r') => Some('\r'),
        Some('t') => Some('\t'),
        Some('0') => Some('\0'),
        Some('x') => u32::from_str_radix(body.get(1..).unwrap_or(""), 16)
            .ok()
            .and_then(char::from_u32),
        Some('u') => {
            let hex = body
                .trim_start_matches('u')
                .trim_start_matches('{')
                .trim_end_matches('}');
            u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        }
        Some('\n') | Some('\r') => None,
        Some(c) => Some(c),
        None => Some('\\'),
    }
}

pub(super) fn parse_int(t: &str) -> Option<i64> {
    let t: String = t.chars().filter(|c| *c != '_').collect();
    let t = t.trim();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            let digits: String = rest.chars().take_while(|c| c.is_digit(radix)).collect();
            return i64::from_str_radix(&digits, radix).ok();
        }
    }
    // `1u64`: drop the type suffix.
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The decoded characters of a string literal and the span of its
    /// content (without quotes).
    pub(super) fn literal_units(&self, n: Node<'_>) -> (Vec<Unit>, Span) {
        let mut units = Vec::new();
        let kids = children(n);
        if n.kind() == "raw_string_literal" {
            let content = kids.iter().find(|c| c.kind() == "string_content");
            return match content {
                Some(c) => {
                    let mut skip = false;
                    self.push_chars(&mut units, c.start_byte(), c.end_byte(), &mut skip);
                    (units, self.span(*c))
                }
                None => {
                    let t = self.text(n);
                    let at = n.start_byte() + t.find('"').map(|i| i + 1).unwrap_or(0);
                    (
                        units,
                        Span::new(self.file, at.min(n.end_byte()), at.min(n.end_byte())),
                    )
                }
            };
        }
        let start = match kids.first() {
            Some(f) if !f.is_named() => f.end_byte(),
            _ => n.start_byte() + 1,
        };
        let end = match kids.last() {
            Some(l) if !l.is_named() && kids.len() >= 2 => l.start_byte(),
            _ => n.end_byte().saturating_sub(1),
        };
        let mut skip_ws = false;
        for k in kids.iter().filter(|k| k.is_named()) {
            match k.kind() {
                "string_content" => {
                    self.push_chars(&mut units, k.start_byte(), k.end_byte(), &mut skip_ws)
                }
                "escape_sequence" => match decode_escape(&self.text(*k)) {
                    Some(ch) => {
                        skip_ws = false;
                        units.push(Unit {
                            ch,
                            s: k.start_byte(),
                            e: k.end_byte(),
                        });
                    }
                    None => skip_ws = true,
                },
                _ => {}
            }
        }
        (units, Span::new(self.file, start.min(end), end))
    }

    fn push_chars(&self, units: &mut Vec<Unit>, s: usize, e: usize, skip_ws: &mut bool) {
        let Some(bytes) = self.src.get(s..e) else {
            return;
        };
        match std::str::from_utf8(bytes) {
            Ok(t) => {
                for (i, ch) in t.char_indices() {
                    if *skip_ws && ch.is_whitespace() {
                        continue;
                    }
                    *skip_ws = false;
                    units.push(Unit {
                        ch,
                        s: s + i,
                        e: s + i + ch.len_utf8(),
                    });
                }
            }
            Err(_) => {
                for ch in String::from_utf8_lossy(bytes).chars() {
                    units.push(Unit { ch, s, e });
                }
            }
        }
    }

    pub(super) fn literal_template(&self, n: Node<'_>) -> Template {
        let (units, content) = self.literal_units(n);
        Template {
            segs: vec![Seg::Lit {
                text: units.iter().map(|u| u.ch).collect(),
                span: content,
            }],
            span: self.span(n),
        }
    }

    /// A string literal met by the walk: an `include_str!` path, a Lua
    /// script, or a key template.
    pub(super) fn literal(&mut self, n: Node<'_>) {
        let t = self.text(n);
        if looks_lua(&t) {
            self.inline_script(n);
            return;
        }
        if t.contains(':') && !self.placeholders.iter().any(|p| t.contains(p.as_str())) {
            let tpl = self.literal_template(n);
            self.push_template(Value::Str(tpl));
        }
    }

    pub(super) fn string_arg(&mut self, n: Node<'_>) -> Option<(String, Span)> {
        let n = peel_ref(n);
        if !matches!(n.kind(), "string_literal" | "raw_string_literal") {
            return None;
        }
        let t = self.literal_template(n);
        let span = t.segs.first().map(|s| s.span()).unwrap_or(t.span);
        Some((t.as_literal()?, span))
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// A name as a command is given it: a literal, or what a constant,
    /// static or function of the file without parameters holds or returns
    /// when that is one literal (`cmd(EVAL)`, `cmd(eval_name())`, `*NAME`
    /// of a lazily initialised cell), with the literal's own span.
    pub(super) fn name_arg(&mut self, n: Node<'_>) -> Option<(String, Span)> {
        if let Some(found) = self.string_arg(n) {
            return Some(found);
        }
        let mut n = peel_ref(n);
        if n.kind() == "unary_expression" && self.text(n).starts_with('*') {
            n = n.named_child(0)?;
        }
        let (name, call) = match n.kind() {
            "identifier" => (self.text(n), false),
            "call_expression" if args_of(n).is_empty() => {
                let f = callee(n).filter(|f| f.kind() == "identifier")?;
                (self.text(f), true)
            }
            _ => return None,
        };
        let item = named_children(self.root).into_iter().find(|i| {
            let kinds: &[&str] = if call {
                &["function_item"]
            } else {
                &["const_item", "static_item"]
            };
            kinds.contains(&i.kind())
                && i.child_by_field_id(F.name)
                    .is_some_and(|x| self.text(x) == name)
        })?;
        // The item's value, read where it is: no local of this function.
        let saved = std::mem::take(&mut self.scope);
        let v = if call {
            let params = item.child_by_field_id(F.parameters)?;
            match (
                named_children(params).is_empty(),
                item.child_by_field_id(F.body),
            ) {
                (true, Some(body)) => self.tail_value(body),
                _ => None,
            }
        } else {
            item.child_by_field_id(F.value).map(|v| self.value(v, 0))
        };
        self.scope = saved;
        match v? {
            Value::Str(t) => {
                let span = t.segs.first().map(|s| s.span()).unwrap_or(t.span);
                Some((t.as_literal()?, span))
            }
            _ => None,
        }
    }
}

/// The placeholders a file replaces: `"{queue}"` in `.replace("{queue}", q)`.
pub(super) fn placeholders_of(src: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(src);
    let mut out: Vec<String> = Vec::new();
    for (i, _) in text.match_indices(".replace(\"{") {
        let rest = &text[i + ".replace(\"".len()..];
        if let Some(end) = rest.find('}') {
            let ph = &rest[..=end];
            if ph.len() > 2
                && ph[1..ph.len() - 1]
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_')
                && !out.iter().any(|p| p == ph)
            {
                out.push(ph.to_string());
            }
        }
    }
    out
}
