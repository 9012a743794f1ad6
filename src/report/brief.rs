//! The short forms of `check`'s human output: `--statistics` (how many
//! findings each rule has), `--no-show-source` (the full format as one
//! line per finding and its help, no source lines), and the lines before
//! the closing line.

use std::collections::BTreeMap;

use super::{CheckRun, Output};
use crate::diagnostic::Diagnostic;
use crate::discover::Note;

/// `--statistics`: one line per rule with findings, the most first (then
/// by code): `COUNT<TAB>CODE<TAB>name`.
pub fn statistics(diagnostics: &[&Diagnostic]) -> String {
    let mut counts: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for d in diagnostics {
        counts.entry(d.code).or_insert((0, d.name)).0 += 1;
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    let width = rows.first().map_or(1, |r| r.1 .0.to_string().len());
    rows.iter()
        .map(|(code, (n, name))| format!("{n:>width$}\t{code}\t{name}\n"))
        .collect()
}

/// `--no-show-source`: the full format's findings as concise lines, each
/// with its help, then the notes and the coverage listing (on stderr).
pub fn no_source(run: &CheckRun<'_>) -> Output {
    let a = run.analysis;
    let mut out = String::new();
    for d in run.diagnostics {
        out.push_str(&super::concise::line(a, d));
        out.push('\n');
        if let Some(h) = &d.help {
            out.push_str(&format!("  help: {}\n", super::escape::text(h)));
        }
    }
    for n in &a.notes {
        out.push_str(&format!(
            "note: {}: {}\n",
            n.path,
            super::escape::text(&n.message)
        ));
    }
    out.push_str(&super::coverage::listing(run));
    Output {
        stdout: run.matrix.map(super::matrix::render_text),
        stderr: out,
    }
}

/// The line before the closing line when a baseline left findings out
/// (empty when none).
pub fn baselined(n: usize) -> String {
    if n == 0 {
        return String::new();
    }
    let s = if n == 1 { "" } else { "s" };
    format!("wirelint: {n} finding{s} in the baseline not reported\n")
}

/// A change-aware run's line before the closing line: how many of the
/// findings reported the change introduces, the others being marked
/// `(already at HEAD)` (empty when none is reported).
pub fn introduced(old: &[bool], base_name: &str) -> String {
    let total = old.len();
    if total == 0 {
        return String::new();
    }
    let was = old.iter().filter(|o| **o).count();
    let s = if total == 1 { "" } else { "s" };
    format!(
        "wirelint: the change introduces {} of {total} finding{s}; {was} {} already {base_name}\n",
        total - was,
        if was == 1 { "was" } else { "were" }
    )
}

/// The notes of a change-aware human report (the pre-commit hook's files,
/// `--changed-since`): those on the changed files; the others, the same on
/// every run, as one line (a run without the change shows them).
pub fn fold_unchanged_notes(notes: &mut Vec<Note>, changed: &std::collections::BTreeSet<String>) {
    let (keep, other): (Vec<Note>, Vec<Note>) =
        notes.drain(..).partition(|n| changed.contains(&n.path));
    *notes = keep;
    let s = if other.len() == 1 { "" } else { "s" };
    if !other.is_empty() {
        notes.push(Note {
            path: ".".into(),
            message: format!(
                "{} note{s} outside the change not shown: a run without files or --changed-since shows {}",
                other.len(),
                if other.len() == 1 { "it" } else { "them" }
            ),
        });
    }
}

/// The notes of the human formats: those on test code (a `tests/`
/// directory, a `_test` file: [`crate::views::coverage::is_test_path`]), when
/// there are two or more, as one line after the others (`--coverage`
/// shows them all).
pub fn fold_test_notes(notes: &mut Vec<Note>) {
    let (test, mut other): (Vec<Note>, Vec<Note>) = notes
        .drain(..)
        .partition(|n| n.path != "." && crate::views::coverage::is_test_path(&n.path));
    if test.len() < 2 {
        *notes = test.into_iter().chain(other).collect();
        notes.sort();
        return;
    }
    other.push(Note {
        path: ".".into(),
        message: format!(
            "{} notes on test code (the first on {}) not shown: --coverage shows them",
            test.len(),
            test[0].path
        ),
    });
    *notes = other;
}
