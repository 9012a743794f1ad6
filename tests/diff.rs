//! `wirelint diff --against REF` end to end, on temporary git repositories
//! built from `fixtures/echomq`: a base commit, then a change in the work
//! tree.

mod common;

use std::path::Path;
use std::process::Command;

use common::{copy_tree, repo, run, walk};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `fixtures/echomq` committed as the base of a fresh repository.
fn base_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("fixtures/echomq"), dir.path());
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

/// The base repository with a variant's files laid over the work tree.
fn changed(variant: &str) -> tempfile::TempDir {
    let dir = base_repo();
    copy_tree(
        &repo().join("fixtures/variants").join(variant).join("tree"),
        dir.path(),
    );
    dir
}

/// `CODE head-path:line < base-path:line` per change, from the JSON output.
fn changes(stdout: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(stdout).expect("stdout is JSON");
    let side = |s: &serde_json::Value| {
        if s.is_null() {
            "-".to_string()
        } else {
            format!(
                "{}:{}",
                s["path"].as_str().unwrap(),
                s["span"]["start"]["line"]
            )
        }
    };
    v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {} < {}",
                c["code"].as_str().unwrap(),
                side(&c["head"]),
                side(&c["base"])
            )
        })
        .collect()
}

fn diff_json(dir: &Path, extra: &[&str]) -> (i32, Vec<String>, String) {
    let mut args = vec!["diff", "--against", "main", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args, dir);
    let found = if code == 2 { Vec::new() } else { changes(&out) };
    (code, found, err)
}

#[test]
fn field_rename_in_one_speakers_script() {
    let dir = changed("payload-renamed");
    let (code, found, err) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        found,
        [
            "WD202 echo_mq/lib/echo_mq/jobs.ex:10 < echo_mq/lib/echo_mq/jobs.ex:10",
            "WD302 echo_mq/lib/echo_mq/jobs.ex:6 < echo_mq/lib/echo_mq/jobs.ex:6",
        ]
    );
    let (_, out, _) = run(
        &["diff", "--against", "main", "--format", "json"],
        dir.path(),
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["changes"][0];
    assert_eq!(c["name"], "field-renamed");
    assert_eq!(c["speaker"], "echo_mq");
    assert_eq!(c["before"], "payload");
    assert_eq!(c["after"], "data");
    assert_eq!(v["against"]["ref"], "main");
    assert_eq!(v["against"]["commit"].as_str().unwrap().len(), 40);
    assert_eq!(v["summary"]["errors"], 2);
}

#[test]
fn field_rename_human_shows_both_sides() {
    let dir = changed("payload-renamed");
    let (code, _, err) = run(&["diff", "--against", "main"], dir.path());
    assert_eq!(code, 1);
    assert!(err.contains("WD202 field-renamed"), "{err}");
    assert!(err.contains("[echo_mq/lib/echo_mq/jobs.ex:10:69]"), "{err}");
    assert!(
        err.contains("[main:echo_mq/lib/echo_mq/jobs.ex:10:69]"),
        "{err}"
    );
    assert!(err.contains("now: data"), "{err}");
    assert!(err.contains("was: payload"), "{err}");
    assert!(
        err.trim_end()
            .ends_with("2 errors, 0 warnings in 8 files; exit 1: findings at or above error"),
        "{err}"
    );
}

#[test]
fn concise_names_the_base_side() {
    let dir = changed("prefix-changed");
    let (code, out, _) = run(
        &["diff", "--against", "main", "--format", "concise"],
        dir.path(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "peers/rust/src/keys.rs:3:27: WD102 key `emq:{<*>}:job:<*>` is now `emk:{<*>}:job:<*>` [peers/rust] (was main:peers/rust/src/keys.rs:3)\n"
    );
}

#[test]
fn prefix_change_is_a_changed_key() {
    let dir = changed("prefix-changed");
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        ["WD102 peers/rust/src/keys.rs:3 < peers/rust/src/keys.rs:3"]
    );
}

#[test]
fn key_dropped_from_a_script() {
    let dir = base_repo();
    let lua = dir.path().join("peers/worker/lua/enqueue.lua");
    std::fs::write(
        &lua,
        "-- KEYS[1] job row\nredis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])\nreturn 1\n",
    )
    .unwrap();
    let main = dir.path().join("peers/worker/src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        text.replace("        .key(pending_key(queue))\n", ""),
    )
    .unwrap();
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [
            "WD101 - < peers/worker/src/main.rs:16",
            "WD301 peers/worker/lua/enqueue.lua:1 < peers/worker/lua/enqueue.lua:2",
            "WD302 peers/worker/lua/enqueue.lua:1 < peers/worker/lua/enqueue.lua:1",
        ]
    );
}

#[test]
fn script_no_longer_using_a_declared_key() {
    let dir = changed("pending-dropped");
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [
            "WD301 peers/worker/lua/enqueue.lua:1 < peers/worker/lua/enqueue.lua:5",
            "WD302 peers/worker/lua/enqueue.lua:1 < peers/worker/lua/enqueue.lua:1",
        ]
    );
}

