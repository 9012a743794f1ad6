//! Text written back into a host string: the reverse of `embedded.rs`.
//!
//! A fix inside embedded Lua replaces decoded text; the host holds it
//! spelt for its string kind. [`quoting`] reads the kind from the bytes
//! around the string's content, in each host language's terms, and names
//! it in neutral ones ([`Quoting`]); [`encode`] spells a text for a
//! neutral kind, or refuses when it cannot be spelt exactly; [`round_trip`]
//! reads the fixed file again with its own extractor and says whether the
//! string now sends exactly the text.
//!
//! Refused: a raw string that would hold its closing delimiter, a
//! backslash (Python) or a carriage return or control character (every
//! raw kind: the host drops or rejects them), a byte string given
//! non-ASCII text, a text that was read lossily (invalid UTF-8, shown as
//! U+FFFD), a string kind this module does not know (a lowercase sigil, a
//! charlist, a tagged template, a Ruby heredoc or `%q`), and a script that
//! spans several host literals (`"a" "b"`, `"a" + "b"`).

use crate::facts::{FileFacts, Lang, ScriptSource, Span};

/// Whether `text` reads the same in every host string, in Lua's quotes and
/// in a Rust format string: ASCII letters, digits and `_ : . - /` only.
/// A replacement of such text for text spelt as is needs no encoding.
pub fn plain(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.' | b'-' | b'/'))
}

/// Whether Lua in a file of `lang` stands as it is, in no host string (a
/// `.lua` file).
pub fn bare(lang: Lang) -> bool {
    lang == Lang::Lua
}

/// How a host string spells the text it holds, in no language's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quoting {
    /// A `.lua` file: the bytes are the text.
    Bare,
    /// No escapes (`r#"…"#`, `~S"…"`, Go's `` `…` ``, Python's `r"…"`):
    /// the text must hold none of `forbid` (the closing delimiter, a
    /// backslash where it would escape it), no carriage return or control
    /// character but tab and newline, and no newline when `one_line`.
    Raw { forbid: Vec<String>, one_line: bool },
    /// Backslash escapes: `\\`, the quote, `\r`, other control characters
    /// as `\xHH`, newlines as `\n` when `one_line`; `interp` says what
    /// else must be escaped so that it is not code.
    Escaped {
        quote: char,
        one_line: bool,
        interp: Interp,
        /// A byte string: ASCII only.
        ascii: bool,
    },
    /// Only `\\` and the quote are escapes (Ruby's `'…'`): newlines and
    /// tabs as they are, other control characters refused.
    QuoteOnly { quote: char },
    /// An Elixir heredoc: every line indented by `indent`; `raw` for `~S`.
    Heredoc { indent: String, raw: bool },
}

/// What interpolates in an escaped string, so that it must be escaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interp {
    None,
    /// `#{` (Elixir).
    HashBrace,
    /// `#{`, `#@`, `#$` (Ruby).
    Hash,
    /// `{` and `}`, written doubled (a Python f-string).
    Braces,
    /// `${` (a JavaScript template literal).
    DollarBrace,
}

/// A string kind read from its delimiters: the kind, where the content
/// starts, and the closing delimiter that must follow the text.
type Kind = (Quoting, usize, String);

/// The string kind that holds the script whose text the parse found at
/// `found` in a file of `lang`, and the host bytes that hold the whole
/// text (the parse starts at the first token, after any leading blank; a
/// heredoc's text runs from the line after its `"""` to its closing
/// line), or `None` for a kind this module does not write.
pub fn quoting(lang: Lang, bytes: &[u8], found: Span) -> Option<(Quoting, Span)> {
    let (start, end) = (found.start as usize, found.end as usize);
    if lang == Lang::Lua {
        return Some((Quoting::Bare, found));
    }
    let open = open_quote(bytes.get(..start)?)?;
    let after = bytes.get(end..)?;
    let q = bytes[open];
    let (kind, from, close) = match lang {
        Lang::Lua => return None,
        Lang::Rust => rust(bytes, open, end)?,
        Lang::Elixir => {
            if let Some(heredoc) = elixir_heredoc(bytes, open, end, found) {
                return heredoc;
            }
            elixir(bytes, open, end)?
        }
        Lang::Python => python(bytes, open)?,
        Lang::Go => go(q, open)?,
        Lang::Ruby => ruby(bytes, open, end)?,
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js(bytes, open)?,
    };
    if !after.starts_with(close.as_bytes()) || !one_literal(&kind, &bytes[from..end], &close) {
        return None;
    }
    Some((kind, Span::new(found.file, from, end)))
}

