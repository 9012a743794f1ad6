//! pre-commit end to end: a temporary git repository, a staged change, and
//! wirelint run on the staged file names the way pre-commit passes them.

mod common;

use std::path::Path;
use std::process::Command;

use common::{json_findings, repo, run, variant};

fn git(dir: &Path, args: &[&str]) -> String {
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
        "  types_or: [elixir, rust, lua, toml]",
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
    // The file with the finding, passed: reported.
    let (code, stdout, _) = run(
        &[
            "check",
            "--format",
            "json",
            "peers/rust/src/keys.rs",
            "echo_mq/lib/echo_mq/jobs.ex",
        ],
        dir.path(),
    );
    assert_eq!(
        (code, json_findings(&stdout)),
        (1, vec!["WL103 peers/rust/src/keys.rs:10".to_string()])
    );
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
