//! `wirelint audit` with the shipped contracts on a real `redis-server`:
//! a keyspace of whole templates only (`[keyspace.keys]`, Sidekiq's) is
//! read key by key, healthy and divergent; whole templates beside a queue
//! key (asynq's) are keys of the contract.

#[path = "common/redis_server.rs"]
mod redis_server;

use std::process::Command;

use redis_server::Server;

fn wirelint(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(args)
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

/// `wirelint audit --url URL --contract NAME --format FORMAT`.
fn audit(url: &str, contract: &str, format: &str) -> (i32, String, String) {
    wirelint(&[
        "audit",
        "--url",
        url,
        "--contract",
        contract,
        "--format",
        format,
    ])
}

fn cmd(words: &[&str]) -> Vec<Vec<u8>> {
    words.iter().map(|w| w.as_bytes().to_vec()).collect()
}

/// A Sidekiq keyspace as Sidekiq writes it: every key of the contract, in
/// its Redis type, and one key of another application.
fn sidekiq_keys() -> Vec<Vec<Vec<u8>>> {
    [
        &["SADD", "queues", "default", "low"][..],
        &["RPUSH", "queue:default", "{\"class\":\"A\",\"jid\":\"1\"}"],
        &["RPUSH", "queue:low", "{\"class\":\"B\",\"jid\":\"2\"}"],
        &["ZADD", "schedule", "1", "{\"jid\":\"3\"}"],
        &["ZADD", "retry", "1", "{\"jid\":\"4\"}"],
        &["ZADD", "dead", "1", "{\"jid\":\"5\"}"],
        &["SADD", "processes", "host:1:abc"],
        &["SET", "stat:processed", "7"],
        &["SET", "stat:failed", "1"],
        &["SET", "stat:processed:2024-05-01", "3"],
        &["SET", "stat:failed:2024-05-01", "1"],
        &[
            "HSET",
            "it-abc",
            "ex",
            "1",
            "c",
            "12",
            "rt",
            "0.5",
            "cancelled",
            "0",
        ],
        &["SET", "session:42", "someone else's"],
    ]
    .iter()
    .map(|w| cmd(w))
    .collect()
}

/// (code, message) of every finding in a JSON report.
fn findings(json: &str) -> Vec<(String, String)> {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON on stdout");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Seeds a fresh server with `keys`, audits it against the shipped
/// `contract` and asserts a clean run over `n` keys; the server's URL, for
/// more runs. `None` where no redis-server is installed.
fn audit_clean(name: &str, keys: Vec<Vec<Vec<u8>>>, contract: &str, n: usize) -> Option<Server> {
    let s = Server::start(name, &[])?;
    s.seed(keys);
    let (code, out, err) = audit(&s.url(), contract, "concise");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(
        err,
        format!("wirelint audit: 0 errors, 0 warnings in {n} keys; exit 0: clean\n")
    );
    Some(s)
}

/// Every key is read against the whole templates: a healthy Sidekiq
/// keyspace is clean (it panicked on the first key).
#[test]
fn a_healthy_sidekiq_keyspace_is_clean() {
    let Some(s) = audit_clean(
        "a_healthy_sidekiq_keyspace_is_clean",
        sidekiq_keys(),
        "sidekiq",
        13,
    ) else {
        return;
    };
    let url = s.url();
    let (code, out, _) = audit(&url, "sidekiq", "json");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["notes"][0]["message"],
        "read 13 keys (12 of the contract's types, 1 outside the keyspace and not judged) and 0 queue members on 1 node"
    );
}

/// A queue that is a hash, a retry set that is a list, an iteration hash
/// with a renamed field: the exact findings.
#[test]
fn a_divergent_sidekiq_keyspace_gives_exact_findings() {
    let Some(s) = Server::start("a_divergent_sidekiq_keyspace_gives_exact_findings", &[]) else {
        return;
    };
    let mut keys = sidekiq_keys();
    keys.extend(
        [
            &["HSET", "queue:mail", "class", "C"][..],
            &["DEL", "retry"],
            &["RPUSH", "retry", "{\"jid\":\"4\"}"],
            &[
                "HSET",
                "it-def",
                "ex",
                "1",
                "cursor",
                "12",
                "rt",
                "0.5",
                "cancelled",
                "0",
            ],
        ]
        .iter()
        .map(|w| cmd(w)),
    );
    s.seed(keys);
    let url = s.url();
    let (code, out, err) = audit(&url, "sidekiq", "json");
    assert_eq!(code, 1, "{err}");
    let f = |c: &str, m: &str| (c.to_string(), m.to_string());
    assert_eq!(
        findings(&out),
        [
            f("WA104", "1 `queue` key at `queue:<queue>` holds a hash, not a list: every command on it fails with WRONGTYPE"),
            f("WA104", "1 `retry` key at `retry` holds a list, not a zset: every command on it fails with WRONGTYPE"),
            f("WA201", "1 `iteration` row at `it-<jid>` has field `cursor`, which the `iteration` record does not have"),
            f("WA202", "1 `iteration` row at `it-<jid>` lacks field `c`"),
        ]
    );
}

/// asynq's keys of no queue (`[keyspace.keys]`) beside its queue keys:
/// each is a key of the contract, none a type it lacks.
#[test]
fn asynq_keys_of_no_queue_are_keys_of_the_contract() {
    let Some(s) = Server::start("asynq_keys_of_no_queue_are_keys_of_the_contract", &[]) else {
        return;
    };
    s.seed(
        [
            &["SADD", "asynq:queues", "default"][..],
            &["ZADD", "asynq:servers", "1", "host:1:ab"],
            &["SET", "asynq:servers:{host:1:ab}", "info"],
            &["RPUSH", "asynq:{default}:pending", "t1"],
        ]
        .iter()
        .map(|w| cmd(w)),
    );
    let (code, out, err) = audit(&s.url(), "asynq", "concise");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(
        err,
        "wirelint audit: 0 errors, 0 warnings in 4 keys; exit 0: clean\n"
    );
}

/// A BullMQ queue as BullMQ's scripts leave it: a waiting job, a
/// completed one with its log, the queue's counter, meta hash, event
/// stream, marker and stalled-check key, each in the Redis type the
/// upstream's commands give it.
fn bullmq_keys() -> Vec<Vec<Vec<u8>>> {
    [
        &["INCRBY", "bull:mail:id", "2"][..],
        &[
            "HSET",
            "bull:mail:1",
            "name",
            "welcome",
            "data",
            "{}",
            "opts",
            "{}",
            "timestamp",
            "1700000000000",
            "delay",
            "0",
            "priority",
            "0",
        ],
        &["LPUSH", "bull:mail:wait", "1"],
        &[
            "HSET",
            "bull:mail:2",
            "name",
            "welcome",
            "data",
            "{}",
            "opts",
            "{}",
            "timestamp",
            "1700000000000",
            "delay",
            "0",
            "priority",
            "0",
            "atm",
            "1",
            "processedOn",
            "1700000000100",
            "finishedOn",
            "1700000000200",
            "returnvalue",
            "null",
        ],
        &["ZADD", "bull:mail:completed", "1700000000200", "2"],
        &["RPUSH", "bull:mail:2:logs", "sent"],
        &[
            "HSET",
            "bull:mail:meta",
            "opts.maxLenEvents",
            "10000",
            "version",
            "bullmq:5",
        ],
        &[
            "XADD",
            "bull:mail:events",
            "*",
            "event",
            "added",
            "jobId",
            "1",
        ],
        &["ZADD", "bull:mail:marker", "0", "0"],
        &["SET", "bull:mail:stalled-check", "1"],
    ]
    .iter()
    .map(|w| cmd(w))
    .collect()
}

/// What BullMQ itself writes is clean against the shipped contract: the
/// job hashes at `<id>` beside the queue's own keys, each key in its type.
#[test]
fn a_healthy_bullmq_keyspace_is_clean() {
    audit_clean(
        "a_healthy_bullmq_keyspace_is_clean",
        bullmq_keys(),
        "bullmq",
        10,
    );
}

/// The same queue with its wait key a sorted set (a port that ZADDs where
/// BullMQ LPUSHes): WRONGTYPE for every BullMQ worker; and a job written
/// without `opts`, which storeJob writes to every job (a field the job
/// gets later, `finishedOn`, is missing from the waiting job and no
/// finding).
#[test]
fn a_divergent_bullmq_keyspace_gives_exact_findings() {
    let Some(s) = Server::start("a_divergent_bullmq_keyspace_gives_exact_findings", &[]) else {
        return;
    };
    let mut keys = bullmq_keys();
    keys.retain(|c| c[1] != b"bull:mail:wait");
    keys.push(cmd(&["ZADD", "bull:mail:wait", "0", "1"]));
    keys.push(cmd(&[
        "HSET",
        "bull:mail:3",
        "name",
        "welcome",
        "data",
        "{}",
        "timestamp",
        "1",
        "delay",
        "0",
        "priority",
        "0",
    ]));
    s.seed(keys);
    let (code, out, err) = audit(&s.url(), "bullmq", "json");
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        findings(&out),
        [
            (
                "WA104".to_string(),
                "1 `wait` key at `bull:<queue>:wait` holds a zset, not a list: every command on it fails with WRONGTYPE".to_string()
            ),
            (
                "WA202".to_string(),
                "1 `job` row at `bull:<queue>:<id>` lacks field `opts`".to_string()
            )
        ]
    );
}

/// An RSMQ queue as RSMQ writes it: created (its five settings), one
/// message sent (its body in the queue hash, `totalsent` counted), none
/// received yet, so no `totalrecv`: clean, the counters being fields a
/// queue gets later.
#[test]
fn a_new_rsmq_queue_with_one_message_is_clean() {
    let keys = [
        &["SADD", "rsmq:QUEUES", "q1"][..],
        &[
            "HSET",
            "rsmq:q1:Q",
            "vt",
            "30",
            "delay",
            "0",
            "maxsize",
            "65536",
            "created",
            "1700000000",
            "modified",
            "1700000000",
        ],
        &[
            "ZADD",
            "rsmq:q1",
            "1700000000000",
            "abcdefghij0123456789abcdefghij01",
        ],
        &[
            "HSET",
            "rsmq:q1:Q",
            "abcdefghij0123456789abcdefghij01",
            "hello",
        ],
        &["HINCRBY", "rsmq:q1:Q", "totalsent", "1"],
    ];
    audit_clean(
        "a_new_rsmq_queue_with_one_message_is_clean",
        keys.iter().map(|w| cmd(w)).collect(),
        "rsmq",
        3,
    );
}
