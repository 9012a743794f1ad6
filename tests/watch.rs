//! `check --watch`: the check runs, and runs again when a file under the
//! root changes. A tree of the EchoMQ fixture, a field renamed while the
//! loop watches: the second report has the finding. A flood of changes
//! runs it at most once per two seconds, and a symbolic link in the tree
//! never takes a watch out of the root.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const JOBS: &str = "echo_mq/lib/echo_mq/jobs.ex";
const WATCHING: &str = "wirelint: watching . for changes (Ctrl-C to stop)";

/// The report of the fixture as it is.
const CLEAN: [&str; 3] = [
    "wirelint: 3 of 3 script calls checked",
    "wirelint: 0 errors, 0 warnings in 8 files; exit 0: clean",
    WATCHING,
];

/// The report once `payload` is renamed `data` in [`JOBS`].
const RENAMED: [&str; 5] = [
    "echo_mq/lib/echo_mq/jobs.ex:24:86: error[WL201]: field `data` is not a field of the `job` record",
    "  help: no speaker that follows the contract writes `data`, so `echo_mq` always reads nil. 2 of 3 speakers still agree on the job's fields; `echo_mq` alone diverges",
    "wirelint: 3 of 3 script calls checked",
    "wirelint: 1 error, 0 warnings in 8 files; exit 1: findings at or above error",
    WATCHING,
];

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

/// A copy of the EchoMQ fixture: the directory, and the root in it.
fn echomq() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("root");
    common::copy_tree(&common::repo().join("fixtures/echomq"), &root);
    (dir, root)
}

/// A running `check --watch`, stopped when dropped (a failed test too).
struct Watching(Child);

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `check --watch` in `root`, and the lines of its stderr. The full format
/// without source lines: every line on stderr, in order.
fn watch(root: &Path) -> (Watching, Receiver<String>) {
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
    (Watching(child), rx)
}

/// Writes `text` to `path` whole: through a file the check does not read,
/// renamed into place.
fn replace(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn a_change_under_the_root_runs_the_check_again() {
    let (_dir, root) = echomq();
    let (child, rx) = watch(&root);
    let first = report(&rx);
    let jobs = root.join(JOBS);
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, text.replacen("\"payload\"", "\"data\"", 1)).unwrap();
    let second = report(&rx);
    drop(child);
    assert_eq!(first, CLEAN);
    assert_eq!(second, RENAMED);
    // Nothing written under the root but the edit.
    let files = |d: &Path| common::walk(d).len();
    assert_eq!(files(&root), files(&common::repo().join("fixtures/echomq")));
}

/// A file rewritten every 10 ms, 600 times (a comment added each time),
/// then the field renamed: every run reports the tree as it was, the
/// last one the renamed field, and runs start at least two seconds
/// apart, so at most one per two seconds from the flood's start to the
/// last report, and one more (a run every few changes would be dozens).
#[test]
fn a_flood_of_changes_runs_the_check_at_most_once_per_two_seconds() {
    let (_dir, root) = echomq();
    let (child, rx) = watch(&root);
    assert_eq!(report(&rx), CLEAN);
    let jobs = root.join(JOBS);
    let text = std::fs::read_to_string(&jobs).unwrap();
    let start = Instant::now();
    for i in 0..600 {
        replace(&jobs, &format!("{text}# flood {i}\n"));
        std::thread::sleep(Duration::from_millis(10));
    }
    replace(&jobs, &text.replacen("\"payload\"", "\"data\"", 1));
    let mut runs = 0u64;
    loop {
        let r = report(&rx);
        runs += 1;
        if r == RENAMED {
            break;
        }
        assert_eq!(r, CLEAN, "run {runs}");
    }
    let elapsed = start.elapsed();
    drop(child);
    let bound = elapsed.as_secs() / 2 + 1;
    assert!(
        runs <= bound,
        "{runs} runs in {elapsed:?} (at most {bound})"
    );
}

/// The directories (inode numbers) the process `pid` watches with
/// inotify: its `/proc` file descriptor information lists each watch.
#[cfg(target_os = "linux")]
fn watched(pid: u32) -> std::collections::BTreeSet<u64> {
    let mut out = std::collections::BTreeSet::new();
    for fd in std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap() {
        let fd = fd.unwrap();
        let target = std::fs::read_link(fd.path()).unwrap_or_default();
        if target.to_string_lossy() != "anon_inode:inotify" {
            continue;
        }
        let info = format!("/proc/{pid}/fdinfo/{}", fd.file_name().to_string_lossy());
        for line in std::fs::read_to_string(info).unwrap().lines() {
            let ino = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("ino:"))
                .filter(|_| line.starts_with("inotify wd:"));
            if let Some(ino) = ino {
                out.insert(u64::from_str_radix(ino, 16).unwrap());
            }
        }
    }
    out
}

/// The directories under `dir` and `dir` itself (inode numbers), links
/// not followed.
#[cfg(target_os = "linux")]
fn directories(dir: &Path) -> std::collections::BTreeSet<u64> {
    use std::os::unix::fs::MetadataExt;
    let mut out = std::collections::BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        out.insert(std::fs::symlink_metadata(&d).unwrap().ino());
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
        }
    }
    out
}

/// Links to `/` and to a tree of 30 nested directories outside the root,
/// one in the tree when the watch starts, others in a directory moved in
/// while it watches (and one created in the root): the directories
/// watched are exactly the root's own, before and after (one link to the
/// outside tree followed would add its 31).
#[cfg(target_os = "linux")]
#[test]
fn a_symbolic_link_never_takes_a_watch_out_of_the_root() {
    use std::os::unix::fs::symlink;
    let (dir, root) = echomq();
    let out = dir.path().join("out");
    let deep: PathBuf = (0..30).map(|i| format!("d{i}")).collect();
    std::fs::create_dir_all(out.join(deep)).unwrap();
    symlink(&out, root.join("peers/out")).unwrap();
    let (child, rx) = watch(&root);
    report(&rx);
    let pid = child.0.id();
    assert_eq!(watched(pid), directories(&root));
    let moved = dir.path().join("moved");
    std::fs::create_dir_all(moved.join("sub")).unwrap();
    symlink("/", moved.join("up")).unwrap();
    symlink(&out, moved.join("out")).unwrap();
    symlink("/", root.join("top")).unwrap();
    std::fs::rename(&moved, root.join("moved")).unwrap();
    // A directory made in `moved/sub` is watched once the watcher has
    // walked all it walks for the move (it takes events in order).
    std::fs::create_dir(root.join("moved/sub/new")).unwrap();
    let start = Instant::now();
    let mut now = watched(pid);
    while !now.is_superset(&directories(&root)) {
        assert!(start.elapsed() < Duration::from_secs(60), "never watched");
        std::thread::sleep(Duration::from_millis(20));
        now = watched(pid);
    }
    drop(child);
    assert_eq!(now, directories(&root));
    assert!(now.is_disjoint(&directories(&out)));
}

#[test]
fn watch_never_combines_with_a_write() {
    for flag in ["--fix", "--diff"] {
        let (code, _, stderr) = common::run(&["check", "--watch", flag], &common::repo());
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("cannot be used with"), "{stderr}");
    }
}
