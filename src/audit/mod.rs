//! `wirelint audit`: holds a live Redis or Valkey keyspace against the
//! contract, reading and never writing, and reports what no speaker can
//! use in the same diagnostic formats as `check` (`docs/audit.md`).
//!
//! - `connect.rs`: the URL, the password from the environment, TLS, unix
//!   sockets, the primaries of a cluster.
//! - `wire.rs`: the only commands sent (all reads), pipelined; replies
//!   read without panics.
//! - `keys.rs`: a live key against the keyspace (its type, queue and id,
//!   or how it misses, as a template).
//! - `node.rs`: SCAN on one node, pages handed to three workers with a
//!   connection each; `--max-keys`, the time budget.
//! - `scan.rs`, `look.rs`: the pipelines per page; fields, holders and
//!   members; `--rate`.
//! - `group.rs`: the bounded counts (groups, examples).
//! - `rules/`: one file per finding code (WA1xx keys, WA2xx fields, WA3xx
//!   queues) and the conversion of groups to [`Diagnostic`]s.
//! - `report.rs`: the command: contract, progress bar, reporters, exit
//!   code.
//! - `seed.rs`: a generator of test keyspaces (tests and the benchmark).

mod args;
pub mod conn;
pub mod connect;
pub mod group;
pub mod keys;
mod look;
mod node;
mod report;
pub mod resp;
pub mod rules;
pub mod scan;
pub mod seed;
pub mod wire;

use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use args::{run_args, Args};
pub use report::run;

use crate::contract::Contract;
use crate::diagnostic::{Diagnostic, Severity};
use crate::pipeline::ContractChoice;
use connect::Target;
use group::Tally;
use scan::{Limits, Stop};

/// Where the contract comes from.
#[derive(Debug, Clone)]
pub enum ContractSource {
    /// As `check`: the embedded one, `--contract FILE`, or `wirelint.toml`.
    Choice(ContractChoice),
    /// `--from-code PATH`: the contract the code under PATH observes.
    FromCode(PathBuf),
}

/// Everything `wirelint audit` was asked.
#[derive(Debug, Clone)]
pub struct Options {
    pub url: String,
    pub password_env: Option<String>,
    pub cluster: bool,
    pub contract: ContractSource,
    pub limits: Limits,
    /// Connect, read and write timeout.
    pub timeout: Duration,
    pub format: crate::report::Format,
    pub fail_on: Severity,
    pub exit_zero: bool,
    /// `--select`: WA codes or prefixes, replacing `wirelint.toml`'s.
    pub select: Option<Vec<String>>,
    /// `--ignore`: WA codes or prefixes, added to `wirelint.toml`'s.
    pub ignore: Vec<String>,
}

/// What one audit read.
#[derive(Debug, Clone)]
pub struct Audit {
    pub tally: Tally,
    pub stop: Stop,
    /// Whether WA301/WA302 ran (not in a cluster without hash tags).
    pub holders_checked: bool,
    pub elapsed: Duration,
}

/// An audit that could not finish: the error, and what was counted until
/// then (none when no connection was made).
#[derive(Debug, Clone)]
pub struct Failure {
    pub message: String,
    pub partial: Option<Box<Audit>>,
}

/// Runs an audit of `target` against `contract`; `hook` sees how many keys
/// were handed out after every page (the progress bar; tests use it to
/// stop the server mid-scan).
pub fn audit(
    contract: &Contract,
    target: &Target,
    limits: Limits,
    cluster: bool,
    timeout: Duration,
    hook: &mut dyn FnMut(u64),
) -> Result<Audit, Failure> {
    let started = Instant::now();
    let fail = |message: String| Failure {
        message,
        partial: None,
    };
    let ks = contract
        .keyspace
        .as_ref()
        .ok_or_else(|| fail(no_keyspace(contract)))?;
    let holders_checked = !cluster || ks.hash_tag;
    let budget_end = limits.budget.map(|b| started + b);
    let mut con = connect::connect(&target.info, timeout, budget_end)
        .map_err(|e| fail(format!("cannot connect to {}: {e}", target.shown)))?;
    let nodes = match cluster {
        true => connect::primaries(&mut con, &target.info).map_err(fail)?,
        false => vec![(target.shown.clone(), target.info.clone())],
    };
    drop(con);
    let mut tally = Tally::default();
    let mut progress = node::Progress {
        dispatched: 0,
        hook,
    };
    let mut stop = Stop::Done;
    for (name, info) in &nodes {
        let n = node::Node {
            contract,
            limits: &limits,
            cluster,
            info,
            timeout,
            started,
        };
        let at = if cluster {
            format!("primary {name}")
        } else {
            name.clone()
        };
        match node::scan_node(&n, &mut progress, &mut tally) {
            Ok(s) => stop = s,
            // A reply cut off by the time budget: the budget's stop.
            Err(e) if e.ends_with(conn::BUDGET_RAN_OUT) => stop = Stop::Budget,
            Err(e) => {
                return Err(Failure {
                    message: format!("the audit of {at} stopped mid-scan: {e}"),
                    partial: Some(Box::new(Audit {
                        tally,
                        stop: Stop::Done,
                        holders_checked,
                        elapsed: started.elapsed(),
                    })),
                })
            }
        }
        if stop != Stop::Done {
            break;
        }
    }
    Ok(Audit {
        tally,
        stop,
        holders_checked,
        elapsed: started.elapsed(),
    })
}

