//! How a command that cannot finish ends: its error on stderr, and the
//! document of the machine format asked for, so that it still parses
//! (`report::error`); exit 2.

use std::io::Write;

use super::{write_stdout, DiffFormat};
use crate::report::error::RunError;
use crate::report::{self, Format};

/// Where an error that ends a run goes besides stderr: the document of the
/// machine format asked for, so that it still parses (`report::error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorDoc {
    None,
    /// With the version of the command's document.
    Json(u32),
    JsonLines(u32),
    Sarif,
    Github,
}

impl From<Format> for ErrorDoc {
    fn from(f: Format) -> ErrorDoc {
        match f {
            Format::Full | Format::Concise => ErrorDoc::None,
            Format::Json | Format::Gitlab => ErrorDoc::Json(report::json::VERSION),
            Format::JsonLines => ErrorDoc::JsonLines(report::json::VERSION),
            Format::Sarif => ErrorDoc::Sarif,
            Format::Github => ErrorDoc::Github,
        }
    }
}

impl From<DiffFormat> for ErrorDoc {
    fn from(f: DiffFormat) -> ErrorDoc {
        match f {
            DiffFormat::Full | DiffFormat::Concise => ErrorDoc::None,
            DiffFormat::Json | DiffFormat::Gitlab => ErrorDoc::Json(report::diff::VERSION),
            DiffFormat::Github => ErrorDoc::Github,
            DiffFormat::Sarif => ErrorDoc::Sarif,
        }
    }
}

/// Reports an error that ends the run; exit 2.
pub fn fail(doc: ErrorDoc, e: RunError) -> i32 {
    let _ = write!(std::io::stderr().lock(), "{}", e.text());
    let stdout = match doc {
        ErrorDoc::None => None,
        ErrorDoc::Json(v) => Some(e.json(false, v)),
        ErrorDoc::JsonLines(v) => Some(e.json(true, v)),
        ErrorDoc::Sarif => Some(e.sarif()),
        ErrorDoc::Github => Some(e.github()),
    };
    if let Some(s) = stdout {
        write_stdout(&s);
    }
    2
}

/// Runs a command; an error, or a panic (a bug: never an exit 101 and a
/// half-written document), ends it with exit 2 and the error document.
pub fn guarded(doc: ErrorDoc, run: impl FnOnce() -> Result<i32, RunError>) -> i32 {
    match caught(run) {
        Ok(code) => code,
        Err(e) => fail(doc, e),
    }
}

/// Runs a command; a panic becomes an internal error.
fn caught(run: impl FnOnce() -> Result<i32, RunError>) -> Result<i32, RunError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Err(RunError::internal(message))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic is an internal error: exit 2, never 101 (caught without
    /// printing it, so the test run's stderr stays clean).
    #[test]
    fn a_panic_is_an_internal_error_with_exit_2() {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let e = caught(|| -> Result<i32, RunError> { panic!("boom") });
        std::panic::set_hook(hook);
        let e = e.unwrap_err();
        let doc: serde_json::Value = serde_json::from_str(&e.json(false, 2)).unwrap();
        assert_eq!(doc["error"]["kind"], "internal");
        assert_eq!(doc["error"]["message"], "boom");
        assert_eq!(caught(|| Ok(1)).ok(), Some(1));
    }
}