/// Whether the content of a string holds no closing delimiter of its
/// own: a script spread over several literals (`"a" "b"`, `"a" + "b"`)
/// is not one string to write.
fn one_literal(kind: &Quoting, content: &[u8], close: &str) -> bool {
    let close = close.as_bytes();
    // Python's raw strings keep a backslash, but it still keeps the
    // quote after it from closing the string.
    let escapes = match kind {
        Quoting::Raw { forbid, .. } => forbid.iter().any(|f| f == "\\"),
        _ => true,
    };
    let mut i = 0;
    while i < content.len() {
        if escapes && content[i] == b'\\' {
            i += 2;
            continue;
        }
        if content[i..].starts_with(close) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the byte before `at` continues a name (a prefix or a tag).
fn ident_before(bytes: &[u8], at: usize) -> bool {
    at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_')
}

fn rust(bytes: &[u8], open: usize, end: usize) -> Option<Kind> {
    if bytes[open] != b'"' {
        return None;
    }
    let before = &bytes[..open];
    let hashes = before.iter().rev().take_while(|b| **b == b'#').count();
    let head = &before[..before.len() - hashes];
    if head.ends_with(b"r") && !ident_before(head, head.len() - 1) {
        let close = format!("\"{}", "#".repeat(hashes));
        let kind = Quoting::Raw {
            forbid: vec![close.clone()],
            one_line: false,
        };
        return Some((kind, open + 1, close));
    }
    if hashes > 0 || ident_before(head, head.len()) {
        return None;
    }
    let kind = Quoting::Escaped {
        quote: '"',
        one_line: !bytes[open..end].contains(&b'\n'),
        interp: Interp::None,
        ascii: false,
    };
    Some((kind, open + 1, "\"".into()))
}

/// An Elixir heredoc: `"""`, a newline, the lines, the closing line.
/// `None` when the string is no heredoc; `Some(None)` for one this module
/// does not write.
fn elixir_heredoc(
    bytes: &[u8],
    open: usize,
    end: usize,
    found: Span,
) -> Option<Option<(Quoting, Span)>> {
    let head = bytes[..open].strip_suffix(b"\"\"")?;
    if bytes[open] != b'"' {
        return None;
    }
    Some((|| {
        let raw = head.ends_with(b"~S");
        if sigil(head) && !raw || bytes.get(open + 1) != Some(&b'\n') {
            return None;
        }
        let close = end + memchr::memmem::find(bytes.get(end..)?, b"\"\"\"")?;
        let line = bytes[..close].iter().rposition(|b| *b == b'\n')? + 1;
        let indent = &bytes[line..close];
        if line < open + 2 || !indent.iter().all(|b| *b == b' ' || *b == b'\t') {
            return None;
        }
        let indent = String::from_utf8(indent.to_vec()).ok()?;
        let span = Span::new(found.file, open + 2, line);
        Some((Quoting::Heredoc { indent, raw }, span))
    })())
}

/// Whether the bytes before a quote end with a sigil (`~s`, `~S`).
fn sigil(head: &[u8]) -> bool {
    head.len() >= 2 && head[head.len() - 2] == b'~'
}

fn elixir(bytes: &[u8], open: usize, end: usize) -> Option<Kind> {
    let before = &bytes[..open];
    if bytes[open] != b'"' {
        return None;
    }
    if before.ends_with(b"~S") {
        let kind = Quoting::Raw {
            forbid: vec!["\"".into()],
            one_line: false,
        };
        return Some((kind, open + 1, "\"".into()));
    }
    if sigil(before) {
        return None;
    }
    let kind = Quoting::Escaped {
        quote: '"',
        one_line: !bytes[open..end].contains(&b'\n'),
        interp: Interp::HashBrace,
        ascii: false,
    };
    Some((kind, open + 1, "\"".into()))
}

/// A Python string: its prefix (`r`, `b`, `f`, `u`, in any case and
/// order), single or triple quotes.
fn python(bytes: &[u8], open: usize) -> Option<Kind> {
    let q = bytes[open];
    if q == b'`' {
        return None;
    }
    let triple = bytes[..open].ends_with(&[q, q]);
    let at = if triple { open - 2 } else { open };
    let letters = bytes[..at]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let prefix = bytes[at - letters..at].to_ascii_lowercase();
    if letters > 2
        || ident_before(bytes, at - letters)
        || !prefix
            .iter()
            .all(|c| matches!(c, b'r' | b'b' | b'f' | b'u'))
    {
        return None;
    }
    let has = |c: u8| prefix.contains(&c);
    let quote = char::from(q);
    let close = if triple {
        quote.to_string().repeat(3)
    } else {
        quote.to_string()
    };
    let kind = if has(b'r') {
        // A raw string cannot hold its quote or end in a backslash; its
        // braces would need doubling in an f-string too.
        let mut forbid = vec![quote.to_string(), "\\".into()];
        if has(b'f') {
            forbid.extend(["{".into(), "}".into()]);
        }
        if has(b'b') {
            return None;
        }
        Quoting::Raw {
            forbid,
            one_line: !triple,
        }
    } else {
        Quoting::Escaped {
            quote,
            one_line: !triple,
            interp: if has(b'f') {
                Interp::Braces
            } else {
                Interp::None
            },
            ascii: has(b'b'),
        }
    };
    Some((kind, open + 1, close))
}

fn go(q: u8, open: usize) -> Option<Kind> {
    match q {
        b'"' => {
            let kind = Quoting::Escaped {
                quote: '"',
                one_line: true,
                interp: Interp::None,
                ascii: false,
            };
            Some((kind, open + 1, "\"".into()))
        }
        b'`' => {
            let kind = Quoting::Raw {
                forbid: vec!["`".into()],
                one_line: false,
            };
            Some((kind, open + 1, "`".into()))
        }
        _ => None,
    }
}

/// A Ruby `'…'` or `"…"` (a `%q`, `%Q` or heredoc has no quote before its
/// text, or another after it).
fn ruby(bytes: &[u8], open: usize, end: usize) -> Option<Kind> {
    let q = bytes[open];
    if ident_before(bytes, open) || open > 0 && matches!(bytes[open - 1], b'?' | b'%') {
        return None;
    }
    match q {
        b'\'' => Some((Quoting::QuoteOnly { quote: '\'' }, open + 1, "'".into())),
        b'"' => {
            let kind = Quoting::Escaped {
                quote: '"',
                one_line: !bytes[open..end].contains(&b'\n'),
                interp: Interp::Hash,
                ascii: false,
            };
            Some((kind, open + 1, "\"".into()))
        }
        _ => None,
    }
}

/// A JavaScript or TypeScript string or untagged template literal.
fn js(bytes: &[u8], open: usize) -> Option<Kind> {
    let q = bytes[open];
    let kind = match q {
        b'\'' | b'"' => Quoting::Escaped {
            quote: char::from(q),
            one_line: true,
            interp: Interp::None,
            ascii: false,
        },
        b'`' => {
            // A tag (`String.raw`…``) reads the text raw: not written.
            let tagged = bytes[..open]
                .iter()
                .rev()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b')' | b']')
                });
            if tagged {
                return None;
            }
            Quoting::Escaped {
                quote: '`',
                one_line: false,
                interp: Interp::DollarBrace,
                ascii: false,
            }
        }
        _ => return None,
    };
    Some((kind, open + 1, char::from(q).to_string()))
}

