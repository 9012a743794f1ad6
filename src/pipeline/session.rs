//! What a long-lived process (`wirelint server`) keeps between its runs
//! besides the facts (`super::cache::Memo`): the files discovery found
//! (`super::files::Discovered`), until it is told the file list changed,
//! what the name pass made of unchanged files ([`NamesMemo`]), and what the
//! last link kept per speaker (`crate::link::LinkMemo`).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use super::names::{FileNames, Names};
use crate::parse::OldTree;

/// Passed to each run as `Options::session`.
#[derive(Debug, Default)]
pub struct Session {
    pub discovered: super::files::Discovered,
    pub names: NamesMemo,
    pub link: crate::link::LinkMemo,
    pub trees: BufferTrees,
}

/// The last tree of each open buffer, by path, to parse its next version
/// incrementally (`crate::parse::Parsers::parse_bounded_from`). Only the
/// buffers of the last run are kept.
#[derive(Default)]
pub struct BufferTrees {
    last: Mutex<HashMap<String, Arc<OldTree>>>,
    now: Mutex<HashMap<String, Arc<OldTree>>>,
}

impl std::fmt::Debug for BufferTrees {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.last.lock().map(|k| k.len()).unwrap_or(0);
        write!(f, "BufferTrees({n} buffers)")
    }
}

impl BufferTrees {
    /// The last run's tree of the buffer at `rel`.
    pub(crate) fn get(&self, rel: &str) -> Option<Arc<OldTree>> {
        self.last.lock().ok()?.get(rel).cloned()
    }

    /// The tree of the buffer at `rel` for the next run.
    pub(crate) fn keep(&self, rel: &str, tree: Arc<OldTree>) {
        if let Ok(mut now) = self.now.lock() {
            now.insert(rel.to_string(), tree);
        }
    }

    /// This run's trees become the last run's.
    pub(crate) fn turn(&self) {
        let now = self.now.lock().map(|mut n| std::mem::take(&mut *n));
        if let (Ok(now), Ok(mut last)) = (now, self.last.lock()) {
            *last = now;
        }
    }
}

/// The key of a file's stored facts (`super::cache::FactsKey`): its bytes,
/// language and stem.
pub(crate) type ContentKey = [u8; 20];

/// What the name pass of one speaker made of a list of files: the names
/// its other files are searched for, and the script names its wrapper
/// calls pass.
pub(crate) struct Named {
    pub names: Option<Names>,
    pub idents: BTreeSet<String>,
}

/// A file's names, shared, with their hash made once, when first asked
/// (only a long-lived process keys anything by it): a speaker's key hashes
/// as its files' hashes, and compares by pointer first (a file whose names
/// were kept is the same allocation), then by content.
#[derive(Clone)]
pub(crate) struct SharedNames {
    pub names: Arc<FileNames>,
    hash: Arc<OnceLock<u64>>,
}

impl SharedNames {
    pub(crate) fn new(names: FileNames) -> SharedNames {
        SharedNames {
            names: Arc::new(names),
            hash: Arc::default(),
        }
    }

    fn hash(&self) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault};
        *self.hash.get_or_init(|| {
            BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
                .hash_one(&*self.names)
        })
    }
}

impl PartialEq for SharedNames {
    fn eq(&self, other: &SharedNames) -> bool {
        Arc::ptr_eq(&self.names, &other.names)
            || (self.hash() == other.hash() && self.names == other.names)
    }
}

impl Eq for SharedNames {}

impl std::hash::Hash for SharedNames {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(SharedNames::hash(self));
    }
}

/// What the name pass made in the last run, by content: each file's names
/// ([`FileNames`] is a function of its facts and the prefilter, and the
/// facts of the content key), and each speaker's, by its files' names in
/// order (the speaker's names are a function of them: an edit that leaves
/// a file's names as they were, a comment, a literal, makes none again).
/// Only what a run used is kept for the next.
#[derive(Default)]
pub struct NamesMemo {
    kept: Mutex<KeptNames>,
}

#[derive(Default)]
pub(crate) struct KeptNames {
    /// The prefilter the names were made with.
    prefilter: String,
    pub files: HashMap<ContentKey, SharedNames>,
    pub speakers: HashMap<Vec<SharedNames>, Arc<Named>>,
}

impl std::fmt::Debug for NamesMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.kept.lock().map(|k| k.files.len()).unwrap_or(0);
        write!(f, "NamesMemo({n} files)")
    }
}

impl NamesMemo {
    /// The last run's names, if they were made with this prefilter.
    pub(crate) fn take(&self, prefilter: &str) -> KeptNames {
        let kept = self
            .kept
            .lock()
            .map(|mut k| std::mem::take(&mut *k))
            .unwrap_or_default();
        if kept.prefilter == prefilter {
            kept
        } else {
            KeptNames::new(prefilter)
        }
    }

    pub(crate) fn put(&self, kept: KeptNames) {
        if let Ok(mut k) = self.kept.lock() {
            *k = kept;
        }
    }
}

impl KeptNames {
    /// An empty memo for this prefilter.
    pub(crate) fn new(prefilter: &str) -> KeptNames {
        KeptNames {
            prefilter: prefilter.to_string(),
            ..KeptNames::default()
        }
    }
}
