//! `--format gitlab`: a GitLab Code Quality report (a JSON array) on stdout.
//!
//! Each issue has `description`, `check_name` (the rule code), a
//! `fingerprint` that does not depend on line numbers (see
//! [`crate::baseline`]), `severity` (`major` for errors, `minor` for
//! warnings) and `location.path` with `lines.begin`/`lines.end`. Paths are
//! relative to the git repository's root, whatever directory is scanned
//! (`crate::scope::report_prefix`).

use super::{CheckRun, Output, Reporter};
use serde::Serialize;

use super::span_lines;
use crate::baseline::{fingerprint, keys_with_occurrence};
use crate::diagnostic::{Diagnostic, Severity};
use crate::pipeline::Analysis;

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
            let (s, e) = span_lines(a, d.primary.span);
            Issue {
                description: format!("{} {}: {}", d.code, d.name, d.message),
                check_name: d.code.to_string(),
                fingerprint: fingerprint(&k, n),
                severity: match d.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                },
                location: Location {
                    path: k.path,
                    lines: Lines {
                        begin: s.line,
                        end: e.line,
                    },
                },
            }
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
