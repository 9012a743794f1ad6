//! `check --watch`: a terminal loop. The check runs, then again each time
//! a file it may read changes under the run's root (a source file of a
//! language wirelint reads, a `.toml`, an ignore file), until interrupted.
//!
//! The file system's own notifications (`notify`: inotify, FSEvents,
//! ReadDirectoryChangesW) say what changed, so an idle loop reads nothing.
//! A directory is watched through its own path only: a symbolic link in
//! the tree (or in a directory moved into it) is never followed, so no
//! watch lies outside the root.
//!
//! Bounded by time: the notifications collapse into one pending flag (a
//! channel of one), and the loop looks at it every [`SETTLE`]. A run
//! starts once the tree was quiet that long, or, under a steady flood of
//! changes, [`SETTLE_MAX`] after the first change it answers; and never
//! sooner than [`REST`] after the run before it ended, or than that run
//! took if longer. However the changes come, the check runs at most once
//! per two seconds, and the loop rests at least as long as it checks
//! (half a core at most, a wake-up per [`SETTLE`] between runs). Nothing
//! is written under the root: `--fix`, `--diff` and `--write-baseline` do
//! not combine with `--watch`.

use std::io::Write;
use std::path::{Component, Path};
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, TryRecvError};
use notify::event::{EventKind, MetadataKind, ModifyKind};
use notify::{Event, RecursiveMode, Watcher};

use super::failure::{guarded, ErrorDoc};
use super::{check, check_options, CheckArgs};
use crate::report::error::RunError;

/// How long the tree must stay quiet after a change before the check runs
/// again; the loop looks for changes this often while it waits.
const SETTLE: Duration = Duration::from_millis(150);
/// The longest wait for quiet after the first change a run answers:
/// under a steady flood of changes, the check runs once per this long.
const SETTLE_MAX: Duration = Duration::from_secs(2);
/// The least time between the end of a run and the start of the next
/// (or the time the run took, if longer).
const REST: Duration = Duration::from_secs(2);

/// Runs the check, then again on every change under its root. Returns
/// only when the watch cannot start or the notifications end.
pub fn run(a: &CheckArgs) -> Result<i32, RunError> {
    let (opts, ..) = check_options(a, None)?;
    let root = opts.root.clone();
    let cache = opts.cache_dir.clone();
    let (tx, rx) = bounded::<()>(1);
    let base = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    let cache = cache.map(|c| std::fs::canonicalize(&c).unwrap_or(c));
    let handler = move |res: notify::Result<Event>| {
        if let Ok(ev) = res {
            // A queue that overflowed lost changes: check again.
            if ev.need_rescan()
                || ev
                    .paths
                    .iter()
                    .any(|p| relevant(&ev.kind, p, &base, cache.as_deref()))
            {
                // A full channel already says "changed".
                let _ = tx.try_send(());
            }
        }
    };
    // Symbolic links are not followed: a recursive watch stays in the root.
    let config = notify::Config::default().with_follow_symlinks(false);
    let mut watcher = notify::RecommendedWatcher::new(handler, config)
        .map_err(|e| RunError::usage(format!("--watch: cannot watch {}: {e}", root.display())))?;
    watcher
        .watch(&root, RecursiveMode::Recursive)
        .map_err(|e| RunError::usage(format!("--watch: cannot watch {}: {e}", root.display())))?;
    // The root as the reports' paths start: `.`, or `..` from a subfolder.
    let shown = crate::source::under(&crate::scope::report_prefix(&root, false), ".");
    let doc = ErrorDoc::from(a.format);
    loop {
        let started = Instant::now();
        guarded(doc, || check(a));
        let not_before = Instant::now() + REST.max(started.elapsed());
        if !a.report.quiet {
            let _ = writeln!(
                std::io::stderr().lock(),
                "wirelint: watching {shown} for changes (Ctrl-C to stop)"
            );
        }
        if rx.recv().is_err() || !settle(&rx, not_before) {
            return Ok(2);
        }
    }
}

/// After a change: waits until the next run may start, that is from
/// `not_before` on, once no change came for [`SETTLE`] or [`SETTLE_MAX`]
/// after the change; false when the notifications ended. It wakes once
/// per [`SETTLE`], however many changes come.
fn settle(rx: &Receiver<()>, not_before: Instant) -> bool {
    let first = Instant::now();
    loop {
        std::thread::sleep(SETTLE);
        let changed = match rx.try_recv() {
            Ok(()) => true,
            Err(TryRecvError::Empty) => false,
            Err(TryRecvError::Disconnected) => return false,
        };
        let now = Instant::now();
        if now >= not_before && (!changed || now >= first + SETTLE_MAX) {
            return true;
        }
    }
}

/// Whether a notification about `path` may change what the check finds:
/// a change of content, name or presence (not a read, nor a file's access
/// time) of a file the run may read, under `root` and outside hidden
/// directories (`.git`) and the facts cache.
fn relevant(kind: &EventKind, path: &Path, root: &Path, cache: Option<&Path>) -> bool {
    let changes = match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(_) | EventKind::Other => false,
    };
    if !changes || cache.is_some_and(|c| path.starts_with(c)) {
        return false;
    }
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    let parts: Vec<Component> = rel.components().collect();
    let Some((file, dirs)) = parts.split_last() else {
        return false;
    };
    let hidden = |c: &Component| c.as_os_str().to_string_lossy().starts_with('.');
    if dirs.iter().any(hidden) {
        return false;
    }
    let name = file.as_os_str().to_string_lossy();
    crate::facts::Lang::from_path(path).is_some()
        || name.ends_with(".toml")
        || name == ".gitignore"
        || name == ".ignore"
        // A directory moved or removed takes its files with it.
        || (!name.contains('.') && matches!(kind, EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, CreateKind, DataChange, RemoveKind};
    use std::path::PathBuf;

    #[test]
    fn only_changes_of_files_a_run_may_read_count() {
        let root = PathBuf::from("/r");
        let at = |p: &str| root.join(p);
        let data = EventKind::Modify(ModifyKind::Data(DataChange::Any));
        let seen = |k: &EventKind, p: &str| relevant(k, &at(p), &root, Some(&at("cache")));
        assert!(seen(&data, "lib/q.ex"));
        assert!(seen(&data, "wirelint.toml"));
        assert!(seen(&data, ".gitignore"));
        assert!(seen(&EventKind::Create(CreateKind::File), "scripts/a.lua"));
        assert!(seen(&EventKind::Remove(RemoveKind::Folder), "lib"));
        // A read of a file (the check's own), a file no run reads, a
        // hidden directory, the cache, a path outside the root.
        assert!(!seen(&EventKind::Access(AccessKind::Any), "lib/q.ex"));
        assert!(!seen(
            &EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)),
            "lib/q.ex"
        ));
        assert!(!seen(&data, "notes.txt"));
        assert!(!seen(&data, ".git/index"));
        assert!(!seen(&data, ".git/hooks/x.rs"));
        assert!(!seen(&data, "cache/abc.toml"));
        assert!(!relevant(&data, Path::new("/elsewhere/q.ex"), &root, None));
    }
}
