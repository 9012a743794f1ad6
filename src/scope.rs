//! What a run reports on. When every path on the command line is a file
//! (as pre-commit passes them), the analysis still needs the whole
//! repository for facts: the run reads the repository root (the nearest
//! directory above the current one that holds `.git`, else the current
//! directory) and reports only the findings located in the passed files.
//! Files excluded by `wirelint.toml` are never read, passed or not.
//!
//! A passed `.toml` file (the contract, `wirelint.toml`) can change what
//! every file means, so a run passed one reports every finding.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository root: the nearest directory at or above `start` holding
/// `.git` (a directory, or a file in a worktree), else `start`.
pub fn repo_root(start: &Path) -> PathBuf {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let mut d = Some(start.as_path());
    while let Some(dir) = d {
        if dir.join(".git").exists() {
            return dir.to_path_buf();
        }
        d = dir.parent();
    }
    start
}

/// Files-only mode: the root to read and the passed files, relative to it.
/// `None` when a path is a directory, or a file lies outside the root.
/// The set is `None` when every finding is to be reported.
pub fn files_only(paths: &[PathBuf]) -> Option<(PathBuf, Option<BTreeSet<String>>)> {
    if paths.is_empty() || !paths.iter().all(|p| p.is_file()) {
        return None;
    }
    let root = repo_root(Path::new("."));
    let mut rels = BTreeSet::new();
    let any_toml = paths
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "toml"));
    for p in paths {
        let abs = std::fs::canonicalize(p).ok()?;
        abs.strip_prefix(&root).ok()?;
        rels.insert(crate::source::rel_path(&root, &abs));
    }
    Some((root, if any_toml { None } else { Some(rels) }))
}
