//! The selection of the files to parse, to a fixpoint (the prefilter's
//! name pass; its soundness argument is in `super::prefilter`): first the
//! files that mark their speaker; then, in marked speakers, the `.lua`
//! files, the files that may yield a Redis fact of their own, the script
//! files parsed files name, and the files that hold a name a parsed file of
//! their speaker references or defines, until nothing new is reached.
//! Files are read in parallel, one set of parsers per worker.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::discover::Candidate;
use crate::extract::script_name_from_stem;
use crate::facts::{FileId, ScriptSource};
use crate::link::{normalize_name, normalize_path, SpeakerId};
use crate::parse::Parsers;

use super::prefilter::{identity_names, speaker_needles, FileNames, Names, Prefilter};
use super::read::{Read, Reader};

/// Reads every candidate and parses what the link step needs (see the
/// module docs). Returns the reads and, per file, whether it is one of
/// those (with `parse_all`, the prefilter off, every file is parsed, and
/// the same selection is made from the bytes and facts).
pub(crate) fn read_all(
    reader: &Reader<'_>,
    parse_all: bool,
    candidates: &[Candidate],
    file_speaker: &[Option<SpeakerId>],
    speaker_dirs: &[Option<PathBuf>],
) -> (Vec<Read>, Vec<bool>) {
    let mut reads = first_reads(reader, candidates, parse_all);
    let mut sel = Selection::new(candidates, file_speaker, speaker_dirs);
    sel.mark(&reads);
    // Bytes of files not parsed yet, in marked speakers, for the name scan.
    let mut held: Vec<Option<Vec<u8>>> = (0..reads.len()).map(|_| None).collect();
    loop {
        sel.harvest(&reads);
        sel.hold(reader, &reads, &mut held);
        let todo = sel.todo(reader.prefilter, &reads, &held);
        if todo.is_empty() {
            break;
        }
        for (i, r) in parse_more(reader, candidates, &reads, &todo, &mut held) {
            sel.selected[i] = true;
            if let Some(r) = r {
                reads[i] = r;
            }
        }
    }
    (reads, sel.selected)
}

/// Every candidate read and scanned; parsed when it marks its speaker (or
/// with `parse_all`).
fn first_reads(reader: &Reader<'_>, candidates: &[Candidate], parse_all: bool) -> Vec<Read> {
    candidates
        .par_iter()
        .enumerate()
        .map_init(
            || Parsers::new().ok(),
            |parsers, (i, c)| reader.read(parsers, c, i as FileId, parse_all),
        )
        .collect()
}

/// Parses the files of `todo` that are not parsed yet, from their held
/// bytes, else read again (which then says why they cannot be read).
fn parse_more(
    reader: &Reader<'_>,
    candidates: &[Candidate],
    reads: &[Read],
    todo: &[usize],
    held: &mut [Option<Vec<u8>>],
) -> Vec<(usize, Option<Read>)> {
    let jobs: Vec<(usize, Option<Vec<u8>>)> = todo.iter().map(|&i| (i, held[i].take())).collect();
    jobs.into_par_iter()
        .map_init(
            || Parsers::new().ok(),
            |parsers, (i, bytes)| {
                let (c, file) = (&candidates[i], i as FileId);
                let r = match (&reads[i], bytes) {
                    (Read::Unparsed, Some(bytes)) if !bytes.is_empty() => {
                        Some(reader.scan(parsers, c, file, bytes, true))
                    }
                    (Read::Unparsed, _) => Some(reader.read(parsers, c, file, true)),
                    _ => None,
                };
                (i, r)
            },
        )
        .collect()
}

/// The name-driven selection of the files to parse (`super::prefilter`).
struct Selection<'a> {
    candidates: &'a [Candidate],
    file_speaker: &'a [Option<SpeakerId>],
    speaker_dirs: &'a [Option<PathBuf>],
    marked: Vec<bool>,
    selected: Vec<bool>,
    harvested: Vec<bool>,
    /// `.lua` files by normalised path, as the link step finds them.
    lua_by_path: HashMap<PathBuf, usize>,
    /// `.lua` files parsed files name (script paths, `@include`s).
    named: BTreeSet<usize>,
    /// Per selected file: what it gives the name pass.
    names: Vec<Option<FileNames>>,
    /// Normalised names scripts may be identified by, in any speaker.
    idents: BTreeSet<String>,
}

