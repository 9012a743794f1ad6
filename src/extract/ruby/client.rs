//! The redis-rb and redis-client methods wirelint reads, declared once.
//!
//! [`METHODS`] is the table, as rows of the shared client table
//! (`crate::extract::clients`), of the methods of Ruby's Redis clients
//! (redis-rb's `Redis`, its pipelines and `multi` blocks, redis-client's
//! `RedisClient` and its pipelines, and the connection pools that hand
//! them out) that send a Redis command or run a script. Each row says what
//! a call sends, how its arguments map onto the wire, and on which
//! receivers it counts. Two readers are driven by it:
//!
//! - the extractor: `calls.rs` reads every method call through [`lookup`];
//! - the prefilter: a Ruby file can yield a Redis fact only if it holds
//!   one of the table's needles (`.hset`, `.evalsha`, ...), which the Ruby
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

use crate::extract::clients::{
    Args::{self, Pairs, Plain, Scores},
    Case, Method, Needles, Sends, Table,
};

/// The Ruby clients' table.
pub(crate) const CLIENTS: Table = Table {
    language: "Ruby",
    clients: "redis-rb, redis-client",
    methods: METHODS,
    receiver_words: RECEIVER_WORDS,
    case: Case::Exact,
    needles: Some(Needles {
        open: "",
        extra: &[],
        guarded: true,
        blind: false,
    }),
    cases: "tests/client_methods/ruby.rb",
};

/// Words in a receiver's text that make it Redis-like.
pub(super) const RECEIVER_WORDS: &[&str] = &["redis", "conn", "client", "pipe", "transaction"];

/// Methods whose block is given a client: `redis { |conn| .. }`,
/// `pool.with { |conn| .. }`, `r.pipelined { |p| .. }`, `r.multi { |tx| .. }`.
pub(super) const BLOCK_CLIENTS: &[&str] = &["redis", "with", "pipelined", "multi", "then"];

const CLIENT: &str = "redis-rb";

/// A method that sends `command` on any receiver.
const fn send(name: &'static str, command: &'static str, args: Args) -> Method {
    Method::send(CLIENT, name, command, args)
}

/// A method of its own kind, on a Redis-like receiver.
const fn other(name: &'static str, sends: Sends) -> Method {
    Method::new(CLIENT, name, sends).generic()
}

pub(super) const METHODS: &[Method] = &[
    other("call", Sends::Named),
    other("call_v", Sends::Named),
    other("eval", Sends::Eval("EVAL")),
    other("evalsha", Sends::Eval("EVALSHA")),
    other("script", Sends::Register),
    send("hset", "HSET", Pairs),
    send("hsetnx", "HSETNX", Plain),
    send("hmset", "HMSET", Pairs),
    send("mapped_hmset", "HMSET", Pairs),
    send("hget", "HGET", Plain),
    send("hmget", "HMGET", Plain),
    send("mapped_hmget", "HMGET", Plain),
    send("hgetall", "HGETALL", Plain),
    send("hdel", "HDEL", Plain),
    send("hexists", "HEXISTS", Plain),
    send("hincrby", "HINCRBY", Plain),
    send("hincrbyfloat", "HINCRBYFLOAT", Plain),
    send("hkeys", "HKEYS", Plain),
    send("hvals", "HVALS", Plain),
    send("hlen", "HLEN", Plain),
    send("zadd", "ZADD", Scores),
    send("zrem", "ZREM", Plain),
    send("zscore", "ZSCORE", Plain),
    send("zcard", "ZCARD", Plain),
    send("zcount", "ZCOUNT", Plain),
    send("zincrby", "ZINCRBY", Plain),
    send("zrange", "ZRANGE", Plain),
    send("zrevrange", "ZREVRANGE", Plain),
    send("zrangebyscore", "ZRANGEBYSCORE", Plain),
    send("zrevrangebyscore", "ZREVRANGEBYSCORE", Plain),
    send("zremrangebyscore", "ZREMRANGEBYSCORE", Plain),
    send("zremrangebyrank", "ZREMRANGEBYRANK", Plain),
    send("zpopmin", "ZPOPMIN", Plain),
    send("zpopmax", "ZPOPMAX", Plain),
    send("lpush", "LPUSH", Plain),
    send("rpush", "RPUSH", Plain),
    send("lrem", "LREM", Plain),
    send("llen", "LLEN", Plain),
    send("lrange", "LRANGE", Plain),
    send("lindex", "LINDEX", Plain),
    send("ltrim", "LTRIM", Plain),
    send("lpop", "LPOP", Plain),
    send("rpop", "RPOP", Plain),
    send("blpop", "BLPOP", Plain),
    send("brpop", "BRPOP", Plain),
    send("rpoplpush", "RPOPLPUSH", Plain),
    send("brpoplpush", "BRPOPLPUSH", Plain),
    send("lmove", "LMOVE", Plain),
    send("blmove", "BLMOVE", Plain),
    send("sadd", "SADD", Plain),
    send("sadd?", "SADD", Plain),
    send("srem", "SREM", Plain),
    send("srem?", "SREM", Plain),
    send("smembers", "SMEMBERS", Plain),
    send("sismember", "SISMEMBER", Plain),
    send("scard", "SCARD", Plain),
    send("sscan", "SSCAN", Plain),
    send("zscan", "ZSCAN", Plain),
    send("hscan", "HSCAN", Plain),
    send("setex", "SETEX", Plain),
    send("psetex", "PSETEX", Plain),
    send("setnx", "SETNX", Plain),
    send("unlink", "UNLINK", Plain),
    send("incrby", "INCRBY", Plain),
    send("get", "GET", Plain).generic(),
    send("set", "SET", Plain).generic(),
    send("del", "DEL", Plain).generic(),
    send("exists", "EXISTS", Plain).generic(),
    send("exists?", "EXISTS", Plain).generic(),
    send("expire", "EXPIRE", Plain).generic(),
    send("pexpire", "PEXPIRE", Plain).generic(),
    send("incr", "INCR", Plain).generic(),
    send("decr", "DECR", Plain).generic(),
    send("publish", "PUBLISH", Plain).generic(),
];

/// The row of a call of `name`, if any.
pub(super) fn lookup(name: &str) -> Option<&'static Method> {
    CLIENTS.lookup(name, 0)
}

crate::extract::clients::client_calls!(CLIENTS);
