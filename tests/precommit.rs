//! pre-commit end to end: a temporary git repository, a staged change, and
//! wirelint run on the staged file names the way pre-commit passes them.

mod common;

use std::path::Path;
use std::process::Command;

use common::{git, json_findings, repo, run, variant};

/// A repository holding `variant`'s tree, committed.
fn repo_of(name: &str) -> tempfile::TempDir {
    let dir = variant(name);
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

fn staged(dir: &Path) -> Vec<String> {
    git(dir, &["diff", "--cached", "--name-only"])
        .lines()
        .map(String::from)
        .collect()
}

fn check_staged(dir: &Path) -> (i32, Vec<String>) {
    let files = staged(dir);
    let mut args = vec!["check", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, stdout, stderr) = run(&args, dir);
    assert!(!stdout.is_empty(), "{stderr}");
    (code, json_findings(&stdout))
}

#[test]
fn the_hook_manifest_is_as_documented() {
    let text = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    for line in [
        "- id: wirelint",
        "  entry: wirelint check",
        "  language: rust",
        "  types_or: [elixir, rust, lua, python, javascript, jsx, ts, tsx, go, ruby, toml]",
        "  require_serial: true",
    ] {
        assert!(text.lines().any(|l| l == line), "missing `{line}`");
    }
}

#[test]
fn a_staged_divergence_is_reported() {
    let dir = repo_of("");
    let jobs = dir.path().join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, text.replace("'payload', ARGV[2]", "'data', ARGV[2]")).unwrap();
    git(dir.path(), &["add", "echo_mq/lib/echo_mq/jobs.ex"]);
    assert_eq!(staged(dir.path()), ["echo_mq/lib/echo_mq/jobs.ex"]);
    let (code, f) = check_staged(dir.path());
    assert_eq!(
        (code, f),
        (
            1,
            vec![
                "WL305 echo_mq/lib/echo_mq/jobs.ex:10".to_string(),
                "WL201 echo_mq/lib/echo_mq/jobs.ex:10".to_string()
            ]
        )
    );
}

/// Findings outside the passed files are not reported, though the whole
/// repository is read (8 files checked).
#[test]
fn only_findings_in_the_passed_files_are_reported() {
    let dir = repo_of("type-misspelled");
    let jobs = dir.path().join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, format!("# a comment\n{text}")).unwrap();
    git(dir.path(), &["add", "-A"]);
    let (code, stdout, stderr) = run(
        &["check", "--format", "json", "echo_mq/lib/echo_mq/jobs.ex"],
        dir.path(),
    );
    assert_eq!((code, json_findings(&stdout)), (0, vec![]));
    assert_eq!(
        stderr.trim(),
        "wirelint: 0 errors, 0 warnings in 8 files; exit 0: clean"
    );
    // The file with the finding, passed: reported, and failing nothing,
    // as the base holds it; `--fail-on-existing` fails on it.
    let files = ["peers/rust/src/keys.rs", "echo_mq/lib/echo_mq/jobs.ex"];
    let wl103 = vec!["WL103 peers/rust/src/keys.rs:10".to_string()];
    for (flag, want) in [(None, 0), (Some("--fail-on-existing"), 1)] {
        let mut args = vec!["check", "--format", "json"];
        args.extend(flag);
        args.extend(files);
        let (code, stdout, _) = run(&args, dir.path());
        assert_eq!(
            (code, json_findings(&stdout)),
            (want, wl103.clone()),
            "{flag:?}"
        );
    }
}

#[test]
fn passed_files_that_are_excluded_stay_excluded() {
    let dir = repo_of("type-misspelled");
    std::fs::write(
        dir.path().join("wirelint.toml"),
        "exclude = [\"peers/rust/src/keys.rs\"]\n",
    )
    .unwrap();
    let keys = dir.path().join("peers/rust/src/keys.rs");
    let text = std::fs::read_to_string(&keys).unwrap();
    std::fs::write(&keys, format!("{text}\n")).unwrap();
    git(dir.path(), &["add", "peers/rust/src/keys.rs"]);
    let (code, f) = check_staged(dir.path());
    assert_eq!((code, f), (0, vec![]));
}

