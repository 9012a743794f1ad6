//! The go-redis and redigo methods wirelint reads, declared once.
//!
//! [`METHODS`] is the one table of the methods of go-redis's clients
//! (`redis.Client`, `ClusterClient`, `UniversalClient`, their pipelines
//! and `Tx`, `redis.Script`) and of redigo's (`redis.Conn`, `redis.Script`)
//! that send a Redis command or run a script. Each row says what a call
//! sends, how its arguments map onto the wire, and on which receivers it
//! counts. Two readers are driven by it:
//!
//! - the extractor: `calls.rs` reads every method call through [`lookup`];
//! - the prefilter: a Go file can yield a Redis fact only if it names Redis
//!   and holds one of [`fact_needles`] (`.HSet(`, `.Do(`, `NewScript(`),
//!   which the Go host language gives it (`src/extract/lang.rs`).
//!
//! go-redis passes a `context.Context` first (v8 on); a first argument of
//! that type (or named `ctx`) is not on the wire. Which of a command's
//! arguments are keys or hash fields is `crate::redis`'s, the same for
//! every language.
//!
//! # Adding a method
//!
//! One row: `send("ZIncrBy", "ZINCRBY", Args::Plain)`; `generic(..)` when
//! other Go types have a method of that name (`Get`, `Set`, `Del`): the call
//! then counts only on a Redis-like receiver.

use crate::extract::lang::FactNeedles;

/// How a call's arguments become the command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Args {
    /// One wire argument per argument, as written; a map argument gives its
    /// pairs (`HSet(ctx, key, map[string]interface{}{..})`); `xs...` leaves
    /// the tail open.
    Plain,
    /// `ZAdd(ctx, key, redis.Z{Score: s, Member: m}, ..)`: score/member
    /// pairs.
    Scores,
}

/// What a call of the method sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sends {
    /// One command, its arguments mapped as [`Args`] says.
    Command(&'static str, Args),
    /// redigo's `conn.Do("HSET", k, ..)`, `Send`, go-redis's `Do(ctx,
    /// "HSET", ..)`: the command its first argument names.
    Named,
    /// `rdb.Eval(ctx, script, keys, args...)`: a script run by its text or
    /// SHA.
    Eval,
    /// `script.Run(ctx, rdb, keys, args...)` (go-redis), `script.Do(conn,
    /// keysAndArgs...)` (redigo): a script object run.
    Run,
}

/// On which receivers a call counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Receiver {
    /// A Redis-like receiver: its text holds one of [`RECEIVER_WORDS`], or
    /// it is a name typed or bound as a client (`redis.Conn`,
    /// `rdb.Pipeline()`).
    RedisLike,
    /// A script: a name bound to `redis.NewScript(..)` or typed
    /// `*redis.Script`.
    Script,
}

/// Words in a receiver's text that make it Redis-like.
pub(super) const RECEIVER_WORDS: &[&str] =
    &["redis", "rdb", "conn", "client", "pipe", "pool", "cmdable"];

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
        receiver: Receiver::RedisLike,
    }
}

const fn other(name: &'static str, sends: Sends, receiver: Receiver) -> MethodSpec {
    MethodSpec {
        name,
        sends,
        receiver,
    }
}

