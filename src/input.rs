//! Every byte wirelint reads from outside comes through here: regular files
//! only, and never more than a limit.
//!
//! The tree under review is untrusted. A name can be a FIFO (opening it
//! blocks until a writer comes), a link to `/dev/zero` (reading it never
//! ends), or a file swapped for either between discovery and reading. So a
//! file is opened without blocking and without following a final symbolic
//! link unless asked, its type is checked on the opened descriptor (not on
//! the path), and it is read with `take(limit + 1)`: one byte over the limit
//! says it is too large without loading it whole.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

/// The limit of a read when the command line gives none (the default of
/// `--max-file-size`).
pub const DEFAULT_LIMIT: u64 = 8 * 1024 * 1024;

/// Why bytes could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Not a regular file: what it is (`a FIFO`, `a directory`, ...).
    NotRegular(&'static str),
    /// More than the limit; `Some(n)` when its size is known.
    TooLarge { limit: u64, size: Option<u64> },
    /// The operating system's error.
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotRegular(what) => write!(f, "not a regular file ({what})"),
            ReadError::TooLarge {
                limit,
                size: Some(n),
            } => write!(
                f,
                "{n} bytes is over the {limit} byte limit (--max-file-size)"
            ),
            ReadError::TooLarge { limit, size: None } => {
                write!(f, "over the {limit} byte limit (--max-file-size)")
            }
            ReadError::Io(e) => f.write_str(e),
        }
    }
}

impl ReadError {
    /// The note of a file passed over: `skipped: …` when wirelint chose not
    /// to read it, `cannot read: …` when the system refused.
    pub fn note(&self) -> String {
        match self {
            ReadError::Io(e) => format!("cannot read: {e}"),
            other => format!("skipped: {other}"),
        }
    }
}

/// Whether a final symbolic link in the path is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// A link is refused (files found by walking a tree, which never follows
    /// links: a link that appears there was swapped in).
    Refuse,
    /// A link is followed, to a regular file only (paths named by the user).
    Follow,
}

/// What kind of file a metadata describes, for a note.
pub fn kind(meta: &Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_dir() {
        return "a directory";
    }
    if ft.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Opens `path` for reading if it is a regular file: without blocking (a
/// FIFO does not wait for a writer), and, with [`Links::Refuse`], without
/// following a final link. The type is checked on the path first (so a
/// device is never opened) and again on the opened descriptor (so a file
/// swapped in between is caught).
pub fn open_regular(path: &Path, links: Links) -> Result<(File, Metadata), ReadError> {
    let before = match links {
        Links::Refuse => std::fs::symlink_metadata(path),
        Links::Follow => std::fs::metadata(path),
    }
    .map_err(|e| ReadError::Io(e.to_string()))?;
    if !before.is_file() {
        return Err(ReadError::NotRegular(kind(&before)));
    }
    let file = open_nonblocking(path, links).map_err(|e| ReadError::Io(e.to_string()))?;
    let meta = file.metadata().map_err(|e| ReadError::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind(&meta)));
    }
    Ok((file, meta))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path, links: Links) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
    if links == Links::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, _links: Links) -> std::io::Result<File> {
    File::open(path)
}

/// The bytes of a regular file, at most `limit` of them (else
/// [`ReadError::TooLarge`]).
pub fn read_file(path: &Path, links: Links, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_regular(path, links)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            limit,
            size: Some(meta.len()),
        });
    }
    read_bounded(file, limit, Some(meta.len()))
}

/// At most `limit` bytes from `r` (else [`ReadError::TooLarge`]), read with
/// `take(limit + 1)`: a reader that never ends (stdin, a file growing while
/// read) is never loaded whole. `hint` is the expected size, for the buffer.
pub fn read_bounded(r: impl Read, limit: u64, hint: Option<u64>) -> Result<Vec<u8>, ReadError> {
    let cap = hint.unwrap_or(0).min(limit).min(64 << 20) as usize;
    let mut buf = Vec::with_capacity(cap);
    r.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit, size: None });
    }
    Ok(buf)
}

/// A text file (a contract, `wirelint.toml`, a baseline): a regular file,
/// links followed, at most `limit` bytes, UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    let bytes = read_file(path, Links::Follow, limit)?;
    String::from_utf8(bytes).map_err(|_| ReadError::Io("it is not UTF-8 text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        std::fs::write(&p, b"12345").unwrap();
        assert_eq!(read_file(&p, Links::Refuse, 5).unwrap(), b"12345");
        assert_eq!(
            read_file(&p, Links::Refuse, 4),
            Err(ReadError::TooLarge {
                limit: 4,
                size: Some(5)
            })
        );
    }

    #[test]
    fn an_endless_reader_stops_one_byte_over_the_limit() {
        let endless = std::io::repeat(b'x');
        assert_eq!(
            read_bounded(endless, 1000, None),
            Err(ReadError::TooLarge {
                limit: 1000,
                size: None
            })
        );
    }

    #[cfg(unix)]
    #[test]
    fn fifos_devices_and_links_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f.ex");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        assert_eq!(
            read_file(&fifo, Links::Follow, 100),
            Err(ReadError::NotRegular("a FIFO"))
        );
        let zero = dir.path().join("z.ex");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert_eq!(
            read_file(&zero, Links::Follow, 100),
            Err(ReadError::NotRegular("a character device"))
        );
        assert_eq!(
            read_file(&zero, Links::Refuse, 100),
            Err(ReadError::NotRegular("a symbolic link"))
        );
        assert_eq!(
            read_file(Path::new("/dev/null"), Links::Follow, 100),
            Err(ReadError::NotRegular("a character device"))
        );
    }
}
