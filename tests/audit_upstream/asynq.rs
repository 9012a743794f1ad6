//! asynq: the `redis.NewScript` literals of `internal/rdb/rdb.go` run with
//! the KEYS and ARGV rdb.go passes, beside the plain commands it sends.

use super::*;

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

/// The uniqueness lock of the unique task (`base.UniqueKey`: the type,
/// then the payload's MD5 in hex).
const UNIQUE: &str = "unique:email:send:9b2d5f3c0e8a4b6d1f7e2c9a3b5d8e0f";

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

    /// `Enqueue` (answers 1): the task's message.
    fn enqueue(&self, id: &str) -> Vec<u8> {
        let keys = [aq(&format!("t:{id}")), aq("pending")];
        let msg = task_message(id, &[]);
        let argv = vec![msg.clone(), id.into(), self.nanos()];
        assert_eq!(self.run("enqueueCmd", &keys, argv), Value::Int(1));
        msg
    }

    /// `AddToGroup` (answers 1).
    fn add_to_group(&self, id: &str, group: &str) {
        let msg = task_message(id, &[(14, Pb::Bytes(group.as_bytes()))]);
        let keys = [
            aq(&format!("t:{id}")),
            aq(&format!("g:{group}")),
            aq("groups"),
        ];
        let argv = vec![msg, id.into(), self.secs(0), group.into()];
        assert_eq!(self.run("addToGroupCmd", &keys, argv), Value::Int(1));
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
    let mut messages: Vec<Vec<u8>> = id[..3].iter().map(|t| q.enqueue(t)).collect();
    let unique = aq(UNIQUE);
    let msg = task_message(&id[3], &[(10, Pb::Bytes(unique.as_bytes()))]);
    let keys = [unique, aq(&format!("t:{}", id[3])), aq("pending")];
    let argv = vec![
        id[3].clone().into(),
        b"3600".to_vec(),
        msg.clone(),
        q.nanos(),
    ];
    assert_eq!(q.run("enqueueUniqueCmd", &keys, argv), Value::Int(1));
    messages.push(msg);
    let keys = [aq(&format!("t:{}", id[4])), aq("scheduled")];
    let argv = vec![
        task_message(&id[4], &[]),
        q.secs(3600),
        id[4].clone().into(),
    ];
    assert_eq!(q.run("scheduleCmd", &keys, argv), Value::Int(1));
    q.add_to_group(&id[5], "daily");
    for msg in messages {
        assert_eq!(q.dequeue(), msg);
    }
    asynq_finish(q, &id);
    let msg = q.enqueue(&id[6]);
    q.enqueue(&id[7]);
    assert_eq!(q.dequeue(), msg);
}