/// A staged contract or config change reports every finding.
#[test]
fn a_staged_toml_reports_everything() {
    let dir = repo_of("type-misspelled");
    std::fs::write(dir.path().join("wirelint.toml"), "# settings\n").unwrap();
    git(dir.path(), &["add", "wirelint.toml"]);
    let (code, f) = check_staged(dir.path());
    assert_eq!(
        (code, f),
        (1, vec!["WL103 peers/rust/src/keys.rs:10".to_string()])
    );
}

/// A repository of three speakers and shared scripts: `scripts/pick.lua`
/// writes the task row's `pb`, which `app`, `ops` and `rs` read in three
/// other files. Committed.
fn pick_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_pick(dir.path());
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

const PICK: &[(&str, &str)] = &[
    (
        "scripts/pick.lua",
        "-- KEYS[1] task row\nredis.call('HSET', KEYS[1], 'state', 'active', 'pb', ARGV[1])\nreturn 1\n",
    ),
    ("app/mix.exs", "defmodule App.MixProject do\nend\n"),
    (
        "app/lib/jobs.ex",
        "defmodule App.Jobs do\n  def save(conn, q, id), do: Redix.command(conn, [\"HSET\", \"tq:{#{q}}:task:#{id}\", \"state\", \"waiting\"])\n  def owner(conn, q, id), do: Redix.command(conn, [\"HGET\", \"tq:{#{q}}:task:#{id}\", \"pb\"])\nend\n",
    ),
    ("ops/mix.exs", "defmodule Ops.MixProject do\nend\n"),
    (
        "ops/lib/audit.ex",
        "defmodule Ops.Audit do\n  def picker(conn, q, id), do: Redix.command(conn, [\"HMGET\", \"tq:{#{q}}:task:#{id}\", \"state\", \"pb\"])\nend\n",
    ),
    (
        "rs/Cargo.toml",
        "[package]\nname = \"rs\"\nversion = \"0.1.0\"\n",
    ),
    (
        "rs/src/lib.rs",
        "use redis::Commands;\n\npub fn picked_by(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<Option<String>> {\n    con.hget(format!(\"tq:{{{}}}:task:{}\", q, id), \"pb\")\n}\n\npub fn pick(con: &mut redis::Connection, q: &str, id: &str, w: &str) -> redis::RedisResult<i64> {\n    redis::Script::new(include_str!(\"../../scripts/pick.lua\")).key(format!(\"tq:{{{}}}:task:{}\", q, id)).arg(w).invoke(con)\n}\n",
    ),
];

/// The three readers the rename of `pb` breaks, in three other files.
const BROKEN_READERS: [&str; 3] = [
    "WL203 app/lib/jobs.ex:3",
    "WL203 ops/lib/audit.ex:2",
    "WL203 rs/src/lib.rs:4",
];

/// Renames `pb` to `picked_by` in the shared script.
fn rename_pb(dir: &Path) {
    let script = dir.join("scripts/pick.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, text.replace("'pb'", "'picked_by'")).unwrap();
}

/// The change wirelint exists to catch: a staged script breaks readers in
/// other files, and the run on the staged file alone says so.
#[test]
fn a_staged_rename_reports_the_readers_it_breaks_in_other_files() {
    let dir = pick_repo();
    let (code, f) = check_staged(dir.path());
    assert_eq!((code, f), (0, vec![]));
    rename_pb(dir.path());
    git(dir.path(), &["add", "scripts/pick.lua"]);
    let (code, f) = check_staged(dir.path());
    assert_eq!((code, f), (1, BROKEN_READERS.map(String::from).to_vec()));
}

/// Old findings elsewhere are not the change's: a staged `Cargo.toml` (or
/// any file) reports only what it introduces.
#[test]
fn old_findings_elsewhere_do_not_block_an_unrelated_commit() {
    let dir = pick_repo();
    rename_pb(dir.path());
    git(dir.path(), &["commit", "-q", "-am", "rename"]);
    let (code, _, _) = run(&["check", "."], dir.path());
    assert_eq!(code, 1);
    let manifest = dir.path().join("rs/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}edition = \"2021\"\n")).unwrap();
    git(dir.path(), &["add", "rs/Cargo.toml"]);
    let (code, f) = check_staged(dir.path());
    assert_eq!((code, f), (0, vec![]));
    // A staged reader that is itself broken is reported (it is changed),
    // and blocks nothing: the base already holds its finding.
    let reader = dir.path().join("ops/lib/audit.ex");
    let text = std::fs::read_to_string(&reader).unwrap();
    std::fs::write(&reader, format!("# audit\n{text}")).unwrap();
    git(dir.path(), &["add", "ops/lib/audit.ex"]);
    let (code, f) = check_staged(dir.path());
    assert_eq!((code, f), (0, vec!["WL203 ops/lib/audit.ex:3".to_string()]));
}

