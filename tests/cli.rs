//! `rules`, `explain`, `wirelint.toml`, `--fail-on`, `--exit-zero`, inline
//! suppressions and the baseline, through the binary, with exact results.

mod common;

use std::path::Path;

use common::{json_findings, run, variant};

fn findings(dir: &Path, extra: &[&str]) -> (i32, Vec<String>) {
    let mut args = vec!["check", ".", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(&args, dir);
    assert!(!stdout.is_empty(), "no output; stderr:\n{stderr}");
    (code, json_findings(&stdout))
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn edit(dir: &Path, rel: &str, f: impl Fn(&str) -> String) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, f(&text)).unwrap();
}

const JOBS: &str = "echo_mq/lib/echo_mq/jobs.ex";

// ---- rules and explain ----

#[test]
fn rules_lists_every_rule() {
    let (code, stdout, stderr) = run(&["rules"], &common::repo());
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        "wirelint: the rules read Elixir, Rust, Lua, Python, JavaScript, TypeScript, Go and Ruby\n"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), wirelint::checks::RULES.len());
    assert_eq!(
        lines[0],
        "WL001  parse-error               input  warning  the file has syntax errors; facts from its valid parts are still checked"
    );
    assert_eq!(
        lines[1],
        "WL002  unused-suppression        input  warning  an inline suppression suppresses nothing"
    );
    // Every row lines up, the longest name's too.
    let layer_at: Vec<usize> = lines
        .iter()
        .map(|l| l.find(" L").or(l.find(" input")).unwrap())
        .collect();
    assert!(layer_at.iter().all(|c| *c == layer_at[0]), "{stdout}");
    let codes: Vec<&str> = lines.iter().map(|l| &l[..5]).collect();
    assert_eq!(
        codes,
        [
            "WL001", "WL002", "WL101", "WL102", "WL103", "WL104", "WL105", "WL201", "WL202",
            "WL203", "WL204", "WL301", "WL302", "WL303", "WL304", "WL305", "WL306", "WL307",
            "WL308", "WL309", "WL310", "WL311", "WL312"
        ]
    );
}

/// `rules --diff` lists the changes `diff` reports, lined up, and each is
/// one `explain` knows.
#[test]
fn rules_diff_lists_every_change_code() {
    let (code, stdout, _) = run(&["rules", "--diff"], &common::repo());
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    let codes: Vec<&str> = lines.iter().map(|l| &l[..5]).collect();
    assert_eq!(
        codes,
        [
            "WD001", "WD101", "WD102", "WD103", "WD201", "WD202", "WD203", "WD204", "WD301",
            "WD302", "WD303", "WD304", "WD305"
        ]
    );
    assert_eq!(
        lines[7],
        "WD204  field-read-renamed  L1     error    a speaker reads a field of a record under another name than at the base"
    );
    let layer_at: Vec<usize> = lines
        .iter()
        .map(|l| l.find(" L").or_else(|| l.find(" input")).unwrap())
        .collect();
    assert!(layer_at.iter().all(|c| *c == layer_at[0]), "{stdout}");
    for c in codes {
        let (code, doc, _) = run(&["explain", c], &common::repo());
        assert_eq!(code, 0, "{c}");
        assert!(doc.starts_with(&format!("# {c} ")), "{doc}");
    }
    let (code, _, _) = run(&["rules", "--diff", "--audit"], &common::repo());
    assert_eq!(code, 2);
}

#[test]
fn explain_prints_the_rule_doc() {
    let (code, stdout, _) = run(&["explain", "wl201"], &common::repo());
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("# WL201 unknown-field\n\n## What it does\n"),
        "{stdout}"
    );
    assert_eq!(stdout, wirelint::checks::rule("WL201").unwrap().doc());
    let (code, stdout, _) = run(&["explain", "WL002"], &common::repo());
    assert_eq!(code, 0);
    assert!(stdout.starts_with("# WL002 unused-suppression\n"));
    // The changes `diff` reports have their own documentation.
    let (code, stdout, _) = run(&["explain", "WD202"], &common::repo());
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("# WD202 field-renamed\n\nLayer L1, error by default.\n\n## What it reports\n`wirelint diff --against REF`: a written field of a record has another name than at the base.\n"),
        "{stdout}"
    );
}

