//! `--- @include` directives: the included Lua is part of the script.

mod common;

use common::{json_findings, run};

fn write(dir: &std::path::Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Against the EchoMQ contract, named explicitly: the scripts alone hold no
/// key, so the embedded default would step aside.
fn check(dir: &std::path::Path) -> (i32, String, String) {
    let contract = common::repo().join("rules/echomq.toml");
    run(
        &[
            "check",
            ".",
            "--format",
            "json",
            "--contract",
            contract.to_str().unwrap(),
        ],
        dir,
    )
}

const ENQUEUE: &str = "-- KEYS[1] job row\n-- KEYS[2] pending set\n--- @include \"includes/push\"\nif string.sub(ARGV[1], 1, 3) ~= 'JOB' then return redis.error_reply('EMQKIND') end\nredis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])\npush(ARGV[1])\n";

#[test]
fn keys_used_in_an_include_count_for_the_script() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "scripts/enqueue.lua", ENQUEUE);
    write(
        dir.path(),
        "scripts/includes/push.lua",
        "local function push(id) redis.call('ZADD', KEYS[2], 0, id) end\n",
    );
    let (code, stdout, _) = check(dir.path());
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
    assert_eq!(code, 0);
}

#[test]
fn without_its_include_the_pending_set_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "scripts/enqueue.lua",
        &ENQUEUE.replace("--- @include \"includes/push\"\n", ""),
    );
    let (code, stdout, _) = check(dir.path());
    assert_eq!(json_findings(&stdout), ["WL302 scripts/enqueue.lua:1"]);
    assert_eq!(code, 1);
}

#[test]
fn an_include_that_cannot_be_found_is_a_note_not_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "scripts/enqueue.lua", ENQUEUE);
    let (code, stdout, _) = check(dir.path());
    assert_eq!(json_findings(&stdout), Vec::<String>::new());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["notes"],
        serde_json::json!([{"path": "scripts/enqueue.lua", "message": "cannot resolve `@include \"includes/push\"`; its keys are not known"}])
    );
}
