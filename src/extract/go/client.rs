//! The go-redis, redigo, rueidis and radix methods wirelint reads, as rows
//! of the shared client table (`crate::extract::clients`): the methods of
//! go-redis's clients (`redis.Client`, `ClusterClient`, `UniversalClient`,
//! their pipelines and `Tx`, `redis.Script`), of redigo's (`redis.Conn`,
//! `redis.Script`) and of rueidis's and radix's script objects
//! (`rueidis.Lua`, `radix.EvalScript`) that send a Redis command or run a
//! script, and the functions that make a script object (`redis.NewScript`,
//! `rueidis.NewLuaScript`, `radix.NewEvalScript`). `calls.rs`
//! reads every method call through [`lookup`] and every script made
//! through [`maker`]; the prefilter takes the table's needles (`.HSet(`,
//! `.Do(`, `NewScript(`).
//!
//! go-redis and rueidis pass a `context.Context` first (go-redis v8 on); a
//! first argument of that type is not on the wire (`types.rs` says which
//! arguments are one).
//!
//! # Adding a method
//!
//! One row: `send("ZIncrBy", "ZINCRBY", Plain)`, and a line calling it in
//! `tests/client_methods/go.go` with what it yields in a trailing comment.

use crate::extract::clients::{
    Args::{self, Plain, Scores},
    Arity::{AtLeast, Exactly},
    Case, Method, Needles, Receiver, RunArgs, Sends, Table,
};

/// The Go clients' table.
pub(crate) const CLIENTS: Table = Table {
    language: "Go",
    clients: "go-redis (v6 to v9), redigo, rueidis, radix",
    methods: &[METHODS],
    receiver_words: &["redis", "rdb", "conn", "client", "pipe", "pool", "cmdable"],
    case: Case::Exact,
    needles: Some(Needles {
        open: "(",
        extra: &[],
        guarded: false,
        blind: false,
        named: &[],
    }),
    cases: "tests/client_methods/go.go",
    twins: &[],
    lua_macros: &[],
};

/// The packages of the clients' types and functions (the import path's
/// last element, a major version aside).
pub(super) const CLIENT_PACKAGES: &[&str] = &["redis", "rueidis", "radix"];

/// The script objects' types, as (package, name).
pub(super) const SCRIPT_TYPES: &[(&str, &str)] = &[
    ("redis", "Script"),
    ("rueidis", "Lua"),
    ("radix", "EvalScript"),
];

/// Import paths of clients whose path holds no client word (`redis`): a
/// file that imports one names its client (radix's
/// `github.com/mediocregopher/radix/v4`).
pub(super) const CLIENT_IMPORTS: &[&str] = &["mediocregopher/radix"];

/// Whether a file names a Go Redis client: a client word
/// ([`crate::extract::needles::names_client`]) or the import of a client
/// of [`CLIENT_IMPORTS`].
pub(crate) fn names_client(bytes: &[u8]) -> bool {
    crate::extract::needles::names_client(bytes)
        || CLIENT_IMPORTS
            .iter()
            .any(|p| memchr::memmem::find(bytes, p.as_bytes()).is_some())
}

/// The makers whose two-argument form takes the script's key count first:
/// redigo's `NewScript(keyCount, src)`, radix v3's `NewEvalScript(numKeys,
/// src)` (radix v4's takes the script alone).
pub(super) const COUNT_FIRST: &[&str] = &["NewScript", "NewEvalScript"];

const GR: &str = "go-redis";
const RG: &str = "redigo";
const RU: &str = "rueidis";
const RX: &str = "radix";
const BOTH: &str = "go-redis, redigo";

/// A method that sends `command` on a Redis-like receiver.
const fn send(name: &'static str, command: &'static str, args: Args) -> Method {
    Method::send(GR, name, command, args).generic()
}

const fn other(
    clients: &'static str,
    name: &'static str,
    sends: Sends,
    receiver: Receiver,
) -> Method {
    Method::new(clients, name, sends).on(receiver)
}

