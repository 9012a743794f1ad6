//! What wirelint knows about Redis commands: which names are commands,
//! which arguments are keys, and which are hash field names.
//!
//! Language-neutral: extractors ask [`is_command`] to recognise command
//! lists; the link step and checks ask where keys and fields sit.

/// How a hash command uses its arguments after the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashAccess {
    /// Field/value pairs: HSET, HMSET.
    WritePairs,
    /// One field then a value: HSETNX, HINCRBY, HINCRBYFLOAT.
    WriteOne,
    /// Every argument is a field read: HGET, HMGET, HEXISTS, HSTRLEN.
    Read,
    /// Every argument is a field deleted: HDEL.
    Delete,
    /// The whole hash is read: HGETALL, HKEYS, HVALS.
    ReadAll,
}

/// The hash-field use of a command, if it is a hash command.
pub fn hash_access(cmd: &str) -> Option<HashAccess> {
    Some(match cmd {
        "HSET" | "HMSET" => HashAccess::WritePairs,
        "HSETNX" | "HINCRBY" | "HINCRBYFLOAT" => HashAccess::WriteOne,
        "HGET" | "HMGET" | "HEXISTS" | "HSTRLEN" => HashAccess::Read,
        "HDEL" => HashAccess::Delete,
        "HGETALL" | "HKEYS" | "HVALS" | "HLEN" => HashAccess::ReadAll,
        _ => return None,
    })
}

/// Which argument positions (0-based, after the command name) hold keys.
/// `None` means every argument is a key.
///
/// A command whose first argument is a subcommand (`XINFO GROUPS key`,
/// `XGROUP CREATE key ..`, `OBJECT ENCODING key`, `MEMORY USAGE key`) takes
/// its key second. `XREAD` and `XREADGROUP` take theirs after a `STREAMS`
/// token, at no fixed place: no argument is read as a key.
pub fn key_positions(cmd: &str) -> Option<&'static [usize]> {
    const FIRST: &[usize] = &[0];
    const SECOND: &[usize] = &[1];
    const TWO: &[usize] = &[0, 1];
    const NONE: &[usize] = &[];
    Some(match cmd {
        // A subcommand, then the key: `XGROUP CREATE key group id`,
        // `XINFO GROUPS key`, `OBJECT ENCODING key`, `MEMORY USAGE key`.
        "XGROUP" | "XINFO" | "OBJECT" | "MEMORY" => SECOND,
        // The keys follow a `STREAMS` word after options of any count
        // (`XREADGROUP GROUP g c COUNT 10 STREAMS k1 k2 > >`): no fixed
        // position is a key.
        "XREAD" | "XREADGROUP" => NONE,
        "DEL" | "UNLINK" | "EXISTS" | "MGET" | "TOUCH" | "WATCH" | "SINTER" | "SUNION"
        | "SDIFF" => return None,
        "RPOPLPUSH" | "LMOVE" | "BLMOVE" | "BRPOPLPUSH" | "SMOVE" | "RENAME" | "RENAMENX"
        | "COPY" | "ZRANGESTORE" => TWO,
        "EVAL" | "EVALSHA" | "EVAL_RO" | "EVALSHA_RO" | "FCALL" | "FCALL_RO" | "SCRIPT"
        | "MULTI" | "EXEC" | "DISCARD" | "PING" | "INFO" | "TIME" | "CLIENT" | "SELECT"
        | "FLUSHDB" | "FLUSHALL" | "PUBLISH" | "SUBSCRIBE" | "KEYS" | "SCAN" | "CONFIG" => NONE,
        _ => FIRST,
    })
}

/// The argument positions of a command of `len` arguments that hold keys
/// ([`key_positions`], every one when it says all).
pub fn key_args(cmd: &str, len: usize) -> Vec<usize> {
    match key_positions(cmd) {
        Some(ps) => ps.iter().copied().filter(|&p| p < len).collect(),
        None => (0..len).collect(),
    }
}

