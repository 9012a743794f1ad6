//! Issue 16: a repository under review must not be able to crash, hang,
//! exhaust or fool wirelint. Every case of the issue with its exact outcome
//! (exit code, diagnostic or note); each test runs the binary. Time and
//! memory bounds are in `benches/hostile.rs`, never here.
//! `docs/robustness.md` lists the cases.

mod common;
mod shapes;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{git, json_findings, run};

const KEY_LUA: &[u8] = b"redis.call('GET', 'emq:{q}:jobz')\n";

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// `check ARGS --format json` in `dir`: (exit, findings, notes as
/// `path: message`).
fn check_json(dir: &Path, args: &[&str]) -> (i32, Vec<String>, Vec<String>) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let (code, stdout, stderr) = run(&all, dir);
    let v: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is JSON ({e}): {stdout}\n{stderr}"));
    let notes = v["notes"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|n| {
                    format!(
                        "{}: {}",
                        n["path"].as_str().unwrap(),
                        n["message"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (code, json_findings(&stdout), notes)
}

/// Runs the binary with `stdin` as its standard input.
fn run_with_stdin(args: &[&str], cwd: &Path, stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // The binary may stop reading early (over the limit): ignore the pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo").arg(p).status().unwrap().success();
    assert!(ok, "mkfifo {}", p.display());
}

// ------------------------------------------- 2. files that hang or exhaust

/// A FIFO or a link to `/dev/zero` named `.gitignore` or `.ignore`, at the
/// root or deeper, is never read: a note each, and the files they would
/// have hidden are checked.
#[cfg(unix)]
#[test]
fn ignore_files_that_are_fifos_or_devices_are_noted_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    mkfifo(&d.join(".gitignore"));
    std::os::unix::fs::symlink("/dev/zero", d.join(".ignore")).unwrap();
    write(d, "a.lua", KEY_LUA);
    write(d, "sub/b.lua", KEY_LUA);
    mkfifo(&d.join("sub/.gitignore"));
    write(d, "sub/deeper/c.lua", KEY_LUA);
    std::os::unix::fs::symlink("/dev/zero", d.join("sub/deeper/.gitignore")).unwrap();
    let (code, findings, notes) = check_json(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL103 a.lua:1",
            "WL103 sub/b.lua:1",
            "WL103 sub/deeper/c.lua:1"
        ])
    );
    assert_eq!(
        notes,
        strs(&[
            ".gitignore: ignore file not read: not a regular file (a FIFO); its patterns are not applied",
            ".ignore: ignore file not read: not a regular file (a symbolic link); its patterns are not applied",
            "sub/.gitignore: ignore file not read: not a regular file (a FIFO); its patterns are not applied",
            "sub/deeper/.gitignore: ignore file not read: not a regular file (a symbolic link); its patterns are not applied",
        ])
    );
}

/// Ignore files that are regular files still work as the walker's did:
/// nested files, `!` re-includes, `.ignore` over `.gitignore`, a parent
/// directory's patterns; one over `--max-file-size` is noted and not
/// applied.
#[test]
fn regular_ignore_files_still_apply() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    // A parent of the scanned root ignores `far.lua`.
    write(top, ".gitignore", b"far.lua\n");
    let d = &top.join("repo");
    write(d, "far.lua", KEY_LUA);
    let mut gitignore = b"gen/\n*.tmp.lua\n!keep.tmp.lua\n".to_vec();
    gitignore.extend_from_slice(&[b'#'; 100]);
    write(d, ".gitignore", &gitignore);
    write(d, "gen/x.lua", KEY_LUA);
    write(d, "a.tmp.lua", KEY_LUA);
    write(d, "keep.tmp.lua", KEY_LUA);
    write(d, "sub/.gitignore", b"local.lua\n");
    write(d, "sub/local.lua", KEY_LUA);
    write(d, "sub/kept.lua", KEY_LUA);
    // `.ignore` wins over `.gitignore`: `vendor.lua` is re-included.
    write(d, "v/.gitignore", b"vendor.lua\n");
    write(d, "v/.ignore", b"!vendor.lua\n");
    write(d, "v/vendor.lua", KEY_LUA);
    let (code, findings, notes) = check_json(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL103 keep.tmp.lua:1",
            "WL103 sub/kept.lua:1",
            "WL103 v/vendor.lua:1",
        ])
    );
    assert!(notes.is_empty(), "{notes:?}");
    // Over the size limit: not applied, said so.
    let (code, findings, notes) = check_json(d, &[".", "--max-file-size", "100"]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL103 a.tmp.lua:1",
            "WL103 gen/x.lua:1",
            "WL103 keep.tmp.lua:1",
            "WL103 sub/kept.lua:1",
            "WL103 v/vendor.lua:1",
        ])
    );
    assert_eq!(
        notes,
        strs(&[".gitignore: ignore file not read: 129 bytes is over the 100 byte limit (--max-file-size); its patterns are not applied"])
    );
}

