//! A git revision as a tree held in memory (`wirelint diff --against REF`):
//! read straight from git's object database (`git ls-tree -r -z`, then one
//! `git cat-file --batch`), so the work tree, the index and the scanned root
//! are never written. Its files go through [`super::files`] as a [`Tree`].

use std::ffi::OsString;
use std::io::{BufRead as _, Read as _, Write as _};
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

/// A path of git's, relative to the scanned root, as every report shows
/// names (`crate::source::display_name` for each component: no control
/// character, invalid UTF-8 as `\xNN`, as discovery names the same file);
/// `None` for a name no checkout can hold: empty, `.` or `..` components,
/// a leading `/`, or a `.git` directory (a hand-made tree object can name
/// them).
fn tree_name(name: &[u8]) -> Option<String> {
    let mut out = String::new();
    for c in name.split(|&b| b == b'/') {
        if c.is_empty() || c == b"." || c == b".." || c.eq_ignore_ascii_case(b".git") {
            return None;
        }
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(&component(c));
    }
    Some(out)
}

#[cfg(unix)]
fn component(c: &[u8]) -> String {
    crate::source::display_name(std::os::unix::ffi::OsStrExt::from_bytes(c))
}

#[cfg(not(unix))]
fn component(c: &[u8]) -> String {
    crate::source::display_name(std::ffi::OsStr::new(&*String::from_utf8_lossy(c)))
}

/// The commit that `rev` names in the repository holding `root`.
pub fn commit_of(root: &Path, rev: &str) -> Result<String, String> {
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
    Ok(String::from_utf8_lossy(&commit).trim().to_string())
}

/// Reads the files under `paths` at revision `rev` from git, without
/// touching the work tree or the index. `root` is the scanned root (inside
/// the repository); `paths` are as given on the command line. A blob over
/// `max` bytes is kept as its first `max + 1` bytes only (the reader then
/// skips it with a note), never held whole.
pub fn read_revision(
    root: &Path,
    paths: &[PathBuf],
    rev: &str,
    max: u64,
) -> Result<Revision, String> {
    let prefix = git(root, &["rev-parse".into(), "--show-prefix".into()])
        .map_err(|e| format!("{} is not inside a git work tree: {e}", root.display()))?;
    let prefix = prefix.trim_ascii_end().to_vec();
    let commit = commit_of(root, rev)?;
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
        let Some(tab) = rec.iter().position(|&b| b == b'\t') else {
            continue;
        };
        let (meta, name) = (String::from_utf8_lossy(&rec[..tab]), &rec[tab + 1..]);
        let mut parts = meta.split(' ');
        let (Some(mode), Some(kind), Some(oid)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        // Regular files only: discovery never follows symbolic links, and
        // submodules are other repositories.
        if kind != "blob" || !(mode == "100644" || mode == "100755") {
            continue;
        }
        let Some(rel) = name.strip_prefix(prefix.as_slice()).and_then(tree_name) else {
            continue;
        };
        if wanted(&rel) {
            entries.push((rel, oid.to_string()));
        }
    }
    entries.sort();
    entries.dedup();
    let blobs = cat_blobs(root, entries.iter().map(|(_, o)| o.as_str()), max)?;
    let tree = entries.into_iter().map(|(r, _)| r).zip(blobs).collect();
    Ok(Revision {
        name: rev.to_string(),
        commit,
        tree,
    })
}

/// The files under `root` that differ between revision `rev` and the work
/// tree (`git diff --name-only`, staged or not, deleted included), and the
/// untracked files git does not ignore: paths relative to `root`, sorted.
pub fn changed_files(root: &Path, rev: &str) -> Result<Vec<String>, String> {
    let rev = commit_of(root, rev)?;
    let rev = rev.as_str();
    let diff = git(
        root,
        &[
            "diff".into(),
            "--name-only".into(),
            "-z".into(),
            "--relative".into(),
            "--no-renames".into(),
            rev.into(),
            "--".into(),
        ],
    )?;
    let untracked = git(
        root,
        &[
            "ls-files".into(),
            "--others".into(),
            "--exclude-standard".into(),
            "-z".into(),
            "--".into(),
            ".".into(),
        ],
    )?;
    let mut files: Vec<String> = diff
        .split(|b| *b == 0)
        .chain(untracked.split(|b| *b == 0))
        .filter(|r| !r.is_empty())
        .filter_map(tree_name)
        .collect();
    files.sort();
    files.dedup();
    Ok(files)
}

