//! `--stdin-filename`: an editor lints its unsaved buffer.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{json_findings, variant};

fn run_stdin(args: &[&str], cwd: &Path, input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const JOBS: &str = "echo_mq/lib/echo_mq/jobs.ex";

#[test]
fn the_buffer_replaces_the_file_on_disk() {
    let dir = variant("");
    let on_disk = std::fs::read_to_string(dir.path().join(JOBS)).unwrap();
    let buffer = on_disk.replace("'payload', ARGV[2]", "'data', ARGV[2]");
    let (code, stdout, stderr) = run_stdin(
        &["check", "--format", "json", "--stdin-filename", JOBS],
        dir.path(),
        &buffer,
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        json_findings(&stdout),
        [
            "WL305 echo_mq/lib/echo_mq/jobs.ex:10",
            "WL201 echo_mq/lib/echo_mq/jobs.ex:10"
        ]
    );
    // The disk is untouched and clean.
    assert_eq!(
        std::fs::read_to_string(dir.path().join(JOBS)).unwrap(),
        on_disk
    );
    let (code, _, _) = common::run(&["check", "."], dir.path());
    assert_eq!(code, 0);
}

#[test]
fn a_clean_buffer_over_a_broken_file_is_clean() {
    let dir = variant("payload-renamed");
    let clean = std::fs::read_to_string(common::repo().join("fixtures/echomq").join(JOBS)).unwrap();
    let (code, stdout, _) = run_stdin(
        &["check", ".", "--format", "json", "--stdin-filename", JOBS],
        dir.path(),
        &clean,
    );
    assert_eq!((code, json_findings(&stdout)), (0, vec![]));
}

/// Without PATHS, only the buffer's findings are reported.
#[test]
fn only_the_buffer_is_reported() {
    let dir = variant("type-misspelled");
    let text = std::fs::read_to_string(dir.path().join(JOBS)).unwrap();
    let (code, stdout, _) = run_stdin(
        &["check", "--format", "json", "--stdin-filename", JOBS],
        dir.path(),
        &text,
    );
    assert_eq!((code, json_findings(&stdout)), (0, vec![]));
    let (code, stdout, _) = run_stdin(
        &["check", ".", "--format", "json", "--stdin-filename", JOBS],
        dir.path(),
        &text,
    );
    assert_eq!(
        (code, json_findings(&stdout)),
        (1, vec!["WL103 peers/rust/src/keys.rs:10".to_string()])
    );
}

#[test]
fn a_new_file_not_yet_on_disk() {
    let dir = variant("");
    let (code, stdout, stderr) = run_stdin(
        &[
            "check",
            ".",
            "--format",
            "concise",
            "--stdin-filename",
            "peers/rust/src/extra.rs",
        ],
        dir.path(),
        "pub fn k(q: &str) -> String {\n    format!(\"emq:{{{}}}:pendng\", q)\n}\n",
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "peers/rust/src/extra.rs:2:22: error[WL103]: key type `pendng` is not in the contract (it knows `job:<id>`, `pending`)\n"
    );
}

/// docs/editors.md's VS Code problem matcher relies on this key order.
#[test]
fn json_lines_keys_come_in_the_documented_order() {
    let dir = variant("payload-renamed");
    let (_, stdout, _) = common::run(&["check", ".", "--format", "json-lines"], dir.path());
    let line = stdout.lines().nth(1).unwrap();
    assert!(
        line.starts_with(
            "{\"code\":\"WL201\",\"name\":\"unknown-field\",\"severity\":\"error\",\"layer\":\"L1\",\"message\":\"field `data` is not a field of the `job` record\",\"path\":\"echo_mq/lib/echo_mq/jobs.ex\",\"span\":{\"start\":{\"line\":10,\"column\":69,\"offset\":333},\"end\":{\"line\":10,\"column\":73,"
        ),
        "{line}"
    );
}

/// With no PATHS the base is the disk: the buffer's own findings, and what
/// it breaks in other files (a reader of the field it renames), but not
/// the findings already on disk elsewhere.
#[test]
fn the_buffer_learns_what_it_breaks_in_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "app/lib/store.ex",
            "defmodule App.Store do\n  def pick(c, q, id, w), do: Redix.command(c, [\"HSET\", \"tq:{#{q}}:task:#{id}\", \"state\", \"active\", \"pb\", w])\nend\n",
        ),
        ("app/mix.exs", "defmodule App.MixProject do\nend\n"),
        (
            "app/lib/jobs.ex",
            "defmodule App.Jobs do\n  def owner(c, q, id), do: Redix.command(c, [\"HGET\", \"tq:{#{q}}:task:#{id}\", \"pb\"])\n  def old(c, q, id), do: Redix.command(c, [\"HGET\", \"tq:{#{q}}:task:#{id}\", \"gone\"])\nend\n",
        ),
    ];
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let (_, stdout, _) = common::run(&["check", "--format", "json", "."], dir.path());
    assert_eq!(json_findings(&stdout), ["WL203 app/lib/jobs.ex:3"]);
    let buffer = files[0].1.replace("\"pb\"", "\"picked_by\"");
    let (code, stdout, stderr) = run_stdin(
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "app/lib/store.ex",
        ],
        dir.path(),
        &buffer,
    );
    assert_eq!(
        (code, json_findings(&stdout)),
        (1, vec!["WL203 app/lib/jobs.ex:2".to_string()]),
        "{stderr}"
    );
}
