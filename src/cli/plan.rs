//! A run's plan, built once here before anything is read: its root and
//! paths, `wirelint.toml` found at the root once, and for a change-aware
//! `check` the plan with git's answers (`crate::scope::plan`). The
//! pipeline takes them as they are (`tests/tidy.rs`,
//! `nothing_below_the_plan_reads_the_config_or_asks_git`).

use std::path::{Path, PathBuf};

use crate::config::{settings::Settings, Config};
use crate::pipeline::files::buffer_rel;
use crate::pipeline::{ContractChoice, FoundConfig, Options};
use crate::report::error::RunError;
use crate::report::Format;

use super::CheckArgs;

pub(super) fn contract_choice(contract: Option<&PathBuf>, no_contract: bool) -> ContractChoice {
    if no_contract {
        ContractChoice::None
    } else if let Some(c) = contract {
        ContractChoice::named(c)
    } else {
        ContractChoice::Default
    }
}

/// The options of `extract` and `diff`: PATHS (default `.`), reported
/// relative to the one directory given, else to the current directory.
pub(super) fn options(
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
    let root = match paths.as_slice() {
        [p] if p.is_dir() => p.clone(),
        _ => PathBuf::from("."),
    };
    let (config, settings) = found(&root, max);
    let contract = contract_choice(contract, no_contract);
    Options {
        threads,
        max_file_bytes: max,
        ..Options::new(root, paths, contract, config, settings)
    }
}

/// `wirelint.toml`, found once at a plan's root, and the settings it
/// gives (none where it cannot be read: the run says why, when it needs
/// the file).
pub(super) fn found(root: &Path, max: u64) -> (FoundConfig, Settings) {
    let config = Config::find_limited(root, max);
    let settings = match &config {
        Ok(Some(c)) => c.settings.clone(),
        _ => Settings::default(),
    };
    (config, settings)
}

/// The options of `check`, its change-aware plan and what it reports.
pub(super) type CheckPlan = (
    Options,
    Option<crate::scope::Plan>,
    Option<crate::scope::root::Reported>,
);

/// The options of `check`, and its change-aware plan (`crate::scope`):
/// files alone (pre-commit), `--changed-since REF`, or an editor's buffer
/// with no PATHS. Files alone are read in the git repository that holds
/// them; other paths from the project above them (`scope::root`), else
/// from the one directory checked, else from the current directory.
pub(super) fn check_options(a: &CheckArgs, buffer: Option<Vec<u8>>) -> Result<CheckPlan, RunError> {
    let paths = if a.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        a.paths.clone()
    };
    let buffer_alone = a.stdin_filename.as_ref().filter(|_| a.paths.is_empty());
    let only = match buffer_alone {
        Some(_) => None,
        None => crate::scope::files_only(&paths).map_err(RunError::usage)?,
    };
    // Other paths: the run starts at the project above them, and they
    // choose what is reported (`scope::root`).
    let widened = match (&only, buffer_alone) {
        (None, None) => crate::scope::root::widen(&paths),
        _ => None,
    };
    let (root, paths) = match (&only, buffer_alone, &widened, paths.as_slice()) {
        (Some(f), ..) => (f.root.clone(), vec![f.root.clone()]),
        (None, Some(p), ..) => {
            let root = crate::scope::stdin_root(p);
            (root.clone(), vec![root])
        }
        (None, None, Some((r, _)), _) => (r.clone(), vec![r.clone()]),
        (None, None, None, [p]) if p.is_dir() => (p.clone(), paths.clone()),
        _ => (PathBuf::from("."), paths.clone()),
    };
    let reported = widened.and_then(|(_, r)| r);
    let config = Config::find_limited(&root, a.read.max_file_size);
    let settings = config
        .clone()
        .map_err(RunError::contract)?
        .map(|c| c.settings)
        .unwrap_or_default();
    let settings = a.report.settings(settings).map_err(RunError::usage)?;
    let buffers = match (&a.stdin_filename, buffer) {
        (Some(p), Some(bytes)) => vec![(buffer_rel(&root, p), bytes)],
        _ => Vec::new(),
    };
    // An editor's buffer is compared with the disk only when it comes alone.
    let buffer_rel = buffers
        .first()
        .filter(|_| buffer_alone.is_some())
        .map(|(rel, _)| rel.clone());
    let opts = Options {
        root,
        paths,
        contract: match &a.upstream {
            Some(dir) => super::upstream::choice(dir, a.contract.as_ref(), a.read.max_file_size)?,
            None => contract_choice(a.contract.as_ref(), a.no_contract),
        },
        threads: a.read.threads,
        max_file_bytes: a.read.max_file_size,
        config,
        settings,
        buffers,
        prefilter: !a.no_prefilter,
        tree: None,
        cache_dir: None,
        memo: None,
        speaker_prefix: None,
        session: None,
    };
    let repo_relative = matches!(a.format, Format::Sarif | Format::Github | Format::Gitlab);
    let opts = Options {
        cache_dir: a.read.cache_dir(&opts.root)?,
        speaker_prefix: Some(crate::scope::report_prefix(&opts.root, repo_relative)),
        ..opts
    };
    let plan = crate::scope::plan(only, a.changed_since.as_ref(), buffer_rel, &opts.root)
        .map_err(RunError::usage)?;
    Ok((opts, plan, reported))
}
