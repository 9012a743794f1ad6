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
    Rules,
    /// Print a rule's documentation.
    Explain {
        /// A rule code, such as WL201.
        code: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// miette graphical reports on stderr.
    Full,
    /// One JSON document on stdout.
    Json,
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
    /// Parse every file, even where the prefilter finds nothing to read
    /// (the output must be the same; for testing).
    #[arg(long, hide = true)]
    pub no_prefilter: bool,
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
        Command::Rules => {
            let mut s = String::new();
            for r in RULES {
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
        Command::Explain { code } => match rule(&code) {
            Some(r) => write_stdout(&r.doc()),
            None => {
                let codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "error: no rule `{code}`; rules are {}",
                    codes.join(", ")
                );
                2
            }
        },
        Command::Check(a) => check(a),
    }
}

fn check(a: CheckArgs) -> i32 {
    let paths = if a.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        a.paths.clone()
    };
    // Reports are relative to the one directory checked, else to the
    // current directory.
    let root = match paths.as_slice() {
        [p] if p.is_dir() => p.clone(),
        _ => PathBuf::from("."),
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
        prefilter: !a.no_prefilter,
    };
    let analysis = match analyze(&opts) {
        Ok(x) => x,
        Err(AnalyzeError::Contract(e)) => {
            let _ = writeln!(std::io::stderr().lock(), "{:?}", miette::Report::new(*e));
            return 2;
        }
        Err(AnalyzeError::Usage(m)) => {
            let _ = writeln!(std::io::stderr().lock(), "error: {m}");
            return 2;
        }
    };
    let fail_on = match a.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    };
    let diagnostics: Vec<_> = analysis.diagnostics.iter().collect();
    let summary = Summary::of(&analysis);
    let failing = diagnostics.iter().any(|d| d.severity >= fail_on);
    let code = if failing && !a.exit_zero { 1 } else { 0 };
    let closing = closing_line(&summary, code, fail_on);
    match a.format {
        Format::Full => {
            let text = report::human::render(&analysis, &diagnostics, report::human::want_color());
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{text}{closing}");
        }
        Format::Json => {
            let text = report::json::render(&analysis, &diagnostics, &summary);
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
