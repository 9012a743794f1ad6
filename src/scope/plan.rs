//! The plan of a change-aware run, made once by the command line before
//! anything is read: the root of files passed alone, the changed files
//! and the base, with git's answers (the commit a base revision names, the
//! files changed since it; `HEAD`'s commit asked on a thread of its own).
//! [`super::run`] takes it as it is and asks git nothing more but the
//! base's bytes, when it needs them (`crate::pipeline::git::read_revision`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::pipeline::git;

use super::{git_root, repo_root};

/// The root of a files-only run and the passed files, relative to it.
#[derive(Debug, PartialEq, Eq)]
pub struct FilesOnly {
    pub root: PathBuf,
    pub files: BTreeSet<String>,
    /// Whether `root` is a git repository's (else the current directory).
    pub in_git: bool,
}

/// Files-only mode, when every path is a file: the repository that holds
/// them all. `Ok(None)` when a path is not a file, or (outside git) a file
/// lies outside the current directory's root: the paths are then checked
/// as given. An error when the files lie in different repositories.
pub fn files_only(paths: &[PathBuf]) -> Result<Option<FilesOnly>, String> {
    if paths.is_empty() || !paths.iter().all(|p| p.is_file()) {
        return Ok(None);
    }
    let mut abs = Vec::new();
    let mut roots = BTreeSet::new();
    for p in paths {
        let Ok(a) = std::fs::canonicalize(p) else {
            return Ok(None);
        };
        roots.insert(a.parent().and_then(git_root));
        abs.push(a);
    }
    let mut roots = roots.into_iter();
    let (root, in_git) = match (roots.next(), roots.next()) {
        (Some(Some(r)), None) => (r, true),
        (Some(None), None) => (repo_root(Path::new(".")), false),
        (Some(a), Some(b)) => {
            let shown = |r: Option<PathBuf>| match r {
                Some(r) => format!("the repository {}", r.display()),
                None => "no git repository".to_string(),
            };
            return Err(format!(
                "the files passed lie in {} and {}: pass files of one repository",
                shown(a),
                shown(b)
            ));
        }
        (None, _) => return Ok(None),
    };
    let mut files = BTreeSet::new();
    for a in &abs {
        if a.strip_prefix(&root).is_err() {
            return Ok(None);
        }
        files.insert(crate::source::rel_path(&root, a));
    }
    Ok(Some(FilesOnly {
        root,
        files,
        in_git,
    }))
}

/// Where a change-aware run takes its base from.
#[derive(Debug, Clone)]
pub enum Base {
    /// A git revision (`--changed-since REF`).
    Rev(String),
    /// `HEAD` (files alone, in a repository), if it names a commit: not yet
    /// known when the plan is made ([`HeadCommit`]).
    Head(HeadCommit),
    /// The disk, under an editor's buffer.
    Disk,
    /// None to be had; the note says why.
    Unavailable(String),
}

/// The commit `HEAD` names, asked of git on a thread of its own when the
/// plan is made and read once the head is analysed: the answer is needed
/// only then, and git takes 2 ms to start, a fiftieth of a pre-commit run.
#[derive(Clone)]
pub struct HeadCommit(Arc<Mutex<Asked>>);

enum Asked {
    Asking(std::thread::JoinHandle<Result<String, String>>),
    Known(Result<String, String>),
}

impl HeadCommit {
    fn ask(root: &Path) -> HeadCommit {
        let r = root.to_path_buf();
        let asked = std::thread::Builder::new()
            .name("wirelint-git".into())
            .spawn(move || git::commit_of(&r, "HEAD"))
            .map_or_else(
                |_| Asked::Known(git::commit_of(root, "HEAD")),
                Asked::Asking,
            );
        HeadCommit(Arc::new(Mutex::new(asked)))
    }

