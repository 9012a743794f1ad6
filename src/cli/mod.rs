//! The command line: parses arguments, runs the pipeline, picks a reporter,
//! and decides the exit code (0 clean, 1 findings at or above the failing
//! severity, 2 usage, contract or internal error).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

mod contract;
mod failure;
pub mod flags;
mod info;
mod memo;
mod plan;
mod upstream;
mod watch;

use failure::{fail, guarded, ErrorDoc};
use info::{explain, facts, rules};
use plan::{check_options, found, options};

use crate::pipeline::files;
use crate::pipeline::post::{self, Post};
use crate::pipeline::{analyze, Analysis, AnalyzeError, Options, DEFAULT_MAX_FILE_BYTES};
use crate::report::coverage::Partial;
use crate::report::diff::DiffRun;
use crate::report::error::RunError;
use crate::report::{self, closing_line, CheckRun, FailOn, Format, Output, Reporter, Summary};
use crate::views::results::Results;

#[derive(Parser, Debug)]
#[command(
    name = "wirelint",
    version,
    about = "Checks that every speaker of a Redis job-queue protocol agrees on the wire: keys, hash fields, Lua scripts and their KEYS."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check the code under PATHS (default: .) against the contract.
    Check(CheckArgs),
    /// List every rule: code, name, layer, default severity.
    Rules {
        /// List the rules of `wirelint audit` (WA codes) instead.
        #[arg(long, conflicts_with = "diff")]
        audit: bool,
        /// List the changes `wirelint diff` reports (WD codes) instead.
        #[arg(long)]
        diff: bool,
        /// List the shipped contracts (`--contract NAME`) instead.
        #[arg(long, conflicts_with_all = ["audit", "diff"])]
        contracts: bool,
    },
    /// The shipped contracts: `list` them, or `show NAME` to print one as
    /// shipped.
    Contract {
        #[command(subcommand)]
        command: contract::ContractCommand,
    },
    /// Print a rule's documentation.
    Explain {
        /// A rule's code or name, such as WL304 or keys-order.
        rule: String,
    },
    /// Print what each speaker puts on the wire: keys, records, scripts and
    /// call sites; or, with --as-contract, a contract that describes it.
    Extract(ExtractArgs),
    /// The pull-request check: every below-the-line change between the git
    /// revision REF and the work tree (keys, fields, scripts' KEYS and bytes).
    Diff(DiffArgs),
    /// Hold a live Redis or Valkey keyspace against the contract: read only
    /// (SCAN, TYPE, HKEYS...), never write (docs/audit.md).
    Audit(crate::audit::Args),
    /// A Language Server Protocol server over stdio: diagnostics for every
    /// file a change affects, as you type (docs/editors.md).
    Server,
    /// Print the raw facts extracted from one file (for debugging extractors).
    #[command(hide = true)]
    Facts { file: PathBuf },
}

/// How `check` and `diff` read files.
#[derive(clap::Args, Debug, Clone)]
pub struct ReadArgs {
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Skip files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_BYTES)]
    pub max_file_size: u64,
    /// Keep the facts cache in DIR (default: `$XDG_CACHE_HOME/wirelint`,
    /// else `~/.cache/wirelint`): unchanged files are not read or parsed
    /// again.
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the facts cache.
    #[arg(long)]
    pub no_cache: bool,
}

