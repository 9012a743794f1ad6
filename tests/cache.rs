//! The facts cache changes timing, never output: a cold run, a warm run
//! (nothing read or parsed again), a run after a file changed, and a run
//! over a corrupt cache all report what a run without the cache reports;
//! and the cache is written where it is told, never under the scanned root.

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use common::{git, run, variant, walk};

/// `wirelint stats: ...` of a run's stderr.
fn stats(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.starts_with("wirelint stats: "))
        .unwrap_or_else(|| panic!("no stats line in\n{stderr}"))
        .to_string()
}

/// A count of the stats line: `N parsed`, `N from the cache`, `N read`.
fn count(stats: &str, what: &str) -> usize {
    let at = stats
        .find(what)
        .unwrap_or_else(|| panic!("{what} in {stats}"));
    stats[..at]
        .trim_end()
        .rsplit([' ', ',', ':'])
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Every file under `root` last changed a minute ago (the cache's index
/// does not trust a file changed just before the run that saw it).
fn settle(root: &Path) {
    let past = SystemTime::now() - Duration::from_secs(60);
    for f in walk(root) {
        let file = std::fs::File::options().append(true).open(&f).unwrap();
        file.set_modified(past).unwrap();
    }
}

/// `check` with the cache in `cache`: (exit code, JSON, stats line).
fn check(root: &Path, cache: &Path) -> (i32, String, String) {
    let (r, c) = (root.to_str().unwrap(), cache.to_str().unwrap());
    let (code, out, err) = run(
        &[
            "check",
            r,
            "--format",
            "json",
            "--cache-dir",
            c,
            "--read-stats",
        ],
        root,
    );
    (code, out, stats(&err))
}

fn uncached(root: &Path) -> (i32, String) {
    let r = root.to_str().unwrap();
    let (code, out, _) = run(&["check", r, "--format", "json", "--no-cache"], root);
    (code, out)
}

#[test]
fn cold_warm_changed_and_corrupt_runs_report_the_same() {
    for name in ["", "payload-renamed", "prefix-changed", "pending-dropped"] {
        let dir = variant(name);
        let root = dir.path();
        settle(root);
        let cache = tempfile::tempdir().unwrap();
        let want = uncached(root);

        let (code, out, cold) = check(root, cache.path());
        assert_eq!((code, out), want, "{name:?}: cold");
        assert!(count(&cold, "parsed") > 0, "{name:?}: {cold}");

        let (code, out, warm) = check(root, cache.path());
        assert_eq!((code, out), want, "{name:?}: warm");
        assert_eq!(count(&warm, "parsed"), 0, "{name:?}: {warm}");
        // Nothing is read: the index holds the identifiers of the files
        // the name pass searches, and the hash of those it selects.
        assert!(count(&cold, "read") > 0, "{name:?}: {cold}");
        assert_eq!(count(&warm, "read"), 0, "{name:?}: {cold} / {warm}");
        assert_eq!(
            count(&warm, "from the cache"),
            count(&cold, "parsed"),
            "{name:?}: {warm}"
        );

        // A changed file is read and parsed again, and only it.
        let keys = root.join("peers/rust/src/keys.rs");
        let text = std::fs::read_to_string(&keys).unwrap();
        std::fs::write(&keys, text.replace("emq:", "emk:")).unwrap();
        let want = uncached(root);
        let (code, out, changed) = check(root, cache.path());
        assert_eq!((code, out), want, "{name:?}: changed");
        assert_eq!(count(&changed, "parsed"), 1, "{name:?}: {changed}");
        assert!(want.1.contains("WL101"), "{name:?}: {}", want.1);

        // Every cache file garbled: a miss each, the same report.
        for f in walk(cache.path()) {
            std::fs::write(&f, b"WLC1 garbled").unwrap();
        }
        let (code, out, corrupt) = check(root, cache.path());
        assert_eq!((code, out), want, "{name:?}: corrupt");
        assert!(count(&corrupt, "parsed") > 0, "{name:?}: {corrupt}");
    }
}

/// A file the prefilter passes over that the name pass selects (it
/// defines a function a script call's argument calls) is read and parsed
/// by the cold run only: the warm one knows from the index that it holds
/// the name, and takes its facts from the cache.
#[test]
fn a_warm_run_reads_no_file_the_name_pass_searches() {
    let dir = variant("");
    let root = dir.path();
    let jobs = root.join("peers/rust/src/jobs.rs");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, text.replace(".arg(id)", ".arg(crate::ids::tag(id))")).unwrap();
    std::fs::write(
        root.join("peers/rust/src/ids.rs"),
        "pub fn tag(id: &str) -> String {\n    id.to_uppercase()\n}\n",
    )
    .unwrap();
    settle(root);
    let cache = tempfile::tempdir().unwrap();
    let want = uncached(root);
    let (code, out, cold) = check(root, cache.path());
    assert_eq!((code, out), want, "cold");
    // The 6 files of the fixture's run, and ids.rs.
    assert_eq!(count(&cold, "selected"), 7, "{cold}");
    assert_eq!(count(&cold, "parsed"), 7, "{cold}");
    let (code, out, warm) = check(root, cache.path());
    assert_eq!((code, out), want, "warm");
    assert_eq!(
        (count(&warm, "read"), count(&warm, "parsed")),
        (0, 0),
        "{warm}"
    );
    assert_eq!(count(&warm, "from the cache"), 7, "{warm}");
    assert_eq!(count(&warm, "selected"), 7, "{warm}");
}

/// A cached run after an edit: it reports what a run without the cache
/// reports; its stats line.
fn reports_as_uncached(root: &Path, cache: &Path, what: &str) -> String {
    let want = uncached(root);
    let (code, out, stats) = check(root, cache);
    assert_eq!((code, out), want, "{what}");
    stats
}

/// `ids.rs`, whose `tag` returns `body`.
fn ids_with(body: &str) -> String {
    format!("pub fn tag(id: &str) -> String {{\n    {body}\n}}\n")
}

/// A changed file the last run parsed is parsed with the first reads,
/// ahead of the name pass that selected it last time; the selection still
/// decides. Edited to stay in the protocol, it is selected again; once the
/// edit takes it out, its facts are dropped, and it is no longer parsed
/// ahead. Every run reports what a run without the cache reports.
#[test]
fn a_changed_file_the_last_run_parsed_is_parsed_ahead_and_still_selected() {
    let dir = variant("");
    let root = dir.path();
    let jobs = root.join("peers/rust/src/jobs.rs");
    let ids = root.join("peers/rust/src/ids.rs");
    let text = std::fs::read_to_string(&jobs).unwrap();
    let calls = |f: &str| text.replace(".arg(id)", &format!(".arg(crate::ids::{f}(id))"));
    std::fs::write(&jobs, calls("tag")).unwrap();
    std::fs::write(&ids, ids_with("id.to_uppercase()")).unwrap();
    settle(root);
    let cache = tempfile::tempdir().unwrap();
    let cold = reports_as_uncached(root, cache.path(), "cold");
    assert_eq!(count(&cold, "selected"), 7, "{cold}");

    // Still named: parsed ahead, and selected.
    std::fs::write(&ids, ids_with("id.to_lowercase()")).unwrap();
    let kept = reports_as_uncached(root, cache.path(), "still named");
    // Read once: not read again for the name pass to search.
    assert_eq!(
        (count(&kept, "read"), count(&kept, "parsed")),
        (1, 1),
        "{kept}"
    );
    assert_eq!(count(&kept, "selected"), 7, "{kept}");

    // Named no more (`jobs.rs` calls `label`): parsed ahead, not selected.
    std::fs::write(&jobs, calls("label")).unwrap();
    std::fs::write(&ids, ids_with("id.to_string()")).unwrap();
    let dropped = reports_as_uncached(root, cache.path(), "named no more");
    assert_eq!(
        (count(&dropped, "parsed"), count(&dropped, "selected")),
        (2, 6),
        "{dropped}"
    );

    // Changed again: no longer parsed ahead.
    std::fs::write(&ids, ids_with("id.trim().to_string()")).unwrap();
    let again = reports_as_uncached(root, cache.path(), "changed again");
    assert_eq!(
        (count(&again, "parsed"), count(&again, "selected")),
        (0, 6),
        "{again}"
    );
}

#[test]
fn the_cache_is_written_only_where_it_is_told() {
    let dir = variant("");
    let root = dir.path();
    let before = walk(root);
    let cache = tempfile::tempdir().unwrap();
    check(root, cache.path());
    assert_eq!(walk(root), before, "nothing written under the root");
    let written = walk(cache.path());
    assert!(written
        .iter()
        .any(|p| p.to_string_lossy().contains("index-")));
    assert!(written
        .iter()
        .any(|p| p.to_string_lossy().contains("/packs/")));
    assert!(
        !written
            .iter()
            .any(|p| p.to_string_lossy().contains(".tmp-")),
        "temporary files are renamed into place: {written:?}"
    );

    // --no-cache writes nothing, under the default directory either.
    let home = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(["check", ".", "--no-cache"])
        .current_dir(root)
        .env("XDG_CACHE_HOME", home.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(walk(home.path()).is_empty());
    // Without it, the default directory is $XDG_CACHE_HOME/wirelint.
    std::process::Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(["check", "."])
        .current_dir(root)
        .env("XDG_CACHE_HOME", home.path())
        .output()
        .unwrap();
    assert!(walk(home.path())
        .iter()
        .all(|p| p.starts_with(home.path().join("wirelint"))));
    assert!(!walk(home.path()).is_empty());
}

/// Facts of a parse that gave up (its budget may be of time, so of the
/// machine's load) are never stored: a warm run parses such a file again,
/// and reports what an uncached run does.
#[test]
fn facts_of_a_parse_that_gave_up_are_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("junk.lua"),
        format!(
            "redis.call('GET', 'emq:{{q}}:jobz')\n{}\n",
            "a + ".repeat(50_000)
        ),
    )
    .unwrap();
    std::fs::write(root.join("ok.lua"), "redis.call('GET', 'emq:{q}:jobs')\n").unwrap();
    settle(root);
    let cache = tempfile::tempdir().unwrap();
    let want = uncached(root);
    assert!(want.1.contains("\"WL001\""), "{}", want.1);
    let (code, out, cold) = check(root, cache.path());
    assert_eq!((code, out), want, "cold");
    assert_eq!(count(&cold, "parsed"), 2, "{cold}");
    let (code, out, warm) = check(root, cache.path());
    assert_eq!((code, out), want, "warm");
    assert_eq!(
        (count(&warm, "parsed"), count(&warm, "from the cache")),
        (1, 1),
        "{warm}"
    );
}

