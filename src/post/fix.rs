//! `check --fix` and `--diff`: the findings' edits applied to the bytes
//! the run read, then written back or shown as a unified diff.
//!
//! This is the one place wirelint writes to the scanned code, and only
//! when asked. A file is written only when it lies under the scanned root,
//! is reached from the root through no symbolic link, is a regular file,
//! and still holds the bytes the run read; it is written whole to a
//! temporary file in its own directory, then renamed over the old one.
//!
//! Which edits: the safe fixes of the reported findings (`--unsafe-fixes`:
//! the suggestions too), each fix whole or not at all; a fix that overlaps
//! one taken before it (in output order) waits for the next run, and the
//! same edit asked for twice (two unused codes of one suppression) is made
//! once.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path};

use crate::diagnostic::{Applicability, Edit};
use crate::facts::FileId;
use crate::pipeline::Analysis;

/// The edits of one run, by file.
#[derive(Debug, Default)]
pub struct Plan {
    /// Per file: its path relative to the root, its bytes as read, and the
    /// bytes after the edits.
    pub files: BTreeMap<FileId, Planned>,
    /// Findings whose fix is taken.
    pub fixed: usize,
    /// Findings with a suggestion left out (no `--unsafe-fixes`).
    pub unsafe_left: usize,
}

#[derive(Debug)]
pub struct Planned {
    pub rel: String,
    pub old: Vec<u8>,
    pub new: Vec<u8>,
}

/// The edits the reported findings carry, each fix whole or not at all.
pub fn plan(a: &Analysis, unsafe_fixes: bool) -> Plan {
    let mut out = Plan::default();
    let mut taken: BTreeMap<FileId, Vec<&Edit>> = BTreeMap::new();
    for d in &a.diagnostics {
        let Some(fix) = &d.fix else {
            continue;
        };
        if fix.applicability == Applicability::Unsafe && !unsafe_fixes {
            out.unsafe_left += 1;
            continue;
        }
        let writable = fix.edits.iter().all(|e| {
            let f = a.sources.get(e.span.file);
            Some(e.span.file) != a.contract_file && relative(&f.rel)
        });
        let clashes = fix.edits.iter().any(|e| {
            taken
                .get(&e.span.file)
                .is_some_and(|t| t.iter().any(|o| *o != e && overlap(o, e)))
        });
        if !writable || clashes || fix.edits.is_empty() {
            continue;
        }
        for e in &fix.edits {
            let list = taken.entry(e.span.file).or_default();
            if !list.contains(&e) {
                list.push(e);
            }
        }
        out.fixed += 1;
    }
    for (file, mut edits) in taken {
        let f = a.sources.get(file);
        let old = f.bytes().to_vec();
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        let mut new = Vec::with_capacity(old.len());
        let mut at = 0usize;
        for e in edits {
            let (s, end) = (e.span.start as usize, e.span.end as usize);
            if s < at || end > old.len() {
                continue;
            }
            new.extend_from_slice(&old[at..s]);
            new.extend_from_slice(e.text.as_bytes());
            at = end;
        }
        new.extend_from_slice(&old[at..]);
        if new != old {
            let rel = f.rel.clone();
            out.files.insert(file, Planned { rel, old, new });
        }
    }
    out
}

/// Whether two edits of one file touch the same bytes, or insert at the
/// same place (their order would be a guess).
fn overlap(x: &Edit, y: &Edit) -> bool {
    let (a, b) = (&x.span, &y.span);
    (a.start < b.end && b.start < a.end) || (a.start == b.start && (a.is_empty() || b.is_empty()))
}

/// Whether a path of the file table names a file under the root by name
/// alone: relative, with no `..`.
fn relative(rel: &str) -> bool {
    let p = Path::new(rel);
    !rel.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)))
}

