//! How deep an Elixir text nests its `do … end` and `fn … end` blocks,
//! read before the parse.
//!
//! Past a few thousand open blocks the Elixir grammar's parse ends with one
//! step that no budget can interrupt: at the end of the input the parser
//! accepts over every path of its stack, with no progress callback between
//! (1 MB of 16,500 nested `case` blocks: 3.2 s in that step alone, 4.6 s in
//! all). Real code nests a few dozen blocks deep at most. So the parse
//! stops where the nesting first passes [`MAX_NESTING`]: the text before
//! that line is parsed and checked, the rest is reported as not checked, as
//! when a parse runs out of budget.
//!
//! The scan is a lexer of words only: it skips comments, strings,
//! charlists, heredocs, sigils, quoted atoms and character literals, and
//! counts `do` and `fn` (not `do:` keywords, not `.do` calls) against
//! `end`. A misread would need a thousand unmatched words to matter, and
//! would then only shorten what is checked, with a finding that says so.

use super::{Lang, Parsed};

/// Open blocks past which an Elixir text is not parsed further.
pub const MAX_NESTING: usize = 1000;

/// Where the nesting of `text` first passes [`MAX_NESTING`] (the offset of
/// the word that opens one block too many), if it does.
pub fn too_deep_elixir(text: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    let n = text.len();
    while i < n {
        let b = text[i];
        match b {
            b'#' => i = line_end(text, i),
            b'"' | b'\'' => i = skip_quoted(text, i),
            b'?' => i = skip_char_literal(text, i),
            b'~' if i + 1 < n && text[i + 1].is_ascii_alphabetic() => i = skip_sigil(text, i),
            b':' if i + 1 < n && matches!(text[i + 1], b'"' | b'\'') => {
                i = skip_quoted(text, i + 1)
            }
            _ if is_word_start(b) => {
                let start = i;
                while i < n && is_word_byte(text[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                let after_colon = i < n && text[i] == b':' && text.get(i + 1) != Some(&b':');
                let called = start > 0 && text[start - 1] == b'.';
                let preceded_by_colon = start > 0 && text[start - 1] == b':';
                if after_colon || called || preceded_by_colon {
                    continue;
                }
                match word {
                    b"do" | b"fn" => {
                        depth += 1;
                        if depth > MAX_NESTING {
                            return Some(start);
                        }
                    }
                    b"end" => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            _ => i += 1,
        }
    }
    None
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'?' | b'!')
}

fn line_end(text: &[u8], i: usize) -> usize {
    memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |j| i + j + 1)
}

/// Past a string, charlist or heredoc opening at `i` (escapes skipped;
/// interpolations are read as part of the string).
fn skip_quoted(text: &[u8], i: usize) -> usize {
    let q = text[i];
    if text[i..].starts_with(&[q, q, q]) {
        let body = i + 3;
        return find_unescaped(text, body, &[q, q, q]).map_or(text.len(), |j| j + 3);
    }
    find_unescaped(text, i + 1, &[q]).map_or(text.len(), |j| j + 1)
}

/// The first `close` at or after `from` not preceded by a backslash escape.
fn find_unescaped(text: &[u8], from: usize, close: &[u8]) -> Option<usize> {
    let mut j = from;
    while j < text.len() {
        if text[j] == b'\\' {
            j += 2;
            continue;
        }
        if text[j..].starts_with(close) {
            return Some(j);
        }
        j += 1;
    }
    None
}

/// `?a`, `?\n`, `?"`: a character literal is one (maybe escaped) character.
fn skip_char_literal(text: &[u8], i: usize) -> usize {
    match text.get(i + 1) {
        Some(b'\\') => (i + 3).min(text.len()),
        Some(_) => (i + 2).min(text.len()),
        None => text.len(),
    }
}

/// `~r/…/`, `~w(…)`, `~S"""…"""`: a sigil's letters, then its delimited
/// body (heredoc delimiters too), then its modifiers.
fn skip_sigil(text: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < text.len() && text[j].is_ascii_alphabetic() {
        j += 1;
    }
    let Some(&open) = text.get(j) else {
        return text.len();
    };
    let close = match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        b'<' => b'>',
        b'/' | b'|' | b'"' | b'\'' => open,
        _ => return j,
    };
    let end = if matches!(open, b'"' | b'\'') && text[j..].starts_with(&[open, open, open]) {
        find_unescaped(text, j + 3, &[open, open, open]).map_or(text.len(), |k| k + 3)
    } else {
        find_unescaped(text, j + 1, &[close]).map_or(text.len(), |k| k + 1)
    };
    let mut k = end;
    while k < text.len() && text[k].is_ascii_alphabetic() {
        k += 1;
    }
    k
}

/// Levels a tree of Python, Go, Ruby, JavaScript or TypeScript may nest
/// before the rest of its text is not checked. Real code stays near 100
/// (the deepest of the corpus: 112, a generated Go protobuf file); the
/// extractors' climbs from a node to the function and call that hold it
/// cost its depth each, so 16,000 nested arrow functions took 80 s.
pub const MAX_TREE_DEPTH: usize = 1000;

/// What makes the tree of a parsed text one not to read past.
#[derive(Clone, Copy)]
pub struct Untrusted {
    /// Deeper than [`MAX_TREE_DEPTH`].
    pub depth: bool,
    /// A Ruby heredoc started in the interpolation of another heredoc's
    /// body: the grammar reads the inner body from after the outer one, so
    /// the rest of the file becomes one string with no error.
    pub heredoc_in_heredoc: bool,
}

/// Where the tree at `root` first stops being one the extractors can read:
/// the start of the first node deeper than [`MAX_TREE_DEPTH`], or the line
/// before the body of a heredoc that holds another (where the outer heredoc
/// starts), whichever comes first.
pub fn untrusted_from(root: tree_sitter::Node<'_>, what: Untrusted) -> Option<usize> {
    let mut cursor = root.walk();
    let mut depth = 0usize;
    // Depths of the heredoc bodies the cursor is in, outermost first.
    let mut bodies: Vec<(usize, usize)> = Vec::new();
    loop {
        let n = cursor.node();
        if what.depth && depth > MAX_TREE_DEPTH {
            return Some(n.start_byte());
        }
        if what.heredoc_in_heredoc {
            match n.kind() {
                "heredoc_body" => bodies.push((depth, n.start_byte())),
                "heredoc_beginning" if !bodies.is_empty() => {
                    return Some(bodies[0].1.saturating_sub(1));
                }
                _ => {}
            }
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if bodies.last().is_some_and(|b| b.0 == depth) {
                bodies.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
            depth -= 1;
        }
    }
}

impl super::Parsers {
    /// `parsed`, the parse of `text`; or, when its tree stops being one to
    /// read ([`untrusted_from`]), the parse of the text up to the start of
    /// that line (nothing, when that is the first line).
    pub(super) fn trusted(&mut self, lang: Lang, text: &[u8], mut parsed: Parsed) -> Parsed {
        let Some(what) = super::untrusted(lang) else {
            return parsed;
        };
        // A prefix parses to a tree of its own, which is checked again; a
        // few rounds at most, then nothing is checked.
        for _ in 0..4 {
            let Some(tree) = &parsed.tree else {
                return parsed;
            };
            let Some(at) = untrusted_from(tree.root_node(), what) else {
                return parsed;
            };
            let cut = super::line_start_before(text, at.min(parsed.checked));
            super::free_later(parsed.tree.take());
            if cut == 0 {
                break;
            }
            parsed = self.parse_budgeted(lang, &text[..cut]);
        }
        Parsed {
            tree: None,
            checked: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        let mut s = String::from("defmodule M do\n  def f(x) do\n");
        for _ in 0..depth {
            s.push_str("case x do\n  y ->\n");
        }
        for _ in 0..depth {
            s.push_str("end\n");
        }
        s.push_str("  end\nend\n");
        s
    }

    /// Real shapes never count: keywords, calls named `do`/`end`, words in
    /// strings, sigils, heredocs, comments, quoted atoms and characters.
    #[test]
    fn only_block_words_count() {
        let words = "do fn ".repeat(MAX_NESTING);
        let hidden = [
            format!("# {words}\n"),
            format!("\"{words}\"\n"),
            format!("'{words}'\n"),
            format!("\"\"\"\n{words}\n\"\"\"\n"),
            format!("~w({words})\n"),
            format!("~S\"\"\"\n{words}\n\"\"\"\n"),
            format!(":\"{words}\"\n"),
            "x.do(); y.end(); [do: 1, end: 2]; ?d; :do\n".repeat(MAX_NESTING),
        ];
        for text in hidden {
            assert_eq!(too_deep_elixir(text.as_bytes()), None, "{text:.60}");
        }
        assert_eq!(too_deep_elixir(nested(MAX_NESTING - 2).as_bytes()), None);
    }

    /// Every prefix of a text that opens each skipped form is scanned
    /// without a panic (an unclosed string, sigil or heredoc runs to the
    /// end).
    #[test]
    fn unclosed_forms_end_the_scan() {
        let text = "x = ?\\ ?a :\"q\" '''a''' \"\"\"b\"\"\" ~S\"\"\"c\"\"\" ~r/d\\/e/i ~w(f) \"g\\\"h\" # i\ndo end fn";
        for cut in 0..=text.len() {
            let _ = too_deep_elixir(&text.as_bytes()[..cut]);
        }
        assert_eq!(too_deep_elixir(text.as_bytes()), None);
    }

    /// One block past the limit is found, at the word that opens it.
    #[test]
    fn the_block_past_the_limit_is_found() {
        let text = nested(MAX_NESTING);
        let at = too_deep_elixir(text.as_bytes()).expect("too deep");
        assert_eq!(&text[at..at + 2], "do");
        assert_eq!(text[..at].matches(" do\n").count(), MAX_NESTING);
    }
}
