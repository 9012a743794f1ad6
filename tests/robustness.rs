//! Issue 9: every bad input gets an exact, stated outcome (exit code, the
//! note or diagnostic, and what is still checked). Each test runs the
//! binary. `docs/robustness.md` lists the cases.

mod common;

use std::path::Path;

use common::{human_findings, json_findings, repo, run, variant};

/// Runs `check ROOT --format json ARGS`; returns (exit, findings, notes).
fn check_json(root: &Path, extra: &[&str]) -> (i32, Vec<String>, Vec<String>) {
    let r = root.to_str().expect("temp paths are UTF-8");
    let mut args = vec!["check", r, "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(&args, root);
    let v: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is JSON ({e}): {stdout}\n{stderr}"));
    let notes = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{}: {}",
                n["path"].as_str().unwrap(),
                n["message"].as_str().unwrap()
            )
        })
        .collect();
    (code, json_findings(&stdout), notes)
}

/// `CODE path:line:column` for each diagnostic of a JSON report.
fn json_positions(stdout: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(stdout).expect("stdout is JSON");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}:{}",
                d["code"].as_str().unwrap(),
                d["path"].as_str().unwrap(),
                d["span"]["start"]["line"],
                d["span"]["start"]["column"]
            )
        })
        .collect()
}

/// `path:line:col` of every `╭─[…]` in the human report.
fn human_positions(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("╭─["))
        .map(|l| l.trim_end_matches(']').to_string())
        .filter(|l| !l.starts_with("rules/"))
        .collect()
}

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- source text

#[test]
fn rust_syntax_error_next_to_a_divergence() {
    // The divergence elsewhere is still reported; the broken file gets WL001
    // and the key in its valid part is still checked (WL103).
    let dir = variant("payload-renamed");
    write(
        dir.path(),
        "peers/rust/src/broken.rs",
        b"fn broken( {\n  let x = \"emq:{q}:job\";\n",
    );
    let (code, findings, notes) = check_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL305 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL001 peers/rust/src/broken.rs:1",
            "WL103 peers/rust/src/broken.rs:2",
        ])
    );
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn elixir_syntax_error_next_to_a_divergence() {
    let dir = variant("payload-renamed");
    write(
        dir.path(),
        "echo_mq/lib/broken.ex",
        b"defmodule B do\n  def k(q), do: \"emq:{#{q}}:jobz\"\n  def f( do\nend\n",
    );
    let (code, findings, _) = check_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL001 echo_mq/lib/broken.ex:1",
            "WL103 echo_mq/lib/broken.ex:2",
            "WL305 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:10",
        ])
    );
}

#[test]
fn lua_syntax_error_next_to_a_divergence() {
    let dir = variant("payload-renamed");
    write(
        dir.path(),
        "scripts/broken.lua",
        b"redis.call('GET', 'emq:{' .. ARGV[1] .. '}:jobz')\nlocal x = {{{\n",
    );
    let (code, findings, _) = check_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL305 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL103 scripts/broken.lua:1",
            "WL001 scripts/broken.lua:2",
        ])
    );
}

#[test]
fn unterminated_strings_and_heredocs_swallow_only_their_own_file() {
    let dir = variant("");
    // Rust: a string left open on line 2; the key on line 1 is still read.
    write(
        dir.path(),
        "peers/rust/src/open.rs",
        b"fn k(q: &str) -> String { format!(\"emq:{{{q}}}:jobz\") }\nconst S: &str = \"emq:{q}:pending\nfn x() {}\n",
    );
    // Elixir: a heredoc left open on line 3.
    write(
        dir.path(),
        "echo_mq/lib/open.ex",
        b"defmodule U do\n  def k(q), do: \"emq:{#{q}}:jobz\"\n  @s \"\"\"\n  redis.call(\"HSET\", KEYS[1], \"x\", 1)\n",
    );
    // Lua: a long string left open.
    write(
        dir.path(),
        "scripts/open.lua",
        b"redis.call('GET', 'emq:{' .. ARGV[1] .. '}:jobz')\nlocal s = [[\nnever closed\n",
    );
    let (code, findings, _) = check_json(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL001 echo_mq/lib/open.ex:1",
            "WL103 echo_mq/lib/open.ex:2",
            "WL103 peers/rust/src/open.rs:1",
            "WL001 peers/rust/src/open.rs:2",
            "WL103 scripts/open.lua:1",
            "WL001 scripts/open.lua:2",
        ])
    );
}