/// A `--cache-dir` inside the tree under review, where a change could plant
/// entries that hide a finding (a facts entry copied to the content hash
/// of a hostile file), is refused: exit 2 before anything is read or
/// written, named as given, or through a link; from a subfolder too (the
/// run reads the project above it). A directory outside is used.
#[test]
fn a_cache_dir_inside_the_scanned_tree_is_refused() {
    let dir = variant("prefix-changed");
    let root = std::fs::canonicalize(dir.path()).unwrap();
    git(&root, &["init", "-q"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "base"]);
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("peers"), outside.path().join("into")).unwrap();
    let into = outside.path().join("into/cache");
    let abs = root.join("peers/.cache");
    for (given, from) in [
        (".wirelint-cache", "."),
        (abs.to_str().unwrap(), "peers"),
        (into.to_str().unwrap(), "."),
    ] {
        let (code, out, err) = run(&["check", from, "--cache-dir", given], &root);
        assert_eq!((code, out.as_str()), (2, ""), "{given}: {err}");
        assert_eq!(
            err,
            format!("error: --cache-dir {given} lies inside the tree under review ({}): a change under review could plant entries there that hide findings; name a directory outside it, or pass --no-cache\n", root.display())
        );
        let (code, out, _) = run(
            &["check", from, "--cache-dir", given, "--format", "json"],
            &root,
        );
        assert_eq!(code, 2);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["error"]["kind"], "usage");
        let (code, _, err) = run(&["diff", "--against", "HEAD", "--cache-dir", given], &root);
        assert_eq!(code, 2);
        assert!(
            err.starts_with(&format!("error: --cache-dir {given} lies inside")),
            "{err}"
        );
    }
    assert!(!root.join(".wirelint-cache").exists());
    assert!(!abs.exists() && !into.exists());
    let cache = outside.path().join("cache");
    let (code, _, err) = run(
        &["check", ".", "--cache-dir", cache.to_str().unwrap()],
        &root,
    );
    assert_eq!(code, 1, "{err}");
    assert!(cache.is_dir());
}
