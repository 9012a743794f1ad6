//! The default output: miette graphical reports on stderr, one per finding,
//! with the primary label on the diverging bytes, secondary labels on the
//! contract entry or the agreeing code, and a help line.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::graphical::{self, Part};
use super::{CheckRun, Output, Reporter};
use crate::diagnostic::Diagnostic;
use crate::facts::Span;
use crate::pipeline::Analysis;

/// A file's display text, named. miette's `[path:line:col]` header would
/// count the column in bytes of the display text; this counts Unicode scalar
/// values after the line start (`\n`, `\r\n` or a lone `\r`), without a
/// byte order mark, exactly as the JSON output does
/// (`SourceFile::line_col`).
#[derive(Debug)]
struct Src {
    name: String,
    text: String,
}

impl Src {
    fn column(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let before = &self.text.as_bytes()[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        let mut col = self.text[line_start..]
            .char_indices()
            .take_while(|(i, _)| line_start + i < offset)
            .count();
        if line_start == 0 && self.text.starts_with('\u{FEFF}') && offset >= 3 {
            col -= 1;
        }
        col
    }
}

impl SourceCode for Src {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        // Without context lines, miette reads the primary label for the
        // header's line and column; with them (the snippet), its own byte
        // columns lay out the underlines and stay as they are.
        let column = if before == 0 && after == 0 {
            self.column(span.offset())
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

fn label(a: &Analysis, span: Span, text: &str, primary: bool) -> miette::LabeledSpan {
    graphical::label(
        a.sources.get(span.file),
        span,
        Some(text.to_string()),
        primary,
    )
}

fn source(a: &Analysis, file: u32) -> Src {
    let f = a.sources.get(file);
    Src {
        name: f.rel.clone(),
        text: f.text_lossy().into_owned(),
    }
}

fn to_part(a: &Analysis, d: &Diagnostic) -> Part<Src> {
    let file = d.primary.span.file;
    let mut labels = vec![label(a, d.primary.span, &d.primary.message, true)];
    let mut related = Vec::new();
    // A related label near the primary shares its snippet; one further away
    // gets its own, so that the report's first location is the primary's.
    let line = |span: Span| a.sources.get(span.file).line_col(span.start).line;
    let primary_line = line(d.primary.span);
    for r in &d.related {
        if r.span.file == file && line(r.span).abs_diff(primary_line) <= 3 {
            labels.push(label(a, r.span, &r.message, false));
        } else {
            let f = a.sources.get(r.span.file);
            related.push(Part::advice(
                r.message.clone(),
                source(a, r.span.file),
                vec![graphical::label(f, r.span, None, false)],
            ));
        }
    }
    let speaker = d
        .speaker
        .as_ref()
        .map(|s| format!(" [{s}]"))
        .unwrap_or_default();
    Part {
        message: format!("{}{speaker}", d.message),
        code: Some(format!("{} {}", d.code, d.name)),
        severity: graphical::severity(d.severity),
        help: d.help.clone(),
        source: source(a, file),
        labels,
        related,
    }
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

/// Renders every finding, then the notes. The closing line is added by the
/// caller.
pub fn render(a: &Analysis, diagnostics: &[&Diagnostic], color: bool) -> String {
    let handler = graphical::handler(color, 100);
    let mut out = String::new();
    for d in diagnostics {
        let part = to_part(a, d);
        if handler.render_report(&mut out, &part).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, d.message));
        }
        out.push('\n');
    }
    for n in &a.notes {
        out.push_str(&format!("note: {}: {}\n", n.path, n.message));
    }
    out
}
