//! The pre-commit hook's view of a change: a finding its base already
//! holds is marked `(already at HEAD)`, and the summary says how many the
//! change introduces.

mod common;

use common::{copy_tree, git, repo, run, variant};

const KEYS: &str = "peers/rust/src/keys.rs";

/// The echomq fixture, committed, with `overlay` (a variant's tree, or
/// none) laid over it after the commit when `after`, before it otherwise.
fn repo_with(overlay: &str, after: bool) -> tempfile::TempDir {
    let dir = variant("");
    let tree = repo().join("fixtures/variants").join(overlay).join("tree");
    if !after {
        copy_tree(&tree, dir.path());
    }
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    if after {
        copy_tree(&tree, dir.path());
    }
    dir
}

#[test]
fn a_finding_the_base_holds_is_marked_old() {
    // WL103 at keys.rs:10 is committed; the change only adds a comment.
    let dir = repo_with("type-misspelled", false);
    let keys = dir.path().join(KEYS);
    let text = std::fs::read_to_string(&keys).unwrap();
    std::fs::write(&keys, format!("{text}// a harmless comment\n")).unwrap();
    let (code, stdout, stderr) = run(&["check", KEYS, "--format", "concise"], dir.path());
    let finding = "peers/rust/src/keys.rs:10:32: error[WL103]: key type `jobs:` is not in the contract (it knows `job:<id>`, `pending`) (already at HEAD)\n";
    // Shown, and failing nothing: the change did not bring it.
    assert_eq!((code, stdout.as_str()), (0, finding));
    assert_eq!(
        stderr,
        "wirelint: the change introduces 0 of 1 finding; 1 was already at HEAD\n\
         wirelint: 1 error, 0 warnings in 8 files; exit 0: the findings at or above error were already at HEAD (--fail-on-existing fails on them)\n"
    );
    // Asked, it fails the run.
    let (code, stdout, stderr) = run(
        &["check", KEYS, "--format", "concise", "--fail-on-existing"],
        dir.path(),
    );
    assert_eq!((code, stdout.as_str()), (1, finding));
    assert!(
        stderr.ends_with("; exit 1: findings at or above error\n"),
        "{stderr}"
    );
    // The same with --changed-since: the base is named as given.
    let (_, stdout, _) = run(
        &["check", "--changed-since", "main", "--format", "concise"],
        dir.path(),
    );
    assert!(stdout.ends_with(" (already at main)\n"), "{stdout}");
}

#[test]
fn a_finding_the_change_brings_is_not_marked() {
    let dir = repo_with("type-misspelled", true);
    let (code, stdout, stderr) = run(&["check", KEYS, "--format", "concise"], dir.path());
    assert_eq!(code, 1);
    assert!(
        stdout.ends_with("(it knows `job:<id>`, `pending`)\n"),
        "{stdout}"
    );
    assert!(
        stderr.starts_with(
            "wirelint: the change introduces 1 of 1 finding; 0 were already at HEAD\n"
        ),
        "{stderr}"
    );
    // A plain run says nothing of a base.
    let (_, _, stderr) = run(&["check", "."], dir.path());
    assert!(!stderr.contains("the change introduces"), "{stderr}");
}
