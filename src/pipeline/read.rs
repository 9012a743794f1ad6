//! Reading one file: its bytes from the file source, the prefilter's marks,
//! and its facts when it is parsed.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::discover::Candidate;
use crate::facts::{FileFacts, FileId};
use crate::parse::Parsers;
use crate::source::SUPPRESSION_MARK;

use super::cache::{compacted, content_hash, Cache, FactsKey, Stamp};
use super::files::{Contents, Files};
use super::names::Idents;
use super::prefilter::{Marks, Prefilter};
use super::session::ContentKey;
use super::Stats;

/// An editor's buffer is read in full.
const ALL: Marks = Marks {
    speaks: true,
    scoped: false,
    keys: true,
    suppress: false,
};

/// What reading one file gave.
pub(crate) enum Read {
    /// Parsed: its bytes, its facts, what it marks, and the key of its
    /// stored facts (when the run keeps a cache, and the facts are whole:
    /// a parse cut by its deadline may give others next time).
    Facts(Vec<u8>, Arc<FileFacts>, Marks, Option<ContentKey>),
    /// Read and scanned, not parsed (the prefilter passed it over); its
    /// bytes are not kept. Its identifiers when the cache's index holds
    /// them, and whether it is to be parsed where its speaker brings a
    /// client into scope (`Marks::scoped`).
    Unparsed(Option<Arc<Idents>>, bool),
    Skipped(String),
}

/// Where the bytes a file is parsed from came from: the disk (with their
/// stamp when the cache's index may record them), or an editor's buffer.
enum From {
    Disk(Option<Stamp>),
    Buffer,
}

/// Reads files for the selection (`super::select`).
pub(crate) struct Reader<'a> {
    pub files: &'a Files<'a>,
    pub prefilter: &'a Prefilter,
    pub counts: Counts,
    /// The facts cache, if the run keeps one.
    pub cache: Option<&'a Cache>,
    /// The open buffers' last trees (a long-lived process).
    pub trees: Option<&'a super::session::BufferTrees>,
}

/// What the reader did, counted across threads.
#[derive(Default)]
pub(crate) struct Counts {
    read: AtomicUsize,
    read_bytes: AtomicU64,
    parsed: AtomicUsize,
    parsed_bytes: AtomicU64,
    cached: AtomicUsize,
    cut: AtomicUsize,
}

impl Counts {
    fn add(n: &AtomicUsize, bytes: &AtomicU64, len: usize) {
        n.fetch_add(1, Ordering::Relaxed);
        bytes.fetch_add(len as u64, Ordering::Relaxed);
    }

    pub fn read(&self, len: usize) {
        Counts::add(&self.read, &self.read_bytes, len);
    }

    pub fn parsed(&self, len: usize) {
        Counts::add(&self.parsed, &self.parsed_bytes, len);
    }

    pub fn cached(&self) {
        self.cached.fetch_add(1, Ordering::Relaxed);
    }

    /// A parse that gave up on part of a file.
    pub fn cut(&self) {
        self.cut.fetch_add(1, Ordering::Relaxed);
    }

    /// The counts as run statistics.
    pub fn stats(&self, files: usize, selected: usize) -> Stats {
        Stats {
            files,
            read: self.read.load(Ordering::Relaxed),
            read_bytes: self.read_bytes.load(Ordering::Relaxed),
            parsed: self.parsed.load(Ordering::Relaxed),
            parsed_bytes: self.parsed_bytes.load(Ordering::Relaxed),
            cached: self.cached.load(Ordering::Relaxed),
            selected,
            cut: self.cut.load(Ordering::Relaxed),
        }
    }
}