#[test]
fn explain_an_unknown_code_exits_2() {
    let (code, stdout, stderr) = run(&["explain", "WL999"], &common::repo());
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("error: no rule `WL999`; rules are WL001, WL002, WL101"),
        "{stderr}"
    );
}

/// A rule's name is its code: `explain keys-order` prints WL304's doc, in
/// any case, and a change's name (`field-renamed`) its WD code's.
#[test]
fn explain_takes_a_rule_name_as_its_code() {
    let (_, by_code, _) = run(&["explain", "WL304"], &common::repo());
    for name in ["keys-order", "KEYS-Order"] {
        let (code, stdout, stderr) = run(&["explain", name], &common::repo());
        assert_eq!((code, stderr.as_str()), (0, ""), "{name}");
        assert_eq!(stdout, by_code, "{name}");
    }
    assert!(by_code.starts_with("# WL304 keys-order\n"), "{by_code}");
    let (code, stdout, _) = run(&["explain", "field-renamed"], &common::repo());
    assert_eq!(code, 0);
    assert!(stdout.starts_with("# WD202 field-renamed\n"), "{stdout}");
    // A name the audit shares is the check's, and stderr names the other.
    let (code, stdout, stderr) = run(&["explain", "unknown-field"], &common::repo());
    assert_eq!(code, 0);
    assert_eq!(stdout, wirelint::checks::rule("WL201").unwrap().doc());
    assert_eq!(
        stderr,
        "wirelint: `unknown-field` is WL201's name, and also WA201's (`wirelint explain WA201`)\n"
    );
}

/// A near miss of a code or a name exits 2 with the one it is near.
#[test]
fn explain_a_near_miss_says_which_rule_it_means() {
    for (word, near) in [
        // One digit too many: WL304, which it starts with, not WL303.
        ("WL3043", "WL304 (keys-order)"),
        ("wl3043", "WL304 (keys-order)"),
        ("keys-ordr", "WL304 (keys-order)"),
        ("keys-oder", "WL304 (keys-order)"),
        ("WA31", "WA301 (member-without-key)"),
        // Two families' names alike: both.
        (
            "unknown-feld",
            "WL201 (unknown-field) or WA201 (unknown-field)",
        ),
    ] {
        let (code, stdout, stderr) = run(&["explain", word], &common::repo());
        assert_eq!(code, 2, "{word}");
        assert_eq!(stdout, "", "{word}");
        assert_eq!(
            stderr,
            format!("error: no rule `{word}`; did you mean {near}?\n"),
            "{word}"
        );
    }
    // Nine alike (`WL30`) is no guess: the list of codes.
    let (code, _, stderr) = run(&["explain", "WL30"], &common::repo());
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: no rule `WL30`; rules are WL001, WL002, WL101"),
        "{stderr}"
    );
}

// ---- --fail-on and --exit-zero ----

/// A syntax error in a Redis script gives a WL001 warning and nothing else.
fn warning_only() -> tempfile::TempDir {
    let dir = variant("");
    write(
        dir.path(),
        "peers/worker/lua/broken.lua",
        "local y = KEYS[1]\n\nlocal x = = 1\n",
    );
    dir
}

#[test]
fn fail_on_warning_fails_on_a_warning() {
    let dir = warning_only();
    let (code, f) = findings(dir.path(), &[]);
    assert_eq!(f, ["WL001 peers/worker/lua/broken.lua:3"]);
    assert_eq!(code, 0);
    let (code, _) = findings(dir.path(), &["--fail-on", "warning"]);
    assert_eq!(code, 1);
    let (code, _, stderr) = run(
        &["check", ".", "--fail-on", "warning", "--format", "concise"],
        dir.path(),
    );
    assert_eq!(code, 1);
    // The broken script is one no call runs: the terse format says so.
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "wirelint: 3 of 3 script calls checked; 1 script run by no call: --coverage lists them",
            "wirelint: 0 errors, 1 warning in 9 files; exit 1: findings at or above warning"
        ]
    );
}

