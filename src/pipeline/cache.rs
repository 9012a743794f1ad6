//! The facts cache: what a run learned of each file, kept for the next run
//! so that unchanged files are neither read nor parsed again.
//!
//! It lives in a directory of its own (`--cache-dir`, else
//! `$XDG_CACHE_HOME/wirelint`, else `~/.cache/wirelint`), never under the
//! scanned root unless asked, in a subdirectory per build of wirelint
//! (`WIRELINT_BUILD_ID`, a hash of the sources and `Cargo.lock` made by
//! `build.rs`): a new version never reads an older one's entries. Two
//! levels:
//!
//! - **the index**, one file per scanned root and prefilter (its contract's
//!   markers): for each file, its size and modification time, what the
//!   prefilter found in it, and the hash of its bytes when it was parsed.
//!   and, for a file the name pass searched, its identifiers
//!   (`super::names::Idents`). A file whose size and time match, and whose time is older than the
//!   run that recorded it by a margin (a file changed in the same second
//!   as it was recorded is read again), is not read: its marks, hash and
//!   identifiers are the index's;
//! - **the facts**, per content: the SHA1 of the bytes, the language and
//!   the file's stem (extraction depends on nothing else) name the facts
//!   extracted from them, stored without file ids
//!   (`crate::facts::read_in_file` puts them back). The facts a run
//!   stores go to one file, its pack (`pack`); the index says, for each
//!   parsed file, which pack holds its facts and where. An editor's
//!   unsaved buffer (`--stdin-filename`, `wirelint server`) writes none:
//!   its facts stay in the memory of the process that parsed it.
//!
//! What no run wrote for a month, and no index names, is removed, at
//! most once a day (`prune`): the cache does not grow without bound.
//!
//! Every write goes to a temporary file in the same directory and is
//! renamed into place (a pack before the index that names it), so
//! concurrent runs see a whole file or none (the last index written wins;
//! an entry it lacks is only a miss). An entry that cannot be read back
//! (wrong magic, wrong checksum, a format that no longer decodes) is a
//! miss and is written again. The cache changes timing, never output:
//! `tests/cache.rs` compares cold and warm runs.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

use crate::facts::{FileFacts, FileId, Lang};

use super::names::Idents;
use super::prefilter::Marks;

mod pack;
mod prune;
pub mod results;

use pack::Loc;

/// Magic bytes that open every cache file, with the format's version.
const MAGIC: &[u8; 4] = b"WLC1";

/// A file changed less than this before the run that recorded it is read
/// again (its time may not tell a later change in the same tick).
const RACY: Duration = Duration::from_secs(2);

/// What the index knows of one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    size: u64,
    /// Modification time, in nanoseconds since the epoch.
    mtime: u64,
    /// When the run that recorded it started, same unit.
    seen: u64,
    speaks: bool,
    scoped: bool,
    keys: bool,
    suppress: bool,
    /// SHA1 of the bytes, for a parsed file.
    hash: Option<[u8; 20]>,
    /// Its identifiers, for a file the name pass searched.
    idents: Option<Arc<Idents>>,
    /// Where its stored facts are, for a parsed file.
    facts: Option<Loc>,
}

impl Entry {
    pub fn marks(&self) -> Marks {
        Marks {
            speaks: self.speaks,
            scoped: self.scoped,
            keys: self.keys,
            suppress: self.suppress,
        }
    }

    pub fn hash(&self) -> Option<[u8; 20]> {
        self.hash
    }

    pub fn idents(&self) -> Option<Arc<Idents>> {
        self.idents.clone()
    }
}

/// The index's entries, by path relative to the root.
type Entries = Arc<HashMap<String, Entry>>;

/// A file's size and modification time, as the index compares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    size: u64,
    mtime: u64,
}

impl Stamp {
    pub fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        Some(Stamp {
            size: meta.len(),
            mtime: nanos(meta.modified().ok()?)?,
        })
    }

    pub fn size(&self) -> u64 {
        self.size
    }
}

fn nanos(t: SystemTime) -> Option<u64> {
    u64::try_from(t.duration_since(UNIX_EPOCH).ok()?.as_nanos()).ok()
}

