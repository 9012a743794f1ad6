//! What the tables of redis-py and redis-rb share: both clients mirror the
//! command set, a method named after each command in lower case, with the
//! same arguments on the wire and on the same receivers ([`ROWS`]); both
//! tables are of one kind ([`table`]). A method one of them names or maps
//! otherwise (`delete`, `mapped_hmset`, redis-py's `incr`) is a row of
//! that language's `client.rs`, written with the same [`send`] and
//! [`other`]. The rows name no client: they are the table's.

use super::{
    Args::{self, Pairs, Plain, Scores},
    Case, Method, Needles, Sends, Table,
};

/// A method that sends `command` on any receiver.
pub(crate) const fn send(name: &'static str, command: &'static str, args: Args) -> Method {
    Method::send("", name, command, args)
}

/// A method of its own kind, on a Redis-like receiver.
pub(crate) const fn other(name: &'static str, sends: Sends) -> Method {
    Method::new("", name, sends).generic()
}

/// A table of this kind: `methods` (the language's own rows and
/// [`ROWS`]), names compared as written, a needle `.name` per method (a
/// generic one only with a receiver word in the file), one per prefix of
/// `named` (`:name`), and `extra`.
pub(crate) const fn table(
    language: &'static str,
    clients: &'static str,
    methods: &'static [&'static [Method]],
    receiver_words: &'static [&'static str],
    (extra, named): (&'static [&'static str], &'static [&'static str]),
    cases: &'static str,
) -> Table {
    Table {
        language,
        clients,
        methods,
        receiver_words,
        case: Case::Exact,
        needles: Some(Needles {
            open: "",
            extra,
            guarded: true,
            blind: false,
            named,
        }),
        cases,
        twins: &[],
        lua_macros: &[],
    }
}

/// The rows both clients have.
pub(crate) const ROWS: &[Method] = &[
    other("eval", Sends::Eval("EVAL")),
    other("evalsha", Sends::Eval("EVALSHA")),
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
    send("exists", "EXISTS", Plain).generic(),
    send("expire", "EXPIRE", Plain).generic(),
    send("pexpire", "PEXPIRE", Plain).generic(),
    send("publish", "PUBLISH", Plain).generic(),
];
