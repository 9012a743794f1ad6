//! `wirelint extract`: the observed contract, and the round trip through
//! `--as-contract`.

mod common;

use common::{json_findings, repo, run};

/// Adopting the extracted contract of a clean fixture and checking against
/// it reports nothing.
#[test]
fn an_extracted_contract_round_trips_clean() {
    for name in [
        "echomq",
        "four-speakers",
        "queue-scripts",
        "rust-clients",
        "elixir-idioms",
    ] {
        let dir = repo().join("fixtures").join(name);
        let (code, contract, stderr) = run(
            &["extract", "--as-contract", dir.to_str().unwrap()],
            &repo(),
        );
        assert_eq!(code, 0, "{name}: {stderr}");
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("contract.toml");
        std::fs::write(&file, &contract).unwrap();
        let (code, stdout, stderr) = run(
            &[
                "check",
                dir.to_str().unwrap(),
                "--format",
                "json",
                "--contract",
                file.to_str().unwrap(),
            ],
            &repo(),
        );
        assert_eq!(
            json_findings(&stdout),
            Vec::<String>::new(),
            "{name}:\n{contract}\n{stderr}"
        );
        assert_eq!(code, 0, "{name}");
    }
}

#[test]
fn the_echomq_contract_is_extracted_as_written() {
    let (code, contract, _) = run(&["extract", "--as-contract", "fixtures/echomq"], &repo());
    assert_eq!(code, 0);
    insta::assert_snapshot!("extract_echomq_contract", contract);
}

#[test]
fn the_observed_contract_of_each_speaker() {
    let (code, text, _) = run(&["extract", "fixtures/four-speakers"], &repo());
    assert_eq!(code, 0);
    insta::assert_snapshot!("extract_four_speakers", text);
    let (_, json, _) = run(
        &["extract", "--format", "json", "fixtures/four-speakers"],
        &repo(),
    );
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let names: Vec<&str> = doc["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["(shared scripts)", "tq_admin", "tq_dash", "tq_ex", "tq_rs"]
    );
    let claim = &doc["speakers"][0]["scripts"][0];
    assert_eq!(claim["name"], "claim");
    assert_eq!(claim["declared_keys"]["count"], 3);
}

/// Writes `extract --as-contract DIR` to a file in `keep` and returns its
/// path.
fn extracted_contract(dir: &std::path::Path, keep: &std::path::Path) -> String {
    let (code, contract, stderr) = run(
        &["extract", "--as-contract", dir.to_str().unwrap()],
        &repo(),
    );
    assert_eq!(code, 0, "{stderr}");
    let file = keep.join("contract.toml");
    std::fs::write(&file, &contract).unwrap();
    file.to_str().unwrap().to_string()
}

/// The round trip of roles: a contract extracted from `fixtures/echomq`
/// names each script slot by the keyspace type its callers pass (`job`,
/// not the header's `job row`), so a field renamed in one speaker's script
/// is WL201 against it, as against the embedded contract.
#[test]
fn an_extracted_contract_keeps_wl201_on_a_renamed_field() {
    let keep = tempfile::tempdir().unwrap();
    let file = extracted_contract(&repo().join("fixtures/echomq"), keep.path());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[scripts.enqueue]\nkeys = [\"job\", \"pending\"]\n"),
        "{text}"
    );
    let dir = common::variant("payload-renamed");
    let d = dir.path().to_str().unwrap();
    let (code, embedded, _) = run(&["check", d, "--format", "json"], &repo());
    assert_eq!(code, 1);
    let want = [
        "WL305 echo_mq/lib/echo_mq/jobs.ex:10",
        "WL201 echo_mq/lib/echo_mq/jobs.ex:10",
    ];
    assert_eq!(json_findings(&embedded), want);
    let (code, written, stderr) = run(
        &["check", d, "--format", "json", "--contract", &file],
        &repo(),
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_findings(&written), want);
}