    /// The commit, or why there is none (waits for git's answer).
    pub fn commit(&self) -> Result<String, String> {
        let mut asked = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let failed = || Err("cannot run git".to_string());
        let known = match std::mem::replace(&mut *asked, Asked::Known(failed())) {
            Asked::Asking(h) => h.join().unwrap_or_else(|_| failed()),
            Asked::Known(r) => r,
        };
        *asked = Asked::Known(known.clone());
        known
    }
}

impl std::fmt::Debug for HeadCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HeadCommit")
    }
}

/// A change-aware run, with git's answers: the changed files and the base.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The changed files, relative to the root; `Err`: why git could not
    /// list those changed since the base revision (every finding is then
    /// reported, with a note saying so).
    pub files: Result<BTreeSet<String>, String>,
    pub base: Base,
    /// The commit a base revision names, asked of git when the plan is
    /// made (`None` outside a repository, and for `HEAD`, asked on a
    /// thread of its own).
    pub commit: Option<String>,
}

/// What a `check` run compares against: files alone (pre-commit) against
/// `HEAD` (or `--changed-since REF`), `--changed-since REF` alone against
/// REF, an editor's buffer (given with no PATHS) against the disk; `None`:
/// a plain run. Git is asked here, once: the commit REF names (in a
/// repository, a REF that names none is a mistake to say, not a base to do
/// without) and the files changed since it.
pub fn plan(
    only: Option<FilesOnly>,
    changed_since: Option<&String>,
    buffer: Option<String>,
    root: &Path,
) -> Result<Option<Plan>, String> {
    let (files, base) = match (only, changed_since, buffer) {
        (Some(f), rev, _) => (
            Some(f.files),
            match (f.in_git, rev) {
                (false, _) => Base::Unavailable(
                    "not in a git repository: only the findings in the passed files are reported"
                        .into(),
                ),
                (true, Some(r)) => Base::Rev(r.clone()),
                (true, None) => Base::Head(HeadCommit::ask(root)),
            },
        ),
        (None, Some(rev), _) => (None, Base::Rev(rev.clone())),
        (None, None, Some(rel)) => (Some([rel].into()), Base::Disk),
        _ => return Ok(None),
    };
    let commit = match (&base, git_root(root)) {
        (Base::Rev(rev), Some(_)) => Some(git::commit_of(root, rev)?),
        _ => None,
    };
    let files = match (files, &base) {
        (Some(f), _) => Ok(f),
        (None, Base::Rev(rev)) => match git::changed_files(root, rev) {
            Ok(f) => Ok(f.into_iter().collect()),
            Err(e) => Err(format!("cannot list the files changed since {rev} ({e})")),
        },
        (None, _) => Ok(BTreeSet::new()),
    };
    Ok(Some(Plan {
        files,
        base,
        commit,
    }))
}

/// The root of `--stdin-filename PATH` with no PATHS: the git repository
/// that holds PATH, else the current directory's.
pub fn stdin_root(p: &Path) -> PathBuf {
    let dir = std::env::current_dir()
        .map(|d| d.join(p))
        .ok()
        .and_then(|abs| abs.parent().map(Path::to_path_buf));
    dir.and_then(|d| git_root(&d))
        .unwrap_or_else(|| repo_root(Path::new(".")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_two_repositories_are_refused() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        for d in [a.path(), b.path()] {
            std::fs::create_dir(d.join(".git")).unwrap();
            std::fs::write(d.join("x.lua"), "return 1\n").unwrap();
        }
        let err = files_only(&[a.path().join("x.lua"), b.path().join("x.lua")]).unwrap_err();
        assert!(err.ends_with(": pass files of one repository"), "{err}");
        let one = files_only(&[a.path().join("x.lua")]).unwrap().unwrap();
        let root = std::fs::canonicalize(a.path()).unwrap();
        assert_eq!(
            one,
            FilesOnly {
                root,
                files: ["x.lua".to_string()].into(),
                in_git: true
            }
        );
    }
}