impl ReadArgs {
    /// The facts cache's directory for a run over `root`: the one given,
    /// unless it lies inside the tree under review (the repository that
    /// holds `root`, where a change could plant entries that hide
    /// findings: a usage error), else the default one unless it lies
    /// under `root` (wirelint never writes under the tree it scans).
    fn cache_dir(&self, root: &Path) -> Result<Option<PathBuf>, RunError> {
        if self.no_cache {
            return Ok(None);
        }
        let Some(d) = &self.cache_dir else {
            return Ok(crate::pipeline::cache::default_dir_outside(root));
        };
        let tree = crate::config::repository_of(root);
        if crate::pipeline::cache::inside(d, &tree) {
            return Err(RunError::usage(format!(
                "--cache-dir {} lies inside the tree under review ({}): a change under review could plant entries there that hide findings; name a directory outside it, or pass --no-cache",
                d.display(),
                tree.display()
            )));
        }
        Ok(Some(d.clone()))
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// Files or directories to report on; the run reads the whole project
    /// above them (the nearest directory holding wirelint.toml or .git).
    pub paths: Vec<PathBuf>,
    /// Check against this contract instead of the default: a shipped
    /// contract's name (`bullmq`), or a file written as a path (`./ours`,
    /// `ours.toml`). With --upstream, the contract the upstream's draft
    /// names its scripts' slots by.
    #[arg(long, value_name = "FILE", conflicts_with = "no_contract")]
    pub contract: Option<PathBuf>,
    /// Check agreement only: the scripts' own declarations, no contract.
    #[arg(long)]
    pub no_contract: bool,
    /// Check against the wire the code under DIR shows, with no contract
    /// shipped: DIR is read as its own project and drafted as `wirelint
    /// extract --as-contract DIR` prints it; the draft is the contract.
    #[arg(long, value_name = "DIR", conflicts_with = "no_contract")]
    pub upstream: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "full")]
    pub format: Format,
    /// The lowest severity that fails the run (exit 1).
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Always exit 0 when the check ran.
    #[arg(long)]
    pub exit_zero: bool,
    /// In a change-aware run (files alone in git, `--changed-since`), fail
    /// on the findings the base already holds too; by default they are
    /// shown, marked `(already at HEAD)`, and do not fail the run.
    #[arg(long)]
    pub fail_on_existing: bool,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub report: flags::ReportArgs,
    /// Report only findings that are not in this baseline file.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record the current findings in FILE and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Read PATH's text from stdin instead of the disk (an editor's unsaved
    /// buffer); with no PATHS, report PATH's findings and those the buffer
    /// introduces elsewhere (the base is the disk).
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    /// Report what the change since the git revision REF introduces: the
    /// findings in the changed files, and the new findings wherever they
    /// land (the base is read from git's objects, never checked out). With
    /// files alone, the base is HEAD (docs/ci.md).
    #[arg(long, value_name = "REF", conflicts_with = "stdin_filename")]
    pub changed_since: Option<String>,
    /// Also print the agreement matrix: key templates, record fields and
    /// scripts by speaker (a table on stdout, or `matrix` in the JSON).
    #[arg(long)]
    pub matrix: bool,
    /// List every script call that no KEYS check covers, with the reason,
    /// and the scripts no speaker runs (on stderr; always `coverage` in the
    /// JSON); and every note on test code (else one line says how many).
    #[arg(long)]
    pub coverage: bool,
    /// Parse every file, even where the prefilter finds nothing to read
    /// (the output must be the same; for testing).
    #[arg(long, hide = true)]
    pub no_prefilter: bool,
    /// Say on stderr, last, how many files were read, parsed and taken
    /// from the cache (for tests and benchmarks). Not `--stats`, which a
    /// user means as `--statistics` (clap suggests hidden flags too).
    #[arg(long = "read-stats", hide = true)]
    pub stats: bool,
    /// Write the safe fixes to the checked files, then report the rest (docs/fixes.md).
    #[arg(long, conflicts_with_all = ["stdin_filename", "write_baseline"])]
    pub fix: bool,
    /// With --fix or --diff, the suggestions too (they may change meaning).
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff instead (exit 1 when there is one).
    #[arg(long, conflicts_with_all = ["stdin_filename", "write_baseline"])]
    pub diff: bool,
    /// Check again each time a file under the run's root changes, until
    /// interrupted (a terminal loop; never writes).
    #[arg(long, conflicts_with_all = ["stdin_filename", "write_baseline", "fix", "diff"])]
    pub watch: bool,
}

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Files or directories to report on (default: .); both sides are read
    /// from the whole project above them.
    pub paths: Vec<PathBuf>,
    /// The git revision to compare the work tree with (a branch, tag or
    /// commit, such as origin/main).
    #[arg(long, value_name = "REF")]
    pub against: String,
    /// Read both sides against this contract instead of the default: a
    /// shipped contract's name, or a file written as a path.
    #[arg(long, value_name = "FILE", conflicts_with = "no_contract")]
    pub contract: Option<PathBuf>,
    /// No contract: script names and roles come from the code alone.
    #[arg(long)]
    pub no_contract: bool,
    #[arg(long, value_enum, default_value = "full")]
    pub format: DiffFormat,
    /// The lowest severity that fails the run (exit 1).
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Always exit 0 when the comparison ran.
    #[arg(long)]
    pub exit_zero: bool,
    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// miette graphical reports on stderr.
    Full,
    /// One line per change on stdout: `path:line:col: SEVERITY[CODE]: message (was REF:path:line)`.
    Concise,
    /// One JSON document on stdout.
    Json,
    /// GitHub Actions workflow annotations on stdout.
    Github,
    /// SARIF 2.1.0 on stdout (GitHub code scanning).
    Sarif,
    /// GitLab Code Quality JSON on stdout.
    Gitlab,
}

