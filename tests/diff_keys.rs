//! A key dropped from a script's KEYS is one change that names the key and
//! the callers that still pass the old count, not a change per slot that
//! moved up plus the new bytes. A key dropped from a call's KEYS, where
//! the script still takes it, is a change too (WD305), as `check` reports
//! it (WL303).

mod common;

use common::{git, run};

const BASE: &str = "-- KEYS[1] job row
-- KEYS[2] paused set
-- KEYS[3] pending set
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
redis.call('ZADD', KEYS[3], 0, ARGV[1])
return 1
";

const DROPPED: &str = "-- KEYS[1] job row
-- KEYS[2] pending set
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
";

const CALLER: &str = "defmodule Q.Scripts do
  @add_job File.read!(Path.join(__DIR__, \"../../../src/commands/addJob-3.lua\"))

  def add_job(conn, queue, id, payload) do
    job = \"emq:{#{queue}}:job:#{id}\"
    paused = \"emq:{#{queue}}:paused\"
    pending = \"emq:{#{queue}}:pending\"
    Redix.command(conn, [\"EVAL\", @add_job, 3, job, paused, pending, id, payload])
  end
end
";

#[test]
fn a_dropped_key_is_one_change_with_its_callers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("src/commands")).unwrap();
    std::fs::create_dir_all(d.join("elixir/lib/q")).unwrap();
    std::fs::write(d.join("src/commands/addJob-3.lua"), BASE).unwrap();
    std::fs::write(
        d.join("elixir/mix.exs"),
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    )
    .unwrap();
    std::fs::write(d.join("elixir/lib/q/scripts.ex"), CALLER).unwrap();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    std::fs::write(d.join("src/commands/addJob-3.lua"), DROPPED).unwrap();

    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "src/commands/addJob-3.lua:1:1: error[WD301]: script `addJob`: `paused set` removed from KEYS (3 \u{2192} 2); this caller still passes 3 [(shared scripts)] (was main:src/commands/addJob-3.lua:2)\n"
        ),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["diff", "--against", "main"], d);
    assert!(
        stderr.contains("╭─[elixir/lib/q/scripts.ex:8:25]"),
        "{stderr}"
    );
    assert!(stderr.contains("still passes the old count"), "{stderr}");
    let (_, stdout, _) = run(&["diff", "--against", "main", "--format", "github"], d);
    assert!(
        stdout.contains("%0Astill passes the old count: elixir/lib/q/scripts.ex:8%0A"),
        "{stdout}"
    );
    // Its callers updated, the change still says what was removed.
    std::fs::write(
        d.join("elixir/lib/q/scripts.ex"),
        CALLER.replace("3, job, paused, pending", "2, job, pending"),
    )
    .unwrap();
    let (_, stdout, _) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert!(
        stdout.starts_with("src/commands/addJob-3.lua:1:1: error[WD301]: script `addJob`: `paused set` removed from KEYS (3 \u{2192} 2) [(shared scripts)]"),
        "{stdout}"
    );
}

