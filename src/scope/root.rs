//! Where a run starts, and what it reports.
//!
//! The analysis root is the nearest directory at or above the paths given
//! (their common ancestor) that holds `wirelint.toml` or `.git`: the
//! project, as ruff, cargo and git find theirs from any subfolder. The run
//! links the whole root, so that a folder whose scripts live next to it
//! (`elixir/` calling `../src/commands/*.lua`) is checked against them; the
//! paths given only choose what is reported ([`Reported`]). The climb stops
//! below the directories of `GIT_CEILING_DIRECTORIES`, as git's does.

use std::path::{Path, PathBuf};

use crate::facts::{FileId, Span};
use crate::pipeline::Analysis;

/// The directories git does not climb into (`GIT_CEILING_DIRECTORIES`),
/// canonicalized where they exist.
fn ceilings() -> Vec<PathBuf> {
    let Some(v) = std::env::var_os("GIT_CEILING_DIRECTORIES") else {
        return Vec::new();
    };
    std::env::split_paths(&v)
        .filter(|p| p.is_absolute())
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .collect()
}

/// `start` and the directories above it, up to (not into) a ceiling.
fn climb(start: &Path) -> Vec<PathBuf> {
    let ceilings = ceilings();
    let mut out = vec![start.to_path_buf()];
    let mut d = start.parent();
    while let Some(dir) = d {
        if ceilings.iter().any(|c| c == dir) {
            break;
        }
        out.push(dir.to_path_buf());
        d = dir.parent();
    }
    out
}

/// The nearest directory at or above `start` (canonicalized) holding
/// `.git` (a directory, or a file in a worktree).
pub fn git_root(start: &Path) -> Option<PathBuf> {
    let start = std::fs::canonicalize(start).ok()?;
    climb(&start).into_iter().find(|d| d.join(".git").exists())
}

/// The analysis root of a run over `paths` (all existing): the nearest
/// directory at or above their common ancestor that holds `wirelint.toml`
/// or `.git`. `None` when no such directory is above them.
pub fn analysis_root(paths: &[PathBuf]) -> Option<PathBuf> {
    let mut common: Option<PathBuf> = None;
    for p in paths {
        let abs = std::fs::canonicalize(p).ok()?;
        let dir = if abs.is_dir() {
            abs
        } else {
            abs.parent()?.to_path_buf()
        };
        common = Some(match common {
            None => dir,
            Some(c) => c
                .ancestors()
                .find(|a| dir.starts_with(a))
                .unwrap_or(Path::new("/"))
                .to_path_buf(),
        });
    }
    climb(&common?).into_iter().find(|d| {
        std::fs::symlink_metadata(d.join(crate::config::FILE_NAME)).is_ok()
            || d.join(".git").exists()
    })
}

/// A run over `paths` (all existing) from its analysis root: the root,
/// and what to report of it (`None`: everything under the root).
pub fn widen(paths: &[PathBuf]) -> Option<(PathBuf, Option<Reported>)> {
    let root = analysis_root(paths)?;
    let reported = Reported::new(&root, paths);
    Some((root, reported))
}

/// How a run's root stands, for a run that could link few of its script
/// calls: a project's root (`.git` or `wirelint.toml` at or above it), or
/// a folder nothing marks, whose scripts may lie outside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootView {
    Project,
    /// Nothing marks the project's root; with the nearest folder above the
    /// root's own project that holds another speaker's project file (as
    /// shown from the current directory), and that file's name.
    Unmarked(Option<(String, &'static str)>),
}

/// How `root` stands ([`RootView`]). The root's own project is the
/// nearest folder at or above it that holds a project file
/// (`discover::PROJECT_FILES`); a folder above that one holding one is
/// another speaker's, and a run from it reads both.
pub fn view(root: &Path) -> RootView {
    if analysis_root(&[root.to_path_buf()]).is_some() {
        return RootView::Project;
    }
    let Ok(abs) = std::fs::canonicalize(root) else {
        return RootView::Unmarked(None);
    };
    let project_file = |d: &Path| {
        crate::discover::PROJECT_FILES
            .iter()
            .copied()
            .find(|f| d.join(f).is_file())
    };
    let mut dirs = climb(&abs).into_iter();
    let other = dirs
        .by_ref()
        .find(|d| project_file(d).is_some())
        .and_then(|_| dirs.find_map(|d| project_file(&d).map(|f| (d, f))));
    RootView::Unmarked(other.map(|(d, f)| (from_here(&d), f)))
}

/// A directory as the current one reaches it: `..`, `../..`, `a/b`, `.`;
/// else its whole path.
fn from_here(dir: &Path) -> String {
    let here = std::env::current_dir().and_then(std::fs::canonicalize);
    let shown = |p: &Path| crate::source::display_name(p.as_os_str());
    match here {
        Ok(h) if h.starts_with(dir) => {
            match h.strip_prefix(dir).map_or(0, |r| r.components().count()) {
                0 => ".".to_string(),
                n => vec![".."; n].join("/"),
            }
        }
        Ok(h) if dir.starts_with(&h) => shown(dir.strip_prefix(&h).unwrap_or(dir)),
        _ => shown(dir),
    }
}

/// What a run over a root reports: the findings in the paths given,
/// relative to the root. Paths that cover the root report everything
/// (no `Reported`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reported {
    under: Vec<String>,
}

