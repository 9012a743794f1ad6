//! The selection of the files to parse, to a fixpoint (its soundness
//! argument is in `super::prefilter`): first the files the prefilter
//! marks; then the files it marks `scoped` that can import from a module
//! with a client library in scope (`super::gate`), the `.lua` files parsed files name
//! or identify, and, per speaker, the host files that hold a name its
//! parsed files need or carry (`super::names`), until nothing new is
//! reached. Files are read in parallel, one set of parsers per worker.

use std::collections::{BTreeSet, HashMap};

use crate::hash::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::discover::Candidate;
use crate::extract::script_name_from_stem;
use crate::facts::{FileId, ScriptSource};
use crate::link::scripts::sha1_hex;
use crate::link::{normalize_name, normalize_path, Definers, SpeakerId};
use crate::parse::Parsers;

use super::cache::Stamp;
use super::gate::{gates, Gate};
use super::names::{speaker_names, words_in, FileNames, Names, Scan};
use super::read::{Read, Reader};
use super::session::{KeptNames, Named, NamesMemo, SharedNames};
use std::sync::Arc;

/// The bytes of a file not parsed yet that the selection read (empty when
/// they cannot be read), and their stamp for the cache's index.
type Held = Option<(Option<Stamp>, Vec<u8>)>;

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
    memo: Option<&NamesMemo>,
) -> (Vec<Read>, Vec<bool>, Definers) {
    let mut reads = first_reads(reader, candidates, parse_all);
    let fingerprint = reader.prefilter.fingerprint();
    let mut sel = Selection::new(candidates, file_speaker, speaker_dirs);
    if let Some(m) = memo {
        sel.last = m.take(fingerprint);
        sel.now = Some(KeptNames::new(fingerprint));
    }
    sel.select_marked(&reads);
    // Bytes of files not parsed yet that a name or a SHA1 may reach.
    let mut held: Vec<Held> = (0..reads.len()).map(|_| None).collect();
    loop {
        sel.harvest(reader, &reads);
        release_bytes(reader, candidates, &sel.selected, &mut reads);
        sel.name_speakers();
        sel.gate(&reads);
        sel.hold(reader, &reads, &mut held);
        sel.words_of_scoped(&reads, &held);
        let todo = sel.todo(&reads, &held);
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
    if let (Some(m), Some(now)) = (memo, sel.now.take()) {
        m.put(now);
    }
    let definers = sel.final_definers(&reads);
    if !parse_all {
        // Parsed ahead of the selection (`Reader::read`), and not selected:
        // read as the prefilter would have left it, and not parsed ahead
        // next time.
        for ((r, selected), c) in reads.iter_mut().zip(&sel.selected).zip(candidates) {
            if let (false, Read::Facts(_, _, m, _)) = (selected, &r) {
                *r = Read::Unparsed(None, m.scoped);
                if let Some(cache) = reader.cache {
                    cache.unparsed(&c.rel);
                }
            }
        }
    }
    (reads, sel.selected, definers)
}

/// Drops the bytes of the selected files on disk: the selection searches
/// only the files still pending, and a reporter reads a file again where
/// it needs its bytes (`analyze::file_table` keeps none of a file on
/// disk). A cold run held every parsed file's bytes until the link.
fn release_bytes(
    reader: &Reader<'_>,
    candidates: &[Candidate],
    selected: &[bool],
    reads: &mut [Read],
) {
    for ((r, &selected), c) in reads.iter_mut().zip(selected).zip(candidates) {
        if let (true, Read::Facts(bytes, ..)) = (selected, r) {
            if !bytes.is_empty() && reader.files.on_disk(c) {
                *bytes = Vec::new();
            }
        }
    }
}

/// Every candidate read and scanned; parsed when the prefilter marks it
/// (or with `parse_all`).
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
    held: &mut [Held],
) -> Vec<(usize, Option<Read>)> {
    let jobs: Vec<(usize, Held)> = todo.iter().map(|&i| (i, held[i].take())).collect();
    jobs.into_par_iter()
        .map_init(
            || Parsers::new().ok(),
            |parsers, (i, bytes)| {
                let (c, file) = (&candidates[i], i as FileId);
                let r = match (&reads[i], bytes) {
                    (Read::Unparsed(..), Some((stamp, bytes))) if !bytes.is_empty() => {
                        Some(reader.scan(parsers, c, file, bytes, true, stamp))
                    }
                    (Read::Unparsed(..), _) => Some(reader.read(parsers, c, file, true)),
                    _ => None,
                };
                (i, r)
            },
        )
        .collect()
}