/// The plan as a unified diff, `a/` and `b/` before the paths as shown
/// (`show`), files in path order.
pub fn unified_diff(plan: &Plan, show: impl Fn(&str) -> String) -> String {
    let mut files: Vec<&Planned> = plan.files.values().collect();
    files.sort_by(|x, y| x.rel.cmp(&y.rel));
    let mut out = String::new();
    for f in files {
        let (old, new) = (
            String::from_utf8_lossy(&f.old),
            String::from_utf8_lossy(&f.new),
        );
        let path = show(&f.rel);
        let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{path}"), &format!("b/{path}"))
                .to_string(),
        );
    }
    out
}

/// `--diff`: the diff for stdout, and the line for stderr.
pub fn diff(plan: &Plan, show: impl Fn(&str) -> String) -> (String, String) {
    let (n, files) = (plan.fixed, plan.files.len());
    let line = format!(
        "wirelint: {n} fix{} in {files} file{}, not written (--diff){}\n",
        if n == 1 { "" } else { "es" },
        plural(files),
        more(plan)
    );
    (unified_diff(plan, show), line)
}

/// `--fix`: writes the plan under `root`; what to say on stderr (each
/// file refused and why, then what was fixed), and whether every file
/// was written.
pub fn apply(plan: &Plan, root: &Path, show: impl Fn(&str) -> String) -> (String, bool) {
    let (done, refused) = write(plan, root);
    let mut said = String::new();
    for (rel, why) in &refused {
        said.push_str(&format!("wirelint: {} not fixed: {why}\n", show(rel)));
    }
    let n = plan.fixed;
    said.push_str(&format!(
        "wirelint: fixed {n} finding{} in {} file{}{}\n",
        plural(n),
        done.len(),
        plural(done.len()),
        more(plan)
    ));
    (said, refused.is_empty())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// "; 2 more with --unsafe-fixes", or nothing.
fn more(plan: &Plan) -> String {
    match plan.unsafe_left {
        0 => String::new(),
        n => format!("; {n} more with --unsafe-fixes"),
    }
}

/// Writes every planned file under `root`; the paths written, and for
/// each file refused, its path and why.
pub fn write(plan: &Plan, root: &Path) -> (Vec<String>, Vec<(String, String)>) {
    let (mut done, mut refused) = (Vec::new(), Vec::new());
    for f in plan.files.values() {
        match write_one(root, f) {
            Ok(()) => done.push(f.rel.clone()),
            Err(why) => refused.push((f.rel.clone(), why)),
        }
    }
    (done, refused)
}

fn write_one(root: &Path, f: &Planned) -> Result<(), String> {
    if !relative(&f.rel) {
        return Err("not under the checked root".into());
    }
    // Every component from the root down: no link, the last a file.
    let mut path = root.to_path_buf();
    let parts: Vec<&str> = f.rel.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        let meta = std::fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
        if meta.file_type().is_symlink() {
            return Err("reached through a symbolic link".into());
        }
        if i + 1 == parts.len() && !meta.is_file() {
            return Err("not a regular file".into());
        }
    }
    let real_root = std::fs::canonicalize(root).map_err(|e| e.to_string())?;
    let real = std::fs::canonicalize(&path).map_err(|e| e.to_string())?;
    if !real.starts_with(&real_root) {
        return Err("not under the checked root".into());
    }
    let now = std::fs::read(&real).map_err(|e| e.to_string())?;
    if now != f.old {
        return Err("changed since it was read".into());
    }
    let dir = real.parent().ok_or("no directory")?;
    let perms = std::fs::metadata(&real)
        .map_err(|e| e.to_string())?
        .permissions();
    let mut tmp = tempfile::Builder::new()
        .prefix(".wirelint-fix-")
        .tempfile_in(dir)
        .map_err(|e| e.to_string())?;
    tmp.write_all(&f.new).map_err(|e| e.to_string())?;
    tmp.as_file().sync_all().map_err(|e| e.to_string())?;
    std::fs::set_permissions(tmp.path(), perms).map_err(|e| e.to_string())?;
    tmp.persist(&real).map_err(|e| e.error.to_string())?;
    Ok(())
}