#[test]
fn one_broken_enqueue_heredoc_in_valid_elixir() {
    // The heredoc's Lua misses a `)`: a WL001 in the heredoc, and the Lua
    // after the error is still checked (the `data` field, WL201).
    let dir = variant("");
    let p = dir.path().join("echo_mq/lib/echo_mq/jobs.ex");
    let s = std::fs::read_to_string(&p).unwrap().replace(
        "redis.call('ZADD', KEYS[2], 0, ARGV[1])",
        "redis.call('ZADD', KEYS[2], 0, ARGV[1]\n  redis.call('HSET', KEYS[1], 'data', 1)",
    );
    std::fs::write(&p, s).unwrap();
    let (code, stdout, _) = run(
        &["check", dir.path().to_str().unwrap(), "--format", "json"],
        dir.path(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout),
        strs(&[
            "WL305 echo_mq/lib/echo_mq/jobs.ex:11:3",
            "WL001 echo_mq/lib/echo_mq/jobs.ex:11:41",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:12:32",
        ])
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["diagnostics"][1]["message"],
        "embedded lua syntax error; facts from the rest of the file are still checked"
    );
}

// ------------------------------------------------------------------- encoding

/// One file per encoding case, each holding the key type `jobz` (WL103) at a
/// known line and column; checked in the JSON and the human output.
#[test]
fn encodings_keep_lines_and_columns_exact() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Latin-1 `é` (one byte, 0xE9) on the line before and on the same line.
    write(
        d,
        "latin1.ex",
        b"defmodule L do\n  # caf\xe9\n  def k(q), do: {\"\xe9\", \"emq:{#{q}}:jobz\"}\nend\n",
    );
    // A UTF-8 byte order mark is not a column.
    write(
        d,
        "bom.ex",
        b"\xef\xbb\xbfdefmodule B, do: def k(q), do: \"emq:{#{q}}:jobz\"\n",
    );
    write(
        d,
        "bom.rs",
        b"\xef\xbb\xbffn k(q: &str) -> String { format!(\"emq:{{{q}}}:jobz\") }\n",
    );
    write(
        d,
        "bom.lua",
        b"\xef\xbb\xbfredis.call('GET', 'emq:{q}:jobz')\n",
    );
    // CRLF.
    write(
        d,
        "crlf.ex",
        b"defmodule C do\r\n  # x\r\n  def k(q), do: \"emq:{#{q}}:jobz\"\r\nend\r\n",
    );
    write(
        d,
        "crlf.rs",
        b"// a\r\nfn k(q: &str) -> String {\r\n    format!(\"emq:{{{q}}}:jobz\")\r\n}\r\n",
    );
    write(
        d,
        "crlf.lua",
        b"-- a\r\nredis.call('GET', 'emq:{q}:jobz')\r\n",
    );
    // Lone CR: a line comment must end at it, or the key is never seen.
    write(
        d,
        "cr.ex",
        b"defmodule D do\r  # x\r  def k(q), do: \"emq:{#{q}}:jobz\"\rend\r",
    );
    write(
        d,
        "cr.rs",
        b"// a\rfn k(q: &str) -> String {\r    format!(\"emq:{{{q}}}:jobz\")\r}\r",
    );
    write(d, "cr.lua", b"-- a\rredis.call('GET', 'emq:{q}:jobz')\r");
    // Tabs and 2-, 3- and 4-byte characters before the span: one column
    // each. (In Rust format strings with `{{`/`}}` escapes, the span is the
    // whole literal piece after the escape: `}}:jobz` starts at column 28.)
    write(
        d,
        "wide.ex",
        "defmodule T do\n\tdef k(q), do: {\"é€😀\", \"emq:{#{q}}:jobz\"}\nend\n".as_bytes(),
    );
    write(
        d,
        "wide.rs",
        "fn k(q: &str) -> (&str, String) {\n\t(\"é€😀\", format!(\"emq:{{{q}}}:jobz\"))\n}\n"
            .as_bytes(),
    );
    write(
        d,
        "wide.lua",
        "\t--[[é€😀]] redis.call('GET', 'emq:{q}:jobz')\n".as_bytes(),
    );
    let want = [
        "WL103 bom.ex:1:44",
        "WL103 bom.lua:1:28",
        "WL103 bom.rs:1:45",
        "WL103 cr.ex:3:29",
        "WL103 cr.lua:2:28",
        "WL103 cr.rs:3:23",
        "WL103 crlf.ex:3:29",
        "WL103 crlf.lua:2:28",
        "WL103 crlf.rs:3:23",
        "WL103 latin1.ex:3:35",
        "WL103 wide.ex:2:36",
        "WL103 wide.lua:1:39",
        "WL103 wide.rs:2:28",
    ];
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 1);
    assert_eq!(json_positions(&stdout), strs(&want));
    let (code, _, stderr) = run(&["check", "."], d);
    assert_eq!(code, 1);
    let human: Vec<String> = want
        .iter()
        .map(|w| w.split_once(' ').unwrap().1.to_string())
        .collect();
    assert_eq!(human_positions(&stderr), human, "{stderr}");
}

