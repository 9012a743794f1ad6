//! The pipeline, end to end: discover → read → parse and extract (in
//! parallel, merged in path order) → link → check.
//!
//! Nothing here prints; the result is an [`Analysis`] that reporters render.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::checks::{run_all, CheckContext};
use crate::config::Config;
use crate::contract::{Contract, ContractError};
use crate::diagnostic::Diagnostic;
use crate::discover::{discover, Candidate, Note, ProjectFinder};
use crate::facts::{FileFacts, FileId, Lang, ScriptSource};
use crate::link::{
    assign_speakers, link, normalize_name, normalize_path, LinkInput, Model, SpeakerId,
};
use crate::parse::Parsers;
use crate::prefilter::{self, Prefilter};
use crate::source::{SourceFile, SourceMap};

/// Files larger than this are skipped with a note.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Which contract to check against.
#[derive(Debug, Clone, PartialEq)]
pub enum ContractChoice {
    /// `wirelint.toml`'s choice if there is one, else the embedded contract.
    Default,
    File(PathBuf),
    None,
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Paths are reported relative to this.
    pub root: PathBuf,
    pub paths: Vec<PathBuf>,
    pub contract: ContractChoice,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    pub max_file_bytes: u64,
    /// `wirelint.toml`'s exclude globs and speakers (`crate::settings`).
    pub settings: crate::settings::Settings,
    /// `--stdin-filename`: this file's text (path relative to `root`, and
    /// bytes) in place of the file on disk.
    pub stdin: Option<(String, Vec<u8>)>,
    /// Skip parsing files of speakers that do not speak the protocol
    /// (`crate::prefilter`). Off only to check that it changes nothing.
    pub prefilter: bool,
    /// A whole tree held in memory (`wirelint diff` reads a git revision
    /// this way): paths relative to `root`, `/`-separated, with their bytes.
    /// When set, the disk under `root` is never read: these are the files,
    /// and a `mix.exs` or `Cargo.toml` among them marks a project. `paths`
    /// is then ignored (the caller selects the files).
    pub tree: Option<Vec<(String, Vec<u8>)>>,
}

/// Everything a reporter needs.
pub struct Analysis {
    pub sources: SourceMap,
    pub model: Model,
    pub diagnostics: Vec<Diagnostic>,
    pub notes: Vec<Note>,
    pub contract: Option<Contract>,
    pub contract_file: Option<FileId>,
    /// Source files read and checked.
    pub files_checked: usize,
}

/// Why a run could not produce an analysis (exit code 2).
#[derive(Debug)]
pub enum AnalyzeError {
    Contract(Box<ContractError>),
    Usage(String),
}

impl From<Box<ContractError>> for AnalyzeError {
    fn from(e: Box<ContractError>) -> Self {
        AnalyzeError::Contract(e)
    }
}

/// Reads the chosen contract.
pub fn load_contract(
    choice: &ContractChoice,
    root: &Path,
) -> Result<Option<Contract>, AnalyzeError> {
    match choice {
        ContractChoice::None => Ok(None),
        ContractChoice::File(p) => read_contract(p).map(Some),
        ContractChoice::Default => match Config::find(root)? {
            Some(cfg) => match cfg.contract {
                crate::config::ContractSetting::Embedded => Ok(Some(Contract::embedded())),
                crate::config::ContractSetting::Off => Ok(None),
                crate::config::ContractSetting::Path(p) => read_contract(&p).map(Some),
            },
            None => Ok(Some(Contract::embedded())),
        },
    }
}

fn read_contract(p: &Path) -> Result<Contract, AnalyzeError> {
    let text = std::fs::read(p)
        .map_err(|e| AnalyzeError::Usage(format!("cannot read contract {}: {e}", p.display())))?;
    let text = String::from_utf8(text)
        .map_err(|_| AnalyzeError::Usage(format!("contract {} is not UTF-8 text", p.display())))?;
    Ok(Contract::parse(&text, &p.display().to_string())?)
}

