//! What the Redis clients of every language send, as data.
//!
//! A client method is a row ([`Method`]): its name, which calls of it the
//! row is for (their argument count), what such a call sends ([`Sends`]),
//! how its arguments map onto the wire ([`Args`]), on which receivers it
//! counts ([`Receiver`]) and which client library has it. Each language
//! fills one [`Table`] with the rows of its clients (`src/extract/<lang>/
//! client.rs`, data and nothing else); this module holds the one type they
//! share and what is read from a table the same way in every language:
//!
//! - the extractors find a call's row ([`Table::lookup`],
//!   [`Table::lookup_on`]);
//! - the prefilter's needles: what a file that yields a Redis fact through
//!   a client holds ([`Table::fact_needles`], [`Table::holds_call`]);
//! - `docs/clients.md`, generated from every table ([`markdown`]); a unit
//!   test fails, printing the expected text, when the doc is out of date;
//! - each row's case: `tests/client_methods/<lang>.<ext>` holds a call of
//!   every row with what the extractor reads from it in a trailing comment
//!   (`tests.rs` runs them).
//!
//! Which of a command's arguments are keys or hash fields is not the
//! client's business: `crate::redis` says it for every language.

use crate::extract::lang::FactNeedles;

pub(crate) mod shared;

#[cfg(test)]
mod tests;

/// Which calls a row is for, by their number of arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    Exactly(usize),
    AtLeast(usize),
}

impl Arity {
    pub(crate) fn admits(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }

    #[cfg(test)]
    pub(crate) fn describe(self) -> String {
        match self {
            Arity::Exactly(k) => k.to_string(),
            Arity::AtLeast(0) => "any".to_string(),
            Arity::AtLeast(k) => format!("{k}+"),
        }
    }
}

/// How a call's arguments become the command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Args {
    /// One wire argument per argument, as written (a language's own rule
    /// may spread what its clients spread: a Go map, a `*rest`).
    Plain,
    /// Each argument spread: an array, a slice or a list gives its items,
    /// and one whose items are not visible leaves the tail open.
    Spread,
    /// The key, then field/value pairs: from a map, an object, keyword
    /// arguments or an array of tuples, or as written.
    Pairs,
    /// The key, then score/member pairs (`zadd`).
    Scores,
}

/// What a call of the method sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sends {
    /// One command, its arguments mapped as [`Args`] says.
    Command(&'static str, Args),
    /// The command its first argument names: `call("HSET", ..)`,
    /// `execute_command`, `Do(ctx, "HSET", ..)`.
    Named,
    /// Each array a command (`multi([["hset", ..]])`); without arguments,
    /// the start of a chain of commands.
    Batch,
    /// A script run by its text or SHA in one call, with its keys and
    /// arguments: `eval(script, numkeys, ..)`, `Eval(ctx, script, keys,
    /// args..)`, fred's `evalsha(script, keys, args)`; the command named.
    Eval(&'static str),
    /// A script object run with its keys and arguments in the call, after
    /// the client: go-redis's `script.Run(ctx, rdb, keys, args..)`,
    /// rueidis's `script.Exec(ctx, c, keys, args)`, redigo's
    /// `script.Do(conn, keysAndArgs..)`; [`RunArgs`] says how they come.
    Run(RunArgs),
    /// A script loaded or made into an object: `register_script(lua)`,
    /// `script(:load, lua)`; sends no command of the protocol.
    Register,
    /// `pipe.cmd("HSET")`: starts the named command in a pipeline.
    PipelineCommand,
    /// `.arg(x)`: appends to the command or script call being built.
    Arg,
    /// `.key(k)`: appends a key to the script call being built.
    ScriptKey,
    /// `.prepare_invoke()`: starts a script call without running it.
    PrepareInvoke,
    /// `.invoke(con)`: runs the script call built (EVALSHA, then EVAL).
    Invoke,
    /// `pipe.invoke_script(&inv)`: runs the script call its argument builds,
    /// in the pipeline (sent when the pipeline is).
    InvokeArgument,
    /// `.query(con)`: runs the command or pipeline built; sends nothing new.
    Query,
}

/// How a script object's run passes its keys and arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunArgs {
    /// A list of keys, then the arguments as written (`Run(ctx, rdb,
    /// keys, args..)`).
    KeysThenArgs,
    /// A list of keys, then a list of arguments (`Exec(ctx, c, keys,
    /// args)`).
    TwoLists,
    /// Keys and arguments as written, the script's key count splitting
    /// them (`Do(conn, k1, k2, a1)`).
    Counted,
    /// The client first, then the keys and arguments as keyword lists
    /// (redis-prescription's `script.call(redis, keys: [..], argv: [..])`).
    Keywords,
}

