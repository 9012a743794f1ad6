//! Keeping the facts cache bounded on disk. Facts are stored per content,
//! so every edit of a file adds an entry, and every build of wirelint has
//! a directory of its own: left alone, the cache only grows. At most once
//! a day per build (the run that finds the `pruned` stamp a day old or
//! missing claims the day by writing it, then prunes), a run removes:
//!
//! - the packs of facts no index of its build names, not written for
//!   [`MAX_AGE`] (a pack stays whole while an index names any entry of
//!   it);
//! - the stored values (`load_value`) not written for [`MAX_AGE`];
//! - temporary files left by a run killed while writing, an hour old;
//! - the index entries of files gone from the scanned root (`Cache::save`
//!   drops them when this module says it pruned);
//! - the directories of other builds not written to for [`MAX_AGE`] (a
//!   build in use rewrites its stamp daily), and only directories named
//!   and laid out as a build's: a cache directory given with
//!   `--cache-dir` may hold other things, which are never touched.
//!
//! A run that loses an entry to a concurrent prune finds a miss and
//! parses again; a run writing an entry writes it new, which no prune
//! removes. Pruning changes timing, never output.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::{pack, read_entry, Index};

/// How long an entry no run wrote since is kept.
pub(super) const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);

/// How often a build's directory is pruned, at most.
const EVERY: Duration = Duration::from_secs(24 * 3600);

/// How old a temporary file is before it is taken as left behind.
const TMP_AGE: Duration = Duration::from_secs(3600);

/// The stamp of the last prune, in a build's directory.
pub(super) const STAMP: &str = "pruned";

/// Prunes the cache under `base` (this build's directory `dir`) unless
/// it was pruned less than a day before `now`; whether it did (the run
/// then also drops the index entries of files gone: `Cache::save`).
pub(super) fn maybe(base: &Path, dir: &Path, now: SystemTime) -> bool {
    let stamp = dir.join(STAMP);
    if modified(&stamp).is_some_and(|t| older(now, t) < EVERY) {
        return false;
    }
    if std::fs::write(&stamp, b"").is_err() {
        return false;
    }
    prune(base, dir, now);
    true
}

/// Removes what the module docs list.
pub(super) fn prune(base: &Path, dir: &Path, now: SystemTime) {
    let named = named_packs(dir);
    let stale = |p: &Path, age: Duration| modified(p).is_some_and(|t| older(now, t) >= age);
    let remove_tmp = |p: &Path| {
        if stale(p, TMP_AGE) {
            let _ = std::fs::remove_file(p);
        }
    };
    for (f, name) in entries(&pack::dir(dir)) {
        if name.starts_with(".tmp-") {
            remove_tmp(&f);
            continue;
        }
        let unnamed = pack::id_of(&name).is_some_and(|id| !named.contains(&id));
        if unnamed && stale(&f, MAX_AGE) {
            let _ = std::fs::remove_file(&f);
        }
    }
    for (f, name) in entries(&dir.join("values")) {
        if name.starts_with(".tmp-") {
            remove_tmp(&f);
        } else if stale(&f, MAX_AGE) {
            let _ = std::fs::remove_file(&f);
        }
    }
    for (f, name) in entries(dir) {
        if name.starts_with(".tmp-") {
            remove_tmp(&f);
        }
    }
    for (d, name) in entries(base) {
        if d != dir
            && is_build_dir(&d, &name)
            && newest(&d).is_some_and(|t| older(now, t) >= MAX_AGE)
        {
            let _ = std::fs::remove_dir_all(&d);
        }
    }
}

/// The packs the indexes of a build's directory name.
fn named_packs(dir: &Path) -> HashSet<u64> {
    let mut named = HashSet::new();
    for (f, name) in entries(dir) {
        if !name.starts_with("index-") {
            continue;
        }
        let Some(index) = read_entry(&f).and_then(|b| postcard::from_bytes::<Index>(&b).ok())
        else {
            continue;
        };
        named.extend(
            index
                .entries
                .iter()
                .filter_map(|(_, e)| e.facts)
                .map(|l| l.pack),
        );
    }
    named
}