// ------------------------------------------------ not source, or too much of it

#[test]
fn binary_empty_and_oversized_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "bin.rs", b"\x00\x01\x02fn main() {}\x00");
    write(d, "empty.ex", b"");
    write(d, "empty.rs", b"");
    write(d, "empty.lua", b"");
    write(
        d,
        "big.lua",
        format!(
            "redis.call('GET', 'emq:{{q}}:jobz')\n{}\n",
            "-".repeat(2000)
        )
        .as_bytes(),
    );
    let (code, findings, notes) = check_json(d, &["--max-file-size", "1000"]);
    assert_eq!(code, 0);
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(
        notes,
        strs(&[
            ".: no speaker here builds a key with the `emq:` prefix of the embedded `echomq` contract, so it steps aside and only agreement between speakers is checked (to check against a contract: --contract NAME for a shipped family such as bullmq (`wirelint contract list`), --contract ./FILE for a file, or `contract = true` in wirelint.toml for the embedded one)",
            "big.lua: skipped: 2035 bytes is over the 1000 byte limit (--max-file-size)",
            "bin.rs: skipped: binary file (it has NUL bytes)",
        ])
    );
    let (_, _, stderr) = run(&["check", ".", "--max-file-size", "1000"], d);
    assert!(
        stderr.ends_with("wirelint: 0 errors, 0 warnings in 3 files; exit 0: clean\n"),
        "{stderr}"
    );
    // Under the default limit the big file is read and its key checked.
    let (code, findings, _) = check_json(d, &[]);
    assert_eq!(code, 1);
    assert_eq!(findings, strs(&["WL103 big.lua:1"]));
}

