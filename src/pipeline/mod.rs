//! The pipeline, end to end, as one call: [`analyze()`].
//!
//! - [`files`]: where the files and their bytes come from (the disk, a tree
//!   held in memory such as a git revision read by [`git`], and an editor's
//!   unsaved buffers over either);
//! - [`prefilter`], `read` and `select`: which files are parsed, read in
//!   parallel and merged in path order, so output never depends on the
//!   thread count;
//! - [`mod@analyze`]: speakers, link and checks, in steps;
//! - [`post`]: what `cli` runs once on the result (settings, suppressions,
//!   the files-only scope, the baseline).
//!
//! Nothing here prints; the result is an [`Analysis`] that reporters render.

use std::path::PathBuf;

use crate::contract::{Contract, ContractError};
use crate::diagnostic::Diagnostic;
use crate::discover::Note;
use crate::facts::FileId;
use crate::link::Model;
use crate::source::SourceMap;

pub mod analyze;
pub mod cache;
pub mod files;
mod gate;
pub mod git;
pub mod names;
mod own_keys;
pub mod post;
pub mod prefilter;
mod read;
mod select;
pub mod session;

pub use analyze::{analyze, analyze_with, discover, load_contract, Discovery};

/// Files larger than this are skipped with a note.
pub const DEFAULT_MAX_FILE_BYTES: u64 = crate::input::DEFAULT_LIMIT;

/// Which contract to check against.
#[derive(Debug, Clone, PartialEq)]
pub enum ContractChoice {
    /// `wirelint.toml`'s choice if there is one, else the embedded contract.
    Default,
    File(PathBuf),
    /// A shipped contract by name (`--contract bullmq`), known or not.
    Shipped(String),
    /// A contract drafted from code (`check --upstream DIR`,
    /// `crate::views::draft`): its text, and its origin as reports name it.
    Drafted {
        text: String,
        origin: String,
    },
    None,
}

impl ContractChoice {
    /// What `--contract VALUE` chooses: a file when it is written as a
    /// path, else a shipped contract by name
    /// ([`crate::contract::shipped::is_path`]).
    pub fn named(value: &std::path::Path) -> ContractChoice {
        match value.to_str() {
            Some(name) if !crate::contract::shipped::is_path(name) => {
                ContractChoice::Shipped(name.to_string())
            }
            _ => ContractChoice::File(value.to_path_buf()),
        }
    }
}

/// `wirelint.toml` as a run's plan found it, once, at or above the root
/// (`crate::config::Config::find_limited`): the file, none, or why it
/// cannot be read (a contract error where the run needs it).
pub type FoundConfig = Result<Option<crate::config::Config>, Box<ContractError>>;

/// The plan of one run, built once by its caller (the command line, the
/// language server) and taken as it is: below it, nothing looks for
/// `wirelint.toml` again or asks git what to read (`tests/tidy.rs`).
#[derive(Debug, Clone)]
pub struct Options {
    /// Paths are reported relative to this.
    pub root: PathBuf,
    pub paths: Vec<PathBuf>,
    pub contract: ContractChoice,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    pub max_file_bytes: u64,
    /// `wirelint.toml` at the root, found when the plan was built: its
    /// contract and `prefix` choose the contract ([`load_contract`]).
    pub config: FoundConfig,
    /// `wirelint.toml`'s exclude globs and speakers (`crate::config::settings`).
    pub settings: crate::config::settings::Settings,
    /// Editors' unsaved buffers (`--stdin-filename` gives one, `wirelint
    /// server` every modified open document): each file's text (path
    /// relative to `root`, and bytes) in place of the file on disk
    /// ([`files::Buffer`]); for a path given twice, the last one.
    pub buffers: Vec<files::Buffer>,
    /// Skip parsing files of speakers that do not speak the protocol
    /// ([`prefilter`]). Off only to check that it changes nothing.
    pub prefilter: bool,
    /// A whole tree held in memory ([`files::Tree`]; `wirelint diff` reads a
    /// git revision this way). When set, the disk under `root` is never
    /// read: these are the files, and a `mix.exs` or `Cargo.toml` among them
    /// marks a project. `paths` is then ignored (the caller selects the
    /// files).
    pub tree: Option<files::Tree>,
    /// The facts cache's directory ([`cache`]); `None`: no cache. Used
    /// with the prefilter on; a tree's files use only its facts, by hash.
    pub cache_dir: Option<PathBuf>,
    /// Facts kept in memory across runs over the cache ([`cache::Memo`]):
    /// the server's, which runs again on every change.
    pub memo: Option<std::sync::Arc<cache::Memo>>,
    /// Projects are named by their directory as reports show it: this
    /// goes before their path from the root (`crate::scope::report_prefix`;
    /// `None`: named from the root, which is then `(root)`).
    pub speaker_prefix: Option<String>,
    /// The file list and the linked speakers kept across runs
    /// ([`session::Session`]): the server's.
    pub session: Option<std::sync::Arc<session::Session>>,
}

impl Options {
    /// A plain run over `paths` from `root`: one thread per core, the
    /// default file limit, the prefilter on, files from disk, no cache,
    /// no editor buffers or session. Callers change what they need.
    pub fn new(
        root: PathBuf,
        paths: Vec<PathBuf>,
        contract: ContractChoice,
        config: FoundConfig,
        settings: crate::config::settings::Settings,
    ) -> Options {
        Options {
            root,
            paths,
            contract,
            threads: None,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            config,
            settings,
            buffers: Vec::new(),
            prefilter: true,
            tree: None,
            cache_dir: None,
            memo: None,
            speaker_prefix: None,
            session: None,
        }
    }
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
    /// What the run read and parsed.
    pub stats: Stats,
}

/// What one run read and parsed (`check --read-stats`, the benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Source files listed.
    pub files: usize,
    /// Files whose bytes this run read, and how many bytes.
    pub read: usize,
    pub read_bytes: u64,
    /// Files this run parsed, and their bytes.
    pub parsed: usize,
    pub parsed_bytes: u64,
    /// Files whose facts came from the cache.
    pub cached: usize,
    /// Files whose facts the run uses (the selection).
    pub selected: usize,
    /// Files whose parse gave up on a part ([`crate::facts::FileFacts::was_cut`]):
    /// their facts depend on a budget that may be of time, so the run's
    /// results are not kept ([`cache::results`]).
    pub cut: usize,
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mb = |b: u64| b as f64 / 1e6;
        write!(
            f,
            "{} files: {} read ({:.1} MB), {} parsed ({:.1} MB), {} from the cache, {} selected",
            self.files,
            self.read,
            mb(self.read_bytes),
            self.parsed,
            mb(self.parsed_bytes),
            self.cached,
            self.selected
        )
    }
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
