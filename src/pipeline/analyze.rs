//! One run, in steps: the file source lists the files and speakers come
//! from their paths; the selection reads and parses what the link step
//! needs (`super::select`); the file table keeps every file read; then link
//! and check.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::checks::{run_all, CheckContext};
use crate::config::ContractSetting;
use crate::contract::Contract;
use crate::discover::{Candidate, Note};
use crate::facts::{FileFacts, FileId};
use crate::link::{assign_speakers, link, reassign_contract, LinkInput, Model, Speaker, SpeakerId};
use crate::source::{SourceFile, SourceMap};

use super::cache::Cache;
use super::files::Files;
use super::prefilter::Prefilter;
use super::read::{Counts, Read, Reader};
use super::select::read_all;
use super::{Analysis, AnalyzeError, ContractChoice, FoundConfig, Options};

/// Reads the chosen contract, at most `limit` bytes of it, with
/// `wirelint.toml` as the plan found it (`config`).
pub fn load_contract(
    choice: &ContractChoice,
    config: &FoundConfig,
    limit: u64,
) -> Result<Option<Contract>, AnalyzeError> {
    let chosen = |mut c: Contract| {
        c.chosen = true;
        Some(c)
    };
    let cfg = match choice {
        ContractChoice::None => return Ok(None),
        // The settings are read, and their errors reported, on their own;
        // here only their `prefix` counts.
        ContractChoice::File(_) | ContractChoice::Shipped(_) => {
            config.as_ref().ok().and_then(Option::as_ref)
        }
        // A draft's prefix is its upstream's: the checked tree's `prefix`
        // setting does not change it.
        ContractChoice::Drafted { .. } => None,
        ContractChoice::Default => config.as_ref().map_err(|e| e.clone())?.as_ref(),
    };
    let prefix = cfg.and_then(|c| c.prefix.as_deref());
    match choice {
        ContractChoice::None => Ok(None),
        ContractChoice::File(p) => read_contract(p, limit, prefix).map(chosen),
        ContractChoice::Shipped(name) => shipped(name, prefix).map(chosen),
        ContractChoice::Drafted { text, origin } => {
            let mut c = Contract::parse(text, origin)?;
            c.drafted = true;
            Ok(chosen(c))
        }
        ContractChoice::Default => match cfg {
            Some(cfg) => match &cfg.contract {
                ContractSetting::Embedded { named: true } => Ok(chosen(Contract::embedded())),
                ContractSetting::Embedded { named: false } => Ok(Some(Contract::embedded())),
                ContractSetting::Off => Ok(None),
                ContractSetting::Shipped(name) => shipped(name, prefix).map(chosen),
                ContractSetting::Path(_) => match cfg.contract_path()? {
                    Some(p) => read_contract(p, limit, prefix).map(chosen),
                    None => Ok(None),
                },
            },
            None => Ok(Some(Contract::embedded())),
        },
    }
}

/// A shipped contract by name; an unknown name is a usage error that
/// lists the names there are.
fn shipped(name: &str, prefix: Option<&str>) -> Result<Contract, AnalyzeError> {
    let Some(s) = crate::contract::shipped::named(name) else {
        return Err(AnalyzeError::Usage(
            crate::contract::shipped::unknown_message(name),
        ));
    };
    Ok(s.load(prefix)?)
}

/// A contract file.
fn read_contract(p: &Path, limit: u64, prefix: Option<&str>) -> Result<Contract, AnalyzeError> {
    let text = crate::input::read_text(p, limit)
        .map_err(|e| AnalyzeError::Usage(format!("cannot read contract {}: {e}", p.display())))?;
    Ok(Contract::parse_with(
        &text,
        &p.display().to_string(),
        prefix,
    )?)
}

/// What discovery found for a run of files on the disk: its files, its
/// notes, each file's project. Made by [`discover`] for a caller that
/// keys the run by its files before running it ([`analyze_with`]).
pub struct Discovery {
    pub candidates: Vec<Candidate>,
    pub notes: Vec<Note>,
    pub projects: Vec<Option<PathBuf>>,
}

/// Discovery as [`analyze`] makes it, for a run of files on the disk
/// alone (no tree, buffer or session); `None` for another run, or when
/// a path given is not there.
pub fn discover(opts: &Options) -> Option<Discovery> {
    if opts.tree.is_some() || !opts.buffers.is_empty() || opts.session.is_some() {
        return None;
    }
    let files = files_of(opts).ok()?;
    let mut notes = Vec::new();
    let candidates = files.candidates(&opts.paths, &opts.settings, &mut notes, None);
    let projects = files.projects(&candidates);
    Some(Discovery {
        candidates,
        notes,
        projects,
    })
}

