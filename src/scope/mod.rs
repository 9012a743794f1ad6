//! What a run reports on. A change-aware run (files passed, as pre-commit
//! passes them; `check --changed-since REF`; an editor's buffer with
//! `--stdin-filename` and no PATHS) reads the whole repository, computes the
//! findings at a *base* as well, and reports:
//!
//! - every finding located in a changed file, and
//! - every finding the change introduces, wherever it lands: its key
//!   ([`crate::post::baseline::Key`]: code, path, normalized fact and message, no
//!   line) is not among the base's findings.
//!
//! The base is `HEAD` for files passed alone (pre-commit stashes what is
//! not staged, so the work tree is what is committed), `REF` for
//! `--changed-since REF` (both read from git's objects, never checked out:
//! [`crate::pipeline::git::read_revision`]), and the disk for an editor's
//! buffer. A changed `wirelint.toml` or contract file can change what every
//! file means: the run then reports every finding. Outside a git repository
//! (or when git fails) a files-only run reports the findings in the passed
//! files, and `--changed-since` every finding, each with a note saying so.
//!
//! The base is needed only when a finding lies outside the changed files
//! (or a file there may hold a suppression); it is then analysed after the
//! head, and a git commit's findings are kept in the facts cache, named by
//! the commit, the options and the bytes of `wirelint.toml` and the
//! contract, so the next run on the same `HEAD` does not analyse it again.
//!
//! Files passed alone: the root is the git repository that holds them (all
//! must lie in one), else the current directory's. Files excluded by
//! `wirelint.toml` are never read, passed or not.
//!
//! The command line makes the plan ([`plan()`]: the changed files, the
//! base, git's answers) before anything is read, and `wirelint.toml` is
//! the one its options found; [`run`] takes both as they are.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::discover::Note;
use crate::pipeline::{analyze, Analysis, AnalyzeError, ContractChoice, Options};
use crate::post::baseline::{keys_with_occurrence, Key};

pub mod plan;
pub mod root;

pub use plan::{files_only, plan, stdin_root, Base, FilesOnly, HeadCommit, Plan};

/// The repository root: the nearest directory at or above `start` holding
/// `.git` (a directory, or a file in a worktree), else `start`.
pub fn repo_root(start: &Path) -> PathBuf {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    git_root(&start).unwrap_or(start)
}

pub use root::git_root;

/// What step 3 of [`crate::pipeline::post`] keeps.
#[derive(Debug, Default)]
pub struct Scope {
    /// Every finding located in these files (relative to the root).
    pub files: BTreeSet<String>,
    /// The base's findings by key, with how many times each occurs: a
    /// finding beyond them is new, and reported wherever it lands. `None`:
    /// no base, only the findings in `files`.
    pub base: Option<BTreeMap<Key, usize>>,
    /// Where the base is, as a finding it holds is marked: `at HEAD`,
    /// `at origin/main`; empty: not marked (an editor's buffer).
    pub base_name: String,
}

impl Scope {
    /// Keeps the findings in the changed files and the new ones; says of
    /// each finding kept whether the base holds it already.
    pub fn retain(&self, a: &mut Analysis) -> Vec<bool> {
        let all: Vec<_> = a.diagnostics.iter().collect();
        let keys = keys_with_occurrence(&a.sources, &all);
        let at_base: Vec<bool> = keys
            .iter()
            .map(|(k, n)| {
                self.base
                    .as_ref()
                    .is_some_and(|b| *n < b.get(k).copied().unwrap_or(0))
            })
            .collect();
        let keep: Vec<bool> = keys
            .iter()
            .zip(&at_base)
            .map(|((k, _), old)| self.files.contains(&k.path) || (self.base.is_some() && !old))
            .collect();
        let mut it = keep.iter();
        a.diagnostics.retain(|_| *it.next().unwrap_or(&true));
        keep.iter()
            .zip(at_base)
            .filter(|(k, _)| **k)
            .map(|(_, old)| old)
            .collect()
    }
}

/// Marks the findings the base already holds (`old`, one flag per
/// finding): `(already at HEAD)` after the message. Done last, after the
/// baseline is read or written, as the message is part of a finding's key.
pub fn mark_old(a: &mut Analysis, old: &[bool], base_name: &str) {
    for (d, old) in a.diagnostics.iter_mut().zip(old) {
        if *old {
            d.message.push_str(&format!(" (already {base_name})"));
        }
    }
}

