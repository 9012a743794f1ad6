//! The one escaping of text from outside for the text formats. A key, a
//! field or a script name read from the tree, a Redis type name or error
//! from a server, a speaker named in `wirelint.toml`: any of them may hold
//! a newline followed by `::warning::…` (which a GitHub Actions runner
//! reads as a workflow command once it starts a line), a carriage return,
//! or a terminal escape. Every reporter writes such text through [`text`],
//! and the graphical reports, which wrap long lines, through [`lines`] as
//! well. The JSON formats (`json`, `json-lines`, `sarif`, `gitlab`) carry
//! the decoded characters instead, which JSON escapes.
//!
//! Paths are escaped once, when the file table names them
//! (`crate::source::display_name`), in the same notation.

use std::borrow::Cow;

/// Whether [`text`] escapes `c`: every control character (C0, DEL, C1:
/// a newline, a carriage return, a tab, an escape, a bell) and the Unicode
/// line and paragraph separators, which some viewers break lines at.
fn escaped(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Text from outside as every text format shows it: each character
/// [`escaped`] as `\u{..}` (a newline is `\u{a}`, an escape `\u{1b}`), the
/// rest as it is. One line in, one line out.
pub fn text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(escaped) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A rendered report whose lines wrapping laid out: no line may start, after
/// white space (which a GitHub Actions runner trims), with `::`, so the
/// first `:` of such a line is shown as `\u{3a}`. Wrapping cuts a word
/// longer than the line wherever the width falls, so a key of repeated
/// `::warning::` would otherwise put one at the start of a line.
pub fn lines(rendered: &str) -> Cow<'_, str> {
    let starts = |l: &str| l.trim_start().starts_with("::");
    if !rendered.lines().any(starts) {
        return rendered.into();
    }
    let mut out = String::with_capacity(rendered.len() + 16);
    for l in rendered.split_inclusive('\n') {
        if starts(l) {
            let at = l.len() - l.trim_start().len();
            out.push_str(&l[..at]);
            out.push_str("\\u{3a}");
            out.push_str(&l[at + 1..]);
        } else {
            out.push_str(l);
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_separators_are_escaped() {
        assert_eq!(
            text("a\n::warning::b\r\t\u{1b}[0m\u{7f}\u{85}\u{2028}é"),
            "a\\u{a}::warning::b\\u{d}\\u{9}\\u{1b}[0m\\u{7f}\\u{85}\\u{2028}é"
        );
        assert!(matches!(text("plain `text` é"), Cow::Borrowed(_)));
    }

    #[test]
    fn no_line_starts_a_workflow_command() {
        assert_eq!(
            lines("  help: a\n        ::warning::x\n::error::y\nz ::ok\n"),
            "  help: a\n        \\u{3a}:warning::x\n\\u{3a}:error::y\nz ::ok\n"
        );
        assert!(matches!(lines("a\n b ::c\n"), Cow::Borrowed(_)));
    }
}