#[test]
fn verb_rename_is_silent() {
    let dir = changed("verb-renamed");
    let (code, found, err) = diff_json(dir.path(), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(found.is_empty(), "{found:?}");
    assert!(err.contains("exit 0: clean"), "{err}");
}

#[test]
fn no_change_is_clean() {
    let dir = base_repo();
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 0);
    assert!(found.is_empty());
}

/// A base that also sends `emq:{q}:old:<id>` from the Rust peer; the work
/// tree drops it.
fn repo_dropping_old_key() -> tempfile::TempDir {
    let dir = base_repo();
    let jobs = dir.path().join("peers/rust/src/keys.rs");
    let original = std::fs::read_to_string(&jobs).unwrap();
    let extra = "\npub fn drop_old(con: &mut redis::Connection, queue: &str, id: &str) -> redis::RedisResult<i64> {\n    redis::cmd(\"DEL\").arg(format!(\"emq:{{{}}}:old:{}\", queue, id)).query(con)\n}\n";
    std::fs::write(&jobs, format!("{original}{extra}")).unwrap();
    git(dir.path(), &["commit", "-q", "-a", "-m", "with old key"]);
    std::fs::write(&jobs, original).unwrap();
    dir
}

fn contract_with(retired: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("contract.toml");
    let text = std::fs::read_to_string(repo().join("rules/echomq.toml")).unwrap();
    std::fs::write(&path, format!("{text}\n{retired}")).unwrap();
    (dir, path.display().to_string())
}

#[test]
fn removed_key_is_breaking() {
    let dir = repo_dropping_old_key();
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(found, ["WD101 - < peers/rust/src/keys.rs:18"]);
    let (_, out, _) = run(
        &["diff", "--against", "main", "--format", "concise"],
        dir.path(),
    );
    assert_eq!(
        out,
        "main:peers/rust/src/keys.rs:18:27: WD101 key `emq:{<*>}:old:<*>` is no longer sent [peers/rust]\n"
    );
}

#[test]
fn retired_removal_is_allowed() {
    let dir = repo_dropping_old_key();
    let (_c, contract) = contract_with("[retired]\nkeys = [\"emq:{<queue>}:old:<id>\"]\n");
    let (code, found, err) = diff_json(dir.path(), &["--contract", &contract]);
    assert_eq!(code, 0, "{err}");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn retired_field_and_script() {
    // The work tree's worker drops its enqueue script and the Elixir
    // speaker stops writing `attempts`; both are retired.
    let dir = base_repo();
    std::fs::remove_file(dir.path().join("peers/worker/lua/enqueue.lua")).unwrap();
    let main = dir.path().join("peers/worker/src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        text.replace("include_str!(\"../lua/enqueue.lua\")", "\"return 1\""),
    )
    .unwrap();
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("WD303 - < peers/worker/lua/enqueue.lua:1")),
        "{found:?}"
    );
    let (_c, contract) = contract_with("[retired]\nscripts = [\"enqueue\"]\n");
    let (_, found, _) = diff_json(dir.path(), &["--contract", &contract]);
    assert!(!found.iter().any(|f| f.starts_with("WD303")), "{found:?}");
}

#[test]
fn bad_ref_exits_2() {
    let dir = base_repo();
    let (code, out, err) = run(&["diff", "--against", "no-such-branch"], dir.path());
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("`no-such-branch` does not name a commit in this repository"),
        "{err}"
    );
    let (code, _, err) = run(&["diff", "--against", "--all"], dir.path());
    assert_eq!(code, 2, "{err}");
}

#[test]
fn not_a_git_repository_exits_2() {
    let dir = common::variant("");
    let (code, _, err) = run(&["diff", "--against", "main"], dir.path());
    assert_eq!(code, 2);
    assert!(err.contains("is not inside a git work tree"), "{err}");
}

#[test]
fn subdirectory_root_and_paths() {
    // Run from the repository's parent, naming the repository: paths are
    // as typed (relative to the current directory) on both sides.
    let dir = changed("prefix-changed");
    let parent = dir.path().parent().unwrap();
    let name = dir.path().file_name().unwrap().to_str().unwrap();
    let (code, out, err) = run(
        &["diff", "--against", "main", "--format", "json", name],
        parent,
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        changes(&out),
        [format!(
            "WD102 {name}/peers/rust/src/keys.rs:3 < {name}/peers/rust/src/keys.rs:3"
        )]
    );
    // Only the Elixir speaker: nothing changed there.
    let (code, found, err) = diff_json(dir.path(), &["echo_mq"]);
    assert_eq!(code, 0, "{err}");
    assert!(found.is_empty());
}