/// Runs the pipeline.
pub fn analyze(opts: &Options) -> Result<Analysis, AnalyzeError> {
    analyze_with(opts, None)
}

/// Runs the pipeline with discovery already made ([`discover`], of the
/// same options), if given.
pub fn analyze_with(opts: &Options, found: Option<Discovery>) -> Result<Analysis, AnalyzeError> {
    let files = files_of(opts)?;
    let mut contract = load_contract(&opts.contract, &opts.config, opts.max_file_bytes)?;
    crate::config::settings::add_speakers(&opts.settings, &opts.root, contract.as_mut());
    let mut notes = Vec::new();
    // `--threads` bounds the walk too (it makes one job per directory).
    let pool = pool(opts.threads.map(|n| capped_threads(n, &mut notes)))?;
    let kept = opts.session.as_deref().map(|s| &s.discovered);
    let (candidates, projects) = match found {
        Some(d) => {
            notes.extend(d.notes);
            (d.candidates, d.projects)
        }
        None => {
            let c = in_pool(pool.as_ref(), || {
                files.candidates(&opts.paths, &opts.settings, &mut notes, kept)
            });
            let p = files.projects(&c);
            (c, p)
        }
    };
    let (speakers, mut file_speaker, speaker_dirs) =
        speakers(opts, &candidates, projects, contract.as_ref());

    let prefilter = Prefilter::new(contract.as_ref());
    let cache = open_cache(opts, &prefilter);
    let reader = Reader {
        files: &files,
        prefilter: &prefilter,
        counts: Counts::default(),
        cache: cache.as_ref(),
        trees: opts.session.as_deref().map(|s| &s.trees),
    };
    let (reads, selected, definers) = in_pool(pool.as_ref(), || {
        read_all(
            &reader,
            !opts.prefilter,
            &candidates,
            &file_speaker,
            &speaker_dirs,
            opts.session.as_deref().map(|s| &s.names),
        )
    });
    let stats = reader
        .counts
        .stats(candidates.len(), selected.iter().filter(|s| **s).count());
    after_reading(opts, &stats);
    if let Some(c) = cache {
        c.save();
    }
    let FileTable {
        mut sources,
        mut facts,
        live,
    } = file_table(&files, &candidates, reads, selected, &mut notes);
    crate::link::scope::settle(&sources, &mut facts);
    let files_checked = live.iter().filter(|l| **l).count();
    for (i, l) in live.iter().enumerate() {
        if !l {
            file_speaker[i] = None;
        }
    }
    let contract_file = contract
        .as_ref()
        .map(|c| add_contract_file(&mut sources, &mut file_speaker, c, &opts.root));
    let (model, (contract, contract_file)) = link_step(
        opts,
        pool.as_ref(),
        Linking {
            sources: &mut sources,
            facts: &facts,
            parts: (speakers, file_speaker, speaker_dirs),
            notes: &mut notes,
            definers: &definers,
        },
        (contract, contract_file),
    );
    // The facts are done with once linked: freeing them piece by piece was
    // a twentieth of a warm run, which the checks need not wait for.
    crate::parse::free_later(facts);
    notes.extend(model_notes(&model, contract.as_ref(), &sources));
    let cx = CheckContext::new(&model, contract.as_ref(), contract_file, &sources);
    let diagnostics = in_pool(pool.as_ref(), || run_all(&cx));
    notes.extend(unlisted_errors_note(&cx));
    notes.sort();
    notes.dedup();
    in_pool(pool.as_ref(), || {
        hold_what_reports_read(&sources, &diagnostics)
    });
    Ok(Analysis {
        sources,
        model,
        diagnostics,
        notes,
        contract,
        contract_file,
        files_checked,
        stats,
    })
}

/// What the link step reads and adds to.
struct Linking<'a> {
    sources: &'a mut SourceMap,
    facts: &'a [(FileId, Arc<FileFacts>)],
    /// The speakers, each file's speaker and each speaker's directory.
    parts: (Vec<Speaker>, Vec<Option<SpeakerId>>, Vec<Option<PathBuf>>),
    notes: &'a mut Vec<Note>,
    /// How many files define each name the selection searched for.
    definers: &'a crate::link::Definers,
}

