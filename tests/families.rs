//! The shipped family contracts: listed by `wirelint rules --contracts`,
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
    Redix.command(conn, ["ZADD", "bull:" <> q <> ":wait", "0", "1"])
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

#[test]
fn a_port_is_read_against_its_family_by_name() {
    let dir = port();
    let (code, stdout, stderr) = run(
        &["check", ".", "--contract", "bullmq", "--format", "json"],
        dir.path(),
    );
    assert_eq!(
        json_findings(&stdout),
        ["WL201 port/lib/jobs.ex:3"],
        "{stderr}"
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["contract"]["name"], "bullmq");
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
