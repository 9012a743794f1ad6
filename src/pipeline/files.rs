//! The file source: which files a run reads and where their bytes come from.
//! Everything the pipeline reads goes through [`Files`]:
//!
//! - the disk under the root (discovery, `crate::discover`), or a whole
//!   [`Tree`] held in memory (`wirelint diff` reads a git revision this way,
//!   `super::git`): its file list replaces discovery, its bytes the disk,
//!   and its `mix.exs`/`Cargo.toml` mark projects;
//! - over either, an editor's unsaved [`Buffer`]s (`--stdin-filename PATH`
//!   gives one, `wirelint server` one per modified open document): each
//!   text stands in for its file's bytes, and the file need not exist yet
//!   (it is then added to the files read, unless `wirelint.toml` excludes
//!   it).

use std::path::{Path, PathBuf};

use crate::config::settings::Settings;
use crate::discover::{discover_with, Candidate, Note, ProjectFinder, PROJECT_FILES};
use crate::facts::Lang;
use crate::input::Links;
use crate::source::rel_path;

/// A tree held in memory: paths relative to the root, `/`-separated and
/// sorted, with their bytes.
pub type Tree = Vec<(String, Vec<u8>)>;

/// An editor's unsaved buffer: its path relative to the root, and its text.
pub type Buffer = (String, Vec<u8>);

/// A file's bytes, as the reader gets them.
pub enum Contents<'a> {
    /// The editor's buffer: parsed whatever the prefilter would say.
    Buffer(&'a [u8]),
    /// A file of the tree or of the disk.
    File(Vec<u8>),
}

/// Where one run's files come from.
pub struct Files<'a> {
    root: &'a Path,
    tree: Option<&'a [(String, Vec<u8>)]>,
    /// Sorted by path, one per path.
    buffers: Vec<&'a Buffer>,
    max_bytes: u64,
    /// What discovery learnt of the directories it read: which hold a
    /// project file ([`Files::projects`]).
    finder: std::sync::Mutex<ProjectFinder>,
}

