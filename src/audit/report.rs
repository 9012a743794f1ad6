//! The `wirelint audit` command: reads the contract, runs the audit with a
//! progress bar (on a terminal, in the human format), prints the findings
//! through the same reporters as `check`, and picks the exit code: 0
//! clean, 1 findings at or above `--fail-on`, 2 a usage, contract or
//! connection error (with the partial counts when the server went away).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::{audit, connect, findings, notes, Audit, ContractSource, Failure, Options};
use crate::config::settings::{Settings, Tool};
use crate::config::Config;
use crate::contract::Contract;
use crate::diagnostic::Severity;
use crate::discover::Note;
use crate::pipeline::{load_contract, Analysis, AnalyzeError, ContractChoice};
use crate::report::Format;
use crate::report::{self, Summary};
use crate::source::{SourceFile, SourceMap};

fn error(message: &str) -> i32 {
    // A message may hold the server's words: no control character goes
    // out (a newline could start a workflow command, an escape drive the
    // terminal).
    let message = crate::report::escape::text(message);
    let _ = writeln!(std::io::stderr().lock(), "error: {message}");
    2
}

/// Runs `wirelint audit`; returns the exit code.
pub fn run(opts: &Options) -> i32 {
    let env = |k: &str| std::env::var(k).ok();
    let target = match connect::target(&opts.url, opts.password_env.as_deref(), &env) {
        Ok(t) => t,
        Err(m) => return error(&m),
    };
    let settings = match settings(opts) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let contract = match load(&opts.contract) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let bar = progress_bar(opts, &target);
    let mut hook = |keys: u64| {
        if let Some(b) = &bar {
            b.set_position(keys);
        }
    };
    let result = audit(
        &contract,
        &target,
        opts.limits.clone(),
        opts.cluster,
        opts.timeout,
        &mut hook,
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let (audited, failure) = match result {
        Ok(a) => (a, None),
        Err(Failure {
            message,
            partial: Some(a),
        }) => (*a, Some(message)),
        Err(Failure {
            message,
            partial: None,
        }) => return error(&message),
    };
    let run = Run {
        opts,
        shown: &target.shown,
        settings: &settings,
    };
    print(&run, contract, &audited, failure.as_deref())
}

/// What [`print`] reports by: the options, the server as shown, the rules
/// chosen.
struct Run<'a> {
    opts: &'a Options,
    shown: &'a str,
    settings: &'a Settings,
}

/// `wirelint.toml`'s `select` and `ignore` (the file `check` would read in
/// the current directory, where the contract is looked for too) with
/// `--select` and `--ignore`. Errors are printed; the `Err` is the exit
/// code.
fn settings(opts: &Options) -> Result<Settings, i32> {
    let found = match Config::find_limited(Path::new("."), crate::input::DEFAULT_LIMIT) {
        Ok(c) => c,
        Err(e) => {
            let text = crate::report::error::RunError::contract(e).text();
            let _ = write!(std::io::stderr().lock(), "{text}");
            return Err(2);
        }
    };
    found
        .map(|c| c.settings)
        .unwrap_or_default()
        .with_command_line(opts.select.as_deref(), &opts.ignore, Tool::Audit)
        .map_err(|m| error(&m))
}

/// The contract `check` would use, or the one the code under a path
/// observes. Errors are printed; the `Err` is the exit code.
fn load(source: &ContractSource) -> Result<Contract, i32> {
    let loaded = match source {
        ContractSource::Choice(choice) => {
            let config = crate::config::Config::find(Path::new("."));
            load_contract(choice, &config, crate::input::DEFAULT_LIMIT)
        }
        ContractSource::FromCode(path) => from_code(path).map(Some),
    };
    match loaded {
        Ok(Some(c)) => Ok(c),
        Ok(None) => Err(error(
            "no contract (wirelint.toml says `contract = false`); an audit needs one: pass --contract FILE or --from-code PATH",
        )),
        Err(AnalyzeError::Contract(e)) => {
            let _ = writeln!(std::io::stderr().lock(), "{:?}", miette::Report::new(*e));
            Err(2)
        }
        Err(AnalyzeError::Usage(m)) => Err(error(&m)),
    }
}

/// `--from-code PATH`: the contract `wirelint extract --as-contract PATH`
/// prints (`views::draft`), with PATH's own `wirelint.toml`.
fn from_code(path: &Path) -> Result<Contract, AnalyzeError> {
    let origin = format!("{} (observed contract)", path.display());
    let config = crate::config::Config::find(path);
    let draft = crate::views::draft::of_code(path, ContractChoice::Default, config)?;
    Ok(draft.compile(&origin)?)
}