/// In a change-aware run, a new finding outside the changed files whose
/// speaker changed nothing was made by the change: its help says so,
/// instead of blaming that speaker alone ("`elixir` alone diverges" when
/// only a Lua script changed). `old` has one flag per finding, as
/// [`mark_old`]'s; `files` are the changed files, relative to the root.
pub fn blame_change(a: &mut Analysis, old: &[bool], files: &BTreeSet<String>) {
    let changed: Vec<(&str, Option<crate::link::SpeakerId>)> = a
        .sources
        .iter()
        .filter(|(_, src)| files.contains(&src.rel))
        .map(|(id, src)| {
            let sp = a.model.file_speaker.get(id as usize).copied().flatten();
            (src.rel.as_str(), sp)
        })
        .collect();
    if changed.is_empty() {
        return;
    }
    let moved: BTreeSet<&str> = changed
        .iter()
        .filter_map(|(_, sp)| Some(a.model.speakers.get((*sp)?)?.name.as_str()))
        .collect();
    let mut shown: Vec<String> = changed
        .iter()
        .take(2)
        .map(|(p, _)| format!("`{p}`"))
        .collect();
    if changed.len() > 2 {
        shown.push(format!("{} more files", changed.len() - 2));
    }
    let what = shown.join(", ");
    for (d, old) in a.diagnostics.iter_mut().zip(old) {
        let path = &a.sources.get(d.primary.span.file).rel;
        let Some(speaker) = d.speaker.as_deref() else {
            continue;
        };
        if *old || files.contains(path) || moved.contains(speaker) {
            continue;
        }
        if let Some(help) = &mut d.help {
            if let Some(text) = change_sentence(help, speaker, &what) {
                *help = text;
            }
        }
    }
}

/// A help line whose closing sentence blames `speaker` alone ("2 of 3
/// speakers still agree on the script's KEYS; `elixir` alone diverges"),
/// closed instead by the change that diverges.
fn change_sentence(help: &str, speaker: &str, what: &str) -> Option<String> {
    // Or closed by no other speaker counted as agreeing: the one that
    // did not change still agreed with the script before the change.
    if let Some((head, subject)) = help
        .rsplit_once(". No other speaker here holds ")
        .and_then(|(head, tail)| Some((head, tail.split_once(" counted as agreeing on ")?.1)))
    {
        return Some(format!(
            "{head}. `{speaker}` did not change: the change to {what} is what now diverges from it on {subject}"
        ));
    }
    let rest = help.strip_suffix(&format!("; `{speaker}` alone diverges"))?;
    let at = rest.rfind(" speakers still agree")?;
    let start = rest[..at].rfind(". ").map_or(0, |i| i + 2);
    let subject = rest[at..].split_once(" on ")?.1;
    Some(format!(
        "{}`{speaker}` did not change: the change to {what} is what now diverges from it on {subject}",
        &help[..start]
    ))
}