/// A git directory's `info/exclude` applies to its tree: the scanned
/// root's, a nested repository's (found by the `.git` its directory
/// lists), and a worktree's, whose `.git` file names the common directory.
#[test]
fn git_exclude_files_apply_at_every_level() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, ".git/info/exclude", b"root-x.lua\n");
    write(d, "root-x.lua", KEY_LUA);
    write(d, "nested/.git/info/exclude", b"nested-x.lua\n");
    write(d, "nested/nested-x.lua", KEY_LUA);
    write(d, "nested/kept.lua", KEY_LUA);
    write(d, "nested/.git/worktrees/w/commondir", b"../..\n");
    write(d, "wt/.git", b"gitdir: ../nested/.git/worktrees/w\n");
    write(d, "wt/nested-x.lua", KEY_LUA);
    write(d, "wt/other.lua", KEY_LUA);
    let (code, findings, notes) = check_json(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&["WL103 nested/kept.lua:1", "WL103 wt/other.lua:1"])
    );
    assert!(notes.is_empty(), "{notes:?}");
}

/// A FIFO named like a source file is noted, never opened.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_source_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    mkfifo(&d.join("a.ex"));
    write(d, "b.lua", KEY_LUA);
    let (code, findings, notes) = check_json(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(findings, strs(&["WL103 b.lua:1"]));
    assert_eq!(notes, strs(&["a.ex: skipped: not a regular file (a FIFO)"]));
}

/// An in-tree `wirelint.toml`, or the contract it names, that is a FIFO or
/// a link to `/dev/zero`: exit 2 at once, never a wait or a read.
#[cfg(unix)]
#[test]
fn config_and_contract_that_are_fifos_or_devices() {
    // The contract a FIFO inside the repository.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    write(d, "wirelint.toml", b"contract = \"c.toml\"\n");
    mkfifo(&d.join("c.toml"));
    let (code, stdout, stderr) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("an error document");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("cannot read contract ")
            && message.ends_with("c.toml: not a regular file (a FIFO)"),
        "{message}\n{stderr}"
    );
    // The contract a link to /dev/zero: outside the repository.
    std::fs::remove_file(d.join("c.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("c.toml")).unwrap();
    let (code, _, stderr) = run(&["check", "."], d);
    assert_eq!(code, 2);
    assert!(stderr.contains("╰── outside the repository"), "{stderr}");
    // `wirelint.toml` itself a FIFO.
    std::fs::remove_file(d.join("wirelint.toml")).unwrap();
    mkfifo(&d.join("wirelint.toml"));
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("an error document");
    assert_eq!(v["error"]["kind"], "contract");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.ends_with("wirelint.toml: cannot read: not a regular file (a FIFO)"),
        "{message}"
    );
}