#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// Files or directories to read.
    pub paths: Vec<PathBuf>,
    /// `text` or `json`.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExtractFormat,
    /// Print a contract file in the `rules/` format instead.
    #[arg(long)]
    pub as_contract: bool,
    /// Read scripts' roles against this contract.
    #[arg(long, value_name = "FILE", conflicts_with = "no_contract")]
    pub contract: Option<PathBuf>,
    /// Ignore every contract.
    #[arg(long)]
    pub no_contract: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExtractFormat {
    Text,
    Json,
}

impl DiffFormat {
    /// The reporter of each format.
    fn reporter<'a>(self) -> &'a dyn Reporter<DiffRun<'a>> {
        match self {
            DiffFormat::Full => &report::diff::Full,
            DiffFormat::Concise => &report::diff::Concise,
            DiffFormat::Json => &report::diff::Json,
            DiffFormat::Github => &report::diff::Github,
            DiffFormat::Sarif => &report::diff::Sarif,
            DiffFormat::Gitlab => &report::diff::Gitlab,
        }
    }
}

/// 1 when something fails the run, unless `--exit-zero`; else 0.
fn exit_code(failing: bool, exit_zero: bool) -> i32 {
    if failing && !exit_zero {
        1
    } else {
        0
    }
}

fn run_analysis(opts: &Options) -> Result<Analysis, RunError> {
    analyze(opts).map_err(analyze_error)
}

fn analyze_error(e: AnalyzeError) -> RunError {
    match e {
        AnalyzeError::Contract(e) => RunError::contract(e),
        AnalyzeError::Usage(m) => RunError::usage(m),
    }
}

/// Says `error: {m}` on stderr; exit 2.
fn error(m: &str) -> i32 {
    fail(ErrorDoc::None, RunError::usage(m.to_string()))
}

fn extract(a: ExtractArgs) -> i32 {
    let given = match a.paths.is_empty() {
        true => vec![PathBuf::from(".")],
        false => a.paths.clone(),
    };
    // The run starts at the project above the paths, as `check`'s does
    // (`scope::root`); the paths choose what is shown.
    let (paths, reported) = match crate::scope::root::widen(&given) {
        Some((root, r)) => (vec![root], r),
        None => (given, None),
    };
    let opts = options(
        &paths,
        a.contract.as_ref(),
        a.no_contract,
        None,
        DEFAULT_MAX_FILE_BYTES,
    );
    let mut analysis = match run_analysis(&opts) {
        Ok(x) => x,
        Err(e) => return fail(ErrorDoc::None, e),
    };
    if a.as_contract {
        let name = crate::views::draft::name_of(&opts.root);
        return write_stdout(&crate::views::observe::as_contract(&analysis, &name));
    }
    let mut observed = crate::views::observe::observe(&analysis);
    if let Some(r) = &reported {
        crate::views::observe::retain_under(&mut observed, &analysis, |rel| r.holds(rel));
    }
    // Paths below the root given: shown from the current directory, as
    // `check` shows them; else relative to the folder given.
    if reported.is_some() {
        let prefix = crate::scope::report_prefix(&opts.root, false);
        crate::scope::relocate(&mut analysis, &prefix);
    }
    let text = match a.format {
        ExtractFormat::Text => report::extract::render_text(&analysis, &observed),
        ExtractFormat::Json => report::extract::render_json(&analysis, &observed),
    };
    write_stdout(&text)
}

