//! The Rust client methods wirelint reads.

/// The method names `typed_command` reads as commands on any receiver
/// (keep in step with its `match`; the prefilter looks for them).
pub(crate) const TYPED_METHODS: &[&str] = &[
    "hset",
    "hset_nx",
    "hsetnx",
    "hset_multiple",
    "hmset",
    "hget",
    "hmget",
    "hincr",
    "hincrby",
    "hdel",
    "hgetall",
    "hexists",
    "hkeys",
    "hvals",
    "hlen",
    "zadd",
    "zrem",
    "zscore",
    "zcard",
    "zrangebyscore",
    "lpush",
    "rpush",
    "lrem",
    "llen",
    "lrange",
    "rpoplpush",
    "brpoplpush",
    "lmove",
    "sadd",
    "srem",
    "smembers",
    "sismember",
];

/// The method names `typed_command` reads as commands only on a receiver
/// whose text holds one of [`RECEIVER_WORDS`] (or on a pipeline).
pub(crate) const GENERIC_TYPED_METHODS: &[&str] =
    &["del", "get", "set", "exists", "expire", "incr", "publish"];

/// Words in a receiver's text that make a generic method a command.
pub(crate) const RECEIVER_WORDS: &[&str] = &["con", "redis", "pipe", "client", "pool"];
