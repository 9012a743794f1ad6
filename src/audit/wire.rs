//! The only way an audit talks to the server: [`Read`] names every command
//! it can send, and all of them only read. A [`Batch`] pipelines them;
//! replies come back as [`Reply`]s that never panic on an unexpected shape.
//!
//! `tests/audit.rs` holds the proof on a real server: after an audit,
//! `INFO commandstats` lists only these commands, and `COMMAND INFO` flags
//! none of them `write`.

use super::conn::{Connection, WireError};
pub use super::resp::Value;

/// Every command an audit sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    Ping,
    Dbsize,
    /// `CLUSTER NODES` (`--cluster`: the primaries to scan).
    ClusterNodes,
    Scan,
    Type,
    Ttl,
    Exists,
    Hlen,
    /// `HRANDFIELD key n` (Redis 6.2+): up to n distinct field names, all
    /// of them when the hash has no more.
    Hrandfield,
    Hkeys,
    Hscan,
    Hexists,
    /// `HGET row field`: the field that says which holder a held row waits
    /// in (`[records.X] state`).
    Hget,
    /// `ZMSCORE holder id…` (Redis 6.2+): which ids a sorted set holds.
    Zmscore,
    Zscan,
    /// `SMISMEMBER holder id…` (Redis 6.2+).
    Smismember,
    Sscan,
    Lrange,
}

impl Read {
    pub const ALL: &'static [Read] = &[
        Read::Ping,
        Read::Dbsize,
        Read::ClusterNodes,
        Read::Scan,
        Read::Type,
        Read::Ttl,
        Read::Exists,
        Read::Hlen,
        Read::Hrandfield,
        Read::Hkeys,
        Read::Hscan,
        Read::Hexists,
        Read::Hget,
        Read::Zmscore,
        Read::Zscan,
        Read::Smismember,
        Read::Sscan,
        Read::Lrange,
    ];

    /// The command's words.
    pub fn words(self) -> &'static [&'static str] {
        match self {
            Read::Ping => &["PING"],
            Read::Dbsize => &["DBSIZE"],
            Read::ClusterNodes => &["CLUSTER", "NODES"],
            Read::Scan => &["SCAN"],
            Read::Type => &["TYPE"],
            Read::Ttl => &["TTL"],
            Read::Exists => &["EXISTS"],
            Read::Hlen => &["HLEN"],
            Read::Hrandfield => &["HRANDFIELD"],
            Read::Hkeys => &["HKEYS"],
            Read::Hscan => &["HSCAN"],
            Read::Hexists => &["HEXISTS"],
            Read::Hget => &["HGET"],
            Read::Zmscore => &["ZMSCORE"],
            Read::Zscan => &["ZSCAN"],
            Read::Smismember => &["SMISMEMBER"],
            Read::Sscan => &["SSCAN"],
            Read::Lrange => &["LRANGE"],
        }
    }

    /// The command's words and `args`, as RESP.
    fn encode(self, args: &[&[u8]], out: &mut Vec<u8>) {
        let mut words: Vec<&[u8]> = self.words().iter().map(|w| w.as_bytes()).collect();
        words.extend_from_slice(args);
        super::resp::encode(&words, out);
    }
}

/// One reply, or the error the server answered to that command alone (its
/// code first, as the server wrote it).
pub type Reply = Result<Value, String>;

/// Sends one command; an error reply is [`WireError::Refused`].
pub fn one(con: &mut Connection, read: Read, args: &[&[u8]]) -> Result<Value, WireError> {
    let mut words: Vec<&[u8]> = read.words().iter().map(|w| w.as_bytes()).collect();
    words.extend_from_slice(args);
    con.one(&words)
}

/// Commands to pipeline.
#[derive(Default)]
pub struct Batch {
    buf: Vec<u8>,
    len: usize,
}

impl Batch {
    pub fn push(&mut self, read: Read, args: &[&[u8]]) {
        read.encode(args, &mut self.buf);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sends the batch; an error reply to one command is that command's
    /// [`Reply`], a lost connection the whole batch's error.
    pub fn send(self, con: &mut Connection) -> Result<Vec<Reply>, WireError> {
        if self.len == 0 {
            return Ok(Vec::new());
        }
        let replies = con.pipeline(&self.buf, self.len)?;
        Ok(replies
            .into_iter()
            .map(|v| match v {
                // As the server wrote it: `WRONGTYPE Operation against…`.
                Value::Error(e) => Err(crate::report::escape::text(&e).into_owned()),
                v => Ok(v),
            })
            .collect())
    }
}

/// Bytes of a string reply.
pub fn bytes(v: &Value) -> Option<&[u8]> {
    match v {
        Value::Bytes(b) => Some(b),
        _ => None,
    }
}

/// An integer reply (some servers answer numbers as strings).
pub fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(i64::from(*b)),
        v => std::str::from_utf8(bytes(v)?).ok()?.parse().ok(),
    }
}

/// The elements of an array reply (RESP3 sets too).
pub fn items(v: &Value) -> &[Value] {
    match v {
        Value::Array(a) => a,
        _ => &[],
    }
}

/// A `SCAN`-family reply: the next cursor and the elements.
pub fn cursor_page(v: &Value) -> Option<(Vec<u8>, &[Value])> {
    match items(v) {
        [c, page] => Some((bytes(c)?.to_vec(), items(page))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_of_unexpected_shapes_are_none() {
        assert_eq!(int(&Value::Nil), None);
        assert_eq!(int(&Value::Bytes(b"12".to_vec())), Some(12));
        assert_eq!(bytes(&Value::Int(3)), None);
        assert!(items(&Value::Int(3)).is_empty());
        assert_eq!(cursor_page(&Value::Array(vec![Value::Nil])), None);
    }

    #[test]
    fn every_command_is_a_read() {
        // The command names an audit can send; tests/audit.rs checks their
        // flags on a real server.
        let names: Vec<String> = Read::ALL.iter().map(|r| r.words().join(" ")).collect();
        assert_eq!(
            names,
            [
                "PING",
                "DBSIZE",
                "CLUSTER NODES",
                "SCAN",
                "TYPE",
                "TTL",
                "EXISTS",
                "HLEN",
                "HRANDFIELD",
                "HKEYS",
                "HSCAN",
                "HEXISTS",
                "HGET",
                "ZMSCORE",
                "ZSCAN",
                "SMISMEMBER",
                "SSCAN",
                "LRANGE"
            ]
        );
    }
}
