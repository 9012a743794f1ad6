//! Control characters from the tree under review (a key literal, a field
//! name in JavaScript, Lua and Rust) and text laid out to wrap onto a line
//! of its own go through every format, the default report included: no
//! line of any output is a GitHub workflow command but the annotations
//! `--format github` means to write, no control character reaches a text
//! format raw, and the JSON formats carry the decoded characters.

mod common;

use std::path::Path;

use common::run;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// `\u{1b}` and the like: what a text format shows for a control character.
const JS_FIELD: &str = "f\n::warning::js\u{1b}[31m";
const LUA_FIELD: &str = "g\r\n::warning::lua\u{1b}[0m";
const RUST_KEY: &str = "emq:{q}:jobz\n::warning::rust\u{1b}]0;t\u{7}";

/// A key of 1,300 bytes with no place a line may break but inside a word:
/// the report's wrapping cuts it every so many columns, and one of the cuts
/// falls just before a `::warning::`.
fn long_key() -> String {
    format!("emq:{{q}}:jobz{}", "::warning::wx".repeat(100))
}

fn tree(d: &Path) {
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "wirelint.toml", "ignore = [\"WL310\"]\n");
    write(
        d,
        "app.js",
        "const Redis = require(\"ioredis\");\nconst r = new Redis();\nasync function f(id) {\n  await r.hset(\"emq:{q}:job:\" + id, \"state\", \"x\", \"f\\n::warning::js\\u001b[31m\", \"y\");\n}\n",
    );
    write(
        d,
        "b.lua",
        &format!(
            "redis.call('HSET', 'emq:{{q}}:job:1', 'state', 'x', 'g\\r\\n::warning::lua\\27[0m', 'y')\nredis.call('GET', '{}')\n",
            long_key()
        ),
    );
    write(
        d,
        "rs/Cargo.toml",
        "[package]\nname = \"rs\"\nversion = \"0.1.0\"\n[dependencies]\nredis = \"0.25\"\n",
    );
    write(
        d,
        "rs/src/lib.rs",
        "pub fn get(con: &mut redis::Connection) -> redis::RedisResult<String> {\n    redis::cmd(\"GET\").arg(\"emq:{q}:jobz\\n::warning::rust\\x1b]0;t\\x07\").query(con)\n}\n",
    );
}

/// Lines a GitHub Actions runner would read as a workflow command (it
/// trims leading white space first).
fn commands(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.trim_start().starts_with("::"))
        .collect()
}

fn raw_controls(out: &str) -> Vec<char> {
    out.chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect()
}

#[test]
fn control_characters_from_the_tree_are_escaped_in_the_default_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);

    // The default report, with its source lines, labels and help; and the
    // same without the source.
    for args in [vec!["check", "."], vec!["check", ".", "--no-show-source"]] {
        let (code, stdout, stderr) = run(&args, d);
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(stdout, "");
        assert_eq!(commands(&stderr), Vec::<&str>::new(), "{args:?}");
        assert_eq!(raw_controls(&stderr), Vec::<char>::new(), "{args:?}");
        for shown in [
            "`f\\u{a}::warning::js\\u{1b}[31m`",
            "`g\\u{d}\\u{a}::warning::lua\\u{1b}[0m`",
            "key type `jobz\\u{a}:`",
        ] {
            assert!(stderr.contains(shown), "{args:?} {shown}\n{stderr}");
        }
        // Wrapping cut the long key just before a `::warning::`: that
        // line's first `:` is escaped.
        if args.len() == 2 {
            assert!(
                stderr.contains("\n        \\u{3a}:warning::wx::"),
                "{stderr}"
            );
        }
    }

    let (code, stdout, _) = run(&["check", ".", "--format", "concise"], d);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "app.js:4:52: error[WL201]: field `f\\u{a}::warning::js\\u{1b}[31m` is not a field of the `job` record\n\
         b.lua:1:52: error[WL201]: field `g\\u{d}\\u{a}::warning::lua\\u{1b}[0m` is not a field of the `job` record\n\
         b.lua:2:28: error[WL103]: key type `jobz:` is not in the contract (it knows `job:<id>`, `pending`)\n\
         rs/src/lib.rs:2:28: error[WL103]: key type `jobz\\u{a}:` is not in the contract (it knows `job:<id>`, `pending`)\n"
    );
}