/// 100,000 levels of nesting in each language, then a divergent key: no
/// stack overflow, and the key after the nesting is still checked.
#[test]
fn deep_nesting_in_every_language() {
    let n = 100_000;
    let open = |s: &str| s.repeat(n);
    let cases: Vec<(&str, String)> = vec![
        ("lua_tables.lua", format!("local x = {}1{}\nredis.call('GET', 'emq:{{q}}:jobz')\n", open("{"), open("}"))),
        ("lua_parens.lua", format!("local x = {}1{}\nredis.call('GET', 'emq:{{q}}:jobz')\n", open("("), open(")"))),
        ("lua_concat.lua", format!("local x = {}'a'{}\nredis.call('GET', 'emq:{{q}}:jobz')\n", open("('a' .. "), open(")"))),
        ("lua_format.lua", format!("local x = {}'a'{}\nredis.call('GET', 'emq:{{q}}:jobz')\n", open("string.format('%s', "), open(")"))),
        ("rs_arrays.rs", format!("fn f() {{ let x = {}1{}; }}\nfn k(q: &str) -> String {{ format!(\"emq:{{{{{{q}}}}}}:jobz\") }}\n", open("["), open("]"))),
        ("rs_parens.rs", format!("fn f() {{ let x = {}1{}; }}\nfn k(q: &str) -> String {{ format!(\"emq:{{{{{{q}}}}}}:jobz\") }}\n", open("("), open(")"))),
        ("rs_blocks.rs", format!("fn f() {}{}\nfn k(q: &str) -> String {{ format!(\"emq:{{{{{{q}}}}}}:jobz\") }}\n", open("{"), open("}"))),
        ("ex_lists.ex", format!("x = {}1{}\ndef k(q), do: \"emq:{{#{{q}}}}:jobz\"\n", open("["), open("]"))),
        ("ex_parens.ex", format!("x = {}1{}\ndef k(q), do: \"emq:{{#{{q}}}}:jobz\"\n", open("("), open(")"))),
        ("ex_maps.ex", format!("x = {}1{}\ndef k(q), do: \"emq:{{#{{q}}}}:jobz\"\n", open("%{a: "), open("}"))),
        ("ex_concat.ex", format!("x = {}\"a\"{}\ndef k(q), do: \"emq:{{#{{q}}}}:jobz\"\n", open("(\"a\" <> "), open(")"))),
    ];
    for (name, text) in cases {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), name, text.as_bytes());
        let (code, stdout, stderr) = run(&["check", name, "--format", "json"], dir.path());
        assert_eq!(code, 1, "{name}: {stderr}");
        assert_eq!(
            json_findings(&stdout),
            vec![format!("WL103 {name}:2")],
            "{name}"
        );
    }
}

/// A single-line minified Lua file; size-proportional work. The 50 MB case
/// is `fifty_megabyte_minified_lua` (ignored; see docs/robustness.md).
fn minified_lua(bytes: usize) -> String {
    let unit = "local a=redis.call('HGET',KEYS[1],'state');if a=='x' then redis.call('ZADD',KEYS[2],0,ARGV[1]) end;local t={1,2,{3,'y'}};";
    let mut s = String::with_capacity(bytes + 200);
    s.push_str("redis.call('GET','emq:{'..ARGV[1]..'}:jobz');");
    while s.len() < bytes {
        s.push_str(unit);
    }
    s
}

fn check_minified(bytes: usize) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "min.lua", minified_lua(bytes).as_bytes());
    let (code, stdout, stderr) = run(
        &[
            "check",
            "min.lua",
            "--format",
            "json",
            "--max-file-size",
            "100000000",
        ],
        dir.path(),
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_findings(&stdout), strs(&["WL103 min.lua:1"]));
}

#[test]
fn two_megabyte_minified_lua() {
    check_minified(2 * 1024 * 1024);
}

#[test]
#[ignore = "50 MB; run with `cargo test --release --test robustness -- --ignored`"]
fn fifty_megabyte_minified_lua() {
    check_minified(50 * 1024 * 1024);
}

// ----------------------------------------------------------------- filesystem

#[cfg(unix)]
#[test]
fn symlinks_are_not_followed_and_are_noted() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        "far.rs",
        b"fn k(q: &str) -> String { format!(\"emq:{{{q}}}:jobz\") }\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "real.lua", b"redis.call('GET', 'emq:{q}:jobz')\n");
    symlink("loop_b", d.join("loop_a")).unwrap();
    symlink("loop_a", d.join("loop_b")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    symlink("..", d.join("sub/up")).unwrap();
    symlink(outside.path().join("far.rs"), d.join("far.rs")).unwrap();
    symlink(outside.path(), d.join("outside")).unwrap();
    symlink("real.lua", d.join("alias.lua")).unwrap();
    let (code, findings, notes) = check_json(d, &[]);
    assert_eq!(code, 1);
    assert_eq!(findings, strs(&["WL103 real.lua:1"]));
    assert_eq!(
        notes,
        strs(&[
            "alias.lua: symbolic link not followed",
            "far.rs: symbolic link not followed",
            "loop_a: symbolic link not followed (its target cannot be resolved: Too many levels of symbolic links (os error 40))",
            "loop_b: symbolic link not followed (its target cannot be resolved: Too many levels of symbolic links (os error 40))",
            "outside: symbolic link to a directory not followed",
            "sub/up: symbolic link to a directory not followed",
        ])
    );
}

