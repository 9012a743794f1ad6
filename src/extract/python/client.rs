//! The redis-py methods wirelint reads, declared once.
//!
//! [`METHODS`] is the table, as rows of the shared client table
//! (`crate::extract::clients`), of the methods of redis-py's clients
//! (`redis.Redis`, `redis.asyncio.Redis`, their pipelines, `Script`) that
//! send a Redis command or run a script. Each row says what a call sends,
//! how its arguments map onto the wire, and on which receivers it counts.
//! Two readers are driven by it:
//!
//! - the extractor: `calls.rs` reads every method call through [`lookup`];
//! - the prefilter: a Python file can yield a Redis fact only if it holds
//!   one of the table's needles (`.hset`, `.register_script`, ...), which the
//!   Python host language gives it (`src/extract/lang.rs`).
//!
//! The asyncio client has the same methods (`await r.hset(..)`: the await
//! wraps the same call). Which of a command's arguments are keys or hash
//! fields is `crate::redis`'s, the same for every language.
//!
//! # Adding a method
//!
//! One row: `send("zincrby", "ZINCRBY", Args::Plain)`; `generic(..)` when
//! other Python types have a method of that name (`get`, `set`, `delete`):
//! the call then counts only on a Redis-like receiver.

use crate::extract::clients::{
    Args::{self, Pairs, Plain, Scores},
    Case, Method, Needles, Sends, Table,
};

/// The Python clients' table.
pub(crate) const CLIENTS: Table = Table {
    language: "Python",
    clients: "redis-py (sync and asyncio)",
    methods: METHODS,
    receiver_words: RECEIVER_WORDS,
    case: Case::Exact,
    needles: Some(Needles {
        open: "",
        extra: &["keys", "Script("],
        guarded: true,
        blind: false,
    }),
    cases: "tests/client_methods/python.py",
};

/// Words in a receiver's text that make it Redis-like.
pub(super) const RECEIVER_WORDS: &[&str] = &["redis", "conn", "client", "pipe", "pool"];

const CLIENT: &str = "redis-py";

/// A method that sends `command` on any receiver.
const fn send(name: &'static str, command: &'static str, args: Args) -> Method {
    Method::send(CLIENT, name, command, args)
}

/// A method of its own kind, on a Redis-like receiver.
const fn other(name: &'static str, sends: Sends) -> Method {
    Method::new(CLIENT, name, sends).generic()
}

pub(super) const METHODS: &[Method] = &[
    other("execute_command", Sends::Named),
    other("eval", Sends::Eval("EVAL")),
    other("evalsha", Sends::Eval("EVALSHA")),
    other("eval_ro", Sends::Eval("EVAL_RO")),
    other("evalsha_ro", Sends::Eval("EVALSHA_RO")),
    other("fcall", Sends::Eval("FCALL")),
    other("fcall_ro", Sends::Eval("FCALL_RO")),
    other("register_script", Sends::Register),
    send("hset", "HSET", Pairs),
    send("hsetnx", "HSETNX", Plain),
    send("hmset", "HMSET", Pairs),
    send("hget", "HGET", Plain),
    send("hmget", "HMGET", Plain),
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
    send("zremrangebyscore", "ZREMRANGEBYSCORE", Plain),
    send("zpopmin", "ZPOPMIN", Plain),
    send("lpush", "LPUSH", Plain),
    send("rpush", "RPUSH", Plain),
    send("lrem", "LREM", Plain),
    send("llen", "LLEN", Plain),
    send("lrange", "LRANGE", Plain),
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
    send("srem", "SREM", Plain),
    send("smembers", "SMEMBERS", Plain),
    send("sismember", "SISMEMBER", Plain),
    send("scard", "SCARD", Plain),
    send("setex", "SETEX", Plain),
    send("psetex", "PSETEX", Plain),
    send("setnx", "SETNX", Plain),
    send("get", "GET", Plain).generic(),
    send("set", "SET", Plain).generic(),
    send("delete", "DEL", Plain).generic(),
    send("exists", "EXISTS", Plain).generic(),
    send("expire", "EXPIRE", Plain).generic(),
    send("pexpire", "PEXPIRE", Plain).generic(),
    send("incr", "INCRBY", Plain).generic(),
    send("incrby", "INCRBY", Plain).generic(),
    send("publish", "PUBLISH", Plain).generic(),
];

/// The row of a call of `name`, if any.
pub(super) fn lookup(name: &str) -> Option<&'static Method> {
    CLIENTS.lookup(name, 0)
}

crate::extract::clients::client_calls!(CLIENTS);