/// Facts already decoded, kept in memory across runs by a long-lived
/// process (`wirelint server`): a hit skips reading and decoding the
/// entry. Keyed as the stored facts are, with the file id they were read
/// into (their spans carry it; another id is a miss). It holds what the
/// last run took from the cache, so it never outgrows one workspace; and
/// the last run's index, so that it is not read and decoded again (its
/// entries are checked against the files as the disk's are).
#[derive(Default)]
pub struct Memo {
    /// The index the last run saved, by its path.
    index: Mutex<Option<(PathBuf, Entries)>>,
    /// What the last run used.
    last: Mutex<MemoFacts>,
    /// What this run used so far.
    now: Mutex<MemoFacts>,
}

/// Facts by their key, each with the file it was read in.
type MemoFacts = HashMap<[u8; 20], (FileId, Arc<FileFacts>)>;

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.last.lock().map(|m| m.len()).unwrap_or(0);
        write!(f, "Memo({n} files)")
    }
}

impl Memo {
    fn get(&self, key: &FactsKey, file: FileId) -> Option<Arc<FileFacts>> {
        let (id, facts) = self.last.lock().ok()?.remove(&key.0)?;
        if id != file {
            return None;
        }
        let out = facts.clone();
        self.put(key, file, facts);
        Some(out)
    }

    fn put(&self, key: &FactsKey, file: FileId, facts: Arc<FileFacts>) {
        if let Ok(mut now) = self.now.lock() {
            now.insert(key.0, (file, facts));
        }
    }

    /// The run is over: what it used is what the next one may reuse.
    fn turn(&self, index_path: &Path, index: Entries) {
        if let (Ok(mut last), Ok(mut now)) = (self.last.lock(), self.now.lock()) {
            *last = std::mem::take(&mut *now);
        }
        if let Ok(mut i) = self.index.lock() {
            *i = Some((index_path.to_path_buf(), index));
        }
    }

    /// The index the last run saved at `path`.
    fn index(&self, path: &Path) -> Option<Entries> {
        let i = self.index.lock().ok()?;
        i.as_ref()
            .filter(|(p, _)| p == path)
            .map(|(_, m)| m.clone())
    }
}

/// One run's view of the cache.
pub struct Cache {
    /// The cache directory, and this build's directory in it.
    base: PathBuf,
    dir: PathBuf,
    /// The scanned root (canonical), whose files the index names.
    root: PathBuf,
    index_path: PathBuf,
    /// The index as the run found it, by path relative to the root.
    old: Entries,
    /// What this run recorded.
    new: Mutex<HashMap<String, Entry>>,
    started: u64,
    memo: Option<Arc<Memo>>,
    /// Where the facts the index names are, by key.
    locs: HashMap<[u8; 20], Loc>,
    /// The pack this run writes, once it stores facts.
    pack: Mutex<Packing>,
    /// Where this run stored facts, by key.
    written: Mutex<HashMap<[u8; 20], Loc>>,
}

/// The state of a run's pack.
enum Packing {
    Unopened,
    Open(pack::Writer),
    /// It could not be created: this run stores nothing.
    Failed,
}

#[derive(Deserialize, Default)]
struct Index {
    entries: Vec<(String, Entry)>,
}

/// [`Index`], as written.
#[derive(Serialize)]
struct IndexRef<'a> {
    entries: Vec<(&'a String, &'a Entry)>,
}

impl Cache {
    /// The cache under `base` for files under `root` read with a prefilter
    /// of `fingerprint`; `None` when its directory cannot be made.
    pub fn open(base: &Path, root: &Path, fingerprint: &str) -> Option<Cache> {
        Cache::open_with(base, root, fingerprint, None)
    }