impl<'a> Files<'a> {
    pub fn new(
        root: &'a Path,
        tree: Option<&'a [(String, Vec<u8>)]>,
        buffers: &'a [Buffer],
        max_bytes: u64,
    ) -> Files<'a> {
        // The last buffer given for a path wins.
        let mut by_path: Vec<&'a Buffer> = Vec::with_capacity(buffers.len());
        for b in buffers.iter().rev() {
            if !by_path.iter().any(|o| o.0 == b.0) {
                by_path.push(b);
            }
        }
        by_path.sort_by(|x, y| x.0.cmp(&y.0));
        Files {
            root,
            tree,
            buffers: by_path,
            max_bytes,
            finder: Default::default(),
        }
    }

    /// The buffer standing in for a file, if any.
    fn buffer(&self, rel: &str) -> Option<&'a Buffer> {
        self.buffers
            .binary_search_by(|b| b.0.as_str().cmp(rel))
            .ok()
            .map(|at| self.buffers[at])
    }

    /// The size over which a file is skipped.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Fails on a path given that does not exist (the files of a tree are
    /// chosen by its reader).
    pub fn check_paths(&self, paths: &[PathBuf]) -> Result<(), String> {
        match self.tree {
            Some(_) => Ok(()),
            None => check_paths(paths),
        }
    }

    /// The files to read, sorted by path: those discovered under `paths`,
    /// or the tree's source files; without the excluded ones; with each
    /// buffer's file when it is new.
    ///
    /// `kept`: a long-lived process's last discovery, used again while it
    /// holds (same root, paths and size limit, and not forgotten).
    pub fn candidates(
        &self,
        paths: &[PathBuf],
        settings: &Settings,
        notes: &mut Vec<Note>,
        kept: Option<&Discovered>,
    ) -> Vec<Candidate> {
        let mut finder = ProjectFinder::default();
        let mut candidates = match (self.tree, kept) {
            (Some(tree), _) => tree_candidates(self.root, tree),
            (None, Some(k)) => k.discover(self.root, paths, self.max_bytes, notes, &mut finder),
            (None, None) => discover_with(self.root, paths, self.max_bytes, notes, &mut finder),
        };
        if let Ok(mut f) = self.finder.lock() {
            *f = finder;
        }
        candidates.retain(|c| !settings.excludes(&c.path));
        for (rel, _) in &self.buffers {
            add_buffer(&mut candidates, self.root, rel, settings);
        }
        candidates
    }

    /// Each candidate's project directory, if it has one.
    pub fn projects(&self, candidates: &[Candidate]) -> Vec<Option<PathBuf>> {
        let mut finder = self
            .finder
            .lock()
            .map(|mut f| std::mem::take(&mut *f))
            .unwrap_or_default();
        candidates
            .iter()
            .map(|c| match self.tree {
                Some(tree) => tree_project(self.root, tree, &c.rel),
                None => finder.project_of(self.root, &c.path),
            })
            .collect()
    }

    /// A file's bytes, or why they cannot be had.
    pub fn read(&self, c: &Candidate) -> Result<Contents<'a>, String> {
        if let Some((_, bytes)) = self.buffer(&c.rel) {
            return Ok(Contents::Buffer(bytes));
        }
        if let Some(tree) = self.tree {
            return match tree.binary_search_by(|(r, _)| r.as_str().cmp(&c.rel)) {
                Ok(at) => Ok(Contents::File(tree[at].1.clone())),
                Err(_) => Err("internal error: not in the tree".into()),
            };
        }
        // A regular file only, checked on the opened descriptor, and never
        // more than the limit: the file may have been swapped for a FIFO or
        // a link to a device since discovery (`crate::input`).
        crate::input::read_file(&c.path, Links::Follow, self.max_bytes)
            .map(Contents::File)
            .map_err(|e| e.note())
    }

    /// Whether a file's bytes come from the disk (not from a tree held in
    /// memory or an editor's buffer), so they can be read again later.
    pub fn on_disk(&self, c: &Candidate) -> bool {
        self.tree.is_none() && self.buffer(&c.rel).is_none()
    }

    /// A file's bytes; `None` when they cannot be had.
    pub fn bytes(&self, c: &Candidate) -> Option<Vec<u8>> {
        match self.read(c).ok()? {
            Contents::Buffer(b) => Some(b.to_vec()),
            Contents::File(b) => Some(b),
        }
    }
}

/// What discovery found, kept by a long-lived process (`wirelint server`,
/// `super::session`) until it is told that the file list changed
/// ([`Discovered::forget`]): a walk of the tree per run is what it saves.
/// Files changed in place need no word: each run reads them again (or
/// finds their stamps changed in the facts cache's index).
#[derive(Debug, Default)]
pub struct Discovered(std::sync::Mutex<Option<Found>>);

#[derive(Debug)]
struct Found {
    /// What discovery was asked.
    root: PathBuf,
    paths: Vec<PathBuf>,
    max_bytes: u64,
    /// What it answered.
    candidates: Vec<Candidate>,
    notes: Vec<Note>,
}

impl Discovered {
    /// The next run walks the tree again.
    pub fn forget(&self) {
        if let Ok(mut f) = self.0.lock() {
            *f = None;
        }
    }

    /// Whether the kept discovery lists the file (its path relative to the
    /// root); `None` when nothing is kept.
    pub fn lists(&self, rel: &str) -> Option<bool> {
        let f = self.0.lock().ok()?;
        let found = f.as_ref()?;
        Some(found.candidates.iter().any(|c| c.rel == rel))
    }