/// The opening quote (`"`, `'` or `` ` ``) before a script's first
/// token: only blanks and escapes of blanks (`\n`, `\t`, `\r`, a
/// `\`-newline) stand between.
fn open_quote(before: &[u8]) -> Option<usize> {
    let q = before
        .iter()
        .rposition(|b| matches!(b, b'"' | b'\'' | b'`'))?;
    let mut i = q + 1;
    while i < before.len() {
        match before[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'\\' if matches!(before.get(i + 1), Some(b'n' | b't' | b'r' | b'\n')) => i += 2,
            _ => return None,
        }
    }
    Some(q)
}

/// `text` spelt for the string kind `q`, so that the host sends exactly
/// `text`; `None` when it cannot be spelt exactly.
pub fn encode(q: &Quoting, text: &str) -> Option<String> {
    // A text read lossily: its bytes are not known.
    if text.contains('\u{FFFD}') {
        return None;
    }
    let control = |c: char| c.is_control() && !matches!(c, '\n' | '\t');
    match q {
        Quoting::Bare => Some(text.to_string()),
        Quoting::Raw { forbid, one_line } => {
            let bad = forbid.iter().any(|f| text.contains(f.as_str()))
                || text.chars().any(control)
                || *one_line && text.contains('\n');
            (!bad).then(|| text.to_string())
        }
        Quoting::Escaped {
            quote,
            one_line,
            interp,
            ascii,
        } => escaped(text, *quote, *one_line, *interp, *ascii),
        Quoting::QuoteOnly { quote } => {
            if text.chars().any(control) {
                return None;
            }
            let mut out = String::with_capacity(text.len());
            for c in text.chars() {
                if c == '\\' || c == *quote {
                    out.push('\\');
                }
                out.push(c);
            }
            Some(out)
        }
        Quoting::Heredoc { indent, raw } => heredoc(text, indent, *raw),
    }
}