/// A tree 1,500 directories deep (3,000 bytes of path, under the
/// system's limit) is walked to its bottom, a directory per job: the
/// walk's depth is never the stack's. A hidden directory on the way is
/// passed over, as always.
#[cfg(unix)]
#[test]
fn a_very_deep_directory_tree_is_walked_to_the_bottom() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deep = "a/".repeat(1500);
    write(
        d,
        &format!("{deep}k.lua"),
        b"redis.call('GET', 'emq:{q}:jobz')\n",
    );
    write(
        d,
        &format!("{}.hidden/h.lua", "a/".repeat(700)),
        b"redis.call('GET', 'emq:{q}:jobz')\n",
    );
    let (code, findings, notes) = check_json(d, &[]);
    assert_eq!(code, 1);
    assert_eq!(findings, vec![format!("WL103 {deep}k.lua:1")]);
    assert!(notes.is_empty(), "{notes:?}");
}

/// Each file's speaker is its nearest project (a `mix.exs` or
/// `Cargo.toml` that is a regular file, or a link to one), at or below the
/// run's root, whether the walk starts at the root or below it.
#[cfg(unix)]
#[test]
fn each_file_belongs_to_its_nearest_project_under_the_root() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hget = |field: &str| {
        format!(
            "fn f(c: &mut redis::Connection) {{ let _: () = redis::cmd(\"HGET\").arg(\"emq:{{q}}:job:1\").arg(\"{field}\").query(c).unwrap(); }}\n"
        )
    };
    write(d, "Cargo.toml", b"[package]\n");
    write(d, "real_mix.exs", b"defmodule X do end\n");
    std::fs::create_dir(d.join("a")).unwrap();
    symlink("../real_mix.exs", d.join("a/mix.exs")).unwrap();
    write(d, "a/x.ex", b"defmodule A do\n  def f(c), do: Redix.command(c, [\"HGET\", \"emq:{q}:job:1\", \"state\"])\nend\n");
    std::fs::create_dir(d.join("b")).unwrap();
    symlink("../nowhere", d.join("b/Cargo.toml")).unwrap();
    write(d, "b/c/y.rs", hget("statez").as_bytes());
    write(d, "e/Cargo.toml", b"[package]\n");
    write(d, "e/f/w.rs", hget("attemptz").as_bytes());
    let speakers = |paths: &[&str]| -> Vec<String> {
        let mut args = vec!["check", "--format", "json", "--matrix"];
        args.extend_from_slice(paths);
        let (_, stdout, stderr) = run(&args, d);
        let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
        v["matrix"]["speakers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    // From the root: `a`'s linked `mix.exs` counts, `b`'s dangling link
    // does not.
    assert_eq!(speakers(&["."]), strs(&["(root)", "a", "e"]));
    // Two directories below the root (the root stays `.`): `b/c` is the
    // root's, `e/f` is `e`'s.
    assert_eq!(speakers(&["b/c", "e/f"]), strs(&["(root)", "e"]));
    // One directory is the run's root: nothing above it counts.
    assert_eq!(speakers(&["e/f"]), strs(&["(shared scripts)"]));
    assert_eq!(speakers(&["a"]), strs(&["a"]));
}

fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[cfg(unix)]
#[test]
fn unreadable_file_is_a_note_not_fatal() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "ok.lua", b"redis.call('GET', 'emq:{q}:jobz')\n");
    write(d, "locked.lua", b"redis.call('GET', 'emq:{q}:jobz')\n");
    std::fs::set_permissions(d.join("locked.lua"), std::fs::Permissions::from_mode(0o000)).unwrap();
    if running_as_root() {
        eprintln!(
            "skipped: running as root, which reads a mode-000 file; see unreadable_even_for_root"
        );
        return;
    }
    let (code, findings, notes) = check_json(d, &[]);
    assert_eq!(code, 1);
    assert_eq!(findings, strs(&["WL103 ok.lua:1"]));
    assert_eq!(
        notes,
        strs(&["locked.lua: cannot read: Permission denied (os error 13)"])
    );
}

