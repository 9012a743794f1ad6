//! The shipped family contracts: listed by `wirelint contract list` (and
//! `wirelint rules --contracts`), printed by `wirelint contract show`,
//! selected by name on the command line or in `wirelint.toml`, their
//! `<prefix>` set by `wirelint.toml`, and read against a port's keys and
//! fields.

mod common;

use common::{json_findings, run};

fn write(dir: &std::path::Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// An Elixir BullMQ port: one field of the queue's meta hash the contract
/// does not know (`pausd`).
const PORT: &str = r#"defmodule Port.Jobs do
  def pause(conn, q) do
    Redix.command(conn, ["HSET", "bull:" <> q <> ":meta", "paused", "1", "pausd", "1"])
    Redix.command(conn, ["LPUSH", "bull:" <> q <> ":wait", "1"])
    Redix.command(conn, ["SET", "bull:" <> q <> ":1:lock", "token"])
  end
end
"#;

fn port() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "port/mix.exs",
        "defmodule Port.MixProject do\nend\n",
    );
    write(dir.path(), "port/lib/jobs.ex", PORT);
    dir
}

#[test]
fn rules_lists_the_shipped_contracts() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, _) = run(&["rules", "--contracts"], dir.path());
    assert_eq!(code, 0);
    let names: Vec<&str> = stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, ["echomq", "bullmq", "rsmq", "sidekiq", "asynq"]);
    assert!(stdout.contains("rules/bullmq.toml"));
}

/// `wirelint contract list` is `rules --contracts`: one line a contract,
/// its name, its file and its description.
#[test]
fn contract_list_is_rules_contracts() {
    let dir = tempfile::tempdir().unwrap();
    let (code, list, err) = run(&["contract", "list"], dir.path());
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, rules, _) = run(&["rules", "--contracts"], dir.path());
    assert_eq!(list, rules);
    let starts: Vec<String> = list
        .lines()
        .map(|l| {
            l.split(' ')
                .filter(|w| !w.is_empty())
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(starts, SHIPPED.map(|n| format!("{n} rules/{n}.toml")));
}

const SHIPPED: [&str; 5] = ["echomq", "bullmq", "rsmq", "sidekiq", "asynq"];

/// `wirelint contract show NAME` prints `rules/NAME.toml` byte for byte,
/// the shipped one even where a directory of that name exists.
#[test]
fn contract_show_prints_each_shipped_contract_as_shipped() {
    let dir = tempfile::tempdir().unwrap();
    for name in SHIPPED {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        let (code, out, err) = run(&["contract", "show", name], dir.path());
        let shipped = std::fs::read(common::repo().join(format!("rules/{name}.toml"))).unwrap();
        assert_eq!(out.as_bytes(), shipped.as_slice(), "{name}");
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
    }
}

/// An unknown name: exit 2 with the message `--contract` gives; a path:
/// exit 2, saying `show` takes a name.
#[test]
fn contract_show_of_an_unknown_name_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(&["contract", "show", "bulmq"], dir.path());
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: no shipped contract is named `bulmq` (did you mean `bullmq`?): the shipped contracts are echomq, bullmq, rsmq, sidekiq, asynq, and a contract file is written as a path (./bulmq, or a name ending in .toml)\n"
    );
    let (code, _, check) = run(&["check", ".", "--contract", "bulmq"], dir.path());
    assert_eq!((code, check), (2, err));
    let (code, out, err) = run(&["contract", "show", "rules/bullmq.toml"], dir.path());
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: `contract show` prints a shipped contract by its name; `rules/bullmq.toml` is written as a path (`wirelint contract list` names the shipped ones)\n"
    );
}

