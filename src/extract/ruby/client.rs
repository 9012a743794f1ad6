//! The redis-rb and redis-client methods wirelint reads, declared once.
//!
//! [`CLIENTS`] is the table, as rows of the shared client table
//! (`crate::extract::clients`: the rows redis-py and redis-rb both have in
//! `clients/shared.rs`, [`METHODS`] here), of the methods of Ruby's Redis clients
//! (redis-rb's `Redis`, its pipelines and `multi` blocks, redis-client's
//! `RedisClient` and its pipelines, the connection pools that hand them
//! out, and the script objects of the redis-prescription gem) that send a
//! Redis command or run a script. Each row says what
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
    shared::{self, other, send},
    Args::{Pairs, Plain},
    Method, Receiver, RunArgs, Sends, Table,
};

/// The Ruby clients' table.
pub(crate) const CLIENTS: Table = shared::table(
    "Ruby",
    "redis-rb, redis-client",
    &[METHODS, shared::ROWS],
    &["redis", "conn", "client", "pipe", "transaction"],
    // `public_send(:hset, ..)` and `method(:hset)` name the method by a
    // symbol or a string (`send.rs`); `send`, `public_send` and `__send__`
    // end alike.
    (
        &[],
        &[
            "send(:",
            "send :",
            "send(\"",
            "send('",
            "send \"",
            "send '",
            "method(:",
            "method(\"",
            "method('",
        ],
    ),
    "tests/client_methods/ruby.rb",
);

/// Methods whose block is given a client: `redis { |conn| .. }`,
/// `pool.with { |conn| .. }`, `r.pipelined { |p| .. }`, `r.multi { |tx| .. }`.
pub(super) const BLOCK_CLIENTS: &[&str] = &["redis", "with", "pipelined", "multi", "then"];

pub(super) const METHODS: &[Method] = &[
    other("call", Sends::Named),
    other("call_v", Sends::Named),
    other("script", Sends::Register),
    // redis-prescription: `RedisPrescription.new(lua)` makes a script
    // object, `script.call(redis, keys: [..], argv: [..])` runs it
    // (EVALSHA, then EVAL).
    Method::new(RP, "RedisPrescription.new", Sends::Register),
    Method::new(RP, "call", Sends::Run(RunArgs::Keywords)).on(Receiver::Script),
    send("mapped_hmset", "HMSET", Pairs),
    send("mapped_hmget", "HMGET", Plain),
    send("zrevrangebyscore", "ZREVRANGEBYSCORE", Plain),
    send("zremrangebyrank", "ZREMRANGEBYRANK", Plain),
    send("zpopmax", "ZPOPMAX", Plain),
    send("lindex", "LINDEX", Plain),
    send("sadd?", "SADD", Plain),
    send("srem?", "SREM", Plain),
    send("sscan", "SSCAN", Plain),
    send("zscan", "ZSCAN", Plain),
    send("hscan", "HSCAN", Plain),
    send("unlink", "UNLINK", Plain),
    send("incrby", "INCRBY", Plain),
    send("del", "DEL", Plain).generic(),
    send("exists?", "EXISTS", Plain).generic(),
    send("incr", "INCR", Plain).generic(),
    send("decr", "DECR", Plain).generic(),
];

const RP: &str = "redis-prescription";

/// The row of a call of `name`, if any.
pub(super) fn lookup(name: &str) -> Option<&'static Method> {
    CLIENTS.lookup(name, 0)
}

/// The row of a call of `name` on a script object, if any.
pub(super) fn script_method(name: &str) -> Option<&'static Method> {
    CLIENTS.lookup_on(name, usize::MAX, Receiver::Script)
}

/// Whether `path` (`RedisPrescription.new`) makes a script object of its
/// one argument.
pub(super) fn makes_script(path: &str) -> bool {
    CLIENTS
        .lookup_on(path, 1, Receiver::Any)
        .is_some_and(|m| m.sends == Sends::Register)
}

crate::extract::clients::client_calls!(CLIENTS);
