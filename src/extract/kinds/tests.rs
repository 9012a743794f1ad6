//! Every grammar's named node kinds against its language's table, the
//! tables against the extractors' sources, and the grammar table of
//! `docs/precision.md` against the tables.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{of, Class, Kinds};
use crate::facts::Lang;

/// A language's table (its name in the docs, a language it is the table
/// of, the extractor folder it classifies, `src/extract/<folder>/`) and the
/// grammars it covers (crate, `NODE_TYPES`).
type Covered = (&'static str, Lang, &'static str, &'static [Grammar]);
type Grammar = (&'static str, &'static str);

const ELIXIR: &[Grammar] = &[("tree-sitter-elixir", tree_sitter_elixir::NODE_TYPES)];
const RUST: &[Grammar] = &[("tree-sitter-rust", tree_sitter_rust::NODE_TYPES)];
const LUA: &[Grammar] = &[("tree-sitter-lua", tree_sitter_lua::NODE_TYPES)];
const PYTHON: &[Grammar] = &[("tree-sitter-python", tree_sitter_python::NODE_TYPES)];
const JS: &[Grammar] = &[
    ("tree-sitter-javascript", tree_sitter_javascript::NODE_TYPES),
    (
        "tree-sitter-typescript",
        tree_sitter_typescript::TYPESCRIPT_NODE_TYPES,
    ),
    (
        "tree-sitter-typescript",
        tree_sitter_typescript::TSX_NODE_TYPES,
    ),
];
const GO: &[Grammar] = &[("tree-sitter-go", tree_sitter_go::NODE_TYPES)];
const RUBY: &[Grammar] = &[("tree-sitter-ruby", tree_sitter_ruby::NODE_TYPES)];

const COVERED: &[Covered] = &[
    ("Elixir", Lang::Elixir, "elixir", ELIXIR),
    ("Rust", Lang::Rust, "rust", RUST),
    ("Lua", Lang::Lua, "lua", LUA),
    ("Python", Lang::Python, "python", PYTHON),
    ("JavaScript, TypeScript, TSX", Lang::JavaScript, "js", JS),
    ("Go", Lang::Go, "go", GO),
    ("Ruby", Lang::Ruby, "ruby", RUBY),
];

/// The named kinds of a grammar's `node-types.json`: every `named: true`
/// type it mentions (at the top level, or only inside another's fields and
/// children, as an alias is), less its supertypes, which are abstract.
fn named_kinds(node_types: &str) -> BTreeSet<String> {
    fn walk(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::Object(o) => {
                if let (Some(t), Some(true)) = (
                    o.get("type").and_then(|t| t.as_str()),
                    o.get("named").and_then(|n| n.as_bool()),
                ) {
                    out.insert(t.to_string());
                }
                o.values().for_each(|x| walk(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let json: serde_json::Value = serde_json::from_str(node_types).expect("node-types.json");
    let mut out = BTreeSet::new();
    walk(&json, &mut out);
    let supertypes = json.as_array().into_iter().flatten().filter_map(|e| {
        e.get("subtypes")?;
        e.get("type")?.as_str()
    });
    for s in supertypes {
        out.remove(s);
    }
    out
}

fn grammar_kinds(grammars: &[Grammar]) -> BTreeSet<String> {
    grammars
        .iter()
        .flat_map(|(_, types)| named_kinds(types))
        .collect()
}

#[test]
fn every_named_kind_of_every_grammar_is_classified_once() {
    let mut bad = Vec::new();
    for &(name, lang, folder, grammars) in COVERED {
        let table = of(lang);
        let have = grammar_kinds(grammars);
        let mut seen = BTreeSet::new();
        for (k, _) in table.rows() {
            if !seen.insert(k) {
                bad.push(format!("{name}: `{k}` is classified twice"));
            }
            if !have.contains(k) {
                bad.push(format!(
                    "{name}: `{k}` is no kind of the grammar (stale row)"
                ));
            }
        }
        for k in have.iter().filter(|k| !seen.contains(k.as_str())) {
            bad.push(format!(
                "{name}: `{k}` is unclassified; add it to src/extract/{folder}/kinds.rs"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The extractor sources of a folder, less its tests and its table.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("an extractor folder") {
        let p = e.expect("a directory entry").path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.contains("test") || name == "kinds.rs" {
            continue;
        }
        if p.is_dir() {
            sources(&p, out);
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// A kind classified as evaluated is named, as a string literal, in its
/// extractor's code.
#[test]
fn evaluated_kinds_are_named_by_their_extractor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/extract");
    let mut bad = Vec::new();
    for &(name, lang, folder, _) in COVERED {
        let mut files = Vec::new();
        sources(&root.join(folder), &mut files);
        let code: String = files
            .iter()
            .map(|f| std::fs::read_to_string(f).expect("a source file"))
            .collect();
        for k in of(lang).evaluated {
            if !code.contains(&format!("\"{k}\"")) {
                bad.push(format!(
                    "{name}: `{k}` is classified as evaluated, but src/extract/{folder}/ never \
                     names it"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The version of each package in `Cargo.lock`.
fn locked_versions() -> BTreeMap<String, String> {
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
        .expect("Cargo.lock");
    let mut out = BTreeMap::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            out.insert(n, v.trim_matches('"').to_string());
        }
    }
    out
}

fn count(table: &Kinds, pick: fn(Class) -> bool) -> usize {
    table.rows().filter(|(_, c)| pick(*c)).count()
}

/// The grammar table of `docs/precision.md`.
fn markdown() -> String {
    let versions = locked_versions();
    let mut out = String::from(
        "| language | grammar | evaluated | not a value | opaque |\n\
         | --- | --- | ---: | ---: | ---: |\n",
    );
    for &(name, lang, _, grammars) in COVERED {
        let table = of(lang);
        let grammars: BTreeSet<String> = grammars
            .iter()
            .map(|(krate, _)| format!("{krate} {}", versions[*krate]))
            .collect();
        let grammars: Vec<String> = grammars.into_iter().collect();
        out += &format!(
            "| {name} | {} | {} | {} | {} |\n",
            grammars.join(", "),
            count(table, |c| c == Class::Evaluated),
            count(table, |c| c == Class::NotValue),
            count(table, |c| matches!(c, Class::Opaque(_))),
        );
    }
    out += "\nThe opaque kinds, by language and reason:\n";
    for &(name, lang, _, _) in COVERED {
        out += &format!("\n- {name}:\n");
        for (why, kinds) in of(lang).opaque {
            let mut kinds = kinds.to_vec();
            kinds.sort_unstable();
            let kinds: Vec<String> = kinds.iter().map(|k| format!("`{k}`")).collect();
            out += &format!("  - {}: {why}.\n", kinds.join(", "));
        }
    }
    out
}

const DOC: &str = "docs/precision.md";
const BEGIN: &str = "<!-- grammar: begin (generated from src/extract/*/kinds.rs) -->\n";
const END: &str = "<!-- grammar: end -->";

#[test]
fn the_precision_doc_shows_the_grammar_coverage() {
    crate::extract::assert_generated(DOC, BEGIN, END, &markdown());
}
