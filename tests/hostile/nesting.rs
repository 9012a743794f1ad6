//! Nesting in the Go, JavaScript, TypeScript, Python and Ruby front ends:
//! a tree deeper than the limit (1,000 levels) is checked up to the line
//! where it gets that deep, and a WL001 names the rest; a Ruby heredoc in
//! another heredoc's interpolation, which the grammar misreads, likewise.

use super::*;

const GO_HEAD: &str = "package main\n\nimport \"github.com/redis/go-redis/v9\"\n\n";
const GO_KEY: &str = "func k(ctx context.Context, r *redis.Client, q string) { r.HGet(ctx, \"emq:{\"+q+\"}:jobz\", \"f\") }\n";
const JS_HEAD: &str = "const Redis = require(\"ioredis\");\nconst r = new Redis();\n";
const JS_KEY: &str = "async function k(q) { await r.hget(\"emq:{\" + q + \"}:jobz\", \"f\"); }\n";
const PY_HEAD: &str = "import redis\nr = redis.Redis()\n";
const PY_KEY: &str = "def k(q): r.hget(\"emq:{\" + q + \"}:jobz\", \"f\")\n";
const RB_HEAD: &str = "require \"redis\"\nR = Redis.new\n";
const RB_KEY: &str = "def k(q) = R.hget(\"emq:{#{q}}:jobz\", \"f\")\n";

/// One file per shape, `n` levels deep on one line, the key with a type
/// the contract does not know on the line after: (name, text, the line of
/// the nesting).
fn nested(n: usize) -> Vec<(&'static str, String, usize)> {
    let o = |s: &str| s.repeat(n);
    vec![
        (
            "parens.go",
            format!(
                "{GO_HEAD}func f() {{ _ = {}1{} }}\n{GO_KEY}",
                o("("),
                o(")")
            ),
            5,
        ),
        (
            "calls.go",
            format!(
                "{GO_HEAD}func f() {{ _ = {}1{} }}\n{GO_KEY}",
                o("f("),
                o(")")
            ),
            5,
        ),
        (
            "arrows.js",
            format!("{JS_HEAD}const x = {}1;\n{JS_KEY}", o("a => ")),
            3,
        ),
        (
            "calls.js",
            format!("{JS_HEAD}const x = {}1{};\n{JS_KEY}", o("f("), o(")")),
            3,
        ),
        (
            "arrows.ts",
            format!("{JS_HEAD}const x = {}1;\n{JS_KEY}", o("(a: number) => ")),
            3,
        ),
        (
            "parens.py",
            format!("{PY_HEAD}x = {}1{}\n{PY_KEY}", o("("), o(")")),
            3,
        ),
        (
            "calls.py",
            format!("{PY_HEAD}x = {}1{}\n{PY_KEY}", o("f("), o(")")),
            3,
        ),
        (
            "lambdas.py",
            format!("{PY_HEAD}x = {}1\n{PY_KEY}", o("lambda: ")),
            3,
        ),
        (
            "parens.rb",
            format!("{RB_HEAD}x = {}1{}\n{RB_KEY}", o("("), o(")")),
            3,
        ),
        (
            "calls.rb",
            format!("{RB_HEAD}x = {}1{}\n{RB_KEY}", o("f("), o(")")),
            3,
        ),
        (
            "lambdas.rb",
            format!("{RB_HEAD}x = {}1{}\n{RB_KEY}", o("-> { "), o(" }")),
            3,
        ),
    ]
}

/// `check NAME --format json` in `dir`: the exit code and each finding as
/// `CODE severity start..end`.
fn spans(dir: &Path, name: &str) -> (i32, Vec<String>) {
    let (code, stdout, stderr) = run(&["check", name, "--format", "json", "--no-cache"], dir);
    let v: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{name}: stdout is JSON ({e}): {stderr}"));
    let found = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {}..{}",
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["span"]["start"]["offset"],
                d["span"]["end"]["offset"]
            )
        })
        .collect();
    (code, found)
}

/// 100,000 levels of parentheses, calls, arrow functions and lambdas (30,000
/// parentheses overflowed the stack in Go; 16,000 arrows took 80 s): no
/// crash, and the file is checked up to the deep line, the rest one WL001
/// (an error: the rest holds a Redis call).
#[test]
fn deep_nesting_in_the_new_front_ends_is_cut_with_a_wl001() {
    for (name, text, line) in nested(100_000) {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), name, text.as_bytes());
        let start: usize = text
            .split_inclusive('\n')
            .take(line - 1)
            .map(str::len)
            .sum();
        let (code, found) = spans(dir.path(), name);
        assert_eq!(code, 1, "{name}");
        let want = format!("WL001 error {start}..{}", text.len());
        assert_eq!(found, vec![want], "{name}");
    }
}

/// 300 levels (600 in the tree for calls) are under the limit: the key
/// after them is checked.
#[test]
fn nesting_under_the_limit_is_checked_whole() {
    for (name, text, line) in nested(300) {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), name, text.as_bytes());
        let (code, stdout, stderr) = run(
            &["check", name, "--format", "json", "--no-cache"],
            dir.path(),
        );
        assert_eq!(code, 1, "{name}: {stderr}");
        assert_eq!(
            json_findings(&stdout),
            vec![format!("WL103 {name}:{}", line + 1)],
            "{name}"
        );
    }
}

