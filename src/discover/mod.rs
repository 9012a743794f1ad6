//! Discovery: which files a run reads, and which speaker each belongs to.
//!
//! Walks the given paths, a directory per job in parallel (honouring
//! `.ignore`, `.gitignore` and `info/exclude` even outside a git checkout,
//! read by [`ignores`]), passes over hidden entries, installed packages
//! and a package's build output or a Go module's vendored dependencies
//! ([`not_source_dir`]), keeps the files of the
//! languages wirelint reads ([`Lang::from_path`]), and never follows
//! symbolic links. A file named
//! on the command line is read even when it is ignored. Nothing is skipped
//! silently: every path passed over for a reason other than "not a source
//! file" or "ignored" becomes a [`Note`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::facts::Lang;
use crate::source::rel_path;

mod ignores;

/// A file to read.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub path: PathBuf,
    /// Relative to the scan root, `/`-separated.
    pub rel: String,
    pub lang: Lang,
}

impl Candidate {
    /// The file name without its extension (a script's name, for `.lua`).
    pub fn stem(&self) -> String {
        self.path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The files that make their directory a project (and a speaker).
pub const PROJECT_FILES: &[&str] = &[
    "mix.exs",
    "Cargo.toml",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "package.json",
    "go.mod",
    "Gemfile",
];

/// Something said about the run that is not a finding: a skipped file, a
/// contract stepping aside.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Note {
    pub path: String,
    pub message: String,
}

/// Lists the source files under `paths`, sorted by relative path. Ignore
/// files are read with at most `limit` bytes (`ignores`).
pub fn discover(
    root: &Path,
    paths: &[PathBuf],
    limit: u64,
    notes: &mut Vec<Note>,
) -> Vec<Candidate> {
    discover_with(root, paths, limit, notes, &mut ProjectFinder::default())
}

/// [`discover`], telling `finder` which of the directories walked hold a
/// project file (their entries were read: no file is looked up again).
pub fn discover_with(
    root: &Path,
    paths: &[PathBuf],
    limit: u64,
    notes: &mut Vec<Note>,
    finder: &mut ProjectFinder,
) -> Vec<Candidate> {
    // Keyed by display path and then the path itself: two names that
    // differ only in bytes that are not UTF-8 stay two files.
    let mut found: BTreeMap<(String, PathBuf), Candidate> = BTreeMap::new();
    let mut walked: Vec<PathBuf> = Vec::new();
    for p in paths {
        let p = &under_root(root, p);
        let meta = match std::fs::symlink_metadata(p) {
            Ok(m) => m,
            Err(e) => {
                notes.push(Note {
                    path: rel_path(root, p),
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        if meta.is_file() || (meta.file_type().is_symlink() && p.is_file()) {
            // Named explicitly: read it even if ignored, if it is source.
            match Lang::from_path(p) {
                Some(lang) => add(&mut found, root, p, lang),
                None => notes.push(Note {
                    path: rel_path(root, p),
                    message: format!(
                        "not a file of a language wirelint reads ({}); skipped",
                        crate::extract::lang::language_list("or")
                    ),
                }),
            }
            continue;
        }
        // A directory already walked, or inside one, adds nothing.
        if walked.iter().any(|w| p.starts_with(w)) {
            continue;
        }
        walked.push(p.clone());
        walk(root, p, limit, &mut found, notes, finder);
    }
    found.into_values().collect()
}

/// A path named on the command line in the root's terms: `sub/..` is the
/// root itself and `./sub/../sub/a.ex` is `sub/a.ex`, so that no file is
/// listed twice under two names. Resolved by the file system (a `..` after
/// a symbolic link is the link target's parent), except the last component
/// when it is a name: a link named on the command line keeps its name.
fn under_root(root: &Path, p: &Path) -> PathBuf {
    let resolved = match p.components().next_back() {
        Some(std::path::Component::Normal(name)) => {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            std::fs::canonicalize(parent.unwrap_or(Path::new("."))).map(|d| d.join(name))
        }
        _ => std::fs::canonicalize(p),
    };
    let (Ok(abs), Ok(canon_root)) = (resolved, std::fs::canonicalize(root)) else {
        return p.to_path_buf();
    };
    match abs.strip_prefix(&canon_root) {
        Ok(rest) if rest.as_os_str().is_empty() => root.to_path_buf(),
        Ok(rest) => root.join(rest),
        Err(_) => abs,
    }
}

fn add(found: &mut BTreeMap<(String, PathBuf), Candidate>, root: &Path, p: &Path, lang: Lang) {
    let rel = rel_path(root, p);
    found.insert(
        (rel.clone(), p.to_path_buf()),
        Candidate {
            path: p.to_path_buf(),
            rel,
            lang,
        },
    );
}

/// Walks a directory (honouring ignore files, never following symbolic
/// links) and adds its source files. The walker reads no file itself:
/// ignore files are read by [`ignores::Ignores`].
fn walk(
    root: &Path,
    dir: &Path,
    limit: u64,
    found: &mut BTreeMap<(String, PathBuf), Candidate>,
    notes: &mut Vec<Note>,
    finder: &mut ProjectFinder,
) {
    let walk = Walk {
        limit,
        ignores: Mutex::new(ignores::Ignores::new(dir, limit)),
        seen: Mutex::new(Vec::new()),
        dirs: Mutex::new(Vec::new()),
    };
    // In parallel (the walk was a third of a warm run over the corpus):
    // what each entry gives is gathered, then taken in path order. Each
    // directory is a job of its own, so the walk's depth is not the stack's.
    rayon::scope(|s| walk.visit(s, dir.to_path_buf(), false));
    for (d, is_project) in walk.dirs.into_inner().unwrap_or_default() {
        finder.cache.insert(d.into_os_string(), is_project);
    }
    let mut seen = walk.seen.into_inner().unwrap_or_default();
    seen.sort_unstable_by(|a, b| a.key().cmp(&b.key()));
    for s in seen {
        match s {
            Seen::Source(p, lang) => add(found, root, &p, lang),
            Seen::Note(p, message) => notes.push(Note {
                path: p.map(|p| rel_path(root, &p)).unwrap_or_default(),
                message,
            }),
        }
    }
    let mut ignored = match walk.ignores.into_inner() {
        Ok(mut ig) => std::mem::take(&mut ig.notes),
        Err(_) => Vec::new(),
    };
    ignored.sort();
    for (p, message) in ignored {
        notes.push(Note {
            path: rel_path(root, &p),
            message,
        });
    }
}

/// One walk of a directory: its ignore files, and what its entries gave.
struct Walk {
    limit: u64,
    ignores: Mutex<ignores::Ignores>,
    seen: Mutex<Vec<Seen>>,
    /// Each directory read, and whether it holds a project file.
    dirs: Mutex<Vec<(PathBuf, bool)>>,
}

impl Walk {
    fn saw(&self, s: Seen) {
        if let Ok(mut all) = self.seen.lock() {
            all.push(s);
        }
    }

    /// Reads `dir`'s entries, then its ignore files (only those its
    /// entries name: a probe for each of the three names in every
    /// directory was a fifth of a warm run over the corpus), then matches
    /// the entries and walks the directories kept, each as a job.
    /// `mix_priv` when `dir` is the `priv` of a Mix project.
    fn visit<'s>(&'s self, s: &rayon::Scope<'s>, dir: PathBuf, mix_priv: bool) {
        let entries = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) => return self.saw(Seen::Note(Some(dir), format!("skipped: {e}"))),
        };
        let mut kept = Vec::new();
        let mut names = ignores::Present::default();
        let mut beside = Beside::default();
        let mut mix_project = false;
        let mut project = false;
        for e in entries {
            let e = match e {
                Ok(e) => e,
                Err(e) => {
                    self.saw(Seen::Note(Some(dir.clone()), format!("skipped: {e}")));
                    continue;
                }
            };
            let name = e.file_name();
            names.see(&name);
            if name == "pyvenv.cfg" {
                let why = "skipped: a Python virtual environment (`pyvenv.cfg`)";
                return self.saw(Seen::Note(Some(dir), why.into()));
            }
            beside.python_project |= PYTHON_PROJECT_FILES.iter().any(|p| name == *p);
            beside.package |= name == "package.json";
            beside.go_module |= name == "go.mod";
            mix_project |= name == "mix.exs";
            if !project && PROJECT_FILES.iter().any(|p| name == *p) {
                // A regular file, or a link to one (as `Path::is_file`).
                project = match e.file_type() {
                    Ok(ft) if ft.is_symlink() => e.path().is_file(),
                    Ok(ft) => ft.is_file(),
                    Err(_) => e.path().is_file(),
                };
            }
            // Hidden entries are passed over (`.git` among them).
            if name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            match e.file_type() {
                Ok(ft) => kept.push((e.path(), ft)),
                Err(err) => self.saw(Seen::Note(Some(e.path()), format!("skipped: {err}"))),
            }
        }
        if let Ok(mut dirs) = self.dirs.lock() {
            dirs.push((dir.clone(), project));
        }
        if names.any() {
            let mut notes = Vec::new();
            let level = ignores::level_of(&dir, &names, self.limit, &mut notes);
            if let Ok(mut ig) = self.ignores.lock() {
                ig.enter(&dir, level, notes);
            }
        }
        // One lock for the directory's entries, not one per entry.
        if let Ok(mut ig) = self.ignores.lock() {
            kept.retain(|(path, ft)| !ig.skips(path, ft.is_dir()));
        }
        beside.mix_priv = mix_priv;
        let mut seen = Vec::new();
        for (path, ft) in kept {
            if ft.is_dir() {
                if let Some(why) = not_source_dir(&path, beside) {
                    seen.push(Seen::Note(Some(path), why.into()));
                    continue;
                }
                let priv_dir = mix_project && path.file_name().is_some_and(|n| n == "priv");
                s.spawn(move |s| self.visit(s, path, priv_dir));
            } else {
                seen.extend(seen_of(path, ft));
            }
        }
        if let Ok(mut all) = self.seen.lock() {
            all.append(&mut seen);
        }
    }
}

/// The project files of a Python package: `build`/`dist` beside one are
/// its build output.
const PYTHON_PROJECT_FILES: &[&str] = &["pyproject.toml", "setup.py", "setup.cfg"];

/// What a directory's entries say of its subdirectories: the project
/// files beside them.
#[derive(Clone, Copy, Default)]
struct Beside {
    python_project: bool,
    package: bool,
    go_module: bool,
    /// The directory is the `priv` of a Mix project (beside its `mix.exs`).
    mix_priv: bool,
}

/// Why a directory holds no source of the project, if it does not:
/// installed packages (`node_modules`, `site-packages`), and a package's
/// build output (`dist`, `build`, `*.egg-info` beside its `package.json`
/// or Python project file; `priv/static` of a Mix project, where its
/// assets are compiled and digested), which copy or compile the source the walk
/// reads elsewhere; a Go module's `vendor` (beside its `go.mod`), which
/// copies the modules it depends on. (A virtual environment, which holds
/// `pyvenv.cfg`, is passed over whole when its directory is read.)
fn not_source_dir(path: &Path, beside: Beside) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    match name {
        "node_modules" => Some("skipped: installed packages (`node_modules`)"),
        "site-packages" => Some("skipped: installed Python packages (`site-packages`)"),
        "vendor" if beside.go_module => {
            Some("skipped: a Go module's vendored dependencies (`vendor`)")
        }
        "build" | "dist" if beside.package => Some("skipped: build output of a package"),
        "build" | "dist" if beside.python_project => {
            Some("skipped: a Python package's build output")
        }
        "static" if beside.mix_priv => {
            Some("skipped: a Mix project's compiled static assets (`priv/static`)")
        }
        _ if beside.python_project && name.ends_with(".egg-info") => {
            Some("skipped: a Python package's build output")
        }
        _ => None,
    }
}

/// Why a file is no source of the project by its name: a minified
/// JavaScript file (`*.min.js`) is built from source, or copied from a
/// package, and no one edits it.
fn not_source_file(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    [".min.js", ".min.mjs", ".min.cjs"]
        .iter()
        .any(|ext| name.ends_with(ext))
        .then_some("skipped: a minified file (`*.min.js`), built from source")
}

/// What one entry of the walk gives: a source file, or a note.
enum Seen {
    Source(PathBuf, Lang),
    Note(Option<PathBuf>, String),
}

impl Seen {
    /// The order they are taken in: by the path's bytes (cheaper to
    /// compare than its components, and as fixed), then message.
    fn key(&self) -> (Option<&[u8]>, &str) {
        fn bytes(p: &Path) -> &[u8] {
            p.as_os_str().as_encoded_bytes()
        }
        match self {
            Seen::Source(p, _) => (Some(bytes(p)), ""),
            Seen::Note(p, m) => (p.as_deref().map(bytes), m),
        }
    }
}

/// What the walk makes of one entry that is not a directory: a source
/// file, a note (a link that may hide source, a source name that is no
/// regular file), or nothing.
fn seen_of(path: PathBuf, ft: std::fs::FileType) -> Option<Seen> {
    if ft.is_symlink() {
        let message = symlink_note(&path)?;
        return Some(Seen::Note(Some(path), message));
    }
    let lang = Lang::from_path(&path)?;
    if let Some(why) = not_source_file(&path) {
        return Some(Seen::Note(Some(path), why.into()));
    }
    if !ft.is_file() {
        // A FIFO, a socket or a device with a source file's name.
        let what = std::fs::symlink_metadata(&path).map(|m| crate::input::kind(&m));
        return Some(Seen::Note(
            Some(path),
            format!(
                "skipped: not a regular file ({})",
                what.unwrap_or("not a regular file")
            ),
        ));
    }
    Some(Seen::Source(path, lang))
}

/// Why a symbolic link is worth a note: when it may hide source (a source
/// file name, a directory, or a target that cannot be resolved: a loop or a
/// dangling link).
fn symlink_note(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Some("symbolic link to a directory not followed".to_string()),
        Ok(_) => Lang::from_path(path).map(|_| "symbolic link not followed".to_string()),
        Err(e) => Some(format!(
            "symbolic link not followed (its target cannot be resolved: {e})"
        )),
    }
}

