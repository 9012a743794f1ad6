//! The commands that describe wirelint rather than run it: `rules`,
//! `explain`, and `facts` (one file's raw facts, for debugging extractors).

use std::path::Path;

use super::{error, write_stdout};
use crate::checks::{rule, RULES};
use crate::pipeline::DEFAULT_MAX_FILE_BYTES;

pub(super) fn rules(audit: bool, diff: bool) -> i32 {
    // Check, audit and change codes share one row shape.
    use crate::diagnostic::{Layer, Severity};
    let row = |code, name, layer: Layer, severity: Severity, summary| {
        [code, name, layer.as_str(), severity.as_str(), summary]
    };
    let rows: Vec<[&str; 5]> = if diff {
        crate::diff::KINDS
            .iter()
            .map(|k| row(k.code, k.name, k.layer, k.severity, k.summary))
            .collect()
    } else {
        let rules = if audit {
            crate::audit::rules::RULES
        } else {
            RULES
        };
        rules
            .iter()
            .map(|r| row(r.code, r.name, r.layer, r.severity, r.summary))
            .collect()
    };
    // Columns as wide as their longest entry: every row lines up.
    let name_w = rows.iter().map(|r| r[1].len()).max().unwrap_or(0);
    let mut s = String::new();
    for [code, name, layer, severity, summary] in rows {
        s.push_str(&format!(
            "{code:<6} {name:<name_w$} {layer:<6} {severity:<8} {summary}\n"
        ));
    }
    if !audit && !diff {
        // The languages the rules read, from the one list of hosts.
        eprintln!(
            "wirelint: the rules read {}",
            crate::extract::lang::language_list("and")
        );
    }
    write_stdout(&s)
}

/// The shipped contracts, one a line: the name `--contract` takes, its
/// file, and what it describes.
pub(super) fn contracts() -> i32 {
    let shipped = crate::contract::shipped::SHIPPED;
    let w = shipped.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut s = String::new();
    for c in shipped {
        s.push_str(&format!("{:<w$} {} {}\n", c.name, c.path, c.description()));
    }
    write_stdout(&s)
}

pub(super) fn explain(code: &str) -> i32 {
    let change = crate::diff::KINDS
        .iter()
        .find(|k| k.code.eq_ignore_ascii_case(code));
    if let Some(k) = change {
        return write_stdout(&k.doc());
    }
    match rule(code).or_else(|| crate::audit::rules::rule(code)) {
        Some(r) => write_stdout(&r.doc()),
        None => {
            let codes: Vec<&str> = RULES
                .iter()
                .chain(crate::audit::rules::RULES)
                .map(|r| r.code)
                .chain(crate::diff::KINDS.iter().map(|k| k.code))
                .collect();
            error(&format!("no rule `{code}`; rules are {}", codes.join(", ")))
        }
    }
}

/// The raw facts of one file, for debugging extractors.
pub(super) fn facts(file: &Path) -> i32 {
    let Some(lang) = crate::facts::Lang::from_path(file) else {
        return error(&format!(
            "not a file of a language wirelint reads ({})",
            crate::extract::lang::language_list("or")
        ));
    };
    let bytes =
        match crate::input::read_file(file, crate::input::Links::Follow, DEFAULT_MAX_FILE_BYTES) {
            Ok(b) => b,
            Err(e) => return error(&format!("cannot read {}: {e}", file.display())),
        };
    let Ok(mut parsers) = crate::parse::Parsers::new() else {
        return 2;
    };
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let facts = crate::extract::extract_file(&mut parsers, lang, 0, &bytes, &stem);
    write_stdout(&format!("{facts:#?}\n"))
}