/// A script nobody calls: its slot's role is the keyspace type its header
/// names (`-- KEYS[1] job row` gives `job`), so its writes are still read
/// against the `job` record.
#[test]
fn an_uncalled_scripts_roles_are_the_types_its_header_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("src")).unwrap();
    std::fs::create_dir_all(d.join("lua")).unwrap();
    std::fs::write(
        d.join("Cargo.toml"),
        "[package]\nname = \"nc\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::write(
        d.join("src/lib.rs"),
        "pub fn save(con: &mut redis::Connection, q: &str, id: &str) -> redis::RedisResult<i64> {\n    redis::cmd(\"HSET\").arg(format!(\"emq:{{{}}}:job:{}\", q, id)).arg(\"state\").arg(\"new\").query(con)?;\n    redis::cmd(\"ZADD\").arg(format!(\"emq:{{{}}}:pending\", q)).arg(0).arg(id).query(con)\n}\n",
    )
    .unwrap();
    let script = "-- KEYS[1] job row\n-- KEYS[2] pending set\nredis.call('HSET', KEYS[1], 'state', 'touched')\nredis.call('ZADD', KEYS[2], 0, ARGV[1])\nreturn 1\n";
    std::fs::write(d.join("lua/touch.lua"), script).unwrap();
    let keep = tempfile::tempdir().unwrap();
    let file = extracted_contract(d, keep.path());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.ends_with("[scripts.touch]\nkeys = [\"job\", \"pending\"]\n"),
        "{text}"
    );
    std::fs::write(d.join("lua/touch.lua"), script.replace("'state'", "'stat'")).unwrap();
    let (code, out, stderr) = run(&["check", ".", "--format", "json", "--contract", &file], d);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_findings(&out), ["WL201 lua/touch.lua:3"]);
}

/// With `--contract NAME` and no keyspace of its own to infer (a script
/// alone), the draft writes the given contract's keyspace, each type's
/// Redis data type from the commands on the script's KEYS (by the
/// contract's roles), the slot a declared script never touches as
/// `unused`, and names a slot by the contract's types (`pending key`).
#[test]
fn a_draft_with_a_contract_given_takes_its_keyspace_and_types() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("lua")).unwrap();
    let script = "-- KEYS[1] job key\n-- KEYS[2] 'pending' set\nredis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])\nredis.call('ZADD', KEYS[2], 0, ARGV[1])\nreturn 1\n";
    std::fs::write(d.join("lua/enqueue.lua"), script).unwrap();
    let touch = "-- KEYS[1] job key\n-- KEYS[2] pending key\nredis.call('HSET', KEYS[1], 'state', 'touched')\nreturn 1\n";
    std::fs::write(d.join("lua/touch.lua"), touch).unwrap();
    let (code, text, stderr) = run(
        &["extract", "--as-contract", "--contract", "echomq", "."],
        d,
    );
    assert_eq!(code, 0, "{stderr}");
    let from = text.find("\n# The keyspace of").expect(&text);
    assert_eq!(
        &text[from..],
        "\n# The keyspace of `echomq`, as given: the code's key builders are not read.\n\
         [keyspace]\nkey = \"emq:{<queue>}:<type>\"\nclustered = true\n\n\
         [keyspace.types]\njob = \"job:<id>\"\npending = \"pending\"\n\n\
         [keyspace.redis]\njob = \"hash\"\npending = \"zset\"\n\n\
         [scripts.enqueue]\nkeys = [\"job\", \"pending\"]\nargv = [\"id\", \"payload\"]\n\n\
         [scripts.touch]\nkeys = [\"job\", \"pending\"]\nunused = [2]\n"
    );
}

/// A Go module of one file, `q.go`: package `q` importing `context` and
/// go-redis, then `body`.
fn go_package(body: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("go.mod"), "module example.com/q\n\ngo 1.21\n").unwrap();
    let head = "package q\n\nimport (\n\t\"context\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\n";
    std::fs::write(d.join("q.go"), format!("{head}{body}")).unwrap();
    dir
}