/// Whether any key in the model could be a key of the contract's keyspace:
/// its prefix or a near miss of it, in the contract's shape. A contract
/// without a keyspace always applies.
fn could_speak(model: &Model, c: &Contract) -> bool {
    use crate::keyshape::{analyze as read_key, KeyVerdict};
    let Some(ks) = c.keyspace.as_ref() else {
        return true;
    };
    model
        .keys
        .iter()
        .any(|k| read_key(&k.template, ks) != KeyVerdict::Skip)
}

/// What the prefilter found in one file's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// It marks its speaker ([`Prefilter::marks`]).
    pub speaker: bool,
    /// It may yield a Redis fact of its own ([`Prefilter::fact_marks`]).
    pub facts: bool,
}

/// What reading one file gave.
pub(crate) enum Read {
    /// Parsed: its bytes, its facts, and what it marks.
    Facts(Vec<u8>, Box<FileFacts>, Marks),
    /// Read and scanned, not parsed (the prefilter passed it over); its
    /// bytes are not kept. Whether it may yield a Redis fact is asked only
    /// if its speaker turns out to be marked.
    Unparsed,
    Skipped(String),
}

/// Reads a file and scans it. With `parse_unmarked` false, a file that does
/// not mark its speaker is not parsed.
fn read_one(
    parsers: &mut Option<Parsers>,
    prefilter: &Prefilter,
    parse_unmarked: bool,
    c: &Candidate,
    file: FileId,
    max: u64,
    tree: Option<&[(String, Vec<u8>)]>,
) -> Read {
    if let Some(tree) = tree {
        return match tree.binary_search_by(|(r, _)| r.as_str().cmp(&c.rel)) {
            Ok(at) => read_bytes(
                parsers,
                prefilter,
                parse_unmarked,
                c,
                file,
                tree[at].1.clone(),
                max,
            ),
            Err(_) => Read::Skipped("internal error: not in the tree".into()),
        };
    }
    let meta = match std::fs::metadata(&c.path) {
        Ok(m) => m,
        Err(e) => return Read::Skipped(format!("cannot read: {e}")),
    };
    if meta.len() > max {
        return Read::Skipped(format!(
            "skipped: {} bytes is over the {} byte limit (--max-file-size)",
            meta.len(),
            max
        ));
    }
    let bytes = match std::fs::read(&c.path) {
        Ok(b) => b,
        Err(e) => return Read::Skipped(format!("cannot read: {e}")),
    };
    read_bytes(parsers, prefilter, parse_unmarked, c, file, bytes, max)
}

/// Checks and parses one file's bytes, wherever they came from.
fn read_bytes(
    parsers: &mut Option<Parsers>,
    prefilter: &Prefilter,
    parse_unmarked: bool,
    c: &Candidate,
    file: FileId,
    bytes: Vec<u8>,
    max: u64,
) -> Read {
    if bytes.len() as u64 > max {
        return Read::Skipped(format!("skipped: over the {max} byte limit"));
    }
    if memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
        return Read::Skipped("skipped: binary file (it has NUL bytes)".into());
    }
    let stem = c
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let speaker = prefilter.marks(c.lang, &stem, &bytes);
    if !speaker && !parse_unmarked {
        return Read::Unparsed;
    }
    let marks = Marks {
        speaker,
        facts: speaker || prefilter.fact_marks(c.lang, &bytes),
    };
    let Some(p) = parsers.as_mut() else {
        return Read::Skipped("internal error: the grammars did not load".into());
    };
    let facts = crate::extract::extract_file(p, c.lang, file, &bytes, &stem);
    Read::Facts(bytes, Box::new(facts), marks)
}

