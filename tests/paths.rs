//! Reported paths resolve: SARIF, GitHub and GitLab paths are relative to
//! the git repository's root whatever directory is scanned; every other
//! format's paths are relative to the current directory (docs/ci.md,
//! *Paths*).

mod common;

use common::{git, run, sarif_first_location, variant};

/// `type-misspelled` (WL103 in `peers/rust/src/keys.rs`, line 10) as the
/// git repository `repo` inside a folder that is not one.
fn parent_with_repo() -> tempfile::TempDir {
    let parent = tempfile::tempdir().unwrap();
    let repo = parent.path().join("repo");
    common::copy_tree(variant("type-misspelled").path(), &repo);
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    parent
}

fn github_files(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split("file=").nth(1))
        .filter_map(|l| l.split(",endLine").next())
        .map(String::from)
        .collect()
}

#[test]
fn annotations_and_sarif_point_at_files_of_the_repository() {
    let parent = parent_with_repo();
    let repo = parent.path().join("repo");
    let want = vec!["peers/rust/src/keys.rs,line=10".to_string()];
    for (cwd, path) in [
        (repo.clone(), "peers"),
        (repo.join("peers"), "rust"),
        (repo.join("peers/rust"), "."),
        (parent.path().to_path_buf(), "repo/peers"),
    ] {
        let (code, stdout, _) = run(&["check", path, "--format", "github"], &cwd);
        assert_eq!((code, github_files(&stdout)), (1, want.clone()), "{path}");
        // The speaker is named as its paths are shown.
        assert!(
            stdout.contains("(it knows `job:<id>`, `pending`) [peers/rust]%0A"),
            "{path}: {stdout}"
        );
        let (_, stdout, _) = run(&["check", path, "--format", "sarif"], &cwd);
        assert_eq!(
            sarif_first_location(&stdout),
            (
                Some("peers/rust/src/keys.rs".into()),
                Some("%SRCROOT%".into()),
                Some(10)
            ),
            "{path}"
        );
        let (_, stdout, _) = run(&["check", path, "--format", "gitlab"], &cwd);
        let gitlab: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            gitlab[0]["location"]["path"].as_str(),
            Some("peers/rust/src/keys.rs"),
            "{path}"
        );
    }
}

#[test]
fn other_formats_print_paths_as_typed() {
    let parent = parent_with_repo();
    let repo = parent.path().join("repo");
    for (cwd, path, shown) in [
        (repo.clone(), ".", "peers/rust/src/keys.rs"),
        (repo.clone(), "peers", "peers/rust/src/keys.rs"),
        (repo.join("peers"), "rust", "rust/src/keys.rs"),
        (repo.join("peers/rust"), ".", "src/keys.rs"),
        (
            parent.path().to_path_buf(),
            "repo/peers",
            "repo/peers/rust/src/keys.rs",
        ),
    ] {
        let (code, stdout, _) = run(&["check", path, "--format", "concise"], &cwd);
        let (_, json, _) = run(&["check", path, "--format", "json"], &cwd);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        // Speakers are named as paths are at or above the repository, and
        // from its root below it (never `..`, nor `(root)` for a port).
        let speaker = match cwd.starts_with(repo.join("peers")) {
            true => "peers/rust",
            false => shown.strip_suffix("/src/keys.rs").unwrap_or(shown),
        };
        assert_eq!(
            doc["diagnostics"][0]["speaker"].as_str(),
            Some(speaker),
            "{path}"
        );
        let at: Vec<&str> = stdout
            .lines()
            .filter_map(|l| l.split(": ").next())
            .collect();
        assert_eq!(
            (code, at),
            (1, vec![format!("{shown}:10:32").as_str()]),
            "{path}"
        );
    }
}

/// `diff --format github` from a subdirectory annotates files of the
/// repository; its other formats print paths as typed.
#[test]
fn diff_paths_resolve_too() {
    let parent = parent_with_repo();
    let repo = parent.path().join("repo");
    let keys = repo.join("peers/rust/src/keys.rs");
    let text = std::fs::read_to_string(&keys).unwrap();
    std::fs::write(&keys, text.replace("jobs:", "task:")).unwrap();
    let peers = repo.join("peers");
    let (code, stdout, stderr) = run(
        &["diff", "--against", "HEAD", "rust", "--format", "github"],
        &peers,
    );
    assert_eq!(
        (code, github_files(&stdout)),
        (1, vec!["peers/rust/src/keys.rs,line=10".to_string()]),
        "{stderr}"
    );
    let (_, stdout, _) = run(
        &["diff", "--against", "HEAD", "rust", "--format", "concise"],
        &peers,
    );
    let at: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split(": ").next())
        .collect();
    assert_eq!(at, ["rust/src/keys.rs:10:32"], "{stdout}");
}