    /// [`Cache::open`], with facts and the index kept in memory across
    /// runs.
    pub fn open_with(
        base: &Path,
        root: &Path,
        fingerprint: &str,
        memo: Option<Arc<Memo>>,
    ) -> Option<Cache> {
        let dir = base.join(env!("WIRELINT_BUILD_ID"));
        std::fs::create_dir_all(pack::dir(&dir)).ok()?;
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut h = Sha1::new();
        h.update(root.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(fingerprint.as_bytes());
        let index_path = dir.join(format!("index-{}", hex(&h.finalize())));
        let old = memo
            .as_ref()
            .and_then(|m| m.index(&index_path))
            .unwrap_or_else(|| {
                Arc::new(
                    read_entry(&index_path)
                        .and_then(|b| postcard::from_bytes::<Index>(&b).ok())
                        .map(|i| i.entries.into_iter().collect())
                        .unwrap_or_default(),
                )
            });
        let locs = old
            .values()
            .filter_map(|e| e.facts)
            .map(|l| (l.key, l))
            .collect();
        Some(Cache {
            base: base.to_path_buf(),
            dir,
            root,
            index_path,
            old,
            new: Mutex::new(HashMap::new()),
            started: nanos(SystemTime::now()).unwrap_or(0),
            memo,
            locs,
            pack: Mutex::new(Packing::Unopened),
            written: Mutex::new(HashMap::new()),
        })
    }

    /// What the index knows of a file, if its stamp still holds.
    pub fn lookup(&self, rel: &str, stamp: Stamp) -> Option<Entry> {
        let e = self.old.get(rel)?;
        let racy = RACY.as_nanos() as u64;
        (e.size == stamp.size && e.mtime == stamp.mtime && e.mtime.saturating_add(racy) < e.seen)
            .then(|| e.clone())
    }

    /// Whether the run that wrote the index parsed this file, whatever its
    /// stamp now.
    pub fn parsed_last(&self, rel: &str) -> bool {
        self.old.get(rel).is_some_and(|e| e.hash.is_some())
    }

    /// Records that this run's parse of a file was not needed (parsed
    /// ahead, and not selected): the next run does not parse it ahead.
    pub fn unparsed(&self, rel: &str) {
        if let Ok(mut new) = self.new.lock() {
            if let Some(e) = new.get_mut(rel) {
                e.hash = None;
                e.facts = None;
            }
        }
    }

    /// Records what this run found in a file (with the identifiers this
    /// run recorded or kept of it, if of the same size and time): its
    /// bytes' hash and the key of its stored facts, for a parsed file.
    pub fn record(
        &self,
        rel: &str,
        stamp: Stamp,
        marks: Marks,
        hash: Option<[u8; 20]>,
        key: Option<&FactsKey>,
    ) {
        let facts = key.and_then(|k| self.loc(k));
        let Ok(mut new) = self.new.lock() else {
            return;
        };
        let idents = new
            .get(rel)
            .filter(|e| e.size == stamp.size && e.mtime == stamp.mtime)
            .and_then(|e| e.idents.clone());
        let e = Entry {
            size: stamp.size,
            mtime: stamp.mtime,
            seen: self.started,
            speaks: marks.speaks,
            scoped: marks.scoped,
            keys: marks.keys,
            suppress: marks.suppress,
            hash,
            idents,
            facts,
        };
        new.insert(rel.to_string(), e);
    }

    /// Carries an entry the run trusted into the next index as it was.
    pub fn keep(&self, rel: &str, e: Entry) {
        if let Ok(mut new) = self.new.lock() {
            new.insert(rel.to_string(), e);
        }
    }

    /// Adds a file's identifiers to what this run recorded or kept of it,
    /// if that is of the same size and time.
    pub fn record_idents(&self, rel: &str, stamp: Stamp, idents: Idents) {
        if let Ok(mut new) = self.new.lock() {
            if let Some(e) = new.get_mut(rel) {
                if e.size == stamp.size && e.mtime == stamp.mtime {
                    e.idents = Some(Arc::new(idents));
                }
            }
        }
    }

    /// The facts stored for these bytes, read into `file`.
    pub fn facts(&self, key: &FactsKey, file: FileId) -> Option<Arc<FileFacts>> {
        if let Some(f) = self.memo.as_ref().and_then(|m| m.get(key, file)) {
            return Some(f);
        }
        let bytes = self.read_facts(&self.loc(key)?)?;
        let facts: Arc<FileFacts> = Arc::new(crate::facts::read_in_file(file, || {
            postcard::from_bytes(&bytes).ok()
        })?);
        if let Some(m) = &self.memo {
            m.put(key, file, facts.clone());
        }
        Some(facts)
    }

    /// Keeps the facts of these bytes for the next run of this process
    /// only (its memory), never on disk: an editor's unsaved buffer.
    pub fn remember_facts(&self, key: &FactsKey, file: FileId, facts: Arc<FileFacts>) {
        if let Some(m) = &self.memo {
            m.put(key, file, facts);
        }
    }

    /// Stores the facts of these bytes (errors are ignored: a miss later).
    pub fn store_facts(&self, key: &FactsKey, facts: &FileFacts) {
        if let Ok(bytes) = postcard::to_stdvec(facts) {
            self.store_encoded(key, &bytes);
        }
    }

    /// Stores facts [`compacted`] encoded, in this run's pack.
    pub fn store_encoded(&self, key: &FactsKey, encoded: &[u8]) {
        let Ok(mut packing) = self.pack.lock() else {
            return;
        };
        if let Packing::Unopened = *packing {
            *packing = match pack::Writer::create(&self.dir, self.started) {
                Some(w) => Packing::Open(w),
                None => Packing::Failed,
            };
        }
        let Packing::Open(w) = &mut *packing else {
            return;
        };
        if let (Some(loc), Ok(mut written)) = (w.append(key.0, encoded), self.written.lock()) {
            written.insert(key.0, loc);
        }
    }

    /// Where the facts of this key are: stored by this run, or named by
    /// the index.
    fn loc(&self, key: &FactsKey) -> Option<Loc> {
        let written = self.written.lock().ok()?.get(&key.0).copied();
        written.or_else(|| self.locs.get(&key.0).copied())
    }

    /// The encoded facts at `loc`: in this run's pack, or a saved one.
    fn read_facts(&self, loc: &Loc) -> Option<Vec<u8>> {
        let path = match &*self.pack.lock().ok()? {
            Packing::Open(w) if w.id() == loc.pack => w.reading_path().to_path_buf(),
            _ => pack::path(&self.dir, loc.pack),
        };
        pack::read(&path, loc)
    }

    /// Renames this run's pack into place; the new entries whose facts it
    /// holds lose them when that fails.
    fn finish_pack(&self, new: &mut HashMap<String, Entry>) {
        let Ok(mut packing) = self.pack.lock() else {
            return;
        };
        let Packing::Open(w) = std::mem::replace(&mut *packing, Packing::Failed) else {
            return;
        };
        let id = w.id();
        if !w.finish(&self.dir) {
            for e in new.values_mut() {
                if e.facts.is_some_and(|l| l.pack == id) {
                    e.facts = None;
                }
            }
        }
    }

    /// Writes the index: the entries found, with this run's over them;
    /// nothing when this run changed none. The day's prune (`prune`) also
    /// drops the entries of files gone from the root.
    pub fn save(self) {
        let pruned = prune::maybe(&self.base, &self.dir, SystemTime::now());
        let mut new = std::mem::take(&mut *self.new.lock().unwrap_or_else(|p| p.into_inner()));
        self.finish_pack(&mut new);
        if !pruned && new.iter().all(|(k, e)| self.old.get(k) == Some(e)) {
            if let Some(m) = &self.memo {
                m.turn(&self.index_path, self.old);
            }
            return;
        }
        let mut all = Arc::unwrap_or_clone(self.old);
        all.extend(new);
        if pruned {
            let root = &self.root;
            all.retain(|rel, _| {
                !std::fs::symlink_metadata(root.join(rel))
                    .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
            });
        }
        let mut entries: Vec<(&String, &Entry)> = all.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        if let Ok(bytes) = postcard::to_stdvec(&IndexRef { entries }) {
            write_entry(&self.index_path, &bytes);
        }
        if let Some(m) = &self.memo {
            m.turn(&self.index_path, Arc::new(all));
        }
    }
}

/// What names one file's stored facts: the hash of its bytes, its
/// language and its stem.
pub struct FactsKey([u8; 20]);

impl FactsKey {
    pub fn new(content: &[u8; 20], lang: Lang, stem: &str) -> FactsKey {
        let mut h = Sha1::new();
        h.update(content);
        h.update(lang.name().as_bytes());
        h.update([0]);
        h.update(stem.as_bytes());
        FactsKey(h.finalize().into())
    }

