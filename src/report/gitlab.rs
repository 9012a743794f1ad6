//! `--format gitlab`: a GitLab Code Quality report (a JSON array) on stdout.
//!
//! Each issue has `description`, `check_name` (the rule code), a
//! `fingerprint` that does not depend on line numbers (see
//! [`crate::post::baseline`]), `severity` (`major` for errors, `minor` for
//! warnings) and `location.path` with `lines.begin`/`lines.end`. Paths are
//! relative to the git repository's root, whatever directory is scanned
//! (`crate::scope::report_prefix`). `diff --format gitlab` ([`render_diff`])
//! writes one issue per change, its `check_name` the change code (WDxxx).

use super::{CheckRun, Output, Reporter};
use serde::Serialize;

use super::diff::DiffRun;
use super::span_lines;
use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::Span;
use crate::pipeline::Analysis;
use crate::post::baseline::{fingerprint, keys_with_occurrence, Key};

#[derive(Serialize)]
struct Issue {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// `--format gitlab`.
pub struct Gitlab;

impl Reporter<CheckRun<'_>> for Gitlab {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output::stdout(render(run.analysis, run.diagnostics))
    }
}

pub fn render(a: &Analysis, diagnostics: &[&Diagnostic]) -> String {
    let keys = keys_with_occurrence(&a.sources, diagnostics);
    let issues: Vec<Issue> = diagnostics
        .iter()
        .zip(keys)
        .map(|(d, (k, n))| {
            let description = format!("{} {}: {}", d.code, d.name, d.message);
            issue(a, d.primary.span, description, d.code, d.severity, &k, n)
        })
        .collect();
    document(&issues)
}

/// `diff --format gitlab`: one issue per change, at its work-tree side (a
/// removal at the base file's path and line); fingerprints as `check`'s,
/// never on lines ([`super::diff::change_keys`]).
pub fn render_diff(run: &DiffRun) -> String {
    let keys = super::diff::change_keys(run);
    let issues: Vec<Issue> = run
        .changes
        .iter()
        .zip(keys)
        .filter_map(|(c, (k, n))| {
            let kind = c.kind();
            let Some((a, span)) = super::diff::primary(run, c) else {
                // A file not read (WD001): on its path, line 1.
                let f = c.file.as_ref()?;
                let key = Key {
                    path: f.path.clone(),
                    ..k
                };
                return Some(Issue {
                    description: format!(
                        "{} {}: {} [{}]",
                        kind.code, kind.name, c.message, c.speaker
                    ),
                    check_name: kind.code.to_string(),
                    fingerprint: fingerprint(&key, n),
                    severity: "minor",
                    location: Location {
                        path: key.path.clone(),
                        lines: Lines { begin: 1, end: 1 },
                    },
                });
            };
            let mut description =
                format!("{} {}: {} [{}]", kind.code, kind.name, c.message, c.speaker);
            if let (Some(_), Some(b)) = (c.head, c.base) {
                let (s, _) = span_lines(run.base, b);
                let path = &run.base.sources.get(b.file).rel;
                description.push_str(&format!(" (was {}:{path}:{})", run.against, s.line));
            }
            Some(issue(a, span, description, kind.code, kind.severity, &k, n))
        })
        .collect();
    document(&issues)
}

fn issue(
    a: &Analysis,
    span: Span,
    description: String,
    code: &str,
    severity: Severity,
    key: &Key,
    occurrence: usize,
) -> Issue {
    let (s, e) = span_lines(a, span);
    Issue {
        description,
        check_name: code.to_string(),
        fingerprint: fingerprint(key, occurrence),
        severity: match severity {
            Severity::Error => "major",
            Severity::Warning => "minor",
        },
        location: Location {
            path: key.path.clone(),
            lines: Lines {
                begin: s.line,
                end: e.line,
            },
        },
    }
}

fn document(issues: &[Issue]) -> String {
    let mut s = serde_json::to_string_pretty(issues).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