/// The four dequeued tasks: `Done`, `MarkAsComplete`, `Retry` (a
/// failure) and `Archive`, each with the keys and ARGV rdb.go passes.
fn asynq_finish(q: &Asynq, id: &[String]) {
    let active = |t: &str| [aq("active"), aq("lease"), aq(&format!("t:{t}"))];
    let (processed, failed) = (q.daily("processed"), q.daily("failed"));
    let [a, l, task] = active(&id[0]);
    let keys = [a, l, task, processed.clone(), aq("processed")];
    let argv = vec![id[0].clone().into(), q.expire(), max_int64()];
    assert_eq!(q.run("doneCmd", &keys, argv), Value::Okay);
    let [a, l, task] = active(&id[1]);
    let keys = [
        a,
        l,
        aq("completed"),
        task,
        processed.clone(),
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
    // Retried, error_msg, last_failed_at.
    let error = [
        (6, Pb::Int(1)),
        (7, Pb::Bytes(b"smtp: timeout")),
        (11, Pb::Int(q.now as u64)),
    ];
    let counters = [processed, failed, aq("processed"), aq("failed")];
    let [a, l, task] = active(&id[2]);
    let keys = [[task, a, l, aq("retry")].as_slice(), &counters].concat();
    let msg = task_message(&id[2], &error);
    let argv = vec![id[2].clone().into(), msg, q.secs(60), q.expire()];
    let argv = [argv, vec![b"1".to_vec(), max_int64()]].concat();
    assert_eq!(q.run("retryCmd", &keys, argv), Value::Okay);
    let [a, l, task] = active(&id[3]);
    let keys = [
        [task, a, l, aq("archived")].as_slice(),
        &counters,
        &[aq("t:")],
    ]
    .concat();
    let msg = task_message(&id[3], &error[1..]);
    let argv = vec![id[3].clone().into(), msg, q.secs(0), q.secs(-90 * 86_400)];
    let argv = [argv, vec![b"10000".to_vec(), q.expire(), max_int64()]].concat();
    assert_eq!(q.run("archiveCmd", &keys, argv), Value::Okay);
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
        aq(UNIQUE),
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
    assert_eq!(all_keys(&s), expected);
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

/// Groups, a scheduler and results: two tasks of a group aggregated
/// (`AggregationCheck`, max size 2: an aggregation set), a third one
/// grouped after; a periodic task's scheduler entries and enqueue event
/// (`WriteSchedulerEntries`, `RecordSchedulerEnqueueEvent`); the task it
/// enqueued run, its result written (`WriteResult`, a plain HSET) and
/// completed; a task scheduled in the past forwarded to pending.
fn asynq_groups_and_scheduler(q: &Asynq) -> String {
    q.s.seed([bytes(&["SADD", "asynq:queues", "default"])]);
    let id: Vec<String> = (11..=15).map(task_id).collect();
    q.add_to_group(&id[0], "daily");
    q.add_to_group(&id[1], "daily");
    let set = aq("g:daily:3c2b1a09-8f7e-4d6c-b5a4-938271605f4e");
    let keys = [
        aq("g:daily"),
        set.clone(),
        aq("aggregation_sets"),
        aq("groups"),
    ];
    let argv = vec![b"2".to_vec(), b"0".to_vec(), b"60".to_vec(), q.secs(120)];
    let argv = [argv, vec![q.secs(0), b"daily".to_vec()]].concat();
    assert_eq!(q.run("aggregationCheckCmd", &keys, argv), Value::Int(1));
    q.add_to_group(&id[2], "daily");
    let scheduler = "web-1:4242:5e4d3c2b-1a09-4f8e-a7d6-c5b4a3928170";
    let entries = format!("asynq:schedulers:{{{scheduler}}}");
    let exp = String::from_utf8(q.secs(10)).unwrap();
    q.s.seed([bytes(&["ZADD", "asynq:schedulers", &exp, &entries])]);
    let entry = "8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a";
    let spec = protobuf(&[
        (1, Pb::Bytes(entry.as_bytes())),
        (2, Pb::Bytes(b"@every 1h")),
        (3, Pb::Bytes(b"email:send")),
    ]);
    let argv = vec![b"10".to_vec(), spec];
    let written = q.run("writeSchedulerEntriesCmd", &[entries], argv);
    assert_eq!(written, Value::Okay);
    let msg = q.enqueue(&id[3]);
    let event = protobuf(&[(1, Pb::Bytes(id[3].as_bytes()))]);
    let history = [format!("asynq:scheduler_history:{entry}")];
    let argv = vec![q.secs(0), event, b"1000".to_vec()];
    let recorded = q.run("recordSchedulerEnqueueEventCmd", &history, argv);
    assert_eq!(recorded, Value::Okay);
    assert_eq!(q.dequeue(), msg);
    q.s.seed([bytes(&[
        "HSET",
        &aq(&format!("t:{}", id[3])),
        "result",
        "sent",
    ])]);
    let keys = [
        aq("active"),
        aq("lease"),
        aq("completed"),
        aq(&format!("t:{}", id[3])),
    ];
    let keys = [keys.as_slice(), &[q.daily("processed"), aq("processed")]].concat();
    let msg = task_message(&id[3], &[(12, Pb::Int(3600)), (13, Pb::Int(q.now as u64))]);
    let argv = vec![
        id[3].clone().into(),
        q.expire(),
        q.secs(3600),
        msg,
        max_int64(),
    ];
    assert_eq!(q.run("markAsCompleteCmd", &keys, argv), Value::Okay);
    let keys = [aq(&format!("t:{}", id[4])), aq("scheduled")];
    let argv = vec![task_message(&id[4], &[]), q.secs(-5), id[4].clone().into()];
    assert_eq!(q.run("scheduleCmd", &keys, argv), Value::Int(1));
    let argv = vec![q.secs(0), aq("t:").into(), q.nanos(), aq("g:").into()];
    let forwarded = q.run("forwardCmd", &[aq("scheduled"), aq("pending")], argv);
    assert_eq!(forwarded, Value::Int(1));
    set
}

#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_asynqs_groups_and_scheduler_write_is_clean() {
    let Some(s) = Server::start("what_asynqs_groups_and_scheduler_write_is_clean", &[]) else {
        return;
    };
    let rdb = read(&corpus().join("hibiken+asynq/internal/rdb/rdb.go"));
    let now = now_ms() / 1000;
    let q = Asynq { s: &s, rdb, now };
    let set = asynq_groups_and_scheduler(&q);
    let mut expected = vec![
        "asynq:queues".to_string(),
        "asynq:schedulers".into(),
        "asynq:schedulers:{web-1:4242:5e4d3c2b-1a09-4f8e-a7d6-c5b4a3928170}".into(),
        "asynq:scheduler_history:8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a".into(),
        set,
        q.daily("processed"),
    ];
    for t in "aggregation_sets completed g:daily groups pending processed".split(' ') {
        expected.push(aq(t));
    }
    expected.extend((11..=15).map(|n| aq(&format!("t:{}", task_id(n)))));
    expected.sort();
    assert_eq!(all_keys(&s), expected);
    let fields = |n| hkeys(&s, &aq(&format!("t:{}", task_id(n))));
    let grouped = (11..=13).map(fields).collect::<Vec<_>>();
    assert_eq!(grouped, ["group msg state"; 3]);
    assert_eq!(fields(14), "msg result state");
    assert_eq!(fields(15), "msg pending_since state");
    assert_clean(
        &s,
        "asynq",
        "read 17 keys (17 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}
