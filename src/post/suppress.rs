//! Inline suppressions: `# wirelint: allow(WL201)` (Elixir),
//! `// wirelint: allow(WL201)` (Rust), `-- wirelint: allow(WL201)` (Lua,
//! and Lua embedded in Elixir or Rust strings). Several codes are separated
//! by commas: `allow(WL201, WL202)`.
//!
//! A suppression on line L silences the findings of the named rules whose
//! primary span starts on line L (a trailing comment) or L + 1 (a comment
//! on the line before). One that silences nothing is reported as WL002
//! unused-suppression, unless its rule is turned off by `wirelint.toml`.

use memchr::memmem;

use crate::checks::{CheckContext, UNUSED_SUPPRESSION};
use crate::config::settings::Settings;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Label};
use crate::facts::{FileId, Lang, Span};
use crate::pipeline::Analysis;
use std::collections::HashMap;

use crate::facts::SUPPRESSION_MARK as MARK;

/// One `wirelint: allow(...)` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// From the comment marker to the closing parenthesis.
    pub span: Span,
    /// 1-based line of the comment.
    pub line: usize,
    /// Upper-cased codes, each with its span.
    pub codes: Vec<(String, Span)>,
}

/// Finds the suppressions of one file: in its `comments` only (the spans
/// the extractors found, host and embedded Lua), so that a string that
/// reads `# wirelint: allow(..)` suppresses nothing.
pub fn scan(
    file: u32,
    bytes: &[u8],
    lang: Lang,
    comments: &[Span],
    line_of: impl Fn(u32) -> usize,
) -> Vec<Suppression> {
    let mut out = Vec::new();
    let markers = lang.host().comment_markers();
    let in_comment = |s: usize, e: usize| {
        comments
            .iter()
            .any(|c| c.file == file && c.start as usize <= s && e <= c.end as usize)
    };
    for at in memmem::find_iter(bytes, MARK) {
        // A comment marker, then only spaces, right before `wirelint:`.
        let line_start = bytes[..at]
            .iter()
            .rposition(|b| *b == b'\n' || *b == b'\r')
            .map_or(0, |i| i + 1);
        let before = &bytes[line_start..at];
        let trimmed_len = before
            .iter()
            .rposition(|b| *b != b' ' && *b != b'\t')
            .map_or(0, |i| i + 1);
        let head = &before[..trimmed_len];
        let Some(marker) = markers.iter().find(|m| head.ends_with(m.as_bytes())) else {
            continue;
        };
        let start = line_start + trimmed_len - marker.len();
        if !in_comment(start, at + MARK.len()) {
            continue;
        }
        // `allow(` codes `)`.
        let mut i = at + MARK.len();
        while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
            i += 1;
        }
        if !bytes[i..].starts_with(b"allow(") {
            continue;
        }
        i += b"allow(".len();
        let Some(close) = bytes[i..]
            .iter()
            .position(|b| *b == b')' || *b == b'\n')
            .filter(|p| bytes[i + p] == b')')
        else {
            continue;
        };
        let mut codes = Vec::new();
        let mut pos = i;
        for part in bytes[i..i + close].split(|b| *b == b',') {
            let lead = part.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let word = part[lead..]
                .iter()
                .take_while(|b| !b.is_ascii_whitespace())
                .count();
            if word > 0 {
                let s = pos + lead;
                codes.push((
                    String::from_utf8_lossy(&bytes[s..s + word]).to_ascii_uppercase(),
                    Span::new(file, s, s + word),
                ));
            }
            pos += part.len() + 1;
        }
        out.push(Suppression {
            span: Span::new(file, start, i + close + 1),
            line: line_of(start as u32),
            codes,
        });
    }
    out
}