/// `check . --contract bullmq --format json` in `dir`, which finds the
/// port's one WL201 and fails: the JSON.
fn against_bullmq(dir: &std::path::Path) -> serde_json::Value {
    let (code, stdout, stderr) = run(
        &["check", ".", "--contract", "bullmq", "--format", "json"],
        dir,
    );
    assert_eq!(
        json_findings(&stdout),
        ["WL201 port/lib/jobs.ex:3"],
        "{stderr}"
    );
    assert_eq!(code, 1);
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn a_port_is_read_against_its_family_by_name() {
    let dir = port();
    let v = against_bullmq(dir.path());
    assert_eq!(v["contract"]["name"], "bullmq");
}

/// A port's own keys beside the family's (a session cache, a user hash):
/// outside the contract's keyspace, no near miss of it, so no finding; one
/// note names them, and not those of test code.
#[test]
fn a_ports_own_keys_are_a_note_not_a_finding() {
    let dir = port();
    let own = "defmodule Port.Cache do\n  def put(conn, u) do\n    Redix.command(conn, [\"SET\", \"app:sessions:\" <> u, \"1\"])\n    Redix.command(conn, [\"HSET\", \"app:users:\" <> u, \"name\", \"x\"])\n    Redix.command(conn, [\"HSET\", \"app:users:\" <> u, \"mail\", \"x\"])\n  end\nend\n";
    write(dir.path(), "port/lib/cache.ex", own);
    write(
        dir.path(),
        "port/test/cache_test.exs",
        &own.replace("Port.Cache", "Port.CacheTest"),
    );
    let v = against_bullmq(dir.path());
    let says = "the keys `app:sessions:<u>`, `app:users:<u>` are outside the keyspace of the `bullmq` contract (its keys start with `bull:`): read as this code's own, not held to the contract";
    assert_eq!(
        v["notes"],
        serde_json::json!([{"path": ".", "message": says}])
    );
    // A contract of one's own (here a copy of the family's, by path) is
    // no family a port follows: nothing is said of the keys outside it.
    let (_, text, _) = run(&["contract", "show", "bullmq"], dir.path());
    write(dir.path(), "ours.toml", &text);
    let (_, stdout, _) = run(
        &["check", ".", "--contract", "ours.toml", "--format", "json"],
        dir.path(),
    );
    assert_eq!(json_findings(&stdout), ["WL201 port/lib/jobs.ex:3"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .all(|n| !n["message"].as_str().unwrap().contains("code's own")),
        "{stdout}"
    );
}

/// `wirelint.toml` names a shipped contract and sets its `<prefix>`: the
/// port's `bull:` keys are then another namespace, and its `app:` keys the
/// family's.
#[test]
fn wirelint_toml_names_a_family_and_sets_its_prefix() {
    let dir = port();
    write(
        dir.path(),
        "wirelint.toml",
        "contract = \"bullmq\"\nprefix = \"app\"\n",
    );
    let (_, stdout, stderr) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), Vec::<String>::new(), "{stderr}");
    let text = PORT.replace("\"bull:\"", "\"app:\"");
    write(dir.path(), "port/lib/jobs.ex", &text);
    let (_, stdout, stderr) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(
        json_findings(&stdout),
        ["WL201 port/lib/jobs.ex:3"],
        "{stderr}"
    );
}

#[test]
fn an_unknown_name_is_no_contract() {
    let dir = port();
    let (code, _, stderr) = run(&["check", ".", "--contract", "bullqm"], dir.path());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("bullqm"), "{stderr}");
}

/// An RSMQ-shaped tree: the queue hash, the bare queue key, a global key.
const RSMQ_PORT: &str = r#"defmodule Port.Queue do
  def create(conn, q) do
    Redix.pipeline(conn, [
      ["HSETNX", "rsmq:" <> q <> ":Q", "vt", "30"],
      ["HSETNX", "rsmq:" <> q <> ":Q", "delay", "0"],
      ["SADD", "rsmq:QUEUES", q]
    ])
  end

  def send(conn, q, id, body) do
    Redix.command(conn, ["ZADD", "rsmq:" <> q, "0", id])
    Redix.command(conn, ["HINCRBY", "rsmq:" <> q <> ":Q", "totalsent", "1"])
  end
end
"#;