/// Whether a command runs a script: `EVAL` and `EVALSHA` (and their
/// read-only forms) name it by its text or its SHA1, `FCALL` and
/// `FCALL_RO` by the name a library of Redis Functions registered it
/// under; each takes the key count, the keys, then the arguments.
pub fn runs_script(name: &str) -> bool {
    matches!(
        name,
        "EVAL" | "EVALSHA" | "EVAL_RO" | "EVALSHA_RO" | "FCALL" | "FCALL_RO"
    )
}

/// Whether a command writes (creates or changes) the key at argument
/// position `pos`; `false` for reads and for commands wirelint does not
/// know.
pub fn writes_key(cmd: &str, pos: usize) -> bool {
    match cmd {
        // Both keys change: one loses a member or its name, one gains it.
        "RPOPLPUSH" | "LMOVE" | "BLMOVE" | "BRPOPLPUSH" | "SMOVE" | "RENAME" | "RENAMENX" => {
            pos <= 1
        }
        "COPY" => pos == 1,
        "MSET" => pos % 2 == 0,
        "APPEND" | "DECR" | "DECRBY" | "GETSET" | "GETDEL" | "HDEL" | "HINCRBY"
        | "HINCRBYFLOAT" | "HMSET" | "HSET" | "HSETNX" | "INCR" | "INCRBY" | "LINSERT" | "LPOP"
        | "LPUSH" | "LPUSHX" | "LREM" | "LSET" | "LTRIM" | "RPOP" | "RPUSH" | "RPUSHX" | "SADD"
        | "SET" | "SETEX" | "SETNX" | "SPOP" | "SREM" | "XADD" | "XTRIM" | "ZADD" | "ZINCRBY"
        | "ZPOPMAX" | "ZPOPMIN" | "ZRANGESTORE" | "ZREM" | "ZREMRANGEBYSCORE" | "EXPIRE"
        | "PEXPIRE" | "EXPIREAT" | "PEXPIREAT" | "PERSIST" => pos == 0,
        _ => false,
    }
}

/// The Redis data type a command requires of the key at argument
/// position `pos` (`"list"` for `LPUSH`'s key), from the command table of
/// Redis; `None` for commands of any type (`DEL`, `EXPIRE`, `EXISTS`) and
/// for those wirelint does not know.
pub fn data_type(cmd: &str, pos: usize) -> Option<&'static str> {
    let t = match cmd {
        "HSET" | "HMSET" | "HSETNX" | "HGET" | "HMGET" | "HEXISTS" | "HSTRLEN" | "HDEL"
        | "HGETALL" | "HKEYS" | "HVALS" | "HLEN" | "HINCRBY" | "HINCRBYFLOAT" | "HSCAN"
        | "HRANDFIELD" => "hash",
        "LPUSH" | "RPUSH" | "LPUSHX" | "RPUSHX" | "LPOP" | "RPOP" | "LRANGE" | "LLEN"
        | "LINDEX" | "LSET" | "LREM" | "LTRIM" | "LINSERT" | "LPOS" | "BLPOP" | "BRPOP"
        | "RPOPLPUSH" | "BRPOPLPUSH" | "LMOVE" | "BLMOVE" => "list",
        "SADD" | "SREM" | "SMEMBERS" | "SISMEMBER" | "SMISMEMBER" | "SCARD" | "SPOP"
        | "SRANDMEMBER" | "SSCAN" | "SMOVE" | "SINTER" | "SUNION" | "SDIFF" => "set",
        "ZADD" | "ZREM" | "ZRANGE" | "ZREVRANGE" | "ZRANGEBYSCORE" | "ZREVRANGEBYSCORE"
        | "ZRANGEBYLEX" | "ZSCORE" | "ZMSCORE" | "ZCARD" | "ZCOUNT" | "ZRANK" | "ZREVRANK"
        | "ZINCRBY" | "ZPOPMIN" | "ZPOPMAX" | "BZPOPMIN" | "BZPOPMAX" | "ZREMRANGEBYSCORE"
        | "ZREMRANGEBYRANK" | "ZSCAN" | "ZRANGESTORE" => "zset",
        "XADD" | "XTRIM" | "XLEN" | "XRANGE" | "XREVRANGE" | "XDEL" | "XACK" | "XCLAIM"
        | "XAUTOCLAIM" | "XPENDING" | "XSETID" => "stream",
        "XGROUP" | "XINFO" => return (pos == 1).then_some("stream"),
        "GET" | "SET" | "SETNX" | "SETEX" | "PSETEX" | "GETSET" | "GETDEL" | "GETEX" | "INCR"
        | "INCRBY" | "INCRBYFLOAT" | "DECR" | "DECRBY" | "APPEND" | "STRLEN" | "GETRANGE"
        | "SETRANGE" | "MGET" | "MSET" => "string",
        _ => return None,
    };
    let keys = key_positions(cmd);
    keys.is_none_or(|ps| ps.contains(&pos)).then_some(t)
}