/// The link, and the contract that then applies: the embedded default
/// steps aside for a foreign keyspace, and a tree of a shipped family's
/// keys is checked against that family (its contract names its scripts).
/// The link reads the contract only to give each script its entry and to
/// name the records at keys of holes alone (`link::reassign_contract`), so
/// the family's model is the first link's with those made again: one
/// link, whichever contract applies.
fn link_step(
    opts: &Options,
    pool: Option<&rayon::ThreadPool>,
    l: Linking<'_>,
    (mut contract, mut contract_file): (Option<Contract>, Option<FileId>),
) -> (Model, (Option<Contract>, Option<FileId>)) {
    let Linking {
        sources,
        facts,
        parts,
        notes,
        definers,
    } = l;
    let input = LinkInput {
        sources,
        facts,
        speakers: parts.0,
        file_speaker: parts.1,
        speaker_dirs: parts.2,
        contract: contract.as_ref(),
        memo: opts.session.as_deref().map(|s| &s.link),
        definers,
    };
    let mut model = in_pool(pool, || link(&input));
    drop(input);
    let Some(family) = steps_aside(opts, &model, contract.as_ref(), notes) else {
        return (model, (contract, contract_file));
    };
    contract = None;
    contract_file = None;
    if let Some((fam, id)) = family.and_then(|f| family_contract(opts, f, sources, notes)) {
        contract = Some(fam);
        contract_file = Some(id);
        model.file_speaker.resize(sources.len(), None);
    }
    reassign_contract(&mut model, contract.as_ref());
    (model, (contract, contract_file))
}

/// Where the run's files come from, once its paths are known to be there.
fn files_of(opts: &Options) -> Result<Files<'_>, AnalyzeError> {
    let files = Files::new(
        &opts.root,
        opts.tree.as_deref(),
        &opts.buffers,
        opts.max_file_bytes,
    );
    files
        .check_paths(&opts.paths)
        .map_err(AnalyzeError::Usage)?;
    Ok(files)
}

/// The link's notes, on their files, and the one on a port's own keys
/// (`own_keys`).
fn model_notes(model: &Model, contract: Option<&Contract>, sources: &SourceMap) -> Vec<Note> {
    let link = model.notes.iter().map(|(file, msg)| Note {
        path: sources.get(*file).rel.clone(),
        message: msg.clone(),
    });
    link.chain(super::own_keys::note(model, contract, sources))
        .collect()
}

/// After the reads: the open buffers' trees of this run become the last
/// run's, and trees of a megabyte or more of parsed text (about 100 bytes
/// a byte) leave that much free in the parsing threads' arenas.
fn after_reading(opts: &Options, stats: &super::Stats) {
    if let Some(s) = opts.session.as_deref() {
        s.trees.turn();
    }
    if stats.parsed_bytes >= 1 << 20 {
        crate::parse::alloc::release_free_memory();
    }
}

/// The facts cache of a run with the prefilter on. A tree held in memory
/// uses only its facts, by the hash of the bytes (its files have no stamp
/// for the index): a git revision's files equal to the disk's are not
/// parsed again.
fn open_cache(opts: &Options, prefilter: &Prefilter) -> Option<Cache> {
    let dir = opts.cache_dir.as_deref()?;
    if !opts.prefilter {
        return None;
    }
    Cache::open_with(dir, &opts.root, prefilter.fingerprint(), opts.memo.clone())
}

/// The note that counts the files whose syntax errors are not listed as
/// WL001.
fn unlisted_errors_note(cx: &CheckContext<'_>) -> Option<Note> {
    let unlisted = crate::checks::parse_error::unlisted(cx);
    (unlisted > 0).then(|| Note {
        path: ".".into(),
        message: format!(
            "{unlisted} file{} with syntax errors only in code that holds no protocol fact (no Redis command, KEYS[, script or key literal): counted here, not listed as WL001",
            if unlisted == 1 { "" } else { "s" }
        ),
    })
}

/// The speakers, each file's speaker (`projects`: each file's project),
/// and each speaker's directory. They
/// come from paths alone, so they are known before any read: the speakers
/// named by the contract, then by `wirelint.toml` (which names them with no
/// contract too), then the projects.
fn speakers(
    opts: &Options,
    candidates: &[Candidate],
    projects: Vec<Option<PathBuf>>,
    contract: Option<&Contract>,
) -> (Vec<Speaker>, Vec<Option<SpeakerId>>, Vec<Option<PathBuf>>) {
    let rels: Vec<(String, Option<PathBuf>)> = candidates
        .iter()
        .map(|c| c.rel.clone())
        .zip(projects)
        .collect();
    let mut specs = contract.map(|c| c.speakers.clone()).unwrap_or_default();
    for s in opts.settings.speaker_specs(&opts.root) {
        if !specs.iter().any(|x| x.name == s.name) {
            specs.push(s);
        }
    }
    let prefix = opts.speaker_prefix.as_deref().unwrap_or(".");
    assign_speakers(&rels, &opts.root, &specs, prefix)
}

