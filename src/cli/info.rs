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
        crate::views::diff::KINDS
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

/// Every code `explain` knows, with its name: the checks', the audit's
/// and the changes `diff` reports, in that order.
fn explained() -> Vec<(&'static str, &'static str)> {
    RULES
        .iter()
        .chain(crate::audit::rules::RULES)
        .map(|r| (r.code, r.name))
        .chain(crate::views::diff::KINDS.iter().map(|k| (k.code, k.name)))
        .collect()
}

/// `explain WORD`: the documentation of the rule WORD names, by its code
/// (`WL304`) or its name (`keys-order`), in any case. A name two
/// families share (`unknown-field`) is the first's, and a line on stderr
/// names the others. A near miss exits 2 with a "did you mean".
pub(super) fn explain(word: &str) -> i32 {
    let known = explained();
    let found = known
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(word))
        .or_else(|| known.iter().find(|(_, n)| n.eq_ignore_ascii_case(word)));
    let Some(&(code, name)) = found else {
        let hint = match did_you_mean(word, &known) {
            Some(near) => format!("did you mean {near}?"),
            None => {
                let codes: Vec<&str> = known.iter().map(|(c, _)| *c).collect();
                format!("rules are {}", codes.join(", "))
            }
        };
        return error(&format!("no rule `{word}`; {hint}"));
    };
    if name.eq_ignore_ascii_case(word) {
        let others: Vec<&str> = known
            .iter()
            .filter(|(c, n)| *n == name && *c != code)
            .map(|(c, _)| *c)
            .collect();
        if !others.is_empty() {
            eprintln!(
                "wirelint: `{name}` is {code}'s name, and also {}'s (`wirelint explain {}`)",
                others.join(" and "),
                others[0]
            );
        }
    }
    match crate::views::diff::KINDS.iter().find(|k| k.code == code) {
        Some(k) => write_stdout(&k.doc()),
        None => match rule(code).or_else(|| crate::audit::rules::rule(code)) {
            Some(r) => write_stdout(&r.doc()),
            None => error(&format!("no rule `{word}`")),
        },
    }
}

/// The codes nearest `word` by their code or their name (`WL304
/// (keys-order)`), within a small edit distance: the nearest, and on a
/// tie the one that shares the longest start with it (`WL3043` is
/// `WL304`, not `WL303`). `None` when none is near, or more than three
/// tie.
fn did_you_mean(word: &str, known: &[(&str, &str)]) -> Option<String> {
    let word = word.to_ascii_lowercase();
    let shared = |a: &str| {
        word.bytes()
            .zip(a.bytes())
            .take_while(|(x, y)| x == y)
            .count()
    };
    let distance = |c: &str| {
        let bound = (c.len().max(word.len()) / 3).max(1);
        (c.len().abs_diff(word.len()) <= bound)
            .then(|| crate::contract::edit_distance(&word, c))
            .filter(|d| *d <= bound)
    };
    let mut near: Vec<(usize, std::cmp::Reverse<usize>, &str, &str)> = known
        .iter()
        .filter_map(|&(code, name)| {
            [code.to_ascii_lowercase(), name.to_string()]
                .iter()
                .filter_map(|c| Some((distance(c)?, std::cmp::Reverse(shared(c)))))
                .min()
                .map(|(d, s)| (d, s, code, name))
        })
        .collect();
    // Stable: ties stay in the registries' order.
    near.sort_by_key(|n| (n.0, n.1));
    let best = near.first().map(|n| (n.0, n.1))?;
    let tied: Vec<String> = near
        .iter()
        .take_while(|n| (n.0, n.1) == best)
        .map(|n| format!("{} ({})", n.2, n.3))
        .collect();
    match tied.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [rest @ .., last] if tied.len() <= 3 => Some(format!("{} or {last}", rest.join(", "))),
        _ => None,
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