/// Redis command names, upper-case, sorted. A list literal whose head is one
/// of these (in any case) is a command.
const COMMANDS: &[&str] = &[
    "APPEND",
    "BLMOVE",
    "BLPOP",
    "BRPOP",
    "BRPOPLPUSH",
    "BZPOPMAX",
    "BZPOPMIN",
    "COPY",
    "DECR",
    "DECRBY",
    "DEL",
    "EVAL",
    "EVALSHA",
    "EVALSHA_RO",
    "EVAL_RO",
    "EXEC",
    "EXISTS",
    "EXPIRE",
    "EXPIREAT",
    "FCALL",
    "FCALL_RO",
    "GET",
    "GETDEL",
    "GETEX",
    "GETSET",
    "HDEL",
    "HEXISTS",
    "HGET",
    "HGETALL",
    "HINCRBY",
    "HINCRBYFLOAT",
    "HKEYS",
    "HLEN",
    "HMGET",
    "HMSET",
    "HSCAN",
    "HSET",
    "HSETNX",
    "HSTRLEN",
    "HVALS",
    "INCR",
    "INCRBY",
    "LINDEX",
    "LINSERT",
    "LLEN",
    "LMOVE",
    "LPOP",
    "LPOS",
    "LPUSH",
    "LPUSHX",
    "LRANGE",
    "LREM",
    "LSET",
    "LTRIM",
    "MGET",
    "MSET",
    "MULTI",
    "PERSIST",
    "PEXPIRE",
    "PEXPIREAT",
    "PTTL",
    "PUBLISH",
    "RENAME",
    "RENAMENX",
    "RPOP",
    "RPOPLPUSH",
    "RPUSH",
    "RPUSHX",
    "SADD",
    "SCARD",
    "SCRIPT",
    "SDIFF",
    "SET",
    "SETEX",
    "SETNX",
    "SINTER",
    "SISMEMBER",
    "SMEMBERS",
    "SMOVE",
    "SPOP",
    "SREM",
    "SSCAN",
    "SUNION",
    "TTL",
    "TYPE",
    "UNLINK",
    "WATCH",
    "XACK",
    "XADD",
    "XCLAIM",
    "XDEL",
    "XLEN",
    "XRANGE",
    "XREAD",
    "XREADGROUP",
    "XTRIM",
    "ZADD",
    "ZCARD",
    "ZCOUNT",
    "ZINCRBY",
    "ZPOPMAX",
    "ZPOPMIN",
    "ZRANGE",
    "ZRANGEBYSCORE",
    "ZRANGESTORE",
    "ZRANK",
    "ZREM",
    "ZREMRANGEBYSCORE",
    "ZREVRANGE",
    "ZSCORE",
];

/// Whether `name` (any case) is a Redis command wirelint reads.
/// Every command name wirelint knows, upper case, sorted.
pub fn commands() -> &'static [&'static str] {
    COMMANDS
}