/// Runs a change-aware check: the head's analysis (settings and
/// suppressions not yet applied) and what to report of it (`None`: every
/// finding).
pub fn run(opts: &Options, plan: &Plan) -> Result<(Analysis, Option<Scope>), AnalyzeError> {
    let mut notes = Vec::new();
    let files = match &plan.files {
        Ok(f) => f.clone(),
        Err(why) => {
            let mut a = analyze(opts)?;
            a.notes
                .push(note(format!("{why}: every finding is reported")));
            return Ok((a, None));
        }
    };
    if touches_contract(opts, &files) {
        return Ok((analyze(opts)?, None));
    }
    let mut head = analyze(opts)?;
    let (base, commit) = match &plan.base {
        Base::Head(h) => match h.commit() {
            Ok(c) => (Base::Rev("HEAD".into()), Some(c)),
            Err(_) => (
                Base::Unavailable(
                    "no commit yet: only the findings in the passed files are reported".into(),
                ),
                None,
            ),
        },
        b => (b.clone(), plan.commit.clone()),
    };
    let base = match &base {
        Base::Unavailable(why) => {
            notes.push(note(why.clone()));
            None
        }
        // No finding, and no file but the changed ones can hold an unused
        // suppression: whatever the base, all are reported, and none is
        // old. (A finding, even in a changed file, is marked when the base
        // holds it: the base is read then.)
        _ if head.diagnostics.is_empty() && all_in(&head, &files) => Some(BTreeMap::new()),
        base => match base_keys(opts, base, commit.as_deref()) {
            Some(Ok(keys)) => Some(keys),
            Some(Err(why)) => {
                notes.push(note(format!(
                    "{why}: only the findings in the changed files are reported"
                )));
                None
            }
            None => None,
        },
    };
    head.notes.extend(notes);
    head.notes.sort();
    head.notes.dedup();
    let base_name = match &plan.base {
        Base::Rev(r) => format!("at {r}"),
        Base::Head(_) => "at HEAD".into(),
        // An editor's buffer: its findings are not marked.
        Base::Disk | Base::Unavailable(_) => String::new(),
    };
    Ok((
        head,
        Some(Scope {
            files,
            base,
            base_name,
        }),
    ))
}

/// Whether every finding of `a`, and every file that may hold a
/// suppression, lies in `files`.
fn all_in(a: &Analysis, files: &BTreeSet<String>) -> bool {
    let file = |id| files.contains(&a.sources.get(id).rel);
    a.diagnostics.iter().all(|d| file(d.primary.span.file))
        && a.sources.iter().all(|(id, f)| !f.may_suppress || file(id))
}

fn note(message: String) -> Note {
    Note {
        path: ".".into(),
        message,
    }
}

/// The findings at the base, as the head's are reported: settings and
/// inline suppressions applied. `None` when there is no base to read.
fn base_keys(
    opts: &Options,
    base: &Base,
    commit: Option<&str>,
) -> Option<Result<BTreeMap<Key, usize>, String>> {
    let base_opts = match base {
        Base::Unavailable(_) | Base::Head(_) => return None,
        Base::Disk => Options {
            buffers: Vec::new(),
            ..opts.clone()
        },
        Base::Rev(rev) => {
            let stored = stored_base(opts, commit);
            if let Some(keys) = stored.as_ref().and_then(|(_, k)| k.clone()) {
                return Some(Ok(keys));
            }
            let keys = rev_keys(opts, rev);
            if let (Ok(k), Some((parts, _)), Some(dir)) = (&keys, &stored, &opts.cache_dir) {
                let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
                let list: Vec<(&Key, &usize)> = k.iter().collect();
                if let Ok(bytes) = serde_json::to_vec(&list) {
                    crate::pipeline::cache::store_value(dir, &parts, &bytes);
                }
            }
            return Some(keys);
        }
    };
    Some(keys_of(&base_opts, opts))
}

/// The base's findings at revision `rev`, read from git.
fn rev_keys(opts: &Options, rev: &str) -> Result<BTreeMap<Key, usize>, String> {
    let read =
        crate::pipeline::git::read_revision(&opts.root, &opts.paths, rev, opts.max_file_bytes)
            .map_err(|e| format!("cannot read the base {rev} ({e})"))?;
    let base_opts = Options {
        tree: Some(read.tree),
        buffers: Vec::new(),
        ..opts.clone()
    };
    keys_of(&base_opts, opts)
}

/// What names a commit's findings in the facts cache: the commit and all
/// else the run reads besides it (the options, `wirelint.toml` and the
/// contract's bytes; the build is in the cache's path), and the findings
/// if they are stored.
type Stored = (Vec<Vec<u8>>, Option<BTreeMap<Key, usize>>);

