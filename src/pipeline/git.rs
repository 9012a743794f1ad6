//! A git revision as a tree held in memory (`wirelint diff --against REF`):
//! read straight from git's object database (`git ls-tree -r -z`, then one
//! `git cat-file --batch`), so the work tree, the index and the scanned root
//! are never written. Its files go through [`super::files`] as a [`Tree`].

use std::ffi::OsString;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::discover::PROJECT_FILES;
use crate::facts::Lang;

use super::files::Tree;

/// A git revision read into memory.
pub struct Revision {
    /// REF as given.
    pub name: String,
    /// The commit it names.
    pub commit: String,
    /// Files relative to the scanned root, sorted, with their bytes: source
    /// files and the project files (`mix.exs`, `Cargo.toml`).
    pub tree: Tree,
}

fn git(root: &Path, args: &[OsString]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .arg("--literal-pathspecs")
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.trim().to_string());
    }
    Ok(out.stdout)
}

fn wanted(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    PROJECT_FILES.contains(&base) || Lang::from_path(Path::new(name)).is_some()
}

/// Reads the files under `paths` at revision `rev` from git, without
/// touching the work tree or the index. `root` is the scanned root (inside
/// the repository); `paths` are as given on the command line.
pub fn read_revision(root: &Path, paths: &[PathBuf], rev: &str) -> Result<Revision, String> {
    let prefix = git(root, &["rev-parse".into(), "--show-prefix".into()])
        .map_err(|e| format!("{} is not inside a git work tree: {e}", root.display()))?;
    let prefix = String::from_utf8_lossy(&prefix).trim_end().to_string();
    if rev.starts_with('-') || rev.is_empty() {
        return Err(format!("`{rev}` is not a git revision"));
    }
    let commit = git(
        root,
        &[
            "rev-parse".into(),
            "--verify".into(),
            "--quiet".into(),
            format!("{rev}^{{commit}}").into(),
        ],
    )
    .map_err(|_| format!("`{rev}` does not name a commit in this repository"))?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let mut args: Vec<OsString> = vec![
        "ls-tree".into(),
        "-r".into(),
        "-z".into(),
        "--full-name".into(),
        commit.clone().into(),
        "--".into(),
    ];
    for p in paths {
        let spec = if p == root {
            PathBuf::from(".")
        } else if root == Path::new(".") || p.is_absolute() {
            p.clone()
        } else {
            p.strip_prefix(root)
                .map(Path::to_path_buf)
                .unwrap_or(p.clone())
        };
        args.push(spec.into_os_string());
    }
    let listing = git(root, &args)?;
    // `<mode> SP <type> SP <object> TAB <path>` NUL
    let mut entries: Vec<(String, String)> = Vec::new();
    for rec in listing.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rec = String::from_utf8_lossy(rec);
        let Some((meta, name)) = rec.split_once('\t') else {
            continue;
        };
        let mut parts = meta.split(' ');
        let (Some(mode), Some(kind), Some(oid)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        // Regular files only: discovery never follows symbolic links, and
        // submodules are other repositories.
        if kind != "blob" || !(mode == "100644" || mode == "100755") {
            continue;
        }
        let Some(rel) = name.strip_prefix(&prefix) else {
            continue;
        };
        if wanted(rel) {
            entries.push((rel.to_string(), oid.to_string()));
        }
    }
    entries.sort();
    entries.dedup();
    let blobs = cat_blobs(root, entries.iter().map(|(_, o)| o.as_str()))?;
    let tree = entries.into_iter().map(|(r, _)| r).zip(blobs).collect();
    Ok(Revision {
        name: rev.to_string(),
        commit,
        tree,
    })
}

/// The bytes of each blob, in order, through one `git cat-file --batch`.
fn cat_blobs<'a>(root: &Path, oids: impl Iterator<Item = &'a str>) -> Result<Vec<Vec<u8>>, String> {
    let input: String = oids.map(|o| format!("{o}\n")).collect();
    if input.is_empty() {
        return Ok(Vec::new());
    }
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["cat-file", "--batch"])
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("git cat-file has no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .ok_or("git cat-file has no stdout")?
        .read_to_end(&mut out)
        .map_err(|e| format!("cannot read from git cat-file: {e}"))?;
    let status = child
        .wait()
        .map_err(|e| format!("git cat-file failed: {e}"))?;
    let _ = writer.join();
    if !status.success() {
        return Err("git cat-file failed".into());
    }
    // `<oid> SP blob SP <size> LF <bytes> LF`
    let mut blobs = Vec::new();
    let mut at = 0usize;
    while at < out.len() {
        let nl = memchr::memchr(b'\n', &out[at..]).ok_or("git cat-file: a truncated header")?;
        let header = String::from_utf8_lossy(&out[at..at + nl]).to_string();
        at += nl + 1;
        let mut parts = header.split(' ');
        let (_, kind, size) = (parts.next(), parts.next(), parts.next());
        if kind != Some("blob") {
            return Err(format!("git cat-file: unexpected `{header}`"));
        }
        let size: usize = size
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("git cat-file: bad header `{header}`"))?;
        if at + size > out.len() {
            return Err("git cat-file: truncated output".into());
        }
        blobs.push(out[at..at + size].to_vec());
        at += size + 1;
    }
    Ok(blobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wanted_files() {
        assert!(wanted("a/mix.exs"));
        assert!(wanted("Cargo.toml"));
        assert!(wanted("x/y.lua"));
        assert!(!wanted("README.md"));
    }
}