/// `extract --as-contract` drafts a keyspace without a hash tag, with its
/// global and bare queue keys as whole keys, and its records; the draft
/// checks its own tree silently and a renamed field against it.
#[test]
fn a_draft_of_a_plain_keyspace_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "port/mix.exs",
        "defmodule Port.MixProject do\nend\n",
    );
    write(dir.path(), "port/lib/queue.ex", RSMQ_PORT);
    let (code, draft, stderr) = run(&["extract", "--as-contract", "."], dir.path());
    assert_eq!(code, 0, "{stderr}");
    for line in [
        "key = \"rsmq:<queue>:<type>\"",
        "Q = \"Q\"",
        "[keyspace.keys]",
        "queue = \"rsmq:<queue>\"",
        "queues = \"rsmq:QUEUES\"",
        "fields = [\"delay\", \"totalsent\", \"vt\"]",
    ] {
        assert!(draft.contains(line), "{line}:\n{draft}");
    }
    let keep = tempfile::tempdir().unwrap();
    let file = keep.path().join("draft.toml");
    std::fs::write(&file, &draft).unwrap();
    let check = |dir: &std::path::Path| {
        let (_, stdout, stderr) = run(
            &[
                "check",
                ".",
                "--format",
                "json",
                "--contract",
                file.to_str().unwrap(),
            ],
            dir,
        );
        (json_findings(&stdout), stderr)
    };
    let (found, stderr) = check(dir.path());
    assert_eq!(found, Vec::<String>::new(), "{draft}\n{stderr}");
    write(
        dir.path(),
        "port/lib/queue.ex",
        &RSMQ_PORT.replace("\"totalsent\"", "\"total_sent\""),
    );
    let (found, stderr) = check(dir.path());
    assert_eq!(found, ["WL201 port/lib/queue.ex:12"], "{stderr}");
}

const TAGGED_PORT: &str = r##"defmodule Port.Tasks do
  def enqueue(conn, q, id) do
    Redix.command(conn, ["HSET", "tq:{" <> q <> "}:t:" <> id, "state", "pending"])
    Redix.command(conn, ["LPUSH", "tq:{" <> q <> "}:pending", id])
    Redix.command(conn, ["SADD", "tq:queues", q])
  end

  def heartbeat(conn, host, pid, id) do
    Redix.command(conn, ["SET", "tq:servers:{#{host}:#{pid}:#{id}}", "alive"])
    Redix.command(conn, ["SADD", "tq:servers", id])
  end

  def forget_test_server(conn), do: Redix.command(conn, ["DEL", "tq:servers:{test-host:1:abc}"])

  def noop(_conn) do
    :ok
  end

  def acquire(conn, scope), do: Redix.command(conn, ["ZADD", "tq:sema:" <> scope, "0", "x"])
end
"##;

/// Keys of no queue that hold ids (a server's id in a hash tag, a scope)
/// are drafted as whole templates, so the draft reads them as keys of
/// their own and not against the queue key's hash tag.
#[test]
fn a_draft_writes_keys_with_ids_in_a_hash_tag_whole() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "port/mix.exs",
        "defmodule Port.MixProject do\nend\n",
    );
    write(dir.path(), "port/lib/tasks.ex", TAGGED_PORT);
    let (code, draft, stderr) = run(&["extract", "--as-contract", "."], dir.path());
    assert_eq!(code, 0, "{stderr}");
    for line in [
        "key = \"tq:{<queue>}:<type>\"",
        "queues = \"tq:queues\"",
        "servers_ = \"tq:servers:{<id>}\"",
        "sema = \"tq:sema:<id>\"",
    ] {
        assert!(draft.contains(line), "{line}:\n{draft}");
    }
    let keep = tempfile::tempdir().unwrap();
    let file = keep.path().join("draft.toml");
    std::fs::write(&file, &draft).unwrap();
    let (_, stdout, stderr) = run(
        &[
            "check",
            ".",
            "--format",
            "json",
            "--contract",
            file.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(
        json_findings(&stdout),
        Vec::<String>::new(),
        "{draft}\n{stderr}"
    );
}

const BULLMQ_PORT: &str = r##"defmodule Port.Jobs do
  def job_key(prefix, queue, id), do: "#{prefix}:#{queue}:#{id}"

  def add(conn, prefix, queue, id, name, data) do
    Redix.command(conn, ["HSET", job_key(prefix, queue, id), "name", name, "data", data])
  end

  def data(conn, prefix, queue, id), do: Redix.command(conn, ["HGET", job_key(prefix, queue, id), "data"])
  def progress(conn, prefix, queue, id), do: Redix.command(conn, ["HGET", job_key(prefix, queue, id), "progres"])
end
"##;

/// BullMQ's job hash sits at `<prefix>:<queue>:<id>`, holes and `:`s
/// alone: under the bullmq contract `extract` lists it as a record with
/// its writers and readers. Such a key cannot tell the job from the
/// queue's other hashes (`<id>` may be `meta`), so the field rules stay
/// silent on it (the misspelt `progres` is no finding).
#[test]
fn bullmq_job_record_at_a_key_of_holes_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "port/mix.exs",
        "defmodule Port.MixProject do\nend\n",
    );
    write(dir.path(), "port/lib/jobs.ex", BULLMQ_PORT);
    let (code, out, stderr) = run(&["extract", ".", "--contract", "bullmq"], dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        out.contains("<*>:<*>:<*>  writes [data, name]  reads [data, progres]"),
        "{out}"
    );
    let (_, out, _) = run(&["extract", ".", "--no-contract"], dir.path());
    assert!(!out.contains("<*>:<*>:<*>"), "{out}");
    let (code, stdout, _) = run(
        &["check", ".", "--format", "json", "--contract", "bullmq"],
        dir.path(),
    );
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
    assert_eq!(code, 0);
}

