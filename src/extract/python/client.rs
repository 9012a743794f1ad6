//! The redis-py methods wirelint reads, declared once.
//!
//! [`CLIENTS`] is the table, as rows of the shared client table
//! (`crate::extract::clients`: the rows redis-py and redis-rb both have in
//! `clients/shared.rs`, [`METHODS`] here), of the methods of redis-py's clients
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
//! wraps the same call), and so has coredis, whose `eval` and `evalsha`
//! take the keys and the args as two lists (`eval(script, keys=[..],
//! args=[..])`, or positionally with a list second), where redis-py takes
//! a count and then both (`calls.rs` tells them apart by those
//! arguments). Which of a command's arguments are keys or hash fields is
//! `crate::redis`'s, the same for every language.
//!
//! # Adding a method
//!
//! One row: `send("zincrby", "ZINCRBY", Args::Plain)`; `generic(..)` when
//! other Python types have a method of that name (`get`, `set`, `delete`):
//! the call then counts only on a Redis-like receiver.

use crate::extract::clients::{
    shared::{self, other, send},
    Args::Plain,
    Method, Sends, Table,
};

/// The Python clients' table.
pub(crate) const CLIENTS: Table = shared::table(
    "Python",
    "redis-py (sync and asyncio), coredis",
    &[METHODS, shared::ROWS],
    &["redis", "conn", "client", "pipe", "pool"],
    // `getattr(r, "hset")` names the method by a string after the object
    // (`methods.rs`): `, "hset` is a needle too.
    (&["keys", "Script("], &[", \"", ",\"", ", '", ",'"]),
    "tests/client_methods/python.py",
);

pub(super) const METHODS: &[Method] = &[
    other("execute_command", Sends::Named),
    other("eval_ro", Sends::Eval("EVAL_RO")),
    other("evalsha_ro", Sends::Eval("EVALSHA_RO")),
    other("fcall", Sends::Eval("FCALL")),
    other("fcall_ro", Sends::Eval("FCALL_RO")),
    other("register_script", Sends::Register),
    send("delete", "DEL", Plain).generic(),
    send("incr", "INCRBY", Plain).generic(),
    send("incrby", "INCRBY", Plain).generic(),
];

/// The row of a call of `name`, if any.
pub(super) fn lookup(name: &str) -> Option<&'static Method> {
    CLIENTS.lookup(name, 0)
}

crate::extract::clients::client_calls!(CLIENTS);
