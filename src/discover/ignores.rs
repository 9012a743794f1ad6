//! Ignore files (`.ignore`, `.gitignore`, a git directory's `info/exclude`),
//! read by wirelint itself rather than by the `ignore` crate's walker.
//!
//! The walker would open them with a plain `File::open` and read them whole:
//! a FIFO named `.gitignore` hangs the run, a link to `/dev/zero` eats the
//! memory. Here each is read as any other input (`crate::input`): a regular
//! file, links not followed, at most `--max-file-size` bytes. One that
//! cannot be read so is not applied, and a note says so: a tree can hide
//! files with a `.gitignore` anyway, so refusing one can only show more.
//!
//! Precedence is the walker's: for each kind, the nearest directory's match
//! wins (a `!pattern` there re-includes); `.ignore` beats `.gitignore`,
//! which beats `info/exclude`; the parents of the walked directory count,
//! up to the file system's root.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use crate::input::{read_file, Links, ReadError};

/// One directory's matchers.
#[derive(Default)]
pub(super) struct Level {
    ignore: Option<Gitignore>,
    git: Option<Gitignore>,
    exclude: Option<Gitignore>,
}

impl Level {
    fn is_empty(&self) -> bool {
        self.ignore.is_none() && self.git.is_none() && self.exclude.is_none()
    }
}

/// The matchers of one walk.
pub(super) struct Ignores {
    walk_root: PathBuf,
    /// The walk root's canonical path, against which `parents` match.
    canon_root: Option<PathBuf>,
    /// Directories of the walk, by the path the walker gives them: their
    /// index in `levels`.
    /// (By the path's bytes: hashing a `Path` goes component by component,
    /// for each parent of each entry.)
    dirs: HashMap<std::ffi::OsString, usize>,
    levels: Vec<Level>,
    /// The last directory whose entries were matched, and the `levels`
    /// of it and its parents in the walk, nearest first (the walker lists
    /// a directory's entries together).
    last: Option<(PathBuf, Vec<usize>)>,
    /// The walk root's parents, nearest first.
    parents: Vec<Level>,
    /// Ignore files not applied, and why.
    pub notes: Vec<(PathBuf, String)>,
}

impl Ignores {
    /// The matchers of the walk root and of its parents.
    pub fn new(walk_root: &Path, limit: u64) -> Ignores {
        let mut ig = Ignores {
            walk_root: walk_root.to_path_buf(),
            canon_root: std::fs::canonicalize(walk_root).ok(),
            dirs: HashMap::new(),
            levels: Vec::new(),
            last: None,
            parents: Vec::new(),
            notes: Vec::new(),
        };
        if let Some(canon) = ig.canon_root.clone() {
            for dir in canon.ancestors().skip(1) {
                let level = level(dir, limit, &mut ig.notes);
                if !level.is_empty() {
                    ig.parents.push(level);
                }
            }
        }
        let root = level(walk_root, limit, &mut ig.notes);
        ig.enter(walk_root, root, Vec::new());
        ig
    }

    /// Reads a directory's ignore files, before its entries are matched.
    /// Takes a directory's matchers ([`level`], read without the lock a
    /// parallel walk holds this under), before its entries are matched.
    pub fn enter(&mut self, dir: &Path, level: Level, notes: Vec<(PathBuf, String)>) {
        self.notes.extend(notes);
        if !level.is_empty() {
            self.dirs
                .insert(dir.as_os_str().to_owned(), self.levels.len());
            self.levels.push(level);
            self.last = None;
        }
    }

    /// Makes `last` that of `dir`.
    fn levels_of(&mut self, dir: &Path) {
        let known = matches!(&self.last, Some((d, _)) if d.as_os_str() == dir.as_os_str());
        if !known {
            let mut found = Vec::new();
            for d in dir.ancestors() {
                if let Some(&i) = self.dirs.get(d.as_os_str()) {
                    found.push(i);
                }
                if d == self.walk_root {
                    break;
                }
            }
            self.last = Some((dir.to_path_buf(), found));
        }
    }

    /// Whether the walk skips `path` (a file, or a directory with `is_dir`).
    pub fn skips(&mut self, path: &Path, is_dir: bool) -> bool {
        let mut found: [Option<bool>; 3] = [None; 3];
        let mut take = |level: &Level, p: &Path| {
            let kinds = [&level.ignore, &level.git, &level.exclude];
            for (slot, m) in found.iter_mut().zip(kinds) {
                if slot.is_none() {
                    *slot = m.as_ref().and_then(|g| verdict(g.matched(p, is_dir)));
                }
            }
        };
        if let Some(dir) = path.parent() {
            self.levels_of(dir);
            if let Some((_, list)) = &self.last {
                for &i in list {
                    take(&self.levels[i], path);
                }
            }
        }
        if let (Some(canon), false) = (&self.canon_root, self.parents.is_empty()) {
            let rel = path.strip_prefix(&self.walk_root).unwrap_or(path);
            let abs = canon.join(rel);
            for level in &self.parents {
                take(level, &abs);
            }
        }
        found.into_iter().flatten().next().unwrap_or(false)
    }
}

