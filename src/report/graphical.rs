//! The miette adapter that the graphical reports share (`human` for
//! findings, `diff` for changes): a report [`Part`] over a named source, the
//! labels on its bytes, the severity, and the handler's settings.

use std::fmt;

use miette::{Diagnostic as MietteDiagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan};

use crate::diagnostic::Severity;
use crate::facts::Span;
use crate::source::SourceFile;

/// One file's part of a report; `related` parts are shown nested.
#[derive(Debug)]
pub struct Part<S> {
    pub message: String,
    pub code: Option<String>,
    pub severity: miette::Severity,
    pub help: Option<String>,
    pub source: S,
    pub labels: Vec<LabeledSpan>,
    pub related: Vec<Part<S>>,
}

impl<S> Part<S> {
    /// A part with no code or help, of advice severity.
    pub fn advice(message: String, source: S, labels: Vec<LabeledSpan>) -> Part<S> {
        Part {
            message,
            code: None,
            severity: miette::Severity::Advice,
            help: None,
            source,
            labels,
            related: Vec::new(),
        }
    }
}

impl<S> fmt::Display for Part<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<S: fmt::Debug> std::error::Error for Part<S> {}

impl<S: miette::SourceCode + fmt::Debug> MietteDiagnostic for Part<S> {
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

/// The handler: Unicode, coloured or not, no links, `width` columns,
/// related parts nested.
pub fn handler(color: bool, width: usize) -> GraphicalReportHandler {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_urls(false)
        .with_width(width)
        .with_show_related_as_nested(true)
        .tab_width(4)
}

/// miette's severity for ours.
pub fn severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    }
}

/// A label on a span's bytes of `f`, at their offsets in its display text.
pub fn label(f: &SourceFile, span: Span, text: Option<String>, primary: bool) -> LabeledSpan {
    let start = f.display_offset(span.start);
    let end = f.display_offset(span.end).max(start);
    if primary {
        LabeledSpan::new_primary_with_span(text, start..end)
    } else {
        LabeledSpan::new_with_span(text, start..end)
    }
}