fn no_keyspace(c: &Contract) -> String {
    format!(
        "the contract `{}` ({}) has no [keyspace]: an audit reads keys against one",
        c.name, c.origin
    )
}

/// The audit's findings as diagnostics whose labels point into the
/// contract, file `file` of the run's source map.
pub fn findings(a: &Audit, contract: &Contract, file: crate::facts::FileId) -> Vec<Diagnostic> {
    rules::diagnostics(&a.tally, &rules::Cx { contract, file })
}

/// Sentences about the run that are not findings: what was skipped, cut
/// short or left unjudged. Deterministic (no times).
pub fn notes(a: &Audit, limits: &Limits) -> Vec<String> {
    let t = &a.tally;
    let n = |n: u64, word: &str| rules::count(n, word);
    let mut out = vec![format!(
        "read {} ({} of the contract's types, {} outside the keyspace and not judged) and {} on {}",
        n(t.keys, "key"),
        t.known,
        t.foreign,
        n(t.members, "queue member"),
        n(u64::from(t.nodes), "node"),
    )];
    match a.stop {
        Stop::MaxKeys => out.push(format!(
            "stopped at --max-keys {}: the counts are partial",
            limits.max_keys.unwrap_or_default()
        )),
        Stop::Budget => out.push("stopped at the time budget: the counts are partial".into()),
        Stop::CursorLoop => out.push(
            "stopped: the server's SCAN cursor came back to a value it had given before (a loop), not to 0: the counts are partial".into(),
        ),
        Stop::ScanCalls(n) => out.push(format!(
            "stopped after {n} SCAN calls on one node (10,000 and 10 per key DBSIZE counted) without the cursor coming back to 0: the counts are partial"
        )),
        Stop::Done => {}
    }
    if t.vanished > 0 {
        out.push(format!(
            "{} deleted or expired between SCAN and TYPE",
            n(t.vanished, "key")
        ));
    }
    if t.sampled_hashes > 0 {
        out.push(format!(
            "{} with more than {} fields read from a sample of their fields and HEXISTS for the record's fields",
            match t.sampled_hashes {
                1 => "1 hash".to_string(),
                k => format!("{k} hashes"),
            },
            limits.sample
        ));
    }
    if t.unchecked > 0 {
        out.push(format!(
            "{} not checked for a holder (WA302 reads no whole list, and needs ZMSCORE/SMISMEMBER, Redis 6.2+)",
            n(t.unchecked, "key")
        ));
    }
    if t.waiting_nowhere > 0 {
        out.push(format!(
            "{} whose state names no holder (a finished job) not checked for one: no queue should hold {}",
            match t.waiting_nowhere {
                1 => "1 row".to_string(),
                k => format!("{k} rows"),
            },
            if t.waiting_nowhere == 1 { "it" } else { "them" }
        ));
    }
    if !a.holders_checked {
        out.push("the keyspace has no hash tag, so in a cluster a key and its queue may sit on different nodes: WA301 and WA302 did not run".into());
    }
    if t.overflow > 0 {
        out.push(format!(
            "{} in groups beyond the first {} not reported",
            n(t.overflow, "key"),
            group::MAX_GROUPS
        ));
    }
    if let Some(e) = &t.first_error {
        out.push(format!(
            "{} answered with an error, the first: {e}",
            n(t.errors, "command")
        ));
    }
    out
}
