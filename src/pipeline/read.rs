//! Reading one file: its bytes from the file source, the prefilter's marks,
//! and its facts when it is parsed.

use crate::discover::Candidate;
use crate::facts::{FileFacts, FileId};
use crate::parse::Parsers;

use super::files::{Contents, Files};
use super::prefilter::Prefilter;

/// What the prefilter found in one file's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// It marks its speaker ([`Prefilter::marks`]).
    pub speaker: bool,
    /// It may yield a Redis fact of its own ([`Prefilter::fact_marks`]).
    pub facts: bool,
}

impl Marks {
    /// An editor's buffer is read in full.
    const ALL: Marks = Marks {
        speaker: true,
        facts: true,
    };
}

/// What reading one file gave.
pub(crate) enum Read {
    /// Parsed: its bytes, its facts, and what it marks.
    Facts(Vec<u8>, Box<FileFacts>, Marks),
    /// Read and scanned, not parsed (the prefilter passed it over); its
    /// bytes are not kept. Whether it may yield a Redis fact is asked only
    /// if its speaker turns out to be marked.
    Unparsed,
    Skipped(String),
}

/// Reads files for the selection (`super::select`).
pub(crate) struct Reader<'a> {
    pub files: &'a Files<'a>,
    pub prefilter: &'a Prefilter,
}

impl Reader<'_> {
    /// Reads a file and scans it. With `parse_unmarked` false, a file that
    /// does not mark its speaker is not parsed.
    pub fn read(
        &self,
        parsers: &mut Option<Parsers>,
        c: &Candidate,
        file: FileId,
        parse_unmarked: bool,
    ) -> Read {
        match self.files.read(c) {
            Ok(Contents::Buffer(bytes)) => parse(parsers, c, file, bytes.to_vec(), Marks::ALL),
            Ok(Contents::File(bytes)) => self.scan(parsers, c, file, bytes, parse_unmarked),
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
        let speaker = self.prefilter.marks(c.lang, &c.stem(), &bytes);
        if !speaker && !parse_unmarked {
            return Read::Unparsed;
        }
        let marks = Marks {
            speaker,
            facts: speaker || self.prefilter.fact_marks(c.lang, &bytes),
        };
        parse(parsers, c, file, bytes, marks)
    }
}

fn parse(
    parsers: &mut Option<Parsers>,
    c: &Candidate,
    file: FileId,
    bytes: Vec<u8>,
    marks: Marks,
) -> Read {
    let Some(p) = parsers.as_mut() else {
        return Read::Skipped("internal error: the grammars did not load".into());
    };
    let facts = crate::extract::extract_file(p, c.lang, file, &bytes, &c.stem());
    Read::Facts(bytes, Box::new(facts), marks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Lang;
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
        let files = Files::new(dir.path(), None, None, DEFAULT_MAX_FILE_BYTES);
        let reader = Reader {
            files: &files,
            prefilter: &prefilter,
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