/// A heredoc in the interpolation of another heredoc's body is valid Ruby
/// the grammar misreads (the rest of the file became one string, with no
/// error): the file is checked up to the line where the outer heredoc
/// starts, and a WL001 names the rest. Two heredocs side by side are read.
#[test]
fn a_heredoc_in_a_heredoc_is_a_wl001_for_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let head = format!("{RB_HEAD}def j(q) = R.hget(\"emq:{{#{{q}}}}:jobq\", \"f\")\n");
    let rest = format!("x = <<~A\n  outer #{{<<~B}} tail\n    inner\n  B\n  more\nA\n{RB_KEY}");
    write(d, "nested.rb", format!("{head}{rest}").as_bytes());
    let (code, found) = spans(d, "nested.rb");
    assert_eq!(code, 1);
    let (s, e) = (head.len(), head.len() + rest.len());
    let jobq = RB_HEAD.len() + "def j(q) = R.hget(\"emq:{#{q}}:".len();
    assert_eq!(
        found,
        vec![
            format!("WL103 error {jobq}..{}", jobq + 4),
            format!("WL001 error {s}..{e}"),
        ]
    );
    let side = format!("{RB_HEAD}x = [<<~A, <<~B]\n  one #{{1}}\nA\n  two\nB\n{RB_KEY}");
    write(d, "side.rb", side.as_bytes());
    let (code, stdout, _) = run(&["check", "side.rb", "--format", "json", "--no-cache"], d);
    assert_eq!(
        (code, json_findings(&stdout)),
        (1, strs(&["WL103 side.rb:8"]))
    );
}

/// Lines of calls nested 495 deep, each call read again as the argument of
/// the call around it, 48 levels down: 4 MB of them took 35 s and 5.8 GB
/// in JavaScript. A file's values read at most a million expression nodes
/// and one more a byte, so each front end that reads calls this way stops
/// where that runs out, and a WL001 (an error: the rest holds a Redis call)
/// names the rest; Rust, which reads each call once, reads the whole file
/// within it.
#[test]
fn calls_nested_under_the_depth_bound_spend_a_file_budget() {
    let calls = format!("{}1{}", "f(".repeat(495), ")".repeat(495));
    let lines = |line: &dyn Fn(usize) -> String| (0..80).map(line).collect::<String>();
    let rs_key = "fn k(q: &str) -> String { format!(\"emq:{{{q}}}:jobz\") }\n";
    let ex_key = "  def k(q), do: \"emq:{#{q}}:jobz\"\n";
    let expr = lines(&|_| format!("x = {calls}\n"));
    let cases: Vec<(&str, String, String, String, bool)> = vec![
        (
            "a.go",
            GO_HEAD.into(),
            GO_KEY.into(),
            lines(&|i| format!("func g{i}() {{ _ = {calls} }}\n")),
            true,
        ),
        ("a.js", JS_HEAD.into(), JS_KEY.into(), expr.clone(), true),
        ("a.ts", JS_HEAD.into(), JS_KEY.into(), expr.clone(), true),
        ("a.py", PY_HEAD.into(), PY_KEY.into(), expr.clone(), true),
        ("a.rb", RB_HEAD.into(), RB_KEY.into(), expr, true),
        (
            "a.rs",
            String::new(),
            rs_key.into(),
            lines(&|i| format!("fn g{i}() {{ let _ = {calls}; }}\n")),
            false,
        ),
        (
            "a.ex",
            "defmodule M do\n".into(),
            ex_key.into(),
            lines(&|i| format!("  def g{i}, do: {calls}\n")),
            true,
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for (name, head, key, body, _) in &cases {
        let tail = if name.ends_with(".ex") { "end\n" } else { "" };
        let last = key.replacen("k(q", "k2(q", 1);
        let text = format!("{head}{key}{body}{last}{tail}");
        write(dir.path(), name, text.as_bytes());
        texts.push(text);
    }
    let (code, stdout, stderr) = run(
        &["check", ".", "--format", "json", "--no-cache"],
        dir.path(),
    );
    assert_eq!(code, 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for ((name, head, key, body, cut), text) in cases.iter().zip(&texts) {
        // Each finding of the file: its code, first line and first byte.
        let found: Vec<(String, u64, u64)> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["path"] == *name)
            .map(|d| {
                let at = &d["span"]["start"];
                let code = d["code"].as_str().unwrap().to_string();
                (
                    code,
                    at["line"].as_u64().unwrap(),
                    at["offset"].as_u64().unwrap(),
                )
            })
            .collect();
        let line = head.lines().count() as u64 + 1;
        let codes: Vec<(&str, u64)> = found.iter().map(|(c, l, _)| (c.as_str(), *l)).collect();
        if !cut {
            let end = line + body.lines().count() as u64 + 1;
            assert_eq!(codes, vec![("WL103", line), ("WL103", end)], "{name}");
            continue;
        }
        // The key before the nesting, and the WL001 of the rest from a byte
        // of the nesting to the end of the file: not the key after it.
        assert_eq!(codes.len(), 2, "{name}: {found:?}");
        assert_eq!(codes[0], ("WL103", line), "{name}");
        assert_eq!(codes[1].0, "WL001", "{name}");
        let d = v["diagnostics"].as_array().unwrap().iter();
        let end = d
            .filter(|d| d["path"] == *name && d["code"] == "WL001")
            .map(|d| d["span"]["end"]["offset"].as_u64().unwrap())
            .next();
        assert_eq!(end, Some(text.len() as u64), "{name}");
        let from = (head.len() + key.len()) as u64;
        assert!(
            (from..from + body.len() as u64).contains(&found[1].2),
            "{name}: {found:?}"
        );
    }
}
