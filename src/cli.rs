//! The command line: parses arguments, runs the pipeline, picks a reporter,
//! and decides the exit code (0 clean, 1 findings at or above the failing
//! severity, 2 usage, contract or internal error).

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::analyze::{analyze, AnalyzeError, ContractChoice, Options, DEFAULT_MAX_FILE_BYTES};
use crate::checks::{rule, RULES};
use crate::diagnostic::Severity;
use crate::report::{self, closing_line, Summary};

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
        #[arg(long)]
        audit: bool,
    },
    /// Print a rule's documentation.
    Explain {
        /// A rule code, such as WL201.
        code: String,
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
    /// Print the raw facts extracted from one file (for debugging extractors).
    #[command(hide = true)]
    Facts { file: PathBuf },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// miette graphical reports on stderr.
    Full,
    /// One line per finding on stdout: `path:line:col: CODE message`.
    Concise,
    /// One JSON document on stdout.
    Json,
    /// One JSON diagnostic per line on stdout.
    JsonLines,
    /// SARIF 2.1.0 on stdout (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow annotations on stdout.
    Github,
    /// GitLab Code Quality JSON on stdout.
    Gitlab,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Files or directories to check.
    pub paths: Vec<PathBuf>,
    /// Check against this contract file instead of the default.
    #[arg(long, value_name = "FILE", conflicts_with = "no_contract")]
    pub contract: Option<PathBuf>,
    /// Check agreement only: the scripts' own declarations, no contract.
    #[arg(long)]
    pub no_contract: bool,
    #[arg(long, value_enum, default_value = "full")]
    pub format: Format,
    /// The lowest severity that fails the run (exit 1).
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Always exit 0 when the check ran.
    #[arg(long)]
    pub exit_zero: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Skip files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_BYTES)]
    pub max_file_size: u64,
    /// Report only findings that are not in this baseline file.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record the current findings in FILE and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Read PATH's text from stdin instead of the disk (an editor's unsaved
    /// buffer); with no PATHS, report only PATH's findings.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    /// Also print the agreement matrix: key templates, record fields and
    /// scripts by speaker (a table on stdout, or `matrix` in the JSON).
    #[arg(long)]
    pub matrix: bool,
    /// Parse every file, even where the prefilter finds nothing to read
    /// (the output must be the same; for testing).
    #[arg(long, hide = true)]
    pub no_prefilter: bool,
}

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Files or directories to compare (default: .).
    pub paths: Vec<PathBuf>,
    /// The git revision to compare the work tree with (a branch, tag or
    /// commit, such as origin/main).
    #[arg(long, value_name = "REF")]
    pub against: String,
    /// Read both sides against this contract file instead of the default.
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
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Skip files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_BYTES)]
    pub max_file_size: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// miette graphical reports on stderr.
    Full,
    /// One line per change on stdout: `path:line:col: CODE message (was REF:path:line)`.
    Concise,
    /// One JSON document on stdout.
    Json,
    /// GitHub Actions workflow annotations on stdout.
    Github,
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

fn options(
    paths: &[PathBuf],
    contract: Option<&PathBuf>,
    no_contract: bool,
    threads: Option<usize>,
    max: u64,
) -> Options {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    // Reports are relative to the one directory checked, else to the
    // current directory.
    let root = match paths.as_slice() {
        [p] if p.is_dir() => p.clone(),
        _ => PathBuf::from("."),
    };
    let contract = if no_contract {
        ContractChoice::None
    } else if let Some(c) = contract {
        ContractChoice::File(c.clone())
    } else {
        ContractChoice::Default
    };
    let settings = crate::config::Config::find(&root)
        .ok()
        .flatten()
        .map(|c| c.settings)
        .unwrap_or_default();
    Options {
        root,
        paths,
        contract,
        threads,
        max_file_bytes: max,
        settings,
        stdin: None,
        prefilter: true,
        tree: None,
    }
}

fn run_analysis(opts: &Options) -> Result<crate::analyze::Analysis, i32> {
    match analyze(opts) {
        Ok(x) => Ok(x),
        Err(AnalyzeError::Contract(e)) => {
            let _ = writeln!(std::io::stderr().lock(), "{:?}", miette::Report::new(*e));
            Err(2)
        }
        Err(AnalyzeError::Usage(m)) => {
            let _ = writeln!(std::io::stderr().lock(), "error: {m}");
            Err(2)
        }
    }
}