pub fn is_command(name: &str) -> bool {
    if name.len() > 16 || name.is_empty() {
        return false;
    }
    let upper = name.to_ascii_uppercase();
    COMMANDS.binary_search(&upper.as_str()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_has_the_data_type_its_command_requires() {
        let cases = [
            ("HSET", 0, Some("hash")),
            ("LPUSH", 0, Some("list")),
            ("LMOVE", 1, Some("list")),
            ("SADD", 0, Some("set")),
            ("ZADD", 0, Some("zset")),
            ("XADD", 0, Some("stream")),
            ("XGROUP", 1, Some("stream")),
            ("XGROUP", 0, None),
            ("INCR", 0, Some("string")),
            ("SET", 1, None),
            ("DEL", 0, None),
            ("EXPIRE", 0, None),
            ("FROB", 0, None),
        ];
        for (cmd, pos, want) in cases {
            assert_eq!(data_type(cmd, pos), want, "{cmd} {pos}");
        }
    }

    #[test]
    fn command_table_is_sorted_and_case_blind() {
        assert!(
            COMMANDS.windows(2).all(|w| w[0] < w[1]),
            "COMMANDS must stay sorted"
        );
        assert!(is_command("hset"));
        assert!(is_command("EvalSha"));
        assert!(!is_command("enqueue"));
        assert!(!is_command("state"));
    }

    #[test]
    fn a_subcommand_or_an_option_is_no_key() {
        assert_eq!(key_positions("XGROUP"), Some(&[1][..]));
        assert_eq!(key_positions("XINFO"), Some(&[1][..]));
        assert_eq!(key_positions("OBJECT"), Some(&[1][..]));
        assert_eq!(key_positions("MEMORY"), Some(&[1][..]));
        assert_eq!(key_positions("XREADGROUP"), Some(&[][..]));
        assert_eq!(key_positions("XREAD"), Some(&[][..]));
        assert_eq!(key_positions("XADD"), Some(&[0][..]));
    }
}

/// Whether bytes that wirelint could not read (a region a parser gave up
/// on) could hold protocol code: a Redis command name as a word (any
/// case), `KEYS[`, `ARGV[`, `redis`, or a key-like literal (a word, a `:`
/// and another word or a `{`). Errs towards yes: such a region fails the
/// run rather than hide a divergence.
pub fn could_hold_protocol(bytes: &[u8]) -> bool {
    let lower = bytes.to_ascii_lowercase();
    let has = |needle: &[u8]| memchr::memmem::find(&lower, needle).is_some();
    if has(b"keys[") || has(b"argv[") || has(b"redis") {
        return true;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < lower.len() {
        if !word(lower[i]) {
            // `a:b`, `a:{`: a key-like literal.
            if lower[i] == b':'
                && i > 0
                && word(lower[i - 1])
                && lower.get(i + 1).is_some_and(|&b| word(b) || b == b'{')
            {
                return true;
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < lower.len() && word(lower[i]) {
            i += 1;
        }
        let w = &lower[start..i];
        if w.len() <= 16 && is_command(&String::from_utf8_lossy(w).to_ascii_uppercase()) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod protocol_tests {
    use super::could_hold_protocol;

    #[test]
    fn commands_keys_and_key_like_literals_could_be_protocol() {
        for yes in [
            &b"x = hset(1)"[..],
            b"local k = KEYS[1]",
            b"'emq:{q}:job'",
            b"MyApp.Redis.command",
            b"(( get ))",
        ] {
            assert!(could_hold_protocol(yes), "{}", String::from_utf8_lossy(yes));
        }
        for no in [
            &b"a + a + a + "[..],
            b"(((( ]]]] ,,,,",
            b"hello world 12: 3",
        ] {
            assert!(!could_hold_protocol(no), "{}", String::from_utf8_lossy(no));
        }
    }
}
