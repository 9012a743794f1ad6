//! The open documents, within a budget: each at most
//! [`MAX_DOCUMENT_BYTES`] (a larger one keeps only its size, and gets one
//! warning of its own), and all of them at most [`MAX_DOCUMENTS`]
//! documents and [`MAX_OPEN_BYTES`] bytes. A document past the budget is
//! not kept (it is checked as its file on disk, like a closed one), and
//! the editor is told once, with a `window/showMessage` warning, until a
//! kept document is closed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest open document checked: `check`'s default `--max-file-size`.
/// A larger buffer is not kept; one diagnostic on it says so.
pub const MAX_DOCUMENT_BYTES: u64 = crate::pipeline::DEFAULT_MAX_FILE_BYTES;

/// The most open documents kept.
pub const MAX_DOCUMENTS: usize = 1_000;

/// The most bytes of text the open documents keep in all (64 MiB: eight
/// documents at the largest).
pub const MAX_OPEN_BYTES: usize = 64 << 20;

/// An open document: its text, and whether it differs from its file on
/// disk (only those stand in for their files). A document over
/// [`MAX_DOCUMENT_BYTES`] keeps only its size.
pub struct Doc {
    pub text: Vec<u8>,
    pub modified: bool,
    pub too_large: Option<usize>,
}

impl Doc {
    pub fn new(path: &Path, text: Vec<u8>) -> Doc {
        if text.len() as u64 > MAX_DOCUMENT_BYTES {
            return Doc {
                text: Vec::new(),
                modified: false,
                too_large: Some(text.len()),
            };
        }
        // A regular file only, bounded: the editor may name a FIFO or a
        // device (`crate::input`). A file that cannot be read is not the
        // buffer's text.
        let disk = crate::input::read_file(path, crate::input::Links::Follow, MAX_DOCUMENT_BYTES);
        let modified = disk.ok().as_deref() != Some(text.as_slice());
        Doc {
            text,
            modified,
            too_large: None,
        }
    }

    /// Compares the text with the file again (it changed on disk).
    pub fn again(self, path: &Path) -> Doc {
        match self.too_large {
            Some(_) => self,
            None => Doc::new(path, self.text),
        }
    }
}

/// The open documents kept, by absolute path, and the bytes they hold.
#[derive(Default)]
pub struct Docs {
    docs: BTreeMap<PathBuf, Doc>,
    bytes: usize,
    /// The editor was told that a document is past the budget (it is told
    /// again once a kept document was closed).
    warned: bool,
}

impl Docs {
    #[cfg(test)]
    pub fn get(&self, path: &Path) -> Option<&Doc> {
        self.docs.get(path)
    }

    pub fn contains(&self, path: &Path) -> bool {
        self.docs.contains_key(path)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&PathBuf, &Doc)> {
        self.docs.iter()
    }

    /// Closes a document; whether it was kept.
    pub fn remove(&mut self, path: &Path) -> Option<Doc> {
        let doc = self.docs.remove(path)?;
        self.bytes -= doc.text.len();
        self.warned = false;
        Some(doc)
    }

    /// Whether the budget keeps `len` bytes of text at `path`, in place of
    /// its last text; checked before the text is compared with its file.
    /// When it does not, the document is not kept (nor its last text),
    /// and, the first time since a kept document was closed, the warning
    /// to show.
    pub fn admit(&mut self, path: &Path, len: usize) -> Result<(), Option<String>> {
        let kept = |n: usize| if n as u64 > MAX_DOCUMENT_BYTES { 0 } else { n };
        let old = self.docs.get(path).map(|d| d.text.len());
        let count = self.docs.len() + usize::from(old.is_none());
        let bytes = self.bytes - old.unwrap_or(0) + kept(len);
        let over = if count > MAX_DOCUMENTS {
            format!("{MAX_DOCUMENTS} documents are open, the most the server keeps")
        } else if bytes > MAX_OPEN_BYTES {
            format!(
                "with it the open documents would hold {bytes} bytes, over the {MAX_OPEN_BYTES} the server keeps"
            )
        } else {
            return Ok(());
        };
        self.take(path);
        let first = !std::mem::replace(&mut self.warned, true);
        Err(first.then(|| {
            format!(
                "wirelint: {} is not checked as edited: {over}. It and every document opened past the budget are checked as their files on disk until documents are closed",
                crate::source::display_name(path.as_os_str())
            )
        }))
    }

