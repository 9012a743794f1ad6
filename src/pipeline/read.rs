//! Reading one file: its bytes from the file source, the prefilter's marks,
//! and its facts when it is parsed.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::discover::Candidate;
use crate::facts::{FileFacts, FileId};
use crate::parse::Parsers;
use crate::source::SUPPRESSION_MARK;

use super::files::{Contents, Files};
use super::prefilter::{Marks, Prefilter};
use super::Stats;

/// An editor's buffer is read in full.
const ALL: Marks = Marks {
    speaks: true,
    keys: true,
    suppress: false,
};

/// What reading one file gave.
pub(crate) enum Read {
    /// Parsed: its bytes, its facts, and what it marks.
    Facts(Vec<u8>, Box<FileFacts>, Marks),
    /// Read and scanned, not parsed (the prefilter passed it over); its
    /// bytes are not kept.
    Unparsed,
    Skipped(String),
}

/// Reads files for the selection (`super::select`).
pub(crate) struct Reader<'a> {
    pub files: &'a Files<'a>,
    pub prefilter: &'a Prefilter,
    pub counts: Counts,
}

/// What the reader did, counted across threads.
#[derive(Default)]
pub(crate) struct Counts {
    read: AtomicUsize,
    read_bytes: AtomicU64,
    parsed: AtomicUsize,
    parsed_bytes: AtomicU64,
    cached: AtomicUsize,
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
        }
    }
}

impl Reader<'_> {
    /// Reads a file and scans it. With `parse_unmarked` false, a file the
    /// prefilter passes over is not parsed.
    pub fn read(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        parse_unmarked: bool,
    ) -> Read {
        match self.files.read(c) {
            Ok(Contents::Buffer(bytes)) => {
                self.counts.read(bytes.len());
                self.parse(parsers, c, file, bytes.to_vec(), ALL)
            }
            Ok(Contents::File(bytes)) => {
                self.counts.read(bytes.len());
                self.scan(parsers, c, file, bytes, parse_unmarked)
            }
            Err(why) => Read::Skipped(why),
        }
    }

    /// Checks and parses one file's bytes, wherever they came from.
    pub fn scan(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        bytes: Vec<u8>,
        parse_unmarked: bool,
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
            return Read::Unparsed;
        }
        self.parse(parsers, c, file, bytes, marks)
    }

    fn parse(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        bytes: Vec<u8>,
        marks: Marks,
    ) -> Read {
        let Some(p) = parsers.as_mut() else {
            return Read::Skipped("internal error: the grammars did not load".into());
        };
        self.counts.parsed(bytes.len());
        let facts = crate::extract::extract_file(p, c.lang, file, &bytes, &c.stem());
        let marks = Marks {
            suppress: memchr::memmem::find(&bytes, SUPPRESSION_MARK).is_some(),
            ..marks
        };
        Read::Facts(bytes, Box::new(facts), marks)
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
        let files = Files::new(dir.path(), None, None, DEFAULT_MAX_FILE_BYTES);
        let reader = Reader {
            files: &files,
            prefilter: &prefilter,
            counts: Counts::default(),
        };
        match reader.read(&mut parsers, &c, 0, true) {
            Read::Skipped(why) => assert!(why.starts_with("cannot read: "), "{why}"),
            _ => panic!("a missing file must be skipped with a note"),
        }
    }
}