/// A function of the client's package that makes a script object of its
/// argument.
const fn makes(clients: &'static str, name: &'static str) -> Method {
    Method::new(clients, name, Sends::Register).arity(AtLeast(1))
}

use Receiver::{RedisLike, Script};
use RunArgs::{Counted, KeysThenArgs, TwoLists};

/// Every go-redis, redigo and rueidis method wirelint reads.
pub(super) const METHODS: &[Method] = &[
    makes(GR, "NewScript").arity(Exactly(1)),
    // redigo's `NewScript(keyCount, src)`: the key count first.
    makes(RG, "NewScript").arity(Exactly(2)),
    makes(RU, "NewLuaScript"),
    makes(RU, "NewLuaScriptReadOnly"),
    makes(RU, "NewLuaScriptNoSha"),
    makes(RU, "NewLuaScriptReadOnlyNoSha"),
    makes(RU, "NewLuaScriptRetryable"),
    makes(RU, "NewLuaScriptNoShaRetryable"),
    makes(RX, "NewEvalScript"),
    other(BOTH, "Do", Sends::Named, RedisLike),
    other(RG, "Send", Sends::Named, RedisLike),
    other(GR, "Eval", Sends::Eval("EVAL"), RedisLike),
    other(GR, "EvalSha", Sends::Eval("EVALSHA"), RedisLike),
    other(GR, "EvalRO", Sends::Eval("EVAL_RO"), RedisLike),
    other(GR, "EvalShaRO", Sends::Eval("EVALSHA_RO"), RedisLike),
    other(GR, "FCall", Sends::Eval("FCALL"), RedisLike),
    other(GR, "FCallRO", Sends::Eval("FCALL_RO"), RedisLike),
    other(GR, "FCallRo", Sends::Eval("FCALL_RO"), RedisLike),
    other(GR, "Run", Sends::Run(KeysThenArgs), Script),
    other(GR, "RunRO", Sends::Run(KeysThenArgs), Script),
    other(GR, "Eval", Sends::Run(KeysThenArgs), Script),
    other(GR, "EvalSha", Sends::Run(KeysThenArgs), Script),
    other(GR, "EvalRO", Sends::Run(KeysThenArgs), Script),
    other(GR, "EvalShaRO", Sends::Run(KeysThenArgs), Script),
    other(RG, "Do", Sends::Run(Counted), Script),
    other(RG, "Send", Sends::Run(Counted), Script),
    other(RU, "Exec", Sends::Run(TwoLists), Script),
    // radix: `script.Cmd(&rcv, keysAndArgs..)` (v3, the key count the
    // script's), `script.Cmd(&rcv, keys, args..)` (v4, a list of keys).
    other(RX, "Cmd", Sends::Run(Counted), Script),
    // radix's package functions, the reply's destination first:
    // `radix.Cmd(&rcv, "HSET", k, f, v)`, `radix.FlatCmd(nil, "HSET", k, m)`
    // (a map's pairs in its place).
    other(RX, "Cmd", Sends::Named, Receiver::Any),
    other(RX, "FlatCmd", Sends::Named, Receiver::Any),
    // go-redis's commands built by hand, `redis.NewCmd(ctx, "HSET", k, f,
    // v)`, sent by `rdb.Process(ctx, cmd)`: read where they are built.
    other(GR, "NewCmd", Sends::Named, Receiver::Any),
    other(GR, "NewSliceCmd", Sends::Named, Receiver::Any),
    other(GR, "NewStatusCmd", Sends::Named, Receiver::Any),
    other(GR, "NewIntCmd", Sends::Named, Receiver::Any),
    other(GR, "NewIntSliceCmd", Sends::Named, Receiver::Any),
    other(GR, "NewBoolCmd", Sends::Named, Receiver::Any),
    other(GR, "NewBoolSliceCmd", Sends::Named, Receiver::Any),
    other(GR, "NewStringCmd", Sends::Named, Receiver::Any),
    other(GR, "NewFloatCmd", Sends::Named, Receiver::Any),
    other(GR, "NewStringSliceCmd", Sends::Named, Receiver::Any),
    other(GR, "NewMapStringStringCmd", Sends::Named, Receiver::Any),
    other(GR, "NewMapStringIntCmd", Sends::Named, Receiver::Any),
    other(GR, "NewZSliceCmd", Sends::Named, Receiver::Any),
    send("HSet", "HSET", Plain),
    send("HSetNX", "HSETNX", Plain),
    send("HMSet", "HMSET", Plain),
    send("HGet", "HGET", Plain),
    send("HMGet", "HMGET", Plain),
    send("HGetAll", "HGETALL", Plain),
    send("HDel", "HDEL", Plain),
    send("HExists", "HEXISTS", Plain),
    send("HIncrBy", "HINCRBY", Plain),
    send("HIncrByFloat", "HINCRBYFLOAT", Plain),
    send("HKeys", "HKEYS", Plain),
    send("HVals", "HVALS", Plain),
    send("HLen", "HLEN", Plain),
    send("ZAdd", "ZADD", Scores),
    send("ZAddNX", "ZADD", Scores),
    send("ZRem", "ZREM", Plain),
    send("ZScore", "ZSCORE", Plain),
    send("ZCard", "ZCARD", Plain),
    send("ZCount", "ZCOUNT", Plain),
    send("ZIncrBy", "ZINCRBY", Plain),
    send("ZRange", "ZRANGE", Plain),
    send("ZRevRange", "ZREVRANGE", Plain),
    send("ZRemRangeByScore", "ZREMRANGEBYSCORE", Plain),
    send("ZPopMin", "ZPOPMIN", Plain),
    send("LPush", "LPUSH", Plain),
    send("RPush", "RPUSH", Plain),
    send("LRem", "LREM", Plain),
    send("LLen", "LLEN", Plain),
    send("LRange", "LRANGE", Plain),
    send("LTrim", "LTRIM", Plain),
    send("LPop", "LPOP", Plain),
    send("RPop", "RPOP", Plain),
    send("RPopLPush", "RPOPLPUSH", Plain),
    send("BRPopLPush", "BRPOPLPUSH", Plain),
    send("LMove", "LMOVE", Plain),
    send("SAdd", "SADD", Plain),
    send("SRem", "SREM", Plain),
    send("SMembers", "SMEMBERS", Plain),
    send("SIsMember", "SISMEMBER", Plain),
    send("SCard", "SCARD", Plain),
    send("SetNX", "SETNX", Plain),
    send("Get", "GET", Plain),
    send("Set", "SET", Plain),
    send("Del", "DEL", Plain),
    send("Exists", "EXISTS", Plain),
    send("Expire", "EXPIRE", Plain),
    send("Incr", "INCR", Plain),
    send("IncrBy", "INCRBY", Plain),
    send("Publish", "PUBLISH", Plain),
    send("ScriptLoad", "SCRIPT LOAD", Plain),
];

/// The row of a call of `name` on a receiver of that kind, if any.
pub(super) fn lookup(name: &str, receiver: Receiver) -> Option<&'static Method> {
    CLIENTS.lookup_on(name, usize::MAX, receiver)
}

/// The functions of a client's package whose first argument is the reply's
/// destination, before the command's name (radix's `Cmd(&rcv, "HSET", ..)`).
pub(super) const DESTINATION_FIRST: &[&str] = &["Cmd", "FlatCmd"];

/// The row of a function of a client's package that sends the command its
/// arguments name, after a context or a destination ([`DESTINATION_FIRST`]):
/// radix's `Cmd`, `FlatCmd`, go-redis's `NewCmd`; if `name` is one.
pub(super) fn package_command(name: &str) -> Option<&'static Method> {
    CLIENTS
        .lookup_on(name, usize::MAX, Receiver::Any)
        .filter(|m| m.sends == Sends::Named)
}

/// The row of a function that makes a script object of `args` arguments,
/// if `name` is one.
pub(super) fn maker(name: &str, args: usize) -> Option<&'static Method> {
    CLIENTS
        .lookup_on(name, args, Receiver::Any)
        .filter(|m| m.sends == Sends::Register)
}

crate::extract::clients::client_calls!(CLIENTS);
