//! The run's file table: every scanned file and the contract, their bytes,
//! and the conversion from byte offsets to lines and columns (used only by
//! reporters).
//!
//! A file read from the disk keeps no bytes after the scan: they are read
//! again the first time something asks for them (a reporter showing a
//! finding in it, a suppression in it), so a run holds the bytes of the
//! files its findings are in, not of every file it read.

use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use crate::facts::{FileId, Lang, Span};

/// The comment that starts an inline suppression (`crate::post::suppress`).
pub use crate::facts::SUPPRESSION_MARK;

/// `path` relative to `root`, with `/` separators; the path as given when it
/// is not under `root` (an absolute path keeps its one leading `/`). Made
/// for display: see [`display_name`].
pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let mut out = String::new();
    let mut sep = false;
    for c in rel.components() {
        match c {
            std::path::Component::CurDir => continue,
            std::path::Component::RootDir => {
                out.push('/');
                sep = false;
                continue;
            }
            std::path::Component::Prefix(p) => {
                out.push_str(&display_name(p.as_os_str()));
                continue;
            }
            _ => {}
        }
        if sep {
            out.push('/');
        }
        out.push_str(&display_name(c.as_os_str()));
        sep = true;
    }
    if out.is_empty() {
        ".".into()
    } else {
        out
    }
}