impl Sends {
    /// Whether a call of the method begins a Redis fact of its own (what a
    /// file that holds one holds: the prefilter's needle).
    pub(crate) fn begins_fact(self) -> bool {
        !matches!(self, Sends::Arg | Sends::Query)
    }

    /// Whether the method runs a script call built by a chain (preparing
    /// one runs nothing: only an invocation is a call).
    pub(crate) fn invokes(self) -> bool {
        matches!(self, Sends::Invoke)
    }

    /// Whether the method runs what its chain built (so the chain's
    /// variable, if any, holds no builder).
    pub(crate) fn runs(self) -> bool {
        matches!(self, Sends::Invoke | Sends::Query)
    }
}

/// On which receivers a call counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Receiver {
    /// Any: the name is the client's own (`hset`).
    Any,
    /// A Redis-like receiver: its text holds one of the table's receiver
    /// words, or the language binds it to a client (maps, sets and caches
    /// have methods of this name).
    RedisLike,
    /// A script object: a name bound to `NewScript(..)` or typed as one.
    Script,
    /// The chain being built: a command, a pipeline or a script call.
    Chain,
}

/// One client method: which calls of it the row is for, and what they
/// mean on the wire.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Method {
    /// The client libraries that have it (`redis-rs`, `fred`); empty for a
    /// row of `shared.rs`, which has the table's.
    #[cfg_attr(not(test), expect(dead_code, reason = "the doc's column"))]
    pub(crate) clients: &'static str,
    /// The method's name: `hset`.
    pub(crate) name: &'static str,
    pub(crate) arity: Arity,
    pub(crate) sends: Sends,
    pub(crate) receiver: Receiver,
    /// Code bases often name a method of their own so (`execute`): a call of
    /// it is also read as a call of the code base.
    pub(crate) shared_name: bool,
}

impl Method {
    /// A method of `clients` that sends `sends` on any receiver, whatever
    /// its argument count.
    pub(crate) const fn new(clients: &'static str, name: &'static str, sends: Sends) -> Method {
        Method {
            clients,
            name,
            arity: Arity::AtLeast(0),
            sends,
            receiver: Receiver::Any,
            shared_name: false,
        }
    }

    /// A method that sends `command` on any receiver.
    pub(crate) const fn send(
        clients: &'static str,
        name: &'static str,
        command: &'static str,
        args: Args,
    ) -> Method {
        Method::new(clients, name, Sends::Command(command, args))
    }

    /// The row for calls of `arity` arguments alone.
    pub(crate) const fn arity(self, arity: Arity) -> Method {
        Method { arity, ..self }
    }

    /// The row on receivers of `receiver` alone.
    pub(crate) const fn on(self, receiver: Receiver) -> Method {
        Method { receiver, ..self }
    }

    /// The row on a Redis-like receiver alone (other types have a method
    /// of this name: `get`, `set`).
    pub(crate) const fn generic(self) -> Method {
        self.on(Receiver::RedisLike)
    }

    /// A name code bases also give their own methods.
    pub(crate) const fn shared_name(self) -> Method {
        Method {
            shared_name: true,
            ..self
        }
    }
}

/// How a table's names and needles compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    /// As written (`hset`, `HSet`).
    Exact,
    /// Without regard to case: node-redis v4's `hSet` is v3's `hset`.
    Blind,
}

