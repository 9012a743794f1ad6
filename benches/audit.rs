//! `wirelint audit` throughput and peak memory against a local
//! `redis-server` (not a timed test: run it with `cargo bench --bench
//! audit`). Seeds 100 000 keys, audits, then grows the keyspace to
//! 1 000 000 keys and audits again, each time running the release binary
//! under `/usr/bin/time -v` for its wall time and peak RSS. Figures go to
//! `docs/audit.md`.
//!
//! `WIRELINT_AUDIT_BENCH_KEYS=N` replaces the 1 000 000 (a quick run).

#[path = "../tests/common/redis_server.rs"]
mod redis_server;

use std::process::Command;
use std::time::Instant;

use redis_server::Server;

/// One audit of the server: (keys read, members read, seconds, peak RSS
/// in MB), from the JSON notes and `/usr/bin/time -v`.
fn audit(url: &str) -> (u64, u64, f64, f64) {
    let bin = env!("CARGO_BIN_EXE_wirelint");
    let timed = std::path::Path::new("/usr/bin/time").exists();
    let mut c = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-v").arg(bin);
        c
    } else {
        Command::new(bin)
    };
    c.args([
        "audit",
        "--url",
        url,
        "--sample",
        "100",
        "--format",
        "json",
        "--exit-zero",
    ]);
    let started = Instant::now();
    let out = c.output().expect("wirelint runs");
    let secs = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let note = v["notes"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // "read N keys (…) and M queue members on 1 node"
    let num = |after: &str| -> u64 {
        note.split(after)
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let keys = note
        .strip_prefix("read ")
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let members = num(" queue member");
    let rss_kb: f64 = stderr
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or(f64::NAN);
    (keys, members, secs, rss_kb / 1024.0)
}

fn report(label: &str, (keys, members, secs, rss): (u64, u64, f64, f64)) {
    println!(
        "{label}: {keys} keys and {members} queue members in {secs:.2} s: {:.0} keys/s, peak RSS {rss:.1} MB",
        keys as f64 / secs
    );
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` does not run us
    // for long.
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let Some(s) = Server::start("benches/audit.rs", &[]) else {
        return;
    };
    let big: u32 = std::env::var("WIRELINT_AUDIT_BENCH_KEYS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let queues = 100;
    let seed = |keys: u32| {
        let started = Instant::now();
        let rows = keys / queues - 1;
        s.seed(wirelint::audit::seed::bulk(queues, rows));
        println!(
            "seeded {queues} queues of {rows} rows in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    };
    seed(big / 10);
    report(&format!("{} keys", big / 10), audit(&s.url()));
    let mut con = s.con();
    let _: () = redis::cmd("FLUSHALL").query(&mut con).unwrap();
    seed(big);
    report(&format!("{big} keys"), audit(&s.url()));
}