/// The selection of the files to parse (`super::prefilter`).
struct Selection<'a> {
    candidates: &'a [Candidate],
    file_speaker: &'a [Option<SpeakerId>],
    speaker_dirs: &'a [Option<PathBuf>],
    selected: Vec<bool>,
    harvested: Vec<bool>,
    /// `.lua` files by normalised path, as the link step finds them.
    lua_by_path: HashMap<PathBuf, usize>,
    /// `.lua` files parsed files name (script paths, `@include`s).
    named: BTreeSet<usize>,
    /// Per selected file: what it gives the name pass.
    names: Vec<Option<SharedNames>>,
    /// Per speaker: the names its other host files are searched for, and
    /// whether a host file of it was harvested since they were made.
    speaker_names: Vec<Option<Arc<Named>>>,
    stale: Vec<bool>,
    /// Per speaker: how its files marked `Marks::scoped` can draw on its
    /// modules with a client library in scope (`super::gate`); made again
    /// when a harvested file states a module scope.
    gates: Vec<Option<Gate>>,
    gates_stale: bool,
    /// Per pending file marked `scoped` in a gated speaker: which words of
    /// the gates' vocabulary it holds, and the vocabulary's generation.
    words: Vec<Option<(u32, HashSet<String>)>>,
    vocabulary: (u32, HashSet<String>),
    /// Per speaker: how many times its names were made.
    generation: Vec<u32>,
    /// Per pending host file: what the search for its speaker's names
    /// found, at which generation of them, and whether its bytes were
    /// there; searched again only when either changed.
    scans: Vec<Option<(u32, bool, Scan)>>,
    /// The names the last run made, and this run's, kept for the next
    /// (a long-lived process; else none).
    last: KeptNames,
    now: Option<KeptNames>,
    /// Normalised names scripts may be identified by, in any speaker.
    idents: BTreeSet<String>,
    /// SHA1s scripts may be identified by.
    shas: BTreeSet<String>,
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
            selected: vec![false; candidates.len()],
            harvested: vec![false; candidates.len()],
            lua_by_path,
            named: BTreeSet::new(),
            names: (0..candidates.len()).map(|_| None).collect(),
            speaker_names: (0..speaker_dirs.len()).map(|_| None).collect(),
            stale: vec![false; speaker_dirs.len()],
            gates: (0..speaker_dirs.len()).map(|_| None).collect(),
            gates_stale: false,
            words: vec![None; candidates.len()],
            vocabulary: (0, HashSet::default()),
            generation: vec![0; speaker_dirs.len()],
            scans: vec![None; candidates.len()],
            last: KeptNames::default(),
            now: None,
            idents: BTreeSet::new(),
            shas: BTreeSet::new(),
        }
    }

    /// Selects the files the prefilter marks.
    fn select_marked(&mut self, reads: &[Read]) {
        for (i, r) in reads.iter().enumerate() {
            if let Read::Facts(_, _, m, _) = r {
                self.selected[i] |= m.parse();
            }
        }
    }

    fn name_lua(&mut self, path: &Path) {
        if let Some(&j) = self.lua_by_path.get(&normalize_path(path)) {
            self.named.insert(j);
        }
    }

    /// Takes in the facts of newly selected files: the script files they
    /// name, what they give the name pass (made in parallel, or the last
    /// run's for the same content), the names and SHA1s scripts may be
    /// identified by.
    fn harvest(&mut self, reader: &Reader<'_>, reads: &[Read]) {
        let fresh: Vec<usize> = (0..reads.len())
            .filter(|&i| {
                !self.harvested[i] && self.selected[i] && matches!(reads[i], Read::Facts(..))
            })
            .collect();
        let last = &self.last;
        let made: Vec<Option<SharedNames>> =
            fresh
                .par_iter()
                .map(|&i| {
                    let Read::Facts(_, facts, _, key) = &reads[i] else {
                        return None;
                    };
                    self.file_speaker[i]?;
                    let kept = key.and_then(|k| last.files.get(&k)).cloned();
                    Some(kept.unwrap_or_else(|| {
                        SharedNames::new(FileNames::of(facts, reader.prefilter))
                    }))
                })
                .collect();
        for (i, names) in fresh.into_iter().zip(made) {
            let Read::Facts(_, facts, _, key) = &reads[i] else {
                continue;
            };
            self.harvested[i] = true;
            let (Some(sp), Some(names)) = (self.file_speaker[i], names) else {
                continue;
            };
            self.name_scripts(i, sp, facts);
            self.gates_stale |= facts.scope.is_some();
            if let (Some(now), Some(k)) = (&mut self.now, key) {
                now.files.insert(*k, names.clone());
            }
            self.idents.extend(names.names.idents.iter().cloned());
            self.shas.extend(names.names.shas.iter().cloned());
            self.names[i] = Some(names);
            if !self.candidates[i].lang.is_script() {
                if let Some(stale) = self.stale.get_mut(sp) {
                    *stale = true;
                }
            }
        }
    }

    /// Takes in the script files one file names: by path, and by the
    /// `@include`s of its inline scripts.
    fn name_scripts(&mut self, i: usize, sp: SpeakerId, facts: &crate::facts::FileFacts) {
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
    }

    /// Per speaker with parsed host files: the names its other host files
    /// are searched for (and the script names its wrapper calls pass, kept
    /// in `idents`). Made again only for the speakers with newly harvested
    /// host files: the names are a function of those files' names alone.
    fn name_speakers(&mut self) {
        let n_sp = self.speaker_dirs.len();
        let mut files: Vec<Vec<SharedNames>> = (0..n_sp).map(|_| Vec::new()).collect();
        for (i, n) in self.names.iter().enumerate() {
            if let (Some(n), Some(sp)) = (n, self.file_speaker[i]) {
                if self.stale.get(sp) == Some(&true) && !self.candidates[i].lang.is_script() {
                    files[sp].push(n.clone());
                }
            }
        }
        let last = &self.last;
        let made: Vec<(SpeakerId, Vec<SharedNames>, Arc<Named>)> = files
            .into_iter()
            .enumerate()
            .filter(|(_, f)| !f.is_empty())
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|(sp, files)| {
                let kept = last.speakers.get(&files).cloned();
                let named = kept.unwrap_or_else(|| {
                    let names: Vec<&FileNames> = files.iter().map(|n| n.names.as_ref()).collect();
                    let s = speaker_names(&names);
                    let names = Names::new(&s.used, &s.defined);
                    Arc::new(Named {
                        names: (!names.is_empty()).then_some(names),
                        idents: s.idents,
                    })
                });
                (sp, files, named)
            })
            .collect();
        for (sp, files, named) in made {
            self.idents.extend(named.idents.iter().cloned());
            if let Some(now) = &mut self.now {
                now.speakers.insert(files, named.clone());
            }
            self.speaker_names[sp] = Some(named);
            self.generation[sp] += 1;
        }
        self.stale.iter_mut().for_each(|s| *s = false);
    }

    /// Makes the speakers' gates again over the files parsed by now.
    fn gate(&mut self, reads: &[Read]) {
        if !std::mem::take(&mut self.gates_stale) {
            return;
        }
        let parsed: Vec<(usize, &crate::facts::ModuleScope)> = reads
            .iter()
            .enumerate()
            .filter(|(i, _)| self.selected[*i])
            .filter_map(|(i, r)| match r {
                Read::Facts(_, f, _, _) => f.scope.as_ref().map(|s| (i, s)),
                _ => None,
            })
            .collect();
        self.gates = gates(
            self.candidates,
            self.file_speaker,
            self.speaker_dirs.len(),
            &parsed,
        );
        let vocabulary: HashSet<String> = self
            .gates
            .iter()
            .flatten()
            .flat_map(Gate::words)
            .map(str::to_string)
            .collect();
        if vocabulary != self.vocabulary.1 {
            self.vocabulary = (self.vocabulary.0 + 1, vocabulary);
        }
    }

    /// Whether file `i` is pending, marked `scoped`, in a gated speaker.
    fn gated(&self, reads: &[Read], i: usize) -> bool {
        let scoped = match &reads[i] {
            Read::Unparsed(_, scoped) => *scoped,
            Read::Facts(_, _, m, _) => m.scoped,
            Read::Skipped(_) => false,
        };
        scoped
            && self.pending(reads, i)
            && self.file_speaker[i]
                .is_some_and(|sp| self.gates.get(sp).is_some_and(Option::is_some))
    }

    /// Which words of the gates' vocabulary the gated files hold, for those
    /// not looked at since it changed: from the identifiers the cache's
    /// index holds, else their bytes (none when they cannot be read).
    fn words_of_scoped(&mut self, reads: &[Read], held: &[Held]) {
        let (generation, vocabulary) = (self.vocabulary.0, &self.vocabulary.1);
        let todo: Vec<usize> = (0..reads.len())
            .filter(|&i| {
                self.words[i].as_ref().is_none_or(|(g, _)| *g != generation) && self.gated(reads, i)
            })
            .collect();
        let made: Vec<(usize, Option<HashSet<String>>)> = todo
            .into_par_iter()
            .map(|i| {
                let words = match (&reads[i], &held[i]) {
                    (Read::Facts(b, _, _, _), _) => Some(words_in(b, vocabulary)),
                    (Read::Unparsed(Some(ids), _), _) => Some(ids.words_in(vocabulary)),
                    (_, Some((_, b))) if !b.is_empty() => Some(words_in(b, vocabulary)),
                    _ => None,
                };
                (i, words)
            })
            .collect();
        for (i, w) in made {
            self.words[i] = w.map(|w| (generation, w));
        }
    }

    /// Whether the gate of speaker `sp` admits file `i` (a file whose
    /// identifiers are not known is admitted).
    fn admits(&self, i: usize, sp: SpeakerId) -> bool {
        let Some(gate) = self.gates.get(sp).and_then(Option::as_ref) else {
            return false;
        };
        let rel = normalize_path(Path::new(&self.candidates[i].rel));
        match &self.words[i] {
            Some((_, w)) => gate.admits(&rel, |n| w.contains(n)),
            None => true,
        }
    }

    fn pending(&self, reads: &[Read], i: usize) -> bool {
        !self.selected[i] && !matches!(reads[i], Read::Skipped(_))
    }

    /// Holds the bytes of the unparsed files a name pass searches (host
    /// files of speakers with names, unless the identifiers the cache's
    /// index holds for them tell) or a SHA1 may identify (`.lua` files);
    /// empty when they cannot be read.
    fn hold(&self, reader: &Reader<'_>, reads: &[Read], held: &mut [Held]) {
        let names = &self.speaker_names;
        let load: Vec<usize> = (0..reads.len())
            .filter(|&i| {
                let Read::Unparsed(idents, _) = &reads[i] else {
                    return false;
                };
                held[i].is_none()
                    && !self.selected[i]
                    && if self.gated(reads, i) {
                        idents.is_none()
                    } else if self.candidates[i].lang.is_script() {
                        !self.shas.is_empty()
                    } else {
                        let n =
                            self.file_speaker[i].and_then(|s| names[s].as_ref()?.names.as_ref());
                        n.is_some_and(|n| idents.as_ref().is_none_or(|ids| n.needs_bytes(ids)))
                    }
            })
            .collect();
        let loaded: Vec<(usize, Held)> = load
            .par_iter()
            .map(|&i| {
                let c = &self.candidates[i];
                let fresh = matches!(reads[i], Read::Unparsed(None, _));
                let (stamp, b) = reader.hold(c, fresh && !c.lang.is_script());
                (i, Some((stamp, b.unwrap_or_default())))
            })
            .collect();
        for (i, h) in loaded {
            held[i] = h;
        }
    }

    /// The files to parse next: the script files parsed files name or
    /// identify, the scoped files a gate admits, and the host files whose
    /// search for their speaker's names decides so ([`Selection::decide`]).
    /// A host file is searched again only once the names or its bytes
    /// changed (a round rebuilds only the names of the speakers it
    /// harvested from).
    fn todo(&mut self, reads: &[Read], held: &[Held]) -> Vec<usize> {
        let names = &self.speaker_names;
        let verdicts: Vec<(usize, Verdict)> = (0..reads.len())
            .into_par_iter()
            .filter_map(|i| {
                if !self.pending(reads, i) {
                    return None;
                }
                let bytes = match &reads[i] {
                    Read::Facts(b, _, _, _) => Some(b.as_slice()),
                    _ => held[i].as_ref().map(|(_, b)| b.as_slice()),
                };
                let c = &self.candidates[i];
                if c.lang.is_script() {
                    let hit = self.named.contains(&i)
                        || self
                            .idents
                            .contains(&normalize_name(&script_name_from_stem(&c.stem())))
                        || (!self.shas.is_empty()
                            && bytes
                                .is_some_and(|b| self.shas.contains(&lua_file_sha1(c.lang, b))));
                    return hit.then_some((i, Verdict::Hit));
                }
                let sp = self.file_speaker[i]?;
                let scoped = match &reads[i] {
                    Read::Unparsed(_, scoped) => *scoped,
                    Read::Facts(_, _, m, _) => m.scoped,
                    Read::Skipped(_) => false,
                };
                if scoped && self.admits(i, sp) {
                    return Some((i, Verdict::Hit));
                }
                let n = names[sp].as_ref()?.names.as_ref()?;
                let now = (self.generation[sp], bytes.is_some());
                if let Some((g, b, _)) = &self.scans[i] {
                    if (*g, *b) == now {
                        return Some((i, Verdict::Kept));
                    }
                }
                let scan = match (bytes, &reads[i]) {
                    (Some(b), _) => n.scan(c.lang, b),
                    (None, Read::Unparsed(Some(ids), _)) => n.scan_in(ids).unwrap_or_default(),
                    _ => Scan::default(),
                };
                Some((i, Verdict::Scanned(now.0, now.1, scan)))
            })
            .collect();
        let mut todo = Vec::new();
        let mut searched = Vec::new();
        for (i, v) in verdicts {
            match v {
                Verdict::Hit => todo.push(i),
                Verdict::Kept => searched.push(i),
                Verdict::Scanned(generation, bytes, scan) => {
                    self.scans[i] = Some((generation, bytes, scan));
                    searched.push(i);
                }
            }
        }
        let counts = self.definers(reads);
        todo.extend(searched.into_iter().filter(|&i| self.decide(i, &counts)));
        todo.sort_unstable();
        todo
    }

    /// Per speaker with names: how many of its files define each bounded
    /// name (by index into `Names::bounded`): the parsed ones by their
    /// facts, the pending ones by their last search.
    fn definers(&self, reads: &[Read]) -> Vec<HashMap<u32, u32>> {
        let mut counts: Vec<HashMap<u32, u32>> = vec![HashMap::new(); self.speaker_dirs.len()];
        let bounded: Vec<Option<HashMap<&str, u32>>> = self
            .speaker_names
            .iter()
            .map(|n| {
                let n = n.as_ref()?.names.as_ref()?;
                Some(
                    n.bounded
                        .iter()
                        .enumerate()
                        .map(|(k, (name, _))| (name.as_str(), k as u32))
                        .collect(),
                )
            })
            .collect();
        for (i, fnames) in self.names.iter().enumerate() {
            let (Some(fnames), Some(sp)) = (fnames, self.file_speaker[i]) else {
                continue;
            };
            let Some(Some(ids)) = bounded.get(sp) else {
                continue;
            };
            for d in &fnames.names.defined {
                if let Some(k) = ids.get(d.as_str()) {
                    *counts[sp].entry(*k).or_default() += 1;
                }
            }
        }
        for (sp, unparsed) in self.unparsed_definers(reads).into_iter().enumerate() {
            for (d, n) in unparsed {
                *counts[sp].entry(d).or_default() += n;
            }
        }
        counts
    }

    /// Per speaker: how many of its pending files define each bounded
    /// name, by their search at the current generation of its names.
    fn unparsed_definers(&self, reads: &[Read]) -> Vec<HashMap<u32, u32>> {
        let mut counts: Vec<HashMap<u32, u32>> = vec![HashMap::new(); self.speaker_dirs.len()];
        for (i, scan) in self.scans.iter().enumerate() {
            let (Some((g, _, scan)), Some(sp)) = (scan, self.file_speaker[i]) else {
                continue;
            };
            if self.pending(reads, i) && self.generation.get(sp) == Some(g) {
                for d in &scan.defs {
                    *counts[sp].entry(*d).or_default() += 1;
                }
            }
        }
        counts
    }

    /// Whether a pending host file is parsed for what its search found: a
    /// name it holds wherever it is, or a bounded name it defines where a
    /// reference may pick it (in a module its words or path name), or
    /// that no other file of its speaker defines (the link picks a lone
    /// definition wherever it is).
    fn decide(&self, i: usize, counts: &[HashMap<u32, u32>]) -> bool {
        let (Some((_, _, scan)), Some(sp)) = (&self.scans[i], self.file_speaker[i]) else {
            return false;
        };
        if scan.hit {
            return true;
        }
        let Some(n) = self.speaker_names[sp]
            .as_ref()
            .and_then(|n| n.names.as_ref())
        else {
            return false;
        };
        let path_words: Vec<u32> = path_words(&self.candidates[i].rel)
            .filter_map(|w| n.word_id(w))
            .collect();
        scan.defs.iter().any(|d| {
            let lone = counts[sp].get(d).is_none_or(|c| *c <= 1);
            lone || n.bounded.get(*d as usize).is_some_and(|(_, within)| {
                within.words.iter().any(|w| {
                    n.word_id(w).is_some_and(|id| {
                        scan.words.binary_search(&id).is_ok() || path_words.contains(&id)
                    })
                })
            })
        })
    }
}