/// Every go-redis and redigo method wirelint reads.
pub(super) const METHODS: &[MethodSpec] = &[
    other("Do", Sends::Named, Receiver::RedisLike),
    other("Send", Sends::Named, Receiver::RedisLike),
    other("Eval", Sends::Eval, Receiver::RedisLike),
    other("EvalSha", Sends::Eval, Receiver::RedisLike),
    other("EvalRO", Sends::Eval, Receiver::RedisLike),
    other("EvalShaRO", Sends::Eval, Receiver::RedisLike),
    other("Run", Sends::Run, Receiver::Script),
    other("RunRO", Sends::Run, Receiver::Script),
    other("Eval", Sends::Run, Receiver::Script),
    other("EvalSha", Sends::Run, Receiver::Script),
    other("EvalRO", Sends::Run, Receiver::Script),
    other("EvalShaRO", Sends::Run, Receiver::Script),
    other("Do", Sends::Run, Receiver::Script),
    other("Send", Sends::Run, Receiver::Script),
    send("HSet", "HSET", Args::Plain),
    send("HSetNX", "HSETNX", Args::Plain),
    send("HMSet", "HMSET", Args::Plain),
    send("HGet", "HGET", Args::Plain),
    send("HMGet", "HMGET", Args::Plain),
    send("HGetAll", "HGETALL", Args::Plain),
    send("HDel", "HDEL", Args::Plain),
    send("HExists", "HEXISTS", Args::Plain),
    send("HIncrBy", "HINCRBY", Args::Plain),
    send("HIncrByFloat", "HINCRBYFLOAT", Args::Plain),
    send("HKeys", "HKEYS", Args::Plain),
    send("HVals", "HVALS", Args::Plain),
    send("HLen", "HLEN", Args::Plain),
    send("ZAdd", "ZADD", Args::Scores),
    send("ZAddNX", "ZADD", Args::Scores),
    send("ZRem", "ZREM", Args::Plain),
    send("ZScore", "ZSCORE", Args::Plain),
    send("ZCard", "ZCARD", Args::Plain),
    send("ZCount", "ZCOUNT", Args::Plain),
    send("ZIncrBy", "ZINCRBY", Args::Plain),
    send("ZRange", "ZRANGE", Args::Plain),
    send("ZRevRange", "ZREVRANGE", Args::Plain),
    send("ZRemRangeByScore", "ZREMRANGEBYSCORE", Args::Plain),
    send("ZPopMin", "ZPOPMIN", Args::Plain),
    send("LPush", "LPUSH", Args::Plain),
    send("RPush", "RPUSH", Args::Plain),
    send("LRem", "LREM", Args::Plain),
    send("LLen", "LLEN", Args::Plain),
    send("LRange", "LRANGE", Args::Plain),
    send("LTrim", "LTRIM", Args::Plain),
    send("LPop", "LPOP", Args::Plain),
    send("RPop", "RPOP", Args::Plain),
    send("RPopLPush", "RPOPLPUSH", Args::Plain),
    send("BRPopLPush", "BRPOPLPUSH", Args::Plain),
    send("LMove", "LMOVE", Args::Plain),
    send("SAdd", "SADD", Args::Plain),
    send("SRem", "SREM", Args::Plain),
    send("SMembers", "SMEMBERS", Args::Plain),
    send("SIsMember", "SISMEMBER", Args::Plain),
    send("SCard", "SCARD", Args::Plain),
    send("SetNX", "SETNX", Args::Plain),
    send("Get", "GET", Args::Plain),
    send("Set", "SET", Args::Plain),
    send("Del", "DEL", Args::Plain),
    send("Exists", "EXISTS", Args::Plain),
    send("Expire", "EXPIRE", Args::Plain),
    send("Incr", "INCR", Args::Plain),
    send("IncrBy", "INCRBY", Args::Plain),
    send("Publish", "PUBLISH", Args::Plain),
];

/// The row of a call of `name` on a receiver of that kind, if any.
pub(super) fn lookup(name: &str, receiver: Receiver) -> Option<&'static MethodSpec> {
    METHODS
        .iter()
        .find(|m| m.name == name && m.receiver == receiver)
}

/// What a Go file that yields a Redis fact through a client method holds
/// (with the file naming Redis): `.Name(` of each method; `NewScript(`.
pub(crate) fn fact_needles() -> FactNeedles {
    let mut any = vec!["NewScript(".to_string()];
    for m in METHODS {
        let needle = format!(".{}(", m.name);
        if !any.contains(&needle) {
            any.push(needle);
        }
    }
    FactNeedles {
        any,
        guarded: Vec::new(),
        guards: Vec::new(),
    }
}

/// Whether a Go file holds one of [`fact_needles`].
pub(crate) fn client_calls(bytes: &[u8]) -> bool {
    static NEEDLES: std::sync::LazyLock<aho_corasick::AhoCorasick> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasickBuilder::new()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(fact_needles().any)
                .expect("the needles are short literals")
        });
    NEEDLES.is_match(bytes)
}
