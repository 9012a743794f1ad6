//! The Rust client methods wirelint reads, declared once.
//!
//! [`METHODS`] is the one table of the methods of redis-rs (and
//! deadpool-redis, which re-exports it) and fred that send a Redis command or
//! build one. Each row says which calls it is for (name, argument count),
//! what such a call sends, how its arguments map onto the wire, and on which
//! receivers it counts. Three readers are driven by it:
//!
//! - the extractor: `commands.rs` reads every link of a method chain through
//!   [`lookup`];
//! - the prefilter: a Rust file can yield a Redis fact only if it holds one
//!   of [`fact_needles`] (`.hset`, `.key`, `.evalsha`, ...), which the Rust
//!   host language gives it (`src/extract/lang.rs`);
//! - the docs: the method table of `docs/rust-clients.md` is
//!   [`markdown_table`], and a unit test fails, printing the expected text,
//!   when the doc is out of date.
//!
//! Not in the table: how a chain starts (`redis::cmd("X")`, `redis::pipe()`,
//! `Pipeline::new()`, a typed `Cmd::hset(..)`; `commands.rs` reads those by
//! path), and which of a command's arguments are keys or hash fields
//! (`crate::redis`, the same for every language).
//!
//! # Adding a method
//!
//! A method that sends one command, say fred's `zincrby`:
//!
//! 1. Add one row to [`METHODS`], among the typed commands:
//!    `send("zincrby", "ZINCRBY", Args::Plain)`. Write `generic(..)` instead
//!    of `send(..)` when other types have a method of that name (`get`,
//!    `set`): the call then counts only on a Redis-like receiver. When the
//!    argument count changes the shape (fred's two-argument `hset` takes
//!    pairs), put a row narrowed with `.arity(Arity::Exactly(n))` before the
//!    general one: the first row that fits a call is its row.
//! 2. Add a line calling it to `tests/client_methods/rust.rs`, with the
//!    command it yields in a trailing comment:
//!    `con.zincrby(k, 2, "m"); // ZINCRBY <k> <2> m`.
//! 3. Run `cargo test --lib extract::rust`: the doc test prints the new
//!    table; paste it into `docs/rust-clients.md` between the markers.
//!
//! A command new to wirelint may also need its key positions (by default the
//! first argument is the key) and, for a hash command, its field positions
//! in `crate::redis`.

use crate::extract::lang::FactNeedles;

/// Which calls a row is for, by their number of arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arity {
    Exactly(usize),
    AtLeast(usize),
}

impl Arity {
    fn admits(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }

    #[cfg(test)]
    fn describe(self) -> String {
        match self {
            Arity::Exactly(k) => k.to_string(),
            Arity::AtLeast(0) => "any".to_string(),
            Arity::AtLeast(k) => format!("{k}+"),
        }
    }
}

/// How a typed command's arguments become the command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Args {
    /// One wire argument each, as written: `(k, "f", v)` → `k f v`.
    Plain,
    /// Each argument spread: an array or slice gives its items, and one
    /// whose items we cannot see leaves the tail open: `(k, &["a", "b"])` →
    /// `k a b`.
    Spread,
    /// The key, then field/value pairs flattened, from an array of tuples or
    /// a map: `(k, [("f", v), ..])` → `k f v ..`.
    Pairs,
}

/// What a call of the method sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sends {
    /// One command, its arguments mapped as [`Args`] says.
    Command(&'static str, Args),
    /// `pipe.cmd("HSET")`: starts the named command in a pipeline.
    PipelineCommand,
    /// `.arg(x)`: appends to the command or script call being built.
    Arg,
    /// `.key(k)`: appends a key to the script call being built (started on a
    /// script).
    ScriptKey,
    /// `.prepare_invoke()`: starts a script call without running it.
    PrepareInvoke,
    /// `.invoke(con)`: runs a script call (EVALSHA, then EVAL on NOSCRIPT).
    Invoke,
    /// fred's `.evalsha(script, keys, args)`: a script call in one method.
    Eval,
    /// `.query(con)`: runs the command or pipeline built; sends nothing new.
    Run,
}

