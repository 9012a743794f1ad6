//! The results memo changes timing, never output: a run whose files,
//! options and settings are those of the run that kept its results
//! reports them without computing them again, in every format, byte for
//! byte what a run without the memo prints; any change of a file, of
//! `wirelint.toml`, of the contract or of `--select`/`--ignore` is
//! computed again; a damaged memo is none. `WIRELINT_MEMO_TRACE` says
//! on stderr whether a run used the memo.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

use common::{repo, variant, walk, FORMATS};

/// Every file under `root` last changed `ago` seconds ago (the memo, as
/// the facts cache's index, does not trust a file changed just before).
fn settle(root: &Path, ago: u64) {
    let past = SystemTime::now() - Duration::from_secs(ago);
    for f in walk(root) {
        let file = std::fs::File::options().append(true).open(&f).unwrap();
        file.set_modified(past).unwrap();
    }
}

/// A run of `wirelint check ARGS` in `root` (of `.` when ARGS start with
/// a flag) with the cache in `cache` (none: `--no-cache`) and the memo
/// traced: (exit code, stdout, stderr without the trace, the trace).
fn run(root: &Path, cache: Option<&Path>, args: &[&str]) -> (i32, String, String, String) {
    let mut all: Vec<&str> = vec!["check"];
    if args.first().is_none_or(|a| a.starts_with('-')) {
        all.push(".");
    }
    all.extend(args);
    match cache {
        Some(c) => all.extend(["--cache-dir", c.to_str().unwrap()]),
        None => all.push("--no-cache"),
    }
    let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(&all)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .env("GIT_CEILING_DIRECTORIES", repo())
        .env("WIRELINT_MEMO_TRACE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (trace, rest): (Vec<&str>, Vec<&str>) = stderr
        .split_inclusive('\n')
        .partition(|l| l.starts_with("wirelint memo: "));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        rest.concat(),
        trace.concat(),
    )
}

/// A run with the memo in `cache`: it prints what a run without the
/// cache prints; whether it used the memo.
fn as_without(root: &Path, cache: &Path, args: &[&str]) -> bool {
    let (code, out, err, trace) = run(root, Some(cache), args);
    let (want_code, want_out, want_err, none) = run(root, None, args);
    assert_eq!(none, "", "--no-cache uses no memo");
    assert_eq!(
        (code, &out, &err),
        (want_code, &want_out, &want_err),
        "{args:?}: {trace}"
    );
    trace.contains("hit")
}

/// (1) Run twice: the second run uses the memo and prints the same, in
/// every format.
#[test]
fn a_run_again_uses_the_memo_and_prints_the_same_in_every_format() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    let (_, first, _, trace) = run(root, Some(cache.path()), &["--format", "json"]);
    assert_eq!(trace, "wirelint memo: miss\nwirelint memo: stored\n");
    assert!(first.contains("WL305"), "{first}");
    for f in FORMATS {
        for flags in [&[][..], &["--coverage"], &["--quiet"], &["--statistics"]] {
            let mut args = vec!["--format", f];
            args.extend(flags);
            assert!(as_without(root, cache.path(), &args), "{args:?}");
        }
    }
    let (_, again, _, trace) = run(root, Some(cache.path()), &["--format", "json"]);
    assert_eq!(trace, "wirelint memo: hit\n");
    assert_eq!(again, first);
}

/// (2) A hash field renamed in one file, its size kept: computed again,
/// and the new finding is there.
#[test]
fn a_changed_file_is_computed_again() {
    let dir = variant("");
    let root = dir.path();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    as_without(root, cache.path(), &["--format", "json"]);
    assert!(as_without(root, cache.path(), &["--format", "json"]));
    let jobs = root.join("peers/rust/src/jobs.rs");
    let text = std::fs::read_to_string(&jobs).unwrap();
    let renamed = text.replace(
        "hget(keys::job_key(queue, id), \"state\")",
        "hget(keys::job_key(queue, id), \"stale\")",
    );
    assert_ne!(renamed, text);
    assert_eq!(renamed.len(), text.len());
    std::fs::write(&jobs, renamed).unwrap();
    settle(root, 60);
    let (_, before, _, _) = run(root, None, &["--format", "json"]);
    assert!(!as_without(root, cache.path(), &["--format", "json"]));
    let (_, out, _, _) = run(root, Some(cache.path()), &["--format", "json"]);
    assert_eq!(out, before);
    assert!(
        out.contains("\"stale\"") || out.contains("`stale`"),
        "{out}"
    );
    // And kept again for the next run.
    assert!(as_without(root, cache.path(), &["--format", "json"]));
}

/// (3) `wirelint.toml` or the contract changed: computed again.
#[test]
fn a_changed_config_or_contract_is_computed_again() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    let contract = root.join("ours.toml");
    std::fs::copy(repo().join("rules/echomq.toml"), &contract).unwrap();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    let args = ["--format", "json", "--contract", "./ours.toml"];
    as_without(root, cache.path(), &args);
    assert!(as_without(root, cache.path(), &args));
    // A comment in the contract: the same findings, computed again.
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(&contract, format!("# ours\n{text}")).unwrap();
    assert!(!as_without(root, cache.path(), &args));
    assert!(as_without(root, cache.path(), &args));
    // wirelint.toml ignores a rule: computed again, without it.
    let toml = root.join("wirelint.toml");
    let cfg = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{cfg}\nignore = [\"WL201\"]\n")).unwrap();
    assert!(!as_without(root, cache.path(), &args));
    let (_, out, _, _) = run(root, Some(cache.path()), &args);
    assert!(out.contains("WL305") && !out.contains("WL201"), "{out}");
    // Only a comment changed: computed again all the same.
    std::fs::write(&toml, format!("{cfg}\nignore = [\"WL201\"]\n# again\n")).unwrap();
    assert!(!as_without(root, cache.path(), &args));
}