#[test]
fn exit_zero_forces_zero() {
    let dir = variant("payload-renamed");
    let (code, f) = findings(dir.path(), &["--exit-zero"]);
    assert_eq!(code, 0);
    assert_eq!(
        f,
        [
            "WL305 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:10"
        ]
    );
}

// ---- wirelint.toml ----

#[test]
fn config_ignore_and_select() {
    let dir = variant("prefix-changed");
    write(dir.path(), "wirelint.toml", "ignore = [\"WL101\"]\n");
    assert_eq!(findings(dir.path(), &[]), (0, vec![]));
    write(dir.path(), "wirelint.toml", "select = [\"WL2\"]\n");
    assert_eq!(findings(dir.path(), &[]), (0, vec![]));
    write(dir.path(), "wirelint.toml", "select = [\"WL1\"]\n");
    assert_eq!(
        findings(dir.path(), &[]),
        (1, vec!["WL101 peers/rust/src/keys.rs:3".to_string()])
    );
}

#[test]
fn config_severity() {
    let dir = variant("prefix-changed");
    write(
        dir.path(),
        "wirelint.toml",
        "[severity]\nWL101 = \"warning\"\n",
    );
    let (code, stdout, stderr) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["severity"], "warning");
    assert_eq!(v["diagnostics"][0]["code"], "WL101");
    assert_eq!(
        stderr.trim(),
        "wirelint: 0 errors, 1 warning in 8 files; exit 0: nothing at or above error"
    );
}

