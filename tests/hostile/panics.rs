//! Panics: positions past column 65,535, in every format and in `diff`; error documents against their schemas.

use super::*;

// ------------------------------------------------------ 1. panics (exit 101)

/// One minified line with the key past column 65,535.
fn long_line() -> String {
    format!(
        "{}redis.call('GET','emq:{{q}}:jobz')\n",
        "local a=1;".repeat(7000)
    )
}

/// A finding past column 65,535: every format of `check` reports it.
#[test]
fn a_finding_past_column_65535_is_reported_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "min.lua", long_line().as_bytes());
    let (code, _, stderr) = run(&["check", "."], d);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("╭─[min.lua:1:70027]"), "{stderr}");
    assert!(stderr.lines().all(|l| l.chars().count() < 300), "{stderr}");
    for format in ["concise", "json", "json-lines", "sarif", "github", "gitlab"] {
        let (code, stdout, stderr) = run(&["check", ".", "--format", format], d);
        assert_eq!(code, 1, "{format}: {stderr}");
        // GitLab's report has lines only.
        assert!(
            format == "gitlab" || stdout.contains("70027"),
            "{format}: {stdout}"
        );
    }
}

/// `diff` on a change past column 65,535.
#[test]
fn a_change_past_column_65535_is_reported_by_diff() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "min.lua", b"local a = 1\n");
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    write(d, "min.lua", long_line().as_bytes());
    let (code, _, stderr) = run(&["diff", "--against", "main"], d);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("╭─[min.lua:1:70018]"), "{stderr}");
}

/// Contract and `wirelint.toml` errors past column 65,535: exit 2 with the
/// position, as text and as a JSON error document.
#[test]
fn contract_and_config_errors_past_column_65535() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    let far = format!("name = \"x\"{}bogus\n", " ".repeat(70_000));
    write(d, "c.toml", far.as_bytes());
    let (code, stdout, stderr) = run(&["check", ".", "--contract", "c.toml"], d);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("╭─[c.toml:1:70011]"), "{stderr}");
    let (code, stdout, _) = run(
        &["check", ".", "--contract", "c.toml", "--format", "json"],
        d,
    );
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["error"]["kind"], "contract");
    assert_eq!(v["error"]["path"], "c.toml");
    assert_eq!(
        (&v["error"]["line"], &v["error"]["column"]),
        (&1.into(), &70011.into())
    );
    write(d, "wirelint.toml", far.replace("name", "select").as_bytes());
    for format in ["json", "json-lines", "sarif", "gitlab"] {
        let (code, stdout, stderr) = run(&["check", ".", "--format", format], d);
        assert_eq!(code, 2, "{format}");
        let v: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{format}: {e}: {stdout}\n{stderr}"));
        assert!(!v.is_null());
    }
    let (code, stdout, _) = run(&["check", ".", "--format", "github"], d);
    assert_eq!(code, 2);
    assert!(stdout.starts_with("::error file="), "{stdout}");
}

fn validator(path: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(common::repo().join(path)).unwrap();
    // See `sarif_validates_against_the_schema` (tests/formats.rs).
    let text = text.replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, doc: &str) {
    let doc: serde_json::Value = serde_json::from_str(doc).unwrap();
    let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc}");
}

/// The error document validates against the documented schema (and the
/// SARIF one against SARIF 2.1.0), for a usage and a contract error.
#[test]
fn error_documents_validate_against_the_schemas() {
    let json = validator("docs/wirelint-output.schema.json");
    let sarif = validator("tests/sarif-schema-2.1.0.json");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    write(d, "c.toml", b"name = \"x\"\nrecrods = 1\n");
    for args in [
        vec!["check", ".", "--contract", "c.toml"],
        vec!["check", "no/such/path"],
    ] {
        let with = |f: &str| {
            let mut a = args.clone();
            a.extend_from_slice(&["--format", f]);
            let (code, stdout, _) = run(&a, d);
            assert_eq!(code, 2, "{a:?}");
            stdout
        };
        let doc = with("json");
        assert_valid(&json, &doc);
        assert_valid(&json, with("json-lines").trim_end());
        assert_valid(&sarif, &with("sarif"));
        let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
        assert!(v["error"]["message"].is_string(), "{doc}");
    }
    let (_, doc, _) = run(
        &["check", ".", "--contract", "c.toml", "--format", "json"],
        d,
    );
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(
        v["error"],
        serde_json::json!({
            "kind": "contract",
            "message": "invalid contract c.toml: unknown key `recrods`",
            "path": "c.toml",
            "line": 2,
            "column": 1,
            "help": "did you mean `records`?",
        })
    );
}