/// A read that fails for every user, root included: `/proc/self/mem` is a
/// regular file that cannot be read from offset 0.
#[cfg(target_os = "linux")]
#[test]
fn unreadable_even_for_root() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "ok.lua", b"redis.call('GET', 'emq:{q}:jobz')\n");
    std::os::unix::fs::symlink("/proc/self/mem", d.join("mem.lua")).unwrap();
    // Named on the command line, a symbolic link is read.
    let (code, stdout, stderr) = run(&["check", "ok.lua", "mem.lua", "--format", "json"], d);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json_findings(&stdout), strs(&["WL103 ok.lua:1"]));
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["notes"][0]["path"], "mem.lua");
    assert_eq!(
        v["notes"][0]["message"],
        "cannot read: Input/output error (os error 5)"
    );
    assert_eq!(v["summary"]["files"], 1);
}

#[cfg(unix)]
#[test]
fn non_utf8_path() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9");
    std::fs::create_dir(d.join(name)).unwrap();
    std::fs::write(
        d.join(name).join("k.lua"),
        b"redis.call('GET', 'emq:{q}:jobz')\n",
    )
    .unwrap();
    let (code, findings, notes) = check_json(d, &[]);
    assert_eq!(code, 1);
    assert_eq!(findings, strs(&["WL103 caf\\xE9/k.lua:1"]));
    assert!(notes.is_empty());
}

// ------------------------------------------------------------------ contracts

/// Exit 2, and the miette report's first line and label position.
fn contract_error(text: Option<&str>) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "k.lua", b"local k = 'emq:{q}:job:1'\n");
    if let Some(t) = text {
        write(d, "c.toml", t.as_bytes());
    }
    let (code, stdout, stderr) = run(&["check", ".", "--contract", "c.toml"], d);
    assert!(stdout.is_empty());
    (code, stderr)
}

#[test]
fn contract_missing() {
    let (code, stderr) = contract_error(None);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: cannot read contract c.toml: No such file or directory (os error 2)\n"
    );
}

#[test]
fn contract_errors_point_into_the_file() {
    let cases: &[(&str, &str, &str, Option<&str>)] = &[
        // (contract, message, label position, help)
        ("name = \"x\"\n[keyspace\n", "invalid contract c.toml: unclosed table, expected `]`", "╭─[c.toml:2:10]", None),
        ("name = 5\n", "invalid contract c.toml: invalid type: integer `5`, expected a string", "1 │ name = 5", None),
        ("name = \"x\"\nrecrods = 1\n", "invalid contract c.toml: unknown key `recrods`", "╭─[c.toml:2:1]", Some("help: did you mean `records`?")),
        ("", "invalid contract c.toml: the contract is empty", "", Some("help: a contract needs at least")),
        ("# nothing\n", "invalid contract c.toml: the contract is empty", "1 │ # nothing", Some("help: a contract needs at least")),
        ("name = \"x\"\n", "invalid contract c.toml: the contract is empty: it declares no", "1 │ name = \"x\"", None),
        ("name = \"x\"\n[keyspace]\nkey = \"emq:{<queue>}: <type>\"\n[keyspace.types]\njob = \"job:<id>\"\n", "invalid contract c.toml: the key pattern `emq:{<queue>}: <type>` cannot", "╭─[c.toml:3:7]", None),
        ("name = \"x\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n[keyspace.types]\njob = \"job <id>\"\n", "invalid contract c.toml: key type `job` cannot match any key", "╭─[c.toml:5:7]", None),
        ("name = \"x\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n[keyspace.types]\njob = \"job:<id><n>\"\n", "invalid contract c.toml: key type `job`: two placeholders in a row", "╭─[c.toml:5:7]", None),
        ("name = \"x\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n[keyspace.types]\njob = \"\"\n", "invalid contract c.toml: key type `job` is empty", "╭─[c.toml:5:7]", None),
    ];
    for (text, message, at, help) in cases {
        let (code, stderr) = contract_error(Some(text));
        assert_eq!(code, 2, "{text}");
        assert!(stderr.starts_with("wirelint::contract\n"), "{stderr}");
        let first = stderr.lines().nth(2).unwrap_or_default();
        assert!(
            first.starts_with(&format!("  × {message}")),
            "{text:?}\n{stderr}"
        );
        assert!(stderr.contains(at), "{text:?}: label {at}\n{stderr}");
        if let Some(h) = help {
            assert!(stderr.contains(h), "{text:?}: help\n{stderr}");
        }
    }
}

