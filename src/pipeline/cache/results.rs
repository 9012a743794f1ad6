//! The results memo: what a whole `check` run computed, kept beside the
//! facts cache for the next run with the same inputs, which then reads
//! the results and goes straight to its reporter (no file is read, no
//! facts decoded, nothing linked or checked).
//!
//! A memo is found by its *slot*, a name made of the build, the canonical
//! root and the digest of the run's options and settings (the caller's:
//! every one that can change the results, `crate::views::results`), and
//! is used only when it was stored for the same *files*: what discovery
//! found (its files, its notes, each file's project:
//! `crate::pipeline::discover`, which the run computed on a miss takes
//! as its own) and, for each file,
//! its path, language and the stamp the facts cache's index trusts it by
//! (size and modification time, [`Stamp`]). As the index does, the memo
//! trusts no file changed less than [`RACY`] before the run that keys it:
//! such a run neither uses nor stores one.
//!
//! A slot holds one memo, the last stored, written whole as every cache
//! entry is (a temporary file renamed into place, after a magic and the
//! payload's SHA1); one that cannot be read back, is of another build, or
//! is over [`MAX_BYTES`] is a miss. The day's prune removes the slots no
//! run wrote for a month.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha1::{Digest, Sha1};

use super::{load_value, nanos, store_value, value_path, Stamp, RACY};
use crate::pipeline::{Discovery, Options};

/// A memo over this many bytes is neither stored nor read.
pub const MAX_BYTES: u64 = 64 << 20;

/// Where a run's results are kept, and the inputs they are valid for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsKey {
    base: PathBuf,
    /// Names the slot: the root and the options' digest.
    slot: [u8; 20],
    /// The files: what discovery lists, and each file's stamp.
    files: [u8; 20],
}

/// The key of a run of `opts` whose other options and settings digest to
/// `options`, and whose discovery ([`crate::pipeline::discover`], made
/// at the start of the run) found `found`; `None` when the run cannot be keyed with certainty (no
/// cache, files not from the disk, an editor's buffer, a session, the
/// prefilter off, a file that cannot be stated, or one changed too
/// recently to be told from a change in the same tick).
pub fn key(opts: &Options, options: &[u8; 20], found: &Discovery) -> Option<ResultsKey> {
    let base = opts.cache_dir.clone()?;
    let plain = opts.tree.is_none()
        && opts.buffers.is_empty()
        && opts.session.is_none()
        && opts.memo.is_none()
        && opts.prefilter;
    if !plain {
        return None;
    }
    let started = nanos(SystemTime::now())?;
    let root = std::fs::canonicalize(&opts.root).ok()?;
    let mut slot = Sha1::new();
    part(&mut slot, b"results 1");
    part(&mut slot, root.as_os_str().as_encoded_bytes());
    part(&mut slot, options);
    let files = files_digest(opts, &root, found, started)?;
    Some(ResultsKey {
        base,
        slot: slot.finalize().into(),
        files,
    })
}

/// What discovery found, and every file's stamp.
fn files_digest(opts: &Options, root: &Path, found: &Discovery, started: u64) -> Option<[u8; 20]> {
    let (candidates, projects, notes) = (&found.candidates, &found.projects, &found.notes);
    let mut h = Sha1::new();
    part(&mut h, root.as_os_str().as_encoded_bytes());
    part(&mut h, opts.root.as_os_str().as_encoded_bytes());
    for p in &opts.paths {
        part(&mut h, p.as_os_str().as_encoded_bytes());
    }
    part(&mut h, &opts.max_file_bytes.to_le_bytes());
    part(&mut h, &(candidates.len() as u64).to_le_bytes());
    let racy = RACY.as_nanos() as u64;
    if projects.len() != candidates.len() {
        return None;
    }
    for (c, project) in candidates.iter().zip(projects) {
        let stamp = Stamp::of(&std::fs::metadata(&c.path).ok()?)?;
        if stamp.mtime.saturating_add(racy) >= started {
            return None;
        }
        part(&mut h, c.rel.as_bytes());
        part(&mut h, c.path.as_os_str().as_encoded_bytes());
        part(&mut h, c.lang.name().as_bytes());
        match project {
            Some(d) => part(&mut h, d.as_os_str().as_encoded_bytes()),
            None => part(&mut h, b"\0none"),
        }
        part(&mut h, &stamp.size.to_le_bytes());
        part(&mut h, &stamp.mtime.to_le_bytes());
    }
    part(&mut h, &(notes.len() as u64).to_le_bytes());
    for n in notes {
        part(&mut h, n.path.as_bytes());
        part(&mut h, n.message.as_bytes());
    }
    Some(h.finalize().into())
}

/// Adds one length-prefixed part to a digest.
pub fn part(h: &mut Sha1, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

impl ResultsKey {
    /// The results stored for these inputs, as the caller encoded them.
    pub fn load(&self) -> Option<Vec<u8>> {
        let path = value_path(&self.base, &[&self.slot]);
        let len = std::fs::metadata(&path).ok()?.len();
        if len > MAX_BYTES {
            return None;
        }
        let mut bytes = load_value(&self.base, &[&self.slot])?;
        if bytes.get(..20)? != self.files.as_slice() {
            return None;
        }
        bytes.drain(..20);
        Some(bytes)
    }

    /// Stores results for these inputs in place of the slot's last ones
    /// (nothing when they are too large; errors are ignored: a miss later).
    pub fn store(&self, payload: &[u8]) {
        if payload.len() as u64 + 64 > MAX_BYTES {
            return;
        }
        let mut bytes = Vec::with_capacity(payload.len() + 20);
        bytes.extend_from_slice(&self.files);
        bytes.extend_from_slice(payload);
        store_value(&self.base, &[&self.slot], &bytes);
    }

    /// The file that holds the slot (for tests).
    pub fn path(&self) -> PathBuf {
        value_path(&self.base, &[&self.slot])
    }
}