impl Selection<'_> {
    /// For the link: per speaker, the names some of whose defining files
    /// were left unparsed, with how many files define each
    /// (`crate::link::Definers`). Every other name has all its definitions
    /// parsed, and the link picks among them as it finds them.
    fn final_definers(&self, reads: &[Read]) -> Definers {
        let counts = self.definers(reads);
        let unparsed = self.unparsed_definers(reads);
        let mut out = crate::hash::HashMap::default();
        for (sp, named) in self.speaker_names.iter().enumerate() {
            let Some(n) = named.as_ref().and_then(|n| n.names.as_ref()) else {
                continue;
            };
            let m: crate::hash::HashMap<String, u32> = unparsed[sp]
                .keys()
                .filter_map(|d| {
                    let total = counts[sp].get(d).copied().unwrap_or(0);
                    let (name, _) = n.bounded.get(*d as usize)?;
                    (total > 1).then(|| (name.clone(), total))
                })
                .collect();
            if !m.is_empty() {
                out.insert(sp, m);
            }
        }
        Definers(out)
    }
}

/// The directory names and the stem of a relative path: the words a
/// module named by its file's place may be named by.
fn path_words(rel: &str) -> impl Iterator<Item = &str> {
    rel.split(['/', '\\'])
        .map(|c| c.split('.').next().unwrap_or(c))
        .filter(|c| !c.is_empty())
}

/// What a round's search made of one pending file.
enum Verdict {
    Hit,
    /// Searched for these names before, its bytes as they were.
    Kept,
    /// Searched, at this generation of names and presence of bytes.
    Scanned(u32, bool, Scan),
}

/// The SHA1 of a script file's text as the link step computes it (the
/// text as its language reads it: `crate::extract::readable`).
fn lua_file_sha1(lang: crate::facts::Lang, bytes: &[u8]) -> String {
    sha1_hex(&String::from_utf8_lossy(&crate::extract::readable(
        lang, bytes,
    )))
}