// --------------------------------------------------------------- command line

#[test]
fn command_line_errors_exit_2() {
    let r = repo();
    let (code, stdout, stderr) = run(&["check", "--bogus", "."], &r);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("error: unexpected argument '--bogus' found"),
        "{stderr}"
    );

    let (code, _, stderr) = run(&["check", "--contract", "x.toml", "--no-contract", "."], &r);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(
            "error: the argument '--contract <FILE>' cannot be used with '--no-contract'"
        ),
        "{stderr}"
    );

    let (code, _, stderr) = run(&["check", "no/such/path"], &r);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "error: path does not exist: no/such/path\n")
    );

    let (code, _, stderr) = run(&["check", "--format", "xml", "."], &r);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: invalid value 'xml' for '--format <FORMAT>'"),
        "{stderr}"
    );

    let (code, _, stderr) = run(&["check", "--max-file-size", "lots", "."], &r);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: invalid value 'lots' for '--max-file-size <BYTES>'"),
        "{stderr}"
    );
}

#[test]
fn human_output_of_a_crlf_file_names_the_right_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "crlf.lua",
        b"-- a\r\n-- b\r\nredis.call('GET', 'emq:{q}:jobz')\r\n",
    );
    let (code, _, stderr) = run(&["check", "."], dir.path());
    assert_eq!(code, 1);
    assert_eq!(human_findings(&stderr), strs(&["WL103 crlf.lua:3"]));
}

/// The `full` format shows the first 1,000 findings in full and the rest
/// one line each: 87,000 findings from one 1 MB HSET took 4 s to lay out.
#[test]
fn past_a_thousand_findings_the_full_format_gives_one_line_each() {
    let dir = hset_of_unknown_fields(1100);
    let (code, _, stderr) = run(&["check", "."], dir.path());
    assert_eq!(code, 1, "{stderr}");
    let full = stderr.lines().filter(|l| l.starts_with("WL")).count();
    assert_eq!(full, 1000, "{stderr}");
    assert!(
        stderr.contains("\n101 more findings, one line each (the first 1000 are shown in full):\n")
    );
    let short: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("s.lua:1:"))
        .collect();
    assert_eq!(short.len(), 101);
    assert!(
        short[0].contains(": error[WL201]: field `f999` is not a field of the `job` record"),
        "{}",
        short[0]
    );
    assert!(short[100].contains("field `f1099`"), "{}", short[100]);
}

/// SARIF keeps 25,000 results (GitHub code scanning rejects a run of more)
/// and says in a notification how many it left out; errors are kept first.
#[test]
fn sarif_keeps_at_most_twenty_five_thousand_results() {
    let dir = hset_of_unknown_fields(25_050);
    let (code, out, stderr) = run(&["check", ".", "--format", "sarif"], dir.path());
    assert_eq!(code, 1, "{stderr}");
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["results"].as_array().unwrap().len(), 25_000);
    let note = &run0["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"];
    assert!(
        note.as_str()
            .unwrap()
            .starts_with("51 more findings were left out"),
        "{note}"
    );
}

/// A tree of one `s.lua` whose HSET writes `n` fields the contract's `job`
/// record lacks: `n` WL201 findings and one WL310.
fn hset_of_unknown_fields(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fields: Vec<String> = (0..n).map(|i| format!("'f{i}', 1")).collect();
    std::fs::write(
        dir.path().join("s.lua"),
        format!(
            "redis.call('HSET', 'emq:{{q}}:job:1', {})\n",
            fields.join(", ")
        ),
    )
    .unwrap();
    dir
}