impl<'a> Selection<'a> {
    fn new(
        candidates: &'a [Candidate],
        file_speaker: &'a [Option<SpeakerId>],
        speaker_dirs: &'a [Option<PathBuf>],
    ) -> Selection<'a> {
        let lua_by_path = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.lang.is_script())
            .map(|(i, c)| (normalize_path(&c.path), i))
            .collect();
        Selection {
            candidates,
            file_speaker,
            speaker_dirs,
            marked: vec![false; speaker_dirs.len()],
            selected: vec![false; candidates.len()],
            harvested: vec![false; candidates.len()],
            lua_by_path,
            named: BTreeSet::new(),
            names: (0..candidates.len()).map(|_| None).collect(),
            idents: BTreeSet::new(),
        }
    }

    /// Selects the files that mark their speaker, and marks it.
    fn mark(&mut self, reads: &[Read]) {
        for (i, r) in reads.iter().enumerate() {
            if let (Read::Facts(_, _, m), Some(sp)) = (r, self.file_speaker[i]) {
                if m.speaker {
                    self.marked[sp] = true;
                    self.selected[i] = true;
                }
            }
        }
    }

    /// Holds the bytes of the unparsed files of newly marked speakers, for
    /// the name scan (empty when they cannot be read).
    fn hold(&self, reader: &Reader<'_>, reads: &[Read], held: &mut [Option<Vec<u8>>]) {
        let load: Vec<usize> = (0..reads.len())
            .filter(|&i| {
                matches!(reads[i], Read::Unparsed)
                    && held[i].is_none()
                    && self.file_speaker[i].is_some_and(|s| self.marked[s])
            })
            .collect();
        let loaded: Vec<(usize, Option<Vec<u8>>)> = load
            .par_iter()
            .map(|&i| (i, reader.files.bytes(&self.candidates[i])))
            .collect();
        for (i, b) in loaded {
            held[i] = b.or(Some(Vec::new()));
        }
    }

    fn name_lua(&mut self, path: &Path) {
        if let Some(&j) = self.lua_by_path.get(&normalize_path(path)) {
            self.named.insert(j);
            if let Some(tsp) = self.file_speaker[j] {
                self.marked[tsp] = true;
            }
        }
    }

    /// Takes in the facts of newly selected files: the script files they
    /// name (whose speakers they mark), the names they reference, the
    /// names scripts may be identified by.
    fn harvest(&mut self, reads: &[Read]) {
        for (i, r) in reads.iter().enumerate() {
            if self.harvested[i] || !self.selected[i] {
                continue;
            }
            let Read::Facts(_, facts, marks) = r else {
                continue;
            };
            self.harvested[i] = true;
            let Some(sp) = self.file_speaker[i] else {
                continue;
            };
            let dir = self.candidates[i].path.parent().map(Path::to_path_buf);
            for s in &facts.scripts {
                match &s.source {
                    ScriptSource::File {
                        path,
                        relative_to_file,
                        ..
                    } => {
                        let base = if *relative_to_file {
                            dir.clone()
                        } else {
                            self.speaker_dirs.get(sp).cloned().flatten()
                        };
                        if let Some(base) = base {
                            self.name_lua(&base.join(path));
                        }
                    }
                    ScriptSource::Inline(lua) => {
                        if let Some(dir) = &dir {
                            for (path, _) in &lua.includes {
                                self.name_lua(&dir.join(path));
                                self.name_lua(&dir.join(format!("{path}.lua")));
                            }
                        }
                    }
                }
            }
            self.names[i] = Some(FileNames::of(facts, marks.speaker));
            identity_names(facts, &mut self.idents);
        }
        // A `.lua` file a call may identify by its name marks its speaker.
        for (&_, &j) in &self.lua_by_path {
            let Some(tsp) = self.file_speaker[j] else {
                continue;
            };
            if self.marked[tsp] {
                continue;
            }
            let name = normalize_name(&script_name_from_stem(&self.candidates[j].stem()));
            if self.idents.contains(&name) {
                self.marked[tsp] = true;
            }
        }
    }

    /// The files of marked speakers to parse next.
    fn todo(&self, prefilter: &Prefilter, reads: &[Read], held: &[Option<Vec<u8>>]) -> Vec<usize> {
        // Per marked speaker: the names its selected files reference or
        // define (wrappers included, to a fixpoint).
        let n_sp = self.marked.len();
        let mut names: Vec<Option<Names>> = (0..n_sp).map(|_| None).collect();
        let pending = |i: usize| {
            !self.selected[i]
                && !matches!(reads[i], Read::Skipped(_))
                && self.file_speaker[i].is_some_and(|s| self.marked[s])
        };
        let mut wanted: BTreeSet<SpeakerId> = BTreeSet::new();
        for i in (0..reads.len()).filter(|&i| pending(i)) {
            if let Some(sp) = self.file_speaker[i] {
                wanted.insert(sp);
            }
        }
        for &sp in &wanted {
            let files: Vec<&FileNames> = (0..reads.len())
                .filter(|&i| self.selected[i] && self.file_speaker[i] == Some(sp))
                .filter_map(|i| self.names[i].as_ref())
                .collect();
            let all = speaker_needles(&files);
            names[sp] = Some(Names::new(&all));
        }
        let out: Vec<usize> = (0..reads.len())
            .into_par_iter()
            .filter(|&i| {
                if !pending(i) {
                    return false;
                }
                if self.candidates[i].lang.is_script() || self.named.contains(&i) {
                    return true;
                }
                let (bytes, fact_marks) = match &reads[i] {
                    Read::Facts(b, _, m) => (b.as_slice(), m.facts),
                    Read::Unparsed => {
                        let b = held[i].as_deref().unwrap_or(&[]);
                        (b, prefilter.fact_marks(self.candidates[i].lang, b))
                    }
                    Read::Skipped(_) => return false,
                };
                if fact_marks {
                    return true;
                }
                let sp = self.file_speaker[i].unwrap_or(0);
                names[sp].as_ref().is_some_and(|n| n.hit(bytes))
            })
            .collect();
        out
    }
}