/// A keyspace of no queue key (Sidekiq's: `queue:<name>`, `stat:*`, a
/// hash per job) and a script with no header whose calls all pass two
/// keys.
const PLAIN_PORT: &str = r##"defmodule Port.Work do
  @move """
  local jid = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  redis.call('ZREM', KEYS[1], jid)
  redis.call('LPUSH', KEYS[2], jid)
  return jid
  """

  def push(conn, queue, job) do
    Redix.command(conn, ["LPUSH", "queue:" <> queue, job])
    Redix.command(conn, ["INCR", "stat:processed"])
  end

  def progress(conn, jid, c), do: Redix.command(conn, ["HSET", "job:" <> jid, "c", c, "ex", "1"])

  def due(conn, queue), do: Redix.command(conn, ["EVAL", @move, 2, "schedule", "queue:" <> queue])
  def retry(conn, queue), do: Redix.command(conn, ["EVAL", @move, 2, "retry", "queue:" <> queue])
end
"##;

/// `extract --as-contract` drafts a keyspace of whole keys when no key
/// follows a queue key, and a script's KEYS from the count its calls all
/// pass; the draft checks its own tree silently and a renamed field
/// against it.
#[test]
fn a_draft_of_whole_keys_and_counted_scripts_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "port/mix.exs",
        "defmodule Port.MixProject do\nend\n",
    );
    write(dir.path(), "port/lib/work.ex", PLAIN_PORT);
    let (code, draft, stderr) = run(&["extract", "--as-contract", "."], dir.path());
    assert_eq!(code, 0, "{stderr}");
    for line in [
        "[keyspace.keys]",
        "queue = \"queue:<id>\"",
        "stat_processed = \"stat:processed\"",
        "job = \"job:<id>\"",
        "fields = [\"c\", \"ex\"]",
        "[scripts.move]",
    ] {
        assert!(draft.contains(line), "{line}:\n{draft}");
    }
    assert!(!draft.contains("key = "), "{draft}");
    let keep = tempfile::tempdir().unwrap();
    let file = keep.path().join("draft.toml");
    std::fs::write(&file, &draft).unwrap();
    let check = |dir: &std::path::Path| {
        let (_, stdout, stderr) = run(
            &[
                "check",
                ".",
                "--format",
                "json",
                "--contract",
                file.to_str().unwrap(),
            ],
            dir,
        );
        (json_findings(&stdout), stderr)
    };
    let (found, stderr) = check(dir.path());
    assert_eq!(found, Vec::<String>::new(), "{draft}\n{stderr}");
    write(
        dir.path(),
        "port/lib/work.ex",
        &PLAIN_PORT.replace("\"c\", c", "\"cur\", c"),
    );
    let (found, stderr) = check(dir.path());
    assert_eq!(found, ["WL201 port/lib/work.ex:14"], "{stderr}");
}