/// Removes the suppressed findings and adds WL002 for every suppression
/// code that silenced nothing. Keeps the output order.
pub fn apply(a: &mut Analysis, settings: &Settings) {
    let mut unused: Vec<Diagnostic> = Vec::new();
    // The findings by file, and those suppressed so far: each suppression
    // looks only at its two lines (a pass over every finding for each one
    // was quadratic: 15,000 suppressions took 5 s).
    let mut by_file: HashMap<FileId, Vec<usize>> = HashMap::new();
    for (i, d) in a.diagnostics.iter().enumerate() {
        by_file.entry(d.primary.span.file).or_default().push(i);
    }
    let mut suppressed = vec![false; a.diagnostics.len()];
    for (id, f) in a.sources.iter() {
        let Some(lang) = f.lang else {
            continue;
        };
        // Only files whose scan found the mark are read again.
        if !f.may_suppress || memmem::find(f.bytes(), MARK).is_none() {
            continue;
        }
        let comments: Vec<Span> = a
            .model
            .comments
            .iter()
            .filter(|c| c.file == id)
            .copied()
            .collect();
        let sups = scan(id, f.bytes(), lang, &comments, |o| f.line(o));
        let mut by_line: HashMap<usize, Vec<usize>> = HashMap::new();
        for &i in by_file.get(&id).into_iter().flatten() {
            let line = f.line(a.diagnostics[i].primary.span.start);
            by_line.entry(line).or_default().push(i);
        }
        let cx = CheckContext::new(&a.model, a.contract.as_ref(), a.contract_file, &a.sources);
        for s in sups {
            let mut found: Vec<(String, Span, bool)> = Vec::new();
            for (code, code_span) in &s.codes {
                let mut used = false;
                for line in [s.line, s.line + 1] {
                    for &i in by_line.get(&line).into_iter().flatten() {
                        if !suppressed[i] && a.diagnostics[i].code == code {
                            suppressed[i] = true;
                            used = true;
                        }
                    }
                }
                let known = crate::checks::rule(code).is_some();
                let report = !used && (!known || settings.enabled(code));
                found.push((code.clone(), *code_span, report));
            }
            let fix = removal(f.bytes(), &s, &comments, &found);
            for (code, code_span, _) in found.iter().filter(|c| c.2) {
                let known = crate::checks::rule(code).is_some();
                let message = if known {
                    format!("`allow({code})` suppresses nothing: no {code} finding on this line or the next")
                } else {
                    format!("`allow({code})` names no rule")
                };
                let mut d =
                    UNUSED_SUPPRESSION.diagnostic(message, Label::new(*code_span, "unused"));
                let help = if known {
                    "remove it, or move it onto the line of the finding it is meant for (or just above)"
                } else {
                    "name a rule code such as WL201 (`wirelint rules` lists them)"
                };
                cx.finish_input(&mut d, help.into());
                d.fix = fix.clone();
                unused.push(d);
            }
        }
    }
    let mut at = 0;
    a.diagnostics.retain(|_| {
        at += 1;
        !suppressed[at - 1]
    });
    settings.apply(&mut unused);
    a.diagnostics.extend(unused);
    a.diagnostics
        .sort_by(|x, y| x.sort_key().cmp(&y.sort_key()));
}

