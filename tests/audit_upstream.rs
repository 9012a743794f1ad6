//! `wirelint audit` on what the upstreams' own scripts write: each test
//! reads an upstream's Lua from the pinned corpus as the test runs (no
//! upstream code is kept here), runs it with `EVAL` on a real
//! `redis-server` with the KEYS and ARGV the upstream's own client passes,
//! checks every reply (so that nothing passes on an empty server), and
//! audits the keyspace against the shipped family contract: 0 findings.
//!
//! BullMQ: `src/commands/*.lua`, each `--- @include` expanded in place
//! once, as its script loader does; ARGV packed with msgpack as its
//! client packs them (`src/classes/redis-queue-backend.ts`). asynq: the
//! `redis.NewScript` literals of `internal/rdb/rdb.go`, read out of the Go
//! source, with the plain commands rdb.go sends beside them; task
//! messages protobuf-encoded as `internal/proto/asynq.proto` says.
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
fn keys(s: &Server) -> Vec<String> {
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
    let n = keys(s).len();
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

// ---------------------------------------------------------------- BullMQ

/// A value as BullMQ's client packs it (msgpackr, `undefined` as nil).
enum Mp {
    Nil,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Mp>),
    Map(Vec<(&'static str, Mp)>),
}

fn st(s: &str) -> Mp {
    Mp::Str(s.into())
}

fn pack_into(v: &Mp, out: &mut Vec<u8>) {
    fn head(out: &mut Vec<u8>, fix: u8, n: usize) {
        assert!(n < 16, "a short array or map");
        out.push(fix | n as u8);
    }
    match v {
        Mp::Nil => out.push(0xc0),
        Mp::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Mp::Int(i) if (0..128).contains(i) => out.push(*i as u8),
        Mp::Int(i) if (-32..0).contains(i) => out.push(*i as i8 as u8),
        Mp::Int(i) => {
            out.push(0xd3);
            out.extend(i.to_be_bytes());
        }
        Mp::Str(s) if s.len() < 32 => {
            out.push(0xa0 | s.len() as u8);
            out.extend(s.as_bytes());
        }
        Mp::Str(s) => {
            out.push(0xda);
            out.extend((s.len() as u16).to_be_bytes());
            out.extend(s.as_bytes());
        }
        Mp::Arr(a) => {
            head(out, 0x90, a.len());
            a.iter().for_each(|x| pack_into(x, out));
        }
        Mp::Map(m) => {
            head(out, 0x80, m.len());
            for (k, x) in m {
                pack_into(&st(k), out);
                pack_into(x, out);
            }
        }
    }
}

fn pack(v: Mp) -> Vec<u8> {
    let mut out = Vec::new();
    pack_into(&v, &mut out);
    out
}

/// The line's include, as BullMQ's script loader's `IncludeRegex` reads
/// it: `--- @include "path"` (or `--`, single quotes, a `;` after).
fn include_of(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("---")
        .or_else(|| line.strip_prefix("--"))?;
    let rest = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix("@include")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let (path, tail) = rest[1..].split_once(quote)?;
    tail.trim_end_matches([';', ' ', '\t', '\r'])
        .is_empty()
        .then_some(path)
}

/// `file` with each include replaced by the included file (its path
/// relative to the including file, `.lua` added), itself expanded, and
/// each file given once: the first time it is included.
fn expand(file: &Path, seen: &mut BTreeSet<PathBuf>, out: &mut String) {
    for line in read(file).lines() {
        let Some(reference) = include_of(line) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let name = match reference.ends_with(".lua") {
            true => reference.to_string(),
            false => format!("{reference}.lua"),
        };
        let path = file.parent().unwrap().join(name);
        let path = path
            .canonicalize()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if seen.insert(path.clone()) {
            expand(&path, seen, out);
        }
    }
}

/// BullMQ's script `name` (`src/commands/<name>-<keys>.lua`) as its
/// loader sends it, and its number of keys.
fn bullmq_script(name: &str) -> (String, usize) {
    let dir = corpus().join("taskforcesh+bullmq/src/commands");
    let (file, n) = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .find_map(|p| {
            let stem = p.file_stem()?.to_str()?;
            let (script, n) = stem.rsplit_once('-')?;
            (script == name && p.extension()? == "lua").then(|| (p.clone(), n.parse().ok()))
        })
        .unwrap_or_else(|| panic!("{name}: no such script in {}", dir.display()));
    let mut lua = String::new();
    expand(&file, &mut BTreeSet::new(), &mut lua);
    (lua, n.expect("a key count in the file's name"))
}

const BULL: &str = "bull:mail:";

/// One queue, `mail`, under the default prefix, driven as BullMQ's
/// `RedisQueueBackend` drives it.
struct Bull<'a> {
    s: &'a Server,
}

impl Bull<'_> {
    /// Runs `script` with the queue's keys of `types` (a type `=` a whole
    /// key) and `argv`.
    fn run(&self, script: &str, types: &[&str], argv: Vec<Vec<u8>>) -> Value {
        let (lua, n) = bullmq_script(script);
        assert_eq!(types.len(), n, "{script} takes {n} keys");
        let keys: Vec<String> = types
            .iter()
            .map(|t| match t.strip_prefix('=') {
                Some(whole) => whole.to_string(),
                None => format!("{BULL}{t}"),
            })
            .collect();
        eval(self.s, script, &lua, &keys, &argv)
    }

    /// `addJobToTransaction`: a job with the next id, by the script its
    /// options choose; the id the script answers.
    fn add(&self, script: &str, types: &[&str], name: &str, opts: Mp) -> String {
        let args = Mp::Arr(vec![
            st(BULL),
            st(""),
            st(name),
            Mp::Int(now_ms()),
            Mp::Nil,
            Mp::Nil,
            Mp::Nil,
            Mp::Nil,
            Mp::Nil,
        ]);
        let data = br#"{"to":"someone@example.com"}"#.to_vec();
        text(&self.run(script, types, vec![pack(args), data, pack(opts)]))
    }

    /// `moveToActive` for a worker named `worker-1`: the id of the job
    /// it took (a reply `[job hash, id, 0, 0]`).
    fn take(&self, token: &str) -> String {
        let opts = Mp::Map(vec![
            ("token", st(token)),
            ("lockDuration", Mp::Int(30000)),
            ("name", st("worker-1")),
        ]);
        let argv = vec![
            BULL.as_bytes().to_vec(),
            now_ms().to_string().into_bytes(),
            pack(opts),
        ];
        let types = [
            "wait",
            "active",
            "prioritized",
            "events",
            "stalled",
            "limiter",
            "delayed",
            "paused",
            "meta",
            "pc",
            "marker",
        ];
        let Value::Array(reply) = self.run("moveToActive", &types, argv) else {
            panic!("moveToActive answers an array");
        };
        assert!(
            matches!(&reply[0], Value::Array(h) if !h.is_empty()),
            "{reply:?}"
        );
        text(&reply[1])
    }

    /// `moveToFinishedArgs` for a job of default options (kept,
    /// `keepJobs: {count: -1}`), not fetching the next job: answers 0.
    fn finish(&self, id: &str, token: &str, target: &str, val: (&str, &str), fields: Mp) {
        let opts = Mp::Map(vec![
            ("token", st(token)),
            ("name", st("worker-1")),
            ("keepJobs", Mp::Map(vec![("count", Mp::Int(-1))])),
            ("lockDuration", Mp::Int(30000)),
            ("attempts", Mp::Int(0)),
            ("maxMetricsSize", st("")),
            ("fpof", Mp::Bool(false)),
            ("cpof", Mp::Bool(false)),
            ("idof", Mp::Bool(false)),
            ("rdof", Mp::Bool(false)),
        ]);
        let mut argv = bytes(&[id, &now_ms().to_string(), val.0, val.1, target, "0", BULL]);
        argv.push(pack(opts));
        argv.push(match fields {
            Mp::Nil => Vec::new(),
            f => pack(f),
        });
        let (job, metrics) = (format!("={BULL}{id}"), format!("metrics:{target}"));
        let types = [
            "wait",
            "active",
            "prioritized",
            "events",
            "stalled",
            "limiter",
            "delayed",
            "paused",
            "meta",
            "pc",
            target,
            &job,
            &metrics,
            "marker",
        ];
        assert_eq!(self.run("moveToFinished", &types, argv), Value::Int(0));
    }
}