/// Reads every candidate, in parallel, and parses what the link step needs
/// (see `crate::prefilter`): first the files that mark their speaker; then,
/// in marked speakers, the `.lua` files, the files that may yield a Redis
/// fact of their own, the script files parsed files name, and the files
/// that hold a name a parsed file of their speaker references or defines,
/// until nothing new is reached. Returns the reads and, per file, whether it
/// is one of those (with the prefilter off every file is parsed, and the
/// same selection is made from the bytes and facts).
fn read_all(
    opts: &Options,
    prefilter: &Prefilter,
    candidates: &[Candidate],
    file_speaker: &[Option<SpeakerId>],
    speaker_dirs: &[Option<PathBuf>],
) -> (Vec<Read>, Vec<bool>) {
    let max = opts.max_file_bytes;
    let mut reads: Vec<Read> = candidates
        .par_iter()
        .enumerate()
        .map_init(
            || Parsers::new().ok(),
            |parsers, (i, c)| match &opts.stdin {
                // An editor's unsaved buffer stands for the file on disk.
                Some((rel, bytes)) if *rel == c.rel => {
                    crate::editor::read_buffer(parsers.as_mut(), c, i as FileId, bytes)
                }
                _ => read_one(
                    parsers,
                    prefilter,
                    !opts.prefilter,
                    c,
                    i as FileId,
                    max,
                    opts.tree.as_deref(),
                ),
            },
        )
        .collect();
    let mut sel = Selection::new(candidates, file_speaker, speaker_dirs);
    for (i, r) in reads.iter().enumerate() {
        if let (Read::Facts(_, _, m), Some(sp)) = (r, file_speaker[i]) {
            if m.speaker {
                sel.marked[sp] = true;
                sel.selected[i] = true;
            }
        }
    }
    // Bytes of files not parsed yet, in marked speakers, for the name scan.
    let mut held: Vec<Option<Vec<u8>>> = (0..reads.len()).map(|_| None).collect();
    loop {
        sel.harvest(&reads);
        // Hold the bytes of unparsed files of newly marked speakers.
        let load: Vec<usize> = (0..reads.len())
            .filter(|&i| {
                matches!(reads[i], Read::Unparsed)
                    && held[i].is_none()
                    && file_speaker[i].is_some_and(|s| sel.marked[s])
            })
            .collect();
        let loaded: Vec<(usize, Option<Vec<u8>>)> = load
            .par_iter()
            .map(|&i| (i, load_bytes(&candidates[i], max, opts.tree.as_deref())))
            .collect();
        for (i, b) in loaded {
            held[i] = b.or(Some(Vec::new()));
        }
        let todo = sel.todo(prefilter, &reads, &held);
        if todo.is_empty() {
            break;
        }
        let jobs: Vec<(usize, Option<Vec<u8>>)> =
            todo.iter().map(|&i| (i, held[i].take())).collect();
        let more: Vec<(usize, Option<Read>)> = jobs
            .into_par_iter()
            .map_init(
                || Parsers::new().ok(),
                |parsers, (i, bytes)| {
                    let r = match (&reads[i], bytes) {
                        (Read::Unparsed, Some(bytes)) if !bytes.is_empty() => Some(read_bytes(
                            parsers,
                            prefilter,
                            true,
                            &candidates[i],
                            i as FileId,
                            bytes,
                            max,
                        )),
                        (Read::Unparsed, _) => Some(read_one(
                            parsers,
                            prefilter,
                            true,
                            &candidates[i],
                            i as FileId,
                            max,
                            opts.tree.as_deref(),
                        )),
                        _ => None,
                    };
                    (i, r)
                },
            )
            .collect();
        for (i, r) in more {
            sel.selected[i] = true;
            if let Some(r) = r {
                reads[i] = r;
            }
        }
    }
    (reads, sel.selected)
}

/// A file's bytes, from disk or the in-memory tree; `None` when it cannot
/// be read (the parse that follows then says why).
fn load_bytes(c: &Candidate, max: u64, tree: Option<&[(String, Vec<u8>)]>) -> Option<Vec<u8>> {
    if let Some(tree) = tree {
        return tree
            .binary_search_by(|(r, _)| r.as_str().cmp(&c.rel))
            .ok()
            .map(|at| tree[at].1.clone());
    }
    let meta = std::fs::metadata(&c.path).ok()?;
    if meta.len() > max {
        return None;
    }
    std::fs::read(&c.path).ok()
}

