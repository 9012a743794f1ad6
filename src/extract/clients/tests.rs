//! Every client table's rows, each with its case: `tests/client_methods/`
//! holds a file per language calling every method of its table, each call
//! followed by what the extractor reads from it in a trailing comment of
//! the language: a command as `NAME arg ..` (`<x>` for a value that is not
//! a literal, `..` for an open tail), a script call as `script <name>
//! keys(..) args(..)`, `-` for nothing, several joined by ` ; `. The files
//! are read, never compiled or run.

use std::path::Path;

use super::{markdown, tables, Case, Table};
use crate::extract::library::{self, Library};
use crate::facts::{FileFacts, Lang, Value};
use crate::parse::Parsers;

const DOC: &str = "docs/clients.md";
const BEGIN: &str = "<!-- tables: begin (generated from src/extract/*/client.rs) -->\n";
const END: &str = "<!-- tables: end -->";

fn show(v: &Value) -> String {
    use crate::facts::Op;
    match v {
        // What a serializer made: its format and what it serialized.
        Value::Op {
            op: op @ (Op::Encode | Op::Decode),
            args,
            ..
        } => {
            let format = args.first().and_then(Value::as_str).unwrap_or_default();
            let inner = args.get(1).map(Value::describe).unwrap_or_default();
            let verb = if *op == Op::Encode {
                "encoded"
            } else {
                "decoded"
            };
            format!("<{inner} {verb} as {format}>")
        }
        _ => v.as_str().unwrap_or_else(|| format!("<{}>", v.describe())),
    }
}

fn show_all(vs: &[Value], open: bool) -> String {
    let mut parts: Vec<String> = vs.iter().map(show).collect();
    if open {
        parts.push("..".into());
    }
    parts.join(" ")
}

/// The facts of a case file, read as a file of `lang`.
fn facts(lang: Lang, src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    let mut whole = tree_sitter::Parser::new();
    whole.set_language(&crate::parse::language(lang)).unwrap();
    let tree = whole.parse(src.as_bytes(), None).unwrap();
    lang.host()
        .extract(tree.root_node(), src.as_bytes(), 0, &mut p, "cases")
}

/// What the extractor read on each line (0-based) of `src`.
fn read_by_line(src: &str, f: &FileFacts, lua: bool) -> Vec<(usize, u32, String)> {
    let line = |at: u32| src[..at as usize].matches('\n').count();
    let mut out = Vec::new();
    // A Lua file's commands are its script's.
    let scripts = f
        .scripts
        .iter()
        .filter(|_| lua)
        .filter_map(|s| match &s.source {
            crate::facts::ScriptSource::Inline(l) => Some(&l.commands),
            crate::facts::ScriptSource::File { .. } => None,
        });
    for c in f.commands.iter().chain(scripts.flatten()) {
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

/// A case file (from the crate's root), its text and its language.
fn case_file(cases: &str) -> (String, Lang) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(cases);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{cases}: {e} (every table has its cases)"));
    let lang = Lang::from_path(Path::new(cases)).expect("a case file of a language wirelint reads");
    (text, lang)
}

/// A client table's case file, its text and its language.
fn cases(t: &Table) -> (String, Lang) {
    case_file(t.cases)
}

/// `(code, want)` of a line that says what it yields.
fn wanted<'a>(line: &'a str, comment: &str) -> Option<(&'a str, &'a str)> {
    let (code, want) = line.split_once(&format!(" {comment} "))?;
    (!code.trim().is_empty()).then(|| (code, want.trim()))
}

/// The lines of the case file `path` whose reading differs from their
/// trailing comment.
fn case_failures(path: &str, src: &str, lang: Lang) -> Vec<String> {
    let comment = lang.host().line_comment();
    let got = read_by_line(src, &facts(lang, src), lang.is_script());
    let mut failures = Vec::new();
    for (i, text) in src.lines().enumerate() {
        let read: Vec<&str> = got
            .iter()
            .filter(|(l, _, _)| *l == i)
            .map(|(_, _, s)| s.as_str())
            .collect();
        let read = read.join(" ; ");
        let want = wanted(text, comment).map_or("", |(_, w)| w);
        let want = if want == "-" { "" } else { want };
        if read != want {
            failures.push(format!(
                "{path}:{}: {}\n  want: {want}\n  read: {read}",
                i + 1,
                text.trim()
            ));
        }
    }
    failures
}