    /// Keeps `doc` at `path`, in place of its last text (once
    /// [`Docs::admit`] let it in).
    pub fn insert(&mut self, path: PathBuf, doc: Doc) {
        self.take(&path);
        self.bytes += doc.text.len();
        self.docs.insert(path, doc);
    }

    /// Compares every document with its file again (files changed on
    /// disk).
    pub fn again(&mut self) {
        let docs = std::mem::take(&mut self.docs);
        self.docs = docs
            .into_iter()
            .map(|(path, doc)| {
                let doc = doc.again(&path);
                (path, doc)
            })
            .collect();
    }

    /// Takes a document out (to be put back with [`Docs::insert`]).
    pub fn take(&mut self, path: &Path) -> Option<Doc> {
        let doc = self.docs.remove(path)?;
        self.bytes -= doc.text.len();
        Some(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(n: usize) -> Doc {
        Doc {
            text: vec![b'-'; n],
            modified: true,
            too_large: None,
        }
    }

    fn put(d: &mut Docs, path: &str, n: usize) -> Result<(), Option<String>> {
        d.admit(Path::new(path), n)?;
        d.insert(PathBuf::from(path), doc(n));
        Ok(())
    }

    /// The budget's count and bytes: past either, a document is not kept,
    /// one warning says so until a kept document is closed, and a
    /// document's new text replaces its old one in the sum (a document
    /// over the size limit keeps none).
    #[test]
    fn the_budget_keeps_documents_up_to_its_count_and_bytes() {
        let mut d = Docs::default();
        for i in 0..MAX_DOCUMENTS {
            assert!(put(&mut d, &format!("/w/{i}.lua"), 1).is_ok());
        }
        let warning = put(&mut d, "/w/x.lua", 1).unwrap_err();
        assert_eq!(
            warning.as_deref(),
            Some("wirelint: /w/x.lua is not checked as edited: 1000 documents are open, the most the server keeps. It and every document opened past the budget are checked as their files on disk until documents are closed")
        );
        assert_eq!(put(&mut d, "/w/y.lua", 1), Err(None));
        assert_eq!((d.docs.len(), d.bytes), (MAX_DOCUMENTS, MAX_DOCUMENTS));
        // A kept document's new text is no new document.
        assert!(put(&mut d, "/w/0.lua", 5).is_ok());
        assert_eq!(d.bytes, MAX_DOCUMENTS + 4);
        assert!(d.remove(Path::new("/w/0.lua")).is_some());
        assert!(d.remove(Path::new("/w/0.lua")).is_none());
        assert!(put(&mut d, "/w/x.lua", 1).is_ok());

        let mut d = Docs::default();
        let big = MAX_DOCUMENT_BYTES as usize;
        for i in 0..MAX_OPEN_BYTES / big {
            assert!(put(&mut d, &format!("/w/{i}.lua"), big).is_ok());
        }
        assert!(d.admit(Path::new("/w/huge.lua"), big + 1).is_ok());
        let warning = put(&mut d, "/w/x.lua", 1).unwrap_err();
        assert_eq!(
            warning.as_deref(),
            Some("wirelint: /w/x.lua is not checked as edited: with it the open documents would hold 67108865 bytes, over the 67108864 the server keeps. It and every document opened past the budget are checked as their files on disk until documents are closed")
        );
        // Shrunk, a kept document makes room; grown back past the budget,
        // it is let go.
        assert!(put(&mut d, "/w/0.lua", big - 1).is_ok());
        assert!(put(&mut d, "/w/x.lua", 1).is_ok());
        assert_eq!(d.bytes, MAX_OPEN_BYTES);
        assert_eq!(put(&mut d, "/w/0.lua", big), Err(None));
        assert!(!d.contains(Path::new("/w/0.lua")));
        assert_eq!(d.bytes, MAX_OPEN_BYTES - big + 1);
    }
}
