//! Strings as the code writes them: quoted strings, charlists, `~s`/`~S`
//! and `~w` sigils, heredoc indentation and escape sequences.

use tree_sitter::Node;

use super::templates::interpolate;
use super::Cx;
use crate::extract::push_lit;
use crate::facts::{Seg, Span, Template, Value};
use crate::parse::named_children;

/// Decodes one Elixir escape sequence (`\n`, `\"`, `\x41`, `\u{1F600}`).
pub(super) fn decode_escape(raw: &str) -> String {
    let Some(body) = raw.strip_prefix('\\') else {
        return raw.to_string();
    };
    let mut chars = body.chars();
    let Some(c) = chars.next() else {
        return "\\".to_string();
    };
    let rest: String = chars.collect();
    let simple = match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'd' => Some('\u{7f}'),
        'e' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        's' => Some(' '),
        'v' => Some('\u{b}'),
        '0' => Some('\0'),
        _ => None,
    };
    if let Some(s) = simple {
        return format!("{s}{rest}");
    }
    match c {
        // A line continuation.
        '\n' => rest,
        'x' => {
            let hex = rest.trim_start_matches('{').trim_end_matches('}');
            u32::from_str_radix(hex, 16)
                .ok()
                .and_then(char::from_u32)
                .map(|c| c.to_string())
                .unwrap_or_else(|| raw.to_string())
        }
        'u' => {
            let hex = rest.trim_start_matches('{').trim_end_matches('}');
            u32::from_str_radix(hex, 16)
                .ok()
                .and_then(char::from_u32)
                .map(|c| c.to_string())
                .unwrap_or_else(|| raw.to_string())
        }
        other => format!("{other}{rest}"),
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    pub(super) fn sigil_name(&self, n: Node<'_>) -> String {
        named_children(n)
            .into_iter()
            .find(|c| c.kind() == "sigil_name")
            .map(|c| self.text(c))
            .unwrap_or_default()
    }

    /// `~w(state attempts payload)`: a list of words (atoms with `a`).
    pub(super) fn word_list(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let kids = named_children(n);
        if kids
            .iter()
            .any(|k| matches!(k.kind(), "interpolation" | "escape_sequence"))
        {
            return Value::unknown(self.text(n), span);
        }
        let atoms = kids
            .iter()
            .any(|k| k.kind() == "sigil_modifiers" && self.text(*k).contains('a'));
        let mut items = Vec::new();
        for k in kids.iter().filter(|k| k.kind() == "quoted_content") {
            let base = k.start_byte();
            let body = self.text(*k);
            for word in body.split_whitespace() {
                let start = word.as_ptr() as usize - body.as_ptr() as usize;
                // `body` is lossy; after an invalid byte its offsets run
                // ahead of the bytes, so keep the span inside the node.
                let end_k = k.end_byte();
                let wspan = Span::new(
                    self.file,
                    (base + start).min(end_k),
                    (base + start + word.len()).min(end_k),
                );
                items.push(if atoms {
                    Value::Atom {
                        name: word.to_string(),
                        span: wspan,
                    }
                } else {
                    Value::Str(Template::lit(word, wspan))
                });
            }
        }
        Value::List {
            items,
            tail: Vec::new(),
            span,
        }
    }

    /// A string, charlist or `~s`/`~S` sigil as a template: literal runs
    /// decoded (heredocs dedented), interpolations as values or holes.
    pub(super) fn string(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Template {
        let span = self.span(n);
        let start = n
            .child_by_field_name("quoted_start")
            .map(|s| self.text(s))
            .unwrap_or_default();
        let heredoc = start == "\"\"\"" || start == "'''";
        let raw = n.kind() == "sigil" && self.sigil_name(n) == "S";
        let indent = if heredoc {
            n.child_by_field_name("quoted_end")
                .map(|e| self.closing_indent(e.start_byte()))
                .unwrap_or(0)
        } else {
            0
        };
        let mut segs = Vec::new();
        let mut lit = String::new();
        let mut lit_span: Option<Span> = None;
        // In a heredoc: the first newline is dropped, and each line loses
        // the closing delimiter's indentation.
        let mut skip_first_newline = heredoc;
        let mut at_line_start = false;
        let mut to_strip = 0usize;
        for k in named_children(n) {
            match k.kind() {
                "quoted_content" | "escape_sequence" => {
                    let t = self.text(k);
                    let piece = if k.kind() == "escape_sequence" && !raw {
                        decode_escape(&t)
                    } else {
                        t
                    };
                    for c in piece.chars() {
                        if skip_first_newline {
                            skip_first_newline = false;
                            if c == '\n' {
                                at_line_start = true;
                                to_strip = indent;
                                continue;
                            }
                        }
                        if at_line_start
                            && to_strip > 0
                            && (c == ' ' || c == '\t')
                            && k.kind() == "quoted_content"
                        {
                            to_strip -= 1;
                            continue;
                        }
                        at_line_start = false;
                        lit.push(c);
                        if heredoc && c == '\n' && k.kind() == "quoted_content" {
                            at_line_start = true;
                            to_strip = indent;
                        }
                    }
                    let s = self.span(k);
                    lit_span = Some(lit_span.map_or(s, |l| l.join(s)));
                }
                "interpolation" => {
                    skip_first_newline = false;
                    at_line_start = false;
                    if let Some(s) = lit_span.take() {
                        push_lit(&mut segs, &lit, s);
                    }
                    lit.clear();
                    let inner: Vec<Node<'_>> = named_children(k)
                        .into_iter()
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    match inner.last() {
                        Some(e) if inner.len() == 1 => {
                            interpolate(&mut segs, self.value(*e, env, depth + 1))
                        }
                        _ => segs.push(Seg::Hole {
                            label: self.text(k),
                            span: self.span(k),
                        }),
                    }
                }
                _ => {}
            }
        }
        if let Some(s) = lit_span {
            push_lit(&mut segs, &lit, s);
        }
        if segs.is_empty() {
            let at = n
                .child_by_field_name("quoted_start")
                .map(|s| s.end_byte())
                .unwrap_or(n.start_byte());
            segs.push(Seg::Lit {
                text: String::new(),
                span: Span::new(self.file, at, at),
            });
        }
        Template { segs, span }
    }

    /// Spaces and tabs between the line start and `at`.
    fn closing_indent(&self, at: usize) -> usize {
        let mut i = at.min(self.src.len());
        let mut count = 0;
        while i > 0 {
            match self.src.get(i - 1) {
                Some(b' ') | Some(b'\t') => {
                    count += 1;
                    i -= 1;
                }
                _ => break,
            }
        }
        count
    }
}
