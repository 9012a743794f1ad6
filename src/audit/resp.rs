//! RESP, the Redis protocol, read with bounds: the audit's replies come
//! from a server that may be broken or hostile, so a length header is
//! checked against a limit before anything is allocated ([`MAX_BULK`],
//! [`MAX_ITEMS`]), space is never reserved ahead of the bytes that fill it,
//! a reply holds at most [`MAX_REPLY`] bytes in all, and replies nest at
//! most [`MAX_DEPTH`] deep. RESP2 and the RESP3 types are read; the audit
//! speaks RESP2.

use std::io::{BufRead, Read};

/// The longest string in a reply (a key, a field name, `CLUSTER NODES`).
pub const MAX_BULK: usize = 64 << 20;

/// The most elements in one array, map or set.
pub const MAX_ITEMS: usize = 1 << 24;

/// The most bytes one reply holds, its strings and 16 for each element.
pub const MAX_REPLY: usize = 256 << 20;

/// How deep arrays may nest.
pub const MAX_DEPTH: usize = 32;

/// The longest line of a simple string, an error or a header.
pub const MAX_LINE: usize = 64 << 10;

/// One reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Nil,
    Int(i64),
    Bool(bool),
    /// A bulk or verbatim string, or a simple one, or a number as text
    /// (RESP3 doubles and big numbers).
    Bytes(Vec<u8>),
    /// An array, set, push or map (flattened: key, value, key, value).
    Array(Vec<Value>),
    /// An error reply, as the server wrote it (`WRONGTYPE Operation…`).
    Error(String),
}

/// Why a reply could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The stream ended, failed or timed out: the reason.
    Io(String),
    /// Bytes that are not RESP, or a length over a limit.
    Protocol(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => f.write_str(e),
            ReadError::Protocol(e) => write!(f, "the server's reply is not valid RESP: {e}"),
        }
    }
}

fn io(e: std::io::Error) -> ReadError {
    ReadError::Io(e.to_string())
}

fn bad(what: impl Into<String>) -> ReadError {
    ReadError::Protocol(what.into())
}

/// Reads one reply.
pub fn read_value(r: &mut impl BufRead) -> Result<Value, ReadError> {
    let mut left = MAX_REPLY;
    value(r, 0, &mut left)
}

fn value(r: &mut impl BufRead, depth: usize, left: &mut usize) -> Result<Value, ReadError> {
    if depth > MAX_DEPTH {
        return Err(bad(format!("arrays nested more than {MAX_DEPTH} deep")));
    }
    let line = line(r)?;
    let (&kind, rest) = line
        .split_first()
        .ok_or_else(|| bad("an empty line where a reply starts"))?;
    let text = || String::from_utf8_lossy(rest).into_owned();
    spend(left, 16 + rest.len())?;
    Ok(match kind {
        b'+' => Value::Bytes(rest.to_vec()),
        b'-' => Value::Error(text()),
        b':' => Value::Int(number(rest)?),
        b',' | b'(' => Value::Bytes(rest.to_vec()),
        b'#' => match rest {
            b"t" => Value::Bool(true),
            b"f" => Value::Bool(false),
            _ => return Err(bad("a boolean that is neither t nor f")),
        },
        b'_' => Value::Nil,
        b'$' | b'=' | b'!' => match number(rest)? {
            -1 => Value::Nil,
            n => {
                let b = bulk(r, n, left)?;
                match kind {
                    b'!' => Value::Error(String::from_utf8_lossy(&b).into_owned()),
                    // A verbatim string starts with its format: `txt:`.
                    b'=' => Value::Bytes(b.get(4..).unwrap_or_default().to_vec()),
                    _ => Value::Bytes(b),
                }
            }
        },
        b'*' | b'~' | b'>' | b'%' | b'|' => match number(rest)? {
            -1 => Value::Nil,
            n => {
                let per = if matches!(kind, b'%' | b'|') { 2 } else { 1 };
                let n = count(n, per)?;
                let mut items = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    items.push(value(r, depth + 1, left)?);
                }
                if kind == b'|' {
                    // Attributes describe the reply that follows.
                    return value(r, depth, left);
                }
                Value::Array(items)
            }
        },
        other => {
            return Err(bad(format!(
                "a reply of type {} ({})",
                [other].escape_ascii(),
                shown(&line)
            )))
        }
    })
}

/// A line without its CRLF (a lone LF is part of it), at most
/// [`MAX_LINE`] bytes.
fn line(r: &mut impl BufRead) -> Result<Vec<u8>, ReadError> {
    let mut out = Vec::new();
    loop {
        let room = (MAX_LINE + 2).saturating_sub(out.len()) as u64;
        let n = r
            .by_ref()
            .take(room)
            .read_until(b'\n', &mut out)
            .map_err(io)?;
        if out.ends_with(b"\r\n") {
            out.truncate(out.len() - 2);
            return Ok(out);
        }
        if out.len() > MAX_LINE {
            return Err(bad(format!("a line over {MAX_LINE} bytes")));
        }
        if n == 0 {
            return Err(ReadError::Io(match out.is_empty() {
                true => "the server closed the connection".into(),
                false => "the server closed the connection mid-reply".into(),
            }));
        }
    }
}

