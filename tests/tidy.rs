//! Tidy: rules the code base holds itself to, checked by reading `src/` as
//! text (in the spirit of rust-analyzer's tidy tests). Each test says what
//! it holds; a failure lists every place that breaks it and what to do.
//!
//! - [`layers_only_look_down`]: a module imports from its own layer and the
//!   layers below it, never above ([`LAYERS`]).
//! - [`files_and_functions_stay_small`]: no file in `src/` or of the test
//!   code ([`TEST_CODE`]) over [`MAX_FILE_LINES`] lines, no function over
//!   [`MAX_FN_LINES`].
//! - [`only_extract_names_a_language`]: outside `src/extract/`, code never
//!   names one of the languages wirelint reads (`Lang::Elixir`, …); it asks
//!   the language instead.
//! - [`rule_codes_match_the_registry`]: the rule codes that `wirelint.toml`
//!   is checked against, kept low in the layers, are the registry's.
//! - [`nothing_below_the_plan_reads_the_config_or_asks_git`]: a run's plan
//!   is built once by its caller and taken as it is ([`PLAN_ONLY`]).
//!
//! Comments, strings and character literals are blanked before reading, so
//! documentation may name anything.

use std::path::Path;

#[path = "tidy/layers.rs"]
mod layers;
#[path = "tidy/reader.rs"]
mod reader;
use layers::LAYERS;
use reader::*;

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;

/// Files allowed over the size limits (none: keep it so).
const SIZE_ALLOWED: &[&str] = &[];

/// Files outside the language homes allowed to match on the language
/// (none: they ask `Lang::host()`).
const LANGUAGE_ALLOWED: &[&str] = &[];

/// Where naming a language is the point: the extractors, the model's
/// `Lang` itself, and the grammar of each language.
const LANGUAGE_HOMES: &[&str] = &["src/extract/", "src/facts/mod.rs", "src/parse/mod.rs"];

/// The variants of `facts::Lang`.
const LANGUAGES: &[&str] = &[
    "Elixir",
    "Rust",
    "Lua",
    "Python",
    "JavaScript",
    "TypeScript",
    "Tsx",
    "Go",
    "Ruby",
];

#[test]
fn layers_only_look_down() {
    let files = sources();
    let mut bad = Vec::new();
    for f in &files {
        let Some(from) = layer_of_file(f) else {
            bad.push(format!(
                "{}: module `{}` is in no layer; add it to LAYERS in tests/tidy.rs",
                f.rel,
                f.module.join("::")
            ));
            continue;
        };
        for imp in imports(f, &files) {
            let target = imp.path.join("::");
            match layer_of(&imp.path) {
                None => bad.push(format!(
                    "{}:{}: `{target}` is in no layer; add it to LAYERS in tests/tidy.rs",
                    f.rel, imp.line
                )),
                Some(to) if to > from => bad.push(format!(
                    "{}:{}: `{}` (layer `{}`) imports `{target}` (layer `{}`, above it); move \
                     what it needs down, or the caller up",
                    f.rel,
                    imp.line,
                    f.module.join("::"),
                    LAYERS[from].0,
                    LAYERS[to].0
                )),
                Some(_) => {}
            }
        }
    }
    assert!(
        bad.is_empty(),
        "a module imports a layer above its own (LAYERS in tests/tidy.rs, lowest first):\n{}",
        bad.join("\n")
    );
}

#[test]
fn files_and_functions_stay_small() {
    let mut bad = Vec::new();
    let mut dirs = vec!["src"];
    dirs.extend(TEST_CODE);
    for f in read_sources(&dirs) {
        if SIZE_ALLOWED.contains(&f.rel.as_str()) {
            continue;
        }
        let lines = f.text.lines().count();
        if lines > MAX_FILE_LINES {
            bad.push(format!(
                "{}: {lines} lines (at most {MAX_FILE_LINES}); split it by concern",
                f.rel
            ));
        }
        for (name, line, len) in functions(&f.code) {
            if len > MAX_FN_LINES {
                bad.push(format!(
                    "{}:{line}: fn {name} is {len} lines (at most {MAX_FN_LINES}); split it \
                     into named steps",
                    f.rel
                ));
            }
        }
    }
    assert!(bad.is_empty(), "too large:\n{}", bad.join("\n"));
}

