//! The redis-rb and redis-client methods wirelint reads, declared once.
//!
//! [`METHODS`] is the one table of the methods of Ruby's Redis clients
//! (redis-rb's `Redis`, its pipelines and `multi` blocks, redis-client's
//! `RedisClient` and its pipelines, and the connection pools that hand
//! them out) that send a Redis command or run a script. Each row says what
//! a call sends, how its arguments map onto the wire, and on which
//! receivers it counts. Two readers are driven by it:
//!
//! - the extractor: `calls.rs` reads every method call through [`lookup`];
//! - the prefilter: a Ruby file can yield a Redis fact only if it holds
//!   one of [`fact_needles`] (`.hset`, `.evalsha`, ...), which the Ruby
//!   host language gives it (`src/extract/lang.rs`).
//!
//! Which of a command's arguments are keys or hash fields is
//! `crate::redis`'s, the same for every language.
//!
//! # Adding a method
//!
//! One row: `send("zincrby", "ZINCRBY", Args::Plain)`; `generic(..)` when
//! other Ruby types have a method of that name (`get`, `set`, `del`,
//! `call`): the call then counts only on a Redis-like receiver.

use crate::extract::lang::FactNeedles;

/// How a call's arguments become the command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Args {
    /// One wire argument per positional argument, as written; a `*rest`
    /// leaves the tail open, and so do options (`ex: 5`).
    Plain,
    /// `hset(key, field, value)`, `hset(key, {field => value})`,
    /// `hset(key, field: value)`, `mapped_hmset(key, hash)`: the key, then
    /// the pairs.
    HashPairs,
    /// `zadd(key, score, member)`, `zadd(key, [[score, member], ..])`.
    Scores,
}

/// What a call of the method sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sends {
    /// One command, its arguments mapped as [`Args`] says.
    Command(&'static str, Args),
    /// `call("HSET", k, ..)`, `call(:hset, ..)`: the command its first
    /// argument names.
    Named,
    /// `eval(script, keys: [..], argv: [..])`, `eval(script, keys, argv)`,
    /// `evalsha(sha, ..)`: a script run with its keys and arguments.
    Eval,
    /// `script(:load, lua)`: the script's SHA; sends no command of the
    /// protocol.
    Register,
}

/// On which receivers a call counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Receiver {
    /// Any: the name is the client's own (`hset`).
    Any,
    /// A Redis-like receiver (its text holds one of [`RECEIVER_WORDS`], or
    /// a name the file binds to a client, a pipeline or a block's
    /// connection): other types have methods of this name (`Hash#get`,
    /// `Proc#call`).
    RedisLike,
}

/// Words in a receiver's text that make it Redis-like.
pub(super) const RECEIVER_WORDS: &[&str] = &["redis", "conn", "client", "pipe", "transaction"];

/// Methods whose block is given a client: `redis { |conn| .. }`,
/// `pool.with { |conn| .. }`, `r.pipelined { |p| .. }`, `r.multi { |tx| .. }`.
pub(super) const BLOCK_CLIENTS: &[&str] = &["redis", "with", "pipelined", "multi", "then"];

/// One client method.
#[derive(Clone, Copy, Debug)]
pub(super) struct MethodSpec {
    pub(super) name: &'static str,
    pub(super) sends: Sends,
    pub(super) receiver: Receiver,
}

const fn send(name: &'static str, command: &'static str, args: Args) -> MethodSpec {
    MethodSpec {
        name,
        sends: Sends::Command(command, args),
        receiver: Receiver::Any,
    }
}

const fn generic(name: &'static str, command: &'static str, args: Args) -> MethodSpec {
    MethodSpec {
        receiver: Receiver::RedisLike,
        ..send(name, command, args)
    }
}

const fn other(name: &'static str, sends: Sends) -> MethodSpec {
    MethodSpec {
        name,
        sends,
        receiver: Receiver::RedisLike,
    }
}