/// Runs the command line; returns the exit code.
pub fn main_with_args(args: Vec<std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Rules {
            contracts: true, ..
        } => contract::list(),
        Command::Contract { command } => contract::run(&command),
        Command::Rules { audit, diff, .. } => rules(audit, diff),
        Command::Explain { rule } => explain(&rule),
        Command::Check(a) if a.watch => guarded(a.format.into(), || watch::run(&a)),
        Command::Check(a) => guarded(a.format.into(), || check(&a)),
        Command::Extract(a) => extract(a),
        Command::Diff(a) => guarded(a.format.into(), || diff(&a)),
        Command::Audit(a) => crate::audit::run_args(a),
        Command::Server => crate::server::run(),
        Command::Facts { file } => facts(&file),
    }
}

fn check(a: &CheckArgs) -> Result<i32, RunError> {
    if let Some(p) = &a.stdin_filename {
        stdin_target(p).map_err(RunError::usage)?;
    }
    let buffer = a
        .stdin_filename
        .as_ref()
        .map(|_| read_stdin(a.read.max_file_size))
        .transpose()?;
    let (opts, plan, reported) = check_options(a, buffer)?;
    // A run that may use the memo discovers its files first, to key it;
    // computed, it does not walk the tree again.
    let found = memo::eligible(a, &opts, plan.as_ref())
        .then(|| crate::pipeline::discover(&opts))
        .flatten();
    let memo = found.as_ref().and_then(|d| memo::key(a, &opts, d));
    if let Some(r) = memo.as_ref().and_then(memo::load) {
        let before = report::brief::baselined(r.baselined);
        return Ok(finish(a, r, &before, &opts.root, None));
    }
    let (mut analysis, only) = match &plan {
        Some(plan) => crate::scope::run(&opts, plan).map_err(analyze_error)?,
        None => (
            crate::pipeline::analyze_with(&opts, found).map_err(analyze_error)?,
            None,
        ),
    };
    let post = Post {
        settings: &opts.settings,
        only: only.as_ref(),
        reported: reported.as_ref(),
        baseline: a.baseline.as_deref(),
        max_bytes: a.read.max_file_size,
    };
    let applied = post::apply(&mut analysis, &post).map_err(RunError::usage)?;
    if let Some(path) = &a.write_baseline {
        return write_baseline(&analysis, path);
    }
    if a.fix || a.diff {
        return fix(a, &analysis, &opts);
    }
    let mut before = report::brief::baselined(applied.baselined);
    // The findings the base holds fail the run only when asked.
    let mut excused: Option<(&[bool], &str)> = None;
    if let Some(s) = only
        .as_ref()
        .filter(|s| s.base.is_some() && !s.base_name.is_empty())
    {
        crate::scope::blame_change(&mut analysis, &applied.old, &s.files);
        crate::scope::mark_old(&mut analysis, &applied.old, &s.base_name);
        if !a.fail_on_existing {
            excused = Some((&applied.old, &s.base_name));
        }
        before.push_str(&report::brief::introduced(&applied.old, &s.base_name));
        if !a.coverage && matches!(a.format, Format::Full | Format::Concise) {
            report::brief::fold_unchanged_notes(&mut analysis.notes, &s.files);
        }
    }
    // The files of the paths given, by id, before their paths move.
    let shown = reported.as_ref().map(|r| r.files(&analysis));
    // Paths as the speakers are named (`check_options`).
    crate::scope::relocate(&mut analysis, opts.speaker_prefix.as_deref().unwrap_or("."));
    let coverage = crate::views::coverage::build(&analysis, shown.as_deref());
    let results = Results {
        analysis,
        coverage,
        baselined: applied.baselined,
    };
    // A parse that gave up depends on the machine's load: not kept.
    if let Some(key) = memo.as_ref().filter(|_| results.analysis.stats.cut == 0) {
        memo::store(key, &results);
    }
    Ok(finish(a, results, &before, &opts.root, excused))
}

/// Reports a run's results: its notes as the format and `--quiet` want
/// them, the findings, the closing line; the exit code.
fn finish(
    a: &CheckArgs,
    mut r: Results,
    before: &str,
    root: &Path,
    excused: Option<(&[bool], &str)>,
) -> i32 {
    if a.report.quiet {
        r.analysis.notes.clear();
    } else if !a.coverage && matches!(a.format, Format::Full | Format::Concise) {
        report::brief::fold_test_notes(&mut r.analysis.notes);
    }
    let code = report_check(a, &r, before, root, excused);
    if a.stats {
        let _ = writeln!(
            std::io::stderr().lock(),
            "wirelint stats: {}",
            r.analysis.stats
        );
    }
    // The process ends after this, but for `--watch`: freeing an analysis
    // of many findings piece by piece only costs time (a tenth of a run of
    // 87,000).
    if !a.watch {
        std::mem::forget(r);
    }
    code
}