/// A Go script in a `redis.NewScript` string, with no header: its KEYS
/// are counted from the key list its caller passes (`script.Run(ctx, c,
/// keys, ..)`), each slot named by the type of the key passed there.
#[test]
fn a_go_scripts_keys_are_counted_from_the_list_its_callers_pass() {
    let dir = go_package(
        "var touchCmd = redis.NewScript(`\nredis.call(\"HSET\", KEYS[1], \"state\", \"touched\")\n\
         redis.call(\"ZADD\", KEYS[2], 0, ARGV[1])\nreturn 1\n`)\n\n\
         func Touch(ctx context.Context, c *redis.Client, q, id string) error {\n\
         \tkeys := []string{\"emq:{\" + q + \"}:job:\" + id, \"emq:{\" + q + \"}:pending\"}\n\
         \treturn touchCmd.Run(ctx, c, keys, id).Err()\n}\n",
    );
    let (code, text, stderr) = run(&["extract", "--as-contract", "."], dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.ends_with("\n[scripts.touchCmd]\nkeys = [\"job\", \"pending\"]\n"),
        "{text}"
    );
}

/// A value every caller passes past what the script reads is on the wire
/// all the same: the draft's `argv` lists each slot passed (a read one by
/// its role when named, `argN` else), so the tree checks silently against
/// it, where the embedded contract warns (WL308).
#[test]
fn a_drafts_argv_lists_what_every_caller_passes() {
    let dir = go_package(
        "var touchCmd = redis.NewScript(`\nredis.call(\"ZADD\", KEYS[1], 0, ARGV[1])\nreturn 1\n`)\n\n\
         func Touch(ctx context.Context, c *redis.Client, q, id string) error {\n\
         \targv := []interface{}{id, q}\n\
         \treturn touchCmd.Run(ctx, c, []string{\"emq:{\" + q + \"}:pending\"}, argv...).Err()\n}\n",
    );
    let d = dir.path();
    let (code, text, stderr) = run(&["extract", "--as-contract", "."], d);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.ends_with("\n[scripts.touchCmd]\nkeys = [\"pending\"]\nargv = [\"arg1\", \"arg2\"]\n"),
        "{text}"
    );
    let (_, warned, _) = run(&["check", "--format", "concise", "."], d);
    assert!(warned.contains("WL308"), "{warned}");
    std::fs::write(d.join("draft.toml"), &text).unwrap();
    let (code, silent, stderr) = run(&["check", "--contract", "draft.toml", "."], d);
    assert_eq!(code, 0, "{silent}{stderr}");
    assert!(!silent.contains("WL308"), "{silent}");
}

/// `extract PATH` reads the project above PATH, as `check` does: from
/// `elixir/` of a git repository whose scripts sit in `src/commands/`,
/// the Elixir speaker is named as in the whole project and its call runs
/// the shared script; the script, outside PATH, is not shown.
#[test]
fn extract_climbs_to_the_project_root() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("elixir/lib")).unwrap();
    std::fs::create_dir_all(d.join("src/commands")).unwrap();
    std::fs::write(d.join("elixir/mix.exs"), "").unwrap();
    std::fs::write(
        d.join("src/commands/save-1.lua"),
        "redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[1])\n",
    )
    .unwrap();
    std::fs::write(
        d.join("elixir/lib/q.ex"),
        "defmodule Q do\n  @save File.read!(\"../src/commands/save-1.lua\")\n  def save(conn, q, id, p), do: Redix.command(conn, [\"EVAL\", @save, 1, \"emq:{#{q}}:job:#{id}\", p])\nend\n",
    )
    .unwrap();
    common::git(d, &["init", "-q"]);
    let want = "speaker elixir\n  keys\n    emq:{<*>}:job:<*>                        lib/q.ex:3\n  calls\n    save  numkeys 1  [emq:{<*>}:job:<*>]  lib/q.ex:3\n";
    let (code, stdout, stderr) = run(&["extract", "."], &d.join("elixir"));
    assert_eq!((code, stdout.as_str()), (0, want), "{stderr}");
    // From the root, PATH `elixir`: the same, its paths seen from there.
    let (code, stdout, stderr) = run(&["extract", "elixir"], d);
    assert_eq!(
        (code, stdout.as_str()),
        (0, want.replace("lib/q.ex", "elixir/lib/q.ex").as_str()),
        "{stderr}"
    );
}