/// A bar on stderr, only on a terminal and in the human format; its length
/// is `DBSIZE` (one server) or unknown (a cluster).
fn progress_bar(opts: &Options, target: &connect::Target) -> Option<indicatif::ProgressBar> {
    if opts.format != Format::Full || !std::io::stderr().is_terminal() {
        return None;
    }
    let len = (!opts.cluster)
        .then(|| connect::connect(&target.info, opts.timeout, None).ok())
        .flatten()
        .and_then(|mut c| super::wire::one(&mut c, super::wire::Read::Dbsize, &[]).ok())
        .and_then(|v| super::wire::int(&v))
        .map(|n| {
            let n = n.max(0) as u64;
            opts.limits.max_keys.map_or(n, |m| m.min(n))
        });
    let bar =
        indicatif::ProgressBar::with_draw_target(len, indicatif::ProgressDrawTarget::stderr());
    // The rate in whole keys a second (indicatif's `{per_sec}` has four
    // decimals).
    let template = if len.is_some() {
        "{bar:40} {pos}/{len} keys ({rate}, {eta} left)"
    } else {
        "{spinner} {pos} keys ({rate})"
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        let style = style.with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(s.per_sec()));
            },
        );
        bar.set_style(style);
    }
    Some(bar)
}

/// A progress rate as the bar shows it: whole keys a second.
fn rate(per_sec: f64) -> String {
    format!("{:.0} keys/s", per_sec.max(0.0))
}

/// Prints the findings and the closing line; returns the exit code.
fn print(run: &Run, contract: Contract, audited: &Audit, failure: Option<&str>) -> i32 {
    let (opts, shown) = (run.opts, run.shown);
    let mut sources = SourceMap::default();
    let file = sources.add(SourceFile::new(
        contract.origin.clone(),
        PathBuf::from(&contract.origin),
        None,
        contract.text.clone().into_bytes(),
    ));
    let mut diagnostics = findings(audited, &contract, file);
    run.settings.apply(&mut diagnostics);
    let notes = notes(audited, &opts.limits)
        .into_iter()
        .map(|message| Note {
            path: shown.to_string(),
            message,
        })
        .collect();
    let analysis = Analysis {
        sources,
        model: Default::default(),
        diagnostics,
        notes,
        contract: Some(contract),
        contract_file: Some(file),
        files_checked: 0,
        stats: Default::default(),
    };
    let diags: Vec<_> = analysis.diagnostics.iter().collect();
    let summary = Summary::of(&analysis);
    let failing = diags.iter().any(|d| d.severity >= opts.fail_on);
    let code = match failure {
        Some(_) => 2,
        None if failing && !opts.exit_zero => 1,
        None => 0,
    };
    let closing = closing_line(&summary, audited, code, opts.fail_on);
    let text = match opts.format {
        Format::Full => {
            let mut err = std::io::stderr().lock();
            let rendered = report::human::render(&analysis, &diags, report::human::want_color());
            let _ = write!(err, "{rendered}");
            let t = &audited.tally;
            let secs = audited.elapsed.as_secs_f64();
            let _ = writeln!(
                err,
                "wirelint audit: {} keys and {} members in {secs:.2} s ({:.0} keys/s)",
                t.keys,
                t.members,
                t.keys as f64 / secs.max(1e-9)
            );
            None
        }
        Format::Concise => Some(report::concise::render(&analysis, &diags)),
        Format::JsonLines => Some(report::jsonl::render(&analysis, &diags)),
        Format::Sarif => Some(report::sarif::render_with_rules(
            &analysis,
            &diags,
            super::rules::RULES,
        )),
        Format::Github => Some(report::github::render(&analysis, &diags)),
        Format::Gitlab => Some(report::gitlab::render(&analysis, &diags)),
        Format::Json => Some(report::json::render(&analysis, &diags, &summary)),
    };
    if let Some(text) = text {
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return error(&format!("cannot write output: {e}"));
            }
        }
    }
    let mut err = std::io::stderr().lock();
    if let Some(m) = failure {
        let m = crate::report::escape::text(m);
        let _ = writeln!(err, "error: {m}; the counts above are partial");
    }
    let _ = writeln!(err, "{closing}");
    code
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `wirelint audit: 2 errors, 1 warning in 1030 keys; exit 1: …`.
fn closing_line(s: &Summary, a: &Audit, code: i32, fail_on: Severity) -> String {
    let counts = format!(
        "{}, {} in {}",
        plural(s.errors as u64, "error"),
        plural(s.warnings as u64, "warning"),
        plural(a.tally.keys, "key")
    );
    let reason = match code {
        0 if s.errors + s.warnings == 0 => "exit 0: clean".to_string(),
        0 => format!("exit 0: nothing at or above {}", fail_on.as_str()),
        1 => format!("exit 1: findings at or above {}", fail_on.as_str()),
        _ => "exit 2: the audit did not finish".to_string(),
    };
    format!("wirelint audit: {counts}; {reason}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rate_is_in_whole_keys() {
        assert_eq!(super::rate(1234.5678), "1235 keys/s");
        assert_eq!(super::rate(0.25), "0 keys/s");
    }
}