fn extract(a: ExtractArgs) -> i32 {
    let opts = options(
        &a.paths,
        a.contract.as_ref(),
        a.no_contract,
        None,
        DEFAULT_MAX_FILE_BYTES,
    );
    let analysis = match run_analysis(&opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if a.as_contract {
        let name = std::fs::canonicalize(&opts.root)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "extracted".into());
        return write_stdout(&crate::observe::as_contract(&analysis, &name));
    }
    let observed = crate::observe::observe(&analysis);
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
        Command::Rules { audit } => {
            let mut s = String::new();
            let rules = if audit {
                crate::audit::rules::RULES
            } else {
                RULES
            };
            for r in rules {
                s.push_str(&format!(
                    "{:<6} {:<20} {:<6} {:<8} {}\n",
                    r.code,
                    r.name,
                    r.layer.as_str(),
                    r.severity.as_str(),
                    r.summary
                ));
            }
            write_stdout(&s)
        }
        Command::Explain { code } => match rule(&code).or_else(|| crate::audit::rules::rule(&code))
        {
            Some(r) => write_stdout(&r.doc()),
            None => {
                let codes: Vec<&str> = RULES
                    .iter()
                    .chain(crate::audit::rules::RULES)
                    .map(|r| r.code)
                    .collect();
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "error: no rule `{code}`; rules are {}",
                    codes.join(", ")
                );
                2
            }
        },
        Command::Check(a) => check(a),
        Command::Extract(a) => extract(a),
        Command::Diff(a) => diff(a),
        Command::Audit(a) => crate::audit::run_args(a),
        Command::Facts { file } => {
            let Some(lang) = crate::facts::Lang::from_path(&file) else {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "error: not an Elixir, Rust or Lua file"
                );
                return 2;
            };
            let Ok(bytes) = std::fs::read(&file) else {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "error: cannot read {}",
                    file.display()
                );
                return 2;
            };
            let Ok(mut parsers) = crate::parse::Parsers::new() else {
                return 2;
            };
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let facts = crate::extract::extract_file(&mut parsers, lang, 0, &bytes, &stem);
            write_stdout(&format!("{facts:#?}\n"))
        }
    }
}

fn check(a: CheckArgs) -> i32 {
    let mut stdin_bytes = None;
    if a.stdin_filename.is_some() {
        let mut buf = Vec::new();
        if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf) {
            let _ = writeln!(std::io::stderr().lock(), "error: cannot read stdin: {e}");
            return 2;
        }
        stdin_bytes = Some(buf);
    }
    let paths = match (&a.stdin_filename, a.paths.is_empty()) {
        (Some(p), true) if p.is_file() => vec![p.clone()],
        (_, true) => vec![PathBuf::from(".")],
        _ => a.paths.clone(),
    };
    // Reports are relative to the one directory checked, else to the
    // current directory. Files only (pre-commit): the whole repository is
    // read, findings in the passed files are reported.
    let only = crate::scope::files_only(&paths);
    let (root, paths) = match (&only, paths.as_slice()) {
        (Some((root, _)), _) => (root.clone(), vec![root.clone()]),
        (None, [p]) if p.is_dir() => (p.clone(), paths.clone()),
        _ => (PathBuf::from("."), paths.clone()),
    };
    let settings = match crate::config::Config::find(&root) {
        Ok(c) => c.map(|c| c.settings).unwrap_or_default(),
        Err(e) => {
            let _ = writeln!(std::io::stderr().lock(), "{:?}", miette::Report::new(*e));
            return 2;
        }
    };
    let contract = if a.no_contract {
        ContractChoice::None
    } else if let Some(c) = &a.contract {
        ContractChoice::File(c.clone())
    } else {
        ContractChoice::Default
    };
    let opts = Options {
        root,
        paths,
        contract,
        threads: a.threads,
        max_file_bytes: a.max_file_size,
        settings: settings.clone(),
        stdin: None,
        prefilter: !a.no_prefilter,
        tree: None,
    };
    let mut opts = opts;
    if let (Some(p), Some(bytes)) = (&a.stdin_filename, stdin_bytes) {
        let abs = std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.clone());
        let root_abs = std::fs::canonicalize(&opts.root).unwrap_or_else(|_| opts.root.clone());
        let parent = abs
            .parent()
            .and_then(|d| std::fs::canonicalize(d).ok())
            .map(|d| d.join(abs.file_name().unwrap_or_default()))
            .unwrap_or(abs);
        let rel = crate::discover::rel_path(&root_abs, &parent);
        opts.stdin = Some((rel, bytes));
    }
    let mut analysis = match run_analysis(&opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    settings.apply(&mut analysis.diagnostics);
    crate::suppress::apply(&mut analysis, &settings);
    if let Some((_, Some(files))) = &only {
        let sources = &analysis.sources;
        analysis
            .diagnostics
            .retain(|d| files.contains(&sources.get(d.primary.span.file).rel));
    }
    if let Some(path) = &a.write_baseline {
        let all: Vec<_> = analysis.diagnostics.iter().collect();
        let b = crate::baseline::Baseline::of(&analysis.sources, &all);
        if let Err(e) = std::fs::write(path, b.to_json()) {
            let _ = writeln!(
                std::io::stderr().lock(),
                "error: cannot write baseline {}: {e}",
                path.display()
            );
            return 2;
        }
        let _ = writeln!(
            std::io::stderr().lock(),
            "wirelint: baseline {} records {} finding{}; exit 0",
            path.display(),
            all.len(),
            if all.len() == 1 { "" } else { "s" }
        );
        return 0;
    }
    let mut baselined = 0;
    if let Some(path) = &a.baseline {
        let b = match crate::baseline::Baseline::read(path) {
            Ok(b) => b,
            Err(m) => {
                let _ = writeln!(std::io::stderr().lock(), "error: {m}");
                return 2;
            }
        };
        let all: Vec<_> = analysis.diagnostics.iter().collect();
        let new = b.new_findings(&analysis.sources, &all);
        let mut it = new.iter();
        analysis.diagnostics.retain(|_| *it.next().unwrap_or(&true));
        baselined = new.iter().filter(|n| !**n).count();
    }
    let fail_on = match a.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    };
    let diagnostics: Vec<_> = analysis.diagnostics.iter().collect();
    let summary = Summary::of(&analysis);
    let failing = diagnostics.iter().any(|d| d.severity >= fail_on);
    let code = if failing && !a.exit_zero { 1 } else { 0 };
    let mut closing = closing_line(&summary, code, fail_on);
    if baselined > 0 {
        closing = format!(
            "wirelint: {baselined} finding{} in the baseline not reported\n{closing}",
            if baselined == 1 { "" } else { "s" }
        );
    }
    let matrix = a.matrix.then(|| crate::matrix::build(&analysis));
    match a.format {
        Format::Full => {
            if let Some(m) = &matrix {
                let written = write_stdout(&report::matrix::render_text(m));
                if written != 0 {
                    return written;
                }
            }
            let text = report::human::render(&analysis, &diagnostics, report::human::want_color());
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{text}{closing}");
        }
        machine => {
            let text = match machine {
                Format::Concise => report::concise::render(&analysis, &diagnostics),
                Format::JsonLines => report::jsonl::render(&analysis, &diagnostics),
                Format::Sarif => report::sarif::render(&analysis, &diagnostics),
                Format::Github => report::github::render(&analysis, &diagnostics),
                Format::Gitlab => report::gitlab::render(&analysis, &diagnostics),
                _ => report::json::render_with(
                    &analysis,
                    &diagnostics,
                    &summary,
                    matrix.as_ref().map(report::matrix::to_json),
                ),
            };
            let written = write_stdout(&text);
            if written != 0 {
                return written;
            }
            let _ = writeln!(std::io::stderr().lock(), "{closing}");
        }
    }
    code
}

