//! The JavaScript and TypeScript Redis client methods wirelint reads, as
//! rows of the shared client table (`crate::extract::clients`): ioredis and
//! node-redis (v3's lower-case methods, v4's camel-case ones, which name the
//! same commands: names compare without regard to case), and the twins
//! bluebird's `promisifyAll` gives their methods (`hgetAsync`). `calls.rs` reads
//! every call through [`lookup`]; the prefilter takes [`client_calls`].
//!
//! # Adding a method
//!
//! One row in [`METHODS`]: `send("zincrby", "ZINCRBY", Spread)`, with
//! `.generic()` when other types have a method of that name (`get`, `set`,
//! `del`): such a call counts only on a Redis-like receiver. Then a line
//! calling it in `tests/client_methods/ts.ts` with what it yields in a
//! trailing comment.

use crate::extract::clients::{
    Args::{self, Pairs, Spread},
    Arity::AtLeast,
    Case, Method, Needles, Receiver, Sends, Table, Twins,
};

/// The JavaScript and TypeScript clients' table.
pub(crate) const CLIENTS: Table = Table {
    language: "JavaScript and TypeScript",
    clients: "ioredis, node-redis (v3 and v4)",
    methods: &[METHODS],
    receiver_words: &["redis", "client", "multi", "pipeline"],
    case: Case::Blind,
    // A method read by a string subscript (`redis["evalsha"](..)`,
    // `member.rs`) is named after `["`, `['` or `` [` ``.
    needles: Some(Needles {
        open: "",
        extra: &[
            ".defineCommand",
            "defineScript",
            ".script",
            "[\"defineCommand\"]",
            "['defineCommand']",
            "[`defineCommand`]",
            "[\"script\"]",
            "['script']",
            "[`script`]",
        ],
        guarded: true,
        blind: true,
        named: &["[\"", "['", "[`"],
    }),
    cases: "tests/client_methods/ts.ts",
    twins: &[Twins {
        library: "bluebird's `promisifyAll`",
        suffix: "Async",
    }],
    lua_macros: &[],
};

const CLIENT: &str = "ioredis, node-redis";

const fn send(name: &'static str, command: &'static str, args: Args) -> Method {
    Method::send(CLIENT, name, command, args).arity(AtLeast(1))
}

const fn special(
    clients: &'static str,
    name: &'static str,
    least: usize,
    sends: Sends,
    receiver: Receiver,
) -> Method {
    Method::new(clients, name, sends)
        .arity(AtLeast(least))
        .on(receiver)
}

use Receiver::{Any, RedisLike};

