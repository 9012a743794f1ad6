//! Reporters: render an [`Analysis`] and print it. They never compute
//! findings; they only convert byte spans to lines and columns and format.
//!
//! Each output format is one [`Reporter`]: `check`'s formats take a
//! [`CheckRun`], `diff`'s a [`diff::DiffRun`]. `cli` picks the reporter of
//! a format with an exhaustive `match`, and writes its [`Output`] followed
//! by the closing line. `graphical` is the miette adapter that the
//! graphical reports share.

pub mod brief;
pub mod concise;
pub mod coverage;
pub mod diff;
pub mod error;
pub mod escape;
pub mod extract;
pub mod github;
pub mod gitlab;
pub mod graphical;
pub mod human;
pub mod json;
pub mod jsonl;
pub mod matrix;
pub mod sarif;

use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::Span;
use crate::pipeline::Analysis;
use crate::source::LineCol;
use crate::views::matrix::Matrix;

/// A reporter: formats one run of a command, and decides nothing.
pub trait Reporter<Run: ?Sized> {
    fn report(&self, run: &Run) -> Output;
}

/// What a reporter writes: a document on stdout, if any, then text on
/// stderr, which the closing line ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub stdout: Option<String>,
    pub stderr: String,
}

impl Output {
    /// A document on stdout (the machine formats).
    pub fn stdout(text: String) -> Output {
        Output {
            stdout: Some(text),
            stderr: String::new(),
        }
    }

    /// Text on stderr (the graphical formats).
    pub fn stderr(text: String) -> Output {
        Output {
            stdout: None,
            stderr: text,
        }
    }
}

/// What `check` hands its reporter.
pub struct CheckRun<'a> {
    pub analysis: &'a Analysis,
    /// The findings to report, in output order.
    pub diagnostics: &'a [&'a Diagnostic],
    pub summary: Summary,
    /// `check --matrix`.
    pub matrix: Option<&'a Matrix>,
    /// What the script checks saw: always in the JSON; listed in the human
    /// formats when `list_coverage` (`check --coverage`).
    pub coverage: &'a crate::views::coverage::Coverage,
    pub list_coverage: bool,
    /// `--quiet`: the findings alone (no coverage summary).
    pub quiet: bool,
    /// Whether stderr is a colour terminal (the full format).
    pub color: bool,
}

/// Counts for the closing line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Summary {
    pub fn of(a: &Analysis) -> Summary {
        Summary {
            files: a.files_checked,
            errors: a
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count(),
            warnings: a
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count(),
        }
    }
}

/// A document as pretty JSON and a newline, in a buffer sized for `items`
/// findings up front (growing one of 100 MB by doubling copied it over
/// and over).
pub(crate) fn pretty<T: serde::Serialize>(doc: &T, items: usize) -> String {
    let mut buf = Vec::with_capacity(items.saturating_mul(1536).min(1 << 30) + 4096);
    match serde_json::to_writer_pretty(&mut buf, doc) {
        Ok(()) => {
            buf.push(b'\n');
            String::from_utf8(buf).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}\n"))
        }
        Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
    }
}

/// Frees a document already written out on another thread
/// ([`crate::parse::free_later`]) when it holds many findings.
pub(crate) fn drop_later<T: Send + 'static>(doc: T, items: usize) {
    if items >= 1_000 {
        crate::parse::free_later(doc);
    }
}

/// A span's start and (exclusive) end as lines and columns.
/// Where a span in the embedded contract is, in words (`the embedded
/// contract rules/echomq.toml, line 14`): it has no file on disk, so no
/// report names it as a path. `None` for any other file.
pub fn embedded_place(a: &Analysis, span: Span) -> Option<String> {
    let embedded =
        a.contract_file == Some(span.file) && a.contract.as_ref().is_some_and(|c| c.embedded);
    if !embedded {
        return None;
    }
    let rel = &a.sources.get(span.file).rel;
    let name = rel.strip_suffix(" (embedded)").unwrap_or(rel);
    let (s, _) = span_lines(a, span);
    Some(format!("the embedded contract {name}, line {}", s.line))
}

pub fn span_lines(a: &Analysis, span: Span) -> (LineCol, LineCol) {
    let f = a.sources.get(span.file);
    (f.line_col(span.start), f.line_col(span.end))
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The closing line: what was found and why the exit code is what it is;
/// with `partial`, a warning that most script calls were not checked
/// (and such a run, finding nothing, is not called clean).
pub fn closing_line(
    s: &Summary,
    exit_code: i32,
    fail_on: Severity,
    partial: Option<&coverage::Partial>,
) -> String {
    let counts = format!(
        "{}, {} in {}",
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        plural(s.files, "file")
    );
    let reason = match exit_code {
        0 if s.errors + s.warnings == 0 && partial.is_some() => "exit 0".to_string(),
        0 if s.errors + s.warnings == 0 => "exit 0: clean".to_string(),
        0 => format!("exit 0: nothing at or above {}", fail_on.as_str()),
        1 => format!("exit 1: findings at or above {}", fail_on.as_str()),
        _ => format!("exit {exit_code}"),
    };
    let warning = partial.map(coverage::Partial::warning).unwrap_or_default();
    format!("wirelint: {counts}; {reason}{warning}")
}

/// The output formats of `check` (and `audit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// miette graphical reports on stderr.
    Full,
    /// One line per finding on stdout: `path:line:col: severity[CODE]: message`.
    Concise,
    /// One JSON document on stdout.
    Json,
    /// One JSON diagnostic per line on stdout.
    JsonLines,
    /// SARIF 2.1.0 on stdout (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow annotations on stdout.
    Github,
    /// GitLab Code Quality JSON on stdout.
    Gitlab,
}

/// `--fail-on`: the lowest severity that fails a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
}

impl Format {
    /// The reporter of each format.
    pub fn reporter<'a>(self) -> &'a dyn Reporter<CheckRun<'a>> {
        match self {
            Format::Full => &human::Human,
            Format::Concise => &concise::Concise,
            Format::Json => &json::Json,
            Format::JsonLines => &jsonl::JsonLines,
            Format::Sarif => &sarif::Sarif,
            Format::Github => &github::Github,
            Format::Gitlab => &gitlab::Gitlab,
        }
    }
}

impl FailOn {
    /// The lowest severity that fails a run.
    pub fn severity(self) -> Severity {
        match self {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
        }
    }
}