/// Every redis-rb and redis-client method wirelint reads.
pub(super) const METHODS: &[MethodSpec] = &[
    other("call", Sends::Named),
    other("call_v", Sends::Named),
    other("eval", Sends::Eval),
    other("evalsha", Sends::Eval),
    other("script", Sends::Register),
    send("hset", "HSET", Args::HashPairs),
    send("hsetnx", "HSETNX", Args::Plain),
    send("hmset", "HMSET", Args::HashPairs),
    send("mapped_hmset", "HMSET", Args::HashPairs),
    send("hget", "HGET", Args::Plain),
    send("hmget", "HMGET", Args::Plain),
    send("mapped_hmget", "HMGET", Args::Plain),
    send("hgetall", "HGETALL", Args::Plain),
    send("hdel", "HDEL", Args::Plain),
    send("hexists", "HEXISTS", Args::Plain),
    send("hincrby", "HINCRBY", Args::Plain),
    send("hincrbyfloat", "HINCRBYFLOAT", Args::Plain),
    send("hkeys", "HKEYS", Args::Plain),
    send("hvals", "HVALS", Args::Plain),
    send("hlen", "HLEN", Args::Plain),
    send("zadd", "ZADD", Args::Scores),
    send("zrem", "ZREM", Args::Plain),
    send("zscore", "ZSCORE", Args::Plain),
    send("zcard", "ZCARD", Args::Plain),
    send("zcount", "ZCOUNT", Args::Plain),
    send("zincrby", "ZINCRBY", Args::Plain),
    send("zrange", "ZRANGE", Args::Plain),
    send("zrevrange", "ZREVRANGE", Args::Plain),
    send("zrangebyscore", "ZRANGEBYSCORE", Args::Plain),
    send("zrevrangebyscore", "ZREVRANGEBYSCORE", Args::Plain),
    send("zremrangebyscore", "ZREMRANGEBYSCORE", Args::Plain),
    send("zremrangebyrank", "ZREMRANGEBYRANK", Args::Plain),
    send("zpopmin", "ZPOPMIN", Args::Plain),
    send("zpopmax", "ZPOPMAX", Args::Plain),
    send("lpush", "LPUSH", Args::Plain),
    send("rpush", "RPUSH", Args::Plain),
    send("lrem", "LREM", Args::Plain),
    send("llen", "LLEN", Args::Plain),
    send("lrange", "LRANGE", Args::Plain),
    send("lindex", "LINDEX", Args::Plain),
    send("ltrim", "LTRIM", Args::Plain),
    send("lpop", "LPOP", Args::Plain),
    send("rpop", "RPOP", Args::Plain),
    send("blpop", "BLPOP", Args::Plain),
    send("brpop", "BRPOP", Args::Plain),
    send("rpoplpush", "RPOPLPUSH", Args::Plain),
    send("brpoplpush", "BRPOPLPUSH", Args::Plain),
    send("lmove", "LMOVE", Args::Plain),
    send("blmove", "BLMOVE", Args::Plain),
    send("sadd", "SADD", Args::Plain),
    send("sadd?", "SADD", Args::Plain),
    send("srem", "SREM", Args::Plain),
    send("srem?", "SREM", Args::Plain),
    send("smembers", "SMEMBERS", Args::Plain),
    send("sismember", "SISMEMBER", Args::Plain),
    send("scard", "SCARD", Args::Plain),
    send("sscan", "SSCAN", Args::Plain),
    send("zscan", "ZSCAN", Args::Plain),
    send("hscan", "HSCAN", Args::Plain),
    send("setex", "SETEX", Args::Plain),
    send("psetex", "PSETEX", Args::Plain),
    send("setnx", "SETNX", Args::Plain),
    send("unlink", "UNLINK", Args::Plain),
    send("incrby", "INCRBY", Args::Plain),
    generic("get", "GET", Args::Plain),
    generic("set", "SET", Args::Plain),
    generic("del", "DEL", Args::Plain),
    generic("exists", "EXISTS", Args::Plain),
    generic("exists?", "EXISTS", Args::Plain),
    generic("expire", "EXPIRE", Args::Plain),
    generic("pexpire", "PEXPIRE", Args::Plain),
    generic("incr", "INCR", Args::Plain),
    generic("decr", "DECR", Args::Plain),
    generic("publish", "PUBLISH", Args::Plain),
];

/// The row of a call of `name`, if any.
pub(super) fn lookup(name: &str) -> Option<&'static MethodSpec> {
    METHODS.iter().find(|m| m.name == name)
}

/// What a Ruby file that yields a Redis fact through a client method
/// holds: `.name` of each method, the generic ones only together with a
/// receiver word (in any case).
pub(crate) fn fact_needles() -> FactNeedles {
    let mut out = FactNeedles {
        any: Vec::new(),
        guarded: Vec::new(),
        guards: RECEIVER_WORDS.iter().map(|w| w.to_string()).collect(),
    };
    for m in METHODS {
        let needle = format!(".{}", m.name.trim_end_matches('?'));
        match m.receiver {
            Receiver::RedisLike => out.guarded.push(needle),
            Receiver::Any => out.any.push(needle),
        }
    }
    out
}

/// Whether a Ruby file holds one of [`fact_needles`].
pub(crate) fn client_calls(bytes: &[u8]) -> bool {
    static NEEDLES: std::sync::LazyLock<[aho_corasick::AhoCorasick; 3]> =
        std::sync::LazyLock::new(|| {
            let n = fact_needles();
            let build = |w: &[String], blind: bool| {
                aho_corasick::AhoCorasickBuilder::new()
                    .ascii_case_insensitive(blind)
                    .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                    .build(w)
                    .expect("the needles are short literals")
            };
            [
                build(&n.any, false),
                build(&n.guarded, false),
                build(&n.guards, true),
            ]
        });
    let [any, guarded, guards] = &*NEEDLES;
    any.is_match(bytes) || (guarded.is_match(bytes) && guards.is_match(bytes))
}
