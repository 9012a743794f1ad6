//! One story about coverage: `check --coverage`, `check --matrix`,
//! `extract --format json` and the checks' "N of M speakers still agree"
//! read the same runs. A tree in the shape the newcomer met: a command
//! script that `@include`s a file of the same name, an Elixir wrapper that
//! runs it by EVALSHA with an EVAL fallback, and a Rust speaker whose one
//! call is not linked and whose other call passes keys that cannot be
//! counted.

mod common;

use common::{json_findings, run};
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The project file of a Rust speaker in `rs/`.
fn rust_crate(root: &Path) {
    write(
        root,
        "rs/Cargo.toml",
        "[package]\nname = \"rs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
}

/// The project file of an Elixir speaker in `ex/`.
fn mix_project(root: &Path) {
    write(
        root,
        "ex/mix.exs",
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    );
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "wirelint.toml", "");
    write(
        root,
        "scripts/remove-2.lua",
        "-- KEYS[1] job row\n-- KEYS[2] pending set\n--- @include \"includes/remove\"\nremoveJob(KEYS[1])\nredis.call('ZREM', KEYS[2], ARGV[1])\nreturn 1\n",
    );
    write(
        root,
        "scripts/includes/remove.lua",
        "local function removeJob(key)\n  redis.call('DEL', key)\nend\n",
    );
    mix_project(root);
    write(
        root,
        "ex/lib/scripts.ex",
        r#"defmodule Q.Scripts do
  @remove File.read!(Path.join(__DIR__, "../../scripts/remove-2.lua"))
  @remove_sha :crypto.hash(:sha, @remove) |> Base.encode16(case: :lower)

  defp run(conn, keys, args) do
    case Redix.command(conn, ["EVALSHA", @remove_sha, length(keys) | keys ++ args]) do
      {:error, %Redix.Error{message: "NOSCRIPT" <> _}} ->
        Redix.command(conn, ["EVAL", @remove, length(keys) | keys ++ args])

      other ->
        other
    end
  end

  def remove(conn, q, id), do: run(conn, ["emq:{#{q}}:job:#{id}"], [id])
end
"#,
    );
    rust_crate(root);
    write(
        root,
        "rs/src/lib.rs",
        r#"pub fn run(con: &mut redis::Connection, script: &str, q: &str, id: &str) -> redis::RedisResult<i64> {
    redis::cmd("EVALSHA")
        .arg(script)
        .arg(2)
        .arg(format!("emq:{{{q}}}:job:{id}"))
        .arg(format!("emq:{{{q}}}:pending"))
        .arg(id)
        .query(con)
}

pub fn finish(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {
    redis::cmd("HSET")
        .arg(format!("emq:{{{q}}}:job:{id}"))
        .arg("state")
        .arg("done")
        .query(con)
}

pub fn drop_all(con: &mut redis::Connection, keys: &[String]) -> redis::RedisResult<i64> {
    let script = redis::Script::new(include_str!("../../scripts/remove-2.lua"));
    let mut call = script.prepare_invoke();
    for k in keys {
        call.key(k);
    }
    call.arg("all");
    call.invoke(con)
}
"#,
    );
    dir
}

/// Coverage names the command the calls run, not the file it includes,
/// and lists the Rust calls it could not check.
#[test]
fn coverage_counts_the_runs_of_the_command() {
    let dir = tree();
    let (code, _, stderr) = run(
        &["check", "--coverage", "--format", "concise", "."],
        dir.path(),
    );
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("coverage:") || l.starts_with("  "))
        .collect();
    assert_eq!(
        lines,
        [
            "coverage: ex: 2 of 2 script calls checked",
            "coverage: rs: 0 of 2 script calls checked",
            "  rs/src/lib.rs:2:5: not linked: the script is the parameter `script`, which no call binds",
            "  rs/src/lib.rs:21:20: not checked: the keys passed cannot be counted",
        ],
        "{stderr}"
    );
}

/// The one finding is Elixir's, and its help counts no Rust call as
/// agreeing: one is not linked, the other was not checked.
#[test]
fn a_call_not_checked_never_agrees() {
    let dir = tree();
    let (code, stdout, stderr) = run(&["check", "--format", "json", "."], dir.path());
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_findings(&stdout), ["WL303 ex/lib/scripts.ex:15"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["diagnostics"][0]["help"],
        "pass exactly 2 keys: KEYS[2] is nil inside `remove`. No other speaker here holds `remove` or runs it in a call wirelint checked, so none is counted as agreeing on the script's KEYS"
    );
}