/// The name-driven selection of the files to parse (`crate::prefilter`).
struct Selection<'a> {
    candidates: &'a [Candidate],
    file_speaker: &'a [Option<SpeakerId>],
    speaker_dirs: &'a [Option<PathBuf>],
    marked: Vec<bool>,
    selected: Vec<bool>,
    harvested: Vec<bool>,
    /// `.lua` files by normalised path, as the link step finds them.
    lua_by_path: HashMap<PathBuf, usize>,
    /// `.lua` files parsed files name (script paths, `@include`s).
    named: BTreeSet<usize>,
    /// Per selected file: what it gives the name pass.
    names: Vec<Option<prefilter::FileNames>>,
    /// Normalised names scripts may be identified by, in any speaker.
    idents: BTreeSet<String>,
}

impl<'a> Selection<'a> {
    fn new(
        candidates: &'a [Candidate],
        file_speaker: &'a [Option<SpeakerId>],
        speaker_dirs: &'a [Option<PathBuf>],
    ) -> Selection<'a> {
        let lua_by_path = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.lang == Lang::Lua)
            .map(|(i, c)| (normalize_path(&c.path), i))
            .collect();
        Selection {
            candidates,
            file_speaker,
            speaker_dirs,
            marked: vec![false; speaker_dirs.len()],
            selected: vec![false; candidates.len()],
            harvested: vec![false; candidates.len()],
            lua_by_path,
            named: BTreeSet::new(),
            names: (0..candidates.len()).map(|_| None).collect(),
            idents: BTreeSet::new(),
        }
    }

    fn name_lua(&mut self, path: &Path) {
        if let Some(&j) = self.lua_by_path.get(&normalize_path(path)) {
            self.named.insert(j);
            if let Some(tsp) = self.file_speaker[j] {
                self.marked[tsp] = true;
            }
        }
    }

    /// Takes in the facts of newly selected files: the script files they
    /// name (whose speakers they mark), the names they reference, the
    /// names scripts may be identified by.
    fn harvest(&mut self, reads: &[Read]) {
        for (i, r) in reads.iter().enumerate() {
            if self.harvested[i] || !self.selected[i] {
                continue;
            }
            let Read::Facts(_, facts, marks) = r else {
                continue;
            };
            self.harvested[i] = true;
            let Some(sp) = self.file_speaker[i] else {
                continue;
            };
            let dir = self.candidates[i].path.parent().map(Path::to_path_buf);
            for s in &facts.scripts {
                match &s.source {
                    ScriptSource::File {
                        path,
                        relative_to_file,
                        ..
                    } => {
                        let base = if *relative_to_file {
                            dir.clone()
                        } else {
                            self.speaker_dirs.get(sp).cloned().flatten()
                        };
                        if let Some(base) = base {
                            self.name_lua(&base.join(path));
                        }
                    }
                    ScriptSource::Inline(lua) => {
                        if let Some(dir) = &dir {
                            for (path, _) in &lua.includes {
                                self.name_lua(&dir.join(path));
                                self.name_lua(&dir.join(format!("{path}.lua")));
                            }
                        }
                    }
                }
            }
            self.names[i] = Some(prefilter::FileNames::of(facts, marks.speaker));
            prefilter::identity_names(facts, &mut self.idents);
        }
        // A `.lua` file a call may identify by its name marks its speaker.
        for (&_, &j) in &self.lua_by_path {
            let Some(tsp) = self.file_speaker[j] else {
                continue;
            };
            if self.marked[tsp] {
                continue;
            }
            let stem = self.candidates[j]
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = normalize_name(&crate::extract::script_name_from_stem(&stem));
            if self.idents.contains(&name) {
                self.marked[tsp] = true;
            }
        }
    }

    /// The files of marked speakers to parse next.
    fn todo(&self, prefilter: &Prefilter, reads: &[Read], held: &[Option<Vec<u8>>]) -> Vec<usize> {
        // Per marked speaker: the names its selected files reference or
        // define (wrappers included, to a fixpoint).
        let n_sp = self.marked.len();
        let mut names: Vec<Option<prefilter::Names>> = (0..n_sp).map(|_| None).collect();
        let pending = |i: usize| {
            !self.selected[i]
                && !matches!(reads[i], Read::Skipped(_))
                && self.file_speaker[i].is_some_and(|s| self.marked[s])
        };
        let mut wanted: BTreeSet<SpeakerId> = BTreeSet::new();
        for i in (0..reads.len()).filter(|&i| pending(i)) {
            if let Some(sp) = self.file_speaker[i] {
                wanted.insert(sp);
            }
        }
        for &sp in &wanted {
            let files: Vec<&prefilter::FileNames> = (0..reads.len())
                .filter(|&i| self.selected[i] && self.file_speaker[i] == Some(sp))
                .filter_map(|i| self.names[i].as_ref())
                .collect();
            let all = prefilter::speaker_needles(&files);
            names[sp] = Some(prefilter::Names::new(&all));
        }
        let out: Vec<usize> = (0..reads.len())
            .into_par_iter()
            .filter(|&i| {
                if !pending(i) {
                    return false;
                }
                if self.candidates[i].lang == Lang::Lua || self.named.contains(&i) {
                    return true;
                }
                let (bytes, fact_marks) = match &reads[i] {
                    Read::Facts(b, _, m) => (b.as_slice(), m.facts),
                    Read::Unparsed => {
                        let b = held[i].as_deref().unwrap_or(&[]);
                        (b, prefilter.fact_marks(self.candidates[i].lang, b))
                    }
                    Read::Skipped(_) => return false,
                };
                if fact_marks {
                    return true;
                }
                let sp = self.file_speaker[i].unwrap_or(0);
                names[sp].as_ref().is_some_and(|n| n.hit(bytes))
            })
            .collect();
        out
    }
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
    let mut dir = rel;
    while let Some(i) = dir.rfind('/') {
        dir = &dir[..i];
        if has(&format!("{dir}/mix.exs")) || has(&format!("{dir}/Cargo.toml")) {
            return Some(root.join(dir));
        }
    }
    (has("mix.exs") || has("Cargo.toml")).then(|| root.to_path_buf())
}

