//! The client method table: its cases (`tests/client_methods/rust.rs`),
//! its needles, and its doc (`docs/rust-clients.md`).

use crate::facts::{FileFacts, Value};

use super::super::client::{fact_needles, markdown_table, METHODS};
use super::facts;

const CASES: &str = include_str!("../../../../tests/client_methods/rust.rs");
const DOC: &str = "docs/rust-clients.md";
const BEGIN: &str = "<!-- methods: begin (generated from src/extract/rust/client.rs) -->\n";
const END: &str = "<!-- methods: end -->";

fn show(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| format!("<{}>", v.describe()))
}

fn show_all(vs: &[Value], open: bool) -> String {
    let mut parts: Vec<String> = vs.iter().map(show).collect();
    if open {
        parts.push("..".into());
    }
    parts.join(" ")
}

/// What the extractor read on each line (0-based) of `src`.
fn read_by_line(src: &str, f: &FileFacts) -> Vec<(usize, u32, String)> {
    let line = |at: u32| src[..at as usize].matches('\n').count();
    let mut out = Vec::new();
    for c in &f.commands {
        let mut s = c.name.clone();
        let args = show_all(&c.args, c.open_tail);
        if !args.is_empty() {
            s = format!("{s} {args}");
        }
        out.push((line(c.span.start), c.span.start, s));
    }
    for c in &f.script_calls {
        let s = format!(
            "script {} keys({}) args({})",
            show(&c.script),
            show_all(&c.keys, c.open_keys),
            show_all(&c.args, c.open_args)
        );
        out.push((line(c.span.start), c.span.start, s));
    }
    out.sort_by_key(|(l, at, _)| (*l, *at));
    out
}

#[test]
fn each_client_method_case_yields_what_its_comment_says() {
    let f = facts(CASES);
    let got = read_by_line(CASES, &f);
    let mut failures = Vec::new();
    for (i, text) in CASES.lines().enumerate() {
        let read: Vec<&str> = got
            .iter()
            .filter(|(l, _, _)| *l == i)
            .map(|(_, _, s)| s.as_str())
            .collect();
        let read = read.join(" ; ");
        let want = match text.split_once(" // ") {
            Some((code, want)) if !code.trim().is_empty() => want.trim(),
            _ => "",
        };
        let want = if want == "-" { "" } else { want };
        if read != want {
            failures.push(format!(
                "line {}: {}\n  want: {want}\n  read: {read}",
                i + 1,
                text.trim()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_client_method_has_a_case() {
    for m in METHODS {
        let called = [".", "::"].iter().any(|sep| {
            ["(", "::<"]
                .iter()
                .any(|open| CASES.contains(&format!("{sep}{}{open}", m.name)))
        });
        assert!(
            called,
            "no line of tests/client_methods/rust.rs calls `{}`",
            m.name
        );
    }
}

/// The prefilter parses a Rust file for its Redis facts only if it holds a
/// fact needle: every case line that yields a fact holds one on its own.
#[test]
fn every_case_that_yields_a_fact_holds_a_needle() {
    let n = fact_needles();
    let holds = |line: &str, words: &[String]| {
        let line = line.to_ascii_lowercase();
        words.iter().any(|w| line.contains(&w.to_ascii_lowercase()))
    };
    for line in CASES.lines() {
        let Some((code, want)) = line.split_once(" // ") else {
            continue;
        };
        if want.trim() == "-" || code.trim().is_empty() {
            continue;
        }
        assert!(
            holds(code, &n.any) || (holds(code, &n.guarded) && holds(code, &n.guards)),
            "no fact needle in: {code}"
        );
    }
}

#[test]
fn the_rust_clients_doc_lists_the_method_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rust-clients.md");
    let doc = std::fs::read_to_string(path).expect("docs/rust-clients.md");
    let want = markdown_table();
    let got = doc
        .split_once(BEGIN)
        .and_then(|(_, rest)| rest.split_once(END))
        .map(|(table, _)| table);
    assert!(
        got == Some(want.as_str()),
        "{DOC} is out of date: between its markers it should read\n\n{BEGIN}{want}{END}\n"
    );
}