/// `--contract`, `--baseline` and stdin are bounded by `--max-file-size`,
/// and a device or FIFO there is refused.
#[cfg(unix)]
#[test]
fn contract_baseline_and_stdin_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    let (code, _, stderr) = run(&["check", ".", "--contract", "/dev/zero"], d);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: cannot read contract /dev/zero: not a regular file (a character device)\n"
        )
    );
    write(d, "big.toml", &vec![b'#'; 5000]);
    let (code, _, stderr) = run(
        &[
            "check",
            ".",
            "--contract",
            "big.toml",
            "--max-file-size",
            "4096",
        ],
        d,
    );
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: cannot read contract big.toml: 5000 bytes is over the 4096 byte limit (--max-file-size)\n"
        )
    );
    let (code, _, stderr) = run(&["check", ".", "--baseline", "/dev/zero"], d);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: cannot read baseline /dev/zero: not a regular file (a character device)\n"
        )
    );
    // 5 MB on stdin over a 1 MB limit: refused after 1 MB + 1 byte.
    let big = vec![b' '; 5 << 20];
    let (code, stdout, stderr) = run_with_stdin(
        &[
            "check",
            "--stdin-filename",
            "a.lua",
            "--max-file-size",
            "1048576",
        ],
        d,
        &big,
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            2,
            "",
            "error: cannot read stdin: over the 1048576 byte limit (--max-file-size)\n"
        )
    );
}

/// `--threads` far over the cores is capped, with a note.
#[test]
fn threads_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    let (code, findings, notes) = check_json(d, &[".", "--threads", "20000"]);
    assert_eq!(code, 1);
    assert_eq!(findings, strs(&["WL103 a.lua:1"]));
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let plural = if cores == 1 { "" } else { "s" };
    assert_eq!(
        notes,
        vec![format!(
            ".: --threads 20000 capped at {} (4 per core, {cores} core{plural})",
            4 * cores
        )]
    );
}

// ------------------------------------------------ 7. silent skips, wrong paths

/// `/dev/null` (or a FIFO) named on the command line is a usage error.
#[test]
fn dev_null_on_the_command_line_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = run(&["check", "/dev/null"], dir.path());
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            2,
            "",
            "error: /dev/null is not a regular file or a directory (a character device)\n"
        )
    );
}

/// Three names that differ only in bytes that are not UTF-8 are three
/// files, shown escaped and distinct.
#[cfg(unix)]
#[test]
fn names_differing_in_invalid_utf8_stay_distinct() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for b in [0xe9u8, 0xe8, 0xff] {
        let name = [b"k".as_slice(), &[b], b".lua"].concat();
        std::fs::write(d.join(std::ffi::OsStr::from_bytes(&name)), KEY_LUA).unwrap();
    }
    let (code, findings, _) = check_json(d, &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        findings,
        strs(&[
            "WL103 k\\xE8.lua:1",
            "WL103 k\\xE9.lua:1",
            "WL103 k\\xFF.lua:1",
        ])
    );
}

/// `check . sub/..` reads each file once.
#[test]
fn the_same_directory_twice_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "sub/a.lua", KEY_LUA);
    let (code, stdout, _) = run(
        &["check", ".", "sub/..", "./sub/../sub", "--format", "json"],
        d,
    );
    assert_eq!(code, 1);
    assert_eq!(json_findings(&stdout), strs(&["WL103 sub/a.lua:1"]));
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["summary"]["files"], 1);
}

/// A file outside the root shows as its absolute path (one `/`), and its
/// SARIF location is an absolute `file:` URI.
#[test]
fn a_path_outside_the_root_has_one_leading_slash() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "out.lua", KEY_LUA);
    let abs = std::fs::canonicalize(outside.path().join("out.lua")).unwrap();
    let abs = abs.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    let (code, stdout, _) = run(&["check", abs, "a.lua", "--format", "concise"], d);
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with(&format!("{abs}:1:28: error[WL103]: ")),
        "{stdout}"
    );
    assert!(!abs.starts_with("//"));
    let (_, sarif, _) = run(&["check", abs, "a.lua", "--format", "sarif"], d);
    let v: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uri"], format!("file://{abs}"));
    assert!(loc.get("uriBaseId").is_none(), "{loc}");
}

/// `--stdin-filename` naming a directory (or a file that is not source) is
/// a usage error, not a dropped buffer.
#[test]
fn stdin_filename_naming_a_directory_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("lib")).unwrap();
    let (code, _, stderr) = run_with_stdin(&["check", "--stdin-filename", "lib"], d, KEY_LUA);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: --stdin-filename lib is not a file (a directory)\n"
        )
    );
    let (code, _, stderr) = run_with_stdin(&["check", "--stdin-filename", "notes.txt"], d, KEY_LUA);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: --stdin-filename notes.txt is not a file of a language wirelint reads (Elixir, Rust, Lua, Python, JavaScript, TypeScript, Go or Ruby)\n"
        )
    );
}

