//! The default output: miette graphical reports on stderr, one per finding,
//! with the primary label on the diverging bytes, secondary labels on the
//! contract entry or the agreeing code, and a help line.

use super::graphical::{self, Excerpt, Part};
use super::{CheckRun, Output, Reporter};
use crate::diagnostic::Diagnostic;
use crate::facts::Span;
use crate::pipeline::Analysis;

/// Context lines around the labels (the handler shows one).
const CONTEXT: usize = 2;

/// One file's part of a report: its lines around `labels` (spans with
/// their text), as an [`Excerpt`] whose header counts columns as the JSON
/// does (Unicode scalar values, no byte order mark).
fn part(a: &Analysis, message: String, labels: &[(Span, Option<String>, bool)]) -> Part<Excerpt> {
    let f = a.sources.get(labels[0].0.file);
    let spans: Vec<Span> = labels.iter().map(|l| l.0).collect();
    let (src, ranges) = Excerpt::new(f.rel.clone(), f, &spans, CONTEXT);
    let labels = labels
        .iter()
        .zip(ranges)
        .map(|((_, text, primary), r)| graphical::label(r, text.clone(), *primary))
        .collect();
    Part::advice(message, src, labels)
}

/// Message text as the report shows it: control characters escaped
/// ([`super::escape::text`]), so that no message, label or help line from
/// the tree can break a line.
fn shown(s: &str) -> String {
    super::escape::text(s).into_owned()
}

fn to_part(a: &Analysis, d: &Diagnostic) -> Part<Excerpt> {
    let file = d.primary.span.file;
    let mut labels = vec![(d.primary.span, Some(shown(&d.primary.message)), true)];
    let mut related = Vec::new();
    // A related label near the primary shares its snippet; one further away
    // gets its own, so that the report's first location is the primary's.
    let line = |span: Span| a.sources.get(span.file).line(span.start);
    let primary_line = line(d.primary.span);
    for r in &d.related {
        if r.span.file == file && line(r.span).abs_diff(primary_line) <= 3 {
            labels.push((r.span, Some(shown(&r.message)), false));
        } else {
            related.push(part(a, shown(&r.message), &[(r.span, None, false)]));
        }
    }
    let speaker = d
        .speaker
        .as_ref()
        .map(|s| format!(" [{s}]"))
        .unwrap_or_default();
    let mut p = part(a, shown(&format!("{}{speaker}", d.message)), &labels);
    p.code = Some(format!("{} {}", d.code, d.name));
    p.severity = graphical::severity(d.severity);
    p.help = d.help.as_deref().map(shown);
    p.related = related;
    p
}

/// Whether to colour: stderr is a terminal and `NO_COLOR` is unset.
pub fn want_color() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// `--format full`: the graphical reports on stderr (after the matrix, on
/// stdout, when asked for).
pub struct Human;

impl Reporter<CheckRun<'_>> for Human {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output {
            stdout: run.matrix.map(super::matrix::render_text),
            stderr: render(run.analysis, run.diagnostics, run.color)
                + &super::coverage::listing(run),
        }
    }
}

/// How many findings one run shows in full; the rest get one line each.
/// Laying out a report takes about 50 µs, and 87,000 findings from one
/// hostile 1 MB file took 4 s to print as 1.6 million lines nobody reads.
pub const MAX_FULL: usize = 1000;

/// Renders every finding (past [`MAX_FULL`], one line each, as `concise`
/// does), then the notes. The closing line is added by the caller.
pub fn render(a: &Analysis, diagnostics: &[&Diagnostic], color: bool) -> String {
    let handler = graphical::handler(color, 100);
    let mut out = String::new();
    for d in diagnostics.iter().take(MAX_FULL) {
        let part = to_part(a, d);
        if graphical::render(&handler, &mut out, &part).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, shown(&d.message)));
        }
        out.push('\n');
    }
    if diagnostics.len() > MAX_FULL {
        out.push_str(&format!(
            "{} more findings, one line each (the first {MAX_FULL} are shown in full):\n",
            diagnostics.len() - MAX_FULL
        ));
        for d in &diagnostics[MAX_FULL..] {
            out.push_str(&super::concise::line(a, d));
            out.push('\n');
        }
        out.push('\n');
    }
    for n in &a.notes {
        out.push_str(&format!("note: {}: {}\n", n.path, shown(&n.message)));
    }
    out
}
