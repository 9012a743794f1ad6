//! The embedded contract steps aside for a repository that speaks another
//! protocol (for a shipped family's contract, when the tree's keys are of
//! its keyspace), applies where its keyspace is used, and always when
//! named.

mod common;

use common::{json_findings, run};

fn write(dir: &std::path::Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const FOREIGN: &str = r#"defmodule Bull.Keys do
  def wait(q), do: "bull:" <> q <> ":wait"
  def job(q, id), do: "bull:#{q}:#{id}"
  def add(conn, q, id), do: Redix.command(conn, ["HSET", job(q, id), "data", "x"])
end
"#;

#[test]
fn a_foreign_keyspace_is_not_an_echomq_divergence() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "app/mix.exs",
        "defmodule App.MixProject do\nend\n",
    );
    write(dir.path(), "app/lib/keys.ex", FOREIGN);
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // Its keys are BullMQ's: the shipped contract applies, and the note
    // says so.
    assert_eq!(v["contract"]["name"], "bullmq");
    let notes = v["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    let note = notes[0]["message"].as_str().unwrap();
    assert!(note.contains("so it steps aside"));
    assert!(note.contains("shipped `bullmq` contract"), "{note}");
    // And how to choose: the family by name, another, none.
    assert!(
        note.ends_with("(to choose: --contract bullmq or `contract = \"bullmq\"` in wirelint.toml pins it, --contract NAME another family (`wirelint contract list`), --contract ./FILE a file, --no-contract none)"),
        "{note}"
    );
    // A field of the queue's meta hash that BullMQ does not know is a
    // divergence from the family; a configured choice still decides.
    let text = FOREIGN.replace(
        "  def add(",
        "  def pause(conn, q), do: Redix.command(conn, [\"HSET\", \"bull:\" <> q <> \":meta\", \"pausd\", \"1\"])\n  def add(",
    );
    write(dir.path(), "app/lib/keys.ex", &text);
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), ["WL201 app/lib/keys.ex:4"]);
    assert_eq!(code, 1);
    write(dir.path(), "wirelint.toml", "contract = false\n");
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
    assert_eq!(code, 0);
}

/// A near miss meets the contract where the contract's keyspace is used:
/// another speaker builds `emq:` keys, so `emk:` is a moved prefix.
#[test]
fn a_near_miss_meets_the_contract_where_its_keyspace_is_used() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "app/mix.exs",
        "defmodule App.MixProject do\nend\n",
    );
    write(
        dir.path(),
        "app/lib/keys.ex",
        "defmodule App.Keys do\n  def job(q, id), do: \"emk:{#{q}}:job:#{id}\"\nend\n",
    );
    write(
        dir.path(),
        "peer/Cargo.toml",
        "[package]\nname = \"peer\"\n",
    );
    write(
        dir.path(),
        "peer/src/keys.rs",
        "pub fn job(q: &str, id: &str) -> String {\n    format!(\"emq:{{{q}}}:job:{id}\")\n}\n",
    );
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), vec!["WL101 app/lib/keys.ex:2"]);
    assert_eq!(code, 1);
}

/// A near miss alone is another protocol (`exq:` is not a moved `emq:`):
/// the embedded contract steps aside; named in `wirelint.toml`, it applies.
#[test]
fn a_near_miss_alone_is_another_protocol_unless_the_contract_is_named() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "app/mix.exs",
        "defmodule App.MixProject do\nend\n",
    );
    write(
        dir.path(),
        "app/lib/keys.ex",
        "defmodule App.Keys do\n  def job(q, id), do: \"emk:{#{q}}:job:#{id}\"\nend\n",
    );
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
    assert_eq!(code, 0);
    write(dir.path(), "wirelint.toml", "contract = true\n");
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), vec!["WL101 app/lib/keys.ex:2"]);
    assert_eq!(code, 1);
}

#[test]
fn an_explicit_contract_never_steps_aside() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "app/mix.exs",
        "defmodule App.MixProject do\nend\n",
    );
    write(dir.path(), "app/lib/keys.ex", FOREIGN);
    let contract = common::repo().join("rules/echomq.toml");
    let (code, stdout, _) = run(
        &[
            "check",
            ".",
            "--format",
            "json",
            "--contract",
            contract.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["contract"]["name"], "echomq");
    assert_eq!(v["notes"], serde_json::json!([]));
}

/// Two projects' `init.lua` editor configs are not copies of one Redis
/// script: they never call Redis.
#[test]
fn lua_files_that_never_call_redis_are_not_scripts() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/mix.exs", "defmodule A.MixProject do\nend\n");
    write(dir.path(), "a/priv/init.lua", "local M = {}\nreturn M\n");
    write(dir.path(), "b/Cargo.toml", "[package]\nname = \"b\"\n");
    write(dir.path(), "b/lua/init.lua", "vim.g.x = 1\n");
    for extra in [&[][..], &["--no-prefilter"][..]] {
        let mut args = vec!["check", ".", "--format", "json"];
        args.extend_from_slice(extra);
        let (code, stdout, _) = run(&args, dir.path());
        assert_eq!(json_findings(&stdout), Vec::<String>::new(), "{extra:?}");
        assert_eq!(code, 0);
    }
}