// ------------------------------------------- 8. reading outside the repository

/// An in-tree `wirelint.toml` cannot point the contract outside its
/// repository, and the error never echoes the file it names; the command
/// line can.
#[test]
fn an_in_tree_config_cannot_name_a_contract_outside_the_repository() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.toml", b"SECRET-LINE = 1\n");
    let secret = outside.path().join("secret.toml");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join(".git")).unwrap();
    write(d, "a.lua", KEY_LUA);
    let toml = format!("contract = {:?}\n", secret.to_str().unwrap());
    write(d, "wirelint.toml", toml.as_bytes());
    let (code, stdout, stderr) = run(&["check", "."], d);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(!stderr.contains("SECRET"), "{stderr}");
    assert!(stderr.contains("╰── outside the repository"), "{stderr}");
    assert!(
        stderr.contains("help: name a contract outside the repository on the command line"),
        "{stderr}"
    );
    // A relative path climbing out, and a link inside pointing out.
    write(
        d,
        "wirelint.toml",
        b"contract = \"../x/../../etc/passwd\"\n",
    );
    let (code, _, stderr) = run(&["check", "."], d);
    assert_eq!(code, 2);
    assert!(!stderr.contains("root:"), "{stderr}");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, d.join("c.toml")).unwrap();
        write(d, "wirelint.toml", b"contract = \"c.toml\"\n");
        let (code, _, stderr) = run(&["check", "."], d);
        assert_eq!(code, 2);
        assert!(!stderr.contains("SECRET"), "{stderr}");
    }
    // Named on the command line, the same file is read (and is not a
    // contract: its error points into it).
    let (code, _, stderr) = run(&["check", ".", "--contract", secret.to_str().unwrap()], d);
    assert_eq!(code, 2);
    assert!(stderr.contains("SECRET-LINE"), "{stderr}");
}

// ------------------------------------------------------ 1. panics (exit 101)

/// One minified line with the key past column 65,535.
fn long_line() -> String {
    format!(
        "{}redis.call('GET','emq:{{q}}:jobz')\n",
        "local a=1;".repeat(7000)
    )
}

/// A finding past column 65,535: every format of `check` reports it.
#[test]
fn a_finding_past_column_65535_is_reported_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "min.lua", long_line().as_bytes());
    let (code, _, stderr) = run(&["check", "."], d);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("╭─[min.lua:1:70027]"), "{stderr}");
    assert!(stderr.lines().all(|l| l.chars().count() < 300), "{stderr}");
    for format in ["concise", "json", "json-lines", "sarif", "github", "gitlab"] {
        let (code, stdout, stderr) = run(&["check", ".", "--format", format], d);
        assert_eq!(code, 1, "{format}: {stderr}");
        // GitLab's report has lines only.
        assert!(
            format == "gitlab" || stdout.contains("70027"),
            "{format}: {stdout}"
        );
    }
}

/// `diff` on a change past column 65,535.
#[test]
fn a_change_past_column_65535_is_reported_by_diff() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "min.lua", b"local a = 1\n");
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    write(d, "min.lua", long_line().as_bytes());
    let (code, _, stderr) = run(&["diff", "--against", "main"], d);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("╭─[min.lua:1:70018]"), "{stderr}");
}

/// Contract and `wirelint.toml` errors past column 65,535: exit 2 with the
/// position, as text and as a JSON error document.
#[test]
fn contract_and_config_errors_past_column_65535() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    let far = format!("name = \"x\"{}bogus\n", " ".repeat(70_000));
    write(d, "c.toml", far.as_bytes());
    let (code, stdout, stderr) = run(&["check", ".", "--contract", "c.toml"], d);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("╭─[c.toml:1:70011]"), "{stderr}");
    let (code, stdout, _) = run(
        &["check", ".", "--contract", "c.toml", "--format", "json"],
        d,
    );
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["error"]["kind"], "contract");
    assert_eq!(v["error"]["path"], "c.toml");
    assert_eq!(
        (&v["error"]["line"], &v["error"]["column"]),
        (&1.into(), &70011.into())
    );
    write(d, "wirelint.toml", far.replace("name", "select").as_bytes());
    for format in ["json", "json-lines", "sarif", "gitlab"] {
        let (code, stdout, stderr) = run(&["check", ".", "--format", format], d);
        assert_eq!(code, 2, "{format}");
        let v: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{format}: {e}: {stdout}\n{stderr}"));
        assert!(!v.is_null());
    }
    let (code, stdout, _) = run(&["check", ".", "--format", "github"], d);
    assert_eq!(code, 2);
    assert!(stdout.starts_with("::error file="), "{stdout}");
}

