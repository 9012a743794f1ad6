//! `check --matrix`: the agreement matrix, as a table and in the JSON.

mod common;

use common::{repo, run, variant};

fn table(name: &str) -> String {
    let dir = variant(name);
    let (_, stdout, _) = run(&["check", ".", "--matrix"], dir.path());
    stdout
}

#[test]
fn the_clean_fixture_agrees_everywhere() {
    insta::assert_snapshot!("matrix_echomq", table(""));
}

#[test]
fn a_prefix_change_splits_the_job_key() {
    insta::assert_snapshot!("matrix_prefix_changed", table("prefix-changed"));
}

#[test]
fn a_renamed_field_diverges_in_its_speaker() {
    insta::assert_snapshot!(
        "matrix_one_speaker_renames",
        table("one-speaker-renames-a-field")
    );
}

/// A row per ARGV slot: the Rust peer that drops the payload diverges on
/// its call's slots, the others agree.
#[test]
fn an_argv_value_dropped_diverges_in_its_speaker() {
    insta::assert_snapshot!("matrix_argv_payload_dropped", table("argv-payload-dropped"));
}

#[test]
fn the_matrix_is_in_the_json_and_fits_the_schema() {
    let dir = variant("prefix-changed");
    let (code, stdout, _) = run(&["check", ".", "--matrix", "--format", "json"], dir.path());
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        doc["matrix"]["speakers"],
        serde_json::json!(["echo_mq", "peers/rust", "peers/worker"])
    );
    let emk = doc["matrix"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["item"] == "emk:{<*>}:job:<*>")
        .expect("a row for the diverging key");
    assert_eq!(emk["cells"], serde_json::json!({"peers/rust": "diverges"}));
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("docs/wirelint-output.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&doc));
}

/// 17 crates, one more than a table shows: a line per row naming the
/// speakers that use its item, and in the JSON only those speakers. The
/// dense form was speakers × rows (4,300 crates: 680 MB of JSON).
#[test]
fn many_speakers_are_listed_by_row_not_tabled() {
    let dir = tempfile::tempdir().unwrap();
    common::crates(dir.path(), 17);
    let (code, stdout, _) = run(&["check", ".", "--matrix"], dir.path());
    assert_eq!(code, 1);
    let agree: Vec<String> = (0..17).map(|i| format!("c{i:02}")).collect();
    let state: Vec<String> = (0..16).map(|i| format!("c{i:02}")).collect();
    assert_eq!(
        stdout,
        format!(
            "17 speakers, too many for a table: each row names the speakers that use its item\n\
             field emq:{{<*>}}:job:<*> extra  ✗ c16\n\
             field emq:{{<*>}}:job:<*> state  ✓ {}\n\
             key emq:{{<*>}}:job:<*>  ✓ {}\n\
             ✓ agrees   ✗ diverges (a finding points at this use); a speaker not named does not use the item\n",
            state.join(", "),
            agree.join(", ")
        )
    );
    let (_, stdout, _) = run(&["check", ".", "--matrix", "--format", "json"], dir.path());
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["version"], 3);
    assert_eq!(doc["matrix"]["speakers"], serde_json::json!(agree));
    assert_eq!(
        doc["matrix"]["rows"][0],
        serde_json::json!({"kind": "field", "item": "emq:{<*>}:job:<*> extra", "cells": {"c16": "diverges"}})
    );
    assert_eq!(
        doc["matrix"]["rows"][1]["cells"].as_object().unwrap().len(),
        16
    );
}

/// A script a `#[cfg(test)]` module defines and runs, and the key its test
/// passes, are no row: test code is no speaker's use (coverage counts its
/// runs apart). Before, the test's script was a row of its own.
#[test]
fn test_code_is_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"peer\"\nversion = \"0.1.0\"\n\n[dependencies]\nredis = \"0.25\"\n",
    )
    .unwrap();
    std::fs::write(root.join("src/lib.rs"), TEST_SCRIPT_CRATE).unwrap();
    let (code, stdout, _) = run(&["check", ".", "--matrix"], root);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "item                                 (root)\n\
         key emq:{<*>}:pending                  ✓   \n\
         script <unnamed, sha1 8c65b2bc1e1a>    ✓   \n\
         ✓ agrees   ✗ diverges (a finding points at this use)   · not used\n"
    );
}

const TEST_SCRIPT_CRATE: &str = r#"pub struct LuaScript {
    pub name: String,
    pub num_keys: usize,
    pub body: String,
}

impl LuaScript {
    pub fn new(name: &str, num_keys: usize, body: &str) -> Self {
        Self { name: name.to_string(), num_keys, body: body.to_string() }
    }