const ADD_STANDARD: [&str; 9] = [
    "wait",
    "paused",
    "meta",
    "id",
    "completed",
    "delayed",
    "active",
    "events",
    "marker",
];
const ADD_DELAYED: [&str; 6] = ["marker", "meta", "id", "delayed", "completed", "events"];
const ADD_PRIORITIZED: [&str; 9] = [
    "marker",
    "meta",
    "id",
    "prioritized",
    "delayed",
    "completed",
    "active",
    "events",
    "pc",
];

/// Two standard jobs, two prioritized and a delayed one; a worker takes
/// the two standard jobs, completes one and fails the other, takes a
/// prioritized one and holds it (its lock stays), logs and reports
/// progress on it; one more standard job waits.
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_bullmqs_own_scripts_write_is_clean() {
    let Some(s) = Server::start("what_bullmqs_own_scripts_write_is_clean", &[]) else {
        return;
    };
    let q = Bull { s: &s };
    let plain = || Mp::Map(vec![("attempts", Mp::Int(0))]);
    let prio = |p| Mp::Map(vec![("attempts", Mp::Int(0)), ("priority", Mp::Int(p))]);
    let delayed = Mp::Map(vec![("attempts", Mp::Int(0)), ("delay", Mp::Int(60_000))]);
    assert_eq!(
        q.add("addStandardJob", &ADD_STANDARD, "welcome", plain()),
        "1"
    );
    assert_eq!(
        q.add("addStandardJob", &ADD_STANDARD, "welcome", plain()),
        "2"
    );
    assert_eq!(
        q.add("addPrioritizedJob", &ADD_PRIORITIZED, "digest", prio(1)),
        "3"
    );
    assert_eq!(
        q.add("addPrioritizedJob", &ADD_PRIORITIZED, "digest", prio(5)),
        "4"
    );
    assert_eq!(
        q.add("addDelayedJob", &ADD_DELAYED, "reminder", delayed),
        "5"
    );
    let token = "0d6e2c1e-worker:0";
    assert_eq!(q.take(token), "1");
    assert_eq!(q.take(token), "2");
    q.finish(
        "1",
        token,
        "completed",
        ("returnvalue", r#"{"sent":true}"#),
        Mp::Nil,
    );
    let fields = Mp::Arr(vec![
        st("failedReason"),
        st("mailbox full"),
        st("stacktrace"),
        st(r#"["Error: mailbox full\n    at send (mail.js:1:1)"]"#),
    ]);
    q.finish(
        "2",
        token,
        "failed",
        ("failedReason", "mailbox full"),
        fields,
    );
    assert_eq!(q.take(token), "3");
    let log = bytes(&["3", "sending the digest", ""]);
    assert_eq!(
        q.run("addLog", &["=bull:mail:3", "3:logs"], log),
        Value::Int(1)
    );
    let progress = bytes(&["3", "50"]);
    assert_eq!(
        q.run(
            "updateProgress",
            &["=bull:mail:3", "events", "meta"],
            progress
        ),
        Value::Int(0)
    );
    assert_eq!(
        q.add("addStandardJob", &ADD_STANDARD, "welcome", plain()),
        "6"
    );

    let mut expected: Vec<String> = [
        "1",
        "2",
        "3",
        "3:lock",
        "3:logs",
        "4",
        "5",
        "6",
        "active",
        "completed",
        "delayed",
        "events",
        "failed",
        "id",
        "marker",
        "meta",
        "pc",
        "prioritized",
        "wait",
    ]
    .iter()
    .map(|t| format!("{BULL}{t}"))
    .collect();
    expected.sort();
    assert_eq!(keys(&s), expected);
    for (key, fields) in [
        ("1", "atm ats data delay finishedOn name opts pb priority processedOn returnvalue timestamp"),
        ("2", "atm ats data delay failedReason finishedOn name opts pb priority processedOn stacktrace timestamp"),
        ("3", "ats data delay name opts pb priority processedOn progress timestamp"),
        ("5", "data delay name opts priority timestamp"),
        ("meta", "opts.maxLenEvents"),
    ] {
        assert_eq!(hkeys(&s, &format!("{BULL}{key}")), fields, "{key}");
    }
    assert_clean(
        &s,
        "bullmq",
        "read 19 keys (19 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}

// ----------------------------------------------------------------- asynq

/// A protobuf field's value.
enum Pb<'a> {
    Bytes(&'a [u8]),
    Int(u64),
}

fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A protobuf message of `(field number, value)`s.
fn protobuf(fields: &[(u64, Pb)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, v) in fields {
        match v {
            Pb::Bytes(b) => {
                varint(n << 3 | 2, &mut out);
                varint(b.len() as u64, &mut out);
                out.extend(*b);
            }
            Pb::Int(i) => {
                varint(n << 3, &mut out);
                varint(*i, &mut out);
            }
        }
    }
    out
}

/// asynq's `TaskMessage` (`internal/proto/asynq.proto`): type 1, payload
/// 2, id 3, queue 4, retry 5, timeout 8, and `more`.
fn task_message(id: &str, more: &[(u64, Pb)]) -> Vec<u8> {
    let mut fields = vec![
        (1, Pb::Bytes(b"email:send")),
        (2, Pb::Bytes(br#"{"to":"someone@example.com"}"#)),
        (3, Pb::Bytes(id.as_bytes())),
        (4, Pb::Bytes(b"default")),
        (5, Pb::Int(25)),
        (8, Pb::Int(1800)),
    ];
    fields.extend(more.iter().map(|(n, v)| match v {
        Pb::Bytes(b) => (*n, Pb::Bytes(b)),
        Pb::Int(i) => (*n, Pb::Int(*i)),
    }));
    protobuf(&fields)
}

/// `YYYY-MM-DD` of a Unix time, UTC (`base.ProcessedKey`'s date).
fn utc_date(unix: i64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Queue `default`, driven as asynq's `internal/rdb.RDB` drives it.
struct Asynq<'a> {
    s: &'a Server,
    rdb: String,
    now: i64,
}

/// A key of queue `default` (`base.QueueKeyPrefix`).
fn aq(t: &str) -> String {
    format!("asynq:{{default}}:{t}")
}

/// A task id (asynq's are `uuid.NewString()`s).
fn task_id(n: u8) -> String {
    format!("6f1c0a{n:02x}-7a9b-4c1d-8e2f-3a4b5c6d7e8f")
}

impl Asynq<'_> {
    /// Runs rdb.go's script `var` with `keys` and `argv`.
    fn run(&self, var: &str, keys: &[String], argv: Vec<Vec<u8>>) -> Value {
        let lua = backquoted(&self.rdb, &format!("var {var} = redis.NewScript("));
        eval(self.s, var, &lua, keys, &argv)
    }

    fn secs(&self, plus: i64) -> Vec<u8> {
        (self.now + plus).to_string().into_bytes()
    }

    fn nanos(&self) -> Vec<u8> {
        (self.now * 1_000_000_000).to_string().into_bytes()
    }

    /// `Enqueue`: 1.
    fn enqueue(&self, id: &str) {
        let keys = [aq(&format!("t:{id}")), aq("pending")];
        let argv = vec![task_message(id, &[]), id.into(), self.nanos()];
        assert_eq!(self.run("enqueueCmd", &keys, argv), Value::Int(1));
    }

    /// `Dequeue`: the message of the task it moved to active.
    fn dequeue(&self) -> Vec<u8> {
        let keys = ["pending", "paused", "active", "lease"].map(aq);
        let argv = vec![self.secs(30), aq("t:").into_bytes()];
        match self.run("dequeueCmd", &keys, argv) {
            Value::BulkString(msg) => msg,
            other => panic!("dequeueCmd answers a message, not {other:?}"),
        }
    }

    /// The keys and ARGV of `Done`, `MarkAsComplete`, `Retry` and
    /// `Archive`: the task's own stats keys for today, the expiry of the
    /// daily ones (`statsTTL`, 90 days) and math.MaxInt64.
    fn daily(&self, counter: &str) -> String {
        aq(&format!("{counter}:{}", utc_date(self.now)))
    }

    fn expire(&self) -> Vec<u8> {
        self.secs(90 * 86_400)
    }
}

fn max_int64() -> Vec<u8> {
    i64::MAX.to_string().into_bytes()
}

/// asynq's life of a queue: tasks enqueued (one unique), scheduled and
/// added to a group; of the first four dequeued, one done (deleted),
/// one completed (kept for its retention), one to retry and one
/// archived; one more dequeued and still active, one left pending.
fn asynq_tasks(q: &Asynq) {
    // rdb.go SADDs the queue's name before its first script.
    q.s.seed([bytes(&["SADD", "asynq:queues", "default"])]);
    let id: Vec<String> = (1..=8).map(task_id).collect();
    for t in &id[..3] {
        q.enqueue(t);
    }
    let unique = aq("unique:email:send:9b2d5f3c0e8a4b6d1f7e2c9a3b5d8e0f");
    let msg = task_message(&id[3], &[(10, Pb::Bytes(unique.as_bytes()))]);
    let keys = [unique.clone(), aq(&format!("t:{}", id[3])), aq("pending")];
    let argv = vec![id[3].clone().into(), b"3600".to_vec(), msg, q.nanos()];
    assert_eq!(q.run("enqueueUniqueCmd", &keys, argv), Value::Int(1));
    let keys = [aq(&format!("t:{}", id[4])), aq("scheduled")];
    let argv = vec![
        task_message(&id[4], &[]),
        q.secs(3600),
        id[4].clone().into(),
    ];
    assert_eq!(q.run("scheduleCmd", &keys, argv), Value::Int(1));
    let msg = task_message(&id[5], &[(14, Pb::Bytes(b"daily"))]);
    let keys = [aq(&format!("t:{}", id[5])), aq("g:daily"), aq("groups")];
    let argv = vec![msg, id[5].clone().into(), q.secs(0), b"daily".to_vec()];
    assert_eq!(q.run("addToGroupCmd", &keys, argv), Value::Int(1));
    for t in &id[..4] {
        assert!(
            q.dequeue().windows(t.len()).any(|w| w == t.as_bytes()),
            "{t}"
        );
    }
    let active = |t: &str| [aq("active"), aq("lease"), aq(&format!("t:{t}"))];
    let [a, l, task] = active(&id[0]);
    let keys = [a, l, task, q.daily("processed"), aq("processed")];
    let argv = vec![id[0].clone().into(), q.expire(), max_int64()];
    assert_eq!(q.run("doneCmd", &keys, argv), Value::Okay);
    let [a, l, task] = active(&id[1]);
    let keys = [
        a,
        l,
        aq("completed"),
        task,
        q.daily("processed"),
        aq("processed"),
    ];
    let msg = task_message(&id[1], &[(12, Pb::Int(3600)), (13, Pb::Int(q.now as u64))]);
    let argv = vec![
        id[1].clone().into(),
        q.expire(),
        q.secs(3600),
        msg,
        max_int64(),
    ];
    assert_eq!(q.run("markAsCompleteCmd", &keys, argv), Value::Okay);
    let failed = [
        (6, Pb::Int(1)),
        (7, Pb::Bytes(b"smtp: timeout")),
        (11, Pb::Int(q.now as u64)),
    ];
    let [a, l, task] = active(&id[2]);
    let mut keys = vec![
        task,
        a,
        l,
        aq("retry"),
        q.daily("processed"),
        q.daily("failed"),
    ];
    keys.extend([aq("processed"), aq("failed")]);
    let argv = vec![
        id[2].clone().into(),
        task_message(&id[2], &failed),
        q.secs(60),
    ];
    let argv = [argv, vec![q.expire(), b"1".to_vec(), max_int64()]].concat();
    assert_eq!(q.run("retryCmd", &keys, argv), Value::Okay);
    let [a, l, task] = active(&id[3]);
    let mut keys = vec![
        task,
        a,
        l,
        aq("archived"),
        q.daily("processed"),
        q.daily("failed"),
    ];
    keys.extend([aq("processed"), aq("failed"), aq("t:")]);
    let argv = vec![
        id[3].clone().into(),
        task_message(&id[3], &failed[1..]),
        q.secs(0),
    ];
    let argv = [
        argv,
        vec![
            q.secs(-90 * 86_400),
            b"10000".to_vec(),
            q.expire(),
            max_int64(),
        ],
    ]
    .concat();
    assert_eq!(q.run("archiveCmd", &keys, argv), Value::Okay);
    q.enqueue(&id[6]);
    q.enqueue(&id[7]);
    assert!(q.dequeue().windows(36).any(|w| w == id[6].as_bytes()));
}

/// `WriteServerState` of a server running one task: its entry in the
/// servers' and workers' sets (plain ZADDs), then writeServerStateCmd.
fn asynq_server(q: &Asynq) -> [String; 2] {
    let sid = "0c9e8d7f-1a2b-4c3d-9e8f-7a6b5c4d3e2f";
    let keys = [
        format!("asynq:servers:{{web-1:4242:{sid}}}"),
        format!("asynq:workers:{{web-1:4242:{sid}}}"),
    ];
    let exp = String::from_utf8(q.secs(10)).unwrap();
    q.s.seed([
        bytes(&["ZADD", "asynq:servers", &exp, &keys[0]]),
        bytes(&["ZADD", "asynq:workers", &exp, &keys[1]]),
    ]);
    let server = protobuf(&[
        (1, Pb::Bytes(b"web-1")),
        (2, Pb::Int(4242)),
        (3, Pb::Bytes(sid.as_bytes())),
        (4, Pb::Int(10)),
    ]);
    let task = task_id(7);
    let worker = protobuf(&[
        (1, Pb::Bytes(b"web-1")),
        (2, Pb::Int(4242)),
        (3, Pb::Bytes(sid.as_bytes())),
        (4, Pb::Bytes(task.as_bytes())),
        (5, Pb::Bytes(b"email:send")),
        (7, Pb::Bytes(b"default")),
    ]);
    let argv = vec![b"10".to_vec(), server, task.into_bytes(), worker];
    assert_eq!(q.run("writeServerStateCmd", &keys, argv), Value::Okay);
    keys
}

#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_asynqs_own_scripts_write_is_clean() {
    let Some(s) = Server::start("what_asynqs_own_scripts_write_is_clean", &[]) else {
        return;
    };
    let rdb = read(&corpus().join("hibiken+asynq/internal/rdb/rdb.go"));
    let now = now_ms() / 1000;
    let q = Asynq { s: &s, rdb, now };
    asynq_tasks(&q);
    let [server, worker] = asynq_server(&q);
    let mut expected = vec![
        "asynq:queues".to_string(),
        "asynq:servers".into(),
        "asynq:workers".into(),
        server,
        worker,
        aq("unique:email:send:9b2d5f3c0e8a4b6d1f7e2c9a3b5d8e0f"),
        q.daily("processed"),
        q.daily("failed"),
    ];
    for t in [2, 3, 4, 5, 6, 7, 8] {
        expected.push(aq(&format!("t:{}", task_id(t))));
    }
    for t in [
        "pending",
        "active",
        "lease",
        "completed",
        "retry",
        "archived",
        "scheduled",
        "g:daily",
        "groups",
        "processed",
        "failed",
    ] {
        expected.push(aq(t));
    }
    expected.sort();
    assert_eq!(keys(&s), expected);
    let state = |n| hkeys(&s, &aq(&format!("t:{}", task_id(n))));
    assert_eq!(state(2), "msg state");
    assert_eq!(state(4), "msg state unique_key");
    assert_eq!(state(6), "group msg state");
    assert_eq!(state(7), "msg state");
    assert_eq!(state(8), "msg pending_since state");
    assert_clean(
        &s,
        "asynq",
        "read 26 keys (26 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}
