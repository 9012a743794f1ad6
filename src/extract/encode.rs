//! Text written back into a host string: the reverse of `embedded.rs`.
//!
//! A fix inside embedded Lua replaces decoded text; the host holds it
//! spelt for its string kind (a Rust `"…"` escapes `"` and `\`, an Elixir
//! string escapes `#{` too, a raw string or a `~S` sigil escapes nothing
//! but cannot hold its closing delimiter, an Elixir heredoc indents every
//! line as its closing `"""` is indented). [`quoting`] reads the kind from
//! the bytes around the string's content, [`encode`] spells a text for it,
//! or refuses when it cannot be spelt safely.

use crate::facts::{Lang, Span};

/// Whether `text` reads the same in every host string, in Lua's quotes and
/// in a Rust format string: ASCII letters, digits and `_ : . - /` only.
/// A replacement of such text for text spelt as is needs no encoding.
pub fn plain(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.' | b'-' | b'/'))
}

/// How a host string spells the text it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quoting {
    /// A `.lua` file: the bytes are the text.
    Bare,
    /// No escapes (`r#"…"#`, `~S"…"`): the text must not hold `close`.
    Raw { close: String },
    /// `"…"` with escapes; `interpolates`: `#{` is escaped too (Elixir);
    /// `one_line`: the string holds no newline of its own, so newlines are
    /// written `\n`.
    Quoted { interpolates: bool, one_line: bool },
    /// An Elixir heredoc: every line indented by `indent`; `raw` for `~S`.
    Heredoc { indent: String, raw: bool },
}

/// The string kind that holds the script whose text the parse found at
/// `found` in a file of `lang`, and the host bytes that hold the whole
/// text (the parse starts at the first token, after any leading blank; a
/// heredoc's text runs from the line after its `"""` to its closing
/// line), or `None` for a kind this module does not write (a lowercase
/// sigil, a byte string, a charlist).
pub fn quoting(lang: Lang, bytes: &[u8], found: Span) -> Option<(Quoting, Span)> {
    let (start, end) = (found.start as usize, found.end as usize);
    if lang == Lang::Lua {
        return Some((Quoting::Bare, found));
    }
    let open = open_quote(bytes.get(..start)?)?;
    let (before, after) = (&bytes[..open], bytes.get(end..)?);
    let span = |s: usize, e: usize| Some(Span::new(found.file, s, e));
    let sigil = |head: &[u8]| head.len() >= 2 && head[head.len() - 2] == b'~';
    if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) {
        return None;
    }
    if lang == Lang::Rust {
        let hashes = before.iter().rev().take_while(|b| **b == b'#').count();
        let head = &before[..before.len() - hashes];
        if head.ends_with(b"r") && !head.ends_with(b"br") {
            let close = format!("\"{}", "#".repeat(hashes));
            if !after.starts_with(close.as_bytes()) {
                return None;
            }
            return Some((Quoting::Raw { close }, span(open + 1, end)?));
        }
        let ident = head
            .last()
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if hashes > 0 || ident || !after.starts_with(b"\"") {
            return None;
        }
        let one_line = !bytes[open..end].contains(&b'\n');
        let q = Quoting::Quoted {
            interpolates: false,
            one_line,
        };
        return Some((q, span(open + 1, end)?));
    }
    if let Some(head) = before.strip_suffix(b"\"\"") {
        // A heredoc: `"""`, a newline, the lines, the closing line.
        let raw = head.ends_with(b"~S");
        if sigil(head) && !raw || bytes.get(open + 1) != Some(&b'\n') {
            return None;
        }
        let close = end + memchr::memmem::find(after, b"\"\"\"")?;
        let line = bytes[..close].iter().rposition(|b| *b == b'\n')? + 1;
        let indent = &bytes[line..close];
        if line < open + 2 || !indent.iter().all(|b| *b == b' ' || *b == b'\t') {
            return None;
        }
        let indent = String::from_utf8(indent.to_vec()).ok()?;
        return Some((Quoting::Heredoc { indent, raw }, span(open + 2, line)?));
    }
    if !after.starts_with(b"\"") {
        return None;
    }
    if before.ends_with(b"~S") {
        let q = Quoting::Raw { close: "\"".into() };
        return Some((q, span(open + 1, end)?));
    }
    if sigil(before) {
        return None;
    }
    let one_line = !bytes[open..end].contains(&b'\n');
    let q = Quoting::Quoted {
        interpolates: true,
        one_line,
    };
    Some((q, span(open + 1, end)?))
}