/// Threads per core at most: more only adds start-up time and memory (the
/// work is parsing, bound by the cores).
pub const THREADS_PER_CORE: usize = 4;

/// `--threads N`, capped at [`THREADS_PER_CORE`] per core (with a note).
fn capped_threads(n: usize, notes: &mut Vec<Note>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let cap = cores.saturating_mul(THREADS_PER_CORE);
    if n <= cap {
        return n.max(1);
    }
    notes.push(Note {
        path: ".".into(),
        message: format!(
            "--threads {n} capped at {cap} ({THREADS_PER_CORE} per core, {cores} core{})",
            if cores == 1 { "" } else { "s" }
        ),
    });
    cap
}

/// Runs `work` on the run's pool (`None`: rayon's global pool, one thread
/// per core).
fn in_pool<T: Send>(pool: Option<&rayon::ThreadPool>, work: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// The pool of `--threads`, if given (else rayon's global pool).
fn pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>, AnalyzeError> {
    let Some(n) = threads else {
        return Ok(None);
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n.max(1))
        .build()
        .map(Some)
        .map_err(|e| AnalyzeError::Usage(format!("cannot start {n} threads: {e}")))
}

/// The run's files, in candidate order.
struct FileTable {
    sources: SourceMap,
    /// The facts of the parsed files.
    facts: Vec<(FileId, Arc<FileFacts>)>,
    /// Per file: whether it was read (not skipped).
    live: Vec<bool>,
}

/// Every file read goes into the file table; files keep their candidate
/// index as id, so facts' spans stay valid. A skipped file is a note. Files
/// of the disk keep no bytes: a reporter reads them again if it needs them.
fn file_table(
    files: &Files<'_>,
    candidates: &[Candidate],
    reads: Vec<Read>,
    selected: Vec<bool>,
    notes: &mut Vec<Note>,
) -> FileTable {
    let mut sources = SourceMap::default();
    let mut facts: Vec<(FileId, Arc<FileFacts>)> = Vec::new();
    let mut live = Vec::new();
    for ((c, r), selected) in candidates.iter().zip(reads).zip(selected) {
        live.push(!matches!(r, Read::Skipped(_)));
        let (bytes, suppress, ok) = match r {
            Read::Facts(b, mut f, marks, _) => {
                // Syntax errors and suppressions matter in the files the
                // protocol may be spoken in (those the selection parses);
                // the same rule whether or not the prefilter ran.
                if !selected && (!f.errors.is_empty() || f.unchecked.is_some()) {
                    let f = Arc::make_mut(&mut f);
                    f.errors.clear();
                    f.unchecked = None;
                }
                (b, selected && marks.suppress, Some(f))
            }
            // Read and found silent: no bytes kept, no facts.
            Read::Unparsed(..) => (Vec::new(), false, None),
            Read::Skipped(why) => {
                notes.push(Note {
                    path: c.rel.clone(),
                    message: why,
                });
                (Vec::new(), false, None)
            }
        };
        let (rel, path, lang) = (c.rel.clone(), c.path.clone(), Some(c.lang));
        let file = if files.on_disk(c) && live.last() == Some(&true) {
            SourceFile::on_disk(rel, path, lang, suppress)
        } else {
            let mut f = SourceFile::new(rel, path, lang, bytes);
            f.may_suppress &= suppress;
            f
        };
        let id = sources.add(file);
        if let Some(f) = ok {
            facts.push((id, f));
        }
    }
    FileTable {
        sources,
        facts,
        live,
    }
}

/// Reads again, now, the bytes of the files the findings point into and of
/// those whose suppressions the post-processing reads: what reporters show
/// is then what was checked, even if the files change or go away later.
fn hold_what_reports_read(sources: &SourceMap, diagnostics: &[crate::diagnostic::Diagnostic]) {
    let mut files: Vec<FileId> = diagnostics
        .iter()
        .flat_map(|d| std::iter::once(&d.primary).chain(&d.related))
        .map(|l| l.span.file)
        .collect();
    files.extend(
        sources
            .iter()
            .filter(|(_, f)| f.may_suppress)
            .map(|(id, _)| id),
    );
    files.sort_unstable();
    files.dedup();
    files.par_iter().for_each(|&f| {
        sources.get(f).bytes();
    });
}

/// The contract's text joins the file table (no speaker), so that labels
/// can point into it.
fn add_contract_file(
    sources: &mut SourceMap,
    file_speaker: &mut Vec<Option<SpeakerId>>,
    c: &Contract,
    root: &Path,
) -> FileId {
    let rel = if c.embedded || c.drafted {
        c.origin.clone()
    } else {
        crate::source::rel_path(root, Path::new(&c.origin))
    };
    file_speaker.push(None);
    sources.add(SourceFile::new(
        rel,
        PathBuf::from(&c.origin),
        None,
        c.text.clone().into_bytes(),
    ))
}

/// Whether the embedded default steps aside, for a repository that speaks
/// another protocol: no speaker builds a key with its exact prefix (a near
/// miss alone is not enough: `exq:` in a tree that never writes `emq:` is
/// another protocol, not a moved EchoMQ key). Says so in a note, and
/// gives the shipped family the tree's keys are of ([`family_of`]), if any.
fn steps_aside(
    opts: &Options,
    model: &Model,
    contract: Option<&Contract>,
    notes: &mut Vec<Note>,
) -> Option<Option<&'static str>> {
    let c =
        contract.filter(|c| c.embedded && !c.chosen && opts.contract == ContractChoice::Default)?;
    if uses_keyspace(model, c) {
        return None;
    }
    let prefix = c
        .keyspace
        .as_ref()
        .map(|k| k.prefix.as_str())
        .unwrap_or_default();
    let family = family_of(model);
    let message = match family {
        Some(f) => format!(
            "no speaker here builds a key with the `{prefix}` prefix of the embedded `{}` contract, so it steps aside; the tree's keys are of the keyspace of the shipped `{f}` contract (rules/{f}.toml), which it is checked against (to choose: --contract {f} or `contract = \"{f}\"` in wirelint.toml pins it, --contract NAME another family (`wirelint contract list`), --contract ./FILE a file, --no-contract none)",
            c.name
        ),
        None => format!(
            "no speaker here builds a key with the `{prefix}` prefix of the embedded `{}` contract, so it steps aside and only agreement between speakers is checked (to check against a contract: --contract NAME for a shipped family such as bullmq (`wirelint contract list`), --contract ./FILE for a file, or `contract = true` in wirelint.toml for the embedded one)",
            c.name
        ),
    };
    notes.push(Note {
        path: ".".into(),
        message,
    });
    Some(family)
}

