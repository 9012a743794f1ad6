//! `wirelint diff --against REF` end to end, on temporary git repositories
//! built from `fixtures/echomq`: a base commit, then a change in the work
//! tree.

mod common;

use std::path::Path;

use common::{copy_tree, git, repo, run, walk};

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
        "peers/rust/src/keys.rs:3:27: error[WD102]: key `emq:{<*>}:job:<*>` is now `emk:{<*>}:job:<*>` [peers/rust] (was main:peers/rust/src/keys.rs:3)\n"
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
            // One change names the key dropped; its new bytes go with it.
            "WD301 peers/worker/lua/enqueue.lua:1 < peers/worker/lua/enqueue.lua:2",
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
        "main:peers/rust/src/keys.rs:18:27: error[WD101]: key `emq:{<*>}:old:<*>` is no longer sent [peers/rust]\n"
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
    // A machine format still gets its document: SARIF says the run failed.
    let (code, out, _) = run(
        &["diff", "--against", "no-such-branch", "--format", "sarif"],
        dir.path(),
    );
    assert_eq!(code, 2);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let inv = &doc["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(
        inv["toolExecutionNotifications"][0]["message"]["text"],
        "`no-such-branch` does not name a commit in this repository"
    );
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

/// `diff --format sarif`: the change kinds are the rules, with their
/// `explain` text as help; a change sits at its work-tree side with the
/// base side related; the log is valid SARIF 2.1.0.
#[test]
fn diff_speaks_sarif() {
    let dir = changed("payload-renamed");
    let (code, out, err) = run(
        &["diff", "--against", "main", "--format", "sarif"],
        dir.path(),
    );
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("SARIF is JSON");
    assert_eq!(common::sarif_schema_errors(&doc), Vec::<String>::new());
    let run0 = &doc["runs"][0];
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "WD001", "WD101", "WD102", "WD103", "WD201", "WD202", "WD203", "WD204", "WD301",
            "WD302", "WD303", "WD304", "WD305"
        ]
    );
    for r in rules {
        let (_, explained, _) = run(&["explain", r["id"].as_str().unwrap()], dir.path());
        assert_eq!(r["help"]["text"], explained.as_str());
        assert_eq!(r["help"]["markdown"], explained.as_str());
    }
    assert_eq!(rules[5]["name"], "field-renamed");
    assert_eq!(
        rules[5]["shortDescription"]["text"],
        "a written field of a record has another name than at the base"
    );
    assert_eq!(rules[5]["defaultConfiguration"]["level"], "error");
    let commit = git(dir.path(), &["rev-parse", "main"]);
    let short = &commit[..12];
    let results = run0["results"].as_array().unwrap();
    let found: Vec<String> = results
        .iter()
        .map(|r| {
            let at = |l: &serde_json::Value| {
                let p = &l["physicalLocation"];
                format!(
                    "{}:{}",
                    p["artifactLocation"]["uri"].as_str().unwrap(),
                    p["region"]["startLine"]
                )
            };
            format!(
                "{} {} {} < {} {}",
                r["ruleId"].as_str().unwrap(),
                r["level"].as_str().unwrap(),
                at(&r["locations"][0]),
                at(&r["relatedLocations"][0]),
                r["relatedLocations"][0]["message"]["text"]
                    .as_str()
                    .unwrap()
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            format!("WD202 error echo_mq/lib/echo_mq/jobs.ex:10 < echo_mq/lib/echo_mq/jobs.ex:10 at main ({short}): was payload"),
            format!("WD302 error echo_mq/lib/echo_mq/jobs.ex:6 < echo_mq/lib/echo_mq/jobs.ex:6 at main ({short}): was 1abdf3e91b7517bf3b896b64185582763ea1a339"),
        ]
    );
    assert_eq!(results[0]["ruleIndex"], 5);
    assert_eq!(
        results[0]["message"]["text"],
        format!("field `payload` of `job` is now written as `data`; 2 readers still read `payload` [echo_mq]\n\nhelp: every other speaker must change with it, or rows become unfindable, unreadable or never queued\n\n[at main ({short}): was payload](1)")
    );
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
        "%SRCROOT%"
    );
}

/// A removal has no work-tree side: SARIF and GitLab place it at the base
/// file's path and line.
#[test]
fn diff_sarif_and_gitlab_place_a_removal_at_the_base() {
    let dir = repo_dropping_old_key();
    let (code, out, _) = run(
        &["diff", "--against", "main", "--format", "sarif"],
        dir.path(),
    );
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &doc["runs"][0]["results"];
    assert_eq!(r.as_array().unwrap().len(), 1);
    assert_eq!(r[0]["ruleId"], "WD101");
    let loc = &r[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "peers/rust/src/keys.rs");
    assert_eq!(loc["region"]["startLine"], 18);
    assert_eq!(r[0]["relatedLocations"], serde_json::json!([]));
    let (code, out, _) = run(
        &["diff", "--against", "main", "--format", "gitlab"],
        dir.path(),
    );
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc[0]["description"],
        "WD101 key-removed: key `emq:{<*>}:old:<*>` is no longer sent [peers/rust]"
    );
    assert_eq!(doc[0]["location"]["path"], "peers/rust/src/keys.rs");
    assert_eq!(doc[0]["location"]["lines"]["begin"], 18);
}

/// `diff --format gitlab`: a Code Quality report, one issue per change,
/// with the SARIF fingerprints; neither moves when the change moves down
/// a few lines.
#[test]
fn diff_speaks_gitlab_with_stable_fingerprints() {
    let dir = changed("payload-renamed");
    let gitlab = |dir: &Path| {
        let (code, out, err) = run(&["diff", "--against", "main", "--format", "gitlab"], dir);
        assert_eq!(code, 1, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("GitLab report is JSON")
    };
    let sarif_fps = |dir: &Path| -> Vec<serde_json::Value> {
        let (_, out, _) = run(&["diff", "--against", "main", "--format", "sarif"], dir);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"]["wirelintFact/v1"].clone())
            .collect()
    };
    let before = gitlab(dir.path());
    let fps: Vec<serde_json::Value> = before
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["fingerprint"].clone())
        .collect();
    assert_eq!(fps, sarif_fps(dir.path()));
    assert_ne!(fps[0], fps[1]);
    assert_eq!(
        before,
        serde_json::json!([
            {
                "description": "WD202 field-renamed: field `payload` of `job` is now written as `data`; 2 readers still read `payload` [echo_mq] (was main:echo_mq/lib/echo_mq/jobs.ex:10)",
                "check_name": "WD202",
                "fingerprint": fps[0],
                "severity": "major",
                "location": {"path": "echo_mq/lib/echo_mq/jobs.ex", "lines": {"begin": 10, "end": 10}}
            },
            {
                "description": "WD302 script-body-changed: script `enqueue` changed: SHA1 1abdf3e91b75 is now a4eb5d308064 [echo_mq] (was main:echo_mq/lib/echo_mq/jobs.ex:6)",
                "check_name": "WD302",
                "fingerprint": fps[1],
                "severity": "major",
                "location": {"path": "echo_mq/lib/echo_mq/jobs.ex", "lines": {"begin": 6, "end": 6}}
            }
        ])
    );
    let jobs = dir.path().join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, format!("# one\n# two\n{text}")).unwrap();
    let after = gitlab(dir.path());
    assert_eq!(after[0]["location"]["lines"]["begin"], 12);
    let moved: Vec<serde_json::Value> = after
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["fingerprint"].clone())
        .collect();
    assert_eq!(moved, fps);
    assert_eq!(sarif_fps(dir.path()), fps);
}