/// `--fix`: write the fixes and check again (exit 2 if a write failed); `--diff`: show them.
fn fix(a: &CheckArgs, analysis: &Analysis, opts: &Options) -> Result<i32, RunError> {
    let plan = crate::post::fix::plan(analysis, a.unsafe_fixes);
    let show = |rel: &str| crate::source::under(opts.speaker_prefix.as_deref().unwrap_or("."), rel);
    if a.diff {
        let (text, line) = crate::post::fix::diff(&plan, show);
        let written = write_stdout(&text);
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
        return Ok(written.max(i32::from(!text.is_empty())));
    }
    let (said, all) = crate::post::fix::apply(&plan, &opts.root, show);
    let _ = std::io::stderr().lock().write_all(said.as_bytes());
    let mut again = a.clone();
    again.fix = false;
    let code = check(&again)?;
    Ok(if all { code } else { 2 })
}

/// `--stdin-filename PATH` must name a source file, existing or not: a
/// directory or another kind of file would drop the buffer unread.
fn stdin_target(p: &Path) -> Result<(), String> {
    let shown = crate::source::display_name(p.as_os_str());
    match std::fs::metadata(p) {
        Ok(m) if !m.is_file() => Err(format!(
            "--stdin-filename {shown} is not a file ({})",
            crate::input::kind(&m)
        )),
        _ if crate::facts::Lang::from_path(p).is_none() => Err(format!(
            "--stdin-filename {shown} is not a file of a language wirelint reads ({})",
            crate::extract::lang::language_list("or")
        )),
        _ => Ok(()),
    }
}

/// `--stdin-filename`: the buffer's text, at most `max` bytes.
fn read_stdin(max: u64) -> Result<Vec<u8>, RunError> {
    crate::input::read_bounded(std::io::stdin().lock(), max, None)
        .map_err(|e| RunError::usage(format!("cannot read stdin: {e}")))
}

/// `--write-baseline FILE`: records the findings and exits 0.
fn write_baseline(analysis: &Analysis, path: &Path) -> Result<i32, RunError> {
    let n = post::write_baseline(analysis, path).map_err(RunError::usage)?;
    let _ = writeln!(
        std::io::stderr().lock(),
        "wirelint: baseline {} records {n} finding{}; exit 0",
        path.display(),
        if n == 1 { "" } else { "s" }
    );
    Ok(0)
}

/// Reports the findings in the chosen format, with the closing line; the
/// exit code.
/// `r`: the run's results (the coverage of the files of the paths given,
/// when the root lies above them); `before`: lines that go before the closing line; `root`: the run's;
/// `excused`: in a change-aware run without `--fail-on-existing`, which
/// findings the base already holds (they fail nothing) and its name.
fn report_check(
    a: &CheckArgs,
    r: &Results,
    before: &str,
    root: &Path,
    excused: Option<(&[bool], &str)>,
) -> i32 {
    let (analysis, coverage) = (&r.analysis, &r.coverage);
    let fail_on = a.fail_on.severity();
    let diagnostics: Vec<_> = analysis.diagnostics.iter().collect();
    let summary = Summary::of(analysis);
    let old = |i: usize| excused.is_some_and(|(o, _)| o.get(i) == Some(&true));
    let at_or_above =
        |(i, d): (usize, &&crate::diagnostic::Diagnostic)| d.severity >= fail_on && !old(i);
    let failing = diagnostics.iter().enumerate().any(at_or_above);
    let code = exit_code(failing, a.exit_zero);
    let partial = Partial::of(coverage, || crate::scope::root::view(root));
    let mut closing = closing_line(&summary, code, fail_on, partial.as_ref());
    let held = diagnostics
        .iter()
        .enumerate()
        .any(|(i, d)| d.severity >= fail_on && old(i));
    if let (Some((_, base)), true, false) = (excused, held, failing || a.exit_zero) {
        let was = format!("exit 0: nothing at or above {}", fail_on.as_str());
        let now = format!(
            "exit 0: the findings at or above {} were already {base} (--fail-on-existing fails on them)",
            fail_on.as_str()
        );
        closing = closing.replacen(&was, &now, 1);
    }
    if a.report.quiet {
        closing.clear();
    } else {
        closing = format!("{before}{closing}");
    }
    let matrix = a.matrix.then(|| crate::views::matrix::build(analysis));
    let run = CheckRun {
        analysis,
        diagnostics: &diagnostics,
        summary,
        matrix: matrix.as_ref(),
        coverage,
        list_coverage: a.coverage,
        quiet: a.report.quiet,
        color: a.format == Format::Full && a.report.color(),
    };
    let out = match a.format {
        _ if a.report.statistics => Output {
            stdout: Some(report::brief::statistics(&diagnostics)),
            stderr: String::new(),
        },
        Format::Full if a.report.no_show_source => report::brief::no_source(&run),
        f => f.reporter().report(&run),
    };
    match emit(out, &closing) {
        0 => code,
        written => written,
    }
}