/// A directory's matchers: its `.ignore`, `.gitignore` and git exclude
/// file (with a note in `notes` for each one not applied).
fn level(dir: &Path, limit: u64, notes: &mut Vec<(PathBuf, String)>) -> Level {
    level_of(dir, &Present::all(), limit, notes)
}

/// Which of the names a directory's matchers come from its entries hold.
#[derive(Default)]
pub(super) struct Present {
    ignore: bool,
    git: bool,
    dotgit: bool,
}

impl Present {
    /// Every name, for a directory whose entries are not listed.
    fn all() -> Present {
        Present {
            ignore: true,
            git: true,
            dotgit: true,
        }
    }

    /// Takes note of one entry's name.
    pub fn see(&mut self, name: &std::ffi::OsStr) {
        match name.as_encoded_bytes() {
            b".ignore" => self.ignore = true,
            b".gitignore" => self.git = true,
            b".git" => self.dotgit = true,
            _ => {}
        }
    }

    pub fn any(&self) -> bool {
        self.ignore || self.git || self.dotgit
    }
}

/// [`level`], reading only the files whose names `present` holds.
pub(super) fn level_of(
    dir: &Path,
    present: &Present,
    limit: u64,
    notes: &mut Vec<(PathBuf, String)>,
) -> Level {
    let mut read = |on: bool, name: &str| {
        on.then(|| matcher(dir, &dir.join(name), Links::Refuse, limit, notes))
            .flatten()
    };
    let ignore = read(present.ignore, ".ignore");
    let git = read(present.git, ".gitignore");
    let exclude = present
        .dotgit
        .then(|| git_exclude(dir))
        .flatten()
        .and_then(|p| matcher(dir, &p, Links::Follow, limit, notes));
    Level {
        ignore,
        git,
        exclude,
    }
}

/// The patterns of `file`, anchored at `dir`; `None` when it does not
/// exist or is not applied (with a note).
fn matcher(
    dir: &Path,
    file: &Path,
    links: Links,
    limit: u64,
    notes: &mut Vec<(PathBuf, String)>,
) -> Option<Gitignore> {
    let mut note = |file: &Path, message: String| notes.push((file.to_path_buf(), message));
    std::fs::symlink_metadata(file).ok()?;
    let bytes = match read_file(file, links, limit) {
        Ok(b) => b,
        Err(ReadError::Io(e)) => {
            note(
                file,
                format!("ignore file not read ({e}); its patterns are not applied"),
            );
            return None;
        }
        Err(e) => {
            note(
                file,
                format!("ignore file not read: {e}; its patterns are not applied"),
            );
            return None;
        }
    };
    let mut builder = GitignoreBuilder::new(dir);
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    for (i, line) in text.lines().enumerate() {
        if builder.add_line(None, line).is_err() {
            // The pattern is not echoed: the file may not be the tree's.
            note(
                file,
                format!(
                    "line {} is not a valid ignore pattern; it is not applied",
                    i + 1
                ),
            );
        }
    }
    match builder.build() {
        Ok(g) if !g.is_empty() => Some(g),
        Ok(_) => None,
        Err(_) => {
            note(
                file,
                "ignore file not applied: its patterns cannot be compiled".into(),
            );
            None
        }
    }
}

/// `Some(true)` for an ignore match, `Some(false)` for a `!` re-include.
fn verdict<T>(m: Match<T>) -> Option<bool> {
    match m {
        Match::None => None,
        Match::Ignore(_) => Some(true),
        Match::Whitelist(_) => Some(false),
    }
}

/// The `info/exclude` of a git directory at `dir`: `dir/.git/info/exclude`,
/// or, when `.git` is a file (a worktree), that of the common directory it
/// names.
fn git_exclude(dir: &Path) -> Option<PathBuf> {
    let dotgit = dir.join(".git");
    let meta = std::fs::symlink_metadata(&dotgit).ok()?;
    if meta.is_dir() {
        return Some(dotgit.join("info/exclude"));
    }
    let first_line = |p: &Path| -> Option<String> {
        let bytes = read_file(p, Links::Refuse, 4096).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        Some(text.lines().next()?.trim().to_string())
    };
    let gitdir = dir.join(first_line(&dotgit)?.strip_prefix("gitdir: ")?);
    let common = first_line(&gitdir.join("commondir"))
        .map(|c| gitdir.join(c))
        .unwrap_or(gitdir);
    Some(common.join("info/exclude"))
}