    pub fn run(&self, conn: &mut redis::Connection, keys: &[String]) -> redis::RedisResult<redis::Value> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(self.body.as_str()).arg(self.num_keys);
        for key in keys {
            cmd.arg(key);
        }
        cmd.query(conn)
    }
}

pub fn depth(conn: &mut redis::Connection, q: &str) -> redis::RedisResult<redis::Value> {
    let script = LuaScript::new("depth", 1, "return redis.call('LLEN', KEYS[1])");
    script.run(conn, &[format!("emq:{{{q}}}:pending")])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_script() {
        let script = LuaScript::new("test", 1, "return redis.call('GET', KEYS[1])");
        let mut conn = redis::Client::open("redis://127.0.0.1/").unwrap().get_connection().unwrap();
        assert!(script.run(&mut conn, &["emq:{t}:pending".to_string()]).is_ok());
    }
}
"#;

/// Two scripts known neither by a name nor by their bytes (a hole in each)
/// are two rows, each named by its file; before, both were `<unnamed>`.
#[test]
fn scripts_without_a_name_or_bytes_are_rows_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::fs::write(root.join("mix.exs"), "").unwrap();
    std::fs::write(
        root.join("lib/q.ex"),
        "defmodule Q do\n  def a(conn, k, v), do: Redix.command(conn, [\"EVAL\", \"return redis.call('SET', KEYS[1], ARGV[1] .. '#{v}')\", 1, k, v])\n\
         \x20 def b(conn, k, v), do: Redix.command(conn, [\"EVAL\", \"return redis.call('GET', KEYS[1] .. '#{v}')\", 1, k])\nend\n",
    )
    .unwrap();
    std::fs::write(
        root.join("lib/r.ex"),
        "defmodule R do\n  def c(conn, k, v), do: Redix.command(conn, [\"EVAL\", \"return redis.call('DEL', KEYS[1] .. '#{v}')\", 1, k])\nend\n",
    )
    .unwrap();
    let (code, stdout, _) = run(&["check", ".", "--matrix"], root);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "item                                   (root)\n\
         argv <unnamed in lib/q.ex #1> ARGV[1]    ✓   \n\
         script <unnamed in lib/q.ex #1>          ✓   \n\
         script <unnamed in lib/q.ex #2>          ✓   \n\
         script <unnamed in lib/r.ex>             ✓   \n\
         ✓ agrees   ✗ diverges (a finding points at this use)   · not used\n"
    );
}

/// A speaker whose keys reach the wire only through the scripts it runs
/// (a key module's functions of the caller's prefix, passed as KEYS) takes
/// part in the protocol: it is a column, as the checks that blame it count it.
#[test]
fn a_speaker_that_only_runs_scripts_is_a_column() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("wirelint.toml", "contract = \"oq.toml\"\n");
    write(
        "oq.toml",
        "name = \"oq\"\n\n[keyspace]\nkey = \"<prefix>:<queue>:<type>\"\nprefix = \"oq\"\nclustered = false\n\n[keyspace.types]\njob = \"job:<id>\"\nwait = \"wait\"\n",
    );
    write(
        "scripts/push-2.lua",
        "-- KEYS[1] job\n-- KEYS[2] wait\nredis.call('HSET', KEYS[1], 'state', 'waiting')\nredis.call('LPUSH', KEYS[2], ARGV[1])\nreturn 1\n",
    );
    write(
        "ex/mix.exs",
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    );
    write(
        "ex/lib/q/keys.ex",
        "defmodule Q.Keys do\n  def job(%{prefix: p, name: q}, id), do: \"#{p}:#{q}:job:#{id}\"\n  def wait(%{prefix: p, name: q}), do: \"#{p}:#{q}:wait\"\nend\n",
    );
    write(
        "ex/lib/q.ex",
        "defmodule Q do\n  alias Q.Keys\n  @push File.read!(Path.join(__DIR__, \"../../scripts/push-2.lua\"))\n\n  def push(conn, q, id) do\n    Redix.command(conn, [\"EVAL\", @push, 2, Keys.job(q, id), Keys.wait(q), id])\n  end\nend\n",
    );
    write(
        "rs/Cargo.toml",
        "[package]\nname = \"rs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        "rs/src/lib.rs",
        "pub fn push(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {\n    redis::Script::new(include_str!(\"../../scripts/push-2.lua\"))\n        .key(format!(\"oq:{q}:job:{id}\"))\n        .key(format!(\"oq:{q}:wait\"))\n        .arg(id)\n        .invoke(con)\n}\n",
    );
    let (code, stdout, stderr) = run(&["check", "--matrix", "--format", "json"], root);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        doc["matrix"]["speakers"],
        serde_json::json!(["ex", "rs"]),
        "{stdout}"
    );
}
