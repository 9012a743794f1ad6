//! A job field renamed in a shared Lua script while other speakers still
//! read the old name: `diff` reports the rename with those readers, not
//! only the script's new bytes.

mod common;

use common::{copy_tree, git, repo, run};

/// `fixtures/four-speakers` committed as `main`, then `'pb'` renamed
/// `'picked_by'` in the shared `scripts/claim.lua` (the work tree).
fn renamed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tree(&repo().join("fixtures/four-speakers"), d);
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    let script = d.join("scripts/claim.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let changed = text.replace("'pb', ARGV[1]", "'picked_by', ARGV[1]");
    assert_ne!(text, changed);
    std::fs::write(&script, changed).unwrap();
    dir
}

#[test]
fn a_field_renamed_in_a_shared_script_names_its_readers() {
    let dir = renamed();
    let d = dir.path();
    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "scripts/claim.lua:7:59: error[WD202]: field `pb` of `tq:{<*>}:task:<*>` is now written as `picked_by`; 3 readers still read `pb` [(shared scripts)] (was main:scripts/claim.lua:7)\n\
             scripts/claim.lua:1:1: error[WD302]: script `claim` changed: SHA1 64880caa5d1a is now 73386e77a36b [(shared scripts)] (was main:scripts/claim.lua:1)\n"
        ),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["diff", "--against", "main"], d);
    for at in [
        "╭─[tq_dash/lib/dash.ex:5:83]",
        "╭─[tq_ex/lib/tq.ex:16:76]",
        "╭─[tq_rs/src/lib.rs:38:36]",
    ] {
        assert!(stderr.contains(at), "{at}: {stderr}");
    }
    assert_eq!(stderr.matches("still reads `pb`").count(), 3, "{stderr}");
    let (_, stdout, _) = run(&["diff", "--against", "main", "--format", "github"], d);
    assert!(
        stdout.contains(
            "%0Astill reads `pb`: tq_dash/lib/dash.ex:5%0Astill reads `pb`: tq_ex/lib/tq.ex:16%0Astill reads `pb`: tq_rs/src/lib.rs:38%0A"
        ),
        "{stdout}"
    );
}

/// Every reader renamed with the script: the rename alone, no readers.
#[test]
fn readers_renamed_with_the_script_are_not_named() {
    let dir = renamed();
    let d = dir.path();
    for (path, old, new) in [
        (
            "tq_dash/lib/dash.ex",
            "\"tries\", \"pb\"",
            "\"tries\", \"picked_by\"",
        ),
        (
            "tq_ex/lib/tq.ex",
            "\"tries\", \"pb\"",
            "\"tries\", \"picked_by\"",
        ),
        ("tq_rs/src/lib.rs", "id), \"pb\")", "id), \"picked_by\")"),
    ] {
        let p = d.join(path);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(old), "{path}");
        std::fs::write(&p, text.replace(old, new)).unwrap();
    }
    let (_, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    let wd202: Vec<&str> = stdout.lines().filter(|l| l.contains("WD202")).collect();
    assert_eq!(
        wd202,
        ["scripts/claim.lua:7:59: error[WD202]: field `pb` of `tq:{<*>}:task:<*>` is now written as `picked_by` [(shared scripts)] (was main:scripts/claim.lua:7)"],
        "{stdout}{stderr}"
    );
}

/// `fixtures/lua-evaluated` committed as `main`, then `'status'` renamed
/// `'state'` where `submit.lua` writes the row through its wrapper, while
/// `finish.lua` (the same speaker) still writes `status`: the rename, in
/// its place, with the readers of `status`, not only a new field.
#[test]
fn a_field_renamed_where_another_script_still_writes_it_names_its_readers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tree(&repo().join("fixtures/lua-evaluated"), d);
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    let script = d.join("scripts/submit.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let changed = text.replace("hset(row, 'status'", "hset(row, 'state'");
    assert_ne!(text, changed);
    std::fs::write(&script, changed).unwrap();
    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "scripts/submit.lua:22:12: error[WD202]: field `status` of `lq:{<*>}:job:<*>` is now written as `state` here (other writes still write `status`); 2 readers still read `status` [(shared scripts)] (was main:scripts/submit.lua:22)\n\
             scripts/submit.lua:1:1: error[WD302]: script `submit` changed: SHA1 9a5ce67f15be is now b4e36732e7c4 [(shared scripts)] (was main:scripts/submit.lua:1)\n"
        ),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["diff", "--against", "main"], d);
    for at in ["╭─[lq_ex/lib/lq.ex:27:86]", "╭─[lq_rs/src/lib.rs:27:15]"] {
        assert!(stderr.contains(at), "{at}: {stderr}");
    }
    assert_eq!(stderr.matches("still reads").count(), 2, "{stderr}");
}

/// One Lua function writes the job row at the key the caller passes and
/// at a key the script builds (`…:repeat:<id>:<ts>`): renaming its field
/// is one edit, so one WD202, naming the record by the contract's name
/// (`job`) and the other key shape it reaches, with the one reader.
#[test]
fn one_rename_reaching_two_record_shapes_is_one_change() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("lib")).unwrap();
    std::fs::write(d.join("mix.exs"), "").unwrap();
    let source = r#"defmodule Q do
  @save """
  local function store(key, data)
    redis.call('HSET', key, 'state', 'pending', 'attempts', '0', 'payload', data)
  end
  store(KEYS[1], ARGV[1])
  store(KEYS[2] .. ':repeat:' .. ARGV[2] .. ':' .. ARGV[3], ARGV[1])
  """
  def save(conn, q, id, every, ts, p) do
    Redix.command(conn, ["EVAL", @save, 2, "emq:{#{q}}:job:#{id}", "emq:{#{q}}", p, every, ts])
  end

  def payload(conn, q, id), do: Redix.command(conn, ["HGET", "emq:{#{q}}:job:#{id}", "payload"])
end
"#;
    std::fs::write(d.join("lib/q.ex"), source).unwrap();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    let renamed = source.replace("'payload', data", "'data', data");
    std::fs::write(d.join("lib/q.ex"), renamed).unwrap();
    let (code, stdout, stderr) = run(&["diff", "--against", "main", "--format", "concise"], d);
    let wd2: Vec<&str> = stdout.lines().filter(|l| l.contains("[WD2")).collect();
    assert_eq!(
        (code, wd2),
        (
            1,
            vec!["lib/q.ex:4:67: error[WD202]: field `payload` of `job` and `emq:{<*>}:repeat:<*>:<*>` is now written as `data`; 1 reader still reads `payload` [(root)] (was main:lib/q.ex:4)"]
        ),
        "{stderr}"
    );
    assert_eq!(
        stdout.lines().count(),
        2,
        "the rename and the script's new bytes: {stdout}"
    );
}
