//! One node's scan: this thread runs `SCAN … MATCH … COUNT` and hands each
//! page of keys to workers, each with a connection of its own, that read
//! the page (`scan.rs`). Three workers keep the server busy while the
//! others read their replies; with `--rate`, one (the pace is then the
//! point).
//! Their counts are merged at the end, so the result does not depend on
//! which worker read which page.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use redis::ConnectionInfo;

use super::connect;
use super::group::Tally;
use super::scan::{lost, over, Limits, ScanResult, Scanner, Stop};
use super::wire::{self, bytes, cursor_page, Read};
use crate::contract::Contract;

/// What scanning a node needs.
pub struct Node<'a> {
    pub contract: &'a Contract,
    pub limits: &'a Limits,
    pub cluster: bool,
    pub info: &'a ConnectionInfo,
    pub timeout: Duration,
    pub started: Instant,
}

impl Node<'_> {
    /// When the time budget runs out, if there is one.
    pub fn budget_end(&self) -> Option<Instant> {
        self.limits.budget.map(|b| self.started + b)
    }
}

/// The most `SCAN` calls on one node: [`SCAN_CALLS_BASE`] and
/// [`SCAN_CALLS_PER_KEY`] per key `DBSIZE` counted when the scan started,
/// at most [`MAX_SCAN_CALLS`]. A server whose cursor never comes back to 0
/// (nor to a cursor it gave before, which stops the scan at once) is
/// stopped there, whatever `--max-keys` and `--time-budget` say. A full
/// scan makes about one call per `COUNT` keys, or per 10 × `COUNT` empty
/// slots of the server's table.
pub fn scan_calls(dbsize: u64) -> u64 {
    dbsize
        .saturating_mul(SCAN_CALLS_PER_KEY)
        .saturating_add(SCAN_CALLS_BASE)
        .min(MAX_SCAN_CALLS)
}

pub const SCAN_CALLS_BASE: u64 = 10_000;
pub const SCAN_CALLS_PER_KEY: u64 = 10;
pub const MAX_SCAN_CALLS: u64 = 100_000_000;

/// Keys handed out so far (over every node): for `--max-keys` and the
/// progress hook.
pub struct Progress<'h> {
    pub dispatched: u64,
    pub hook: &'h mut dyn FnMut(u64),
}

/// Pages of keys for the workers.
type Pages = Arc<Mutex<Receiver<Vec<Vec<u8>>>>>;

/// Scans one node into `tally`. On an error, `tally` holds what the
/// workers counted until then.
pub fn scan_node(node: &Node, progress: &mut Progress, tally: &mut Tally) -> ScanResult<Stop> {
    let workers = if node.limits.rate.is_some() { 1 } else { 3 };
    let failed = AtomicBool::new(false);
    let (tx, rx) = sync_channel::<Vec<Vec<u8>>>(workers);
    let pages: Pages = Arc::new(Mutex::new(rx));
    // Every worker is connected (or has failed to) before the first page
    // goes out: a page handed out is then a page counted, whatever happens
    // to the server afterwards.
    let ready = Barrier::new(workers + 1);
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let pages = Arc::clone(&pages);
                let failed = &failed;
                let ready = &ready;
                sc.spawn(move || work(node, &pages, failed, ready))
            })
            .collect();
        // Only the workers hold the pages now: when the last one stops,
        // sending fails instead of waiting for a reader that is gone.
        drop(pages);
        ready.wait();
        let sent = dispatch(node, progress, &failed, |page| tx.send(page).is_ok());
        drop(tx);
        let mut error = sent.as_ref().err().cloned();
        for h in handles {
            let (t, r) = h
                .join()
                .unwrap_or_else(|_| (Tally::default(), Err("a worker panicked".into())));
            tally.merge(t);
            if let Err(e) = r {
                error.get_or_insert(e);
            }
        }
        tally.nodes += 1;
        match error {
            Some(e) => Err(e),
            None => sent,
        }
    })
}

/// A worker: reads pages until there are none or one of them failed.
fn work(
    node: &Node,
    pages: &Pages,
    failed: &AtomicBool,
    ready: &Barrier,
) -> (Tally, ScanResult<()>) {
    let Some(mut scanner) = Scanner::new(
        node.contract,
        node.limits.clone(),
        node.cluster,
        node.started,
    ) else {
        ready.wait();
        return (Tally::default(), Ok(()));
    };
    let connected = connect::connect(node.info, node.timeout, node.budget_end())
        .map_err(lost)
        .and_then(|mut con| scanner.probe(&mut con).map(|()| con));
    ready.wait();
    let result = (|| {
        let mut con = connected?;
        loop {
            let page = match pages.lock() {
                Ok(rx) => rx.recv(),
                Err(_) => return Ok(()),
            };
            let Ok(page) = page else {
                return Ok(());
            };
            if failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            let keys: Vec<&[u8]> = page.iter().map(Vec::as_slice).collect();
            scanner.page(&mut con, &keys)?;
        }
    })();
    if result.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    (scanner.tally, result)
}

/// The `SCAN` loop: hands out pages until the cursor comes back to 0,
/// `--max-keys` or the time budget is reached, or a worker failed.
fn dispatch(
    node: &Node,
    progress: &mut Progress,
    failed: &AtomicBool,
    mut send: impl FnMut(Vec<Vec<u8>>) -> bool,
) -> ScanResult<Stop> {
    let mut con = connect::connect(node.info, node.timeout, node.budget_end()).map_err(lost)?;
    let count = node.limits.count.max(1).to_string();
    let pattern = node.limits.pattern.as_bytes();
    let mut cursor = b"0".to_vec();
    let mut seen = std::collections::HashSet::new();
    let dbsize = wire::one(&mut con, Read::Dbsize, &[])
        .ok()
        .and_then(|v| wire::int(&v))
        .unwrap_or(0);
    let calls = scan_calls(dbsize.max(0) as u64);
    for _ in 0..calls {
        let args: [&[u8]; 5] = [&cursor, b"MATCH", pattern, b"COUNT", count.as_bytes()];
        let v = wire::one(&mut con, Read::Scan, &args).map_err(lost)?;
        let (next, page) =
            cursor_page(&v).ok_or_else(|| format!("SCAN answered {v:?}, not a cursor page"))?;
        let mut keys: Vec<Vec<u8>> = page.iter().filter_map(bytes).map(<[u8]>::to_vec).collect();
        let mut full = false;
        if let Some(max) = node.limits.max_keys {
            let left = max.saturating_sub(progress.dispatched) as usize;
            full = keys.len() >= left;
            keys.truncate(left);
        }
        progress.dispatched += keys.len() as u64;
        if failed.load(Ordering::Relaxed) || !send(keys) {
            return Ok(Stop::Done);
        }
        (progress.hook)(progress.dispatched);
        if full {
            return Ok(Stop::MaxKeys);
        }
        if next == b"0" {
            return Ok(Stop::Done);
        }
        if over(node.limits, node.started) {
            return Ok(Stop::Budget);
        }
        // A cursor is a 64-bit number; one given twice is a loop.
        let n = std::str::from_utf8(&next)
            .ok()
            .and_then(|c| c.parse::<u64>().ok())
            .ok_or_else(|| {
                format!(
                    "SCAN answered the cursor `{}`, not a number",
                    next.escape_ascii()
                )
            })?;
        if !seen.insert(n) {
            return Ok(Stop::CursorLoop);
        }
        cursor = next;
    }
    Ok(Stop::ScanCalls(calls))
}