fn diff(a: &DiffArgs) -> Result<i32, RunError> {
    let mut opts = options(
        &a.paths,
        a.contract.as_ref(),
        a.no_contract,
        a.read.threads,
        a.read.max_file_size,
    );
    files::check_paths(&opts.paths).map_err(RunError::usage)?;
    // The run starts at the project above the paths (`scope::root`).
    let mut reported = None;
    if let Some((root, r)) = crate::scope::root::widen(&opts.paths) {
        (opts.root, opts.paths, reported) = (root.clone(), vec![root], r);
        (opts.config, opts.settings) = found(&opts.root, opts.max_file_bytes);
    }
    opts.cache_dir = a.read.cache_dir(&opts.root)?;
    // Paths and speakers as `check` shows them (docs/ci.md, *Paths*).
    let prefix = crate::scope::report_prefix(
        &opts.root,
        matches!(
            a.format,
            DiffFormat::Github | DiffFormat::Sarif | DiffFormat::Gitlab
        ),
    );
    opts.speaker_prefix = Some(prefix.clone());
    opts.config.clone().map_err(RunError::contract)?;
    let rev = crate::pipeline::git::read_revision(
        &opts.root,
        &opts.paths,
        &a.against,
        opts.max_file_bytes,
    )
    .map_err(RunError::usage)?;
    let mut head = run_analysis(&opts)?;
    let base_opts = Options {
        tree: Some(rev.tree),
        ..opts
    };
    let mut base = run_analysis(&base_opts)?;
    let only = reported.map(|r| crate::scope::root::ChangeFilter::new(&r, &base, &head));
    crate::scope::relocate(&mut head, &prefix);
    crate::scope::relocate(&mut base, &prefix);
    let mut changes = crate::views::diff::compare(&base, &head, &rev.name);
    if let Some(f) = only {
        changes.retain(|c| f.keeps(c.base.as_ref(), c.head.as_ref()));
    }
    let run = DiffRun {
        base: &base,
        head: &head,
        against: &rev.name,
        commit: &rev.commit,
        changes: &changes,
        color: a.format == DiffFormat::Full && report::human::want_color(),
    };
    let fail_on = a.fail_on.severity();
    let failing = changes.iter().any(|c| c.kind().severity >= fail_on);
    let code = exit_code(failing, a.exit_zero);
    let closing = report::diff::closing_line(&run, code, fail_on);
    Ok(match emit(a.format.reporter().report(&run), &closing) {
        0 => code,
        written => written,
    })
}

/// Writes a report: its stdout document, then its stderr text and the
/// closing line. Not 0 when stdout cannot be written.
fn emit(out: Output, closing: &str) -> i32 {
    if let Some(doc) = &out.stdout {
        let written = write_stdout(doc);
        if written != 0 {
            return written;
        }
    }
    // `--quiet` has no closing line: the findings end the output.
    let newline = if closing.is_empty() { "" } else { "\n" };
    let _ = write!(std::io::stderr().lock(), "{}{closing}{newline}", out.stderr);
    0
}

/// Writes to stdout; a closed pipe (`| head`) ends quietly.
fn write_stdout(s: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => error(&format!("cannot write output: {e}")),
    }
}