#[test]
fn control_characters_from_the_tree_are_escaped_in_github_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);

    // github: the four annotations, each one line, the tree's control
    // characters escaped, and only the help and related lines that
    // wirelint adds written as `%0A`.
    let (code, stdout, _) = run(&["check", ".", "--format", "github"], d);
    assert_eq!(code, 1);
    assert_eq!(raw_controls(&stdout), Vec::<char>::new());
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(commands(&stdout), lines);
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("::error file=app.js,line=4,endLine=4,col=52,endColumn=52,title=WL201 unknown-field::field `f\\u{a}::warning::js\\u{1b}[31m` is not a field of the `job` record [(shared scripts)]%0Ahelp: "), "{}", lines[0]);
    assert!(lines[1].starts_with("::error file=b.lua,line=1,endLine=1,col=52,endColumn=76,title=WL201 unknown-field::field `g\\u{d}\\u{a}::warning::lua\\u{1b}[0m` is not"), "{}", lines[1]);
    assert!(
        lines[2].starts_with("::error file=b.lua,line=2,"),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains("help: rows that `rs` writes at `emq:{q}:jobz\\u{a}::warning::rust\\u{1b}]0;t\\u{7}` are unfindable"), "{}", lines[3]);
    for l in &lines {
        assert_eq!(l.matches("%0A").count(), 2, "{l}");
    }
}

/// The messages of a JSON format: the decoded characters, JSON-escaped.
fn messages(d: &std::path::Path, format: &str) -> Vec<String> {
    let (code, stdout, _) = run(&["check", ".", "--format", format], d);
    assert_eq!(code, 1);
    assert_eq!(commands(&stdout), Vec::<&str>::new(), "{format}");
    assert_eq!(raw_controls(&stdout), Vec::<char>::new(), "{format}");
    let docs: Vec<serde_json::Value> = if format == "json-lines" {
        stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    } else {
        vec![serde_json::from_str(&stdout).unwrap()]
    };
    let pick =
        |v: &serde_json::Value, ptr: &str| v.pointer(ptr).unwrap().as_str().unwrap().to_string();
    match format {
        "json" => docs[0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| pick(d, "/message"))
            .collect(),
        "json-lines" => docs.iter().map(|d| pick(d, "/message")).collect(),
        "sarif" => docs[0]["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| pick(r, "/message/text"))
            .collect(),
        _ => docs[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| pick(i, "/description"))
            .collect(),
    }
}

#[test]
fn control_characters_from_the_tree_are_decoded_in_the_json_formats() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);

    let field = |f: &str| format!("field `{f}` is not a field of the `job` record");
    let key_type =
        |t: &str| format!("key type `{t}` is not in the contract (it knows `job:<id>`, `pending`)");
    let expected = [
        field(JS_FIELD),
        field(LUA_FIELD),
        key_type("jobz:"),
        key_type("jobz\n:"),
    ];
    let codes = [
        "WL201 unknown-field",
        "WL201 unknown-field",
        "WL103 key-type",
        "WL103 key-type",
    ];
    assert_eq!(messages(d, "json"), expected);
    assert_eq!(messages(d, "json-lines"), expected);
    let gitlab: Vec<String> = codes
        .iter()
        .zip(&expected)
        .map(|(c, m)| format!("{c}: {m}"))
        .collect();
    assert_eq!(messages(d, "gitlab"), gitlab);
    // SARIF's text is the message, the speaker and the help.
    let sarif = messages(d, "sarif");
    assert_eq!(sarif.len(), 4);
    for (text, m) in sarif.iter().zip(&expected) {
        assert!(text.starts_with(&format!("{m} [")), "{text:?}");
    }
    assert!(
        sarif[3].contains(&format!("`{RUST_KEY}`")),
        "{:?}",
        sarif[3]
    );
    let (_, stdout, _) = run(&["check", ".", "--format", "json"], d);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let help = doc["diagnostics"][3]["help"].as_str().unwrap();
    assert!(help.contains(&format!("`{RUST_KEY}`")), "{help}");
    assert!(
        stdout.contains("\\n::warning::rust\\u001b]0;t\\u0007"),
        "{stdout}"
    );
}