/// How a table's methods show in a file's bytes, for the prefilter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Needles {
    /// What follows `.name` in a needle: `(` (Go) or nothing. Where it is
    /// `(`, a method read as a value (`.name` then a space, a line's end,
    /// `)`, `,`, `;` or `}`) is a needle too.
    pub(crate) open: &'static str,
    /// Needles of their own (`NewScript(`, `defineCommand`).
    pub(crate) extra: &'static [&'static str],
    /// Whether a method on a Redis-like receiver alone needs a receiver
    /// word in the file too (`false`: every method is a needle by itself).
    pub(crate) guarded: bool,
    /// Whether the method needles compare without regard to case (the
    /// receiver words always do).
    pub(crate) blind: bool,
    /// What a method's name follows where the code names the method as
    /// data (Ruby's `public_send(:hset, ..)`: `send(:`): `send(:hset` is
    /// a needle too.
    pub(crate) named: &'static [&'static str],
}

/// The client methods of one language.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the doc's titles and the cases' file")
)]
pub(crate) struct Table {
    /// The language, as `docs/clients.md` titles it.
    pub(crate) language: &'static str,
    /// The clients the rows are of, as the doc names them.
    pub(crate) clients: &'static str,
    /// The rows: the language's own, and those it shares with another
    /// (`shared.rs`).
    pub(crate) methods: &'static [&'static [Method]],
    /// Words in a receiver's text that make it Redis-like.
    pub(crate) receiver_words: &'static [&'static str],
    pub(crate) case: Case,
    /// How the prefilter finds a call of the table in a file's bytes;
    /// `None` where it finds the language's Redis facts otherwise (an
    /// Elixir command list is read wherever it stands).
    pub(crate) needles: Option<Needles>,
    /// The file of calls of every row (`tests/client_methods/…`).
    pub(crate) cases: &'static str,
    /// Libraries that give each method a twin under another name.
    pub(crate) twins: &'static [Twins],
    /// Macros whose tokens are a Lua script: the crate, the macro.
    pub(crate) lua_macros: &'static [(&'static str, &'static str)],
}

/// A library that gives each method of a client a twin that sends what
/// it sends, named with a suffix: bluebird's `promisifyAll` makes
/// `hgetAsync` of node-redis's `hget`.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(test), expect(dead_code, reason = "the doc's name of the library"))]
pub(crate) struct Twins {
    /// The library, as `docs/clients.md` names it.
    pub(crate) library: &'static str,
    /// What it appends to a method's name (compared as written).
    pub(crate) suffix: &'static str,
}

