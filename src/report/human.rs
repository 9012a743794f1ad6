//! The default output: miette graphical reports on stderr, one per finding,
//! with the primary label on the diverging bytes, secondary labels on the
//! contract entry or the agreeing code, and a help line.

use std::fmt;

use miette::{
    Diagnostic as MietteDiagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan,
    MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::Span;
use crate::pipeline::Analysis;

/// One file's part of a report.
#[derive(Debug)]
struct Part {
    message: String,
    code: Option<String>,
    severity: miette::Severity,
    help: Option<String>,
    source: Src,
    labels: Vec<LabeledSpan>,
    related: Vec<Part>,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Part {}

impl MietteDiagnostic for Part {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn MietteDiagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|p| p as &dyn MietteDiagnostic),
        ))
    }
}

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

fn label(a: &Analysis, span: Span, text: &str, primary: bool) -> LabeledSpan {
    let f = a.sources.get(span.file);
    let start = f.display_offset(span.start);
    let end = f.display_offset(span.end).max(start);
    if primary {
        LabeledSpan::new_primary_with_span(Some(text.to_string()), start..end)
    } else {
        LabeledSpan::new_with_span(Some(text.to_string()), start..end)
    }
}

fn source(a: &Analysis, file: u32) -> Src {
    let f = a.sources.get(file);
    Src {
        name: f.rel.clone(),
        text: f.text_lossy().into_owned(),
    }
}

fn to_part(a: &Analysis, d: &Diagnostic) -> Part {
    let file = d.primary.span.file;
    let mut labels = vec![label(a, d.primary.span, &d.primary.message, true)];
    let mut related = Vec::new();
    // A related label near the primary shares its snippet; one further away
    // gets its own, so that the report's first location is the primary's.
    let line = |span: crate::facts::Span| a.sources.get(span.file).line_col(span.start).line;
    let primary_line = line(d.primary.span);
    for r in &d.related {
        if r.span.file == file && line(r.span).abs_diff(primary_line) <= 3 {
            labels.push(label(a, r.span, &r.message, false));
        } else {
            related.push(Part {
                message: r.message.clone(),
                code: None,
                severity: miette::Severity::Advice,
                help: None,
                source: source(a, r.span.file),
                labels: vec![LabeledSpan::new_with_span(None, {
                    let l = label(a, r.span, "", false);
                    l.offset()..l.offset() + l.len()
                })],
                related: Vec::new(),
            });
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
        severity: match d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
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

/// Renders every finding, then the notes. The closing line is added by the
/// caller.
pub fn render(a: &Analysis, diagnostics: &[&Diagnostic], color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_urls(false)
        .with_width(100)
        .with_show_related_as_nested(true)
        .tab_width(4);
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