/// The name of the speaker that owns files outside any project.
pub const SHARED_SCRIPTS: &str = "(shared scripts)";

/// Finds each file's project: the nearest enclosing directory, at or below
/// the root, that holds one of `PROJECT_FILES`.
#[derive(Clone, Debug, Default)]
pub struct ProjectFinder {
    /// Whether a directory holds a project file, by its path's bytes (a
    /// map of `PathBuf`s compared and hashed them component by component,
    /// for every parent of every file).
    cache: std::collections::HashMap<std::ffi::OsString, bool>,
    /// The last file's directory and its answer: files come sorted, a
    /// directory's together, and the answer depends on the directory only.
    last: Option<(PathBuf, Option<PathBuf>)>,
}

impl ProjectFinder {
    /// The project directory of `file`, or `None` when no enclosing directory
    /// up to `root` is a project.
    pub fn project_of(&mut self, root: &Path, file: &Path) -> Option<PathBuf> {
        let parent = file.parent()?;
        if let Some((d, answer)) = &self.last {
            if d.as_os_str() == parent.as_os_str() {
                return answer.clone();
            }
        }
        let answer = self.walk_up(root, parent);
        self.last = Some((parent.to_path_buf(), answer.clone()));
        answer
    }

    fn walk_up(&mut self, root: &Path, parent: &Path) -> Option<PathBuf> {
        let mut dir = Some(parent);
        while let Some(d) = dir {
            let is_project = match self.cache.get(d.as_os_str()) {
                Some(known) => *known,
                None => {
                    let is = PROJECT_FILES.iter().any(|f| d.join(f).is_file());
                    self.cache.insert(d.as_os_str().to_owned(), is);
                    is
                }
            };
            if is_project {
                return Some(d.to_path_buf());
            }
            if d == root || !d.starts_with(root) {
                break;
            }
            dir = d.parent();
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `vendor` beside a `go.mod` copies other modules: passed over with a
    /// note; a `vendor` of no Go module is the project's own.
    /// What discovery finds in a tree of these files, and the notes it
    /// gives (`path: message`).
    fn discovered(files: &[&str]) -> (Vec<String>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in files {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x\n").unwrap();
        }
        let mut notes = Vec::new();
        let found = discover(root, &[root.to_path_buf()], 1 << 20, &mut notes);
        let paths = found.iter().map(|c| c.rel.clone()).collect();
        let said = notes
            .iter()
            .map(|n| format!("{}: {}", n.path, n.message))
            .collect();
        (paths, said)
    }

    #[test]
    fn a_go_modules_vendor_is_not_read() {
        let (paths, said) = discovered(&["m/go.mod", "m/a.go", "m/vendor/x/b.go", "n/vendor/c.go"]);
        assert_eq!(paths, ["m/a.go", "n/vendor/c.go"]);
        assert_eq!(
            said,
            ["m/vendor: skipped: a Go module's vendored dependencies (`vendor`)"]
        );
    }

    /// A Mix project's `priv/static` holds its compiled assets, and a
    /// `*.min.js` is built from source: both passed over with a note. The
    /// rest of `priv` (its scripts) is read, and so is a `static` that is
    /// no Mix project's `priv/static`.
    #[test]
    fn compiled_assets_and_minified_files_are_not_read() {
        let (paths, said) = discovered(&[
            "app/mix.exs",
            "app/priv/scripts/push.lua",
            "app/priv/static/app.js",
            "app/lib/q.ex",
            "app/assets/js/app.js",
            "app/assets/vendor/chart.min.js",
            "site/priv/static/page.js",
            "site/static/page.js",
        ]);
        assert_eq!(
            paths,
            [
                "app/assets/js/app.js",
                "app/lib/q.ex",
                "app/mix.exs",
                "app/priv/scripts/push.lua",
                "site/priv/static/page.js",
                "site/static/page.js",
            ]
        );
        assert_eq!(
            said,
            [
                "app/assets/vendor/chart.min.js: skipped: a minified file (`*.min.js`), built from source",
                "app/priv/static: skipped: a Mix project's compiled static assets (`priv/static`)",
            ]
        );
    }
}
