//! The Rust client methods wirelint reads: redis-rs (and deadpool-redis,
//! bb8-redis and mobc, which hand out its connections), fred and rustis, as rows
//! of the shared client table (`crate::extract::clients`).
//!
//! Not in the table: how a chain starts (`redis::cmd("X")`, `redis::pipe()`,
//! `Pipeline::new()`, a typed `Cmd::hset(..)`; `commands.rs` reads those by
//! path).
//!
//! # Adding a method
//!
//! 1. One row in [`METHODS`]: `send(RS, "zincrby", "ZINCRBY", Plain)`; add
//!    `.generic()` when other types have a method of that name (`get`,
//!    `set`): the call then counts only on a Redis-like receiver. When the
//!    argument count changes the shape (fred's two-argument `hset` takes
//!    pairs), put a row narrowed with `.arity(Exactly(n))` before the
//!    general one: the first row that fits a call is its row.
//! 2. A line calling it in `tests/client_methods/rust.rs`, with what it
//!    yields in a trailing comment: `con.zincrby(k, 2, "m"); // ZINCRBY <k>
//!    <2> m`.
//! 3. `cargo test --lib extract::clients` prints `docs/clients.md` anew
//!    where it is out of date.

use crate::extract::clients::{
    Args::{Pairs, Plain, Spread},
    Arity::{AtLeast, Exactly},
    Case, Method, Needles, Receiver, Sends, Table,
};

/// The Rust clients' table.
pub(crate) const CLIENTS: Table = Table {
    language: "Rust",
    clients: "redis-rs (with deadpool-redis, bb8-redis, mobc), fred, rustis",
    methods: &[METHODS],
    receiver_words: &["con", "redis", "pipe", "client", "pool"],
    case: Case::Exact,
    needles: Some(Needles {
        open: "",
        extra: &["cmd"],
        guarded: true,
        blind: true,
        named: &[],
    }),
    cases: "tests/client_methods/rust.rs",
    twins: &[],
    lua_macros: LUA_MACROS,
};

const RS: &str = "redis-rs";
const FRED: &str = "fred";
const RUSTIS: &str = "rustis";
const BOTH: &str = "redis-rs, fred";

const fn send(
    clients: &'static str,
    name: &'static str,
    cmd: &'static str,
    args: crate::extract::clients::Args,
) -> Method {
    Method::send(clients, name, cmd, args).arity(AtLeast(1))
}

/// A method of the chain being built (redis-rs).
const fn chain(name: &'static str, sends: Sends) -> Method {
    Method::new(RS, name, sends).on(Receiver::Chain)
}

/// fred's script call in one method: `(script or SHA, keys, args)`.
const fn eval(name: &'static str, cmd: &'static str) -> Method {
    Method::new(FRED, name, Sends::Eval(cmd)).arity(Exactly(3))
}

/// rustis's script call: its one argument builds it
/// ([`CALL_BUILDER`]). On a Redis-like receiver only: other crates have an
/// `eval` of one argument (a scripting engine's).
const fn built(name: &'static str, cmd: &'static str) -> Method {
    Method::new(RUSTIS, name, Sends::Eval(cmd))
        .arity(Exactly(1))
        .generic()
}

/// rustis's builder of a script call, and its constructors that name the
/// script (its text, or its SHA1): `CallBuilder::script(s).keys(k)
/// .args(a)`.
pub(super) const CALL_BUILDER: (&str, &[&str]) = ("CallBuilder", &["script", "sha1"]);

/// fred's type of a command sent by name, and its constructors: the first
/// argument of each names the command (`CustomCommand::new_static("EVAL",
/// None, false)`), which `custom(cmd, args)` sends.
pub(super) const CUSTOM_COMMAND: (&str, &[&str]) = ("CustomCommand", &["new", "new_static"]);

/// redis-rs's invocation type and the field that holds the script it runs:
/// `ScriptInvocation { script: self, args: vec![], keys: vec![] }.invoke(con)`
/// runs `self` (its fields are private, so only redis-rs builds one so).
pub(super) const INVOCATION: (&str, &str) = ("ScriptInvocation", "script");

/// Macros whose tokens are a Lua script, by the crate that defines them
/// and their name: the redis-lua crate's `lua! { return @x }` (a script
/// object, run by its `invoke`) and `lua_s! { .. }` (the script's text).
/// `@x` and `$x` in the tokens name the values the script is sent as
/// arguments. A macro is one of these by its path, as written
/// (`redis_lua::lua!`) or as a `use` imports it.
pub(super) const LUA_MACROS: &[(&str, &str)] = &[("redis_lua", "lua"), ("redis_lua", "lua_s")];