/// Runs the pipeline.
pub fn analyze(opts: &Options) -> Result<Analysis, AnalyzeError> {
    for p in opts.paths.iter().filter(|_| opts.tree.is_none()) {
        if std::fs::symlink_metadata(p).is_err() {
            return Err(AnalyzeError::Usage(format!(
                "path does not exist: {}",
                p.display()
            )));
        }
    }
    let mut contract = load_contract(&opts.contract, &opts.root)?;
    crate::settings::add_speakers(&opts.settings, &opts.root, contract.as_mut());
    let mut notes = Vec::new();
    let mut candidates = match &opts.tree {
        Some(tree) => tree_candidates(&opts.root, tree),
        None => discover(&opts.root, &opts.paths, &mut notes),
    };
    candidates.retain(|c| !opts.settings.excludes(&c.path));
    if let Some((rel, _)) = &opts.stdin {
        crate::editor::ensure_candidate(&mut candidates, &opts.root, rel, &opts.settings);
    }

    // Speakers come from paths alone, so they are known before any read.
    let mut projects = ProjectFinder::default();
    let rels: Vec<(String, Option<PathBuf>)> = candidates
        .iter()
        .map(|c| {
            let project = match &opts.tree {
                Some(tree) => tree_project(&opts.root, tree, &c.rel),
                None => projects.project_of(&opts.root, &c.path),
            };
            (c.rel.clone(), project)
        })
        .collect();
    // Speakers named by the contract, then by wirelint.toml (which names
    // them with no contract too).
    let mut specs = contract
        .as_ref()
        .map(|c| c.speakers.clone())
        .unwrap_or_default();
    for s in opts.settings.speaker_specs(&opts.root) {
        if !specs.iter().any(|x| x.name == s.name) {
            specs.push(s);
        }
    }
    let (speakers, mut file_speaker, speaker_dirs) = assign_speakers(&rels, &opts.root, &specs);

    let prefilter = Prefilter::new(contract.as_ref());
    let work = || read_all(opts, &prefilter, &candidates, &file_speaker, &speaker_dirs);
    let (reads, selected) = match opts.threads {
        Some(n) => match rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
        {
            Ok(pool) => pool.install(work),
            Err(e) => {
                return Err(AnalyzeError::Usage(format!(
                    "cannot start {n} threads: {e}"
                )))
            }
        },
        None => work(),
    };

    // Files keep their candidate index as id, so facts' spans stay valid.
    let mut sources = SourceMap::default();
    let mut facts: Vec<(FileId, FileFacts)> = Vec::new();
    let mut live = Vec::new();
    for ((c, r), selected) in candidates.iter().zip(reads).zip(selected) {
        live.push(!matches!(r, Read::Skipped(_)));
        let (bytes, ok) = match r {
            Read::Facts(b, mut f, _) => {
                // Syntax errors matter in the files the protocol is
                // spoken in (those the prefilter parses); the same rule
                // whether or not the prefilter ran.
                if !selected {
                    f.errors.clear();
                }
                (b, Some(*f))
            }
            // Read and found silent: no bytes kept, no facts.
            Read::Unparsed => (Vec::new(), None),
            Read::Skipped(why) => {
                notes.push(Note {
                    path: c.rel.clone(),
                    message: why,
                });
                (Vec::new(), None)
            }
        };
        let id = sources.add(SourceFile::new(
            c.rel.clone(),
            c.path.clone(),
            Some(c.lang),
            bytes,
        ));
        if let Some(f) = ok {
            facts.push((id, f));
        }
    }
    let files_checked = live.iter().filter(|l| **l).count();

    for (i, l) in live.iter().enumerate() {
        if !l {
            file_speaker[i] = None;
        }
    }
    let contract_file = contract.as_ref().map(|c| {
        let rel = if c.embedded {
            c.origin.clone()
        } else {
            crate::source::rel_path(&opts.root, Path::new(&c.origin))
        };
        file_speaker.push(None);
        sources.add(SourceFile::new(
            rel,
            PathBuf::from(&c.origin),
            None,
            c.text.clone().into_bytes(),
        ))
    });
    let mut model = link(&LinkInput {
        sources: &sources,
        facts: &facts,
        speakers,
        file_speaker,
        speaker_dirs,
        contract: contract.as_ref(),
    });
    // The embedded default steps aside for a repository that speaks
    // another protocol: no key in it could be an EchoMQ key.
    let mut contract_file = contract_file;
    if let Some(c) = contract
        .as_ref()
        .filter(|c| c.embedded && opts.contract == ContractChoice::Default)
    {
        if !could_speak(&model, c) {
            notes.push(Note {
                path: ".".into(),
                message: format!(
                    "no key here has the shape of the `{}` contract's keys, so the embedded contract steps aside and only agreement between speakers is checked (pass --contract FILE to check against one)",
                    c.name
                ),
            });
            for s in &mut model.scripts {
                s.contract = None;
            }
            contract = None;
            contract_file = None;
        }
    }
    for (file, msg) in &model.notes {
        notes.push(Note {
            path: sources.get(*file).rel.clone(),
            message: msg.clone(),
        });
    }
    let diagnostics = run_all(&CheckContext {
        model: &model,
        contract: contract.as_ref(),
        contract_file,
        sources: &sources,
    });
    notes.sort();
    notes.dedup();
    Ok(Analysis {
        sources,
        model,
        diagnostics,
        notes,
        contract,
        contract_file,
        files_checked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file deleted between discovery and read is a note, not a failure.
    #[test]
    fn a_file_deleted_after_discovery_is_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.ex");
        std::fs::write(&path, "defmodule Gone do\nend\n").unwrap();
        let c = Candidate {
            path: path.clone(),
            rel: "gone.ex".into(),
            lang: Lang::Elixir,
        };
        std::fs::remove_file(&path).unwrap();
        let prefilter = Prefilter::new(None);
        let mut parsers = Parsers::new().ok();
        match read_one(
            &mut parsers,
            &prefilter,
            true,
            &c,
            0,
            DEFAULT_MAX_FILE_BYTES,
            None,
        ) {
            Read::Skipped(why) => assert!(why.starts_with("cannot read: "), "{why}"),
            _ => panic!("a missing file must be skipped with a note"),
        }
    }

    /// The name pass parses, in a marked speaker, the files a parsed file
    /// reaches by a name (a key builder, an attribute) or that use a name a
    /// parsed file defines, and leaves the rest of the speaker unparsed.
    #[test]
    fn the_name_pass_parses_what_names_reach_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let files: Vec<(&str, &str)> = vec![
            ("apps/q/mix.exs", "defmodule Q.MixProject do\nend\n"),
            // Marks (Redix), references `job`.
            (
                "apps/q/lib/store.ex",
                "defmodule Q.Store do\n  def save(c, q, id), do: Redix.command(c, [\"HSET\", Q.Keys.job(q, id), \"state\", \"x\"])\nend\n",
            ),
            // No marker: reached through `job`; references `base`.
            (
                "apps/q/lib/keys.ex",
                "defmodule Q.Keys do\n  def job(q, id), do: \"#{Q.Base.base(q)}:#{Q.Kind.kind()}:#{id}\"\nend\n",
            ),
            // No marker: reached through `kind`, looked up next to `base`.
            (
                "apps/q/lib/kind.ex",
                "defmodule Q.Kind do\n  def kind, do: \"row\"\nend\n",
            ),
            // No marker: reached through `base`; references `@prefix`.
            (
                "apps/q/lib/base.ex",
                "defmodule Q.Base do\n  def base(q), do: \"#{@prefix}{#{q}}\"\nend\n",
            ),
            // Marks (the prefix).
            ("apps/q/lib/prefix.ex", "defmodule Q.Prefix do\n  @prefix \"emq:\"\nend\n"),
            // No marker, referenced by nobody, but uses `base`, which a
            // parsed file defines.
            (
                "apps/q/lib/more.ex",
                "defmodule Q.More do\n  def other(q), do: \"#{Q.Base.base(q)}:zzz\"\nend\n",
            ),
            // Unrelated: never parsed.
            (
                "apps/q/lib/util.ex",
                "defmodule Q.Util do\n  def add(a, b), do: a + b\n  def label(x), do: \"n: #{x}\"\nend\n",
            ),
        ];
        let mut tree: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
            .collect();
        tree.sort();
        let parsed = |prefilter: bool| -> Vec<String> {
            let opts = Options {
                root: dir.path().to_path_buf(),
                paths: vec![dir.path().to_path_buf()],
                contract: ContractChoice::Default,
                threads: Some(1),
                max_file_bytes: DEFAULT_MAX_FILE_BYTES,
                settings: Default::default(),
                stdin: None,
                prefilter,
                tree: Some(tree.clone()),
            };
            let a = analyze(&opts).unwrap();
            a.sources
                .iter()
                .filter(|(_, s)| s.lang.is_some() && !s.bytes.is_empty())
                .map(|(_, s)| s.rel.clone())
                .collect()
        };
        assert_eq!(
            parsed(true),
            vec![
                "apps/q/lib/base.ex",
                "apps/q/lib/keys.ex",
                "apps/q/lib/kind.ex",
                "apps/q/lib/more.ex",
                "apps/q/lib/prefix.ex",
                "apps/q/lib/store.ex",
            ]
        );
        // With the prefilter off every file is parsed (`mix.exs` too).
        assert_eq!(parsed(false).len(), 8);
    }
}
