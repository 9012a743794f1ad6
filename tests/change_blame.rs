//! The blame of a change-aware run (the pre-commit hook's files,
//! `check --changed-since REF`): when only a shared Lua script changed,
//! the callers that did not change are not the ones that "alone diverge";
//! the help says the change does.

mod common;

use common::{git, json_findings, run};
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const PUSH: &str = "-- KEYS[1] job row\n-- KEYS[2] pending set\nredis.call('HSET', KEYS[1], 'state', 'pending')\nredis.call('ZADD', KEYS[2], 0, ARGV[1])\nreturn 1\n";

/// A repository whose Elixir and Rust speakers run `scripts/push.lua`
/// with its 2 keys, committed; then the script takes a third key.
fn changed_script() -> tempfile::TempDir {
    changed_script_with(RS_RUNS, "jq:")
}

const RS_RUNS: &str = "pub fn push(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {\n    redis::Script::new(include_str!(\"../../scripts/push.lua\"))\n        .key(format!(\"jq:{{{q}}}:job:{id}\"))\n        .key(format!(\"jq:{{{q}}}:pending\"))\n        .arg(id)\n        .invoke(con)\n}\n";

/// As [`changed_script`], with `rs_lib` as the Rust speaker's code and
/// `prefix` the keys' prefix in Elixir.
fn changed_script_with(rs_lib: &str, prefix: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "wirelint.toml", "");
    write(root, "scripts/push.lua", PUSH);
    write(
        root,
        "ex/mix.exs",
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    );
    write(
        root,
        "ex/lib/q.ex",
        "defmodule Q do\n  @push File.read!(Path.join(__DIR__, \"../../scripts/push.lua\"))\n\n  def push(conn, q, id) do\n    Redix.command(conn, [\"EVAL\", @push, 2, \"jq:{#{q}}:job:#{id}\", \"jq:{#{q}}:pending\", id])\n  end\nend\n"
        .replace("jq:", prefix)
        .as_str(),
    );
    write(
        root,
        "rs/Cargo.toml",
        "[package]\nname = \"rs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(root, "rs/src/lib.rs", rs_lib);
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    let grown = PUSH
        .replace(
            "-- KEYS[2] pending set\n",
            "-- KEYS[2] pending set\n-- KEYS[3] events stream\n",
        )
        .replace(
            "return 1",
            "redis.call('XADD', KEYS[3], '*', 'id', ARGV[1])\nreturn 1",
        );
    write(root, "scripts/push.lua", &grown);
    git(root, &["add", "-A"]);
    dir
}

fn helps(stdout: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(stdout).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["help"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_hook_blames_the_change_not_the_callers() {
    let dir = changed_script();
    for args in [
        &["check", "--format", "json", "scripts/push.lua"][..],
        &["check", "--format", "json", "--changed-since", "main"][..],
    ] {
        let (code, stdout, stderr) = run(args, dir.path());
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert_eq!(
            json_findings(&stdout),
            ["WL303 ex/lib/q.ex:5", "WL303 rs/src/lib.rs:3"],
            "{args:?}"
        );
        assert_eq!(
            helps(&stdout),
            [
                "pass exactly 3 keys: KEYS[3] is nil inside `push`, and what the caller meant as KEYS[3] arrives as ARGV[1]: every ARGV shifts by 1. `ex` did not change: the change to `scripts/push.lua` is what now diverges from it on the script's KEYS",
                "pass exactly 3 keys: KEYS[3] is nil inside `push`. `rs` did not change: the change to `scripts/push.lua` is what now diverges from it on the script's KEYS",
            ],
            "{args:?}"
        );
    }
    // A plain run knows no change: it blames the speaker.
    let (_, stdout, _) = run(&["check", "--format", "json", "."], dir.path());
    assert!(
        helps(&stdout)[0].ends_with("; `ex` alone diverges"),
        "{stdout}"
    );
}

/// When the one caller left is the only speaker that runs the script, the
/// help says the change diverges from it (not that none agrees).
#[test]
fn the_hook_blames_the_change_when_one_speaker_runs_the_script() {
    // The keys are the embedded contract's: the speakers that build them
    // take part, the folder of scripts does not.
    let dir = changed_script_with(
        "pub fn size(con: &mut redis::Connection, q: &str) -> redis::RedisResult<i64> {\n    redis::cmd(\"ZCARD\").arg(format!(\"emq:{{{q}}}:pending\")).query(con)\n}\n",
        "emq:",
    );
    let (code, stdout, stderr) = run(
        &["check", "--format", "json", "scripts/push.lua"],
        dir.path(),
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_findings(&stdout), ["WL303 ex/lib/q.ex:5"]);
    assert_eq!(
        helps(&stdout),
        ["pass exactly 3 keys: KEYS[3] is nil inside `push`, and what the caller meant as KEYS[3] arrives as ARGV[1]: every ARGV shifts by 1. `ex` did not change: the change to `scripts/push.lua` is what now diverges from it on the script's KEYS"]
    );
}

/// The hook's report keeps the notes on the changed files; the others,
/// the same on every commit, are one line.
#[test]
fn the_hook_folds_the_notes_outside_the_change() {
    let dir = changed_script();
    // Notes on every run: a script file the Rust speaker names is not in
    // the tree, and the embedded contract steps aside.
    write(
        dir.path(),
        "rs/src/gen.rs",
        "pub const GEN: &str = include_str!(\"commands/gen-1.lua\");\n",
    );
    let (_, _, stderr) = run(&["check", "."], dir.path());
    assert!(
        stderr.contains(
            "note: rs/src/gen.rs: script file `commands/gen-1.lua` is not among the scanned files"
        ),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["check", "scripts/push.lua"], dir.path());
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(
        notes,
        ["note: .: 2 notes outside the change not shown: a run without files or --changed-since shows them"],
        "{stderr}"
    );
}
