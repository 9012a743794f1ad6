//! Errors that end a run before any report (exit 2): a usage error, a
//! contract or `wirelint.toml` error, an internal error (a bug). Shown on
//! stderr as text (a contract error as a miette report that points into the
//! file, through [`Excerpt`], so that no column can break it), and, when a
//! machine format was asked for, as a document on stdout that still parses:
//!
//! ```json
//! {"version": 2, "tool": {...}, "error": {"kind": "contract", "message": "…",
//!  "path": "c.toml", "line": 2, "column": 10, "help": null}}
//! ```
//!
//! (`docs/json-output.md`; for SARIF, a log whose invocation failed, with
//! the message as a tool notification.)

use serde::Serialize;
use serde_json::json;

use super::escape::text as shown;
use super::graphical::{self, Excerpt, Part};
use crate::contract::ContractError;
use crate::facts::Span;
use crate::source::SourceFile;

/// What ended the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The command line, or a file it names, is unusable.
    Usage,
    /// The contract or `wirelint.toml` is invalid.
    Contract,
    /// A bug in wirelint.
    Internal,
}

/// An error that ends a run.
#[derive(Debug, Serialize)]
pub struct RunError {
    pub kind: Kind,
    pub message: String,
    /// The file it is about (a contract, `wirelint.toml`).
    pub path: Option<String>,
    /// Where in it (1-based; the column in Unicode scalar values).
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub help: Option<String>,
    /// The contract error, for the text on stderr.
    #[serde(skip)]
    contract: Option<Box<ContractError>>,
}

impl RunError {
    pub fn usage(message: String) -> RunError {
        RunError::plain(Kind::Usage, message)
    }

    pub fn internal(message: String) -> RunError {
        RunError::plain(Kind::Internal, message)
    }

    fn plain(kind: Kind, message: String) -> RunError {
        RunError {
            kind,
            message,
            path: None,
            line: None,
            column: None,
            help: None,
            contract: None,
        }
    }

    pub fn contract(e: Box<ContractError>) -> RunError {
        let at = e.span.as_ref().map(|s| {
            let f = file(&e);
            f.line_col(s.start.min(e.text.len()) as u32)
        });
        RunError {
            kind: Kind::Contract,
            message: e.to_string(),
            path: Some(e.origin.clone()),
            line: at.map(|a| a.line),
            column: at.map(|a| a.column),
            help: e.help.clone(),
            contract: Some(e),
        }
    }

    /// The text on stderr.
    pub fn text(&self) -> String {
        match &self.contract {
            Some(e) => render_contract(e),
            None if self.kind == Kind::Internal => format!(
                "error: internal error (a bug in wirelint; please report it): {}\n",
                shown(&self.message)
            ),
            None => format!("error: {}\n", shown(&self.message)),
        }
    }

    /// The `--format json` document (one line with `lines`), with the
    /// `version` of the document the command would have printed.
    pub fn json(&self, lines: bool, version: u32) -> String {
        let doc = json!({
            "version": version,
            "tool": {"name": "wirelint", "version": env!("CARGO_PKG_VERSION")},
            "error": self,
        });
        let text = if lines {
            serde_json::to_string(&doc)
        } else {
            serde_json::to_string_pretty(&doc)
        };
        text.unwrap_or_default() + "\n"
    }

    /// A SARIF log with one failed invocation that carries the message.
    pub fn sarif(&self) -> String {
        let mut notification = json!({
            "level": "error",
            "message": {"text": self.message},
            "descriptor": {"id": format!("wirelint/{}", kind_name(self.kind))},
        });
        if let (Some(path), Some(line), Some(column)) = (&self.path, self.line, self.column) {
            notification["locations"] = json!([{
                "physicalLocation": {
                    "artifactLocation": {"uri": super::sarif::uri_path(path)},
                    "region": {"startLine": line, "startColumn": column},
                }
            }]);
        }
        let doc = json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "wirelint", "version": env!("CARGO_PKG_VERSION")}},
                "invocations": [{
                    "executionSuccessful": false,
                    "toolExecutionNotifications": [notification],
                }],
                "results": [],
            }],
        });
        serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
    }

    /// A GitHub workflow `::error` command.
    pub fn github(&self) -> String {
        let mut props = vec![format!("title=wirelint {} error", kind_name(self.kind))];
        if let (Some(path), Some(line)) = (&self.path, self.line) {
            props.insert(0, format!("line={line}"));
            props.insert(0, format!("file={}", super::github::escape_property(path)));
        }
        format!(
            "::error {}::{}\n",
            props.join(","),
            super::github::escape_data(&self.message)
        )
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Usage => "usage",
        Kind::Contract => "contract",
        Kind::Internal => "internal",
    }
}

fn file(e: &ContractError) -> SourceFile {
    SourceFile::new(
        e.origin.clone(),
        e.origin.clone().into(),
        None,
        e.text.clone().into_bytes(),
    )
}

/// A contract error as a miette report pointing into the file.
fn render_contract(e: &ContractError) -> String {
    let f = file(e);
    let span = e.span.as_ref().map(|s| {
        let end = s.end.max(s.start).min(e.text.len());
        Span {
            file: 0,
            start: s.start.min(end) as u32,
            end: end as u32,
        }
    });
    let message = shown(&e.to_string()).into_owned();
    let mut part = match span {
        Some(span) => {
            let (src, ranges) = Excerpt::new(e.origin.clone(), &f, &[span], 2);
            let label = shown(&e.label).into_owned();
            let labels = vec![graphical::label(ranges[0].clone(), Some(label), true)];
            Part::advice(message.clone(), src, labels)
        }
        None => {
            let (src, _) = Excerpt::new(e.origin.clone(), &f, &[], 0);
            Part::advice(message.clone(), src, Vec::new())
        }
    };
    part.code = Some("wirelint::contract".into());
    part.severity = miette::Severity::Error;
    part.help = e.help.as_deref().map(|h| shown(h).into_owned());
    let mut out = String::new();
    let color = super::human::want_color();
    if graphical::render(&graphical::handler(color, 80), &mut out, &part).is_err() {
        out = format!("error: {message}\n");
    }
    out
}