/// Whether `d` is a build's directory: named `<version>-<16 hex digits>`
/// (`build.rs`), a real directory (not a link), holding `packs`.
fn is_build_dir(d: &Path, name: &str) -> bool {
    let Some((version, id)) = name.rsplit_once('-') else {
        return false;
    };
    let named = !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && id.len() == 16
        && id.bytes().all(|b| b.is_ascii_hexdigit());
    let real = std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir());
    named && real && pack::dir(d).is_dir()
}

/// When anything in a build's directory was last written: the directory,
/// its stamp, its indexes (rewritten by each run that changes one).
fn newest(d: &Path) -> Option<SystemTime> {
    std::iter::once(d.to_path_buf())
        .chain(entries(d).into_iter().map(|(p, _)| p))
        .filter_map(|p| modified(&p))
        .max()
}

/// The entries of a directory, with their names (none when it cannot be
/// read).
fn entries(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.flatten()
        .map(|e| (e.path(), e.file_name().to_string_lossy().into_owned()))
        .collect()
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::symlink_metadata(p).ok()?.modified().ok()
}

/// How long before `now` `t` was (zero for a time in the future).
fn older(now: SystemTime, t: SystemTime) -> Duration {
    now.duration_since(t).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{FileFacts, Lang};
    use crate::pipeline::cache::{Cache, FactsKey, Stamp};
    use crate::pipeline::prefilter::Marks;

    const DAY: Duration = Duration::from_secs(24 * 3600);

    fn age(p: &Path, by: Duration) {
        let t = SystemTime::now() - by;
        std::fs::File::open(p).unwrap().set_modified(t).unwrap();
    }

    /// The pack a run stored `h`'s facts in (recording them for
    /// `rel` when given), after its save.
    fn stored(base: &Path, root: &Path, h: [u8; 20], rel: Option<&str>) -> std::path::PathBuf {
        let cache = Cache::open(base, root, "fp").unwrap();
        let before: HashSet<_> = entries(&pack::dir(&cache.dir)).into_iter().collect();
        let key = FactsKey::new(&h, Lang::Rust, "keys");
        cache.store_facts(&key, &FileFacts::default());
        let marks = Marks {
            speaks: true,
            scoped: false,
            keys: true,
            suppress: false,
        };
        if let Some(rel) = rel {
            cache.record(rel, Stamp { size: 1, mtime: 1 }, marks, Some(h), Some(&key));
        }
        let dir = cache.dir.clone();
        cache.save();
        let mut new: Vec<_> = entries(&pack::dir(&dir))
            .into_iter()
            .filter(|e| !before.contains(e))
            .collect();
        assert_eq!(new.len(), 1, "{new:?}");
        new.remove(0).0
    }

    /// A pack the index names stays, however old; the others go once a
    /// month old; recent ones stay.
    #[test]
    fn old_packs_no_index_names_are_removed() {
        let base = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        // The index names a file of the root (a gone one's entry goes).
        std::fs::create_dir_all(root.path().join("src")).unwrap();
        std::fs::write(root.path().join("src/keys.rs"), b"fn k() {}").unwrap();
        let named = stored(base.path(), root.path(), [1; 20], Some("src/keys.rs"));
        let dropped = stored(base.path(), root.path(), [2; 20], None);
        let fresh = stored(base.path(), root.path(), [3; 20], None);
        age(&named, 40 * DAY);
        age(&dropped, 40 * DAY);
        age(&fresh, 29 * DAY);

        let dir = Cache::open(base.path(), root.path(), "fp").unwrap().dir;
        prune(base.path(), &dir, SystemTime::now());
        assert!(named.exists(), "named by the index");
        assert!(!dropped.exists(), "old and named by no index");
        assert!(fresh.exists(), "not a month old");
    }

    /// Another build's directory goes once nothing in it was written for
    /// a month; a recent one stays, and so does anything not laid out as
    /// a build's directory, however old.
    #[test]
    fn only_old_directories_of_other_builds_are_removed() {
        let base = tempfile::tempdir().unwrap();
        let mine = base.path().join("0.1.0-00000000000000aa");
        let mk = |name: &str, facts: bool, by: Duration| {
            let d = base.path().join(name);
            std::fs::create_dir_all(if facts { pack::dir(&d) } else { d.clone() }).unwrap();
            std::fs::write(d.join("index-x"), b"x").unwrap();
            age(&d.join("index-x"), by);
            if facts {
                age(&pack::dir(&d), by);
            }
            age(&d, by);
            d
        };
        std::fs::create_dir_all(pack::dir(&mine)).unwrap();
        let old = mk("0.0.9-0123456789abcdef", true, 40 * DAY);
        let recent = mk("0.0.8-0123456789abcdef", true, 10 * DAY);
        let not_ours = mk("photos", true, 400 * DAY);
        let no_facts = mk("0.0.7-0123456789abcdef", false, 400 * DAY);
        let odd_name = mk("0.0.6-0123456789abcdeg", true, 400 * DAY);

        prune(base.path(), &mine, SystemTime::now());
        assert!(!old.exists());
        for d in [&mine, &recent, &not_ours, &no_facts, &odd_name] {
            assert!(d.exists(), "{}", d.display());
        }
    }

    /// The index entry of a file gone from the root is dropped by the save
    /// that prunes, not by one within the day.
    #[test]
    fn the_days_save_drops_the_entries_of_files_gone() {
        let base = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        let marks = Marks {
            speaks: false,
            scoped: false,
            keys: false,
            suppress: false,
        };
        let stamp = Stamp { size: 1, mtime: 1 };
        for f in ["a.rs", "b.rs"] {
            std::fs::write(root.path().join(f), b"fn f() {}").unwrap();
        }
        let cache = Cache::open(base.path(), root.path(), "fp").unwrap();
        let dir = cache.dir.clone();
        cache.record("a.rs", stamp, marks, None, None);
        cache.record("b.rs", stamp, marks, None, None);
        cache.save();
        std::fs::remove_file(root.path().join("b.rs")).unwrap();
        let indexed = || {
            let c = Cache::open(base.path(), root.path(), "fp").unwrap();
            let mut rels: Vec<String> = c.old.keys().cloned().collect();
            rels.sort();
            (c, rels)
        };

        // Within the day: kept.
        let (c, rels) = indexed();
        assert_eq!(rels, ["a.rs", "b.rs"]);
        c.save();
        assert_eq!(indexed().1, ["a.rs", "b.rs"]);
        // A day later: dropped.
        age(&dir.join(STAMP), DAY + Duration::from_secs(60));
        indexed().0.save();
        assert_eq!(indexed().1, ["a.rs"]);
    }

    /// Temporary files an hour old go, younger ones stay (a run may be
    /// writing them); and a build is pruned at most once a day.
    #[test]
    fn left_temporary_files_go_and_a_day_passes_between_prunes() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("0.1.0-00000000000000aa");
        let sub = pack::dir(&dir);
        std::fs::create_dir_all(&sub).unwrap();
        let (left, writing) = (sub.join(".tmp-1-a"), sub.join(".tmp-2-b"));
        std::fs::write(&left, b"x").unwrap();
        std::fs::write(&writing, b"x").unwrap();
        age(&left, Duration::from_secs(2 * 3600));

        maybe(base.path(), &dir, SystemTime::now());
        assert!(!left.exists());
        assert!(writing.exists());
        assert!(dir.join(STAMP).exists());

        // Within the day: not pruned again.
        age(&writing, Duration::from_secs(2 * 3600));
        maybe(base.path(), &dir, SystemTime::now());
        assert!(writing.exists(), "pruned twice in a day");
        // A day later it is.
        age(&dir.join(STAMP), DAY + Duration::from_secs(60));
        maybe(base.path(), &dir, SystemTime::now());
        assert!(!writing.exists());
    }
}
