//! `--format concise`: one line per finding,
//! `path:line:col: SEVERITY[CODE]: message`, on stdout, as rustc's
//! `--error-format=short` writes it (`error[WL201]: ...`,
//! `warning[WL002]: ...`). Line and column are 1-based; the column counts
//! Unicode scalar values. Control characters in a message are written as `\u{..}`
//! (`super::escape::text`): one finding is always one line.

use super::span_lines;
use super::{CheckRun, Output, Reporter};
use crate::diagnostic::Diagnostic;
use crate::pipeline::Analysis;

/// One finding's line, without the newline. A finding in the embedded
/// contract (`audit`'s) has no file to name: its line starts with the
/// severity and code, and its message with where in the contract it is
/// (`super::embedded_place`).
pub fn line(a: &Analysis, d: &Diagnostic) -> String {
    if let Some(place) = super::embedded_place(a, d.primary.span) {
        return format!(
            "{}[{}]: {place}: {}",
            d.severity.as_str(),
            d.code,
            super::escape::text(&d.message)
        );
    }
    let (s, _) = span_lines(a, d.primary.span);
    let path = &a.sources.get(d.primary.span.file).rel;
    format!(
        "{}:{}:{}: {}[{}]: {}",
        path,
        s.line,
        s.column,
        d.severity.as_str(),
        d.code,
        super::escape::text(&d.message)
    )
}

/// `--format concise`.
pub struct Concise;

impl Reporter<CheckRun<'_>> for Concise {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output {
            stdout: Some(render(run.analysis, run.diagnostics)),
            // Terse: coverage when asked for, and the summary line when
            // a script call or a script is left unchecked.
            stderr: if run.list_coverage || run.coverage.has_gaps() {
                super::coverage::listing(run)
            } else {
                String::new()
            },
        }
    }
}

pub fn render(a: &Analysis, diagnostics: &[&Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&line(a, d));
        out.push('\n');
    }
    out
}