fn diff(a: DiffArgs) -> i32 {
    let mut opts = options(
        &a.paths,
        a.contract.as_ref(),
        a.no_contract,
        a.threads,
        a.max_file_size,
    );
    for p in &opts.paths {
        if std::fs::symlink_metadata(p).is_err() {
            let _ = writeln!(
                std::io::stderr().lock(),
                "error: path does not exist: {}",
                p.display()
            );
            return 2;
        }
    }
    if let Err(e) = crate::config::Config::find(&opts.root) {
        let _ = writeln!(std::io::stderr().lock(), "{:?}", miette::Report::new(*e));
        return 2;
    }
    let rev = match crate::diff::read_revision(&opts.root, &opts.paths, &a.against) {
        Ok(r) => r,
        Err(m) => {
            let _ = writeln!(std::io::stderr().lock(), "error: {m}");
            return 2;
        }
    };
    let head = match run_analysis(&opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    opts.tree = Some(rev.tree);
    let base = match run_analysis(&opts) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let changes = crate::diff::compare(&base, &head);
    let run = report::diff::DiffRun {
        base: &base,
        head: &head,
        against: &rev.name,
        commit: &rev.commit,
        changes: &changes,
    };
    let fail_on = match a.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    };
    let failing = changes.iter().any(|c| c.kind().severity >= fail_on);
    let code = if failing && !a.exit_zero { 1 } else { 0 };
    let closing = report::diff::closing_line(&run, code, fail_on);
    match a.format {
        DiffFormat::Full => {
            let text = report::diff::render_human(&run, report::human::want_color());
            let _ = writeln!(std::io::stderr().lock(), "{text}{closing}");
        }
        machine => {
            let text = match machine {
                DiffFormat::Concise => report::diff::render_concise(&run),
                DiffFormat::Github => report::diff::render_github(&run),
                _ => report::diff::render_json(&run),
            };
            let written = write_stdout(&text);
            if written != 0 {
                return written;
            }
            let _ = writeln!(std::io::stderr().lock(), "{closing}");
        }
    }
    code
}

/// Writes to stdout; a closed pipe (`| head`) ends quietly.
fn write_stdout(s: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            let _ = writeln!(std::io::stderr().lock(), "error: cannot write output: {e}");
            2
        }
    }
}
