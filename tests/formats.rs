//! Every output format on every divergent fixture (insta snapshots), the
//! SARIF output against the SARIF 2.1.0 schema, the GitHub annotation cap.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_tree, repo, run, variant};

const DIVERGENT: &[&str] = &[
    "hash-tag-removed",
    "payload-renamed",
    "pending-dropped",
    "prefix-changed",
    "type-misspelled",
];

const FORMATS: &[&str] = &["full", "concise", "json", "json-lines", "github", "gitlab"];

fn output(dir: &Path, format: &str) -> String {
    let (code, stdout, stderr) = run(&["check", ".", "--format", format], dir);
    format!("exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}")
}

#[test]
fn text_formats_on_every_divergent_fixture() {
    for name in DIVERGENT {
        let dir = variant(name);
        for format in FORMATS {
            insta::assert_snapshot!(format!("{format}__{name}"), output(dir.path(), format));
        }
    }
}

fn sarif_of(dir: &Path) -> serde_json::Value {
    let (_, stdout, _) = run(&["check", ".", "--format", "sarif"], dir);
    serde_json::from_str(&stdout).expect("SARIF is JSON")
}

#[test]
fn sarif_results_on_every_divergent_fixture() {
    for name in DIVERGENT {
        let dir = variant(name);
        let (code, stdout, stderr) = run(&["check", ".", "--format", "sarif"], dir.path());
        assert_eq!(code, 1);
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let results = serde_json::to_string_pretty(&doc["runs"][0]["results"]).unwrap();
        insta::assert_snapshot!(
            format!("sarif__{name}"),
            format!("{results}\n--- stderr\n{stderr}")
        );
    }
}