impl Sends {
    /// Whether a call of the method begins a Redis fact of its own (what a
    /// file that holds one holds: the prefilter's needle).
    fn begins_fact(self) -> bool {
        !matches!(self, Sends::Arg | Sends::Run)
    }

    /// Whether the method runs a script call, or prepares one.
    pub(super) fn invokes(self) -> bool {
        matches!(self, Sends::Invoke | Sends::PrepareInvoke)
    }

    /// Whether the method runs what its chain built (so the chain's
    /// variable, if any, holds no builder).
    pub(super) fn runs(self) -> bool {
        matches!(self, Sends::Invoke | Sends::Run)
    }
}

/// On which receivers a call counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Receiver {
    /// Any: the name is the client's own (`hset`).
    Any,
    /// A Redis-like receiver, whose text holds one of [`RECEIVER_WORDS`],
    /// or a pipeline: other types have methods of this name (`map.get(..)`).
    RedisLike,
    /// The chain being built: a command, a pipeline or a script call, from
    /// `redis::cmd(..)`, `redis::pipe()`, a `Script`, or a variable holding
    /// one.
    Chain,
}

/// Words in a receiver's text that make it Redis-like.
const RECEIVER_WORDS: &[&str] = &["con", "redis", "pipe", "client", "pool"];

impl Receiver {
    /// Whether a receiver, by its source text, fits the rule. (The
    /// extractor asks it of the receivers of typed commands; a pipeline
    /// fits every rule.)
    pub(super) fn admits(self, text: &str) -> bool {
        let text = text.to_ascii_lowercase();
        match self {
            Receiver::Any | Receiver::Chain => true,
            Receiver::RedisLike => RECEIVER_WORDS.iter().any(|w| text.contains(w)),
        }
    }
}

/// One client method: which calls of it the row is for, and what they mean
/// on the wire.
#[derive(Clone, Copy, Debug)]
pub(super) struct MethodSpec {
    /// The method's name: `hset`.
    pub(super) name: &'static str,
    pub(super) arity: Arity,
    pub(super) sends: Sends,
    pub(super) receiver: Receiver,
    /// Code bases often name a method of their own so (`execute`): a call of
    /// it is also read as a call of the code base.
    pub(super) shared_name: bool,
}

impl MethodSpec {
    const fn arity(self, arity: Arity) -> MethodSpec {
        MethodSpec { arity, ..self }
    }

    const fn shared_name(self) -> MethodSpec {
        MethodSpec {
            shared_name: true,
            ..self
        }
    }
}

/// A method that sends `command` on any receiver.
const fn send(name: &'static str, command: &'static str, args: Args) -> MethodSpec {
    MethodSpec {
        name,
        arity: Arity::AtLeast(1),
        sends: Sends::Command(command, args),
        receiver: Receiver::Any,
        shared_name: false,
    }
}

/// A method that sends `command` only on a Redis-like receiver.
const fn generic(name: &'static str, command: &'static str, args: Args) -> MethodSpec {
    MethodSpec {
        receiver: Receiver::RedisLike,
        ..send(name, command, args)
    }
}

/// A method of the chain being built.
const fn chain(name: &'static str, arity: Arity, sends: Sends) -> MethodSpec {
    MethodSpec {
        name,
        arity,
        sends,
        receiver: Receiver::Chain,
        shared_name: false,
    }
}

/// fred's script call in one method: `(script or SHA, keys, args)`.
const fn eval(name: &'static str) -> MethodSpec {
    MethodSpec {
        name,
        arity: Arity::Exactly(3),
        sends: Sends::Eval,
        receiver: Receiver::Any,
        shared_name: false,
    }
}

const ANY: Arity = Arity::AtLeast(0);

/// redis-rs's invocation type and the field that holds the script it runs:
/// `ScriptInvocation { script: self, args: vec![], keys: vec![] }.invoke(con)`
/// runs `self` (its fields are private, so only redis-rs builds one so).
pub(super) const INVOCATION: (&str, &str) = ("ScriptInvocation", "script");