#[test]
fn only_extract_names_a_language() {
    let mut bad = Vec::new();
    for f in sources() {
        let home = LANGUAGE_HOMES.iter().any(|h| f.rel.starts_with(h));
        if home || LANGUAGE_ALLOWED.contains(&f.rel.as_str()) {
            continue;
        }
        let code = without_tests(&f.code);
        for lang in LANGUAGES {
            let needle = format!("Lang::{lang}");
            for (at, _) in code.match_indices(&needle) {
                let end = at + needle.len();
                if code[end..].starts_with(|c: char| is_ident(c)) {
                    continue;
                }
                bad.push(format!(
                    "{}:{}: names `{needle}`; ask the language instead (`src/extract/`)",
                    f.rel,
                    line_at(&code, at)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "only src/extract/ knows a language:\n{}",
        bad.join("\n")
    );
}

/// Fields are read by id (`src/extract/fields.rs`): a lookup by name
/// compares the grammar's field names on every call. And every field an
/// extractor reads (`F.name`, `F` being its grammar's table) exists in
/// that grammar: a name it lacks has id 0, which finds no child, silently.
#[test]
fn fields_are_read_by_id_and_exist_in_their_grammar() {
    let files = sources();
    let mut bad: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let code = without_tests(&f.code);
            code.match_indices("child_by_field_name")
                .map(|(at, _)| format!("{}:{}: read by name", f.rel, line_at(&code, at)))
                .collect::<Vec<_>>()
        })
        .collect();
    // The table's `ident = "name"` pairs, from its source.
    let table = files
        .iter()
        .find(|f| f.rel == "src/extract/fields.rs")
        .expect("src/extract/fields.rs");
    let names: std::collections::HashMap<&str, &str> = table
        .text
        .lines()
        .filter_map(|l| {
            let (ident, name) = l.trim().trim_end_matches(',').split_once(" = \"")?;
            Some((ident, name.strip_suffix('"')?))
        })
        .collect();
    for f in &files {
        let grammar: tree_sitter::Language = match f.text.lines().find_map(|l| {
            l.strip_prefix("use crate::extract::fields::")?
                .strip_suffix(" as F;")
        }) {
            Some("ELIXIR") => tree_sitter_elixir::LANGUAGE.into(),
            Some("RUST") => tree_sitter_rust::LANGUAGE.into(),
            Some("LUA") => tree_sitter_lua::LANGUAGE.into(),
            Some("PYTHON") => tree_sitter_python::LANGUAGE.into(),
            Some("RUBY") => tree_sitter_ruby::LANGUAGE.into(),
            _ => continue,
        };
        let code = without_tests(&f.code);
        for (at, _) in code.match_indices("F.") {
            if code[..at].ends_with(|c: char| is_ident(c)) {
                continue;
            }
            let ident: String = code[at + 2..]
                .chars()
                .take_while(|c| is_ident(*c))
                .collect();
            let ok = names
                .get(ident.as_str())
                .is_some_and(|n| grammar.field_id_for_name(n).is_some());
            if !ok {
                bad.push(format!(
                    "{}:{}: `F.{ident}` is no field of its grammar",
                    f.rel,
                    line_at(&code, at)
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn rule_codes_match_the_registry() {
    let registry: Vec<&str> = wirelint::checks::RULES.iter().map(|r| r.code).collect();
    assert_eq!(
        wirelint::diagnostic::RULE_CODES,
        registry.as_slice(),
        "diagnostic::RULE_CODES must list the codes of checks::RULES, in order"
    );
    let audit: Vec<&str> = wirelint::audit::rules::RULES
        .iter()
        .map(|r| r.code)
        .collect();
    assert_eq!(
        wirelint::diagnostic::AUDIT_CODES,
        audit.as_slice(),
        "diagnostic::AUDIT_CODES must list the codes of audit::rules::RULES, in order"
    );
}

// ---------------------------------------------------------------------------
// Reading `src/`.

struct SourceFile {
    /// `src/pipeline/files.rs`.
    rel: String,
    /// `["pipeline", "files"]`; empty for the crate root.
    module: Vec<String>,
    text: String,
    /// `text` with comments, strings and character literals blanked (lines
    /// and columns kept).
    code: String,
}

/// The files `src/` holds beside its folders: the crate's root, the binary,
/// and the shared leaves of the model; every stage is a folder.
const LOOSE_FILES: &[&str] = &[
    "diagnostic.rs",
    "hash.rs",
    "input.rs",
    "lib.rs",
    "main.rs",
    "memory.rs",
    "redis.rs",
    "source.rs",
];

#[test]
fn the_stages_are_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut loose: Vec<String> = std::fs::read_dir(&root)
        .expect("src/")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    loose.sort();
    assert_eq!(
        loose, LOOSE_FILES,
        "src/ holds files beside its folders that LOOSE_FILES in tests/tidy.rs does not list \
         (a stage is a folder)"
    );
}

/// The check path is a plan (`docs/ARCHITECTURE.md`, *Entry points*): its
/// caller builds one `pipeline::Options`, `wirelint.toml` found in it once,
/// and, for a change-aware run, one `scope::Plan` with git's answers; what
/// runs below takes them as they are. Each name here may stand only in the
/// places listed: `wirelint.toml` is looked for by the callers that build a
/// plan (the command line, the editor's server, the audit's `--from-code`),
/// git is spawned by `src/pipeline/git.rs` alone and asked what to read
/// where the plans are built; a base's bytes are read from git when the
/// run needs them, by the change-aware run and `diff`.
const PLAN_ONLY: &[(&str, &[&str])] = &[
    (
        "Config::find",
        &["src/config/", "src/cli/", "src/server/", "src/audit/"],
    ),
    ("Command::new", &["src/pipeline/git.rs"]),
    ("commit_of", &["src/pipeline/git.rs", "src/scope/plan.rs"]),
    (
        "changed_files",
        &["src/pipeline/git.rs", "src/scope/plan.rs"],
    ),
    (
        "read_revision",
        &["src/pipeline/git.rs", "src/scope/mod.rs", "src/cli/"],
    ),
];

#[test]
fn nothing_below_the_plan_reads_the_config_or_asks_git() {
    let mut bad = Vec::new();
    for f in sources() {
        let code = without_tests(&f.code);
        for (name, places) in PLAN_ONLY {
            if places.iter().any(|p| f.rel.starts_with(p)) {
                continue;
            }
            for (at, _) in code.match_indices(name) {
                // `CustomCommand::new` is not `Command::new`; `Config::find`
                // stands for `find_limited` too.
                if code[..at].chars().next_back().is_some_and(is_ident) {
                    continue;
                }
                bad.push(format!(
                    "{}:{}: `{name}` outside {}: take it from the run's plan",
                    f.rel,
                    line_at(&code, at),
                    places.join(", ")
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "below the plan, nothing reads the config or asks git:\n{}",
        bad.join("\n")
    );
}

fn sources() -> Vec<SourceFile> {
    read_sources(&["src"])
}

/// The test code: `tests/*.rs` and the folders of modules they include
/// (not the trees of Rust the cases and the corpus hold).
const TEST_CODE: &[&str] = &[
    "tests",
    "tests/audit",
    "tests/audit_upstream",
    "tests/common",
    "tests/hostile",
    "tests/metamorphic",
    "tests/shapes",
    "tests/tidy",
];

fn read_sources(dirs: &[&str]) -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for d in dirs {
        if *d == "src" {
            collect(&root.join(d), &mut paths);
        } else {
            paths.extend(
                std::fs::read_dir(root.join(d))
                    .unwrap()
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "rs")),
            );
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            SourceFile {
                module: module_of(&rel),
                code: blank(&text),
                rel,
                text,
            }
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src/a/b.rs` → `a::b`; `src/a/mod.rs` → `a`; `src/lib.rs` → the root.
fn module_of(rel: &str) -> Vec<String> {
    let path = rel.trim_start_matches("src/").trim_end_matches(".rs");
    let mut segs: Vec<String> = path.split('/').map(str::to_string).collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    if segs == ["lib"] {
        segs.clear();
    }
    segs
}

/// The layer of a module path: its longest entry in [`LAYERS`].
fn layer_of(path: &[String]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, (_, entries)) in LAYERS.iter().enumerate() {
        for e in entries.iter() {
            let e: Vec<&str> = e.split("::").collect();
            let hit = e.len() <= path.len() && e.iter().zip(path).all(|(a, b)| *a == b);
            if hit && best.is_none_or(|(len, _)| e.len() > len) {
                best = Some((e.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

fn layer_of_file(f: &SourceFile) -> Option<usize> {
    if f.module.is_empty() {
        return Some(LAYERS.len() - 1);
    }
    layer_of(&f.module)
}

#[test]
fn the_reader_blanks_what_is_not_code() {
    let code = blank("let s = \"crate::x\"; // crate::y\nlet c = '{'; let l: &'a str = r#\"}\"#;");
    assert!(!code.contains("crate"), "{code}");
    assert!(!code.contains(['{', '}']), "{code}");
    assert!(code.contains("&'a str"), "{code}");
    assert_eq!(code.lines().count(), 2);
}

#[test]
fn the_reader_finds_imports_and_functions() {
    let f = SourceFile {
        rel: "src/link/mod.rs".into(),
        module: module_of("src/link/mod.rs"),
        text: String::new(),
        code: blank(
            "use crate::{facts::{Span, Value}, source};\nuse super::x as y;\nfn f() {\n    \
             crate::checks::run();\n}\nmod tests {\n    use super::*;\n}\n",
        ),
    };
    let paths: Vec<String> = imports(&f, &[])
        .into_iter()
        .map(|i| i.path.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "facts::Span",
            "facts::Value",
            "source",
            "x",
            "checks::run",
            "link"
        ]
    );
    assert_eq!(functions(&f.code), [("f".to_string(), 3, 3)]);
    assert_eq!(module_of("src/pipeline/files.rs"), ["pipeline", "files"]);
    assert_eq!(
        layer_of(&module_of("src/pipeline/files.rs")),
        layer_of(&["discover".to_string()])
    );
}