impl Reader<'_> {
    /// Reads a file and scans it. With `parse_unmarked` false, a file the
    /// prefilter passes over is not parsed. A file the cache's index knows
    /// unchanged is not read: passed over, or its stored facts.
    pub fn read(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        parse_unmarked: bool,
    ) -> Read {
        let stamp = self.stamp(c);
        if let Some(r) = stamp.and_then(|s| self.indexed(c, file, s, parse_unmarked)) {
            return r;
        }
        match self.files.read(c) {
            Ok(Contents::Buffer(bytes)) => {
                self.counts.read(bytes.len());
                self.parse(parsers, c, file, bytes.to_vec(), ALL, From::Buffer)
            }
            Ok(Contents::File(bytes)) => {
                self.counts.read(bytes.len());
                // A file the last run parsed that changed since is most
                // likely parsed again (an edit seldom takes a file out of
                // the protocol): parsed now, with the other first reads,
                // rather than in a later round of the selection, which
                // drops its facts if it does not select it.
                let likely = self.cache.is_some_and(|k| k.parsed_last(&c.rel));
                self.scan(parsers, c, file, bytes, parse_unmarked || likely, stamp)
            }
            Err(why) => Read::Skipped(why),
        }
    }

    /// A file's size and time, when the cache's index may know it.
    fn stamp(&self, c: &Candidate) -> Option<Stamp> {
        self.cache?;
        if !self.files.on_disk(c) {
            return None;
        }
        Stamp::of(&std::fs::metadata(&c.path).ok()?)
    }

    /// What the index says of an unchanged file: passed over, or parsed
    /// with its facts stored.
    fn indexed(
        &self,
        c: &Candidate,
        file: FileId,
        stamp: Stamp,
        parse_unmarked: bool,
    ) -> Option<Read> {
        let cache = self.cache?;
        if stamp.size() > self.files.max_bytes() {
            return None;
        }
        let e = cache.lookup(&c.rel, stamp)?;
        let marks = e.marks();
        if !marks.parse() && !parse_unmarked {
            let idents = e.idents();
            cache.keep(&c.rel, e);
            return Some(Read::Unparsed(idents, marks.scoped));
        }
        let key = FactsKey::new(&e.hash()?, c.lang, &c.stem());
        let facts = cache.facts(&key, file)?;
        cache.keep(&c.rel, e);
        self.counts.cached();
        Some(Read::Facts(Vec::new(), facts, marks, Some(key.bytes())))
    }

    /// The bytes of a file the name pass searches, and their stamp when
    /// the cache's index may record them; its identifiers go to the index
    /// (with `idents`), so that the next run need not read it while it
    /// stays unchanged.
    pub fn hold(&self, c: &Candidate, idents: bool) -> (Option<Stamp>, Option<Vec<u8>>) {
        let stamp = self.stamp(c);
        let bytes = self.files.bytes(c);
        self.counts.read(bytes.as_ref().map_or(0, Vec::len));
        if let (Some(cache), Some(s), Some(b), true) = (self.cache, stamp, &bytes, idents) {
            cache.record_idents(&c.rel, s, Idents::of(c.lang, b));
        }
        (stamp, bytes)
    }

    /// Checks and parses one file's bytes, wherever they came from;
    /// `stamp` when they are the disk's, for the cache's index.
    pub fn scan(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        bytes: Vec<u8>,
        parse_unmarked: bool,
        stamp: Option<Stamp>,
    ) -> Read {
        let max = self.files.max_bytes();
        if bytes.len() as u64 > max {
            return Read::Skipped(format!("skipped: over the {max} byte limit"));
        }
        if memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
            return Read::Skipped("skipped: binary file (it has NUL bytes)".into());
        }
        let marks = self.prefilter.scan(c.lang, &c.stem(), &bytes);
        if !marks.parse() && !parse_unmarked {
            if let (Some(cache), Some(s)) = (self.cache, stamp) {
                cache.record(&c.rel, s, marks, None, None);
            }
            return Read::Unparsed(None, marks.scoped);
        }
        self.parse(parsers, c, file, bytes, marks, From::Disk(stamp))
    }

    /// Parses one file's bytes, or takes the facts the cache holds for
    /// them.
    fn parse(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        bytes: Vec<u8>,
        marks: Marks,
        from: From,
    ) -> Read {
        let (stamp, buffer) = match from {
            From::Disk(stamp) => (stamp, false),
            From::Buffer => (None, true),
        };
        let Some(p) = parsers.as_mut() else {
            return Read::Skipped("internal error: the grammars did not load".into());
        };
        let hash = self.cache.map(|_| content_hash(&bytes));
        let key = hash.map(|h| FactsKey::new(&h, c.lang, &c.stem()));
        let stored = self
            .cache
            .zip(key.as_ref())
            .and_then(|(cache, k)| cache.facts(k, file));
        // An open buffer's last tree: kept while its facts come from the
        // cache, replaced when it is parsed.
        let trees = self.trees.filter(|_| buffer);
        let old = trees.and_then(|t| t.get(&c.rel));
        let facts = match stored {
            Some(f) => {
                self.counts.cached();
                if let (Some(t), Some(o)) = (trees, old) {
                    t.keep(&c.rel, o);
                }
                f
            }
            None => {
                self.counts.parsed(bytes.len());
                let (f, tree) = crate::extract::extract_file_from(
                    p,
                    c.lang,
                    file,
                    &bytes,
                    &c.stem(),
                    old.as_deref(),
                    trees.is_some(),
                );
                if let (Some(t), Some(tree)) = (trees, tree) {
                    t.keep(&c.rel, Arc::new(tree));
                }
                // An editor's buffer changes with each keystroke: its
                // facts are not worth a second reading.
                let (f, encoded) = match buffer {
                    true => (f, None),
                    false => compacted(f, file),
                };
                let f = Arc::new(f);
                if f.was_cut() {
                    self.counts.cut();
                }
                // An editor's buffer is not on disk, and its facts are
                // not either: kept in memory for the next run only.
                if let (Some(cache), Some(k), false) = (self.cache, &key, f.was_cut()) {
                    if buffer {
                        cache.remember_facts(k, file, f.clone());
                    } else if let Some(e) = &encoded {
                        cache.store_encoded(k, e);
                    }
                }
                f
            }
        };
        let marks = Marks {
            suppress: memchr::memmem::find(&bytes, SUPPRESSION_MARK).is_some(),
            ..marks
        };
        if let (Some(cache), Some(s)) = (self.cache, stamp) {
            cache.record(&c.rel, s, marks, hash, key.as_ref());
        }
        let key = key.filter(|_| !facts.was_cut()).map(|k| k.bytes());
        Read::Facts(bytes, facts, marks, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Lang;
    use crate::pipeline::read::Counts;
    use crate::pipeline::DEFAULT_MAX_FILE_BYTES;

    /// A file deleted between discovery and read is a note, not a failure.
    #[test]
    fn a_file_deleted_after_discovery_is_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.ex");
        std::fs::write(&path, "defmodule Gone do\nend\n").unwrap();
        let c = Candidate {
            path: path.clone(),
            rel: "gone.ex".into(),
            lang: Lang::Elixir,
        };
        std::fs::remove_file(&path).unwrap();
        let prefilter = Prefilter::new(None);
        let mut parsers = Parsers::new().ok();
        let files = Files::new(dir.path(), None, &[], DEFAULT_MAX_FILE_BYTES);
        let reader = Reader {
            files: &files,
            prefilter: &prefilter,
            counts: Counts::default(),
            cache: None,
            trees: None,
        };
        match reader.read(&mut parsers, &c, 0, true) {
            Read::Skipped(why) => assert!(why.starts_with("cannot read: "), "{why}"),
            _ => panic!("a missing file must be skipped with a note"),
        }
    }

    /// A file swapped, between discovery and reading, for a FIFO (which
    /// would block the open) or a link to `/dev/zero` (which would never
    /// end) is a note; it is never waited on or read.
    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_fifo_or_a_device_is_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("swapped.ex");
        let c = Candidate {
            path: path.clone(),
            rel: "swapped.ex".into(),
            lang: Lang::Elixir,
        };
        let prefilter = Prefilter::new(None);
        let mut parsers = Parsers::new().ok();
        let files = Files::new(dir.path(), None, &[], DEFAULT_MAX_FILE_BYTES);
        let reader = Reader {
            files: &files,
            prefilter: &prefilter,
            counts: Counts::default(),
            cache: None,
            trees: None,
        };
        let mut read = || match reader.read(&mut parsers, &c, 0, true) {
            Read::Skipped(why) => why,
            _ => panic!("a swapped file must be skipped with a note"),
        };
        let ok = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        assert_eq!(read(), "skipped: not a regular file (a FIFO)");
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        assert_eq!(read(), "skipped: not a regular file (a character device)");
    }
}
