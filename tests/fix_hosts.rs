//! `check --fix` and `--diff` on hostile host strings (issue #54): the
//! WL305 fix spelt for each string kind it writes into, or refused; the
//! WL307 fix refused where the header spans several host literals; a
//! canonical copy holding CRLF or invalid UTF-8 written losslessly or not
//! at all; a fixed file that would parse worse is not written; the count
//! of fixes is of bytes changed.
//!
//! Each case is a small tree built in a temporary directory: the
//! canonical speaker `a` (Elixir) and one copy.

mod common;

use std::path::Path;

use common::run;

/// The canonical copy of `touch`, in an Elixir heredoc: what every host
/// must not read as its own code (`{x}` in a Python f-string, `${y}` in a
/// template literal, `#{z}` and `#@w` in Ruby, a backtick, both quotes, a
/// backslash).
const HOSTILE: &str = "  @touch \"\"\"
  -- {x} ${y} \\#{z} #@w `q` \"d\" 'e' \\\\ end
  redis.call('HSET', KEYS[1], 'seen', ARGV[1])
  \"\"\"
";

/// The canonical copy of `touch` the Elixir attribute `attr` holds.
fn canonical(attr: &str) -> String {
    format!(
        "defmodule A do
{attr}  def touch(conn, id, t), do: Redix.command(conn, [\"EVAL\", @touch, 1, \"tq:task:#{{id}}\", t])
end
"
    )
}

/// A tree with the canonical speaker `a` holding `attr`, and `files`.
fn tree(attr: &str, files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, bytes: &[u8]| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    write(
        "wirelint.toml",
        b"[speakers.a]\npath = \"a\"\ncanonical = true\n",
    );
    write("a/mix.exs", b"");
    write("a/lib/a.ex", canonical(attr).as_bytes());
    for (rel, bytes) in files {
        write(rel, bytes);
    }
    dir
}

fn check(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["check", ".", "--format", "concise", "--no-cache"];
    if dir.join("contract.toml").exists() {
        args.extend(["--contract", "contract.toml"]);
    } else {
        args.push("--no-contract");
    }
    args.extend(extra);
    run(&args, dir)
}

/// `--fix` leaves `file` holding `want` and no finding; a second `--fix`
/// writes nothing and says so.
fn fixes_to(dir: &Path, file: &str, want: &[u8]) {
    let (code, stdout, stderr) = check(dir, &["--fix"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{file}: {stderr}");
    assert!(
        stderr.starts_with("wirelint: fixed 1 finding in 1 file\n"),
        "{file}: {stderr}"
    );
    let got = std::fs::read(dir.join(file)).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(want),
        "{file}"
    );
    assert_eq!(got, want, "{file}");
    let (code, stdout, stderr) = check(dir, &["--fix"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{file}: a second --fix");
    assert!(
        stderr.starts_with("wirelint: fixed 0 findings in 0 files\n"),
        "{file}: {stderr}"
    );
    assert_eq!(std::fs::read(dir.join(file)).unwrap(), want);
}

/// The finding at `finding` carries no fix: `--diff` shows nothing,
/// `--fix` writes nothing and the finding stays.
fn refused(dir: &Path, file: &str, finding: &str) {
    let before = std::fs::read(dir.join(file)).unwrap();
    let (code, stdout, stderr) = check(dir, &["--diff"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{file}: {stderr}");
    let (code, stdout, stderr) = check(dir, &["--fix"]);
    assert_eq!(code, 1, "{file}: {stderr}");
    assert!(stdout.starts_with(finding), "{file}: {stdout}");
    assert!(
        stderr.starts_with("wirelint: fixed 0 findings in 0 files\n"),
        "{file}: {stderr}"
    );
    assert_eq!(std::fs::read(dir.join(file)).unwrap(), before, "{file}");
}

const DRIFTED: &str = "redis.call('HSET', KEYS[1], 'seen', ARGV[2])";
/// The drifted copy as a string quoted with `'` can hold it.
const DRIFTED_DQ: &str = "redis.call(\"HSET\", KEYS[1], \"seen\", ARGV[2])";
const PY: &str = "py/pyproject.toml";
const GO: &str = "go/go.mod";
const RB: &str = "rb/Gemfile";
const JS: &str = "js/package.json";

fn py(copy: &str) -> tempfile::TempDir {
    let q = format!(
        "import redis\n\nTOUCH = {copy}\n\ndef touch(r, id, t):\n    return r.eval(TOUCH, 1, f\"tq:task:{{id}}\", t)\n"
    );
    tree(
        HOSTILE,
        &[
            (PY, b"[project]\nname = \"py\"\n"),
            ("py/q.py", q.as_bytes()),
        ],
    )
}

fn py_fixed(copy: &str) -> Vec<u8> {
    format!(
        "import redis\n\nTOUCH = {copy}\n\ndef touch(r, id, t):\n    return r.eval(TOUCH, 1, f\"tq:task:{{id}}\", t)\n"
    )
    .into_bytes()
}

/// A Python f-string: braces doubled, so the Lua comment's `{x}` stays
/// text and runs nothing when the module is imported.
#[test]
fn wl305_a_python_f_string_doubles_braces() {
    let dir = py(&format!("f\"\"\"\n{DRIFTED}\n\"\"\""));
    fixes_to(
        dir.path(),
        "py/q.py",
        &py_fixed(
            "f\"\"\"-- {{x}} ${{y}} #{{z}} #@w `q` \\\"d\\\" 'e' \\\\ end
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
\"\"\"",
        ),
    );
}

/// A Python triple-quoted string: quotes and backslashes escaped,
/// newlines as they are; a one-line string: newlines as `\n`.
#[test]
fn wl305_python_triple_quoted_and_single_quoted_strings() {
    let dir = py(&format!("'''{DRIFTED}'''"));
    fixes_to(
        dir.path(),
        "py/q.py",
        &py_fixed(
            "'''-- {x} ${y} #{z} #@w `q` \"d\" \\'e\\' \\\\ end
redis.call(\\'HSET\\', KEYS[1], \\'seen\\', ARGV[1])
'''",
        ),
    );
    let dir = py(&format!("\"{DRIFTED}\""));
    fixes_to(
        dir.path(),
        "py/q.py",
        &py_fixed(
            "\"-- {x} ${y} #{z} #@w `q` \\\"d\\\" 'e' \\\\ end\\nredis.call('HSET', KEYS[1], 'seen', ARGV[1])\\n\"",
        ),
    );
}

/// A raw string cannot hold its quote or a backslash; a byte string
/// cannot hold `é`: no fix.
#[test]
fn wl305_python_raw_and_byte_strings_that_cannot_hold_the_text_get_no_fix() {
    let dir = py(&format!("r\"\"\"{DRIFTED}\"\"\""));
    refused(dir.path(), "py/q.py", "py/q.py:3:13: error[WL305]");
    let dir = tree(
        "  @touch \"-- é\\nredis.call('HSET', KEYS[1], 'seen', ARGV[1])\"\n",
        &[
            (PY, b"[project]\nname = \"py\"\n"),
            (
                "py/q.py",
                format!("TOUCH = b\"{DRIFTED}\"\n\ndef touch(r, id, t):\n    return r.eval(TOUCH, 1, f\"tq:task:{{id}}\", t)\n").as_bytes(),
            ),
        ],
    );
    refused(dir.path(), "py/q.py", "py/q.py:1:11: error[WL305]");
}

fn go(copy: &str) -> String {
    format!("package q\n\nimport \"github.com/redis/go-redis/v9\"\n\nvar touch = redis.NewScript({copy})\n")
}

/// A Go interpreted string takes escapes; a raw string cannot hold a
/// backtick: no fix.
#[test]
fn wl305_go_interpreted_and_raw_strings() {
    let m: &[u8] = b"module example.com/q\n\ngo 1.21\n";
    let dir = tree(
        HOSTILE,
        &[
            (GO, m),
            ("go/q.go", go(&format!("\"{DRIFTED}\\n\"")).as_bytes()),
        ],
    );
    fixes_to(
        dir.path(),
        "go/q.go",
        go("\"-- {x} ${y} #{z} #@w `q` \\\"d\\\" 'e' \\\\ end\\nredis.call('HSET', KEYS[1], 'seen', ARGV[1])\\n\"").as_bytes(),
    );
    let dir = tree(
        HOSTILE,
        &[
            (GO, m),
            ("go/q.go", go(&format!("`{DRIFTED}\n`")).as_bytes()),
        ],
    );
    refused(dir.path(), "go/q.go", "go/q.go:5:30: error[WL305]");
}

fn rb(copy: &str) -> String {
    format!("TOUCH = {copy}\n\ndef touch(r, id, t)\n  r.eval(TOUCH, keys: [\"tq:task:#{{id}}\"], argv: [t])\nend\n")
}

/// Ruby's `"…"` escapes `#{` and `#@`; `'…'` only `\` and `'`; a
/// heredoc is not written.
#[test]
fn wl305_ruby_strings_and_heredocs() {
    let g: &[u8] = b"source \"https://rubygems.org\"\n";
    let dir = tree(
        HOSTILE,
        &[
            (RB, g),
            ("rb/q.rb", rb(&format!("\"{DRIFTED}\\n\"")).as_bytes()),
        ],
    );
    fixes_to(
        dir.path(),
        "rb/q.rb",
        rb("\"-- {x} ${y} \\#{z} \\#@w `q` \\\"d\\\" 'e' \\\\ end\\nredis.call('HSET', KEYS[1], 'seen', ARGV[1])\\n\"").as_bytes(),
    );
    let dir = tree(
        HOSTILE,
        &[
            (RB, g),
            ("rb/q.rb", rb(&format!("'{DRIFTED_DQ}\n'")).as_bytes()),
        ],
    );
    fixes_to(
        dir.path(),
        "rb/q.rb",
        rb("'-- {x} ${y} #{z} #@w `q` \"d\" \\'e\\' \\\\ end
redis.call(\\'HSET\\', KEYS[1], \\'seen\\', ARGV[1])
'")
        .as_bytes(),
    );
    let dir = tree(
        HOSTILE,
        &[
            (RB, g),
            (
                "rb/q.rb",
                rb(&format!("<<~EOS\n  {DRIFTED}\nEOS")).as_bytes(),
            ),
        ],
    );
    refused(dir.path(), "rb/q.rb", "rb/q.rb:1:1: error[WL305]");
}

fn js(copy: &str) -> String {
    format!("const TOUCH = {copy};\nmodule.exports = {{ touch: (r, id, t) => r.eval(TOUCH, 1, `tq:task:${{id}}`, t) }};\n")
}

/// A template literal escapes `${` and the backtick; a quoted string is
/// one line; a tagged template is not written.
#[test]
fn wl305_javascript_template_literals_and_strings() {
    let p: &[u8] = b"{\"name\":\"js\",\"dependencies\":{\"ioredis\":\"5\"}}\n";
    let dir = tree(
        HOSTILE,
        &[
            (JS, p),
            ("js/q.js", js(&format!("`{DRIFTED}\n`")).as_bytes()),
        ],
    );
    fixes_to(
        dir.path(),
        "js/q.js",
        js("`-- {x} \\${y} #{z} #@w \\`q\\` \"d\" 'e' \\\\ end
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
`")
        .as_bytes(),
    );
    let dir = tree(
        HOSTILE,
        &[
            (JS, p),
            ("js/q.js", js(&format!("'{DRIFTED_DQ}\\n'")).as_bytes()),
        ],
    );
    fixes_to(
        dir.path(),
        "js/q.js",
        js("'-- {x} ${y} #{z} #@w `q` \"d\" \\'e\\' \\\\ end\\nredis.call(\\'HSET\\', KEYS[1], \\'seen\\', ARGV[1])\\n'").as_bytes(),
    );
    let dir = tree(
        HOSTILE,
        &[
            (JS, p),
            (
                "js/q.js",
                js(&format!("String.raw`{DRIFTED}\n`")).as_bytes(),
            ),
        ],
    );
    refused(dir.path(), "js/q.js", "js/q.js:1:26: error[WL305]");
}

/// A Rust raw string cannot hold `"#` of its own hash count: no fix.
#[test]
fn wl305_a_rust_raw_string_that_would_close_early_gets_no_fix() {
    let lib = format!("const TOUCH: &str = r#\"{DRIFTED}\n\"#;\n\npub fn touch(con: &mut redis::Connection, id: &str, t: u64) -> redis::RedisResult<i64> {{\n    redis::Script::new(TOUCH).key(format!(\"tq:task:{{id}}\")).arg(t).invoke(con)\n}}\n");
    let dir = tree(
        "  @touch \"\"\"\n  redis.call('HSET', KEYS[1], 'seen', ARGV[1])\n  return \"#\"\n  \"\"\"\n",
        &[
            ("rs/Cargo.toml", b"[package]\nname = \"rs\"\nversion = \"0.1.0\"\n"),
            ("rs/src/lib.rs", lib.as_bytes()),
        ],
    );
    refused(
        dir.path(),
        "rs/src/lib.rs",
        "rs/src/lib.rs:1:24: error[WL305]",
    );
}

/// A copy spread over several literals (Python's side by side, Go's
/// `+`): writing the text into the first would leave the others, and a
/// newline in a one-line string breaks it: no fix (it wrote raw newlines
/// and Elixir's `\#{` into both).
#[test]
fn wl305_a_copy_over_several_literals_gets_no_fix() {
    let py_q = format!("TOUCH = (\"{DRIFTED}\\n\"\n         \"return 1\")\n");
    let dir = tree(
        HOSTILE,
        &[
            (PY, b"[project]\nname = \"py\"\n"),
            ("py/q.py", py_q.as_bytes()),
        ],
    );
    refused(dir.path(), "py/q.py", "py/q.py:1:11: error[WL305]");
    let m: &[u8] = b"module example.com/q\n\ngo 1.21\n";
    let go_q = go(&format!("\"{DRIFTED}\\n\" +\n\t\"return 1\""));
    let dir = tree(HOSTILE, &[(GO, m), ("go/q.go", go_q.as_bytes())]);
    refused(dir.path(), "go/q.go", "go/q.go:5:30: error[WL305]");
}

/// A canonical copy holding CRLF: a Go interpreted string spells it
/// `\r\n`; a raw string would lose the `\r` (Go drops it): no fix.
#[test]
fn wl305_crlf_is_written_exactly_or_not_at_all() {
    let m: &[u8] = b"module example.com/q\n\ngo 1.21\n";
    let crlf = "  @touch \"redis.call('HSET', KEYS[1], 'seen', ARGV[1])\\r\\nreturn 1\\r\\n\"\n";
    let dir = tree(
        crlf,
        &[
            (GO, m),
            ("go/q.go", go(&format!("\"{DRIFTED}\\n\"")).as_bytes()),
        ],
    );
    fixes_to(
        dir.path(),
        "go/q.go",
        go("\"redis.call('HSET', KEYS[1], 'seen', ARGV[1])\\r\\nreturn 1\\r\\n\"").as_bytes(),
    );
    let dir = tree(
        crlf,
        &[
            (GO, m),
            ("go/q.go", go(&format!("`{DRIFTED}\n`")).as_bytes()),
        ],
    );
    refused(dir.path(), "go/q.go", "go/q.go:5:30: error[WL305]");
}

/// A canonical copy holding invalid UTF-8 (a `.lua` file with a `\xff`
/// byte, an Elixir string with the escape `\xff`) is known only lossily:
/// no copy is written from it (it was written with U+FFFD, or `ÿ`, in
/// its place).
#[test]
fn wl305_invalid_utf8_is_never_written_lossily() {
    let m: &[u8] = b"module example.com/q\n\ngo 1.21\n";
    let lua: &[u8] = b"-- \xff\nredis.call('HSET', KEYS[1], 'seen', ARGV[1])\n";
    let dir = tree(
        "",
        &[
            ("a/lua/touch.lua", lua),
            (GO, m),
            ("go/q.go", go(&format!("\"{DRIFTED}\\n\"")).as_bytes()),
        ],
    );
    std::fs::remove_file(dir.path().join("a/lib/a.ex")).unwrap();
    refused(dir.path(), "go/q.go", "go/q.go:5:30: error[WL305]");
    // Elixir's `\xff` is the byte 0xFF (it was read as `ÿ`, U+00FF, and
    // written as two bytes of UTF-8 into the copy).
    let attr = "  @touch \"-- \\xff\\nredis.call('HSET', KEYS[1], 'seen', ARGV[1])\\n\"\n";
    let copy = go(&format!("\"{DRIFTED}\\n\""));
    let dir = tree(attr, &[(GO, m), ("go/q.go", copy.as_bytes())]);
    refused(dir.path(), "go/q.go", "go/q.go:5:30: error[WL305]");
}

/// The WL307 header written again would repeat the host's prefix on every
/// line of a `\`-continued Rust string or of Python literals side by side:
/// no fix.
#[test]
fn wl307_a_header_over_several_host_literals_gets_no_fix() {
    let contract = std::fs::read(
        common::repo()
            .join("tests/rules/WL307-keys-declaration-conflict/header-vs-contract/contract.toml"),
    )
    .unwrap();
    let body = [
        "-- KEYS[1] job",
        "-- KEYS[2] pending",
        "-- KEYS[3] wait",
        "redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'payload', ARGV[2])",
        "redis.call('ZADD', KEYS[2], 0, ARGV[1])",
        "return 1",
    ];
    let rust = format!(
        "const ENQUEUE: &str = \"{}\";

pub fn enqueue(con: &mut redis::Connection, q: &str, id: &str, p: &str) -> redis::RedisResult<i64> {{
    redis::Script::new(ENQUEUE)
        .key(format!(\"emq:{{{{{{q}}}}}}:job:{{id}}\"))
        .key(format!(\"emq:{{{{{{q}}}}}}:pending\"))
        .arg(id)
        .arg(p)
        .invoke(con)
}}
",
        body.join("\\n\\\n    ")
    );
    let python = format!(
        "import redis

ENQUEUE = (
    \"{}\"
)

def enqueue(r, q, id, p):
    return r.eval(ENQUEUE, 2, f\"emq:{{{{{{q}}}}}}:job:{{id}}\", f\"emq:{{{{{{q}}}}}}:pending\", id, p)
",
        body.join("\\n\"\n    \"")
    );
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("rs/src")).unwrap();
    std::fs::create_dir_all(root.join("py")).unwrap();
    std::fs::write(root.join("contract.toml"), contract).unwrap();
    std::fs::write(
        root.join("rs/Cargo.toml"),
        "[package]\nname = \"rs\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::write(root.join("rs/src/lib.rs"), &rust).unwrap();
    std::fs::write(root.join("py/pyproject.toml"), "[project]\nname = \"py\"\n").unwrap();
    std::fs::write(root.join("py/q.py"), &python).unwrap();
    let (code, stdout, stderr) = check(root, &["--diff"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let (code, stdout, stderr) = check(root, &["--fix"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "py/q.py:6:17: error[WL307]: `enqueue` declares 3 keys in its header comment but 2 in the contract
py/q.py:7:6: error[WL310]: script `enqueue` writes a `job` row without first checking that its id is a `JOB` id
rs/src/lib.rs:3:16: error[WL307]: `enqueue` declares 3 keys in its header comment but 2 in the contract
rs/src/lib.rs:4:5: error[WL310]: script `enqueue` writes a `job` row without first checking that its id is a `JOB` id
"
    );
    assert!(
        stderr.starts_with("wirelint: fixed 0 findings in 0 files\n"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("rs/src/lib.rs")).unwrap(),
        rust
    );
    assert_eq!(
        std::fs::read_to_string(root.join("py/q.py")).unwrap(),
        python
    );
}

/// A file whose fixed bytes would parse with a syntax error it did not
/// have is not written (`post::fix::parses_as_well`, the check every
/// planned file passes before `--fix` writes it or `--diff` shows it).
#[test]
fn a_fix_that_breaks_the_parse_is_refused() {
    use wirelint::facts::Lang;
    use wirelint::post::fix::parses_as_well;
    let old = b"S = \"return 1\"\n";
    assert_eq!(
        parses_as_well(Some(Lang::Python), old, b"S = \"return 2\"\n"),
        Ok(())
    );
    assert_eq!(
        parses_as_well(Some(Lang::Python), old, b"S = \"return \"2\"\n"),
        Err("the fixed file would not parse as it did (1 syntax error where it had 0)".into())
    );
    // Lua in the host string counts too.
    let lua = b"S = \"return redis.call('GET', KEYS[1])\"\n";
    let broken = b"S = \"return redis.call('GET', KEYS[1]\"\n";
    assert_eq!(parses_as_well(Some(Lang::Python), lua, lua), Ok(()));
    assert!(parses_as_well(Some(Lang::Python), lua, broken).is_err());
    let lua = b"return 1\n";
    assert!(parses_as_well(Some(Lang::Lua), lua, b"return (\n").is_err());
    assert!(parses_as_well(None, lua, lua).is_err());
}