impl Table {
    /// Every row of the table.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &'static Method> + '_ {
        self.methods.iter().flat_map(|rows| rows.iter())
    }

    /// The rows named `name`, or whose twin is so named.
    fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'static Method> + 'a {
        let twin_of = self
            .twins
            .iter()
            .find_map(|t| name.strip_suffix(t.suffix).filter(|m| !m.is_empty()));
        let same = move |a: &str, b: &str| match self.case {
            Case::Exact => a == b,
            Case::Blind => a.eq_ignore_ascii_case(b),
        };
        self.rows()
            .filter(move |m| same(m.name, name) || twin_of.is_some_and(|t| same(m.name, t)))
    }

    /// The row of a call of `name` with `args` arguments: the first that
    /// admits their count.
    pub(crate) fn lookup(&self, name: &str, args: usize) -> Option<&'static Method> {
        self.named(name).find(|m| m.arity.admits(args))
    }

    /// The row of a call of `name` with `args` arguments on a receiver of
    /// that kind.
    pub(crate) fn lookup_on(
        &self,
        name: &str,
        args: usize,
        receiver: Receiver,
    ) -> Option<&'static Method> {
        self.named(name)
            .find(|m| m.receiver == receiver && m.arity.admits(args))
    }

    /// Whether `name` is a client method (so a call of it is no call of the
    /// code base).
    pub(crate) fn is_client_method(&self, name: &str) -> bool {
        self.named(name).any(|m| !m.shared_name)
    }

    /// Whether a receiver's text holds one of the receiver words (any
    /// case).
    pub(crate) fn redis_like(&self, text: &str) -> bool {
        let text = text.to_ascii_lowercase();
        self.receiver_words.iter().any(|w| text.contains(w))
    }

    /// Whether a receiver, by its text, fits the rule (a chain or a script
    /// object is the language's to tell).
    pub(crate) fn admits(&self, receiver: Receiver, text: &str) -> bool {
        match receiver {
            Receiver::RedisLike => self.redis_like(text),
            Receiver::Any | Receiver::Chain | Receiver::Script => true,
        }
    }

    /// What a file that yields a Redis fact through one of the table's
    /// methods holds: `.name` of each method that begins a fact (a generic
    /// one only with a receiver word, where the table guards them), and the
    /// table's own needles.
    pub(crate) fn fact_needles(&self) -> FactNeedles {
        let Some(needles) = self.needles else {
            return FactNeedles::default();
        };
        let mut out = FactNeedles {
            any: needles.extra.iter().map(|s| s.to_string()).collect(),
            guarded: Vec::new(),
            guards: Vec::new(),
        };
        if needles.guarded {
            out.guards = self.receiver_words.iter().map(|w| w.to_string()).collect();
        }
        for m in self.rows().filter(|m| m.sends.begins_fact()) {
            // A script object's run is given a client: a file that holds
            // one holds a receiver word too, where the table guards them.
            let list = match m.receiver {
                Receiver::RedisLike | Receiver::Script if needles.guarded => &mut out.guarded,
                _ => &mut out.any,
            };
            // A method read as a value (Go's `hset := rdb.HSet`) is
            // followed by what ends an expression, not by `open`.
            let ends: &[&str] = match needles.open {
                "" => &[""],
                open => &[open, "\n", "\r", " ", "\t", ")", ",", ";", "}"],
            };
            let name = m.name.trim_end_matches('?');
            // A function named with its module or class
            // (`RedisPrescription.new`) is written so, not after a dot.
            let dot = if name.contains('.') { "" } else { "." };
            let dotted = ends.iter().map(|end| format!("{dot}{name}{end}"));
            let named = needles.named.iter().map(|p| format!("{p}{name}"));
            for needle in dotted.chain(named) {
                if !list.contains(&needle) {
                    list.push(needle);
                }
            }
        }
        out
    }

    /// The prefilter's automata for [`Table::holds_call`]: the needles
    /// alone, the guarded ones, and the guards.
    pub(crate) fn automata(&self) -> [aho_corasick::AhoCorasick; 3] {
        let n = self.fact_needles();
        let blind = self.needles.is_some_and(|n| n.blind);
        let build = |w: &[String], blind: bool| {
            aho_corasick::AhoCorasickBuilder::new()
                .ascii_case_insensitive(blind)
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(w)
                .expect("the needles are short literals")
        };
        [
            build(&n.any, blind),
            build(&n.guarded, blind),
            build(&n.guards, true),
        ]
    }
}

/// Whether bytes hold one of a table's needles, by its [`Table::automata`].
pub(crate) fn holds_call(automata: &[aho_corasick::AhoCorasick; 3], bytes: &[u8]) -> bool {
    let [any, guarded, guards] = automata;
    any.is_match(bytes) || (guarded.is_match(bytes) && guards.is_match(bytes))
}

/// Defines a language's `client_calls(bytes)`: whether a file holds one
/// of the needles of `$table` (by [`holds_call`]), the automata built once,
/// on the first file asked about.
macro_rules! client_calls {
    ($table:path) => {
        /// Whether a file holds one of the table's needles.
        pub(crate) fn client_calls(bytes: &[u8]) -> bool {
            static NEEDLES: std::sync::LazyLock<[aho_corasick::AhoCorasick; 3]> =
                std::sync::LazyLock::new(|| $table.automata());
            $crate::extract::clients::holds_call(&NEEDLES, bytes)
        }
    };
}
pub(crate) use client_calls;