fn validator(path: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(common::repo().join(path)).unwrap();
    // See `sarif_validates_against_the_schema` (tests/formats.rs).
    let text = text.replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, doc: &str) {
    let doc: serde_json::Value = serde_json::from_str(doc).unwrap();
    let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc}");
}

/// The error document validates against the documented schema (and the
/// SARIF one against SARIF 2.1.0), for a usage and a contract error.
#[test]
fn error_documents_validate_against_the_schemas() {
    let json = validator("docs/wirelint-output.schema.json");
    let sarif = validator("tests/sarif-schema-2.1.0.json");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.lua", KEY_LUA);
    write(d, "c.toml", b"name = \"x\"\nrecrods = 1\n");
    for args in [
        vec!["check", ".", "--contract", "c.toml"],
        vec!["check", "no/such/path"],
    ] {
        let with = |f: &str| {
            let mut a = args.clone();
            a.extend_from_slice(&["--format", f]);
            let (code, stdout, _) = run(&a, d);
            assert_eq!(code, 2, "{a:?}");
            stdout
        };
        let doc = with("json");
        assert_valid(&json, &doc);
        assert_valid(&json, with("json-lines").trim_end());
        assert_valid(&sarif, &with("sarif"));
        let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
        assert!(v["error"]["message"].is_string(), "{doc}");
    }
    let (_, doc, _) = run(
        &["check", ".", "--contract", "c.toml", "--format", "json"],
        d,
    );
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(
        v["error"],
        serde_json::json!({
            "kind": "contract",
            "message": "invalid contract c.toml: unknown key `recrods`",
            "path": "c.toml",
            "line": 2,
            "column": 1,
            "help": "did you mean `records`?",
        })
    );
}

// ------------------------------------------- 3. a parse that runs out of time

/// 120 KB of junk after a real WL201 in a `.lua` file: the WL201 is found,
/// and a WL001 names the exact bytes not checked (a warning: nothing in them
/// could be protocol code); when they could be, the WL001 is an error.
#[test]
fn a_parse_over_budget_names_the_bytes_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let head = "redis.call('HSET', 'emq:{q}:job:1', 'state', 'x', 'payloadz', 'y')\n";
    let junk = "a + ".repeat(30_000);
    write(d, "junk.lua", format!("{head}{junk}\n").as_bytes());
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "wirelint.toml", b"ignore = [\"WL310\"]\n");

    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let found: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {}..{} {}",
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["span"]["start"]["offset"],
                d["span"]["end"]["offset"],
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    let (s, e) = (head.len(), head.len() + junk.len() + 1);
    assert_eq!(
        found,
        vec![
            "WL201 error 51..59 field `payloadz` is not a field of the `job` record".to_string(),
            format!("WL001 warning {s}..{e} bytes {s}..{e} were not checked: the parser gave up on them (its time or read budget ran out, or its blocks nest too deep)"),
        ]
    );
    // Junk that could hold protocol code fails the run by itself.
    write(
        d,
        "junk.lua",
        format!("local ok = 1\n{}\n", "a + KEYS[1] + ".repeat(9_000)).as_bytes(),
    );
    let (code, findings, _) = check_json(d, &["."]);
    assert_eq!((code, findings), (1, strs(&["WL001 junk.lua:2"])));
    let (_, stdout, _) = run(&["check", ".", "--format", "json"], d);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["severity"], "error");
    assert!(
        v["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("and they could hold protocol code"),
        "{stdout}"
    );
}

// ------------------------------------------- 4. quadratic time or memory

