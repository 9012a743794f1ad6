//! `check --fix`, `--unsafe-fixes` and `--diff` on a case of each fixable
//! rule (`tests/rules/<CODE>-<name>/<case>/`, copied to a temporary
//! directory): the exact diff, the exact files after `--fix`, a second run
//! without the finding, and a second `--fix` that changes nothing. Then
//! what `--fix` refuses to write.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_tree, repo, run, walk};

/// A case copied to a temporary directory.
fn case(rel: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("tests/rules").join(rel), dir.path());
    dir
}

/// `check .` with the case's contract choice, as `tests/rules.rs` runs it.
fn check(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["check", ".", "--format", "concise", "--no-cache"];
    if dir.join("no-contract").exists() {
        args.push("--no-contract");
    } else if dir.join("contract.toml").exists() {
        args.extend(["--contract", "contract.toml"]);
    }
    args.extend(extra);
    run(&args, dir)
}

/// Every file of the tree and its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    walk(dir)
        .into_iter()
        .map(|p| {
            (
                p.strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// The whole cycle on one case: `--diff` prints `diff` (exit 1) and
/// writes nothing; `--fix` leaves `file` holding `fixed` and reports
/// `remaining`; a second `--fix` writes nothing and reports the same.
fn cycle(rel: &str, flags: &[&str], diff: &str, file: &str, fixed: &str, remaining: &str) {
    let dir = case(rel);
    let before = tree(dir.path());
    let mut with_diff = flags.to_vec();
    with_diff.push("--diff");
    let (code, stdout, _) = check(dir.path(), &with_diff);
    assert_eq!((code, stdout.as_str()), (1, diff), "{rel}: --diff");
    assert_eq!(tree(dir.path()), before, "{rel}: --diff wrote");

    let mut with_fix = flags.to_vec();
    with_fix.push("--fix");
    let (_, stdout, stderr) = check(dir.path(), &with_fix);
    assert_eq!(stdout, remaining, "{rel}: after --fix");
    assert!(stderr.starts_with("wirelint: fixed "), "{rel}: {stderr}");
    let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
    assert_eq!(text, fixed, "{rel}: the fixed file");
    let after = tree(dir.path());

    let (_, stdout, _) = check(dir.path(), &[]);
    assert_eq!(stdout, remaining, "{rel}: a second run");
    let (_, stdout, stderr) = check(dir.path(), &with_fix);
    assert_eq!(stdout, remaining, "{rel}: a second --fix");
    assert!(
        stderr.starts_with("wirelint: fixed 0 findings in 0 files\n"),
        "{rel}: {stderr}"
    );
    assert_eq!(tree(dir.path()), after, "{rel}: a second --fix wrote");
    let (code, stdout, _) = check(dir.path(), &with_diff);
    assert_eq!(
        (code, stdout.as_str()),
        (0, ""),
        "{rel}: nothing left to diff"
    );
}

#[test]
fn wl002_an_unused_suppression_is_removed_with_its_line() {
    cycle(
        "WL002-unused-suppression/nothing-to-suppress",
        &[],
        "--- a/lib/q.ex
+++ b/lib/q.ex
@@ -1,6 +1,5 @@
 defmodule Q do
   def save(conn, q, id, payload) do
-    # wirelint: allow(WL201)
     Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"payload\", payload])
   end
 end
",
        "lib/q.ex",
        "defmodule Q do
  def save(conn, q, id, payload) do
    Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"payload\", payload])
  end
end
",
        "",
    );
}

#[test]
fn wl101_a_near_miss_prefix_takes_the_contracts() {
    cycle(
        "WL101-key-prefix/near-miss-prefix",
        &[],
        "--- a/app/lib/q.ex
+++ b/app/lib/q.ex
@@ -1,3 +1,3 @@
 defmodule Q do
-  def state(conn, q, id), do: Redix.command(conn, [\"HGET\", \"emk:{#{q}}:job:#{id}\", \"state\"])
+  def state(conn, q, id), do: Redix.command(conn, [\"HGET\", \"emq:{#{q}}:job:#{id}\", \"state\"])
 end
",
        "app/lib/q.ex",
        "defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, [\"HGET\", \"emq:{#{q}}:job:#{id}\", \"state\"])
end
",
        "",
    );
}

#[test]
fn wl103_a_near_miss_type_takes_the_contracts() {
    cycle(
        "WL103-key-type/misspelled-type",
        &[],
        "--- a/lib/q.ex
+++ b/lib/q.ex
@@ -1,3 +1,3 @@
 defmodule Q do
-  def backlog(conn, q), do: Redix.command(conn, [\"ZCARD\", \"emq:{#{q}}:pendng\"])
+  def backlog(conn, q), do: Redix.command(conn, [\"ZCARD\", \"emq:{#{q}}:pending\"])
 end
",
        "lib/q.ex",
        "defmodule Q do
  def backlog(conn, q), do: Redix.command(conn, [\"ZCARD\", \"emq:{#{q}}:pending\"])
end
",
        "",
    );
}

const WL201_FIXED: &str = "defmodule Q do
  def save(conn, q, id, data) do
    Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"payload\", data])
  end
end
";

#[test]
fn wl201_a_field_one_edit_away_is_a_suggestion() {
    cycle(
        "WL201-unknown-field/one-edit-away",
        &["--unsafe-fixes"],
        "--- a/lib/q.ex
+++ b/lib/q.ex
@@ -1,5 +1,5 @@
 defmodule Q do
   def save(conn, q, id, data) do
-    Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"payloud\", data])
+    Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"payload\", data])
   end
 end
",
        "lib/q.ex",
        WL201_FIXED,
        "",
    );
}

/// Without `--unsafe-fixes` a suggestion is shown as left, not applied.
#[test]
fn wl201_without_unsafe_fixes_nothing_is_written() {
    let dir = case("WL201-unknown-field/one-edit-away");
    let before = tree(dir.path());
    let (code, stdout, stderr) = check(dir.path(), &["--fix"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "lib/q.ex:3:79: error[WL201]: field `payloud` is not a field of the `job` record\n"
    );
    assert!(
        stderr.starts_with("wirelint: fixed 0 findings in 0 files; 1 more with --unsafe-fixes\n"),
        "{stderr}"
    );
    assert_eq!(tree(dir.path()), before);
    let (code, stdout, _) = check(dir.path(), &["--diff"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

/// The canonical speaker's bytes, spelt for each copy's host string: a
/// Rust raw string, a Rust `"…"` on one line (`\n`, `\"`), an Elixir
/// heredoc indented as its closing `"""`.
#[test]
fn wl305_copies_take_the_canonical_bytes_in_their_own_quoting() {
    let rel = "WL305-script-drift/canonical-copy-is-the-fix";
    cycle(
        rel,
        &[],
        "--- a/b/src/lib.rs
+++ b/b/src/lib.rs
@@ -1,5 +1,5 @@
 const TOUCH: &str = r#\"redis.call('HSET', KEYS[1], 'seen', ARGV[1])
-return 0
+return \"ok\"
 \"#;
 
 pub fn touch(con: &mut redis::Connection, id: &str, t: u64) -> redis::RedisResult<i64> {
--- a/c/src/lib.rs
+++ b/c/src/lib.rs
@@ -1,4 +1,4 @@
-const TOUCH: &str = \"redis.call('HSET', KEYS[1], 'seen', ARGV[2])\\nreturn \\\"ok\\\"\\n\";
+const TOUCH: &str = \"redis.call('HSET', KEYS[1], 'seen', ARGV[1])\\nreturn \\\"ok\\\"\\n\";
 
 pub fn touch(con: &mut redis::Connection, id: &str, t: u64) -> redis::RedisResult<i64> {
     redis::Script::new(TOUCH).key(format!(\"tq:task:{id}\")).arg(t).invoke(con)
--- a/d/lib/d.ex
+++ b/d/lib/d.ex
@@ -1,7 +1,7 @@
 defmodule D do
   @touch \"\"\"
-      redis.call('HSET', KEYS[1], 'seen', ARGV[1])
-      return 'ok'
+    redis.call('HSET', KEYS[1], 'seen', ARGV[1])
+    return \"ok\"
     \"\"\"
   def touch(conn, id, t), do: Redix.command(conn, [\"EVAL\", @touch, 1, \"tq:task:#{id}\", t])
 end
",
        "d/lib/d.ex",
        "defmodule D do
  @touch \"\"\"
    redis.call('HSET', KEYS[1], 'seen', ARGV[1])
    return \"ok\"
    \"\"\"
  def touch(conn, id, t), do: Redix.command(conn, [\"EVAL\", @touch, 1, \"tq:task:#{id}\", t])
end
",
        "",
    );
}

const WL310: &str = "error[WL310]: script `enqueue` writes a `job` row without first checking that its id is a `JOB` id\n";

#[test]
fn wl307_a_header_is_written_again_from_the_contract() {
    cycle(
        "WL307-keys-declaration-conflict/header-vs-contract",
        &[],
        "--- a/lua/enqueue.lua
+++ b/lua/enqueue.lua
@@ -1,7 +1,6 @@
 -- Enqueue a job.
 -- KEYS[1] 'job'
 -- KEYS[2] 'pending'
--- KEYS[3] 'wait'
 redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'payload', ARGV[2])
 redis.call('ZADD', KEYS[2], 0, ARGV[1])
 return 1
",
        "lua/enqueue.lua",
        "-- Enqueue a job.
-- KEYS[1] 'job'
-- KEYS[2] 'pending'
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'payload', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
",
        &format!("lua/enqueue.lua:4:1: {WL310}"),
    );
}

#[test]
fn wl307_a_header_in_a_heredoc_keeps_its_indentation() {
    cycle(
        "WL307-keys-declaration-conflict/heredoc-header-vs-contract",
        &[],
        "--- a/lib/q.ex
+++ b/lib/q.ex
@@ -1,6 +1,7 @@
 defmodule Q do
   @enqueue \"\"\"
     -- KEYS[1] job
+    -- KEYS[2] pending
   redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'payload', ARGV[2])
   redis.call('ZADD', KEYS[2], 0, ARGV[1])
   return 1
",
        "lib/q.ex",
        "defmodule Q do
  @enqueue \"\"\"
    -- KEYS[1] job
    -- KEYS[2] pending
  redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'payload', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  return 1
  \"\"\"
  def enqueue(conn, q, id, p) do
    Redix.command(conn, [\"EVAL\", @enqueue, 2, \"emq:{#{q}}:job:#{id}\", \"emq:{#{q}}:pending\", id, p])
  end
end
",
        &format!("lib/q.ex:5:3: {WL310}"),
    );
}

/// The unused codes of a suppression go and the used ones stay; a
/// trailing comment goes with the blanks before it, not its line; a
/// suppression in Lua embedded in a heredoc goes with its line.
#[test]
fn wl002_only_the_unused_codes_go() {
    let dir = tempfile::tempdir().unwrap();
    let q = "defmodule Q do
  def save(conn, q, id, data) do
    # wirelint: allow(WL103, WL201)
    Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"data\", data])
  end

  def state(conn, q, id), do: Redix.command(conn, [\"HGET\", \"emq:{#{q}}:job:#{id}\", \"state\"]) # wirelint: allow(WL101)

  @touch \"\"\"
  -- wirelint: allow(WL201)
  return redis.call('HGET', KEYS[1], 'state')
  \"\"\"
  def touch(conn, k), do: Redix.command(conn, [\"EVAL\", @touch, 1, k])
end
";
    std::fs::write(dir.path().join("mix.exs"), "").unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(dir.path().join("lib/q.ex"), q).unwrap();
    let (code, stdout, _) = check(dir.path(), &["--fix"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    let fixed = std::fs::read_to_string(dir.path().join("lib/q.ex")).unwrap();
    assert_eq!(
        fixed,
        "defmodule Q do
  def save(conn, q, id, data) do
    # wirelint: allow(WL201)
    Redix.command(conn, [\"HSET\", \"emq:{#{q}}:job:#{id}\", \"state\", \"pending\", \"data\", data])
  end

  def state(conn, q, id), do: Redix.command(conn, [\"HGET\", \"emq:{#{q}}:job:#{id}\", \"state\"])

  @touch \"\"\"
  return redis.call('HGET', KEYS[1], 'state')
  \"\"\"
  def touch(conn, k), do: Redix.command(conn, [\"EVAL\", @touch, 1, k])
end
"
    );
}

/// What `--fix` refuses: a file reached through a symbolic link, a path
/// out of the root, a file changed since the run read it. Nothing is
/// written then, and the refusal says why.
#[test]
fn fix_writes_only_regular_files_under_the_root() {
    use wirelint::post::fix::{write, Plan, Planned};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("q.ex"), "old").unwrap();
    std::fs::write(root.join("lib/q.ex"), "old").unwrap();
    std::fs::write(root.join("lib/moved.ex"), "older").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("linked")).unwrap();
    std::os::unix::fs::symlink(outside.join("q.ex"), root.join("lib/link.ex")).unwrap();
    let planned = |rel: &str, old: &str| Planned {
        rel: rel.into(),
        old: old.as_bytes().to_vec(),
        new: b"new".to_vec(),
    };
    let mut plan = Plan::default();
    for (i, (rel, old)) in [
        ("linked/q.ex", "old"),
        ("lib/link.ex", "old"),
        ("../outside/q.ex", "old"),
        ("lib/moved.ex", "old"),
        ("lib/q.ex", "old"),
    ]
    .into_iter()
    .enumerate()
    {
        plan.files.insert(i as u32, planned(rel, old));
    }
    let (done, refused) = write(&plan, &root);
    assert_eq!(done, ["lib/q.ex"]);
    let refused: Vec<(&str, &str)> = refused
        .iter()
        .map(|(p, w)| (p.as_str(), w.as_str()))
        .collect();
    assert_eq!(
        refused,
        [
            ("linked/q.ex", "reached through a symbolic link"),
            ("lib/link.ex", "reached through a symbolic link"),
            ("../outside/q.ex", "not under the checked root"),
            ("lib/moved.ex", "changed since it was read"),
        ]
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("q.ex")).unwrap(),
        "old"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("lib/moved.ex")).unwrap(),
        "older"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("lib/q.ex")).unwrap(),
        "new"
    );
    // The temporary file was renamed into place: none is left beside it.
    let names: Vec<String> = std::fs::read_dir(root.join("lib"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with(".wirelint-fix")),
        "{names:?}"
    );
}

/// A registration names a count, not the keys: the header's lines past
/// it go.
#[test]
fn wl307_a_header_is_cut_to_the_registration() {
    cycle(
        "WL307-keys-declaration-conflict/header-past-registration",
        &[],
        "--- a/src/touch.lua
+++ b/src/touch.lua
@@ -1,4 +1,3 @@
 -- KEYS[1] 'task'
--- KEYS[2] 'seen set'
 redis.call('HSET', KEYS[1], 'seen', ARGV[1])
 return 1
",
        "src/touch.lua",
        "-- KEYS[1] 'task'
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return 1
",
        "",
    );
}
