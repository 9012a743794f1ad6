//! `--format github`: GitHub Actions workflow commands, one annotation per
//! finding, on stdout.
//!
//! ```text
//! ::error file=a.ex,line=9,endLine=9,col=69,endColumn=72,title=WL201 unknown-field::field `data` …
//! ```
//!
//! - `line`/`endLine` are 1-based; `col` is the 1-based column of the first
//!   character and `endColumn` that of the last (inclusive), counted in
//!   Unicode scalar values. A span over several lines has no `col` or
//!   `endColumn`: GitHub would apply them to the wrong lines.
//! - Properties escape `%`, CR, LF, `:` and `,`; the message escapes `%`,
//!   CR and LF, so a multi-line message (the help) stays one command.
//! - GitHub shows at most 10 annotations of each level per step. The first
//!   [`CAP`] of each level are annotations; the rest are printed as plain
//!   `path:line:col: CODE message` lines in the step's log, between
//!   `::stop-commands::` and its token so that none can be read as a
//!   command ([`plain_lines`]), and a notice says how many there were and
//!   where to find them.
//! - Every line is escaped: control characters in a name or a message can
//!   neither end the command nor start another. Text from the tree shows
//!   them as `\u{..}` (`super::escape::text`); only the lines wirelint adds
//!   (help, related places) are `%0A`.

use super::span_lines;
use super::{CheckRun, Output, Reporter};
use crate::diagnostic::{Diagnostic, Severity};
use crate::pipeline::Analysis;
use crate::source::LineCol;

/// Annotations per level that GitHub displays for one step.
pub const CAP: usize = 10;

/// Escapes the message part (after `::`): `%`, CR and LF as GitHub
/// decodes them, and any other control character as `\u{..}`
/// ([`super::escape::text`]). Text from outside is escaped with
/// [`super::escape::text`] before it is joined to the lines wirelint adds.
pub fn escape_data(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    super::escape::text(&s).into_owned()
}

/// Escapes a property value (`file=`, `title=`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// `line`, `endLine`, and `col`/`endColumn` when the span is on one line,
/// from a span's start and exclusive end.
pub fn position(s: LineCol, e: LineCol) -> Vec<String> {
    let mut props = vec![format!("line={}", s.line), format!("endLine={}", e.line)];
    if s.line == e.line {
        let end_col = e.column.saturating_sub(1).max(s.column);
        props.push(format!("col={}", s.column));
        props.push(format!("endColumn={end_col}"));
    }
    props
}

/// One finding's workflow command, without the newline.
pub fn annotation(a: &Analysis, d: &Diagnostic) -> String {
    let (s, e) = span_lines(a, d.primary.span);
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    // The embedded contract has no file in the repository: no `file=`,
    // and the message says where in the contract it is.
    let place = super::embedded_place(a, d.primary.span);
    let mut props = Vec::new();
    if place.is_none() {
        props.push(format!(
            "file={}",
            escape_property(&a.sources.get(d.primary.span.file).rel)
        ));
        props.extend(position(s, e));
    }
    props.push(format!(
        "title={}",
        escape_property(&format!("{} {}", d.code, d.name))
    ));
    // Text from the tree is escaped before the lines wirelint adds (the
    // help, the related places) are joined to it, so that only those are
    // written as `%0A`, which GitHub shows as line breaks.
    let shown = |s: &str| super::escape::text(s).into_owned();
    let mut text = match place {
        Some(p) => format!("{p}: {}", shown(&d.message)),
        None => shown(&d.message),
    };
    if let Some(sp) = &d.speaker {
        text.push_str(&format!(" [{}]", shown(sp)));
    }
    if let Some(h) = &d.help {
        text.push_str(&format!("\nhelp: {}", shown(h)));
    }
    for r in &d.related {
        let (rs, _) = span_lines(a, r.span);
        text.push_str(&format!(
            "\n{}:{}: {}",
            a.sources.get(r.span.file).rel,
            rs.line,
            shown(&r.message)
        ));
    }
    format!("::{level} {}::{}", props.join(","), escape_data(&text))
}

/// `--format github`.
pub struct Github;

impl Reporter<CheckRun<'_>> for Github {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output::stdout(render(run.analysis, run.diagnostics))
    }
}

pub fn render(a: &Analysis, diagnostics: &[&Diagnostic]) -> String {
    let mut out = String::new();
    let mut shown = [0usize; 2];
    let mut held: Vec<&Diagnostic> = Vec::new();
    for d in diagnostics {
        let i = match d.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
        };
        if shown[i] < CAP {
            shown[i] += 1;
            out.push_str(&annotation(a, d));
            out.push('\n');
        } else {
            held.push(d);
        }
    }
    if !held.is_empty() {
        let errors = held
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let warnings = held.len() - errors;
        out.push_str(&plain_lines(
            held.iter().map(|d| super::concise::line(a, d)),
        ));
        let notice = format!(
            "wirelint: {} more not annotated ({errors} {}, {warnings} {}): GitHub shows {CAP} annotations per level; they are listed in this step's log above, and `wirelint check` prints them all",
            held.len(),
            if errors == 1 { "error" } else { "errors" },
            if warnings == 1 { "warning" } else { "warnings" },
        );
        out.push_str(&format!(
            "::notice title=wirelint::{}\n",
            escape_data(&notice)
        ));
    }
    out
}

/// Lines for the step's log that GitHub must not read as commands: each is
/// one line (`concise::line` escapes control characters), and the block is
/// framed by `::stop-commands::TOKEN` and `::TOKEN::`, so that a line that
/// starts with `::` (a file named `::error x.ex`) is printed, not run. The
/// token is the SHA-1 of the block: deterministic, and no line of the block
/// can hold it.
pub fn plain_lines(lines: impl Iterator<Item = String>) -> String {
    use sha1::Digest;
    let block: String = lines.map(|l| format!("{l}\n")).collect();
    let token = format!("wirelint-{:x}", sha1::Sha1::digest(block.as_bytes()));
    format!("::stop-commands::{token}\n{block}::{token}::\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_escapes_percent_cr_lf_only() {
        assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
    }

    fn lc(line: usize, column: usize) -> LineCol {
        LineCol { line, column }
    }

    #[test]
    fn one_line_spans_have_inclusive_columns() {
        assert_eq!(
            position(lc(9, 69), lc(9, 73)),
            ["line=9", "endLine=9", "col=69", "endColumn=72"]
        );
        // An empty span still names its column.
        assert_eq!(
            position(lc(2, 10), lc(2, 10)),
            ["line=2", "endLine=2", "col=10", "endColumn=10"]
        );
    }

    #[test]
    fn multi_line_spans_have_no_columns() {
        assert_eq!(position(lc(3, 5), lc(7, 2)), ["line=3", "endLine=7"]);
    }

    #[test]
    fn percent_is_escaped_first() {
        // `%0A` in the input must not turn into a newline when read back.
        assert_eq!(escape_data("%0A"), "%250A");
    }
}