fn stored_base(opts: &Options, commit: Option<&str>) -> Option<Stored> {
    let dir = opts.cache_dir.as_ref()?;
    let commit = commit?.to_string();
    let root = std::fs::canonicalize(&opts.root).ok()?;
    let mut parts = vec![
        b"base findings v1".to_vec(),
        commit.into_bytes(),
        root.to_string_lossy().into_owned().into_bytes(),
        format!(
            "{:?} {:?} {:?} {} {} {:?}",
            opts.paths,
            opts.contract,
            opts.settings,
            opts.max_file_bytes,
            opts.prefilter,
            opts.speaker_prefix
        )
        .into_bytes(),
    ];
    let config = opts.config.as_ref().ok()?;
    parts.push(
        config
            .as_ref()
            .map(|c| c.text.clone().into_bytes())
            .unwrap_or_default(),
    );
    if let Some(p) = contract_path(opts) {
        parts.push(
            crate::input::read_text(&p, opts.max_file_bytes)
                .ok()?
                .into_bytes(),
        );
    }
    let slices: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let keys = crate::pipeline::cache::load_value(dir, &slices)
        .and_then(|b| serde_json::from_slice::<Vec<(Key, usize)>>(&b).ok())
        .map(|l| l.into_iter().collect());
    Some((parts, keys))
}

/// Analyses a base and keys its findings as the head's are reported.
fn keys_of(base_opts: &Options, opts: &Options) -> Result<BTreeMap<Key, usize>, String> {
    let mut a = match analyze(base_opts) {
        Ok(a) => a,
        Err(_) => return Err("cannot analyse the base".into()),
    };
    opts.settings.apply(&mut a.diagnostics);
    crate::post::suppress::apply(&mut a, &opts.settings);
    let mut counts = BTreeMap::new();
    let all: Vec<_> = a.diagnostics.iter().collect();
    for (k, _) in keys_with_occurrence(&a.sources, &all) {
        *counts.entry(k).or_insert(0) += 1;
    }
    Ok(counts)
}

/// The contract file the run reads, if any.
fn contract_path(opts: &Options) -> Option<PathBuf> {
    match &opts.contract {
        ContractChoice::File(p) => Some(p.clone()),
        ContractChoice::Default => opts
            .config
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .and_then(|c| c.contract_path().ok().flatten().map(Path::to_path_buf)),
        ContractChoice::Shipped(_) | ContractChoice::Drafted { .. } | ContractChoice::None => None,
    }
}

/// Whether a changed file is `wirelint.toml` or the contract in use: what
/// every file means may have changed.
fn touches_contract(opts: &Options, files: &BTreeSet<String>) -> bool {
    let contract = contract_path(opts).and_then(|p| std::fs::canonicalize(p).ok());
    files.iter().any(|f| {
        let p = opts.root.join(f);
        p.file_name().is_some_and(|n| n == crate::config::FILE_NAME)
            || contract
                .as_ref()
                .is_some_and(|c| std::fs::canonicalize(&p).ok().as_ref() == Some(c))
    })
}

/// Where reported paths start from. Relative to the git repository's root
/// (the nearest `.git` above the scanned root) when `repo_relative` (SARIF,
/// GitHub and GitLab: their paths must resolve in the repository) and the
/// root lies in one; else relative to the current directory when the root
/// lies under it, or the current directory under the root (`../src/x.lua`
/// from a subfolder: paths that open where the command ran); else relative
/// to the scanned root. The prefix that turns a path relative to the
/// scanned root into one relative to that base (`.`: none).
pub fn report_prefix(root: &Path, repo_relative: bool) -> String {
    let Ok(root) = std::fs::canonicalize(root) else {
        return ".".into();
    };
    let base = match git_root(&root).filter(|_| repo_relative) {
        Some(g) => Some(g),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| std::fs::canonicalize(d).ok()),
    };
    match base {
        Some(b) if root.starts_with(&b) => crate::source::rel_path(&b, &root),
        Some(b) if b.starts_with(&root) => format!(
            "{}{}",
            crate::source::BELOW,
            crate::source::rel_path(&root, &b)
        ),
        _ => ".".into(),
    }
}

/// Reports `a`'s paths with `prefix` before them ([`report_prefix`]): its
/// files (but the embedded contract's name) and its notes.
pub fn relocate(a: &mut Analysis, prefix: &str) {
    if prefix == "." {
        return;
    }
    // A contract no file holds (the embedded one, a draft) keeps its name.
    let unfiled = a
        .contract_file
        .filter(|_| a.contract.as_ref().is_some_and(|c| c.embedded || c.drafted));
    a.sources.relocate(prefix, unfiled);
    for n in &mut a.notes {
        if n.path != "." {
            n.path = crate::source::under(prefix, &n.path);
        }
    }
}
