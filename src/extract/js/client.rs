//! The JavaScript and TypeScript Redis client methods wirelint reads,
//! declared once: ioredis and node-redis (v3's lower-case methods, v4's
//! camel-case ones, which name the same commands).
//!
//! [`METHODS`] says, for each method, what a call of it sends and how its
//! arguments map onto the wire. Two readers are driven by it: the extractor
//! (`calls.rs`, through [`lookup`]) and the prefilter ([`client_calls`],
//! which the JavaScript and TypeScript hosts give it). Which of a command's
//! arguments are keys or hash fields is `crate::redis`'s, the same for
//! every language.
//!
//! # Adding a method
//!
//! One row in [`METHODS`]: `send("zincrby", "ZINCRBY", Args::Plain)`, or
//! `generic(..)` when other types have a method of that name (`get`, `set`,
//! `del`): such a call counts only on a Redis-like receiver. node-redis v4's
//! camel-case spelling (`zIncrBy`) is the same row: names are compared
//! without regard to case. Then a line calling it in a fixture under
//! `fixtures/js-clients/`.

/// How a call's arguments become the command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Args {
    /// One wire argument each; an array literal gives its items (ioredis
    /// and node-redis flatten arrays), an array the code does not show
    /// leaves the tail open.
    Spread,
    /// The key, then an object's properties as field/value pairs
    /// (`hset(k, {state: s})`), or the rest as written.
    Pairs,
}

/// What a call of the method sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sends {
    /// One command, its arguments mapped as [`Args`] says.
    Command(&'static str, Args),
    /// `eval(script, numkeys, ...keys, ...args)`, `evalsha(sha, ..)`; with
    /// node-redis v4, `eval(script, {keys, arguments})`.
    Eval(&'static str),
    /// `call("HSET", ..)`, `send_command("hset", [..])`,
    /// `sendCommand(["HSET", ..])`: the command its first string names.
    Named,
    /// `multi([["hset", ..], ..])`, `pipeline([..])`: each array a command;
    /// without arguments, the start of a chain of commands.
    Batch,
}

/// On which receivers a call counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Receiver {
    /// Any: the name is the client's own (`hset`, `evalsha`).
    Any,
    /// A receiver whose text holds one of [`RECEIVER_WORDS`], or a chain
    /// started by `multi()`/`pipeline()`: maps, sets and caches have
    /// methods of this name.
    RedisLike,
}

/// Words in a receiver's text that make it Redis-like.
pub(super) const RECEIVER_WORDS: &[&str] = &["redis", "client", "multi", "pipeline"];

#[derive(Clone, Copy, Debug)]
pub(super) struct MethodSpec {
    pub(super) name: &'static str,
    /// Arguments a call needs, at least.
    pub(super) least: usize,
    pub(super) sends: Sends,
    pub(super) receiver: Receiver,
}

impl Receiver {
    pub(super) fn admits(self, text: &str) -> bool {
        let text = text.to_ascii_lowercase();
        match self {
            Receiver::Any => true,
            Receiver::RedisLike => RECEIVER_WORDS.iter().any(|w| text.contains(w)),
        }
    }
}

const fn send(name: &'static str, command: &'static str, args: Args) -> MethodSpec {
    MethodSpec {
        name,
        least: 1,
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

const fn special(name: &'static str, least: usize, sends: Sends, receiver: Receiver) -> MethodSpec {
    MethodSpec {
        name,
        least,
        sends,
        receiver,
    }
}

use Args::{Pairs, Spread};

/// Every client method wirelint reads; names compare without regard to
/// case (`hset`, `hSet`).
pub(super) const METHODS: &[MethodSpec] = &[
    special("eval", 2, Sends::Eval("EVAL"), Receiver::RedisLike),
    special("evalsha", 2, Sends::Eval("EVALSHA"), Receiver::Any),
    special("eval_ro", 2, Sends::Eval("EVAL_RO"), Receiver::Any),
    special("evalsha_ro", 2, Sends::Eval("EVALSHA_RO"), Receiver::Any),
    special("call", 1, Sends::Named, Receiver::RedisLike),
    special("send_command", 1, Sends::Named, Receiver::Any),
    special("sendCommand", 1, Sends::Named, Receiver::Any),
    special("multi", 0, Sends::Batch, Receiver::RedisLike),
    special("pipeline", 0, Sends::Batch, Receiver::RedisLike),
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
    generic("get", "GET", Spread),
    generic("set", "SET", Spread),
    generic("del", "DEL", Spread),
    generic("exists", "EXISTS", Spread),
    generic("expire", "EXPIRE", Spread),
    generic("incr", "INCR", Spread),
    generic("publish", "PUBLISH", Spread),
];

/// The row of a call of `name` with `args` arguments, if any.
pub(super) fn lookup(name: &str, args: usize) -> Option<&'static MethodSpec> {
    METHODS
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(name) && args >= m.least)
}

/// Whether `name` is a client method (so a call of it is no call of the
/// code base).
pub(super) fn is_client_method(name: &str) -> bool {
    METHODS.iter().any(|m| m.name.eq_ignore_ascii_case(name))
}

/// Whether a JavaScript or TypeScript file may call Redis through a
/// client: `.name` of a method of the table (in any case; a generic name
/// only with a receiver word in a file that names Redis), or a Redis
/// script registered or loaded (`defineCommand`, `defineScript`,
/// `.script`).
pub(crate) fn client_calls(bytes: &[u8]) -> bool {
    static NEEDLES: std::sync::LazyLock<aho_corasick::AhoCorasick> =
        std::sync::LazyLock::new(|| {
            let mut words: Vec<String> = METHODS
                .iter()
                .filter(|m| m.receiver == Receiver::Any)
                .map(|m| format!(".{}", m.name))
                .collect();
            words.extend(
                [".defineCommand", "defineScript", ".script"]
                    .iter()
                    .map(|s| s.to_string()),
            );
            aho_corasick::AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .build(&words)
                .expect("the needles are short literals")
        });
    static GUARDED: std::sync::LazyLock<[aho_corasick::AhoCorasick; 2]> =
        std::sync::LazyLock::new(|| {
            let build = |w: Vec<String>| {
                aho_corasick::AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .build(&w)
                    .expect("the needles are short literals")
            };
            let guarded = METHODS
                .iter()
                .filter(|m| m.receiver == Receiver::RedisLike)
                .map(|m| format!(".{}", m.name))
                .collect();
            let guards = RECEIVER_WORDS.iter().map(|w| w.to_string()).collect();
            [build(guarded), build(guards)]
        });
    let [guarded, guards] = &*GUARDED;
    NEEDLES.is_match(bytes)
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
        assert!(get.receiver.admits("this.redis"));
        assert!(!get.receiver.admits("cache"));
        assert!(client_calls(b"await redis.hset(k, 'a', 1)"));
        assert!(client_calls(b"client.hGetAll(key)"));
        assert!(client_calls(b"redisConn.get(key)"));
        assert!(client_calls(b"redis\n  .hset (k, 'a', 1)"));
        assert!(!client_calls(b"map.get(key); cache.set(k, v)"));
        assert!(!client_calls(b"app.get('/', handler)"));
    }
}
