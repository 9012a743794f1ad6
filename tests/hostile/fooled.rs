//! Fooled results and injection through the output: what the tree says is escaped or counted as it is.

use super::*;

// ------------------------------------------------------- 6. fooled results

/// `'#{@field}'` inside an Elixir heredoc is a hole, not a field with an
/// empty name: no WL201, and `extract --as-contract` gives a contract
/// wirelint accepts (and that holds no empty name).
#[test]
fn an_interpolated_field_in_an_elixir_heredoc_is_a_hole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "mix.exs", b"defmodule Q.MixProject do\nend\n");
    write(
        d,
        "lib/q.ex",
        b"defmodule Q do\n  @field \"state\"\n  @enqueue \"\"\"\n  redis.call('HSET', KEYS[1], '#{@field}', ARGV[1], 'payload', ARGV[2], 'attempts', 0)\n  redis.call('ZADD', KEYS[2], 0, ARGV[1])\n  \"\"\"\n  def enqueue(c, q, id), do: Redix.command(c, [\"EVAL\", @enqueue, 2, \"emq:{#{q}}:job:#{id}\", \"emq:{#{q}}:pending\", id, \"x\"])\nend\n",
    );
    let (code, findings, _) = check_json(d, &["."]);
    // No field with an empty name; the id gate the script lacks is real.
    assert_eq!((code, findings), (1, strs(&["WL310 lib/q.ex:4"])));
    let (code, contract, _) = run(&["extract", "--as-contract", "."], d);
    assert_eq!(code, 0);
    assert!(!contract.contains("\"\""), "{contract}");
    assert!(
        contract.contains("fields = [\"attempts\", \"payload\"]"),
        "{contract}"
    );
    write(d, "extracted.toml", contract.as_bytes());
    let (code, findings, _) = check_json(d, &[".", "--contract", "extracted.toml"]);
    assert_eq!((code, findings), (0, vec![]));
}

/// A key whose literal holds a newline, or a `>` with no `<` (found by the
/// `check_tree` fuzz target), is left out of `extract --as-contract`: the
/// contract loader refuses such a key type. The contract loads, and the
/// keys are WL103s against it.
#[test]
fn a_key_holding_a_newline_is_left_out_of_the_extracted_contract() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "mix.exs", b"defmodule Q.MixProject do\nend\n");
    write(
        d,
        "lib/k.ex",
        b"defmodule K do\n  def a(c, q, id), do: Redix.command(c, [\"HSET\", \"tq:{#{q}}:task:#{id}\", \"status\", \"x\"])\n  def b(c, q, w), do: Redix.command(c, [\"LLEN\", \"tq:{#{q}}:in\nflight:#{w}\"])\n  def d(c, q, w), do: Redix.command(c, [\"LLEN\", \"tq:{#{q}}:done>#{w}\"])\nend\n",
    );
    let (code, contract, _) = run(&["extract", "--as-contract", "."], d);
    assert_eq!(code, 0);
    let types = contract
        .split("[keyspace.types]\n")
        .nth(1)
        .and_then(|t| t.split("\n\n").next());
    assert_eq!(types, Some("task = \"task:<id>\""), "{contract}");
    write(d, "extracted.toml", contract.as_bytes());
    // The contract loads; the key it leaves out is reported against it.
    let (code, findings, _) = check_json(d, &[".", "--contract", "extracted.toml"]);
    assert_eq!(
        (code, findings),
        (1, strs(&["WL103 lib/k.ex:3", "WL103 lib/k.ex:5"]))
    );
}

/// Lua in a Rust string with `\`-newline continuations and escapes is
/// parsed from the text Rust compiles it to: no false WL001, and spans
/// point at the host bytes.
#[test]
fn lua_in_a_rust_string_is_parsed_from_its_decoded_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "Cargo.toml", b"[package]\nname = \"p\"\n");
    let src = "const ENQUEUE: &str = \"redis.call('HSET', KEYS[1], 'state', ARGV[1], \\\n    'payloadz', ARGV[2], 'attempts', 0)\\n\\\n    redis.call(\\\"ZADD\\\", KEYS[2], 0, ARGV[1])\";\npub fn enqueue(c: &mut redis::Connection, q: &str, id: &str) {\n    let _: () = redis::Script::new(ENQUEUE).key(format!(\"emq:{{{q}}}:job:{id}\")).key(format!(\"emq:{{{q}}}:pending\")).arg(id).arg(\"p\").invoke(c).unwrap();\n}\n";
    write(d, "src/lib.rs", src.as_bytes());
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "wirelint.toml", b"ignore = [\"WL310\"]\n");
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{stdout}");
    assert_eq!(diags[0]["code"], "WL201");
    let (s, e) = (
        diags[0]["span"]["start"]["offset"].as_u64().unwrap() as usize,
        diags[0]["span"]["end"]["offset"].as_u64().unwrap() as usize,
    );
    assert_eq!(&src[s..e], "payloadz");
    assert_eq!(diags[0]["span"]["start"]["line"], 2);
}

