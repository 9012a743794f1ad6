//! `wirelint diff --against REF` against a hostile history: file names
//! holding a newline or an escape, a base file over `--max-file-size`,
//! tree entries no checkout can hold (`..`, `/abs.lua`, `.git/…`, made
//! with git's plumbing), and more changes than a report shows in full.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{copy_tree, git, repo, run};

const SCRIPT: &str = "-- KEYS[1] 'pending' (ZSET)\nreturn redis.call('ZCARD', KEYS[1])\n";

/// `fixtures/echomq` and `extra` files committed as `main`.
fn base_with(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("fixtures/echomq"), dir.path());
    for (name, text) in extra {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

/// A file named with a newline and a workflow command, and one with an
/// escape, removed from the work tree: their base names are escaped in
/// every format.
#[test]
fn base_names_with_newlines_and_escapes_are_escaped() {
    let nl = "scripts/x\n::error file=x,line=1::INJECTED.lua";
    let esc = "scripts/e\x1b[2J.lua";
    let dir = base_with(&[(nl, SCRIPT), (esc, SCRIPT)]);
    std::fs::remove_file(dir.path().join(nl)).unwrap();
    std::fs::remove_file(dir.path().join(esc)).unwrap();
    let (code, out, _) = run(
        &["diff", "--against", "main", "--format", "concise"],
        dir.path(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("main:scripts/"))
            .count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("main:scripts/x\\u{a}::error file=x,line=1::INJECTED.lua:"),
        "{out}"
    );
    assert!(out.contains("main:scripts/e\\u{1b}[2J.lua:"), "{out}");
    for format in ["full", "concise", "json", "github", "sarif", "gitlab"] {
        let (code, out, err) = run(
            &["diff", "--against", "main", "--format", format],
            dir.path(),
        );
        assert_eq!(code, 1, "{format}: {err}");
        for text in [&out, &err] {
            assert!(!text.contains('\x1b'), "{format}: {text}");
            assert!(
                !text.lines().any(|l| l.starts_with("::error file=x")),
                "{format}: {text}"
            );
        }
    }
}

/// A script that ran a command, deleted from the work tree while its base
/// copy is over `--max-file-size`: not compared, and said so in every
/// format (a warning, WD001), never a clean run.
#[test]
fn a_base_file_over_the_size_limit_is_reported() {
    let big = format!("{SCRIPT}{}", "-- padding\n".repeat(600));
    let dir = base_with(&[("scripts/big.lua", &big)]);
    std::fs::remove_file(dir.path().join("scripts/big.lua")).unwrap();
    let args = |f: &'static str| {
        [
            "diff",
            "--against",
            "main",
            "--max-file-size",
            "4096",
            "--format",
            f,
        ]
    };
    let (code, out, err) = run(&args("concise"), dir.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "main:scripts/big.lua: warning[WD001]: main:scripts/big.lua is not compared: at main, skipped: over the 4096 byte limit [(input)]\n"
    );
    let (_, out, _) = run(&args("json"), dir.path());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["changes"][0]["code"], "WD001");
    assert_eq!(v["summary"]["warnings"], 1);
    let (_, out, _) = run(&args("github"), dir.path());
    assert_eq!(
        out,
        "::warning title=WD001 not-compared::main:scripts/big.lua is not compared: at main, skipped: over the 4096 byte limit [(input)]\n"
    );
    let (_, out, _) = run(&args("sarif"), dir.path());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"],
        "WD001 not-compared: main:scripts/big.lua is not compared: at main, skipped: over the 4096 byte limit"
    );
    let (_, out, _) = run(&args("gitlab"), dir.path());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["location"]["path"], "scripts/big.lua");
    let (_, _, err) = run(&args("full"), dir.path());
    assert!(
        err.starts_with(
            "main:scripts/big.lua: warning[WD001]: main:scripts/big.lua is not compared"
        ),
        "{err}"
    );
}

fn git_in(dir: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "git {args:?}");
    out.stdout
}

/// A raw tree entry: mode, name, the object's 20 bytes.
fn entry(mode: &str, name: &[u8], oid_hex: &str) -> Vec<u8> {
    let mut e = format!("{mode} ").into_bytes();
    e.extend_from_slice(name);
    e.push(0);
    for i in (0..40).step_by(2) {
        e.push(u8::from_str_radix(&oid_hex[i..i + 2], 16).unwrap());
    }
    e
}

/// A base commit whose root tree also names `..`, `/abs.lua` and a `.git`
/// directory holding a script (git's plumbing writes such a tree; no
/// checkout can hold it): none of them is a file of the base.
#[test]
fn tree_entries_no_checkout_holds_are_not_files() {
    let dir = base_with(&[]);
    let d = dir.path();
    let blob = String::from_utf8(git_in(
        d,
        &["hash-object", "-w", "--stdin"],
        SCRIPT.as_bytes(),
    ))
    .unwrap();
    let blob = blob.trim();
    let sub = entry("100644", b"x.lua", blob);
    let sub = String::from_utf8(git_in(
        d,
        &["hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
        &sub,
    ))
    .unwrap();
    let root = git(d, &["rev-parse", "HEAD^{tree}"]);
    let mut tree = git_in(d, &["cat-file", "tree", root.trim()], b"");
    tree.extend(entry("100644", b"..", blob));
    tree.extend(entry("100644", b"/abs.lua", blob));
    tree.extend(entry("40000", b".git", sub.trim()));
    let tree = String::from_utf8(git_in(
        d,
        &["hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
        &tree,
    ))
    .unwrap();
    let commit = git(d, &["commit-tree", tree.trim(), "-m", "hostile"]);
    let commit = commit.trim();
    let listed = git(d, &["ls-tree", "-r", "--name-only", commit]);
    assert!(listed.lines().any(|l| l == "/abs.lua"), "{listed}");
    assert!(listed.lines().any(|l| l == ".git/x.lua"), "{listed}");
    let (code, out, err) = run(&["diff", "--against", commit, "--format", "json"], d);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["changes"], serde_json::json!([]));
    assert_eq!(v["summary"]["base_files"], v["summary"]["head_files"]);
}

/// 1,200 scripts added: the full report shows the first 1,000 changes in
/// full and the rest one line each.
#[test]
fn the_full_report_shows_a_thousand_changes_in_full() {
    let dir = base_with(&[]);
    for i in 0..1200 {
        let p = dir.path().join(format!("scripts/s{i:04}.lua"));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(
            p,
            format!("-- KEYS[1] 'pending' (ZSET)\nreturn redis.call('ZCARD', KEYS[1]) + {i}\n"),
        )
        .unwrap();
    }
    let (code, out, err) = run(
        &["diff", "--against", "main", "--format", "concise"],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1200, "{err}");
    assert!(
        out.lines().all(|l| l.contains(": warning[WD304]: ")),
        "{out}"
    );
    let (_, _, err) = run(&["diff", "--against", "main"], dir.path());
    let (full, tail) = err
        .split_once("\n200 more changes, one line each (the first 1000 are shown in full):\n")
        .expect("the one-line part");
    assert_eq!(full.matches("WD304 script-added").count(), 1000);
    assert_eq!(
        tail.lines()
            .filter(|l| l.contains(": warning[WD304]: "))
            .count(),
        200
    );
}
