//! `--format json-lines`: one diagnostic per line on stdout, each the same
//! object as an element of the JSON document's `diagnostics` array
//! (`docs/json-output.md`).

use super::{CheckRun, Output, Reporter};
use crate::diagnostic::Diagnostic;
use crate::pipeline::Analysis;

/// `--format json-lines`.
pub struct JsonLines;

impl Reporter<CheckRun<'_>> for JsonLines {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output::stdout(render(run.analysis, run.diagnostics))
    }
}

pub fn render(a: &Analysis, diagnostics: &[&Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        match serde_json::to_string(&super::json::diag_out(a, d)) {
            Ok(s) => out.push_str(&s),
            Err(e) => out.push_str(&format!("{{\"error\": \"{e}\"}}")),
        }
        out.push('\n');
    }
    out
}
