//! The map (`docs/ARCHITECTURE.md`) is the territory: it stays short, its
//! layer table is the one `tests/tidy.rs` holds the imports to, and every
//! path, module, item and test it names exists.

#[path = "tidy/layers.rs"]
mod layers;

use std::path::Path;

const MAP: &str = "docs/ARCHITECTURE.md";
const MAX_LINES: usize = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn map() -> String {
    std::fs::read_to_string(root().join(MAP)).expect("docs/ARCHITECTURE.md")
}

/// The text between backticks, each span once, in order.
fn ticked(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for block in text.split("```").step_by(2) {
        let mut parts = block.split('`');
        parts.next();
        while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
            if !out.contains(&inside) {
                out.push(inside);
            }
        }
    }
    out
}

#[test]
fn the_map_is_short() {
    let lines = map().lines().count();
    assert!(
        lines <= MAX_LINES,
        "{MAP} is {lines} lines (at most {MAX_LINES}): detail belongs in the modules' own headers"
    );
}

#[test]
fn the_layer_table_is_tidys() {
    let text = map();
    let section = text
        .split("\n## Layers\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a `## Layers` section");
    let rows: Vec<(String, Vec<String>)> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| layer") && !l.starts_with("| ---"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let modules = ticked(cells[2]).iter().map(|m| m.to_string()).collect();
            (cells[1].to_string(), modules)
        })
        .collect();
    let tidy: Vec<(String, Vec<String>)> = layers::LAYERS
        .iter()
        .map(|(name, ms)| (name.to_string(), ms.iter().map(|m| m.to_string()).collect()))
        .collect();
    assert_eq!(
        rows, tidy,
        "the layer table of {MAP} and LAYERS in tests/tidy/layers.rs differ"
    );
}

/// A module path of the crate (`link::flow`) or an item in one
/// (`pipeline::analyze`, `facts::Op`): a module file, or a definition of
/// the last segment in the module's files.
fn resolves(path: &str) -> bool {
    let segs: Vec<&str> = path.split("::").collect();
    let src = root().join("src");
    let module = |segs: &[&str]| -> Vec<std::path::PathBuf> {
        let base = src.join(segs.join("/"));
        vec![base.with_extension("rs"), base.join("mod.rs")]
    };
    if module(&segs).iter().any(|p| p.is_file()) {
        return true;
    }
    let Some((last, parent)) = segs.split_last() else {
        return false;
    };
    let mut files: Vec<std::path::PathBuf> = module(parent);
    if let Ok(dir) = std::fs::read_dir(src.join(parent.join("/"))) {
        files.extend(dir.filter_map(|e| e.ok()).map(|e| e.path()));
    }
    let defs = ["fn", "struct", "enum", "trait", "type", "const", "static"];
    files.iter().filter(|p| p.is_file()).any(|p| {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        defs.iter().any(|d| {
            text.contains(&format!("{d} {last}("))
                || text.contains(&format!("{d} {last} "))
                || text.contains(&format!("{d} {last}<"))
                || text.contains(&format!("{d} {last}:"))
        })
    })
}

/// Every file under `src/`, as a path with `/`.
fn src_files() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

#[test]
fn what_the_map_names_exists() {
    let text = map();
    let tops: Vec<String> = std::fs::read_dir(root().join("src"))
        .expect("src/")
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    let mut missing = Vec::new();
    for t in ticked(&text) {
        let file_like = ["src/", "tests/", "docs/", "fixtures/", "rules/", "fuzz/"]
            .iter()
            .any(|p| t.starts_with(p));
        if file_like {
            // A placeholder (`<lang>`) or a glob names a family, not a file.
            let path = t.split(" (").next().unwrap_or(t);
            if path.contains('<') || path.contains('*') {
                continue;
            }
            if !root().join(path).exists() {
                missing.push(format!("`{t}`: no such file"));
            }
            continue;
        }
        // A file named within its folder's paragraph (`flow.rs`,
        // `lua/eval.rs`): some file of `src/` ends so.
        if t.ends_with(".rs") && !t.contains(' ') && !t.contains('*') {
            if !src_files().iter().any(|f| f.ends_with(&format!("/{t}"))) {
                missing.push(format!("`{t}`: no file of src/ ends so"));
            }
            continue;
        }
        let is_path = t.contains("::")
            && t.split("::")
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
        if is_path
            && tops
                .iter()
                .any(|m| t.split("::").next() == Some(m.as_str()))
            && !resolves(t)
        {
            missing.push(format!("`{t}`: no such module or item in src/"));
        }
    }
    assert!(
        missing.is_empty(),
        "{MAP} names what is not there:\n{}",
        missing.join("\n")
    );
}

/// A test the invariants table names by function (`name` in backticks
/// after a test file) is a test of that file.
#[test]
fn the_invariants_name_real_tests() {
    let text = map();
    let mut missing = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("tests/"))
    {
        let held = line.rsplit('|').nth(1).unwrap_or("");
        let names = ticked(held);
        let mut file: Option<&str> = None;
        for n in names {
            let test_name = n
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if n.contains('/') {
                file = Some(n).filter(|n| n.ends_with(".rs"));
            } else if let (Some(f), true) = (file, test_name) {
                let body = std::fs::read_to_string(root().join(f)).unwrap_or_default();
                if !body.contains(&format!("fn {n}()")) {
                    missing.push(format!("{f} has no test `{n}`"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
