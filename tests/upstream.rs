//! `check --upstream DIR`: the checked code held to the contract the code
//! under DIR observes (drafted as `extract --as-contract DIR` prints it),
//! in every format, with exact results. The fixtures are
//! `tests/fixtures/upstream/`: `tq-node`, a JavaScript upstream with no
//! contract shipped (keys `tq:{<queue>}:<type>`, a job hash, a script run
//! by EVAL); `port-py`, a Python port that agrees with it; and two twins
//! of the port, one writing a field the upstream does not have, one
//! building its keys under another prefix.

mod common;

use std::path::{Path, PathBuf};

use common::{human_findings, json_findings, run};

/// Where the fixtures are; the runs start there.
fn fixtures() -> PathBuf {
    common::repo().join("tests/fixtures/upstream")
}

/// The draft's name in reports.
const DRAFT: &str = "tq-node (upstream's observed contract)";

/// `check --upstream tq-node PORT --format json ARGS`, from the fixtures:
/// the exit code, the findings and the document.
fn check(port: &str, extra: &[&str]) -> (i32, Vec<String>, serde_json::Value) {
    let mut args = vec!["check", "--upstream", "tq-node", port, "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(&args, &fixtures());
    assert!(!stdout.is_empty(), "no output; stderr:\n{stderr}");
    let doc = serde_json::from_str(&stdout).unwrap();
    (code, json_findings(&stdout), doc)
}

/// The usage error of `check ARGS` from `cwd`: exit 2, nothing on stdout,
/// and stderr.
fn usage_error(args: &[&str], cwd: &Path) -> String {
    let (code, stdout, stderr) = run(args, cwd);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    stderr
}

#[test]
fn a_port_that_agrees_with_its_upstream_is_clean() {
    let (code, findings, doc) = check("port-py", &[]);
    assert_eq!(findings, Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(doc["contract"]["name"], "tq-node");
    assert_eq!(doc["contract"]["source"], DRAFT);
    // The embedded contract does not step aside here: no note says so.
    assert_eq!(doc["notes"], serde_json::json!([]));
}

#[test]
fn a_renamed_field_is_unknown_to_the_upstream() {
    let (code, findings, doc) = check("port-field-renamed", &[]);
    assert_eq!(findings, ["WL201 port-field-renamed/tq/queue.py:25"]);
    assert_eq!(code, 1);
    let d = &doc["diagnostics"][0];
    assert_eq!(
        d["message"],
        "field `percent` is not a field of the `job` record"
    );
    // The contract's side is the draft's record, by the draft's name.
    assert_eq!(d["related"][0]["path"], DRAFT);
    assert_eq!(d["related"][0]["span"]["start"]["line"], 15);
    assert_eq!(
        d["related"][0]["message"],
        "the `job` record has fields `data`, `progress`, `state`"
    );
}

#[test]
fn a_moved_prefix_is_the_upstreams_prefix_moved() {
    let (code, findings, doc) = check("port-prefix-moved", &[]);
    assert_eq!(findings, ["WL101 port-prefix-moved/tq/keys.py:3"]);
    assert_eq!(code, 1);
    let d = &doc["diagnostics"][0];
    assert_eq!(
        d["message"],
        "key prefix `tk:` differs from the contract's `tq:`"
    );
    assert_eq!(d["related"][0]["path"], DRAFT);
    assert_eq!(d["related"][0]["span"]["start"]["line"], 7);
}

/// Every format reports the same finding, and those that name the
/// contract's side name the draft.
#[test]
fn every_format_holds_the_port_to_the_draft() {
    let dir = fixtures();
    let base = ["check", "--upstream", "tq-node", "port-field-renamed"];
    let with = |format: &str| {
        let mut args = base.to_vec();
        args.extend(["--format", format]);
        let (code, stdout, stderr) = run(&args, &dir);
        assert_eq!(code, 1, "--format {format}: {stderr}");
        (stdout, stderr)
    };
    let (_, full) = with("full");
    assert_eq!(
        human_findings(&full),
        ["WL201 port-field-renamed/tq/queue.py:25"]
    );
    assert!(full.contains(&format!("╭─[{DRAFT}:15:10]")), "{full}");
    let (concise, _) = with("concise");
    assert_eq!(
        concise,
        "port-field-renamed/tq/queue.py:25:54: error[WL201]: field `percent` is not a field of the `job` record\n"
    );
    let (lines, _) = with("json-lines");
    let line: serde_json::Value = serde_json::from_str(lines.trim_end()).unwrap();
    assert_eq!(line["code"], "WL201");
    assert_eq!(line["related"][0]["path"], DRAFT);
    let (sarif, _) = with("sarif");
    let sarif: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(common::sarif_schema_errors(&sarif), Vec::<String>::new());
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "WL201");
    // The draft is in no file: named as it is, on no base.
    let related = &result["relatedLocations"][0]["physicalLocation"];
    assert_eq!(
        related["artifactLocation"],
        serde_json::json!({"uri": "tq-node%20%28upstream%27s%20observed%20contract%29"})
    );
    assert_eq!(related["region"]["startLine"], 15);
    let (github, _) = with("github");
    assert!(github.starts_with("::error file="), "{github}");
    assert!(
        github.contains(&format!("%0A{DRAFT}:15: the `job` record has fields")),
        "{github}"
    );
    let (gitlab, _) = with("gitlab");
    let gitlab: serde_json::Value = serde_json::from_str(&gitlab).unwrap();
    assert_eq!(gitlab[0]["check_name"], "WL201");
    assert_eq!(gitlab.as_array().unwrap().len(), 1);
}

/// `--contract NAME` goes to the upstream's draft (as `extract
/// --as-contract --contract NAME`), not to the checked code: a shipped
/// family leaves this draft as it is, and a name none is refused.
#[test]
fn a_contract_named_reads_the_upstreams_draft() {
    let (code, findings, doc) = check("port-py", &["--contract", "bullmq"]);
    assert_eq!(findings, Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(doc["contract"]["source"], DRAFT);
    let stderr = usage_error(
        &[
            "check",
            "--upstream",
            "tq-node",
            "--contract",
            "nosuch",
            "port-py",
        ],
        &fixtures(),
    );
    assert!(
        stderr.starts_with("error: no shipped contract is named `nosuch`"),
        "{stderr}"
    );
}

/// The checked tree's `wirelint.toml` applies as usual.
#[test]
fn the_checked_trees_settings_apply() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&fixtures().join("tq-node"), &dir.path().join("tq-node"));
    let port = dir.path().join("port");
    common::copy_tree(&fixtures().join("port-field-renamed"), &port);
    std::fs::write(port.join("wirelint.toml"), "ignore = [\"WL201\"]\n").unwrap();
    let (code, stdout, stderr) = run(
        &["check", "--upstream", "tq-node", "port", "--format", "json"],
        dir.path(),
    );
    assert_eq!(json_findings(&stdout), Vec::<String>::new(), "{stderr}");
    assert_eq!(code, 0);
}

