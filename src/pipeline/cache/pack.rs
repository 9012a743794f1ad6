//! Packs: the facts one run stores, written as one file.
//!
//! A cold run stores the facts of every file it parsed, a thousand or more
//! entries; written one file each, the file system's work to create,
//! name and later delete them is a large part of the run (on ext4, right
//! after a cache directory was deleted, a sixth of a cold run's CPU went
//! to finding free inodes). A run now appends the entries it stores to one
//! pack (`packs/.tmp-ID` while it runs, renamed `packs/ID.pack` when it
//! saves its index), and the index says where each file's facts are: the
//! pack, the offset and the length ([`Loc`]). This is ruff's layout (one
//! cache file per package) more than a content-addressed store: an entry
//! is found through an index that names it, and a pack no index names is
//! pruned once a month old.
//!
//! A record is the key (20 bytes), the payload's length (4 bytes, little
//! endian), the payload's SHA1 (20 bytes) and the payload; a record that
//! does not hold what its [`Loc`] says (another key or length, a wrong
//! checksum, a short read) is a miss.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

/// Magic bytes that open a pack, with the format's version.
const MAGIC: &[u8; 4] = b"WLP1";

/// The bytes of a record before its payload.
const HEAD: usize = 20 + 4 + 20;

/// A record's payload is at most this long (a file's facts are far
/// smaller: files over `--max-file-size` are not parsed).
const MAX_PAYLOAD: u32 = 1 << 30;

/// Where stored facts are: their key, the pack, the record's offset in it
/// and its payload's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loc {
    pub key: [u8; 20],
    pub pack: u64,
    offset: u64,
    len: u32,
}

/// The directory of a build's packs.
pub fn dir(build: &Path) -> PathBuf {
    build.join("packs")
}

/// The path of pack `id` once saved.
pub fn path(build: &Path, id: u64) -> PathBuf {
    dir(build).join(format!("{id:016x}.pack"))
}