/// A file name as every report shows it: UTF-8 as is, but a byte that is
/// not UTF-8 as `\xNN` (so that names differing only there stay distinct),
/// control characters (a newline, an escape) as `\u{..}`, so that no name
/// can break a line or drive a terminal, and `\` as `\\`, so that the
/// escaping can be undone ([`name_bytes`]).
pub fn display_name(name: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(name);
    #[cfg(not(unix))]
    let lossy = name.to_string_lossy();
    #[cfg(not(unix))]
    let bytes = lossy.as_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if ch == '\\' {
                out.push_str("\\\\");
            } else if ch.is_control() {
                out.extend(ch.escape_unicode());
            } else {
                out.push(ch);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// Source bytes as a terminal may show them: invalid UTF-8 replaced (`�`),
/// and control characters other than tab and line ends shown as their
/// Unicode pictures (`␛` for an escape), so that no file under review can
/// drive the terminal or the CI log that shows a snippet of it. One
/// character stays one character, so columns do not move.
pub fn display_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let text = String::from_utf8_lossy(bytes);
    let shown = |c: char| !c.is_control() || matches!(c, '\t' | '\n' | '\r');
    if text.chars().all(shown) {
        return text;
    }
    text.chars()
        .map(|c| match c {
            c if shown(c) => c,
            '\u{7f}' => '\u{2421}',
            c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
            _ => '\u{fffd}',
        })
        .collect::<String>()
        .into()
}

/// The bytes of a name [`display_name`] (or [`rel_path`]) shows.
pub fn name_bytes(shown: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(shown.len());
    let mut rest = shown;
    while let Some(i) = rest.find('\\') {
        out.extend_from_slice(&rest.as_bytes()[..i]);
        let esc = &rest[i..];
        let (bytes, len) = if esc.starts_with("\\\\") {
            (vec![b'\\'], 2)
        } else if let Some(hex) = esc.strip_prefix("\\x").and_then(|h| h.get(..2)) {
            match u8::from_str_radix(hex, 16) {
                Ok(b) => (vec![b], 4),
                Err(_) => (vec![b'\\'], 1),
            }
        } else if let Some(body) = esc.strip_prefix("\\u{").and_then(|b| b.split_once('}')) {
            match u32::from_str_radix(body.0, 16)
                .ok()
                .and_then(char::from_u32)
            {
                Some(c) => (c.to_string().into_bytes(), 4 + body.0.len()),
                None => (vec![b'\\'], 1),
            }
        } else {
            (vec![b'\\'], 1)
        };
        out.extend_from_slice(&bytes);
        rest = &esc[len..];
    }
    out.extend_from_slice(rest.as_bytes());
    out
}

/// One file known to the run.
#[derive(Debug)]
pub struct SourceFile {
    /// Path relative to the scanned root, `/`-separated (what reports show).
    pub rel: String,
    /// Where it was read from.
    pub path: PathBuf,
    pub lang: Option<Lang>,
    /// Its bytes hold [`SUPPRESSION_MARK`] (found when it was scanned).
    pub may_suppress: bool,
    /// Its bytes are read from `path` when asked for ([`SourceFile::on_disk`]),
    /// not held from the start.
    disk: bool,
    bytes: OnceLock<Vec<u8>>,
    /// Byte offset of the start of each line. A line ends at `\n`, `\r\n`
    /// or a lone `\r`.
    line_starts: OnceLock<Vec<u32>>,
    /// Scalar values before each [`BLOCK`]-byte block, built on first use:
    /// a column is then counted over at most two blocks, not over the whole
    /// line (thousands of findings on one minified line made that
    /// quadratic).
    scalars: OnceLock<Vec<u32>>,
}

/// The block size of [`SourceFile`]'s column index.
const BLOCK: usize = 1024;

/// Bytes that start a scalar value (every byte that does not continue a
/// UTF-8 sequence; an invalid byte counts as one).
fn scalar_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    /// A file whose bytes are held from the start.
    pub fn new(rel: String, path: PathBuf, lang: Option<Lang>, bytes: Vec<u8>) -> SourceFile {
        let may_suppress = memchr::memmem::find(&bytes, SUPPRESSION_MARK).is_some();
        let mut f = SourceFile::on_disk(rel, path, lang, may_suppress);
        f.disk = false;
        let _ = f.bytes.set(bytes);
        f
    }

    /// A file on the disk whose bytes are read when first asked for (empty
    /// if it cannot be read then). `may_suppress` is what its scan found.
    pub fn on_disk(
        rel: String,
        path: PathBuf,
        lang: Option<Lang>,
        may_suppress: bool,
    ) -> SourceFile {
        SourceFile {
            rel,
            path,
            lang,
            may_suppress,
            disk: true,
            bytes: OnceLock::new(),
            line_starts: OnceLock::new(),
            scalars: OnceLock::new(),
        }
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        self.bytes
            .get_or_init(|| std::fs::read(&self.path).unwrap_or_default())
    }

    /// Whether its bytes come from its path on the disk when first asked
    /// for (else they were given when it was made).
    pub fn from_disk(&self) -> bool {
        self.disk
    }

    /// Whether its bytes are held now (read, or given).
    pub fn is_loaded(&self) -> bool {
        self.bytes.get().is_some()
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let bytes = self.bytes();
            let mut starts = vec![0u32];
            for (i, b) in bytes.iter().enumerate() {
                match b {
                    b'\n' => starts.push((i + 1) as u32),
                    b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push((i + 1) as u32),
                    _ => {}
                }
            }
            starts
        })
    }

    /// Scalar values in `bytes[..offset]`, from the block index.
    fn scalars_before(&self, offset: usize) -> usize {
        let index = self.scalars.get_or_init(|| {
            let mut acc = 0u32;
            let mut out = vec![0u32];
            for block in self.bytes().chunks(BLOCK) {
                acc += scalar_starts(block) as u32;
                out.push(acc);
            }
            out
        });
        let b = offset / BLOCK;
        index[b] as usize + scalar_starts(&self.bytes()[b * BLOCK..offset])
    }

    /// The 1-based line of a byte offset (cheaper than [`SourceFile::line_col`]).
    pub fn line(&self, offset: u32) -> usize {
        let offset = offset.min(self.bytes().len() as u32);
        match self.line_starts().binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i.max(1),
        }
    }

    /// The byte offset where a line (0-based) starts; the end of the file
    /// past the last line.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts()
            .get(line)
            .map_or(self.bytes().len(), |&s| s as usize)
    }

    /// The byte offset just past a line (0-based), its line end included.
    pub fn line_end(&self, line: usize) -> usize {
        self.line_start(line + 1)
    }

    /// Line and column of a byte offset. Offsets inside a multi-byte
    /// character or past the end are clamped.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = (offset as usize).min(self.bytes().len());
        let line_idx = match self.line_starts().binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts()[line_idx] as usize;
        // Count scalar values: every byte that does not continue a UTF-8
        // sequence starts one (invalid bytes count as one each).
        let mut column = if offset - start <= 2 * BLOCK {
            scalar_starts(&self.bytes()[start..offset]) + 1
        } else {
            self.scalars_before(offset) - self.scalars_before(start) + 1
        };
        // A UTF-8 byte order mark is not a column, as in editors.
        if line_idx == 0 && offset >= 3 && self.bytes().starts_with(b"\xEF\xBB\xBF") {
            column -= 1;
        }
        LineCol {
            line: line_idx + 1,
            column,
        }
    }

    /// The source bytes of a span, lossily as text.
    pub fn snippet(&self, span: Span) -> String {
        let s = (span.start as usize).min(self.bytes().len());
        let e = (span.end as usize).min(self.bytes().len()).max(s);
        String::from_utf8_lossy(&self.bytes()[s..e]).into_owned()
    }
}

