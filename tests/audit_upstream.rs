//! `wirelint audit` on what the upstreams' own scripts write: each test
//! reads an upstream's Lua from the pinned corpus as the test runs (no
//! upstream code is kept here), runs it with `EVAL` on a real
//! `redis-server` with the KEYS and ARGV the upstream's own client passes,
//! checks every reply (so that nothing passes on an empty server), and
//! audits the keyspace against the shipped family contract: 0 findings.
//!
//! BullMQ (`audit_upstream/bullmq.rs`, `bullmq_schedule.rs`):
//! `src/commands/*.lua`, each `--- @include` expanded in place once, as
//! its script loader does; ARGV packed with msgpack as its client packs
//! them (`src/classes/redis-queue-backend.ts`). asynq (`asynq.rs`): the
//! `redis.NewScript` literals of `internal/rdb/rdb.go`, read out of the Go
//! source, with the plain commands rdb.go sends beside them; task
//! messages protobuf-encoded as `internal/proto/asynq.proto` says. RSMQ
//! (`rsmq.rs`): the three scripts of `index.js`, read out of the JS
//! source, beside the MULTIs its createQueue and sendMessage send.
//! Sidekiq writes with plain commands (its one script,
//! `LUA_ZPOPBYSCORE`, only removes), so it has no test here:
//! `tests/audit_shipped.rs` seeds its keyspace by those commands.
//!
//! Runs when `WIRELINT_CORPUS` is set as the tests are built (as
//! `tests/realcode.rs`), and skips, saying so, without `redis-server`.

#[path = "common/redis_server.rs"]
mod redis_server;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use redis::Value;
use redis_server::Server;

#[path = "audit_upstream/asynq.rs"]
mod asynq;
#[path = "audit_upstream/bullmq.rs"]
mod bullmq;
#[path = "audit_upstream/bullmq_schedule.rs"]
mod bullmq_schedule;
#[path = "audit_upstream/rsmq.rs"]
mod rsmq;

/// The corpus directory: `WIRELINT_CORPUS` as the test runs (a test run
/// with `--ignored` without it fails, and says why).
fn corpus() -> PathBuf {
    std::env::var_os("WIRELINT_CORPUS")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .expect("WIRELINT_CORPUS names the real corpus (tests/realcode/README.md)")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Milliseconds since the epoch, as `Date.now()`.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// `wirelint audit --url URL --contract NAME --format FORMAT`: (exit
/// code, stdout, stderr).
fn audit(url: &str, contract: &str, format: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(["audit", "--url", url, "--contract", contract])
        .args(["--format", format])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("REDISCLI_AUTH")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every key on the server, sorted.
fn all_keys(s: &Server) -> Vec<String> {
    let mut all: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut s.con()).unwrap();
    all.sort();
    all
}

/// The field names of a hash, sorted, space-separated.
fn hkeys(s: &Server, key: &str) -> String {
    let mut f: Vec<String> = redis::cmd("HKEYS").arg(key).query(&mut s.con()).unwrap();
    f.sort();
    f.join(" ")
}

/// Audits the server against `contract`: no finding, exit 0, and the
/// JSON report's note on what was read is `read`.
fn assert_clean(s: &Server, contract: &str, read: &str) {
    let (code, out, err) = audit(&s.url(), contract, "json");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{out}\n{err}");
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["notes"][0]["message"], read, "{out}");
    let (code, out, err) = audit(&s.url(), contract, "concise");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let n = all_keys(s).len();
    assert_eq!(
        err,
        format!("wirelint audit: 0 errors, 0 warnings in {n} keys; exit 0: clean\n")
    );
}

/// The text of the first backquoted literal after `marker` in `text` (a
/// Go raw string, a JS template literal).
fn backquoted(text: &str, marker: &str) -> String {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` is in the upstream's source"));
    let rest = &text[at + marker.len()..];
    let open = rest.find('`').expect("a backquoted literal") + 1;
    let close = rest[open..].find('`').expect("its closing backquote");
    rest[open..open + close].to_string()
}

fn bytes(args: &[&str]) -> Vec<Vec<u8>> {
    args.iter().map(|a| a.as_bytes().to_vec()).collect()
}

/// Runs a script with KEYS and ARGV (text or binary); its reply, or a
/// panic naming the script and the server's error.
fn eval(s: &Server, name: &str, lua: &str, keys: &[String], argv: &[Vec<u8>]) -> Value {
    let k: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    let a: Vec<&[u8]> = argv.iter().map(|a| a.as_slice()).collect();
    s.eval(lua, &k, &a)
        .unwrap_or_else(|e| panic!("{name} fails: {e}"))
}

fn text(v: &Value) -> String {
    match v {
        Value::BulkString(b) => String::from_utf8_lossy(b).into_owned(),
        Value::SimpleString(s) => s.clone(),
        Value::Okay => "OK".into(),
        Value::Int(i) => i.to_string(),
        other => panic!("a string reply, not {other:?}"),
    }
}