/// The inputs that were quadratic keep their exact findings (their time and
/// memory are measured in `benches/hostile.rs`): every file sharing one bad
/// key has its WL103, every unknown field of one HSET its WL201, and a key
/// after a long pipe, after deeply nested `format!`, built of thousands of
/// concatenated parts, passed at the end of thousands of chained `.key()`
/// calls and at the end of a chain of builders whose names are prefixes of
/// one another is found.
#[test]
fn inputs_that_were_quadratic_keep_their_findings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..300 {
        write(d, &format!("many/f{i:03}.lua"), KEY_LUA);
    }
    let (code, findings, _) = check_json(&d.join("many"), &["."]);
    let want: Vec<String> = (0..300).map(|i| format!("WL103 f{i:03}.lua:1")).collect();
    assert_eq!((code, findings), (1, want));

    let fields: Vec<String> = (0..300).map(|i| format!("'f{i}', 1")).collect();
    let hset = format!(
        "redis.call('HSET', 'emq:{{q}}:job:1', {})\n",
        fields.join(", ")
    );
    write(d, "hset/s.lua", hset.as_bytes());
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "hset/wirelint.toml", b"ignore = [\"WL310\"]\n");
    let (code, findings, _) = check_json(&d.join("hset"), &["."]);
    assert_eq!(
        (code, findings),
        (1, vec!["WL201 s.lua:1".to_string(); 300])
    );

    let mix = b"defmodule Q.MixProject do\nend\n";
    write(d, "pipe/mix.exs", mix);
    let pipe = format!(
        "defmodule P do\n  def f(x), do: x{}\n  def k(q), do: Redix.command(:r, [\"GET\", \"emq:{{#{{q}}}}:jobz\"])\nend\n",
        " |> g()".repeat(5_000)
    );
    write(d, "pipe/lib/p.ex", pipe.as_bytes());
    let (code, findings, _) = check_json(&d.join("pipe"), &["."]);
    assert_eq!((code, findings), (1, strs(&["WL103 lib/p.ex:3"])));

    // Eight `format!` inside one another still resolve; 1,001 do not (the
    // value depth bound), and the key after them is found.
    write(d, "fmt/Cargo.toml", b"[package]\nname = \"c\"\n");
    let nest = |n: usize| {
        format!(
            "{}format!(\"emq:{{{{{{}}}}}}:jobz\", q){}",
            "format!(\"{}\", ".repeat(n),
            ")".repeat(n)
        )
    };
    let lib = format!(
        "fn a(q: &str) -> String {{ {} }}\nfn c(q: &str) -> String {{ {} }}\n\
         fn r(c: &mut redis::Connection, q: &str) {{ redis::cmd(\"GET\").arg(a(q)); \
         redis::cmd(\"GET\").arg(c(q)); redis::cmd(\"GET\").arg(\"emq:{{q}}:jobz\"); }}\n",
        nest(7),
        nest(1_000)
    );
    write(d, "fmt/src/lib.rs", lib.as_bytes());
    let (code, findings, _) = check_json(&d.join("fmt"), &["."]);
    assert_eq!(
        (code, findings),
        (1, strs(&["WL103 src/lib.rs:1", "WL103 src/lib.rs:3"]))
    );

    // Shapes of `tests/shapes` (timed in `benches/hostile.rs`): a key of
    // 2,000 concatenated parts; a script under 2,000 chained `.key(..)`;
    // commands nested 300 deep in Elixir lists, in Elixir `if`s, and
    // pushes in Rust `if`s; 300 scripts each run by its own function; 300
    // suppressions; 300 keys read that nothing writes beside 600 written;
    // 100 modules that each define `k`; Elixir blocks nested too deep.
    let lines = |path: &str, lines: Vec<usize>| -> Vec<String> {
        lines.into_iter().map(|l| format!("{path}:{l}")).collect()
    };
    let wl103 = |path: &str, ls: Vec<usize>| -> Vec<String> { lines(&format!("WL103 {path}"), ls) };
    let cases: Vec<(&str, shapes::Files, i32, Vec<String>)> = vec![
        (
            "concat",
            shapes::long_concatenation(2_000),
            1,
            wl103("s.lua", vec![1]),
        ),
        (
            "keys",
            shapes::long_key_chain(2_000),
            1,
            wl103("src/lib.rs", vec![3]),
        ),
        (
            "nest",
            shapes::nested_lists(300),
            1,
            wl103("lib/n.ex", vec![2; 300]),
        ),
        (
            "ifs",
            shapes::nested_ifs(300),
            1,
            wl103("lib/i.ex", (3..303).collect()),
        ),
        (
            "push",
            shapes::nested_pushes(300),
            1,
            wl103("src/lib.rs", vec![1; 300]),
        ),
        (
            "scripts",
            shapes::scripts_each_run(300),
            1,
            wl103("lib/s.ex", (0..300).map(|i| 3 + 2 * i).collect()),
        ),
        ("sup", shapes::suppressions(300), 0, Vec::new()),
        (
            "orphan",
            shapes::orphan_reads(300),
            0,
            lines("WL104 lib/r.ex", (0..300).map(|i| 3 + 2 * i).collect()),
        ),
        (
            "same",
            shapes::same_named_builders(100),
            1,
            wl103("lib/a.ex", (0..100).map(|i| 2 + 3 * i).collect()),
        ),
        // 1,200 nested `if`s (16,500 nested blocks took 4.6 s, inside
        // tree-sitter): the file is parsed up to the line where the blocks
        // nest 1,001 deep, the rest is named as not checked.
        (
            "deep",
            shapes::nested_ifs(1_200),
            1,
            [
                vec!["WL001 lib/i.ex:1".to_string()],
                wl103("lib/i.ex", (3..1001).collect()),
                vec!["WL001 lib/i.ex:1001".to_string()],
            ]
            .concat(),
        ),
    ];
    for (name, files, want_code, want) in cases {
        for (rel, text) in &files {
            write(&d.join(name), rel, text.as_bytes());
        }
        let (code, findings, _) = check_json(&d.join(name), &["."]);
        assert_eq!((code, findings), (want_code, want), "{name}");
    }

    write(d, "chain/mix.exs", mix);
    let name = |i: usize| format!("k{}", "_k".repeat(i));
    let mut body = String::from("defmodule S do\n  def k(q), do: \"emq:{#{q}}:jobz\"\n");
    for i in 1..300 {
        body.push_str(&format!(
            "  def {}(q), do: \"#{{{}(q)}}\"\n",
            name(i),
            name(i - 1)
        ));
    }
    body.push_str(&format!(
        "  def run(c, q), do: Redix.command(c, [\"GET\", {}(q)])\nend\n",
        name(299)
    ));
    write(d, "chain/lib/s.ex", body.as_bytes());
    let (code, findings, _) = check_json(&d.join("chain"), &["."]);
    assert_eq!((code, findings), (1, strs(&["WL103 lib/s.ex:2"])));
}