/// All files of a run, indexed by [`FileId`].
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        (self.files.len() - 1) as FileId
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (i as FileId, f))
    }

    /// Reports paths relative to another directory: `prefix` (the root as
    /// seen from it, `/`-separated) goes before every relative path but
    /// `keep`'s (the embedded contract's name).
    pub fn relocate(&mut self, prefix: &str, keep: Option<FileId>) {
        for (i, f) in self.files.iter_mut().enumerate() {
            if keep != Some(i as FileId) {
                f.rel = under(prefix, &f.rel);
            }
        }
    }
}

/// `rel` as seen from the directory where `prefix` names the root: joined,
/// with `.` and `..` resolved by name. An absolute `rel` is kept. A prefix
/// that starts with [`BELOW`] names instead a directory under the root
/// (where a run from a subfolder stands): `rel` is then seen from there
/// (`lib/x.ex`, `../src/y.lua`).
pub fn under(prefix: &str, rel: &str) -> String {
    if rel.starts_with('/') || prefix == "." || prefix.is_empty() {
        return rel.to_string();
    }
    if let Some(base) = prefix.strip_prefix(BELOW) {
        return from_below(base, rel);
    }
    let mut parts: Vec<&str> = Vec::new();
    for p in prefix.split('/').chain(rel.split('/')) {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// Marks a prefix of [`under`] that names a directory under the root (no
/// path holds a NUL byte).
pub const BELOW: char = '\0';

/// `rel` (relative to the root) seen from `base`, a directory under it.
fn from_below(base: &str, rel: &str) -> String {
    let base: Vec<&str> = base
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let rel: Vec<&str> = rel
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let same = base.iter().zip(&rel).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; base.len() - same];
    parts.extend(&rel[same..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// Whether a path is test code.
pub fn is_test_path(rel: &str) -> bool {
    let mut parts = rel.split('/');
    let file = parts.next_back().unwrap_or("");
    let dir_test = rel.split('/').rev().skip(1).any(|d| {
        matches!(
            d,
            "test" | "tests" | "spec" | "specs" | "__tests__" | "testing" | "benches"
        )
    });
    let stem = file.split('.').next().unwrap_or("");
    // `queue.spec.ts`, `jobs.test.js`: a part between the stem and the
    // extension says so.
    let dotted: Vec<&str> = file.split('.').collect();
    let part_test = dotted.len() > 2
        && dotted[1..dotted.len() - 1]
            .iter()
            .any(|p| matches!(*p, "spec" | "test"));
    dir_test
        || part_test
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || stem.starts_with("test_")
        || stem == "tests"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_seen_from_a_subfolder() {
        let p = "\0elixir";
        assert_eq!(under(p, "elixir/lib/x.ex"), "lib/x.ex");
        assert_eq!(under(p, "elixir"), ".");
        assert_eq!(under(p, "src/y.lua"), "../src/y.lua");
        assert_eq!(under("\0a/b", "a/c/z.rs"), "../c/z.rs");
        assert_eq!(under(p, "/abs/x.rs"), "/abs/x.rs");
    }

    #[test]
    fn paths_under_a_prefix() {
        assert_eq!(under("peers", "rust/src/jobs.rs"), "peers/rust/src/jobs.rs");
        assert_eq!(under(".", "a.rs"), "a.rs");
        assert_eq!(under("peers", "../rules/x.toml"), "rules/x.toml");
        assert_eq!(under("a/b", "."), "a/b");
        assert_eq!(under("..", "../x.rs"), "../../x.rs");
        assert_eq!(under("peers", "/abs/x.rs"), "/abs/x.rs");
    }

    fn file(text: &[u8]) -> SourceFile {
        SourceFile::new("f".into(), "f".into(), None, text.to_vec())
    }

    #[test]
    fn paths_outside_the_root_keep_one_leading_slash() {
        assert_eq!(
            rel_path(Path::new("."), Path::new("/tmp/a.ex")),
            "/tmp/a.ex"
        );
        assert_eq!(rel_path(Path::new("/r"), Path::new("/r/x/a.ex")), "x/a.ex");
        assert_eq!(rel_path(Path::new("."), Path::new("./x/./a.ex")), "x/a.ex");
    }

    #[cfg(unix)]
    #[test]
    fn names_escape_invalid_bytes_and_control_characters() {
        use std::os::unix::ffi::OsStrExt;
        let name = |b: &[u8]| display_name(std::ffi::OsStr::from_bytes(b));
        assert_eq!(name(b"caf\xe9"), "caf\\xE9");
        assert_eq!(name(b"caf\xe8"), "caf\\xE8");
        assert_eq!(name(b"a\nb\x1b[31m"), "a\\u{a}b\\u{1b}[31m");
        assert_eq!(name("é€😀".as_bytes()), "é€😀");
        assert_eq!(name(b"a\\xE9"), "a\\\\xE9");
        for b in [
            &b"caf\xe9"[..],
            b"a\nb\x1b",
            b"a\\xE9",
            b"\\",
            "é\u{85}".as_bytes(),
        ] {
            assert_eq!(name_bytes(&name(b)), b, "{b:?}");
        }
    }

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let f = file(b"a\nb\r\nc\rd");
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(2), LineCol { line: 2, column: 1 });
        assert_eq!(f.line_col(5), LineCol { line: 3, column: 1 });
        assert_eq!(f.line_col(7), LineCol { line: 4, column: 1 });
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let f = file(b"\xEF\xBB\xBFab\nc");
        assert_eq!(f.line_col(3), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(4), LineCol { line: 1, column: 2 });
        assert_eq!(f.line_col(6), LineCol { line: 2, column: 1 });
    }

    #[test]
    fn columns_on_long_lines_come_from_the_block_index() {
        let text = format!("x\n{}é{}", "a".repeat(5000), "b".repeat(3000));
        let f = file(text.as_bytes());
        let at = 2 + 5000 + 2 + 2999;
        assert_eq!(
            f.line_col(at as u32),
            LineCol {
                line: 2,
                column: 8001
            }
        );
        assert_eq!(f.line(at as u32), 2);
        assert_eq!(f.line(0), 1);
    }

    #[test]
    fn columns_count_scalar_values() {
        let f = file("é\tx".as_bytes());
        // `é` is two bytes, one column; the tab is one column.
        assert_eq!(f.line_col(3), LineCol { line: 1, column: 3 });
    }
}