/// Every client method wirelint reads. For a call, the first row with its
/// name that admits its argument count is its row; a call with no row is
/// not a Redis one.
pub(super) const METHODS: &[MethodSpec] = &[
    // Building a command or a script call (redis-rs).
    chain("cmd", Arity::Exactly(1), Sends::PipelineCommand),
    chain("arg", Arity::Exactly(1), Sends::Arg),
    chain("key", ANY, Sends::ScriptKey),
    chain("prepare_invoke", ANY, Sends::PrepareInvoke),
    chain("invoke", ANY, Sends::Invoke),
    chain("invoke_async", ANY, Sends::Invoke),
    chain("query", ANY, Sends::Run),
    chain("query_async", ANY, Sends::Run),
    chain("execute", ANY, Sends::Run).shared_name(),
    // A script call in one method (fred).
    eval("eval"),
    eval("evalsha"),
    eval("evalsha_with_reload"),
    eval("eval_with_reload"),
    // Typed commands (redis-rs `Commands`/`AsyncCommands`, fred).
    send("hset", "HSET", Args::Pairs).arity(Arity::Exactly(2)),
    send("hset", "HSET", Args::Plain),
    send("hset_nx", "HSETNX", Args::Plain),
    send("hsetnx", "HSETNX", Args::Plain),
    send("hset_multiple", "HSET", Args::Pairs),
    send("hmset", "HMSET", Args::Pairs),
    send("hget", "HGET", Args::Plain),
    send("hmget", "HMGET", Args::Spread),
    send("hincr", "HINCRBY", Args::Plain),
    send("hincrby", "HINCRBY", Args::Plain),
    send("hdel", "HDEL", Args::Spread),
    send("hgetall", "HGETALL", Args::Plain),
    send("hexists", "HEXISTS", Args::Plain),
    send("hkeys", "HKEYS", Args::Plain),
    send("hvals", "HVALS", Args::Plain),
    send("hlen", "HLEN", Args::Plain),
    send("zadd", "ZADD", Args::Plain),
    send("zrem", "ZREM", Args::Spread),
    send("zscore", "ZSCORE", Args::Plain),
    send("zcard", "ZCARD", Args::Plain),
    send("zrangebyscore", "ZRANGEBYSCORE", Args::Plain),
    send("lpush", "LPUSH", Args::Spread),
    send("rpush", "RPUSH", Args::Spread),
    send("lrem", "LREM", Args::Plain),
    send("llen", "LLEN", Args::Plain),
    send("lrange", "LRANGE", Args::Plain),
    send("rpoplpush", "RPOPLPUSH", Args::Plain),
    send("brpoplpush", "BRPOPLPUSH", Args::Plain),
    send("lmove", "LMOVE", Args::Plain),
    send("sadd", "SADD", Args::Spread),
    send("srem", "SREM", Args::Spread),
    send("smembers", "SMEMBERS", Args::Plain),
    send("sismember", "SISMEMBER", Args::Plain),
    generic("del", "DEL", Args::Spread),
    generic("get", "GET", Args::Plain).arity(Arity::Exactly(1)),
    generic("set", "SET", Args::Plain).arity(Arity::AtLeast(2)),
    generic("exists", "EXISTS", Args::Spread),
    generic("expire", "EXPIRE", Args::Plain),
    generic("incr", "INCRBY", Args::Plain),
    generic("publish", "PUBLISH", Args::Plain),
];

/// The row of a call of `name` with `args` arguments, if any.
pub(super) fn lookup(name: &str, args: usize) -> Option<&'static MethodSpec> {
    METHODS
        .iter()
        .find(|m| m.name == name && m.arity.admits(args))
}

/// Whether `name` is a client method, so a call of it is not a call of the
/// code base.
pub(super) fn is_client_method(name: &str) -> bool {
    METHODS.iter().any(|m| m.name == name && !m.shared_name)
}

/// Whether `name` sends a command on any receiver (`hset`, not `get`).
pub(super) fn is_typed_command(name: &str) -> bool {
    METHODS.iter().any(|m| {
        m.name == name && matches!(m.sends, Sends::Command(..)) && m.receiver == Receiver::Any
    })
}

