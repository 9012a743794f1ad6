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
//! once. A file whose fixed bytes its own parser reads with more syntax
//! errors (the host's and its scripts') than the bytes read is neither
//! written nor shown, and said so. A finding counts as fixed when its
//! edits change bytes and every file they change is written.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path};

use crate::diagnostic::{Applicability, Edit};
use crate::facts::{FileId, Lang, ScriptSource};
use crate::pipeline::Analysis;

/// The edits of one run, by file.
#[derive(Debug, Default)]
pub struct Plan {
    /// Per file: its path relative to the root, its bytes as read, and the
    /// bytes after the edits.
    pub files: BTreeMap<FileId, Planned>,
    /// Findings whose fix is taken and changes bytes: the files each one
    /// edits. It is fixed when all of them are written.
    pub findings: Vec<Vec<FileId>>,
    /// Findings with a suggestion left out (no `--unsafe-fixes`).
    pub unsafe_left: usize,
    /// Files whose fixed bytes are not written, and why (a re-parse finds
    /// a syntax error the file did not have).
    pub refused: Vec<(String, String)>,
}

#[derive(Debug)]
pub struct Planned {
    pub rel: String,
    pub old: Vec<u8>,
    pub new: Vec<u8>,
}

impl Plan {
    /// Findings whose every file is among `files`.
    fn fixed_in(&self, files: &[FileId]) -> usize {
        self.findings
            .iter()
            .filter(|f| f.iter().all(|x| files.contains(x)))
            .count()
    }

    /// Findings the planned files fix.
    pub fn fixed(&self) -> usize {
        let files: Vec<FileId> = self.files.keys().copied().collect();
        self.fixed_in(&files)
    }
}

/// The edits the reported findings carry, each fix whole or not at all;
/// a file whose fixed bytes parse with more syntax errors than it had is
/// left out, with its findings.
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
        // Only edits that change bytes fix anything.
        let mut files: Vec<FileId> = fix
            .edits
            .iter()
            .filter(|e| changes(a.sources.get(e.span.file).bytes(), e))
            .map(|e| e.span.file)
            .collect();
        files.sort_unstable();
        files.dedup();
        if !files.is_empty() {
            out.findings.push(files);
        }
    }
    for (file, edits) in taken {
        let f = a.sources.get(file);
        let old = f.bytes().to_vec();
        let new = edited(&old, edits);
        if new == old {
            continue;
        }
        if let Err(why) = parses_as_well(f.lang, &old, &new) {
            out.refused.push((f.rel.clone(), why));
            continue;
        }
        let rel = f.rel.clone();
        out.files.insert(file, Planned { rel, old, new });
    }
    out
}

/// Whether an edit puts other bytes than are there.
fn changes(bytes: &[u8], e: &Edit) -> bool {
    bytes.get(e.span.start as usize..e.span.end as usize) != Some(e.text.as_bytes())
}

/// `old` with the edits made, in order; an edit that overlaps one before
/// it or runs past the end is left out.
fn edited(old: &[u8], mut edits: Vec<&Edit>) -> Vec<u8> {
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
    new
}

/// Whether the fixed bytes of a file parse with no more syntax errors
/// (the host's and those of the Lua scripts in it) than the bytes read,
/// by the file's own parser; else why not.
pub fn parses_as_well(lang: Option<Lang>, old: &[u8], new: &[u8]) -> Result<(), String> {
    let lang = lang.ok_or("no parser reads it")?;
    let mut parsers = crate::parse::Parsers::new()?;
    let mut errors = |bytes: &[u8]| {
        let facts = crate::extract::extract_file(&mut parsers, lang, 0, bytes, "");
        let lua: usize = facts
            .scripts
            .iter()
            .map(|s| match &s.source {
                ScriptSource::Inline(l) => l.errors.len() + usize::from(l.unchecked.is_some()),
                ScriptSource::File { .. } => 0,
            })
            .sum();
        facts.errors.len() + usize::from(facts.unchecked.is_some()) + lua
    };
    let (before, after) = (errors(old), errors(new));
    if after > before {
        return Err(format!(
            "the fixed file would not parse as it did ({after} syntax error{} where it had {before})",
            plural(after)
        ));
    }
    Ok(())
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
    let (n, files) = (plan.fixed(), plan.files.len());
    let mut line = refusals(plan, &show);
    line.push_str(&format!(
        "wirelint: {n} fix{} in {files} file{}, not written (--diff){}\n",
        if n == 1 { "" } else { "es" },
        plural(files),
        more(plan)
    ));
    (unified_diff(plan, show), line)
}

/// `--fix`: writes the plan under `root`; what to say on stderr (each
/// file refused and why, then what was fixed), and whether every file
/// was written.
pub fn apply(plan: &Plan, root: &Path, show: impl Fn(&str) -> String) -> (String, bool) {
    let (done, refused) = write(plan, root);
    let mut said = refusals(plan, &show);
    for (rel, why) in &refused {
        said.push_str(&format!("wirelint: {} not fixed: {why}\n", show(rel)));
    }
    let written: Vec<FileId> = plan
        .files
        .iter()
        .filter(|(_, f)| done.contains(&f.rel))
        .map(|(id, _)| *id)
        .collect();
    let n = plan.fixed_in(&written);
    said.push_str(&format!(
        "wirelint: fixed {n} finding{} in {} file{}{}\n",
        plural(n),
        done.len(),
        plural(done.len()),
        more(plan)
    ));
    (said, refused.is_empty() && plan.refused.is_empty())
}

/// The files the plan leaves out, and why, a line each.
fn refusals(plan: &Plan, show: &impl Fn(&str) -> String) -> String {
    plan.refused
        .iter()
        .map(|(rel, why)| format!("wirelint: {} not fixed: {why}\n", show(rel)))
        .collect()
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
    // Once more just before the rename: a write to the file since the
    // first look (an append while the new bytes went out) is not lost.
    if std::fs::read(&real).map_err(|e| e.to_string())? != f.old {
        return Err("changed since it was read".into());
    }
    tmp.persist(&real).map_err(|e| e.error.to_string())?;
    Ok(())
}