    pub fn bytes(&self) -> [u8; 20] {
        self.0
    }
}

/// Facts as an extractor built them, read back from the encoding the
/// cache stores, with that encoding (`None` where it cannot be made: the
/// facts as they were). An extractor grows its vectors and strings as it
/// goes (a vector of one value holds room for four), and a file's facts
/// are kept until the end of the link; read back, each holds what it
/// needs: a cold run of the first 32 rows of the real corpus peaks
/// 23 MiB lower (`docs/performance.md`), for one decoding per parsed
/// file.
pub fn compacted(facts: FileFacts, file: FileId) -> (FileFacts, Option<Vec<u8>>) {
    let Ok(bytes) = postcard::to_stdvec(&facts) else {
        return (facts, None);
    };
    match crate::facts::read_in_file(file, || {
        crate::memory::kept(|| postcard::from_bytes::<FileFacts>(&bytes).ok())
    }) {
        Some(back) => (back, Some(bytes)),
        None => (facts, None),
    }
}

/// The SHA1 of a file's bytes.
pub fn content_hash(bytes: &[u8]) -> [u8; 20] {
    Sha1::digest(bytes).into()
}

/// A value stored under `base` by a name made of `parts` (hashed), for
/// this build: what a pure function of those parts gave (the findings of
/// a git commit, `crate::scope`). `None` when it is not stored or is
/// damaged.
pub fn load_value(base: &Path, parts: &[&[u8]]) -> Option<Vec<u8>> {
    read_entry(&value_path(base, parts))
}

/// Stores a value for [`load_value`] (errors are ignored: a miss later).
pub fn store_value(base: &Path, parts: &[&[u8]], payload: &[u8]) {
    write_entry(&value_path(base, parts), payload);
}

fn value_path(base: &Path, parts: &[&[u8]]) -> PathBuf {
    let mut h = Sha1::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    base.join(env!("WIRELINT_BUILD_ID"))
        .join("values")
        .join(hex(&h.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A cache file's payload: after [`MAGIC`] and the payload's SHA1.
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = std::fs::read(path).ok()?;
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    if rest.len() < 20 {
        return None;
    }
    let (sum, payload) = rest.split_at(20);
    if Sha1::digest(payload).as_slice() != sum {
        return None;
    }
    // The payload in place: the header is dropped, the bytes not copied.
    bytes.drain(..MAGIC.len() + 20);
    Some(bytes)
}

/// Writes a cache file whole: to a temporary file beside it, then renamed
/// over it.
fn write_entry(path: &Path, payload: &[u8]) {
    let Some(dir) = path.parent() else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!(
        ".tmp-{}-{:?}-{}",
        std::process::id(),
        std::thread::current().id(),
        nanos(SystemTime::now()).unwrap_or(0)
    ));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(MAGIC)?;
        f.write_all(&Sha1::digest(payload))?;
        f.write_all(payload)
    });
    if written.is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The cache directory a run uses when none is given:
/// `$XDG_CACHE_HOME/wirelint`, else `$HOME/.cache/wirelint`.
pub fn default_dir() -> Option<PathBuf> {
    let from = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    from("XDG_CACHE_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| from("HOME").map(|h| h.join(".cache")))
        .map(|d| d.join("wirelint"))
}

/// [`default_dir`], unless it lies inside `root`: the cache is never
/// written into the tree under review.
pub fn default_dir_outside(root: &Path) -> Option<PathBuf> {
    let dir = default_dir()?;
    let root = std::fs::canonicalize(root).ok()?;
    (!inside(&dir, &root)).then_some(dir)
}

/// Whether `dir`, its links resolved (those of its nearest ancestor that
/// exists, when it does not yet), lies inside the canonical directory
/// `tree`. A `dir` that cannot be resolved so (a `..` in the part that
/// does not exist yet) counts as inside.
pub fn inside(dir: &Path, tree: &Path) -> bool {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut at = dir.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            let whole: PathBuf = rest.iter().rev().fold(real, |p, c| p.join(c));
            return whole.starts_with(tree);
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                at = parent;
            }
            _ => return true,
        }
    }
}

#[cfg(test)]
mod tests;
