//! Strings as the code writes them: quoted strings, charlists, `~s`/`~S`
//! and `~w` sigils, heredoc indentation and escape sequences.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::templates::interpolate;
use super::Cx;
use crate::extract::push_lit;
use crate::facts::{Seg, Span, Template, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// A sigil: `~s`/`~S` as a string, `~w`/`~W` as a list of words;
    /// others are unknown.
    pub(super) fn sigil(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        match self.sigil_name(n).as_str() {
            "s" | "S" => Value::Str(self.string(n, env, depth)),
            "w" | "W" => self.word_list(n),
            _ => Value::unknown(self.label(n), self.span(n)),
        }
    }

    /// A sigil's name: `s` for `~s(..)`.
    pub(super) fn sigil_name(&self, n: Node<'_>) -> String {
        named_children(n)
            .into_iter()
            .find(|c| c.kind() == "sigil_name")
            .map(|c| self.text(c))
            .unwrap_or_default()
    }

    /// `~w(state attempts payload)`: a list of words (atoms with `a`).
    fn word_list(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let kids = named_children(n);
        if kids
            .iter()
            .any(|k| matches!(k.kind(), "interpolation" | "escape_sequence"))
        {
            return Value::unknown(self.label(n), span);
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
        let raw = n.kind() == "sigil" && self.sigil_name(n) == "S";
        let mut segs = Vec::new();
        let mut run = LiteralRun::new(self.heredoc_indent(n));
        for k in named_children(n) {
            match k.kind() {
                "quoted_content" => run.push(&self.text(k), true, self.span(k)),
                "escape_sequence" => {
                    let t = self.text(k);
                    let piece = if raw { t } else { decode_escape(&t) };
                    run.push(&piece, false, self.span(k));
                }
                "interpolation" => {
                    run.flush(&mut segs);
                    self.interpolation(&mut segs, k, env, depth);
                }
                _ => {}
            }
        }
        run.flush(&mut segs);
        if segs.is_empty() {
            let at = n
                .child_by_field_id(F.quoted_start)
                .map(|s| s.end_byte())
                .unwrap_or(n.start_byte());
            segs.push(Seg::Lit {
                text: String::new(),
                span: Span::new(self.file, at, at),
            });
        }
        Template {
            segs,
            span: self.span(n),
        }
    }

    /// `#{expr}`: the value of its one expression, or a hole.
    fn interpolation(&self, segs: &mut Vec<Seg>, k: Node<'_>, env: Option<usize>, depth: usize) {
        let inner: Vec<Node<'_>> = named_children(k)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .collect();
        match inner.as_slice() {
            [e] => interpolate(segs, self.value(*e, env, depth + 1)),
            _ => segs.push(Seg::Hole {
                label: self.text(k),
                span: self.span(k),
            }),
        }
    }

    /// For a heredoc (`"""` or `'''`), the indentation of its closing
    /// delimiter, which every line loses; `None` for other strings.
    fn heredoc_indent(&self, n: Node<'_>) -> Option<usize> {
        let start = n
            .child_by_field_id(F.quoted_start)
            .map(|s| self.text(s))
            .unwrap_or_default();
        if start != "\"\"\"" && start != "'''" {
            return None;
        }
        Some(
            n.child_by_field_id(F.quoted_end)
                .map(|e| self.closing_indent(e.start_byte()))
                .unwrap_or(0),
        )
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

/// The literal text of a string between interpolations, decoded, with the
/// span of the pieces it came from. In a heredoc the first newline is
/// dropped and each line loses the closing delimiter's indentation (in the
/// string's own text, not in escapes).
struct LiteralRun {
    text: String,
    span: Option<Span>,
    /// The closing delimiter's indentation, for a heredoc.
    heredoc: Option<usize>,
    skip_first_newline: bool,
    at_line_start: bool,
    to_strip: usize,
}

impl LiteralRun {
    pub(super) fn new(heredoc: Option<usize>) -> Self {
        LiteralRun {
            text: String::new(),
            span: None,
            heredoc,
            skip_first_newline: heredoc.is_some(),
            at_line_start: false,
            to_strip: 0,
        }
    }

    /// Adds a piece: the string's own text (`content`) or a decoded escape.
    pub(super) fn push(&mut self, piece: &str, content: bool, span: Span) {
        let indent = self.heredoc.unwrap_or(0);
        for c in piece.chars() {
            if self.skip_first_newline {
                self.skip_first_newline = false;
                if c == '\n' {
                    self.at_line_start = true;
                    self.to_strip = indent;
                    continue;
                }
            }
            if self.at_line_start && self.to_strip > 0 && (c == ' ' || c == '\t') && content {
                self.to_strip -= 1;
                continue;
            }
            self.at_line_start = false;
            self.text.push(c);
            if self.heredoc.is_some() && c == '\n' && content {
                self.at_line_start = true;
                self.to_strip = indent;
            }
        }
        self.span = Some(self.span.map_or(span, |l| l.join(span)));
    }

    /// Ends the run (at an interpolation or the string's end): its text
    /// becomes a literal segment.
    fn flush(&mut self, segs: &mut Vec<Seg>) {
        self.skip_first_newline = false;
        self.at_line_start = false;
        if let Some(s) = self.span.take() {
            push_lit(segs, &self.text, s);
        }
        self.text.clear();
    }
}

/// Decodes one Elixir escape sequence (`\n`, `\"`, `\x41`, `\u{1F600}`);
/// a byte past ASCII (`\xFF`) is U+FFFD.
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
        // `\xHH` is a byte: past ASCII no text holds it alone, so it
        // stands as U+FFFD (known lossily, as invalid UTF-8 read from a
        // file is: a fix never writes such a text).
        'x' if !rest.starts_with('{')
            && u8::from_str_radix(&rest, 16).is_ok_and(|b| !b.is_ascii()) =>
        {
            "\u{FFFD}".to_string()
        }
        'x' | 'u' => {
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