/// The matrix's script row: Elixir diverges (the finding above), Rust
/// runs the script in no call wirelint checked.
#[test]
fn the_matrix_marks_a_script_run_unchecked() {
    let dir = tree();
    let (_, stdout, stderr) = run(&["check", "--matrix", "--format", "json", "."], dir.path());
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = v["matrix"]["rows"].as_array().unwrap();
    let script: Vec<String> = rows
        .iter()
        .filter(|r| r["kind"] == "script")
        .map(|r| format!("{} {}", r["item"], r["cells"]))
        .collect();
    assert_eq!(
        script,
        [r#""remove" {"ex":"diverges","rs":"unchecked"}"#],
        "{stderr}"
    );
    let (_, text, _) = run(&["check", "--matrix", "."], dir.path());
    assert!(
        text.contains("script remove                  ✗   ? \n"),
        "{text}"
    );
    assert!(
        text.contains("? run, but in no call wirelint checked"),
        "{text}"
    );
}

/// `extract` lists the Elixir caller once, though its wrapper reaches
/// Redis by two commands.
#[test]
fn extract_lists_each_call_once() {
    let dir = tree();
    let (code, stdout, stderr) = run(&["extract", "--format", "json", "."], dir.path());
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let ex = v["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "ex")
        .unwrap();
    let calls: Vec<String> = ex["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{} {} {}", c["script"], c["at"]["line"], c["keys"]))
        .collect();
    assert_eq!(
        calls,
        [
            r#""remove" 6 []"#,
            r#""remove" 8 []"#,
            r#""remove" 15 ["emq:{<*>}:job:<*>"]"#,
        ]
    );
}

/// Wording: a script read from a tuple's element says so (not "comes
/// from `.0(..)`"), and a script the code gives no name is a matrix row
/// of its bytes (not `<unnamed>`, which merged every such script).
#[test]
fn unlinked_and_unnamed_scripts_are_named_by_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "wirelint.toml", "");
    rust_crate(root);
    write(
        root,
        "rs/src/lib.rs",
        "pub fn run(con: &mut redis::Connection, entry: (String, u32), q: &str) -> redis::RedisResult<i64> {\n    redis::cmd(\"EVALSHA\")\n        .arg(entry.0)\n        .arg(1)\n        .arg(format!(\"jq:{{{q}}}:pending\"))\n        .query(con)\n}\n",
    );
    mix_project(root);
    write(
        root,
        "ex/lib/q.ex",
        "defmodule Q do\n  def drop(conn, q, id) do\n    Redix.command(conn, [\n      \"EVAL\",\n      \"\"\"\n      if redis.call('GET', KEYS[1]) == ARGV[1] then\n        return redis.call('DEL', KEYS[1])\n      end\n      return 0\n      \"\"\",\n      1,\n      \"jq:{#{q}}:dedup\",\n      id\n    ])\n  end\nend\n",
    );
    let (code, _, stderr) = run(&["check", "--coverage", "--format", "concise", "."], root);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("  rs/src/lib.rs:2:5: not linked: the script is element 0 of `entry`, which wirelint cannot follow to a script\n"),
        "{stderr}"
    );
    let (_, stdout, _) = run(&["check", "--matrix", "--format", "json", "."], root);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let items: Vec<&str> = v["matrix"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] != "key")
        .map(|r| r["item"].as_str().unwrap())
        .collect();
    assert_eq!(
        items,
        [
            "<unnamed, sha1 c89cee65b7ab> ARGV[1]",
            "<unnamed, sha1 c89cee65b7ab>"
        ]
    );
}

/// Test code is no speaker's use, in every view: a script a `#[cfg(test)]`
/// module defines and runs (with a key of its own) and one it defines and
/// never runs are neither matrix rows nor `extract` entries, nor a script
/// "run by no speaker"; coverage counts the test's call apart.
#[test]
fn test_code_is_no_use_in_any_view() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "wirelint.toml", "contract = false\n");
    rust_crate(root);
    write(
        root,
        "rs/src/lib.rs",
        r#"pub fn peek(con: &mut redis::Connection, q: &str) -> redis::RedisResult<Option<String>> {
    let script = redis::Script::new("return redis.call('LINDEX', KEYS[1], 0)");
    script.key(format!("jq:{q}:pending")).invoke(con)
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_a_script() {
        let mut con = redis::Client::open("redis://127.0.0.1").unwrap().get_connection().unwrap();
        let probe = redis::Script::new("return redis.call('GET', KEYS[1])");
        let _: Option<String> = probe.key("jq:t:probe").invoke(&mut con).unwrap();
        let _unused = redis::Script::new("return redis.call('DEL', KEYS[1])");
    }
}
"#,
    );
    let (code, stdout, stderr) = run(&["check", "--matrix", "--coverage", "."], root);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.lines().take(3).collect::<Vec<_>>(),
        [
            "item                                 rs",
            "key jq:<*>:pending                   ✓ ",
            "script <unnamed, sha1 1d4b67985421>  ✓ ",
        ]
    );
    let coverage: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("coverage:"))
        .collect();
    assert_eq!(
        coverage,
        ["coverage: rs: 2 of 2 script calls checked (1 in test code)"]
    );
    let (_, stdout, _) = run(&["extract", "--format", "json", "."], root);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rs = &v["speakers"][0];
    let names = |list: &str, field: &str| -> Vec<String> {
        rs[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| format!("{} {}", x[field], x["at"]["line"]))
            .collect()
    };
    assert_eq!(names("scripts", "name"), [r#""script" 2"#]);
    assert_eq!(names("calls", "script"), [r#""script" 3"#]);
    assert_eq!(names("keys", "template"), [r#""jq:<*>:pending" 3"#]);
}
