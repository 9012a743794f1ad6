//! `check`'s use of the results memo (`crate::pipeline::cache::results`):
//! which runs may use one, and the digest of every option and setting of
//! a run that can change its results. The files are the memo's to key.
//!
//! Keyed: the build and version, the current directory, the paths given
//! and the run's root and paths, the contract chosen (a file's bytes, a
//! shipped contract's name), `wirelint.toml`'s path and text and the bytes
//! of the contract file it names, `--select` and `--ignore`, the
//! baseline's path and bytes, `--max-file-size`, `--threads` and the
//! cores, and the prefix speakers and paths are shown under.
//!
//! Not used (the run computes as ever) where an input cannot be keyed
//! with certainty or the run does more than report: `--no-cache`, an
//! editor's buffer (`--stdin-filename`), a change-aware run (files alone,
//! `--changed-since`: git's answers), `--upstream`, `--fix`, `--diff`,
//! `--write-baseline`, `--watch`, `--matrix`, `--read-stats` (it says
//! what the run read) and `--no-prefilter`.
//!
//! `WIRELINT_MEMO_TRACE` set: a line on stderr says whether the memo was
//! used (`wirelint memo: hit`, `miss`, `stored`), for tests.

use std::io::Write;
use std::path::Path;

use sha1::{Digest, Sha1};

use crate::pipeline::cache::results::{self, part, ResultsKey};
use crate::pipeline::{ContractChoice, Discovery, Options};
use crate::views::results::Results;

use super::CheckArgs;

/// Whether this run may use the memo.
pub(super) fn eligible(a: &CheckArgs, opts: &Options, plan: Option<&crate::scope::Plan>) -> bool {
    plan.is_none()
        && opts.cache_dir.is_some()
        && a.stdin_filename.is_none()
        && a.changed_since.is_none()
        && a.upstream.is_none()
        && a.write_baseline.is_none()
        && !(a.fix || a.diff || a.watch || a.matrix || a.stats || a.no_prefilter)
}

/// The memo's key for this run (one that may use it, [`eligible`]),
/// whose discovery found `found`.
pub(super) fn key(a: &CheckArgs, opts: &Options, found: &Discovery) -> Option<ResultsKey> {
    results::key(opts, &options_digest(a, opts)?, found)
}

/// Every option and setting of the run that can change its results.
fn options_digest(a: &CheckArgs, opts: &Options) -> Option<[u8; 20]> {
    let limit = a.read.max_file_size;
    let mut h = Sha1::new();
    part(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
    part(&mut h, env!("WIRELINT_BUILD_ID").as_bytes());
    let cwd = std::fs::canonicalize(std::env::current_dir().ok()?).ok()?;
    part(&mut h, cwd.as_os_str().as_encoded_bytes());
    part(&mut h, &(a.paths.len() as u64).to_le_bytes());
    for p in &a.paths {
        part(&mut h, p.as_os_str().as_encoded_bytes());
    }
    part(&mut h, opts.root.as_os_str().as_encoded_bytes());
    part(&mut h, &(opts.paths.len() as u64).to_le_bytes());
    for p in &opts.paths {
        part(&mut h, p.as_os_str().as_encoded_bytes());
    }
    match &opts.contract {
        ContractChoice::Default => part(&mut h, b"default"),
        ContractChoice::None => part(&mut h, b"none"),
        ContractChoice::Shipped(name) => {
            part(&mut h, b"shipped");
            part(&mut h, name.as_bytes());
        }
        ContractChoice::File(p) => {
            part(&mut h, b"file");
            file(&mut h, p, limit)?;
        }
        ContractChoice::Drafted { .. } => return None,
    }
    match opts.config.as_ref().ok()? {
        None => part(&mut h, b"no config"),
        Some(c) => {
            part(&mut h, c.path.as_os_str().as_encoded_bytes());
            part(&mut h, c.text.as_bytes());
            match c.contract_path().ok()? {
                Some(p) => file(&mut h, p, limit)?,
                None => part(&mut h, b"no contract file"),
            }
        }
    }
    match &a.report.select {
        None => part(&mut h, b"no select"),
        Some(codes) => {
            part(&mut h, &(codes.len() as u64).to_le_bytes());
            for c in codes {
                part(&mut h, c.as_bytes());
            }
        }
    }
    part(&mut h, &(a.report.ignore.len() as u64).to_le_bytes());
    for c in &a.report.ignore {
        part(&mut h, c.as_bytes());
    }
    match &a.baseline {
        None => part(&mut h, b"no baseline"),
        Some(p) => file(&mut h, p, limit)?,
    }
    part(&mut h, &limit.to_le_bytes());
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    part(
        &mut h,
        &(a.read.threads.map_or(0, |n| n as u64 + 1)).to_le_bytes(),
    );
    part(&mut h, &(cores as u64).to_le_bytes());
    part(
        &mut h,
        opts.speaker_prefix.as_deref().unwrap_or(".").as_bytes(),
    );
    Some(h.finalize().into())
}

/// A file's path and bytes; `None` when it cannot be read whole.
fn file(h: &mut Sha1, p: &Path, limit: u64) -> Option<()> {
    part(h, p.as_os_str().as_encoded_bytes());
    let bytes = crate::input::read_file(p, crate::input::Links::Follow, limit).ok()?;
    part(h, &bytes);
    Some(())
}

/// The results stored for this run, if any.
pub(super) fn load(key: &ResultsKey) -> Option<Results> {
    let found = key.load().and_then(|b| crate::views::results::decode(&b));
    trace(if found.is_some() { "hit" } else { "miss" });
    found
}

/// Keeps this run's results for the next.
pub(super) fn store(key: &ResultsKey, r: &Results) {
    if let Some(bytes) = crate::views::results::encode(r) {
        key.store(&bytes);
        trace("stored");
    }
}

fn trace(what: &str) {
    if std::env::var_os("WIRELINT_MEMO_TRACE").is_some() {
        let _ = writeln!(std::io::stderr().lock(), "wirelint memo: {what}");
    }
}