fn escaped(text: &str, quote: char, one_line: bool, interp: Interp, ascii: bool) -> Option<String> {
    if ascii && !text.is_ascii() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' if one_line => out.push_str("\\n"),
            '\n' | '\t' => out.push(c),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            // Other control characters are not ASCII: no `\x` spells them
            // the same in every host.
            c if c.is_control() => return None,
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '#' if interp == Interp::HashBrace && next == Some('{') => out.push_str("\\#"),
            '#' if interp == Interp::Hash && matches!(next, Some('{' | '@' | '$')) => {
                out.push_str("\\#")
            }
            '{' if interp == Interp::Braces => out.push_str("{{"),
            '}' if interp == Interp::Braces => out.push_str("}}"),
            '$' if interp == Interp::DollarBrace && next == Some('{') => out.push_str("\\$"),
            c => out.push(c),
        }
    }
    Some(out)
}

/// The text an Elixir heredoc sends ends with a newline before the
/// closing line; its lines take the closing line's indentation.
fn heredoc(text: &str, indent: &str, raw: bool) -> Option<String> {
    let body = text.strip_suffix('\n')?;
    if text.contains("\"\"\"")
        || text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return None;
    }
    let mut out = String::with_capacity(text.len() + indent.len() * 8);
    for line in body.split('\n') {
        if !line.is_empty() {
            out.push_str(indent);
        }
        if raw {
            out.push_str(line);
        } else {
            out.push_str(&line.replace('\\', "\\\\").replace("#{", "\\#{"));
        }
        out.push('\n');
    }
    Some(out)
}