/// The upstream is read with its own `wirelint.toml`: one that cannot be
/// read fails the run, pointing into it.
#[test]
fn the_upstreams_own_config_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let up = dir.path().join("up");
    common::copy_tree(&fixtures().join("tq-node"), &up);
    common::copy_tree(&fixtures().join("port-py"), &dir.path().join("port"));
    std::fs::write(up.join("wirelint.toml"), "contract = 3\n").unwrap();
    let (code, stdout, stderr) = run(&["check", "--upstream", "up", "port"], dir.path());
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("up/wirelint.toml"), "{stderr}");
}

#[test]
fn an_upstream_that_is_no_directory_is_a_usage_error() {
    let dir = fixtures();
    let stderr = usage_error(
        &["check", "--upstream", "tq-node/package.json", "port-py"],
        &dir,
    );
    assert_eq!(
        stderr,
        "error: --upstream tq-node/package.json is not a directory (a regular file): name the folder of the upstream's code\n"
    );
    let stderr = usage_error(&["check", "--upstream", "no-such-dir", "port-py"], &dir);
    assert_eq!(stderr, "error: --upstream no-such-dir: no such directory\n");
    let stderr = usage_error(
        &["check", "--upstream", "tq-node", "--no-contract", "port-py"],
        &dir,
    );
    assert!(
        stderr.starts_with(
            "error: the argument '--upstream <DIR>' cannot be used with '--no-contract'"
        ),
        "{stderr}"
    );
}

/// An upstream that gives no draft: no source file at all, or code that
/// puts nothing on the wire.
#[test]
fn an_upstream_with_nothing_to_draft_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&fixtures().join("port-py"), &dir.path().join("port"));
    std::fs::create_dir_all(dir.path().join("docs-only")).unwrap();
    std::fs::write(dir.path().join("docs-only/README.md"), "# tq\n").unwrap();
    let stderr = usage_error(&["check", "--upstream", "docs-only", "port"], dir.path());
    assert_eq!(
        stderr,
        "error: --upstream docs-only holds no source file wirelint reads (Elixir, Rust, Lua, Python, JavaScript, TypeScript, Go or Ruby): there is no code to draft the upstream's contract from\n"
    );
    std::fs::create_dir_all(dir.path().join("quiet")).unwrap();
    std::fs::write(dir.path().join("quiet/main.js"), "console.log('hi');\n").unwrap();
    let stderr = usage_error(&["check", "--upstream", "quiet", "port"], dir.path());
    assert_eq!(
        stderr,
        "error: --upstream quiet: its code (1 source file) builds no key, writes no record and runs no script that wirelint follows, so the draft of its contract is empty and would hold the checked code to nothing\n"
    );
}
