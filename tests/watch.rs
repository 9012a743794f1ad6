//! `check --watch`: the check runs, and runs again when a file under the
//! root changes. A tree of the EchoMQ fixture, a field renamed while the
//! loop watches: the second report has the finding.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// The lines up to and with the next `wirelint: watching` line.
fn report(rx: &Receiver<String>) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("a report within two minutes");
        let end = line.starts_with("wirelint: watching");
        out.push(line);
        if end {
            return out;
        }
    }
}

#[test]
fn a_change_under_the_root_runs_the_check_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    common::copy_tree(&common::repo().join("fixtures/echomq"), root);
    // The full format without source lines: every line on stderr, in order.
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(["check", "--watch", "--no-show-source", "--color", "never"])
        .current_dir(root)
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let first = report(&rx);
    let jobs = root.join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, text.replacen("\"payload\"", "\"data\"", 1)).unwrap();
    let second = report(&rx);
    child.kill().unwrap();
    child.wait().unwrap();
    let watching = "wirelint: watching . for changes (Ctrl-C to stop)";
    assert_eq!(
        first,
        [
            "wirelint: 3 of 3 script calls checked",
            "wirelint: 0 errors, 0 warnings in 8 files; exit 0: clean",
            watching,
        ]
    );
    assert_eq!(
        second,
        [
            "echo_mq/lib/echo_mq/jobs.ex:24:86: error[WL201]: field `data` is not a field of the `job` record",
            "  help: no speaker that follows the contract writes `data`, so `echo_mq` always reads nil. 2 of 3 speakers still agree on the job's fields; `echo_mq` alone diverges",
            "wirelint: 3 of 3 script calls checked",
            "wirelint: 1 error, 0 warnings in 8 files; exit 1: findings at or above error",
            watching,
        ]
    );
    // Nothing written under the root but the edit.
    let files = |d: &std::path::Path| common::walk(d).len();
    assert_eq!(files(root), files(&common::repo().join("fixtures/echomq")));
}

#[test]
fn watch_never_combines_with_a_write() {
    for flag in ["--fix", "--diff"] {
        let (code, _, stderr) = common::run(&["check", "--watch", flag], &common::repo());
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("cannot be used with"), "{stderr}");
    }
}
