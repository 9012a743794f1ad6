//! Scripts kept as templates: a `.lua` file whose lines are ERB tags
//! (`<%= include_partial "shared/_common.lua" %>`), which a Ruby host
//! renders before it loads the script (sidekiq-unique-jobs keeps its
//! scripts so). Such a line is not Lua; a line that begins with `<%` never
//! is, so it cannot be misread.
//!
//! The file is parsed from a copy of the same length where each such line
//! is blank, except that an `include_partial "path"` becomes the
//! `--- @include "path"` the Lua extractor already reads, with the path at
//! the same offset: the included file's key uses join the script's, and an
//! include that does not resolve is noted.

/// The text with every whole-line ERB tag blanked (its line end kept), or
/// `None` when there is none.
pub fn blank_erb_lines(src: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0usize;
    for line in src.split_inclusive(|&b| b == b'\n') {
        let start = at;
        at += line.len();
        let body = line.trim_ascii_end();
        let lead = body.len() - body.trim_ascii_start().len();
        let tag = &body[lead..];
        if !(tag.starts_with(b"<%") && tag.ends_with(b"%>") && tag.len() >= 4) {
            continue;
        }
        let out = out.get_or_insert_with(|| src.to_vec());
        let from = start + lead;
        let to = from + tag.len();
        out[from..to].fill(b' ');
        if let Some((q0, q1)) = include_path(tag) {
            const MARK: &[u8] = b"--- @include ";
            if MARK.len() <= q0 {
                out[from..from + MARK.len()].copy_from_slice(MARK);
                out[from + q0..=from + q1].copy_from_slice(&tag[q0..=q1]);
            }
        }
    }
    out
}

/// `<%= include_partial "path" %>`: the offsets (in the tag) of the
/// opening and closing quotes of the path.
fn include_path(tag: &[u8]) -> Option<(usize, usize)> {
    const NAME: &[u8] = b"include_partial";
    let at = memchr::memmem::find(tag, NAME)? + NAME.len();
    let q0 = at
        + tag[at..]
            .iter()
            .position(|b| !b.is_ascii_whitespace() && *b != b'(')?;
    let quote = tag[q0];
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let q1 = q0 + 1 + tag[q0 + 1..].iter().position(|&b| b == quote)?;
    Some((q0, q1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_erb_include_becomes_an_include_at_the_same_offsets() {
        let src = b"local a = 1\n<%= include_partial \"shared/_common.lua\" %>\nreturn a\n";
        let out = blank_erb_lines(src).expect("a tag");
        assert_eq!(out.len(), src.len());
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "local a = 1\n--- @include        \"shared/_common.lua\"   \nreturn a\n"
        );
        let q = src.iter().position(|&b| b == b'"').unwrap();
        assert_eq!(text.as_bytes()[q], b'"');
    }

    #[test]
    fn other_tags_are_blank_and_lua_is_left_alone() {
        assert_eq!(
            blank_erb_lines(b"  <% if x %>\nlocal s = \"<%= y %>\"\n").as_deref(),
            Some(&b"            \nlocal s = \"<%= y %>\"\n"[..])
        );
        assert_eq!(blank_erb_lines(b"local s = '<%'\n-- <% x %>\n"), None);
        assert_eq!(blank_erb_lines(b"<%\n%>\n<%>"), None);
    }
}