impl Reported {
    /// The paths given, seen from `root` (canonical); `None` when one of
    /// them is the root, or lies outside it.
    pub fn new(root: &Path, paths: &[PathBuf]) -> Option<Reported> {
        let mut under = Vec::new();
        for p in paths {
            let abs = std::fs::canonicalize(p).ok()?;
            if !abs.starts_with(root) || abs == root {
                return None;
            }
            under.push(crate::source::rel_path(root, &abs));
        }
        Some(Reported { under })
    }

    /// Whether a path relative to the root lies in the paths given.
    pub fn holds(&self, rel: &str) -> bool {
        self.under.iter().any(|u| {
            rel.strip_prefix(u.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// By file id: whether each file of `a` lies in the paths given (paths
    /// relative to the root: before [`super::relocate`]).
    pub fn files(&self, a: &Analysis) -> Vec<bool> {
        a.sources.iter().map(|(_, f)| self.holds(&f.rel)).collect()
    }

    /// Keeps the findings that lie in the paths given or in a script a
    /// call there runs, or point into the paths given; and the notes about
    /// the paths (or about the run).
    /// Returns, for each finding before, whether it is kept.
    pub fn retain(&self, a: &mut Analysis) -> Vec<bool> {
        let files = self.files(a);
        let scripts = self.scripts_run(a);
        let at = |s: &Span| files.get(s.file as usize).copied().unwrap_or(false);
        let kept: Vec<bool> = a
            .diagnostics
            .iter()
            .map(|d| {
                at(&d.primary.span)
                    || scripts.binary_search(&d.primary.span.file).is_ok()
                    || d.related.iter().any(|l| at(&l.span))
            })
            .collect();
        let mut it = kept.iter();
        a.diagnostics.retain(|_| *it.next().unwrap_or(&true));
        a.notes.retain(|n| n.path == "." || self.holds(&n.path));
        kept
    }

    /// The files of the scripts that a call in the paths given runs:
    /// a change to one of them concerns the paths.
    pub fn scripts_run(&self, a: &Analysis) -> Vec<FileId> {
        let files = self.files(a);
        let at = |s: &Span| files.get(s.file as usize).copied().unwrap_or(false);
        let mut out: Vec<FileId> = a
            .model
            .script_calls
            .iter()
            .filter(|c| at(&c.span) || c.site.as_ref().is_some_and(at))
            .map(|c| a.model.scripts[c.script].def_span.file)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Which changes of a `diff` concern the paths given: those located in
/// them (on either side), and those in a script a call there runs.
pub struct ChangeFilter {
    base: (Vec<bool>, Vec<FileId>),
    head: (Vec<bool>, Vec<FileId>),
}

impl ChangeFilter {
    /// Computed on the two sides before their paths are relocated.
    pub fn new(r: &Reported, base: &Analysis, head: &Analysis) -> ChangeFilter {
        ChangeFilter {
            base: (r.files(base), r.scripts_run(base)),
            head: (r.files(head), r.scripts_run(head)),
        }
    }

    /// Whether a change with these spans (base side, head side) is
    /// reported.
    pub fn keeps(&self, base: Option<&Span>, head: Option<&Span>) -> bool {
        let at = |(files, scripts): &(Vec<bool>, Vec<FileId>), s: Option<&Span>| {
            s.is_some_and(|s| {
                files.get(s.file as usize).copied().unwrap_or(false)
                    || scripts.binary_search(&s.file).is_ok()
            })
        };
        at(&self.base, base) || at(&self.head, head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_paths_are_whole_components() {
        let r = Reported {
            under: vec!["elixir".into(), "src/x.lua".into()],
        };
        assert!(r.holds("elixir/lib/a.ex"));
        assert!(r.holds("src/x.lua"));
        assert!(!r.holds("elixir2/a.ex"));
        assert!(!r.holds("src/y.lua"));
    }
}
