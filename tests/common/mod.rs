//! Shared helpers for integration tests: run the binary, build fixture
//! variants in temporary directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Every `--format` of `check`.
pub const FORMATS: &[&str] = &[
    "full",
    "concise",
    "json",
    "json-lines",
    "sarif",
    "github",
    "gitlab",
];

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `wirelint ARGS` with colour off; returns (exit code, stdout, stderr).
pub fn run(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        // Fixtures checked in place are their own roots, not this
        // repository (a run climbs to the nearest `.git`: `scope::root`).
        .env("GIT_CEILING_DIRECTORIES", repo())
        // The facts cache of test runs stays under target/, shared by them.
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walk(from) {
        let rel = entry.strip_prefix(from).unwrap();
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &dest).unwrap();
    }
}

/// Every file under `dir`, sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The base fixture of a variant: the one named in
/// `fixtures/variants/NAME/base` (a directory under `fixtures/`), else
/// `echomq`.
pub fn variant_base(name: &str) -> String {
    std::fs::read_to_string(repo().join("fixtures/variants").join(name).join("base"))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "echomq".to_string())
}

/// A variant's base fixture with the variant's files laid over it, in a
/// fresh temporary directory. The empty name gives `fixtures/echomq` alone.
pub fn variant(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    if name.is_empty() {
        copy_tree(&repo().join("fixtures/echomq"), dir.path());
        return dir;
    }
    copy_tree(
        &repo().join("fixtures").join(variant_base(name)),
        dir.path(),
    );
    copy_tree(
        &repo().join("fixtures/variants").join(name).join("tree"),
        dir.path(),
    );
    dir
}

/// The clean fixture repositories: every directory under `fixtures/` but
/// `variants` and `pending` (fixtures waiting for support).
pub fn clean_fixtures() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(repo().join("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "variants" && n != "pending")
        .collect();
    out.sort();
    out
}

/// `CODE path:line` for each diagnostic of a JSON report, in output order.
pub fn json_findings(stdout: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(stdout).expect("stdout is JSON");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}",
                d["code"].as_str().unwrap(),
                d["path"].as_str().unwrap(),
                d["span"]["start"]["line"]
            )
        })
        .collect()
}

/// `CODE path:line` for each diagnostic of the human report: the code line
/// (`WL201 unknown-field`) followed by its first `╭─[path:line:col]`.
pub fn human_findings(stderr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut code: Option<String> = None;
    for line in stderr.lines() {
        let t = line.trim();
        if t.starts_with("WL") && t.len() > 6 && t.as_bytes()[5] == b' ' {
            code = Some(t[..5].to_string());
            continue;
        }
        if let Some(c) = &code {
            if let Some(rest) = t.strip_prefix("╭─[") {
                let loc = rest.trim_end_matches(']');
                let mut parts = loc.rsplitn(3, ':');
                let _col = parts.next();
                let line_no = parts.next().unwrap_or("");
                let path = parts.next().unwrap_or("");
                out.push(format!("{c} {path}:{line_no}"));
                code = None;
            }
        }
    }
    out
}

/// Where `doc` breaks the vendored OASIS SARIF 2.1.0 JSON schema
/// (`tests/sarif-schema-2.1.0.json`, verbatim as shipped in the
/// `serde-sarif` crate's sources): `error at /path` per violation.
/// The first SARIF result's location: its URI, URI base and start line.
pub fn sarif_first_location(stdout: &str) -> (Option<String>, Option<String>, Option<i64>) {
    let sarif: serde_json::Value = serde_json::from_str(stdout).unwrap();
    let loc = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    (
        loc["artifactLocation"]["uri"].as_str().map(String::from),
        loc["artifactLocation"]["uriBaseId"]
            .as_str()
            .map(String::from),
        loc["region"]["startLine"].as_i64(),
    )
}

pub fn sarif_schema_errors(doc: &serde_json::Value) -> Vec<String> {
    let text = std::fs::read_to_string(repo().join("tests/sarif-schema-2.1.0.json")).unwrap();
    // The published schema's `language` pattern has a stray `]` that an
    // ECMA-262 regex (what `format: regex` checks) rejects; it constrains a
    // field wirelint does not emit. Use the intended pattern.
    let text = text.replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    validator
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Runs git in `dir` with a fixed identity; its stdout. Fails the test
/// with git's stderr when git fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `n` crates (`c00`, `c01`, …), each writing the job's `state` through
/// `redis::cmd`, the last a field the contract lacks (`extra`) instead:
/// many speakers of one row.
pub fn crates(dir: &std::path::Path, n: usize) {
    for i in 0..n {
        let c = dir.join(format!("c{i:02}"));
        std::fs::create_dir_all(c.join("src")).unwrap();
        std::fs::write(
            c.join("Cargo.toml"),
            format!("[package]\nname = \"c{i:02}\"\nversion = \"0.1.0\"\n"),
        )
        .unwrap();
        // Every crate writes `state`; the last also writes a field of its own.
        let field = if i + 1 == n { "extra" } else { "state" };
        std::fs::write(
            c.join("src/lib.rs"),
            format!(
                "pub fn w(con: &mut redis::Connection, q: &str, id: &str) {{\n    \
                 let _: () = redis::cmd(\"HSET\").arg(format!(\"emq:{{{{{{q}}}}}}:job:{{id}}\"))\
                 .arg(\"{field}\").arg(1).query(con).unwrap();\n}}\n"
            ),
        )
        .unwrap();
    }
}
pub mod lsp;