/// Every Rust client method wirelint reads. For a call, the first row with
/// its name that admits its argument count is its row; a call with no row
/// is not a Redis one.
pub(super) const METHODS: &[Method] = &[
    // Building a command or a script call (redis-rs).
    chain("cmd", Sends::PipelineCommand).arity(Exactly(1)),
    chain("arg", Sends::Arg).arity(Exactly(1)),
    chain("key", Sends::ScriptKey),
    chain("prepare_invoke", Sends::PrepareInvoke),
    chain("invoke", Sends::Invoke),
    chain("invoke_async", Sends::Invoke),
    chain("invoke_script", Sends::InvokeArgument).arity(Exactly(1)),
    chain("query", Sends::Query),
    chain("query_async", Sends::Query),
    chain("execute", Sends::Query).shared_name(),
    // A command by name, its arguments a list (fred).
    Method::new(FRED, "custom", Sends::Named)
        .arity(Exactly(2))
        .generic(),
    Method::new(FRED, "custom_raw", Sends::Named)
        .arity(Exactly(2))
        .generic(),
    // A script call in one method (rustis, then fred).
    built("eval", "EVAL"),
    built("evalsha", "EVALSHA"),
    built("eval_readonly", "EVAL_RO"),
    built("evalsha_readonly", "EVALSHA_RO"),
    eval("eval", "EVAL"),
    eval("evalsha", "EVALSHA"),
    eval("evalsha_with_reload", "EVALSHA"),
    eval("eval_with_reload", "EVAL"),
    // Typed commands (redis-rs `Commands`/`AsyncCommands`, fred).
    send(FRED, "hset", "HSET", Pairs).arity(Exactly(2)),
    send(BOTH, "hset", "HSET", Plain),
    send(RS, "hset_nx", "HSETNX", Plain),
    send(FRED, "hsetnx", "HSETNX", Plain),
    send(RS, "hset_multiple", "HSET", Pairs),
    send(BOTH, "hmset", "HMSET", Pairs),
    send(BOTH, "hget", "HGET", Plain),
    send(FRED, "hmget", "HMGET", Spread),
    send(RS, "hincr", "HINCRBY", Plain),
    send(FRED, "hincrby", "HINCRBY", Plain),
    send(BOTH, "hdel", "HDEL", Spread),
    send(BOTH, "hgetall", "HGETALL", Plain),
    send(BOTH, "hexists", "HEXISTS", Plain),
    send(BOTH, "hkeys", "HKEYS", Plain),
    send(BOTH, "hvals", "HVALS", Plain),
    send(BOTH, "hlen", "HLEN", Plain),
    send(BOTH, "zadd", "ZADD", Plain),
    send(BOTH, "zrem", "ZREM", Spread),
    send(BOTH, "zscore", "ZSCORE", Plain),
    send(BOTH, "zcard", "ZCARD", Plain),
    send(BOTH, "zrangebyscore", "ZRANGEBYSCORE", Plain),
    send(BOTH, "lpush", "LPUSH", Spread),
    send(BOTH, "rpush", "RPUSH", Spread),
    send(BOTH, "lrem", "LREM", Plain),
    send(BOTH, "llen", "LLEN", Plain),
    send(BOTH, "lrange", "LRANGE", Plain),
    send(BOTH, "rpoplpush", "RPOPLPUSH", Plain),
    send(BOTH, "brpoplpush", "BRPOPLPUSH", Plain),
    send(BOTH, "lmove", "LMOVE", Plain),
    send(BOTH, "sadd", "SADD", Spread),
    send(BOTH, "srem", "SREM", Spread),
    send(BOTH, "smembers", "SMEMBERS", Plain),
    send(BOTH, "sismember", "SISMEMBER", Plain),
    send(BOTH, "del", "DEL", Spread).generic(),
    send(BOTH, "get", "GET", Plain).generic().arity(Exactly(1)),
    send(BOTH, "set", "SET", Plain).generic().arity(AtLeast(2)),
    send(BOTH, "exists", "EXISTS", Spread).generic(),
    send(BOTH, "expire", "EXPIRE", Plain).generic(),
    send(BOTH, "incr", "INCRBY", Plain).generic(),
    send(BOTH, "publish", "PUBLISH", Plain).generic(),
];

/// The row of a call of `name` with `args` arguments, if any.
pub(super) fn lookup(name: &str, args: usize) -> Option<&'static Method> {
    CLIENTS.lookup(name, args)
}

/// Whether `name` is a client method, so a call of it is not a call of the
/// code base.
pub(super) fn is_client_method(name: &str) -> bool {
    CLIENTS.is_client_method(name)
}

/// Whether `name` sends a command on any receiver (`hset`, not `get`).
pub(super) fn is_typed_command(name: &str) -> bool {
    METHODS.iter().any(|m| {
        m.name == name && matches!(m.sends, Sends::Command(..)) && m.receiver == Receiver::Any
    })
}

// `client_calls`: whether a Rust file holds a call that may begin a Redis
// fact (the prefilter asks it of files that name a client).
crate::extract::clients::client_calls!(CLIENTS);