/// Whether a file name is a saved pack's, and its id.
pub fn id_of(name: &str) -> Option<u64> {
    let hex = name.strip_suffix(".pack")?;
    (hex.len() == 16)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The pack a run writes, opened at its first entry.
pub struct Writer {
    id: u64,
    tmp: PathBuf,
    file: Option<File>,
    end: u64,
}

impl Writer {
    /// A new pack in `build`'s pack directory (`None` when it cannot be
    /// created): its id is drawn from the process, the time and the
    /// directory, so that concurrent runs write different packs.
    pub fn create(build: &Path, seed: u64) -> Option<Writer> {
        let packs = dir(build);
        std::fs::create_dir_all(&packs).ok()?;
        let mut h = Sha1::new();
        h.update(std::process::id().to_le_bytes());
        h.update(seed.to_le_bytes());
        h.update(packs.to_string_lossy().as_bytes());
        let digest = h.finalize();
        let mut id = [0u8; 8];
        id.copy_from_slice(&digest[..8]);
        let id = u64::from_le_bytes(id);
        let tmp = packs.join(format!(".tmp-{id:016x}"));
        let mut file = File::create(&tmp).ok()?;
        file.write_all(MAGIC).ok()?;
        Some(Writer {
            id,
            tmp,
            file: Some(file),
            end: MAGIC.len() as u64,
        })
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// Appends one entry; where it is, unless the pack can no longer be
    /// written (then no later entry is either).
    pub fn append(&mut self, key: [u8; 20], payload: &[u8]) -> Option<Loc> {
        let len = u32::try_from(payload.len())
            .ok()
            .filter(|&l| l <= MAX_PAYLOAD)?;
        let file = self.file.as_mut()?;
        let mut record = Vec::with_capacity(HEAD + payload.len());
        record.extend_from_slice(&key);
        record.extend_from_slice(&len.to_le_bytes());
        record.extend_from_slice(&Sha1::digest(payload));
        record.extend_from_slice(payload);
        if file.write_all(&record).is_err() {
            self.file = None;
            return None;
        }
        let loc = Loc {
            key,
            pack: self.id,
            offset: self.end,
            len,
        };
        self.end += record.len() as u64;
        Some(loc)
    }

    /// Where this pack's entries are read while the run writes it.
    pub fn reading_path(&self) -> &Path {
        &self.tmp
    }

    /// Renames the pack into place; whether its entries can be named.
    pub fn finish(mut self, build: &Path) -> bool {
        // A pack that could not be written whole names nothing.
        let ok =
            self.file.take().is_some() && std::fs::rename(&self.tmp, path(build, self.id)).is_ok();
        if !ok {
            let _ = std::fs::remove_file(&self.tmp);
        }
        ok
    }
}

/// The payload of the record at `loc` in the pack at `path`, if it holds
/// what `loc` says.
pub fn read(path: &Path, loc: &Loc) -> Option<Vec<u8>> {
    if loc.len > MAX_PAYLOAD {
        return None;
    }
    let mut file = File::open(path).ok()?;
    // A record past the pack's end is a miss, before any room is made
    // for its payload.
    let end = loc.offset.checked_add((HEAD as u64) + u64::from(loc.len))?;
    if file.metadata().ok()?.len() < end {
        return None;
    }
    file.seek(SeekFrom::Start(loc.offset)).ok()?;
    let mut head = [0u8; HEAD];
    file.read_exact(&mut head).ok()?;
    let (key, rest) = head.split_at(20);
    let (len, sum) = rest.split_at(4);
    if key != loc.key || len != loc.len.to_le_bytes() {
        return None;
    }
    let mut payload = vec![0u8; loc.len as usize];
    file.read_exact(&mut payload).ok()?;
    (Sha1::digest(&payload).as_slice() == sum).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_from_the_pack_being_written_and_once_saved() {
        let build = tempfile::tempdir().unwrap();
        let mut w = Writer::create(build.path(), 1).unwrap();
        let a = w.append([1; 20], b"first").unwrap();
        let b = w.append([2; 20], b"").unwrap();
        let c = w.append([3; 20], b"third").unwrap();
        assert_eq!(read(w.reading_path(), &a).as_deref(), Some(&b"first"[..]));
        assert_eq!(read(w.reading_path(), &b).as_deref(), Some(&b""[..]));
        let id = w.id();
        assert!(w.finish(build.path()));
        let saved = path(build.path(), id);
        assert_eq!(read(&saved, &c).as_deref(), Some(&b"third"[..]));
        assert_eq!(read(&saved, &a).as_deref(), Some(&b"first"[..]));
        assert_eq!(
            id_of(&saved.file_name().unwrap().to_string_lossy()),
            Some(id)
        );
        // Another key, another length, another offset: a miss.
        assert!(read(&saved, &Loc { key: [9; 20], ..a }).is_none());
        assert!(read(&saved, &Loc { len: 4, ..a }).is_none());
        assert!(read(
            &saved,
            &Loc {
                offset: a.offset + 1,
                ..a
            }
        )
        .is_none());
        assert!(read(&saved, &Loc { len: u32::MAX, ..a }).is_none());
        assert!(read(
            &saved,
            &Loc {
                len: MAX_PAYLOAD,
                ..a
            }
        )
        .is_none());
        assert!(read(
            &saved,
            &Loc {
                offset: u64::MAX,
                ..a
            }
        )
        .is_none());
    }

    #[test]
    fn a_damaged_record_is_a_miss() {
        let build = tempfile::tempdir().unwrap();
        let mut w = Writer::create(build.path(), 2).unwrap();
        let a = w.append([1; 20], b"payload").unwrap();
        let id = w.id();
        assert!(w.finish(build.path()));
        let saved = path(build.path(), id);
        let mut bytes = std::fs::read(&saved).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&saved, &bytes).unwrap();
        assert!(read(&saved, &a).is_none());
        std::fs::write(&saved, b"short").unwrap();
        assert!(read(&saved, &a).is_none());
    }
}
