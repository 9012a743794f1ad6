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

/// `path` relative to `root`, with `/` separators; the path as given when it
/// is not under `root`.
pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let mut out = String::new();
    for (i, c) in rel.components().enumerate() {
        if matches!(c, std::path::Component::CurDir) {
            continue;
        }
        if i > 0 && !out.is_empty() {
            out.push('/');
        }
        out.push_str(&c.as_os_str().to_string_lossy());
    }
    if out.is_empty() {
        ".".into()
    } else {
        out
    }
}

/// The comment that starts an inline suppression (`crate::suppress`).
pub const SUPPRESSION_MARK: &[u8] = b"wirelint:";

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
    bytes: OnceLock<Vec<u8>>,
    /// Byte offset of the start of each line. A line ends at `\n`, `\r\n`
    /// or a lone `\r`.
    line_starts: OnceLock<Vec<u32>>,
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
        let f = SourceFile::on_disk(rel, path, lang, may_suppress);
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
            bytes: OnceLock::new(),
            line_starts: OnceLock::new(),
        }
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        self.bytes
            .get_or_init(|| std::fs::read(&self.path).unwrap_or_default())
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

    /// The text for display; invalid UTF-8 is replaced, which is only used
    /// when bytes are not UTF-8 (see [`SourceFile::display_offset`]).
    pub fn text_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.bytes())
    }

    /// Line and column of a byte offset. Offsets inside a multi-byte
    /// character or past the end are clamped.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let bytes = self.bytes();
        let line_starts = self.line_starts();
        let offset = (offset as usize).min(bytes.len());
        let line_idx = match line_starts.binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = line_starts[line_idx] as usize;
        let slice = &bytes[start..offset];
        // Count scalar values: every byte that does not continue a UTF-8
        // sequence starts one (invalid bytes count as one each).
        let mut column = slice.iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1;
        // A UTF-8 byte order mark is not a column, as in editors.
        if line_idx == 0 && offset >= 3 && bytes.starts_with(b"\xEF\xBB\xBF") {
            column -= 1;
        }
        LineCol {
            line: line_idx + 1,
            column,
        }
    }

    /// The byte offset of the same position in [`SourceFile::text_lossy`]
    /// (they differ only after invalid UTF-8).
    pub fn display_offset(&self, offset: u32) -> usize {
        let bytes = self.bytes();
        let offset = (offset as usize).min(bytes.len());
        if std::str::from_utf8(bytes).is_ok() {
            return offset;
        }
        String::from_utf8_lossy(&bytes[..offset]).len()
    }

    /// The source bytes of a span, lossily as text.
    pub fn snippet(&self, span: Span) -> String {
        let bytes = self.bytes();
        let s = (span.start as usize).min(bytes.len());
        let e = (span.end as usize).min(bytes.len()).max(s);
        String::from_utf8_lossy(&bytes[s..e]).into_owned()
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &[u8]) -> SourceFile {
        SourceFile::new("f".into(), "f".into(), None, text.to_vec())
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
    fn columns_count_scalar_values() {
        let f = file("é\tx".as_bytes());
        // `é` is two bytes, one column; the tab is one column.
        assert_eq!(f.line_col(3), LineCol { line: 1, column: 3 });
    }
}
