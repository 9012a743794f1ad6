//! Issue 16: a repository under review must not be able to crash, hang,
//! exhaust or fool wirelint. Every case of the issue with its exact outcome
//! (exit code, diagnostic or note); each test runs the binary. Time and
//! memory bounds are in `benches/hostile.rs`, never here.
//! `docs/robustness.md` lists the cases.

mod common;
mod shapes;

#[path = "hostile/budgets.rs"]
mod budgets;
#[path = "hostile/fooled.rs"]
mod fooled;
#[path = "hostile/linear.rs"]
mod linear;
#[path = "hostile/nesting.rs"]
mod nesting;
#[path = "hostile/panics.rs"]
mod panics;

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