/// The callers run the script through a wrapper that takes its name and
/// keys; a port registers it with its count and the file a build step
/// copies beside it.
const WRAPPED: &str = "defmodule Q.Scripts do
  def add_job(conn, queue, id, payload) do
    keys = [\"emq:{#{queue}}:job:#{id}\", \"emq:{#{queue}}:paused\", \"emq:{#{queue}}:pending\"]
    execute(conn, :add_job, keys, [id, payload])
  end

  defp execute(conn, name, keys, args) do
    Redix.command(conn, [\"EVALSHA\", Q.Loader.sha(name), length(keys) | keys ++ args])
  end
end
";

const REGISTERED: &str = "// src/commands/ is filled by the build from ../src/commands.
pub fn scripts() -> Vec<(&'static str, usize, &'static str)> {
    vec![(\"addJob\", 3, include_str!(\"commands/addJob-3.lua\"))]
}
";

/// The file renamed with its new count, as a port's maintainer would: one
/// change that lists the wrapper's caller and the port's registration, and
/// no script said to be new where the registration no longer finds its file.
#[test]
fn a_dropped_key_lists_wrapped_callers_and_registrations() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for sub in ["src/commands", "elixir/lib/q", "rust/src"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    std::fs::write(d.join("src/commands/addJob-3.lua"), BASE).unwrap();
    std::fs::write(
        d.join("elixir/mix.exs"),
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    )
    .unwrap();
    std::fs::write(d.join("elixir/lib/q/scripts.ex"), WRAPPED).unwrap();
    std::fs::write(
        d.join("rust/Cargo.toml"),
        "[package]\nname = \"q\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::write(d.join("rust/src/lib.rs"), REGISTERED).unwrap();
    // The scripts' folder belongs to the repository's own project.
    std::fs::write(d.join("package.json"), "{\"name\": \"q\"}\n").unwrap();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    git(
        d,
        &[
            "mv",
            "src/commands/addJob-3.lua",
            "src/commands/addJob-2.lua",
        ],
    );
    std::fs::write(d.join("src/commands/addJob-2.lua"), DROPPED).unwrap();

    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "src/commands/addJob-2.lua:1:1: error[WD301]: script `addJob`: `paused set` removed from KEYS (3 \u{2192} 2); these 2 callers still pass 3 [(root)] (was main:src/commands/addJob-3.lua:2)\n"
        ),
        "{stderr}"
    );
    // From a port's folder: paths from there, the speaker still `(root)`.
    let (code, stdout, stderr) = run(
        &["diff", "--against", "main", "--format", "concise"],
        &d.join("elixir"),
    );
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "../src/commands/addJob-2.lua:1:1: error[WD301]: script `addJob`: `paused set` removed from KEYS (3 \u{2192} 2); these 2 callers still pass 3 [(root)] (was main:../src/commands/addJob-3.lua:2)\n"
        ),
        "{stderr}"
    );
    let (_, stdout, _) = run(&["diff", "--against", "main", "--format", "github"], d);
    assert!(
        stdout.contains("%0Astill passes the old count: elixir/lib/q/scripts.ex:4%0Astill passes the old count: rust/src/lib.rs:3"),
        "{stdout}"
    );
}

/// `tests/rules/WL303-keys-arity/rust-middle-key-dropped` with the `meta`
/// key its call leaves out (KEYS[4] of 7) put back, or not.
fn middle_key_call(with_meta: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let case = common::repo().join("tests/rules/WL303-keys-arity/rust-middle-key-dropped");
    common::copy_tree(&case, dir.path());
    std::fs::remove_file(dir.path().join("no-contract")).unwrap();
    if with_meta {
        let lib = dir.path().join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap();
        let events = "        .key(format!(\"q:{{{q}}}:events\"))\n";
        let meta = "        .key(format!(\"q:{{{q}}}:meta\"))\n";
        assert!(text.contains(events));
        std::fs::write(&lib, text.replacen(events, &format!("{meta}{events}"), 1)).unwrap();
    }
    dir
}

fn commit(d: &std::path::Path) {
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
}

/// A call that drops KEYS[4] of the 7 its script takes: one WD305 at the
/// call, naming the key and the slot, and nothing else.
#[test]
fn a_key_dropped_from_a_call_is_a_change() {
    let dir = middle_key_call(true);
    let d = dir.path();
    commit(d);
    let fixed = std::fs::read_to_string(d.join("src/lib.rs")).unwrap();
    let broken = middle_key_call(false);
    std::fs::copy(broken.path().join("src/lib.rs"), d.join("src/lib.rs")).unwrap();
    assert_ne!(
        fixed,
        std::fs::read_to_string(d.join("src/lib.rs")).unwrap()
    );
    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "src/lib.rs:2:5: error[WD305]: a call of `move` no longer passes `q:{<*>}:meta` (KEYS[4]): 6 keys, where `move` takes 7 [(root)] (was main:src/lib.rs:2)\n"
        ),
        "{stderr}"
    );
    // `check` says the same of the work tree.
    let (code, stdout, _) = run(&["check", "--format", "concise", "--select", "WL3", "."], d);
    assert_eq!(
        (code, stdout.as_str()),
        (1, "src/lib.rs:3:14: error[WL303]: 6 keys are passed, but script `move` declares 7 keys (its file name)\n")
    );
}

/// The same call mended (6 keys to the 7 the script takes) changes no
/// agreement: no change.
#[test]
fn a_call_mended_to_its_scripts_count_is_no_change() {
    let dir = middle_key_call(false);
    let d = dir.path();
    commit(d);
    let mended = middle_key_call(true);
    std::fs::copy(mended.path().join("src/lib.rs"), d.join("src/lib.rs")).unwrap();
    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
}