/// The opening `"` before a script's first token: only blanks and escapes
/// of blanks (`\n`, `\t`, `\r`, a `\`-newline) stand between.
fn open_quote(before: &[u8]) -> Option<usize> {
    let q = before.iter().rposition(|b| *b == b'"')?;
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
/// `text`; `None` when it cannot be spelt (a raw string's closing
/// delimiter, a heredoc's `"""`, a line a heredoc cannot indent).
pub fn encode(q: &Quoting, text: &str) -> Option<String> {
    match q {
        Quoting::Bare => Some(text.to_string()),
        Quoting::Raw { close } => (!text.contains(close.as_str())).then(|| text.to_string()),
        Quoting::Quoted {
            interpolates,
            one_line,
        } => {
            let mut out = String::with_capacity(text.len());
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '"' => out.push_str("\\\""),
                    '\r' => out.push_str("\\r"),
                    '\n' if *one_line => out.push_str("\\n"),
                    '#' if *interpolates && chars.peek() == Some(&'{') => out.push_str("\\#"),
                    c => out.push(c),
                }
            }
            Some(out)
        }
        Quoting::Heredoc { indent, raw } => {
            // The text a heredoc sends ends with a newline before the
            // closing line; its lines take the closing line's indentation.
            let body = text.strip_suffix('\n')?;
            if text.contains("\"\"\"") || text.contains('\r') {
                return None;
            }
            let mut out = String::with_capacity(text.len() + indent.len() * 8);
            for line in body.split('\n') {
                if !line.is_empty() {
                    out.push_str(indent);
                }
                if *raw {
                    out.push_str(line);
                } else {
                    out.push_str(&line.replace('\\', "\\\\").replace("#{", "\\#{"));
                }
                out.push('\n');
            }
            Some(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(lang: Lang, host: &str, first: &str) -> Option<(Quoting, String)> {
        let start = host.find(first).unwrap();
        let end = host
            .rfind('"')
            .map(|e| host[..e].trim_end_matches(['"', '#']).len())
            .unwrap();
        let end = end.max(start);
        let (q, s) = quoting(lang, host.as_bytes(), Span::new(0, start, end))?;
        Some((q, host[s.start as usize..s.end as usize].to_string()))
    }

    #[test]
    fn kinds_are_read_from_the_delimiters() {
        let raw = Quoting::Raw {
            close: "\"#".into(),
        };
        assert_eq!(
            kind(Lang::Rust, "const S: &str = r#\"\n return 1\"#;", "return"),
            Some((raw, "\n return 1".into()))
        );
        let q = Quoting::Quoted {
            interpolates: false,
            one_line: true,
        };
        assert_eq!(
            kind(Lang::Rust, "let s = \"\\n return 1\";", "return"),
            Some((q, "\\n return 1".into()))
        );
        assert_eq!(kind(Lang::Rust, "let s = b\"return 1\";", "return"), None);
        let q = Quoting::Quoted {
            interpolates: true,
            one_line: true,
        };
        assert_eq!(
            kind(Lang::Elixir, "@s \"return 1\"", "return"),
            Some((q, "return 1".into()))
        );
        let raw = Quoting::Raw { close: "\"".into() };
        assert_eq!(
            kind(Lang::Elixir, "@s ~S\"return 1\"", "return"),
            Some((raw, "return 1".into()))
        );
        assert_eq!(kind(Lang::Elixir, "@s ~s\"return 1\"", "return"), None);
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
    fn text_is_spelt_for_its_kind() {
        let q = Quoting::Quoted {
            interpolates: true,
            one_line: false,
        };
        assert_eq!(
            encode(&q, "a\"b\\c#{d}").as_deref(),
            Some("a\\\"b\\\\c\\#{d}")
        );
        let q = Quoting::Quoted {
            interpolates: false,
            one_line: true,
        };
        assert_eq!(encode(&q, "a\nb#{").as_deref(), Some("a\\nb#{"));
        let raw = Quoting::Raw {
            close: "\"#".into(),
        };
        assert_eq!(encode(&raw, "x \"# y"), None);
        let h = Quoting::Heredoc {
            indent: "  ".into(),
            raw: false,
        };
        assert_eq!(encode(&h, "a\n\nb\n").as_deref(), Some("  a\n\n  b\n"));
        assert_eq!(encode(&h, "a"), None);
        assert!(plain("emq:") && plain("job:") && !plain("a\"b") && !plain("{x}"));
    }
}