/// The shipped family `name`, loaded with `wirelint.toml`'s `prefix`, its
/// text added to the file table.
fn family_contract(
    opts: &Options,
    name: &str,
    sources: &mut SourceMap,
    notes: &mut Vec<Note>,
) -> Option<(Contract, FileId)> {
    let cfg = opts.config.as_ref().ok().and_then(Option::as_ref);
    let prefix = cfg.and_then(|c| c.prefix.as_deref());
    let shipped = crate::contract::shipped::named(name)?;
    let c = match shipped.load(prefix) {
        Ok(c) => c,
        Err(e) => {
            notes.push(Note {
                path: ".".into(),
                message: format!("the shipped `{name}` contract is not applied: {e}"),
            });
            return None;
        }
    };
    let mut file_speaker = Vec::new();
    let id = add_contract_file(sources, &mut file_speaker, &c, &opts.root);
    Some((c, id))
}

/// The shipped family whose keyspace the tree's keys are of: at least two
/// distinct keys of it, and of no other family's.
fn family_of(model: &Model) -> Option<&'static str> {
    let mut found = None;
    for (name, ks) in crate::contract::shipped::family_keyspaces() {
        let mut keys = std::collections::BTreeSet::new();
        for k in &model.keys {
            if keys.len() < 2 && crate::keyshape::in_keyspace(&k.template, ks) {
                keys.insert(k.template.to_string());
            }
        }
        if keys.len() >= 2 {
            if found.is_some() {
                return None;
            }
            found = Some(*name);
        }
    }
    found
}

/// Whether some key in the model is built with the contract's exact prefix
/// (whatever else it gets wrong). A contract without a keyspace always
/// applies.
fn uses_keyspace(model: &Model, c: &Contract) -> bool {
    let Some(ks) = c.keyspace.as_ref() else {
        return true;
    };
    model
        .keys
        .iter()
        .any(|k| crate::keyshape::in_keyspace(&k.template, ks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::DEFAULT_MAX_FILE_BYTES;

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
                config: Ok(None),
                settings: Default::default(),
                buffers: Vec::new(),
                prefilter,
                tree: Some(tree.clone()),
                cache_dir: None,
                memo: None,
                speaker_prefix: None,
                session: None,
            };
            let a = analyze(&opts).unwrap();
            a.sources
                .iter()
                .filter(|(_, s)| s.lang.is_some() && !s.bytes().is_empty())
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