/// From a parent folder, the files' repository is read, not the current
/// directory: here a sibling checkout of 8 files besides its 6.
#[test]
fn files_alone_are_read_in_the_repository_that_holds_them() {
    let parent = tempfile::tempdir().unwrap();
    let repo = pick_repo();
    let inner = parent.path().join("repo");
    common::copy_tree(repo.path(), &inner);
    common::copy_tree(
        &common::repo().join("fixtures/echomq"),
        &parent.path().join("other"),
    );
    rename_pb(&inner);
    let (code, stdout, stderr) = run(
        &["check", "--format", "json", "repo/scripts/pick.lua"],
        parent.path(),
    );
    // Paths as typed: relative to the current directory.
    let readers: Vec<String> = BROKEN_READERS
        .iter()
        .map(|f| f.replace("WL203 ", "WL203 repo/"))
        .collect();
    assert_eq!((code, json_findings(&stdout)), (1, readers));
    assert!(
        stderr.ends_with(
            "wirelint: 3 errors, 0 warnings in 6 files; exit 1: findings at or above error\n"
        ),
        "{stderr}"
    );
}

/// Files of two repositories have no one root: a usage error.
#[test]
fn files_of_two_repositories_are_a_usage_error() {
    let parent = tempfile::tempdir().unwrap();
    for name in ["a", "b"] {
        common::copy_tree(pick_repo().path(), &parent.path().join(name));
    }
    let (code, stdout, stderr) = run(
        &["check", "a/scripts/pick.lua", "b/scripts/pick.lua"],
        parent.path(),
    );
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains(": pass files of one repository"),
        "{stderr}"
    );
}

/// Outside git there is no base: the findings in the passed files, and a
/// note that says so.
#[test]
fn outside_git_files_alone_report_their_own_findings_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    write_pick(dir.path());
    rename_pb(dir.path());
    assert_eq!(
        check_pick_files(dir.path()),
        ["not in a git repository: only the findings in the passed files are reported"]
    );
}

/// The pick tree's files, uncommitted.
fn write_pick(dir: &Path) {
    for (path, text) in PICK {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// Checks the pick tree's two files alone: the finding in them, and
/// returns the notes that say only they are reported.
fn check_pick_files(dir: &Path) -> Vec<String> {
    let (code, stdout, stderr) = run(
        &[
            "check",
            "--format",
            "json",
            "scripts/pick.lua",
            "rs/src/lib.rs",
        ],
        dir,
    );
    assert_eq!(
        (code, json_findings(&stdout)),
        (1, vec!["WL203 rs/src/lib.rs:4".to_string()]),
        "{stderr}"
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["message"].as_str())
        .filter(|m| m.contains("only the findings in the passed files"))
        .map(String::from)
        .collect()
}

/// In a repository with no commit yet (a first commit), files alone report
/// their own findings, with a note saying why: `HEAD` names nothing.
#[test]
fn before_the_first_commit_files_alone_report_their_own_findings_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    write_pick(dir.path());
    git(dir.path(), &["init", "-q", "-b", "main"]);
    rename_pb(dir.path());
    assert_eq!(
        check_pick_files(dir.path()),
        ["no commit yet: only the findings in the passed files are reported"]
    );
}

/// `--changed-since REF`: what the change since REF introduces, wherever it
/// lands; nothing once it is the base; a REF that names nothing is exit 2.
#[test]
fn changed_since_reports_what_the_change_introduces() {
    let dir = pick_repo();
    // An old finding, committed: never the change's.
    let app = dir.path().join("app/lib/jobs.ex");
    let text = std::fs::read_to_string(&app).unwrap();
    std::fs::write(
        &app,
        text.replace(
            "\"state\", \"waiting\"",
            "\"state\", \"waiting\", \"pb\", \"\"",
        ),
    )
    .unwrap();
    git(dir.path(), &["commit", "-q", "-am", "app writes pb"]);
    let main = git(dir.path(), &["rev-parse", "HEAD"]);
    rename_pb(dir.path());
    let (code, stdout, _) = run(
        &["check", "--format", "json", "--changed-since", main.trim()],
        dir.path(),
    );
    assert_eq!(code, 0, "app still writes pb: {stdout}");
    // Now nobody writes `pb`: the readers break (the app writes it no more).
    std::fs::write(&app, text).unwrap();
    let (code, stdout, _) = run(
        &["check", "--format", "json", "--changed-since", "HEAD"],
        dir.path(),
    );
    assert_eq!(
        (code, json_findings(&stdout)),
        (1, BROKEN_READERS.map(String::from).to_vec())
    );
    git(dir.path(), &["commit", "-q", "-am", "rename"]);
    let (code, stdout, _) = run(
        &["check", "--format", "json", "--changed-since", "HEAD"],
        dir.path(),
    );
    assert_eq!((code, json_findings(&stdout)), (0, vec![]));
    let (code, _, stderr) = run(&["check", "--changed-since", "no-such-ref"], dir.path());
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: `no-such-ref` does not name a commit in this repository\n"
        )
    );
}