/// The facts of the file `bytes` of `lang` with `new` in place of
/// `span`, as its own extractor reads them: what a fix would leave.
pub fn reread(lang: Lang, bytes: &[u8], span: Span, new: &str) -> Option<FileFacts> {
    let (s, e) = (span.start as usize, span.end as usize);
    let fixed = [bytes.get(..s)?, new.as_bytes(), bytes.get(e..)?].concat();
    let mut parsers = crate::parse::Parsers::new().ok()?;
    Some(crate::extract::extract_file(
        &mut parsers,
        lang,
        span.file,
        &fixed,
        "",
    ))
}

/// Whether the file `bytes` of `lang`, with `new` in place of `span`,
/// sends exactly `text` from a script inside the new bytes, as its own
/// extractor reads it: the check that an encoding meant what it says.
pub fn round_trip(lang: Lang, bytes: &[u8], span: Span, new: &str, text: &str) -> bool {
    let Some(facts) = reread(lang, bytes, span, new) else {
        return false;
    };
    let (s, end) = (span.start as usize, span.start as usize + new.len());
    facts.scripts.iter().any(|d| {
        let ScriptSource::Inline(lua) = &d.source else {
            return false;
        };
        // The script starts in the new bytes (a heredoc's runs on to its
        // closing line).
        let at = lua.span.start as usize;
        d.text.as_deref() == Some(text) && (s..=end).contains(&at)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind of the string in `host` whose text starts at `first` and
    /// ends before the last quote (and its `#`s), and the content span's
    /// bytes.
    fn kind(lang: Lang, host: &str, first: &str) -> Option<(Quoting, String)> {
        let start = host.find(first).unwrap();
        let end = host
            .rfind(['"', '\'', '`'])
            .map(|e| host[..e].trim_end_matches(['"', '#', '\'']).len())
            .unwrap();
        let end = end.max(start);
        let (q, s) = quoting(lang, host.as_bytes(), Span::new(0, start, end))?;
        Some((q, host[s.start as usize..s.end as usize].to_string()))
    }

    fn escaped(quote: char, one_line: bool, interp: Interp) -> Quoting {
        Quoting::Escaped {
            quote,
            one_line,
            interp,
            ascii: false,
        }
    }

    #[test]
    fn kinds_are_read_from_the_delimiters() {
        let raw = Quoting::Raw {
            forbid: vec!["\"#".into()],
            one_line: false,
        };
        assert_eq!(
            kind(Lang::Rust, "const S: &str = r#\"\n return 1\"#;", "return"),
            Some((raw, "\n return 1".into()))
        );
        assert_eq!(
            kind(Lang::Rust, "let s = \"\\n return 1\";", "return"),
            Some((escaped('"', true, Interp::None), "\\n return 1".into()))
        );
        assert_eq!(kind(Lang::Rust, "let s = b\"return 1\";", "return"), None);
        assert_eq!(
            kind(Lang::Elixir, "@s \"return 1\"", "return"),
            Some((escaped('"', true, Interp::HashBrace), "return 1".into()))
        );
        let raw = Quoting::Raw {
            forbid: vec!["\"".into()],
            one_line: false,
        };
        assert_eq!(
            kind(Lang::Elixir, "@s ~S\"return 1\"", "return"),
            Some((raw, "return 1".into()))
        );
        assert_eq!(kind(Lang::Elixir, "@s ~s\"return 1\"", "return"), None);
        assert_eq!(kind(Lang::Elixir, "@s 'return 1'", "return"), None);
        // The parse's text of a heredoc ends at the closing `"""`.
        let host = "  @s \"\"\"\n  return 1\n  \"\"\"\n";
        let start = host.find("return").unwrap();
        let end = host.rfind("\"\"\"").unwrap();
        let (q, span) = quoting(Lang::Elixir, host.as_bytes(), Span::new(0, start, end)).unwrap();
        assert_eq!(
            q,
            Quoting::Heredoc {
                indent: "  ".into(),
                raw: false
            }
        );
        assert_eq!(
            &host[span.start as usize..span.end as usize],
            "  return 1\n"
        );
    }

    #[test]
    fn python_go_ruby_and_javascript_kinds() {
        let py = |s: &str| kind(Lang::Python, s, "return").map(|k| k.0);
        assert_eq!(
            py("S = f'return 1'"),
            Some(escaped('\'', true, Interp::Braces))
        );
        assert_eq!(
            py("S = \"\"\"return 1\"\"\""),
            Some(escaped('"', false, Interp::None))
        );
        let raw = Quoting::Raw {
            forbid: vec!["\"".into(), "\\".into()],
            one_line: true,
        };
        assert_eq!(py("S = R\"return 1\""), Some(raw));
        let bytes = Quoting::Escaped {
            quote: '"',
            one_line: true,
            interp: Interp::None,
            ascii: true,
        };
        assert_eq!(py("S = b\"return 1\""), Some(bytes));
        assert_eq!(py("S = t\"return 1\""), None);
        // Implicit concatenation: two literals.
        assert_eq!(py("S = \"return\" \" 1\""), None);
        let go = |s: &str| kind(Lang::Go, s, "return").map(|k| k.0);
        assert_eq!(
            go("s := \"return 1\""),
            Some(escaped('"', true, Interp::None))
        );
        assert_eq!(go("s := \"return\" + \" 1\""), None);
        let rb = |s: &str| kind(Lang::Ruby, s, "return").map(|k| k.0);
        assert_eq!(
            rb("S = 'return 1'"),
            Some(Quoting::QuoteOnly { quote: '\'' })
        );
        assert_eq!(
            rb("S = \"return 1\""),
            Some(escaped('"', true, Interp::Hash))
        );
        let js = |s: &str| kind(Lang::JavaScript, s, "return").map(|k| k.0);
        assert_eq!(
            js("const s = `return 1`"),
            Some(escaped('`', false, Interp::DollarBrace))
        );
        assert_eq!(js("const s = String.raw`return 1`"), None);
    }

    #[test]
    fn text_is_spelt_for_its_kind() {
        let q = escaped('"', false, Interp::HashBrace);
        assert_eq!(
            encode(&q, "a\"b\\c#{d}").as_deref(),
            Some("a\\\"b\\\\c\\#{d}")
        );
        let q = escaped('"', true, Interp::None);
        assert_eq!(encode(&q, "a\nb#{").as_deref(), Some("a\\nb#{"));
        assert_eq!(encode(&q, "a\r\n\0").as_deref(), Some("a\\r\\n\\x00"));
        let f = escaped('\'', true, Interp::Braces);
        assert_eq!(encode(&f, "{x} 'y'").as_deref(), Some("{{x}} \\'y\\'"));
        let rb = escaped('"', false, Interp::Hash);
        assert_eq!(
            encode(&rb, "#{a} #@b #$c #d").as_deref(),
            Some("\\#{a} \\#@b \\#$c #d")
        );
        let js = escaped('`', false, Interp::DollarBrace);
        assert_eq!(
            encode(&js, "${a} `b` $c").as_deref(),
            Some("\\${a} \\`b\\` $c")
        );
        let raw = Quoting::Raw {
            forbid: vec!["\"#".into()],
            one_line: false,
        };
        assert_eq!(encode(&raw, "x \"# y"), None);
        assert_eq!(encode(&raw, "x\r\ny"), None);
        assert_eq!(encode(&raw, "x\u{FFFD}"), None);
        assert_eq!(encode(&Quoting::Bare, "x\u{FFFD}"), None);
        let single = Quoting::QuoteOnly { quote: '\'' };
        assert_eq!(encode(&single, "a'\\\n").as_deref(), Some("a\\'\\\\\n"));
        assert_eq!(encode(&single, "a\r\n"), None);
        let h = Quoting::Heredoc {
            indent: "  ".into(),
            raw: false,
        };
        assert_eq!(encode(&h, "a\n\nb\n").as_deref(), Some("  a\n\n  b\n"));
        assert_eq!(encode(&h, "a"), None);
        assert!(plain("emq:") && plain("job:") && !plain("a\"b") && !plain("{x}"));
    }
}