// ------------------------------------------------ 5. injection through output

/// Twelve files whose names hold a newline, an escape and a `::` workflow
/// command, each with a Lua field name that does too: every format keeps
/// one finding per line (or valid JSON), prints no control character, and
/// in `github` nothing past the first ten findings can be read as a
/// command.
#[cfg(unix)]
#[test]
fn every_format_escapes_hostile_names() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..12 {
        let name = format!("x{i}\n::error file=a.ex::injected\x1b[31m.lua");
        let body = format!(
            "redis.call('HSET', 'emq:{{q}}:job:1', 'state', 'x', 'f{i}\\n::add-mask::secret\\27[0m', 'y')\n"
        );
        std::fs::write(d.join(std::ffi::OsStr::from_bytes(name.as_bytes())), body).unwrap();
    }
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "wirelint.toml", b"ignore = [\"WL310\"]\n");

    let clean = |s: &str| !s.chars().any(|c| c.is_control() && c != '\n');
    // concise: one line per finding, no control character.
    let (code, stdout, _) = run(&["check", ".", "--format", "concise"], d);
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), 12, "{stdout}");
    assert!(clean(&stdout), "{stdout:?}");
    assert!(
        stdout.starts_with("x0\\u{a}::error file=a.ex::injected\\u{1b}[31m.lua:1:52: error[WL201]: field `f0\\u{a}::add-mask::secret\\u{1b}[0m`"),
        "{stdout}"
    );
    // full: names and messages escaped, no escape character.
    let (_, _, stderr) = run(&["check", "."], d);
    assert!(clean(&stderr), "{stderr:?}");
    assert!(stderr.contains("x11\\u{a}::error"), "{stderr}");
    // github: ten annotations, then the rest between stop-commands.
    let (_, stdout, _) = run(&["check", ".", "--format", "github"], d);
    assert!(clean(&stdout), "{stdout:?}");
    let lines: Vec<&str> = stdout.lines().collect();
    let token = lines
        .iter()
        .find_map(|l| l.strip_prefix("::stop-commands::"))
        .expect("a stop-commands block");
    let mut inside = false;
    let mut annotations = 0;
    for l in &lines {
        if l.starts_with("::stop-commands::") {
            inside = true;
        } else if *l == format!("::{token}::") {
            inside = false;
        } else if !inside {
            assert!(
                l.starts_with("::error file=") || l.starts_with("::notice title=wirelint::"),
                "{l}"
            );
            annotations += usize::from(l.starts_with("::error file="));
        }
        assert!(!l.trim_start().starts_with("::add-mask::"), "{l}");
    }
    assert_eq!(annotations, 10);
    assert!(!inside);
    // The machine formats parse, one finding per JSON line.
    for format in ["json", "sarif", "gitlab"] {
        let (_, stdout, _) = run(&["check", ".", "--format", format], d);
        let _: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    }
    let (_, stdout, _) = run(&["check", ".", "--format", "json-lines"], d);
    assert_eq!(stdout.lines().count(), 12);
    for l in stdout.lines() {
        let _: serde_json::Value = serde_json::from_str(l).unwrap();
    }
}

/// A string literal that reads `# wirelint: allow(WL103)` is a string: the
/// error on the next line stands; a real comment still suppresses it.
#[test]
fn a_suppression_inside_a_string_is_not_a_suppression() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "a.ex",
        b"defmodule A do\n  @note \"# wirelint: allow(WL103)\"\n  def k(q), do: \"emq:{#{q}}:jobz\"\nend\n",
    );
    write(
        d,
        "b.rs",
        b"const NOTE: &str = \"// wirelint: allow(WL103)\";\nfn k(q: &str) -> String { format!(\"emq:{{{q}}}:jobz\") }\n",
    );
    write(
        d,
        "c.lua",
        b"local note = '-- wirelint: allow(WL103)'\nredis.call('GET', 'emq:{q}:jobz')\n",
    );
    let (code, findings, _) = check_json(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&["WL103 a.ex:3", "WL103 b.rs:2", "WL103 c.lua:2"])
    );
    write(
        d,
        "a.ex",
        b"defmodule A do\n  # wirelint: allow(WL103)\n  def k(q), do: \"emq:{#{q}}:jobz\"\nend\n",
    );
    let (_, findings, _) = check_json(d, &["."]);
    assert_eq!(findings, strs(&["WL103 b.rs:2", "WL103 c.lua:2"]));
}
