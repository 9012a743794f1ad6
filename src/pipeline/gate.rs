//! Which files the prefilter marks `scoped` the selection parses
//! (`super::select`). Such a file's client facts count only when a module
//! it imports names from has a client library in scope
//! (`crate::link::scope`): one of the modules that reach a client among
//! the files parsed so far (the reach the link step computes). A file can
//! import from such a module only by naming it:
//!
//! - from below it: `use super::*` climbs to an enclosing module, so the
//!   file sits under the module's directory (`src/sinks/redis/` for
//!   `src/sinks/redis/mod.rs` or `src/sinks/redis.rs`);
//! - by its path: the path spells the module's name (`config`) and either
//!   climbs (`super::config`) from under the directory of the module's
//!   parent, or spells the parent's name too (`redis::config`, from
//!   `crate::` when the parent is the crate's root).
//!
//! That holds for a glob import and for a named one alike: a name the
//! module imports from the client library (`use super::Commands`) is
//! imported from the module, by the same path.
//!
//! A file that does none of these is left unparsed: parsing it would give
//! facts the link step drops. Each round of the selection computes the
//! reach again over the files parsed by then, so a module that reaches
//! only through another one is found once that one is parsed. What it
//! assumes: modules sit where Rust's layout puts them (a `#[path]`
//! attribute that moves a module elsewhere is not followed), and a module's
//! name is ASCII (a name beyond it admits every file).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::discover::Candidate;
use crate::link::{normalize_path, SpeakerId};

/// How a speaker's files can draw on its modules that reach a client.
#[derive(Debug, Default)]
pub(crate) struct Gate {
    /// The directories of those modules: a file below one is in it.
    below: Vec<PathBuf>,
    /// Each module's name, its parent's directory and its parent's name
    /// (`crate` for the crate's root).
    modules: Vec<(String, PathBuf, String)>,
    /// A module's name no identifier of [`Gate::admits`] can hold.
    wide: bool,
}

impl Gate {
    /// The words [`Gate::admits`] asks about.
    pub(crate) fn words(&self) -> impl Iterator<Item = &str> {
        self.modules
            .iter()
            .flat_map(|(m, _, p)| [m.as_str(), p.as_str()])
    }

    /// Whether the file at `rel` (relative to the tree's root), whose
    /// identifiers `has` answers for, can import from a module that reaches
    /// a client.
    pub(crate) fn admits(&self, rel: &Path, has: impl Fn(&str) -> bool) -> bool {
        self.wide
            || self.below.iter().any(|d| rel.starts_with(d))
            || self
                .modules
                .iter()
                .any(|(m, pdir, pname)| has(m) && (rel.starts_with(pdir) || has(pname)))
    }
}

/// Per speaker: the gate of its modules that reach a client among the
/// parsed files (`parsed`: index, scope), or `None` when none does.
pub(crate) fn gates(
    candidates: &[Candidate],
    file_speaker: &[Option<SpeakerId>],
    n_speakers: usize,
    parsed: &[(usize, &crate::facts::ModuleScope)],
) -> Vec<Option<Gate>> {
    let mut out: Vec<Option<Gate>> = (0..n_speakers).map(|_| None).collect();
    if parsed.is_empty() {
        return out;
    }
    let paths: Vec<PathBuf> = parsed
        .iter()
        .map(|&(i, _)| normalize_path(Path::new(&candidates[i].rel)))
        .collect();
    let reach = crate::link::scope::reach(&paths, parsed.iter().map(|(_, s)| *s).collect());
    if !reach.iter().any(|r| *r) {
        return out;
    }
    // The directories of crates' roots (`lib.rs`, `main.rs`).
    let roots: HashSet<PathBuf> = candidates
        .iter()
        .map(|c| Path::new(&c.rel))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n == "lib.rs" || n == "main.rs")
        })
        .filter_map(|p| p.parent().map(normalize_path))
        .collect();
    let mut dirs_seen: HashMap<SpeakerId, HashSet<PathBuf>> = HashMap::new();
    for (k, &(i, _)) in parsed.iter().enumerate() {
        let Some(sp) = file_speaker[i].filter(|&sp| reach[k] && sp < n_speakers) else {
            continue;
        };
        let gate = out[sp].get_or_insert_with(Gate::default);
        let module = Module::of(&paths[k], &roots);
        if dirs_seen.entry(sp).or_default().insert(module.dir.clone()) {
            gate.below.push(module.dir);
        }
        if let Some((name, pdir, pname)) = module.named {
            gate.wide |= !name.is_ascii() || !pname.is_ascii();
            gate.modules.push((name, pdir, pname));
        }
    }
    out
}