#[test]
fn config_exclude_drops_files_even_when_named() {
    let dir = variant("type-misspelled");
    write(
        dir.path(),
        "wirelint.toml",
        "exclude = [\"peers/rust/src/keys.rs\"]\n",
    );
    let (code, f) = findings(dir.path(), &[]);
    assert_eq!((code, f), (0, vec![]));
    let (_, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["summary"]["files"], 7);
    // Named on the command line: still excluded.
    let (code, stdout, _) = run(
        &[
            "check",
            "peers/rust/src/keys.rs",
            "echo_mq",
            "--format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(code, 0);
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
}

#[test]
fn config_speakers_by_path() {
    let dir = variant("payload-renamed");
    write(
        dir.path(),
        "wirelint.toml",
        "[speakers.canonical]\npath = \"echo_mq\"\ncanonical = true\n",
    );
    let (_, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["speaker"], "canonical");
}

/// miette wraps long lines: join them back.
fn squash(s: &str) -> String {
    s.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn config_unknown_key_exits_2_with_did_you_mean() {
    let dir = variant("");
    write(dir.path(), "wirelint.toml", "selct = [\"WL1\"]\n");
    let (code, stdout, stderr) = run(&["check", "."], dir.path());
    let stderr = squash(&stderr);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("unknown key `selct`"), "{stderr}");
    assert!(stderr.contains("did you mean `select`?"), "{stderr}");
    write(dir.path(), "wirelint.toml", "ignore = [\"WL9\"]\n");
    let (code, _, stderr) = run(&["check", "."], dir.path());
    let stderr = squash(&stderr);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`WL9` in `ignore` is no rule code or code prefix"),
        "{stderr}"
    );
}

// ---- inline suppressions ----

#[test]
fn suppression_on_the_line_before() {
    let dir = variant("payload-renamed");
    edit(dir.path(), JOBS, |t| {
        t.replace(
            "  redis.call('HSET'",
            "  -- wirelint: allow(WL201, WL305)\n  redis.call('HSET'",
        )
    });
    assert_eq!(findings(dir.path(), &[]), (0, vec![]));
}

#[test]
fn suppression_on_the_same_line_in_rust() {
    let dir = variant("prefix-changed");
    edit(dir.path(), "peers/rust/src/keys.rs", |t| {
        t.replace(
            "pub const PREFIX: &str = \"emk:\";",
            "pub const PREFIX: &str = \"emk:\"; // wirelint: allow(WL101)",
        )
    });
    assert_eq!(findings(dir.path(), &[]), (0, vec![]));
}

#[test]
fn suppression_of_another_code_does_not_hide_and_is_unused() {
    let dir = variant("payload-renamed");
    edit(dir.path(), JOBS, |t| {
        t.replace(
            "  alias EchoMQ.Keyspace",
            "  # wirelint: allow(WL101, WL201)\n  alias EchoMQ.Keyspace",
        )
    });
    let (code, f) = findings(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        f,
        [
            "WL002 echo_mq/lib/echo_mq/jobs.ex:4",
            "WL002 echo_mq/lib/echo_mq/jobs.ex:4",
            "WL305 echo_mq/lib/echo_mq/jobs.ex:11",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:11"
        ]
    );
    let (_, stdout, _) = run(&["check", ".", "--format", "concise"], dir.path());
    assert_eq!(
        stdout.lines().next().unwrap(),
        "echo_mq/lib/echo_mq/jobs.ex:4:21: warning[WL002]: `allow(WL101)` suppresses nothing: no WL101 finding on this line or the next"
    );
}

#[test]
fn unused_suppression_of_an_ignored_rule_is_not_reported() {
    let dir = variant("");
    edit(dir.path(), JOBS, |t| {
        t.replace("  alias", "  # wirelint: allow(WL103)\n  alias")
    });
    assert_eq!(
        findings(dir.path(), &[]),
        (0, vec!["WL002 echo_mq/lib/echo_mq/jobs.ex:4".to_string()])
    );
    write(dir.path(), "wirelint.toml", "ignore = [\"WL103\"]\n");
    assert_eq!(findings(dir.path(), &[]), (0, vec![]));
}

// ---- baseline ----

#[test]
fn baseline_hides_known_findings_and_survives_edits_above() {
    let dir = variant("payload-renamed");
    let base = dir.path().join("wirelint-baseline.json");
    let (code, _, stderr) = run(
        &["check", ".", "--write-baseline", base.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("records 2 findings"), "{stderr}");
    let (code, f) = findings(dir.path(), &["--baseline", base.to_str().unwrap()]);
    assert_eq!((code, f), (0, vec![]));

    // Code added above the finding moves it down three lines: still known.
    edit(dir.path(), JOBS, |t| {
        t.replace(
            "  alias EchoMQ.Keyspace",
            "  alias EchoMQ.Keyspace\n\n  @one 1\n  @two 2",
        )
    });
    let (code, stdout, stderr) = run(
        &[
            "check",
            ".",
            "--format",
            "json",
            "--baseline",
            base.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!((code, json_findings(&stdout)), (0, vec![]));
    assert_eq!(
        stderr.trim(),
        "wirelint: 2 findings in the baseline not reported\nwirelint: 0 errors, 0 warnings in 8 files; exit 0: clean"
    );

    // A new divergence is reported.
    edit(dir.path(), "peers/rust/src/keys.rs", |t| {
        t.replace("\"emq:\"", "\"emk:\"")
    });
    let (code, f) = findings(dir.path(), &["--baseline", base.to_str().unwrap()]);
    assert_eq!(
        (code, f),
        (1, vec!["WL101 peers/rust/src/keys.rs:3".to_string()])
    );
}

#[test]
fn a_malformed_baseline_exits_2() {
    let dir = variant("");
    write(dir.path(), "b.json", "{\"version\": 1}");
    let (code, _, stderr) = run(&["check", ".", "--baseline", "b.json"], dir.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("baseline b.json is malformed"), "{stderr}");
}

/// An error in `wirelint.toml` is about the settings, not a contract.
#[test]
fn a_broken_wirelint_toml_is_headed_as_settings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wirelint.toml"), "selekt = [\"WL101\"]\n").unwrap();
    let (code, _, stderr) = run(&["check", "."], dir.path());
    assert_eq!(code, 2);
    assert!(
        stderr.contains("invalid settings ") && !stderr.contains("invalid contract"),
        "{stderr}"
    );
}
