//! BullMQ's job schedulers, retries and stalled check: `addJobScheduler`
//! as `JobScheduler.upsertJobScheduler` calls it, a failed attempt
//! retried at once (`retryJob`) and one after its backoff
//! (`moveToDelayed`), and the stalled checker's first pass
//! (`moveStalledJobsToWait`).

use super::bullmq::{pack, st, Bull, Mp, BULL};
use super::*;

/// The scheduler's id, and the millisecond its next job is due: the next
/// full hour, as the cron pattern `0 * * * *` gives it.
const SCHEDULER: &str = "hourly-report";

fn next_hour(now: i64) -> i64 {
    (now / 3_600_000 + 1) * 3_600_000
}

/// `upsertJobScheduler("hourly-report", {pattern: "0 * * * *"}, "report",
/// {})`: the id of the delayed job it adds.
fn add_scheduler(q: &Bull) -> String {
    let now = q.now();
    let next = next_hour(now);
    let job_id = format!("repeat:{SCHEDULER}:{next}");
    let repeat = Mp::Map(vec![("name", st("report")), ("pattern", st("0 * * * *"))]);
    // getNextJobOpts: the template's options and the iteration's.
    let delayed = Mp::Map(vec![
        (
            "repeat",
            Mp::Map(vec![("pattern", st("0 * * * *")), ("count", Mp::Int(1))]),
        ),
        ("jobId", st(&job_id)),
        ("delay", Mp::Int(next - now)),
        ("timestamp", Mp::Int(now)),
        ("prevMillis", Mp::Int(next)),
        ("repeatJobKey", st(SCHEDULER)),
    ]);
    let argv = vec![
        next.to_string().into_bytes(),
        pack(repeat),
        SCHEDULER.into(),
        b"{}".to_vec(),
        pack(Mp::Map(vec![])),
        pack(delayed),
        now.to_string().into_bytes(),
        BULL.into(),
        Vec::new(),
    ];
    let types = "repeat delayed wait paused meta prioritized marker id events pc active";
    let Value::Array(reply) = q.run("addJobScheduler", types, argv) else {
        panic!("addJobScheduler answers [job id, delay]");
    };
    assert_eq!(reply[1], Value::Int(next - now));
    text(&reply[0])
}

/// Job.moveToFailed's fieldsToUpdate for an attempt that will be retried.
fn failure() -> Mp {
    Mp::Arr(vec![
        st("failedReason"),
        st("smtp: timeout"),
        st("stacktrace"),
        st(r#"["Error: smtp: timeout"]"#),
    ])
}

/// Two jobs of three attempts (the first with a fixed backoff of 5 s):
/// the first fails and waits out its backoff, the second fails, is
/// retried at once and taken again; the stalled checker's first pass
/// then marks the active job.
fn bullmq_retries(q: &Bull) {
    let attempts = |backoff: bool| {
        let mut opts = vec![("attempts", Mp::Int(3))];
        if backoff {
            let fixed = vec![("type", st("fixed")), ("delay", Mp::Int(5000))];
            opts.push(("backoff", Mp::Map(fixed)));
        }
        Mp::Map(opts)
    };
    assert_eq!(q.add("addStandardJob", "welcome", attempts(true)), "2");
    assert_eq!(q.add("addStandardJob", "welcome", attempts(false)), "3");
    let token = "3b9f7c2e-worker:0";
    assert_eq!(q.take(token), "2");
    let mut argv = bytes(&[BULL, &q.now().to_string(), "2", token, "5000", "0"]);
    argv.extend([pack(failure()), b"0".to_vec(), Vec::new()]);
    let types = "marker active prioritized delayed =bull:mail:2 events meta stalled wait limiter \
                 paused pc";
    assert_eq!(q.run("moveToDelayed", types, argv), Value::Int(0));
    assert_eq!(q.take(token), "3");
    let mut argv = bytes(&[BULL, &q.now().to_string(), "LPUSH", "3", token]);
    argv.push(pack(failure()));
    let types = "active wait paused =bull:mail:3 meta events delayed prioritized pc marker stalled";
    assert_eq!(q.run("retryJob", types, argv), Value::Int(0));
    assert_eq!(q.take(token), "3");
    // maxStalledCount 1, stalledInterval 30 s: no job stalled yet.
    let argv = bytes(&["1", BULL, &q.now().to_string(), "30000"]);
    let types = "stalled wait active stalled-check meta paused marker events repeat";
    let stalled = q.run("moveStalledJobsToWait", types, argv);
    assert_eq!(stalled, Value::Array(vec![]));
}

#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn what_bullmqs_schedulers_and_retries_write_is_clean() {
    let Some(s) = Server::start("what_bullmqs_schedulers_and_retries_write_is_clean", &[]) else {
        return;
    };
    let q = Bull::new(&s, 0);
    let job = add_scheduler(&q);
    bullmq_retries(&q);
    let mut expected: Vec<String> = format!(
        "2 3 3:lock active delayed events id marker meta repeat repeat:{SCHEDULER} {job} \
         stalled stalled-check"
    )
    .split(' ')
    .map(|t| format!("{BULL}{t}"))
    .collect();
    expected.sort();
    assert_eq!(all_keys(&s), expected);
    let failed = "atm ats data delay failedReason name opts pb priority processedOn stacktrace \
                  timestamp";
    for (key, fields) in [
        ("2", failed),
        ("3", failed),
        (&format!("repeat:{SCHEDULER}"), "ic name offset pattern"),
        (&job, "data delay name opts priority rjk timestamp"),
    ] {
        assert_eq!(hkeys(&s, &format!("{BULL}{key}")), fields, "{key}");
    }
    // The members of a queue key, sorted (the backoff's job is due before
    // the scheduler's unless the hour turns within its 5 s).
    let members = |cmd: &str, key: &str| -> Vec<String> {
        let mut c = redis::cmd(cmd);
        c.arg(format!("{BULL}{key}"));
        if cmd != "SMEMBERS" {
            c.arg(0).arg(-1);
        }
        let mut m: Vec<String> = c.query(&mut s.con()).unwrap();
        m.sort();
        m
    };
    assert_eq!(members("ZRANGE", "delayed"), ["2", &job]);
    assert_eq!(members("SMEMBERS", "stalled"), ["3"]);
    assert_eq!(members("LRANGE", "active"), ["3"]);
    assert_clean(
        &s,
        "bullmq",
        "read 14 keys (14 of the contract's types, 0 outside the keyspace and not judged) and 0 queue members on 1 node",
    );
}