#[test]
fn each_client_method_case_yields_what_its_comment_says() {
    let mut failures = Vec::new();
    for t in tables() {
        let (src, lang) = cases(t);
        failures.extend(case_failures(t.cases, &src, lang));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A library table's case file, its text and its language.
fn library_cases(t: &Library) -> (String, Lang) {
    case_file(t.cases)
}

/// Each row of the standard library's tables (`src/extract/library.rs`)
/// goes through a client call in `tests/library/`, which reads what its
/// comment says.
#[test]
fn each_library_case_yields_what_its_comment_says() {
    let mut failures = Vec::new();
    for t in library::tables() {
        let (src, lang) = library_cases(t);
        failures.extend(case_failures(t.cases, &src, lang));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_library_row_has_a_case() {
    for t in library::tables() {
        let (src, lang) = library_cases(t);
        let comment = lang.host().line_comment();
        // Its code lines: a call, or a value a call's line reads.
        let lines: Vec<&str> = src
            .lines()
            .filter(|l| !l.trim_start().starts_with(comment))
            .collect();
        for (what, r) in t.rows() {
            // `.name` not followed by more of a name (Ruby calls without
            // parentheses); `name(` not preceded by more of one.
            let ident = |c: char| c.is_alphanumeric() || c == '_';
            let called = lines.iter().any(|l| {
                if what == "method" {
                    let call = format!(".{}", r.name);
                    l.match_indices(&call)
                        .any(|(at, m)| !l[at + m.len()..].starts_with(ident))
                } else {
                    let call = format!("{}(", r.name);
                    l.match_indices(&call)
                        .any(|(at, _)| !l[..at].ends_with(ident))
                }
            });
            assert!(called, "no case line of {} calls `{}`", t.cases, r.name);
        }
    }
}

#[test]
fn every_client_method_has_a_case() {
    for t in tables() {
        let (src, _) = cases(t);
        let src = match t.case {
            Case::Exact => src,
            Case::Blind => src.to_ascii_lowercase(),
        };
        for m in t.rows() {
            let name = match t.case {
                Case::Exact => m.name.to_string(),
                Case::Blind => m.name.to_ascii_lowercase(),
            };
            // A module's function (`Redix.command`) is called by its name.
            let seps: &[&str] = if name.contains('.') {
                &[" ", "("]
            } else {
                &[".", "::"]
            };
            let called = seps.iter().any(|sep| {
                ["(", "::<", " "]
                    .iter()
                    .any(|open| src.contains(&format!("{sep}{name}{open}")))
            });
            assert!(called, "no line of {} calls `{}`", t.cases, m.name);
        }
    }
}

/// The prefilter parses a file for its Redis facts only if it holds a
/// fact needle: every case line that yields a fact holds one on its own (a
/// guarded one with a receiver word in the file: each case file has one).
#[test]
fn every_case_that_yields_a_fact_holds_a_needle() {
    for t in tables() {
        let (src, lang) = cases(t);
        let Some(needles) = t.needles else {
            continue;
        };
        let n = t.fact_needles();
        let holds = |line: &str, words: &[String], blind: bool| {
            if blind {
                let line = line.to_ascii_lowercase();
                words.iter().any(|w| line.contains(&w.to_ascii_lowercase()))
            } else {
                words.iter().any(|w| line.contains(w.as_str()))
            }
        };
        let blind = needles.blind;
        assert!(
            n.guards.is_empty() || holds(&src, &n.guards, true),
            "{}: no receiver word",
            t.cases
        );
        for line in src.lines() {
            let Some((code, want)) = wanted(line, lang.host().line_comment()) else {
                continue;
            };
            if want == "-" {
                continue;
            }
            assert!(
                holds(code, &n.any, blind) || holds(code, &n.guarded, blind),
                "{}: no fact needle in: {code}",
                t.cases
            );
        }
    }
}

#[test]
fn the_clients_doc_lists_every_table() {
    crate::extract::assert_generated(DOC, BEGIN, END, &markdown());
}