/// What a Rust file that yields a Redis fact through a client method holds:
/// `cmd` (`redis::cmd("X")`, `Cmd::hset(..)`), `.name` of each method that
/// begins a fact, and the names of generic methods only together with a
/// receiver word.
pub(crate) fn fact_needles() -> FactNeedles {
    let mut out = FactNeedles {
        any: vec!["cmd".to_string()],
        guarded: Vec::new(),
        guards: RECEIVER_WORDS.iter().map(|w| w.to_string()).collect(),
    };
    for m in METHODS.iter().filter(|m| m.sends.begins_fact()) {
        let needle = format!(".{}", m.name);
        let list = match m.receiver {
            Receiver::RedisLike => &mut out.guarded,
            Receiver::Any | Receiver::Chain => &mut out.any,
        };
        if !list.contains(&needle) {
            list.push(needle);
        }
    }
    out
}

/// Whether a Rust file holds one of [`fact_needles`]: a call that may begin
/// a Redis fact (the prefilter asks it of files that name a client).
pub(crate) fn client_calls(bytes: &[u8]) -> bool {
    static NEEDLES: std::sync::LazyLock<[aho_corasick::AhoCorasick; 3]> =
        std::sync::LazyLock::new(|| {
            let n = fact_needles();
            let build = |w: &[String]| {
                aho_corasick::AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                    .build(w)
                    .expect("the needles are short literals")
            };
            [build(&n.any), build(&n.guarded), build(&n.guards)]
        });
    let [any, guarded, guards] = &*NEEDLES;
    any.is_match(bytes) || (guarded.is_match(bytes) && guards.is_match(bytes))
}

/// The method table of `docs/rust-clients.md`, with its legend.
#[cfg(test)]
pub(super) fn markdown_table() -> String {
    let mut out = String::from(
        "| method | arguments | sends | arguments on the wire | receiver |\n\
         |---|---|---|---|---|\n",
    );
    for m in METHODS {
        let (sends, wire) = describe(m.sends);
        let receiver = match m.receiver {
            Receiver::Any => "any",
            Receiver::RedisLike => "Redis-like",
            Receiver::Chain => "the chain",
        };
        let name = if m.shared_name {
            format!("`{}` (also a call of the code base)", m.name)
        } else {
            format!("`{}`", m.name)
        };
        out.push_str(&format!(
            "| {name} | {} | {sends} | {wire} | {receiver} |\n",
            m.arity.describe()
        ));
    }
    let words: Vec<String> = RECEIVER_WORDS.iter().map(|w| format!("`{w}`")).collect();
    out.push_str(&format!(
        "\nArguments on the wire: *as written* gives one each (`(k, \"f\", v)` → \
         `k f v`); *spread* gives an array's or a slice's items (`(k, &[\"a\", \"b\"])` \
         → `k a b`), and a slice whose items are not visible leaves the tail open; \
         *key, then pairs* flattens field/value tuples or a map (`(k, [(\"f\", v)])` \
         → `k f v`). In fred's *script, keys, args*, the script is the receiver when \
         the first argument is the client.\n\n\
         Receivers: *any* is any expression; *Redis-like* is a receiver whose text \
         holds {} (in any case), or a pipeline; *the chain* is the command, pipeline \
         or script call being built. No method is a command on a local variable \
         holding a map or a set.\n",
        words.join(", ")
    ));
    out
}

/// A row's "sends" and "arguments on the wire" cells.
#[cfg(test)]
fn describe(sends: Sends) -> (String, &'static str) {
    let (sends, wire) = match sends {
        Sends::Command(c, args) => {
            let wire = match args {
                Args::Plain => "as written",
                Args::Spread => "spread",
                Args::Pairs => "key, then pairs",
            };
            return (format!("`{c}`"), wire);
        }
        Sends::PipelineCommand => ("the command it names, in the pipeline", "its name"),
        Sends::Arg => ("its argument, appended", "spread"),
        Sends::ScriptKey => ("a key of the script call", "spread"),
        Sends::PrepareInvoke => ("a script call, not run yet", "none"),
        Sends::Invoke => ("the script call (EVALSHA, then EVAL)", "the connection"),
        Sends::Eval => ("a script call", "script, keys, args"),
        Sends::Run => ("what the chain built", "the connection"),
    };
    (sends.to_string(), wire)
}