/// Whether the `pre-commit` framework is installed (`.ci/run` installs it).
fn have_pre_commit() -> bool {
    Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `pre-commit run` on what is staged: its exit code, and the findings
/// the hook printed (`--format concise` lines: `path:line:col: CODE ...`).
fn pre_commit_run(dir: &Path, home: &Path) -> (i32, Vec<String>, String) {
    let out = Command::new("pre-commit")
        .arg("run")
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", home)
        .env("NO_COLOR", "1")
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .output()
        .expect("pre-commit runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let findings = text
        .lines()
        .filter(|l| l.contains(": error[WL") || l.contains(": warning[WL"))
        .map(|l| {
            // `path:line:col: error[WL203]: message`
            let (at, rest) = l.split_once(": ").unwrap_or((l, ""));
            let (path, line) = at
                .rsplit_once(':')
                .and_then(|(p, _)| p.rsplit_once(':'))
                .unwrap_or((at, ""));
            let code = rest
                .split_once('[')
                .and_then(|(_, r)| r.split_once(']'))
                .map_or("", |(c, _)| c);
            format!("{code} {path}:{line}")
        })
        .collect();
    (out.status.code().unwrap_or(-1), findings, text)
}

/// The real `pre-commit` framework with a `repo: local` hook on the built
/// binary: the cross-file rename fails the commit with the three readers
/// named; an unrelated staged `Cargo.toml` passes though old findings
/// remain. Skipped, and said so, when `pre-commit` is not installed.
#[test]
fn the_real_pre_commit_hook_catches_a_cross_file_rename() {
    if !have_pre_commit() {
        eprintln!("skipped: `pre-commit` is not installed (pip install pre-commit)");
        return;
    }
    let dir = pick_repo();
    let home = tempfile::tempdir().unwrap();
    let config = format!(
        "repos:\n  - repo: local\n    hooks:\n      - id: wirelint\n        name: wirelint\n        entry: {} check --format concise\n        language: system\n        types_or: [elixir, rust, lua, python, javascript, jsx, ts, tsx, go, ruby, toml]\n        require_serial: true\n",
        env!("CARGO_BIN_EXE_wirelint")
    );
    std::fs::write(dir.path().join(".pre-commit-config.yaml"), config).unwrap();
    git(dir.path(), &["add", ".pre-commit-config.yaml"]);
    git(dir.path(), &["commit", "-q", "-m", "hook"]);
    rename_pb(dir.path());
    git(dir.path(), &["add", "scripts/pick.lua"]);
    let (code, findings, text) = pre_commit_run(dir.path(), home.path());
    assert_eq!(
        (code, findings),
        (1, BROKEN_READERS.map(String::from).to_vec()),
        "{text}"
    );
    assert!(
        text.contains("wirelint") && text.contains("Failed"),
        "{text}"
    );
    // Committed anyway: the old findings are now the base's.
    git(dir.path(), &["commit", "-q", "--no-verify", "-m", "rename"]);
    let manifest = dir.path().join("rs/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}edition = \"2021\"\n")).unwrap();
    git(dir.path(), &["add", "rs/Cargo.toml"]);
    let (code, findings, text) = pre_commit_run(dir.path(), home.path());
    assert_eq!((code, findings), (0, vec![]), "{text}");
    assert!(text.contains("Passed"), "{text}");
}

/// A commit's findings are stored once per commit (and `wirelint.toml`):
/// the hook run again on the same `HEAD` reads them; a new commit or a new
/// `wirelint.toml` stores anew; the results never change.
#[test]
fn a_commits_findings_are_stored_by_commit_and_settings() {
    let dir = pick_repo();
    let cache = tempfile::tempdir().unwrap();
    let stored = || -> usize {
        std::fs::read_dir(cache.path())
            .unwrap()
            .flatten()
            .filter_map(|build| std::fs::read_dir(build.path().join("values")).ok())
            .map(|d| d.count())
            .sum()
    };
    let check = |file: &str| {
        let c = cache.path().to_str().unwrap();
        let (code, stdout, stderr) = run(
            &["check", "--format", "json", "--cache-dir", c, file],
            dir.path(),
        );
        assert!(!stdout.is_empty(), "{stderr}");
        (code, json_findings(&stdout))
    };
    rename_pb(dir.path());
    git(dir.path(), &["commit", "-q", "-am", "rename"]);
    // Old findings outside the changed file: the base is needed.
    let ops = dir.path().join("ops/lib/audit.ex");
    let text = std::fs::read_to_string(&ops).unwrap();
    std::fs::write(&ops, format!("{text}\n")).unwrap();
    let clean = (0, vec![]);
    // Reported, not failing: the base holds it.
    let broken_ops = (0, vec!["WL203 ops/lib/audit.ex:2".to_string()]);
    assert_eq!((check("rs/Cargo.toml"), stored()), (clean.clone(), 1));
    assert_eq!((check("rs/Cargo.toml"), stored()), (clean.clone(), 1));
    assert_eq!(
        (check("ops/lib/audit.ex"), stored()),
        (broken_ops.clone(), 1)
    );
    std::fs::write(dir.path().join("wirelint.toml"), "exclude = [\"app/**\"]\n").unwrap();
    assert_eq!((check("rs/Cargo.toml"), stored()), (clean.clone(), 2));
    std::fs::remove_file(dir.path().join("wirelint.toml")).unwrap();
    git(dir.path(), &["commit", "-q", "-am", "ops"]);
    assert_eq!((check("rs/Cargo.toml"), stored()), (clean, 3));
}

/// The real `pre-commit` on a commit that touches a file holding a finding
/// already at `HEAD`: shown (`verbose: true`: pre-commit prints a passing
/// hook's output only then), marked, and passing; with `args:
/// [--fail-on-existing]` the same commit fails.
#[test]
fn the_real_hook_shows_old_findings_and_fails_on_them_only_when_asked() {
    if !have_pre_commit() {
        eprintln!("skipped: `pre-commit` is not installed (pip install pre-commit)");
        return;
    }
    let dir = pick_repo();
    let d = dir.path();
    let home = tempfile::tempdir().unwrap();
    rename_pb(d);
    git(d, &["commit", "-q", "-am", "rename"]);
    let reader = d.join("ops/lib/audit.ex");
    let text = std::fs::read_to_string(&reader).unwrap();
    std::fs::write(&reader, format!("# audit\n{text}")).unwrap();
    git(d, &["add", "ops/lib/audit.ex"]);
    let old = vec!["WL203 ops/lib/audit.ex:3".to_string()];
    for (args, code, verdict) in [("[]", 0, "Passed"), ("[--fail-on-existing]", 1, "Failed")] {
        let config = format!(
            "repos:\n  - repo: local\n    hooks:\n      - id: wirelint\n        name: wirelint\n        entry: {} check --format concise\n        args: {args}\n        verbose: true\n        language: system\n        types_or: [elixir, rust, lua, python, javascript, jsx, ts, tsx, go, ruby, toml]\n        require_serial: true\n",
            env!("CARGO_BIN_EXE_wirelint")
        );
        std::fs::write(d.join(".pre-commit-config.yaml"), config).unwrap();
        git(d, &["add", ".pre-commit-config.yaml"]);
        let (got, findings, text) = pre_commit_run(d, home.path());
        assert_eq!((got, findings), (code, old.clone()), "{args}: {text}");
        assert!(text.contains(verdict), "{args}: {text}");
        assert!(text.contains("(already at HEAD)"), "{args}: {text}");
    }
}