/// The bytes of each blob, in order, through one `git cat-file --batch`,
/// read as a stream: at most `max + 1` bytes of each are kept.
fn cat_blobs<'a>(
    root: &Path,
    oids: impl Iterator<Item = &'a str>,
    max: u64,
) -> Result<Vec<Vec<u8>>, String> {
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
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("git cat-file has no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().ok_or("git cat-file has no stdout")?;
    let blobs = read_batch(std::io::BufReader::new(stdout), max);
    let status = child
        .wait()
        .map_err(|e| format!("git cat-file failed: {e}"))?;
    let _ = writer.join();
    if !status.success() {
        return Err("git cat-file failed".into());
    }
    blobs
}

/// `<oid> SP blob SP <size> LF <bytes> LF`, repeated.
fn read_batch(mut out: impl std::io::BufRead, max: u64) -> Result<Vec<Vec<u8>>, String> {
    let mut blobs = Vec::new();
    let mut header = Vec::new();
    loop {
        header.clear();
        let n = (&mut out)
            .take(4096)
            .read_until(b'\n', &mut header)
            .map_err(|e| format!("cannot read from git cat-file: {e}"))?;
        if n == 0 {
            return Ok(blobs);
        }
        let line = String::from_utf8_lossy(&header).trim_end().to_string();
        let mut parts = line.split(' ');
        let (_, kind, size) = (parts.next(), parts.next(), parts.next());
        if kind != Some("blob") {
            return Err(format!("git cat-file: unexpected `{line}`"));
        }
        let size: u64 = size
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("git cat-file: bad header `{line}`"))?;
        let keep = size.min(max.saturating_add(1));
        let mut blob = Vec::with_capacity(keep.min(64 << 20) as usize);
        let got = (&mut out)
            .take(keep)
            .read_to_end(&mut blob)
            .map_err(|e| format!("cannot read from git cat-file: {e}"))?;
        // The rest of an over-size blob, and the newline after each.
        let rest = size - got as u64 + 1;
        let skipped = std::io::copy(&mut (&mut out).take(rest), &mut std::io::sink())
            .map_err(|e| format!("cannot read from git cat-file: {e}"))?;
        if (got as u64) < keep || skipped < rest {
            return Err("git cat-file: truncated output".into());
        }
        blobs.push(blob);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_keeps_at_most_max_plus_one_bytes_of_a_blob() {
        let batch = b"a blob 3\nabc\nb blob 10\n0123456789\nc blob 0\n\n";
        let blobs = read_batch(&batch[..], 4).unwrap();
        assert_eq!(blobs, vec![b"abc".to_vec(), b"01234".to_vec(), Vec::new()]);
        assert!(read_batch(&b"a blob 9\nabc"[..], 4).is_err());
    }

    #[test]
    fn names_no_checkout_holds_are_not_files() {
        for bad in [
            &b""[..],
            b"..",
            b"../x.lua",
            b"/abs.lua",
            b"a//b.lua",
            b"./a.lua",
            b".git/x.lua",
            b"a/.GIT/hooks.lua",
        ] {
            assert_eq!(tree_name(bad), None, "{}", bad.escape_ascii());
        }
        assert_eq!(tree_name(b"a/b.lua").as_deref(), Some("a/b.lua"));
        assert_eq!(
            tree_name(b"x\n::error file=x,line=1::INJECTED\x1b.lua").as_deref(),
            Some("x\\u{a}::error file=x,line=1::INJECTED\\u{1b}.lua")
        );
        assert_eq!(tree_name(b"k\xe8.lua").as_deref(), Some("k\\xE8.lua"));
    }

    #[test]
    fn wanted_files() {
        assert!(wanted("a/mix.exs"));
        assert!(wanted("Cargo.toml"));
        assert!(wanted("x/y.lua"));
        assert!(!wanted("README.md"));
    }
}