/// Every language's table, in the order of `docs/clients.md`.
#[cfg(test)]
pub(crate) fn tables() -> [&'static Table; 6] {
    [
        &crate::extract::elixir::CLIENTS,
        &crate::extract::rust::CLIENTS,
        &crate::extract::go::CLIENTS,
        &crate::extract::js::CLIENTS,
        &crate::extract::python::CLIENTS,
        &crate::extract::ruby::CLIENTS,
    ]
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
                Args::Scores => "key, then scores and members",
            };
            return (format!("`{c}`"), wire);
        }
        Sends::Named => ("the command its first argument names", "the rest"),
        Sends::Batch => ("a command per array; a chain without", "each array"),
        Sends::Eval(c) => return (format!("`{c}` of a script"), "script, keys, args"),
        Sends::Run(how) => (
            "the script object's call",
            match how {
                RunArgs::KeysThenArgs => "a list of keys, then args",
                RunArgs::TwoLists => "a list of keys, a list of args",
                RunArgs::Counted => "keys and args, split by the script's key count",
                RunArgs::Keywords => "the client, then `keys:` and `argv:` lists",
            },
        ),
        Sends::Register => (
            "no command: makes a script object, or loads it",
            "the script",
        ),
        Sends::PipelineCommand => ("the command it names, in the pipeline", "its name"),
        Sends::Arg => ("its argument, appended", "spread"),
        Sends::ScriptKey => ("a key of the script call", "spread"),
        Sends::PrepareInvoke => ("a script call, not run yet", "none"),
        Sends::Invoke => ("the script call (EVALSHA, then EVAL)", "the connection"),
        Sends::InvokeArgument => (
            "the script call its argument builds, in the pipeline",
            "the invocation",
        ),
        Sends::Query => ("what the chain built", "the connection"),
    };
    (sends.to_string(), wire)
}

/// The method tables of `docs/clients.md`: a section per language.
#[cfg(test)]
pub(crate) fn markdown() -> String {
    let mut out = String::new();
    for t in tables() {
        out.push_str(&format!("## {}: {}\n\n", t.language, t.clients));
        out.push_str(
            "| method | clients | arguments | sends | arguments on the wire | receiver |\n\
             |---|---|---|---|---|---|\n",
        );
        for m in t.rows() {
            let (sends, wire) = describe(m.sends);
            let receiver = match m.receiver {
                Receiver::Any => "any",
                Receiver::RedisLike => "Redis-like",
                Receiver::Script => "a script object",
                Receiver::Chain => "the chain",
            };
            let name = if m.shared_name {
                format!("`{}` (also a call of the code base)", m.name)
            } else {
                format!("`{}`", m.name)
            };
            let clients = if m.clients.is_empty() {
                t.clients
            } else {
                m.clients
            };
            out.push_str(&format!(
                "| {name} | {clients} | {} | {sends} | {wire} | {receiver} |\n",
                m.arity.describe()
            ));
        }
        let words: Vec<String> = t.receiver_words.iter().map(|w| format!("`{w}`")).collect();
        let case = match t.case {
            Case::Exact => "as written",
            Case::Blind => "without regard to case",
        };
        let receivers = if words.is_empty() {
            "Each is called on its module.".to_string()
        } else {
            format!(
                "Redis-like receivers: a receiver whose text holds {} (in any case), or one \
                 the code binds to a client.",
                words.join(", ")
            )
        };
        let twins: String = t
            .twins
            .iter()
            .map(|w| {
                format!(
                    " Each method is also read under the name {} gives its twin (`hget{}` \
                     for `hget`).",
                    w.library, w.suffix
                )
            })
            .collect();
        let macros: Vec<String> = t
            .lua_macros
            .iter()
            .map(|(krate, name)| format!("`{krate}::{name}!`"))
            .collect();
        let macros = if macros.is_empty() {
            String::new()
        } else {
            format!(
                " The tokens of {} are a Lua script (`@x` and `$x` in them name its \
                 arguments; `script.x(v)` sets a `$x` and gives the script).",
                macros.join(", ")
            )
        };
        out.push_str(&format!(
            "\nNames compare {case}. {receivers}{twins}{macros} Cases: `{}`.\n\n",
            t.cases
        ));
    }
    out
}