/// The edit that takes the unused codes out of a suppression, the same for
/// each of its WL002 findings: the whole comment when no code is left (its
/// whole line when the comment stands alone on it), else the code list
/// with the codes still in use.
fn removal(
    bytes: &[u8],
    s: &Suppression,
    comments: &[Span],
    codes: &[(String, Span, bool)],
) -> Option<Fix> {
    let unused: Vec<&str> = codes.iter().filter(|c| c.2).map(|c| c.0.as_str()).collect();
    if unused.is_empty() {
        return None;
    }
    let message = format!("remove the unused `allow({})`", unused.join(", "));
    let kept: Vec<&[u8]> = codes
        .iter()
        .filter(|c| !c.2)
        .filter_map(|c| bytes.get(c.1.start as usize..c.1.end as usize))
        .collect();
    if !kept.is_empty() {
        let (first, last) = (codes.first()?.1, codes.last()?.1);
        let text = kept
            .iter()
            .map(|k| String::from_utf8_lossy(k))
            .collect::<Vec<_>>()
            .join(", ");
        let span = Span::new(s.span.file, first.start as usize, last.end as usize);
        return Some(Fix::one(Applicability::Safe, message, Edit { span, text }));
    }
    let (mut start, mut end) = (s.span.start as usize, s.span.end as usize);
    // The rest of a one-line comment goes with it (`# wirelint: allow(X) why`).
    if let Some(c) = comments
        .iter()
        .find(|c| c.start <= s.span.start && s.span.end <= c.end)
    {
        let rest = bytes.get(end..c.end as usize)?;
        if !rest.contains(&b'\n') {
            end = c.end as usize;
        }
    }
    let line_start = bytes[..start]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let blank = |b: &u8| *b == b' ' || *b == b'\t' || *b == b'\r';
    let after = bytes.get(end..)?;
    let line_rest = after.iter().position(|b| *b == b'\n');
    let alone = bytes[line_start..start].iter().all(blank)
        && after[..line_rest.unwrap_or(after.len())].iter().all(blank);
    if alone {
        start = line_start;
        end = line_rest.map_or(bytes.len(), |p| end + p + 1);
    } else {
        start = line_start
            + bytes[line_start..start]
                .iter()
                .rposition(|b| !blank(b))
                .map_or(0, |i| i + 1);
    }
    let span = Span::new(s.span.file, start, end);
    Some(Fix::one(
        Applicability::Safe,
        message,
        Edit {
            span,
            text: String::new(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suppressions of a file whose comments are found by parsing it.
    fn codes(bytes: &str, lang: Lang) -> Vec<(usize, Vec<String>)> {
        let b = bytes.as_bytes();
        let mut parsers = crate::parse::Parsers::new().unwrap();
        let facts = crate::extract::extract_file(&mut parsers, lang, 0, b, "x");
        let mut comments = facts.comments.clone();
        for s in &facts.scripts {
            if let crate::facts::ScriptSource::Inline(lua) = &s.source {
                comments.extend(lua.comments.iter().copied());
            }
        }
        scan(0, b, lang, &comments, |o| {
            b[..o as usize].iter().filter(|c| **c == b'\n').count() + 1
        })
        .into_iter()
        .map(|s| (s.line, s.codes.into_iter().map(|c| c.0).collect()))
        .collect()
    }

    #[test]
    fn each_language_has_its_comment() {
        assert_eq!(
            codes("x\n# wirelint: allow(WL201)\n", Lang::Elixir),
            [(2, vec!["WL201".to_string()])]
        );
        assert_eq!(
            codes("f(); // wirelint: allow(wl101, WL103)\n", Lang::Rust),
            [(1, vec!["WL101".to_string(), "WL103".to_string()])]
        );
        assert_eq!(
            codes("--wirelint: allow(WL302)", Lang::Lua),
            [(1, vec!["WL302".to_string()])]
        );
        // Lua embedded in a host string uses Lua's comment.
        let heredoc =
            "@s \"\"\"\n  -- wirelint: allow(WL201)\n  redis.call('GET', KEYS[1])\n\"\"\"\n";
        assert_eq!(codes(heredoc, Lang::Elixir).len(), 1);
    }

    #[test]
    fn only_in_comments_and_well_formed() {
        assert!(codes("s = \"wirelint: allow(WL201)\"", Lang::Elixir).is_empty());
        // A string that reads like a comment is a string.
        assert!(codes("s = \"# wirelint: allow(WL103)\"\n", Lang::Elixir).is_empty());
        assert!(codes("let s = \"// wirelint: allow(WL103)\";\n", Lang::Rust).is_empty());
        assert!(codes("local s = '-- wirelint: allow(WL103)'\n", Lang::Lua).is_empty());
        let in_lua_string = "@s \"\"\"\n  redis.call('GET', '-- wirelint: allow(WL201)')\n\"\"\"\n";
        assert!(codes(in_lua_string, Lang::Elixir).is_empty());
        assert!(codes("# wirelint: allow(WL201", Lang::Elixir).is_empty());
        assert!(codes("# wirelint: deny(WL201)", Lang::Elixir).is_empty());
        assert!(codes("# wirelint: allow(WL201)", Lang::Rust).is_empty());
    }

    #[test]
    fn spans_cover_the_comment_and_each_code() {
        let comment = [Span::new(3, 2, 29)];
        let s = scan(
            3,
            b"a # wirelint: allow(WL1, WL2)",
            Lang::Elixir,
            &comment,
            |_| 1,
        );
        assert_eq!(s[0].span, Span::new(3, 2, 29));
        assert_eq!(s[0].codes[1].1, Span::new(3, 25, 28));
    }
}