/// (4) A damaged memo is none: the run computes and prints the same.
#[test]
fn a_damaged_memo_is_ignored() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    as_without(root, cache.path(), &["--format", "full"]);
    let values: Vec<_> = walk(cache.path())
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("values")))
        .collect();
    assert_eq!(values.len(), 1, "{values:?}");
    let memo = &values[0];
    let good = std::fs::read(memo).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0xff;
    let short = good[..good.len() / 2].to_vec();
    let mut header = good.clone();
    header[0] = b'X';
    for bad in [flipped, short, header, b"WLC1".to_vec(), Vec::new()] {
        std::fs::write(memo, &bad).unwrap();
        assert!(!as_without(root, cache.path(), &["--format", "full"]));
        std::fs::write(memo, &bad).unwrap();
        assert!(!as_without(root, cache.path(), &["--format", "json"]));
    }
    assert!(as_without(root, cache.path(), &["--format", "json"]));
}

/// (5) `--select` and `--ignore` differ from run to run: each run's own
/// results.
#[test]
fn select_and_ignore_have_their_own_results() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 5] = [
        &[],
        &["--select", "WL305"],
        &["--ignore", "WL305"],
        &["--select", "WL2"],
        &["--select", "WL305", "--ignore", "WL305"],
    ];
    for round in 0..2 {
        for c in cases {
            let mut args = vec!["--format", "json"];
            args.extend(c);
            assert_eq!(
                as_without(root, cache.path(), &args),
                round == 1,
                "{args:?}"
            );
        }
    }
    let only = |args: &[&str]| run(root, Some(cache.path()), args).1;
    let select = only(&["--format", "json", "--select", "WL305"]);
    assert!(
        select.contains("WL305") && !select.contains("WL201"),
        "{select}"
    );
    let ignore = only(&["--format", "json", "--ignore", "WL305"]);
    assert!(
        !ignore.contains("WL305") && ignore.contains("WL201"),
        "{ignore}"
    );
}

/// A run of paths below the root reports their part of the whole
/// project: kept for those paths, and not for others.
#[test]
fn paths_below_the_root_have_their_own_results() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 4] = [
        &["echo_mq", "--format", "json"],
        &["peers/rust", "--format", "json"],
        &["echo_mq", "--format", "full", "--coverage"],
        &["echo_mq/lib/echo_mq/jobs.ex", "--format", "concise"],
    ];
    // The memo is the format's as much as another's: the third run uses
    // the first one's. Files alone are a change-aware run: no memo.
    for want in [[false, false, true, false], [true, true, true, false]] {
        for (args, want) in cases.iter().zip(want) {
            assert_eq!(as_without(root, cache.path(), args), want, "{args:?}");
        }
    }
    let (_, sub, _, _) = run(
        root,
        Some(cache.path()),
        &["peers/rust", "--format", "json"],
    );
    let (_, top, _, _) = run(root, Some(cache.path()), &["echo_mq", "--format", "json"]);
    assert_ne!(sub, top);
}

/// Runs that do more than report, or whose inputs the memo cannot key,
/// neither use nor keep one: a file changed just now, `--read-stats`,
/// `--matrix`, an editor's buffer.
#[test]
fn runs_it_cannot_key_use_no_memo() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    let cache = tempfile::tempdir().unwrap();
    // Changed a moment ago (a time ahead of the run, so that a slow
    // host cannot settle it): not trusted.
    let soon = SystemTime::now() + Duration::from_secs(60);
    let jobs = root.join("peers/rust/src/jobs.rs");
    std::fs::File::options()
        .append(true)
        .open(&jobs)
        .unwrap()
        .set_modified(soon)
        .unwrap();
    let (_, _, _, trace) = run(root, Some(cache.path()), &[]);
    assert_eq!(trace, "");
    settle(root, 120);
    for args in [&["--read-stats"][..], &["--matrix"]] {
        let (_, _, _, trace) = run(root, Some(cache.path()), args);
        assert_eq!(trace, "", "{args:?}");
    }
    as_without(root, cache.path(), &[]);
    assert!(as_without(root, cache.path(), &[]));
    let (_, _, _, trace) = run(root, Some(cache.path()), &["--read-stats"]);
    assert_eq!(trace, "");
}

/// The baseline's bytes key the memo: another baseline, the same path,
/// is computed again and leaves out what it records.
#[test]
fn a_changed_baseline_is_computed_again() {
    let dir = variant("payload-renamed");
    let root = dir.path();
    settle(root, 120);
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let baseline = out.path().join("baseline.json");
    let b = baseline.to_str().unwrap();
    let write = |extra: &[&str]| {
        let mut args = vec!["--write-baseline", b];
        args.extend(extra);
        let (code, _, _, trace) = run(root, Some(cache.path()), &args);
        assert_eq!((code, trace.as_str()), (0, ""));
    };
    write(&[]);
    let args = ["--format", "json", "--baseline", b];
    assert!(!as_without(root, cache.path(), &args));
    assert!(as_without(root, cache.path(), &args));
    let (_, all, _, _) = run(root, Some(cache.path()), &args);
    assert!(!all.contains("WL305") && !all.contains("WL201"), "{all}");
    // Only WL305 recorded now: WL201 is new again.
    write(&["--select", "WL305"]);
    assert!(!as_without(root, cache.path(), &args));
    let (_, some, _, _) = run(root, Some(cache.path()), &args);
    assert!(!some.contains("WL305") && some.contains("WL201"), "{some}");
}
