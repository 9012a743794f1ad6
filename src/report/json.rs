//! `--format json`: one versioned JSON document (schema in
//! `docs/json-output.md`).

use super::{CheckRun, Output, Reporter};
use serde::Serialize;

use super::{span_lines, Summary};
use crate::diagnostic::Diagnostic;
use crate::facts::Span;
use crate::pipeline::Analysis;

/// The document's `version`. 3: a diagnostic's `fix` is a list of `edits`
/// (each with its `path`) and an `applicability`. 2: a matrix row's
/// `cells` name only the speakers that use its item.
pub const VERSION: u32 = 3;

#[derive(Serialize)]
struct Doc<'a> {
    version: u32,
    tool: Tool,
    contract: Option<ContractRef<'a>>,
    summary: SummaryOut,
    diagnostics: Diagnostics<'a>,
    notes: Vec<NoteOut<'a>>,
    /// `check --matrix`: the agreement matrix.
    #[serde(skip_serializing_if = "Option::is_none")]
    matrix: Option<super::matrix::JsonMatrix<'a>>,
    /// What the script checks saw (`check`; absent from other documents).
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct ContractRef<'a> {
    name: &'a str,
    source: &'a str,
}

#[derive(Serialize)]
struct SummaryOut {
    files: usize,
    errors: usize,
    warnings: usize,
}

#[derive(Serialize)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub offset: u32,
}

#[derive(Serialize)]
pub struct SpanOut {
    pub start: Pos,
    pub end: Pos,
}

#[derive(Serialize)]
struct Related {
    path: String,
    span: SpanOut,
    message: String,
}

#[derive(Serialize)]
struct FixOut {
    applicability: &'static str,
    message: String,
    edits: Vec<EditOut>,
}

#[derive(Serialize)]
struct EditOut {
    path: String,
    span: SpanOut,
    text: String,
}

#[derive(Serialize)]
struct ImpactOut {
    breaks: Vec<String>,
    unaffected: Vec<String>,
}

#[derive(Serialize)]
pub struct DiagOut {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    layer: &'static str,
    message: String,
    path: String,
    span: SpanOut,
    speaker: Option<String>,
    help: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    impact: Option<ImpactOut>,
    related: Vec<Related>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<FixOut>,
}

#[derive(Serialize)]
struct NoteOut<'a> {
    path: &'a str,
    message: &'a str,
}

pub fn span_out(a: &Analysis, span: Span) -> SpanOut {
    let (s, e) = span_lines(a, span);
    SpanOut {
        start: Pos {
            line: s.line,
            column: s.column,
            offset: span.start,
        },
        end: Pos {
            line: e.line,
            column: e.column,
            offset: span.end,
        },
    }
}

pub fn diag_out(a: &Analysis, d: &Diagnostic) -> DiagOut {
    DiagOut {
        code: d.code,
        name: d.name,
        severity: d.severity.as_str(),
        layer: d.layer.as_str(),
        message: d.message.clone(),
        path: a.sources.get(d.primary.span.file).rel.clone(),
        span: span_out(a, d.primary.span),
        speaker: d.speaker.clone(),
        help: d.help.clone(),
        impact: d.impact.as_ref().map(|i| ImpactOut {
            breaks: i.breaks.clone(),
            unaffected: i.unaffected.clone(),
        }),
        related: d
            .related
            .iter()
            .map(|r| Related {
                path: a.sources.get(r.span.file).rel.clone(),
                span: span_out(a, r.span),
                message: r.message.clone(),
            })
            .collect(),
        fix: d.fix.as_ref().map(|f| FixOut {
            applicability: f.applicability.as_str(),
            message: f.message.clone(),
            edits: f
                .edits
                .iter()
                .map(|e| EditOut {
                    path: a.sources.get(e.span.file).rel.clone(),
                    span: span_out(a, e.span),
                    text: e.text.clone(),
                })
                .collect(),
        }),
    }
}

/// Renders the document (with a trailing newline).
/// `--format json`: the document, with the matrix when asked for.
pub struct Json;

impl Reporter<CheckRun<'_>> for Json {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output::stdout(render_with(
            run.analysis,
            run.diagnostics,
            &run.summary,
            run.matrix,
            Some(super::coverage::to_json(run.analysis, run.coverage)),
        ))
    }
}

pub fn render(a: &Analysis, diagnostics: &[&Diagnostic], summary: &Summary) -> String {
    render_with(a, diagnostics, summary, None, None)
}

/// The document with the agreement matrix (`check --matrix`).
pub fn render_with(
    a: &Analysis,
    diagnostics: &[&Diagnostic],
    summary: &Summary,
    matrix: Option<&crate::views::matrix::Matrix>,
    coverage: Option<serde_json::Value>,
) -> String {
    let doc = Doc {
        version: VERSION,
        tool: Tool {
            name: "wirelint",
            version: env!("CARGO_PKG_VERSION"),
        },
        contract: a.contract.as_ref().map(|c| ContractRef {
            name: &c.name,
            source: &c.origin,
        }),
        summary: SummaryOut {
            files: summary.files,
            errors: summary.errors,
            warnings: summary.warnings,
        },
        diagnostics: Diagnostics(a, diagnostics),
        notes: a
            .notes
            .iter()
            .map(|n| NoteOut {
                path: &n.path,
                message: &n.message,
            })
            .collect(),
        matrix: matrix.map(super::matrix::JsonMatrix),
        coverage,
    };
    super::pretty(&doc, diagnostics.len())
}

/// The findings, each laid out as it is written (a list of them all laid
/// out first held a second copy of every text of 87,000 findings).
struct Diagnostics<'a>(&'a Analysis, &'a [&'a Diagnostic]);

impl Serialize for Diagnostics<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|d| diag_out(self.0, d)))
    }
}