/// Where a module file sits in Rust's layout.
struct Module {
    /// The directory of its child modules' files.
    dir: PathBuf,
    /// Its name, its parent's directory and its parent's name; `None` for
    /// a crate's root.
    named: Option<(String, PathBuf, String)>,
}

impl Module {
    fn of(path: &Path, roots: &HashSet<PathBuf>) -> Module {
        let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name_of = |dir: &Path| match roots.contains(dir) {
            true => "crate".to_string(),
            false => dir
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        match stem.as_str() {
            "lib" | "main" => Module {
                dir: parent,
                named: None,
            },
            "mod" => {
                let name = parent
                    .file_name()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let pdir = parent.parent().unwrap_or(Path::new("")).to_path_buf();
                let pname = name_of(&pdir);
                Module {
                    dir: parent,
                    named: Some((name, pdir, pname)),
                }
            }
            _ => Module {
                dir: parent.join(&stem),
                named: Some((stem, parent.clone(), name_of(&parent))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate_of(paths: &[&str], roots: &[&str]) -> Gate {
        let roots: HashSet<PathBuf> = roots.iter().map(PathBuf::from).collect();
        let mut g = Gate::default();
        for p in paths {
            let m = Module::of(Path::new(p), &roots);
            g.below.push(m.dir);
            g.modules.extend(m.named);
        }
        g
    }

    fn admits(g: &Gate, rel: &str, text: &str) -> bool {
        let vocabulary = g.words().map(str::to_string).collect();
        let words = crate::pipeline::names::words_in(text.as_bytes(), &vocabulary);
        g.admits(Path::new(rel), |w| words.contains(w))
    }

    #[test]
    fn a_file_reaches_the_modules_it_can_name() {
        let g = gate_of(
            &["src/sinks/redis/mod.rs", "src/sinks/redis/config.rs"],
            &["src"],
        );
        // Below the module: `use super::*`.
        assert!(admits(&g, "src/sinks/redis/sink.rs", "use super::*;"));
        assert!(admits(&g, "src/sinks/redis/config/tls.rs", "use super::*;"));
        // By path, with the parent's name or from under its directory.
        assert!(admits(&g, "src/api/x.rs", "use crate::sinks::redis::*;"));
        assert!(admits(&g, "src/sinks/http.rs", "use super::redis::Client;"));
        // A name the module imports from the client library, by its path
        // only.
        assert!(admits(&g, "src/jobs.rs", "use crate::sinks::redis::Conn;"));
        assert!(!admits(&g, "src/jobs.rs", "use crate::net::Conn;"));
        // Neither: a word that is a module's name alone, elsewhere.
        assert!(!admits(
            &g,
            "src/sources/file.rs",
            "use crate::config::*; x.get(1)"
        ));
        assert!(!admits(&g, "src/api/y.rs", "use super::sink::*; // redis"));
    }

    #[test]
    fn a_module_at_the_crate_root_is_named_from_crate() {
        let g = gate_of(&["src/store.rs"], &["src"]);
        assert!(admits(&g, "src/api/x.rs", "use crate::store::*;"));
        assert!(admits(&g, "src/api.rs", "use super::store::Pool;"));
        assert!(!admits(&g, "tools/x.rs", "use super::store::Pool;"));
        let root = gate_of(&["src/lib.rs"], &["src"]);
        assert!(admits(&root, "src/deep/x.rs", "use crate::*;"));
        assert!(!admits(&root, "benches/x.rs", "use crate::*;"));
    }
}