#[test]
fn sarif_header_and_rules() {
    let dir = variant("payload-renamed");
    let doc = sarif_of(dir.path());
    assert_eq!(doc["version"], "2.1.0");
    assert_eq!(
        doc["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "wirelint");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), wirelint::checks::RULES.len());
    for (r, want) in rules.iter().zip(wirelint::checks::RULES) {
        assert_eq!(r["id"], want.code);
        assert_eq!(r["name"], want.name);
        assert_eq!(r["shortDescription"]["text"], want.summary);
        assert_eq!(r["help"]["markdown"], want.doc());
        assert_eq!(r["help"]["text"], want.doc());
        assert_eq!(r["defaultConfiguration"]["level"], want.severity.as_str());
        assert!(!r["fullDescription"]["text"].as_str().unwrap().is_empty());
    }
    let wl201 = &rules[7];
    assert_eq!(wl201["id"], "WL201");
    assert!(wl201["fullDescription"]["text"]
        .as_str()
        .unwrap()
        .starts_with("Flags"));
    // The finding: relative uri under %SRCROOT%, the contract side related,
    // a fingerprint that is not line based.
    // results[0] is the WL305 drift of the same edit; [1] is the WL201.
    let r = &run["results"][1];
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "echo_mq/lib/echo_mq/jobs.ex"
    );
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(loc["region"]["startLine"], 10);
    let rel = &r["relatedLocations"][0]["physicalLocation"];
    assert_eq!(rel["artifactLocation"]["uri"], "rules/echomq.toml");
    assert_eq!(rel["artifactLocation"]["uriBaseId"], "WIRELINT_EMBEDDED");
    assert_eq!(rel["region"]["startLine"], 25);
    assert!(r["fingerprints"].is_null());
    assert_eq!(
        r["partialFingerprints"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        vec!["wirelintFact/v1"]
    );
}

/// Moving a finding down a few lines changes neither its SARIF nor its
/// GitLab fingerprint.
#[test]
fn fingerprints_do_not_depend_on_lines() {
    let dir = variant("payload-renamed");
    let before = sarif_of(dir.path())["runs"][0]["results"][0]["partialFingerprints"].clone();
    let (_, gl_before, _) = run(&["check", ".", "--format", "gitlab"], dir.path());
    let jobs = dir.path().join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, format!("# one\n# two\n\n{text}")).unwrap();
    let after_doc = sarif_of(dir.path());
    let r = &after_doc["runs"][0]["results"][0];
    assert_eq!(
        r["locations"][0]["physicalLocation"]["region"]["startLine"],
        13
    );
    assert_eq!(r["partialFingerprints"], before);
    let (_, gl_after, _) = run(&["check", ".", "--format", "gitlab"], dir.path());
    let fp = |s: &str| {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        v[0]["fingerprint"].clone()
    };
    assert_eq!(fp(&gl_before), fp(&gl_after));
}

/// The vendored schema is the OASIS SARIF 2.1.0 JSON schema, verbatim, as
/// shipped in the `serde-sarif` crate's sources (`src/schema.json`).
#[test]
fn sarif_validates_against_the_schema() {
    let mut names: Vec<&str> = DIVERGENT.to_vec();
    names.push("");
    for name in names {
        let dir = variant(name);
        let doc = sarif_of(dir.path());
        let errors = common::sarif_schema_errors(&doc);
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

/// Where Microsoft's SARIF multitool is installed (`SARIF_MULTITOOL`, or
/// `Sarif.Multitool` / `sarif-multitool` on PATH), it validates the output
/// as ingestion services do, GitHub's rules included; no error-level
/// result is allowed. Skips cleanly elsewhere.
#[test]
fn sarif_passes_the_multitool_where_installed() {
    let tool = std::env::var_os("SARIF_MULTITOOL")
        .map(PathBuf::from)
        .or_else(|| find_on_path("Sarif.Multitool"))
        .or_else(|| find_on_path("sarif-multitool"));
    let Some(tool) = tool else {
        eprintln!("skipped: no SARIF multitool (set SARIF_MULTITOOL or put it on PATH)");
        return;
    };
    let direct = tool.file_name().is_some_and(|n| n == "Sarif.Multitool");
    for name in DIVERGENT {
        let dir = variant(name);
        let (_, stdout, _) = run(&["check", ".", "--format", "sarif"], dir.path());
        let out = tempfile::tempdir().unwrap();
        let input = out.path().join("in.sarif");
        let report = out.path().join("validation.sarif");
        std::fs::write(&input, stdout).unwrap();
        let mut cmd = std::process::Command::new(&tool);
        cmd.arg("validate")
            .arg(&input)
            .arg("--output")
            .arg(&report)
            .args(["--log", "ForceOverwrite"]);
        if direct {
            // The npm wrapper passes arguments through a shell, which would
            // split `Sarif;Gh`.
            cmd.args(["--rule-kind", "Sarif;Gh"]);
        }
        let status = cmd.output().expect("the multitool runs");
        assert!(status.status.success(), "{name}: {status:?}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let errors: Vec<&serde_json::Value> = v["runs"][0]["results"]
            .as_array()
            .map(|a| a.iter().filter(|r| r["level"] == "error").collect())
            .unwrap_or_default();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A tree with 12 WL101 and 11 WL103 findings in one generated file.
pub fn many_findings() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("fixtures/echomq"), dir.path());
    let mut src = String::from("//! Many wrong keys.\n\n");
    for i in 0..12 {
        src.push_str(&format!(
            "pub fn k{i}(q: &str) -> String {{\n    format!(\"emk:{{{{{{}}}}}}:pending\", q)\n}}\n\n"
        ));
    }
    for i in 0..11 {
        src.push_str(&format!(
            "pub fn w{i}(q: &str) -> String {{\n    format!(\"emq:{{{{{{}}}}}}:pendng\", q)\n}}\n\n"
        ));
    }
    std::fs::write(dir.path().join("peers/rust/src/many.rs"), src).unwrap();
    dir
}

#[test]
fn github_annotations_are_capped_at_ten_per_level() {
    let dir = many_findings();
    let (code, stdout, stderr) = run(&["check", ".", "--format", "github"], dir.path());
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().collect();
    let errors = lines.iter().filter(|l| l.starts_with("::error ")).count();
    let warnings = lines.iter().filter(|l| l.starts_with("::warning ")).count();
    assert_eq!((errors, warnings), (10, 0));
    // The 13 others are plain lines in the log, then one notice.
    let plain: Vec<&&str> = lines.iter().filter(|l| !l.starts_with("::")).collect();
    assert_eq!(plain.len(), 13);
    assert_eq!(
        plain[0],
        &"peers/rust/src/many.rs:44:14: error[WL101]: key prefix `emk:` differs from the contract's `emq:`"
    );
    assert_eq!(
        lines.last().unwrap(),
        &"::notice title=wirelint::wirelint: 13 more not annotated (13 errors, 0 warnings): GitHub shows 10 annotations per level; they are listed in this step's log above, and `wirelint check` prints them all"
    );
    assert_eq!(
        stderr.trim(),
        "wirelint: 23 errors, 0 warnings in 9 files; exit 1: findings at or above error"
    );
    assert_eq!(
        lines[0],
        "::error file=peers/rust/src/many.rs,line=4,endLine=4,col=14,endColumn=19,title=WL101 key-prefix::key prefix `emk:` differs from the contract's `emq:` [peers/rust]%0Ahelp: write `emq:` (the key is `emk:{<q>}:pending`): rows that `peers/rust` writes at `emk:` are unfindable to the other 2 speakers (`echo_mq`, `peers/worker`), and it cannot find theirs. 2 of 3 speakers still agree on where the row lives; `peers/rust` alone diverges%0Arules/echomq.toml (embedded):14: the contract builds every key as `emq:{<queue>}:<type>`"
    );
}