    /// Discovery's answer: the kept one when it was asked the same, else
    /// a walk, then kept.
    fn discover(
        &self,
        root: &Path,
        paths: &[PathBuf],
        max_bytes: u64,
        notes: &mut Vec<Note>,
        finder: &mut ProjectFinder,
    ) -> Vec<Candidate> {
        let Ok(mut kept) = self.0.lock() else {
            return discover_with(root, paths, max_bytes, notes, finder);
        };
        if let Some(f) = kept
            .as_ref()
            .filter(|f| f.root == root && f.paths == paths && f.max_bytes == max_bytes)
        {
            // The projects are looked up again: a project file may have
            // come or gone without the file list changing.
            notes.extend(f.notes.iter().cloned());
            return f.candidates.clone();
        }
        let mut found = Vec::new();
        let candidates = discover_with(root, paths, max_bytes, &mut found, finder);
        notes.extend(found.iter().cloned());
        *kept = Some(Found {
            root: root.to_path_buf(),
            paths: paths.to_vec(),
            max_bytes,
            candidates: candidates.clone(),
            notes: found,
        });
        candidates
    }
}

/// Fails on a path that does not exist on disk, or that is neither a
/// regular file nor a directory (`/dev/null`, a FIFO): such a path would
/// otherwise give a clean run over nothing.
pub fn check_paths(paths: &[PathBuf]) -> Result<(), String> {
    for p in paths {
        let shown = crate::source::display_name(p.as_os_str());
        let Ok(meta) = std::fs::symlink_metadata(p) else {
            return Err(format!("path does not exist: {shown}"));
        };
        if meta.is_file() || meta.is_dir() {
            continue;
        }
        // A link names what it points at; a dangling one or a loop is
        // walked (and noted) as before.
        match std::fs::metadata(p) {
            Ok(m) if m.is_file() || m.is_dir() => {}
            Ok(m) => {
                return Err(format!(
                    "{shown} is not a regular file or a directory ({})",
                    crate::input::kind(&m)
                ))
            }
            Err(_) if meta.file_type().is_symlink() => {}
            Err(e) => return Err(format!("cannot read {shown}: {e}")),
        }
    }
    Ok(())
}

/// The buffer's path relative to `root`, for `--stdin-filename PATH`: PATH
/// is relative to the current directory, and its directory (which must
/// exist to be resolved) is canonicalized as the root is.
pub fn buffer_rel(root: &Path, path: &Path) -> String {
    let abs = std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let root_abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let resolved = abs
        .parent()
        .and_then(|d| std::fs::canonicalize(d).ok())
        .map(|d| d.join(abs.file_name().unwrap_or_default()))
        .unwrap_or(abs);
    rel_path(&root_abs, &resolved)
}

/// Adds the buffer's file when discovery did not list it (a new file).
fn add_buffer(cands: &mut Vec<Candidate>, root: &Path, rel: &str, settings: &Settings) {
    if cands.iter().any(|c| c.rel == rel) {
        return;
    }
    let path = root.join(rel);
    let Some(lang) = Lang::from_path(&path) else {
        return;
    };
    if settings.excludes(&path) {
        return;
    }
    let at = cands.partition_point(|c| c.rel.as_str() < rel);
    cands.insert(
        at,
        Candidate {
            path,
            rel: rel.to_string(),
            lang,
        },
    );
}

/// The source files of an in-memory tree (sorted by path by the caller),
/// at their would-be paths under `root`.
fn tree_candidates(root: &Path, tree: &[(String, Vec<u8>)]) -> Vec<Candidate> {
    tree.iter()
        .filter_map(|(rel, _)| {
            let path = root.join(rel);
            Lang::from_path(&path).map(|lang| Candidate {
                path,
                rel: rel.clone(),
                lang,
            })
        })
        .collect()
}

/// The project of a file of an in-memory tree: the nearest enclosing
/// directory whose `mix.exs` or `Cargo.toml` is in the tree.
fn tree_project(root: &Path, tree: &[(String, Vec<u8>)], rel: &str) -> Option<PathBuf> {
    let has = |p: &str| tree.binary_search_by(|(r, _)| r.as_str().cmp(p)).is_ok();
    let is_project = |dir: Option<&str>| {
        PROJECT_FILES.iter().any(|f| match dir {
            Some(dir) => has(&format!("{dir}/{f}")),
            None => has(f),
        })
    };
    let mut dir = rel;
    while let Some(i) = dir.rfind('/') {
        dir = &dir[..i];
        if is_project(Some(dir)) {
            return Some(root.join(dir));
        }
    }
    is_project(None).then(|| root.to_path_buf())
}