/// Every client method wirelint reads; names compare without regard to
/// case (`hset`, `hSet`).
pub(super) const METHODS: &[Method] = &[
    special(CLIENT, "eval", 2, Sends::Eval("EVAL"), RedisLike),
    special(CLIENT, "evalsha", 2, Sends::Eval("EVALSHA"), Any),
    special(CLIENT, "eval_ro", 2, Sends::Eval("EVAL_RO"), Any),
    special(CLIENT, "evalsha_ro", 2, Sends::Eval("EVALSHA_RO"), Any),
    // valkey-glide's `fcall(name, keys, args)` takes two arrays where
    // ioredis's takes a count (`calls.rs` tells them by the keys' array).
    special(
        "ioredis, valkey-glide",
        "fcall",
        2,
        Sends::Eval("FCALL"),
        Any,
    ),
    special("ioredis", "fcall_ro", 2, Sends::Eval("FCALL_RO"), Any),
    special(
        "valkey-glide",
        "fcallReadonly",
        2,
        Sends::Eval("FCALL_RO"),
        Any,
    ),
    special("ioredis", "call", 1, Sends::Named, RedisLike),
    special("node-redis v3", "send_command", 1, Sends::Named, Any),
    special("node-redis v4", "sendCommand", 1, Sends::Named, Any),
    special(CLIENT, "multi", 0, Sends::Batch, RedisLike),
    special("ioredis", "pipeline", 0, Sends::Batch, RedisLike),
    send("hset", "HSET", Pairs),
    send("hsetnx", "HSETNX", Spread),
    send("hmset", "HMSET", Pairs),
    send("hget", "HGET", Spread),
    send("hmget", "HMGET", Spread),
    send("hgetall", "HGETALL", Spread),
    send("hincrby", "HINCRBY", Spread),
    send("hincrbyfloat", "HINCRBYFLOAT", Spread),
    send("hdel", "HDEL", Spread),
    send("hexists", "HEXISTS", Spread),
    send("hkeys", "HKEYS", Spread),
    send("hvals", "HVALS", Spread),
    send("hlen", "HLEN", Spread),
    send("zadd", "ZADD", Spread),
    send("zrem", "ZREM", Spread),
    send("zscore", "ZSCORE", Spread),
    send("zcard", "ZCARD", Spread),
    send("zrange", "ZRANGE", Spread),
    send("zrangebyscore", "ZRANGEBYSCORE", Spread),
    send("zremrangebyscore", "ZREMRANGEBYSCORE", Spread),
    send("lpush", "LPUSH", Spread),
    send("rpush", "RPUSH", Spread),
    send("lrem", "LREM", Spread),
    send("llen", "LLEN", Spread),
    send("lrange", "LRANGE", Spread),
    send("rpoplpush", "RPOPLPUSH", Spread),
    send("brpoplpush", "BRPOPLPUSH", Spread),
    send("lmove", "LMOVE", Spread),
    send("blmove", "BLMOVE", Spread),
    send("sadd", "SADD", Spread),
    send("srem", "SREM", Spread),
    send("smembers", "SMEMBERS", Spread),
    send("sismember", "SISMEMBER", Spread),
    send("incrby", "INCRBY", Spread),
    send("pexpire", "PEXPIRE", Spread),
    send("get", "GET", Spread).generic(),
    send("set", "SET", Spread).generic(),
    send("del", "DEL", Spread).generic(),
    send("exists", "EXISTS", Spread).generic(),
    send("expire", "EXPIRE", Spread).generic(),
    send("incr", "INCR", Spread).generic(),
    send("publish", "PUBLISH", Spread).generic(),
];

/// The row of a call of `name` with `args` arguments, if any.
pub(super) fn lookup(name: &str, args: usize) -> Option<&'static Method> {
    CLIENTS.lookup(name, args)
}

/// Whether `name` is a client method (so a call of it is no call of the
/// code base).
pub(super) fn is_client_method(name: &str) -> bool {
    CLIENTS.is_client_method(name)
}

/// Whether a JavaScript or TypeScript file may call Redis through a
/// client: `.name` of a method of the table (in any case; a generic name
/// only with a receiver word in a file that names Redis), or a Redis
/// script registered or loaded (`defineCommand`, `defineScript`,
/// `.script`).
pub(crate) fn client_calls(bytes: &[u8]) -> bool {
    static NEEDLES: std::sync::LazyLock<[aho_corasick::AhoCorasick; 3]> =
        std::sync::LazyLock::new(|| CLIENTS.automata());
    let [any, guarded, guards] = &*NEEDLES;
    any.is_match(bytes)
        || (guarded.is_match(bytes)
            && guards.is_match(bytes)
            && crate::extract::needles::names_client(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_found_in_any_case_and_generic_names_need_a_redis_receiver() {
        assert_eq!(lookup("hSet", 3).map(|m| m.name), Some("hset"));
        assert_eq!(lookup("HGETALL", 1).map(|m| m.name), Some("hgetall"));
        assert!(lookup("evalsha", 1).is_none());
        let get = lookup("get", 1).unwrap();
        assert!(CLIENTS.admits(get.receiver, "this.redis"));
        assert!(!CLIENTS.admits(get.receiver, "cache"));
        assert!(client_calls(b"await redis.hset(k, 'a', 1)"));
        assert!(client_calls(b"client.hGetAll(key)"));
        assert!(client_calls(b"redisConn.get(key)"));
        assert!(client_calls(b"redis\n  .hset (k, 'a', 1)"));
        assert!(!client_calls(b"map.get(key); cache.set(k, v)"));
        assert!(!client_calls(b"app.get('/', handler)"));
    }
}