/// Twelve speakers, each writing a field the contract lacks: each finding
/// names ten of the eleven others and counts the rest (thousands of
/// speakers made every finding name every other: 3,000 crates, 1 GB),
/// while the counts stay whole.
#[test]
fn a_finding_names_ten_other_speakers_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..12 {
        write(
            d,
            &format!("c{i:02}/Cargo.toml"),
            format!("[package]\nname = \"c{i:02}\"\n").as_bytes(),
        );
        write(
            d,
            &format!("c{i:02}/src/lib.rs"),
            format!("pub fn f(c: &mut redis::Connection) {{ let _: () = redis::cmd(\"HSET\").arg(\"emq:{{q}}:job:1\").arg(\"state\").arg(1).arg(\"f{i}\").arg(2).query(c).unwrap(); }}\n").as_bytes(),
        );
    }
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let first = &v["diagnostics"][0];
    assert_eq!(
        (first["code"].as_str(), first["path"].as_str()),
        (Some("WL201"), Some("c00/src/lib.rs"))
    );
    assert_eq!(
        first["help"].as_str().unwrap(),
        "the other 11 speakers (`c01`, `c02`, `c03`, `c04`, `c05`, `c06`, `c07`, `c08`, `c09`, `c10`, … and 1 more) read the contract's fields and find nothing in rows that `c00` writes. 11 of 12 speakers still agree on the job's fields; `c00` alone diverges"
    );
    assert_eq!(first["impact"]["unaffected"].as_array().unwrap().len(), 11);
}

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