#[test]
fn work_tree_and_index_are_untouched() {
    let dir = changed("payload-renamed");
    // A staged change too, so that the index differs from HEAD.
    copy_tree(
        &repo().join("fixtures/variants/prefix-changed/tree"),
        dir.path(),
    );
    git(dir.path(), &["add", "peers/rust/src/keys.rs"]);
    let snapshot = |d: &Path| -> Vec<(String, Vec<u8>)> {
        walk(d)
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p.strip_prefix(d).unwrap().display().to_string(), bytes)
            })
            .collect()
    };
    let status = git(dir.path(), &["status", "--porcelain"]);
    let before = snapshot(dir.path());
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(found.len(), 3, "{found:?}");
    let (code, _, _) = run(&["diff", "--against", "main"], dir.path());
    assert_eq!(code, 1);
    assert_eq!(git(dir.path(), &["status", "--porcelain"]), status);
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn retired_table_is_validated() {
    use wirelint::contract::Contract;
    let base = std::fs::read_to_string(repo().join("rules/echomq.toml")).unwrap();
    let ok = Contract::parse(
        &format!("{base}\n[retired]\nkeys = [\"emq:{{<queue>}}:old:<id>\"]\nfields = {{ job = [\"legacy\"] }}\nscripts = [\"oldScript\"]\n"),
        "c.toml",
    )
    .unwrap();
    assert_eq!(ok.retired.keys.len(), 1);
    assert_eq!(ok.retired.fields[0].1, "legacy");
    assert_eq!(ok.record_shape("job").as_deref(), Some("emq:{<*>}:job:<*>"));
    let text = format!("{base}\n[retired]\nfields = {{ jobs = [\"legacy\"] }}\n");
    let e = Contract::parse(&text, "c.toml").unwrap_err();
    assert_eq!(
        e.message,
        "retired fields of record `jobs`, which [records] does not define"
    );
    assert_eq!(e.help.as_deref(), Some("did you mean `job`?"));
    assert!(text[e.span.clone().unwrap()].contains("legacy"));
    let e =
        Contract::parse(&format!("{base}\n[retired]\nkeys = [\"old\"]\n"), "c.toml").unwrap_err();
    assert_eq!(e.message, "retired key `old` is not a key template");
    let e = Contract::parse(&format!("{base}\n[retired]\nkeyz = []\n"), "c.toml").unwrap_err();
    assert!(e.message.contains("keyz"), "{}", e.message);
}

#[test]
fn retired_field_removal_is_allowed() {
    // The base's Rust peer also writes `legacy` on the job row; the work
    // tree drops it.
    let dir = base_repo();
    let file = dir.path().join("peers/rust/src/jobs.rs");
    let original = std::fs::read_to_string(&file).unwrap();
    let extra = "\npub fn mark(con: &mut redis::Connection, queue: &str, id: &str) -> redis::RedisResult<i64> {\n    redis::cmd(\"HSET\").arg(crate::keys::job_key(queue, id)).arg(\"legacy\").arg(\"1\").query(con)\n}\n";
    std::fs::write(&file, format!("{original}{extra}")).unwrap();
    git(dir.path(), &["commit", "-q", "-a", "-m", "legacy"]);
    std::fs::write(&file, &original).unwrap();
    let (code, found, _) = diff_json(dir.path(), &["--no-contract"]);
    assert_eq!(code, 1);
    assert_eq!(found, ["WD201 - < peers/rust/src/jobs.rs:30"]);
    let (_c, contract) = contract_with("[retired]\nfields = { job = [\"legacy\"] }\n");
    let (code, found, err) = diff_json(dir.path(), &["--contract", &contract]);
    assert_eq!(code, 0, "{err}");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn hash_tag_removed_points_at_the_literals() {
    let dir = changed("hash-tag-removed");
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        ["WD102 echo_mq/lib/echo_mq/keyspace.ex:9 < echo_mq/lib/echo_mq/keyspace.ex:9"]
    );
}

#[test]
fn added_key_and_github_annotations() {
    let dir = base_repo();
    let file = dir.path().join("peers/rust/src/keys.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    let extra = "\npub fn touch(con: &mut redis::Connection, queue: &str) -> redis::RedisResult<i64> {\n    redis::cmd(\"INCR\").arg(format!(\"emq:{{{}}}:stats\", queue)).query(con)\n}\n";
    std::fs::write(&file, format!("{text}{extra}")).unwrap();
    let (code, found, _) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(found, ["WD103 peers/rust/src/keys.rs:18 < -"]);
    let (code, out, err) = run(
        &["diff", "--against", "main", "--format", "github"],
        dir.path(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "::error file=peers/rust/src/keys.rs,line=18,endLine=18,col=28,endColumn=61,title=WD103 key-added::key `emq:{<*>}:stats` is new [peers/rust]\n"
    );
    assert!(err.contains("1 error, 0 warnings"), "{err}");
}

/// A renamed read is below the line too: `HMGET … "payload"` changed to
/// `"data"` no longer finds what the writers write.
#[test]
fn renamed_read_is_reported() {
    let dir = base_repo();
    let jobs = dir.path().join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    let renamed = text.replace(
        "\"state\", \"attempts\", \"payload\"])",
        "\"state\", \"attempts\", \"data\"])",
    );
    assert_ne!(text, renamed);
    std::fs::write(&jobs, renamed).unwrap();
    let (code, found, err) = diff_json(dir.path(), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        found,
        ["WD204 echo_mq/lib/echo_mq/jobs.ex:24 < echo_mq/lib/echo_mq/jobs.ex:24"]
    );
}