fn number(b: &[u8]) -> Result<i64, ReadError> {
    std::str::from_utf8(b)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(format!("a length or integer {}", shown(b))))
}

/// The elements an aggregate of `n` entries of `per` values holds.
fn count(n: i64, per: usize) -> Result<usize, ReadError> {
    usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(per))
        .filter(|&n| n <= MAX_ITEMS)
        .ok_or_else(|| {
            bad(format!(
                "an aggregate of {n} elements (the limit is {MAX_ITEMS})"
            ))
        })
}

/// A bulk string of `n` bytes and its CRLF, read as the bytes come.
fn bulk(r: &mut impl BufRead, n: i64, left: &mut usize) -> Result<Vec<u8>, ReadError> {
    let n = usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_BULK)
        .ok_or_else(|| bad(format!("a string of {n} bytes (the limit is {MAX_BULK})")))?;
    spend(left, n)?;
    let mut b = Vec::with_capacity(n.min(64 << 10));
    let got = r.by_ref().take(n as u64).read_to_end(&mut b).map_err(io)?;
    let mut crlf = [0u8; 2];
    if got < n || r.read_exact(&mut crlf).is_err() {
        return Err(ReadError::Io(
            "the server closed the connection mid-reply".into(),
        ));
    }
    if &crlf != b"\r\n" {
        return Err(bad("a string not followed by CRLF"));
    }
    Ok(b)
}

fn spend(left: &mut usize, n: usize) -> Result<(), ReadError> {
    *left = left
        .checked_sub(n)
        .ok_or_else(|| bad(format!("a reply over {MAX_REPLY} bytes")))?;
    Ok(())
}

fn shown(b: &[u8]) -> String {
    let cut = &b[..b.len().min(40)];
    format!("`{}`", cut.escape_ascii())
}

/// A command as RESP: an array of bulk strings.
pub fn encode(words: &[&[u8]], out: &mut Vec<u8>) {
    out.extend_from_slice(format!("*{}\r\n", words.len()).as_bytes());
    for w in words {
        out.extend_from_slice(format!("${}\r\n", w.len()).as_bytes());
        out.extend_from_slice(w);
        out.extend_from_slice(b"\r\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(b: &[u8]) -> Result<Value, ReadError> {
        read_value(&mut &b[..])
    }

    #[test]
    fn replies_of_every_type() {
        assert_eq!(read(b"+OK\r\n"), Ok(Value::Bytes(b"OK".to_vec())));
        assert_eq!(read(b"-ERR no\r\n"), Ok(Value::Error("ERR no".to_string())));
        assert_eq!(read(b":-3\r\n"), Ok(Value::Int(-3)));
        assert_eq!(read(b"$-1\r\n"), Ok(Value::Nil));
        assert_eq!(
            read(b"$3\r\na\r\n\r\n"),
            Ok(Value::Bytes(b"a\r\n".to_vec()))
        );
        assert_eq!(
            read(b"*2\r\n$1\r\n0\r\n*1\r\n+k\r\n"),
            Ok(Value::Array(vec![
                Value::Bytes(b"0".to_vec()),
                Value::Array(vec![Value::Bytes(b"k".to_vec())])
            ]))
        );
        assert_eq!(
            read(b"%1\r\n+a\r\n:1\r\n"),
            Ok(Value::Array(vec![
                Value::Bytes(b"a".to_vec()),
                Value::Int(1)
            ]))
        );
        assert_eq!(read(b"|1\r\n+a\r\n+b\r\n#t\r\n"), Ok(Value::Bool(true)));
        assert_eq!(
            read(b"=8\r\ntxt:hey!\r\n"),
            Ok(Value::Bytes(b"hey!".to_vec()))
        );
    }

    #[test]
    fn lengths_over_the_limits_are_refused_before_any_allocation() {
        let e = read(b"$1099511627776\r\nxxxx").unwrap_err();
        assert_eq!(
            e,
            bad("a string of 1099511627776 bytes (the limit is 67108864)")
        );
        let e = read(b"*1099511627776\r\n:1\r\n").unwrap_err();
        assert_eq!(
            e,
            bad("an aggregate of 1099511627776 elements (the limit is 16777216)")
        );
        assert!(matches!(read(b"$-7\r\n"), Err(ReadError::Protocol(_))));
        assert!(matches!(
            read(b"*-9223372036854775808\r\n"),
            Err(ReadError::Protocol(_))
        ));
        let deep = "*1\r\n".repeat(MAX_DEPTH + 2);
        assert_eq!(
            read(deep.as_bytes()),
            Err(bad(format!("arrays nested more than {MAX_DEPTH} deep")))
        );
        let long = format!("+{}", "x".repeat(MAX_LINE + 10));
        assert_eq!(
            read(long.as_bytes()),
            Err(bad(format!("a line over {MAX_LINE} bytes")))
        );
    }

    #[test]
    fn a_reply_cut_short_is_a_lost_connection() {
        for b in [&b""[..], b"$5\r\nab", b"*2\r\n:1\r\n", b"+OK"] {
            assert!(matches!(read(b), Err(ReadError::Io(_))), "{b:?}");
        }
    }
}
