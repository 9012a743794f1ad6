//! The language-neutral model of facts.
//!
//! Extractors (`crate::extract::*`) are the only code that knows a language;
//! they turn a syntax tree into the types below. Everything after them
//! (link, checks, reporters) works on these types alone.
//!
//! Spans are byte ranges into a file, identified by [`FileId`]. They stay
//! bytes until a reporter converts them to lines and columns.

use std::fmt;

mod functions;
mod ops;
mod scope;
pub use functions::{
    accepts, definer_key, may_run, needle_of, store_name, stored_by, FnAlias, FunctionDef, Import,
    Registration, TypeBase, ANY_MODULE, CLOSURE_PARAM, NEW, RECEIVER,
};
pub use ops::{
    applied, closure, closure_body, decoded, encoded, field, hash_reply, hash_reply_parts, lookup,
    op, read, serial_of, sha1, Op,
};
pub use scope::{ChildModule, ModuleRef, ModuleScope};

/// Index of a file in the run's file table ([`crate::source::SourceMap`]).
pub type FileId = u32;

/// A half-open byte range `[start, end)` in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    /// The smallest span covering both, when both are in the same file.
    pub fn join(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Whether this span lies within `region` (same file).
    pub fn inside(self, region: Span) -> bool {
        self.file == region.file && region.start <= self.start && self.end <= region.end
    }

    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

thread_local! {
    /// The file whose facts are being read back (see [`read_in_file`]).
    static READING: std::cell::Cell<FileId> = const { std::cell::Cell::new(0) };
}

/// A span is stored without its file: stored facts are one file's
/// (`crate::pipeline::cache`), and the file's id is the run's.
impl serde::Serialize for Span {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.start, self.end).serialize(s)
    }
}

/// A stored span comes back in the file [`read_in_file`] names.
impl<'de> serde::Deserialize<'de> for Span {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Span, D::Error> {
        let (start, end) = <(u32, u32)>::deserialize(d)?;
        Ok(Span {
            file: READING.with(|f| f.get()),
            start,
            end: end.max(start),
        })
    }
}

/// Runs `read` (a deserialization of one file's stored facts) with every
/// span it reads placed in `file`.
pub fn read_in_file<R>(file: FileId, read: impl FnOnce() -> R) -> R {
    let before = READING.with(|f| f.replace(file));
    let out = read();
    READING.with(|f| f.set(before));
    out
}

/// The programming language of a file or an embedded region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Elixir,
    Rust,
    Lua,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Ruby,
}

impl Lang {
    pub fn from_path(path: &std::path::Path) -> Option<Lang> {
        match path.extension()?.to_str()? {
            "ex" | "exs" => Some(Lang::Elixir),
            "rs" => Some(Lang::Rust),
            "lua" => Some(Lang::Lua),
            "py" => Some(Lang::Python),
            "js" | "mjs" | "cjs" | "jsx" => Some(Lang::JavaScript),
            "ts" | "mts" | "cts" => Some(Lang::TypeScript),
            "tsx" => Some(Lang::Tsx),
            "go" => Some(Lang::Go),
            "rb" => Some(Lang::Ruby),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Elixir => "elixir",
            Lang::Rust => "rust",
            Lang::Lua => "lua",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::Ruby => "ruby",
        }
    }
}

/// One piece of a string template.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Seg {
    /// Literal bytes as the runtime sends them (escapes decoded), with the
    /// span of their source text.
    Lit { text: String, span: Span },
    /// A value the analysis cannot see. `label` is the source text or a
    /// parameter name, for messages only. A hole matches anything.
    Hole { label: String, span: Span },
    /// A value still to be resolved by the link step (a constant, a call to a
    /// key builder, a parameter). After linking, templates hold only `Lit` and
    /// `Hole`.
    Value(Box<Value>),
}

impl Seg {
    pub fn span(&self) -> Span {
        match self {
            Seg::Lit { span, .. } | Seg::Hole { span, .. } => *span,
            Seg::Value(v) => v.span(),
        }
    }
}

/// A string built from literal bytes and holes: a key, a field name, a
/// command name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Template {
    pub segs: Vec<Seg>,
    /// The whole expression that builds the string.
    pub span: Span,
}

impl Template {
    pub fn lit(text: impl Into<String>, span: Span) -> Template {
        Template {
            segs: vec![Seg::Lit {
                text: text.into(),
                span,
            }],
            span,
        }
    }

    /// The full text when the template has no holes.
    pub fn as_literal(&self) -> Option<String> {
        let mut out = String::new();
        for s in &self.segs {
            match s {
                Seg::Lit { text, .. } => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }

    /// Merges adjacent literals and drops empty ones; keeps spans of the
    /// first piece when two literals from different places merge (they are
    /// kept apart instead, so that each keeps its own span).
    pub fn normalized(mut self) -> Template {
        self.segs
            .retain(|s| !matches!(s, Seg::Lit { text, .. } if text.is_empty()));
        self
    }
}

impl fmt::Display for Template {
    /// Renders `emq:{<queue>}:job:<id>`: literals as they are, holes as
    /// `<label>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.segs {
            match s {
                Seg::Lit { text, .. } => f.write_str(text)?,
                Seg::Hole { label, .. } => write!(f, "<{}>", short_label(label))?,
                Seg::Value(v) => write!(f, "<{}>", v.describe())?,
            }
        }
        Ok(())
    }
}

/// A short, readable name for a hole: the last identifier of its source text.
pub fn short_label(label: &str) -> String {
    let ident: String = label
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|s| !s.is_empty())
        .unwrap_or("")
        .to_string();
    if ident.is_empty() {
        "_".to_string()
    } else {
        ident
    }
}

/// An expression as far as the wire cares: what value it sends.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Value {
    /// A string (literal, interpolated, concatenated, formatted).
    Str(Template),
    /// An integer literal.
    Int { value: i64, span: Span },
    /// An Elixir atom; it is sent as its name (`:vt` sends `"vt"`).
    Atom { name: String, span: Span },
    /// A list or array literal; `tail` holds `| rest` or `++ rest` parts.
    List {
        items: Vec<Value>,
        tail: Vec<Value>,
        span: Span,
    },
    /// A map literal with its key/value pairs, in source order.
    Map {
        pairs: Vec<(Value, Value)>,
        span: Span,
    },
    /// A parameter of the enclosing function (substituted at call sites).
    Param {
        index: usize,
        name: String,
        span: Span,
    },
    /// A reference to a named constant: `@prefix`, `PREFIX`,
    /// `crate::keys::PREFIX`, `Self::PREFIX`.
    Const { path: Vec<String>, span: Span },
    /// A call whose result may be a key (a key-builder call). `path` is the
    /// callee as written (`["Keyspace", "queue_key"]`), `args` its arguments.
    Call {
        path: Vec<String>,
        args: Vec<Value>,
        span: Span,
    },
    /// An operation of the value core on its arguments ([`Op`] says which
    /// and what its arguments are).
    Op {
        op: Op,
        args: Vec<Value>,
        span: Span,
    },
    /// Lua `KEYS[n]` (1-based); `None` for a dynamic index.
    Keys { index: Option<u32>, span: Span },
    /// Lua `ARGV[n]` (1-based); `None` for a dynamic index.
    Argv { index: Option<u32>, span: Span },
    /// The script defined at `FileFacts::scripts[index]` of the same file
    /// (`Script::new(r"...")` used in place).
    ScriptRef { index: usize, span: Span },
    /// One of several values, as a conditional expression gives them:
    /// `if(f, do: "force", else: "")`, `if f { "1" } else { "0" }`.
    OneOf { alts: Vec<Value>, span: Span },
    /// Anything else.
    Unknown { label: String, span: Span },
}

impl Value {
    pub fn span(&self) -> Span {
        match self {
            Value::Str(t) => t.span,
            Value::Int { span, .. }
            | Value::Atom { span, .. }
            | Value::List { span, .. }
            | Value::Map { span, .. }
            | Value::Param { span, .. }
            | Value::Const { span, .. }
            | Value::Call { span, .. }
            | Value::Op { span, .. }
            | Value::Keys { span, .. }
            | Value::Argv { span, .. }
            | Value::ScriptRef { span, .. }
            | Value::OneOf { span, .. }
            | Value::Unknown { span, .. } => *span,
        }
    }

    /// Whether the value holds a parameter of the function it is written
    /// in: not its receiver, not a closure's own ([`CLOSURE_PARAM`]).
    pub fn holds_param(&self) -> bool {
        self.holds_param_at(0)
    }

    fn holds_param_at(&self, depth: usize) -> bool {
        if depth > 32 {
            return false;
        }
        let inner = |x: &Value| x.holds_param_at(depth + 1);
        match self {
            Value::Param { index, .. } => *index < CLOSURE_PARAM,
            Value::Str(t) => t.segs.iter().any(|s| match s {
                Seg::Value(x) => inner(x),
                _ => false,
            }),
            Value::List { items, tail, .. } => items.iter().chain(tail).any(inner),
            Value::Map { pairs, .. } => pairs.iter().any(|(_, x)| inner(x)),
            Value::Call { args, .. } | Value::Op { args, .. } => args.iter().any(inner),
            Value::OneOf { alts, .. } => alts.iter().any(inner),
            _ => false,
        }
    }

    pub fn unknown(label: impl Into<String>, span: Span) -> Value {
        Value::Unknown {
            label: label.into(),
            span,
        }
    }

    /// The exact string this value sends, when it is fully literal.
    pub fn as_str(&self) -> Option<String> {
        match self {
            Value::Str(t) => t.as_literal(),
            Value::Atom { name, .. } => Some(name.clone()),
            _ => None,
        }
    }

    /// A short description for messages.
    pub fn describe(&self) -> String {
        match self {
            Value::Str(t) => t.to_string(),
            Value::Int { value, .. } => value.to_string(),
            Value::Atom { name, .. } => format!(":{name}"),
            Value::List { .. } => "list".into(),
            Value::Map { .. } => "map".into(),
            Value::Param { name, .. } => name.clone(),
            Value::Const { path, .. } => path.last().cloned().unwrap_or_default(),
            Value::Op { op, args, .. } => ops::describe(op, args),
            Value::Call { path, .. } => path.last().cloned().unwrap_or_default(),
            Value::Keys { index, .. } => match index {
                Some(i) => format!("KEYS[{i}]"),
                None => "KEYS[?]".into(),
            },
            Value::Argv { index, .. } => match index {
                Some(i) => format!("ARGV[{i}]"),
                None => "ARGV[?]".into(),
            },
            Value::ScriptRef { .. } => "script".into(),
            Value::OneOf { alts, .. } => alts
                .iter()
                .map(Value::describe)
                .collect::<Vec<_>>()
                .join(" | "),
            Value::Unknown { label, .. } => short_label(label),
        }
    }
}

/// A Redis command as sent: `["HSET", key, "state", s]`,
/// `cmd("HSET").arg(key)...`, `conn.hset(key, f, v)`,
/// `redis.call('HSET', KEYS[1], ...)`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Command {
    /// The command name, upper-cased (`HSET`, `EVALSHA`).
    pub name: String,
    pub name_span: Span,
    /// The name as a value a definition of the code base gives, when the
    /// file alone does not show it (`[Verbs.evalsha(), sha, 1 | keys]`,
    /// the function in another file): `name` is empty until the link
    /// follows the value to one literal command name
    /// (`crate::link::named`); a command whose name comes to none is no
    /// fact.
    pub name_of: Option<Value>,
    /// The arguments after the name, in wire order.
    pub args: Vec<Value>,
    /// Arguments appended that the analysis cannot count (`| rest`,
    /// `++ rest`, a loop of `.arg(k)`).
    pub open_tail: bool,
    /// The values appended as a whole, in order, when the code shows them:
    /// `["EVALSHA", sha, n | keys ++ args]` has tail `[keys, args]`; a loop
    /// `for k in keys { c.arg(k) }` has tail `[keys]`.
    pub tail: Vec<Value>,
    /// The whole call.
    pub span: Span,
    /// The enclosing function: an index into `FileFacts::functions`.
    pub func: Option<usize>,
    /// Where the command goes: only what reaches Redis is a fact.
    pub sink: Sink,
}

/// Where a command goes, as far as the code shows.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Sink {
    /// Handed to a Redis client: `Redix.command(conn, [..])`, a redis-rs
    /// query, `redis.call(..)`.
    #[default]
    Client,
    /// Argument `arg` of a call of the code base with `arity` arguments
    /// (`Store.q(conn, ["HSET", ..])`): a command when the link step proves
    /// that function sends that argument to Redis.
    Call {
        path: Vec<String>,
        arg: usize,
        arity: usize,
    },
    /// Held where the code cannot be followed further (a variable, an
    /// attribute, a function's result): kept, as the code may send it.
    Held,
    /// Compared, asserted, or handed to code that only reads it: never sent.
    Unsent,
}

/// A client call whose command the extractor could not read as a list:
/// `Redix.command(conn, command)`. What makes a wrapper a sender.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Send {
    /// The command (or, for a pipeline, the list of commands) as a value.
    pub command: Value,
    pub span: Span,
    /// The enclosing function: an index into `FileFacts::functions`.
    pub func: Option<usize>,
}

/// A script run with its keys and args, when the code does not spell an
/// `EVAL`/`EVALSHA` command list: `Script::new(..).key(a).arg(b).invoke()`,
/// fred's `evalsha(hash, keys, args)`. EVAL/EVALSHA command lists stay
/// [`Command`]s; the link step reads them the same way.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScriptCall {
    /// What identifies the script: a [`Value::ScriptRef`], a const or
    /// attribute holding its body or SHA, or its name.
    pub script: Value,
    /// numkeys when the code states it; `None` when it is `keys.len()`.
    pub numkeys: Option<Value>,
    pub keys: Vec<Value>,
    pub args: Vec<Value>,
    /// More keys are added that the analysis cannot count.
    pub open_keys: bool,
    /// More args are added that the analysis cannot count (`.arg(x)` in a
    /// loop, a collection spread whole).
    pub open_args: bool,
    /// The collection those keys come from, when the code shows it
    /// (`for k in keys { inv.key(k); }` gives `keys`).
    pub keys_from: Option<Value>,
    /// The collection the args come from, when they are not listed
    /// (`argv: params[:argv]`): where the link follows it to one list,
    /// that list's items are the args.
    #[serde(default)]
    pub args_from: Option<Value>,
    pub span: Span,
    /// The enclosing function: an index into `FileFacts::functions`.
    pub func: Option<usize>,
    /// The invocation is only built here (`prepare_invoke()`, keys and
    /// args added) and the function returns it: it runs where a caller
    /// runs the function's result, not here.
    #[serde(default)]
    pub returned: bool,
}

/// A field read from a whole hash after `HGETALL`: `Map.get(row,
/// "payload")`, `row["payload"]`, `%{"payload" => p} = row`,
/// `fields.get("payload")`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FieldRead {
    /// The key the `HGETALL` read (as its command argument was written).
    pub key: Value,
    /// The field name (a string or an atom).
    pub field: Value,
    pub span: Span,
    /// The enclosing function: an index into `FileFacts::functions`.
    pub func: Option<usize>,
    /// The name of the command that read the hash, when a definition of
    /// the code base gives it (`[Verbs.hgetall(), key]`): the read counts
    /// when the link follows it to `HGETALL`.
    pub command: Option<Value>,
    /// The map the field is taken from, when the function does not show it
    /// filled by a whole-hash read: one of its parameters
    /// ([`Value::Param`]), which holds what its callers pass. The link
    /// follows it to the callers' [`hash_reply`]s (`key` and `command` are
    /// then unused); `None` when `key` is the key read.
    #[serde(default)]
    pub row: Option<Value>,
}

/// A call to a function of the code base (not a Redis command), with its
/// arguments: what wrapper summaries are bound through.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CallFact {
    /// The callee as written: `["Scripts", "execute"]`, `["execute"]`,
    /// `["self", "run"]` for a method on self, `["run"]` for another method.
    pub path: Vec<String>,
    pub args: Vec<Value>,
    /// A method call's receiver (`script` in `script.run(..)`), bound to
    /// the method's [`RECEIVER`] parameter.
    pub receiver: Option<Value>,
    pub span: Span,
    /// The enclosing function: an index into `FileFacts::functions`.
    pub func: Option<usize>,
    /// The arguments passed by name (Python's `f(a, keys=[..])`), each
    /// bound to the callee's parameter of that name.
    #[serde(default)]
    pub named: Vec<(String, Value)>,
    /// The receiver is a Redis client, as its language tells (a client's
    /// name, a pipeline's chain): a method no table holds may be a command
    /// the code registers ([`Registration`] under a computed name).
    #[serde(default)]
    pub on_client: bool,
}

/// A named constant: `@prefix "emq:"`, `const PREFIX: &str = "emq:"`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConstDef {
    pub module: String,
    /// As referenced: `@prefix` for Elixir attributes, `PREFIX` for Rust.
    pub name: String,
    pub value: Value,
    pub name_span: Span,
}

/// Where a script's Lua text lives.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ScriptSource {
    /// Lua parsed in place inside this file (a `.lua` file, or a host string).
    Inline(std::sync::Arc<LuaFacts>),
    /// A reference to a `.lua` file: `include_str!("x.lua")`,
    /// `File.read!("priv/x.lua")`. `path` is as written; `relative_to_file`
    /// says whether it is relative to the containing file (Rust) or to the
    /// project root (Elixir).
    File {
        path: String,
        relative_to_file: bool,
        span: Span,
    },
}

/// A Lua script found in the code.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScriptDef {
    /// Its name as the code gives it: file stem, attribute, const; `None`
    /// when the code names it nowhere.
    pub name: Option<String>,
    /// The span of that name (the attribute, the const name, or the file's
    /// first bytes).
    pub name_span: Span,
    pub source: ScriptSource,
    /// The exact text the runtime sends (heredoc indentation removed,
    /// escapes decoded), when the source is inline. Its SHA1 is what
    /// EVALSHA uses.
    pub text: Option<std::sync::Arc<str>>,
    /// A key count written next to the script where it is registered:
    /// `("moveToActive", 11, include_str!(..))`.
    pub declared_keys: Option<(u32, Span)>,
    /// The name is a local variable's (`let script = Script::new(..)`): it
    /// names the script only in its own file, never a copy elsewhere.
    pub local: bool,
}

/// A header-comment or alias declaration of `KEYS[n]`'s role.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KeyDecl {
    pub index: u32,
    pub role: String,
    pub span: Span,
}

/// `ARGV[n] == "x"` (or `~=`) in a script: the literal a slot is told
/// apart by.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArgvCompare {
    pub index: u32,
    pub literal: String,
    /// The literal's span.
    pub span: Span,
}

/// What a script does with its ARGV, read from its own code.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct ArgvFacts {
    /// Every `ARGV[n]` with a literal index, read directly or through a
    /// `local x = ARGV[n]` alias.
    pub reads: Vec<(u32, Span)>,
    /// Reads that fail on `nil` (a Redis argument, arithmetic, `..`, a
    /// string function, an index) on a path the caller's own arguments do
    /// not choose (a branch on Redis state does not make a read optional).
    pub required: Vec<(u32, Span)>,
    /// `tonumber(ARGV[n])`: the slot is read as a number.
    pub numeric: Vec<(u32, Span)>,
    /// `ARGV[n] == "x"` and `ARGV[n] ~= "x"`.
    pub compared: Vec<ArgvCompare>,
    /// Indexes read as anything but a comparison with a literal (as data,
    /// a key part, a truth value, a number): each read once.
    pub data: Vec<u32>,
    /// `#ARGV`, `ARGV[i]` with a computed index, `unpack(ARGV, n)`, `ARGV`
    /// passed whole: the script may read any number of values.
    pub variadic: bool,
    /// `-- ARGV[1] job id` header comments.
    pub header: Vec<KeyDecl>,
}

impl ArgvFacts {
    /// The highest index every caller must supply (0 when none).
    pub fn required_count(&self) -> u32 {
        self.required.iter().map(|r| r.0).max().unwrap_or(0)
    }

    /// The literals a slot is told apart by, when the script reads it only
    /// to compare it with them (a flag): sorted, without duplicates.
    pub fn flag_values(&self, n: u32) -> Option<Vec<&str>> {
        if self.variadic || self.data.contains(&n) {
            return None;
        }
        let mut v: Vec<&str> = self
            .compared
            .iter()
            .filter(|c| c.index == n)
            .map(|c| c.literal.as_str())
            .collect();
        v.sort_unstable();
        v.dedup();
        (!v.is_empty()).then_some(v)
    }

    /// The highest index the script reads anywhere or its header names.
    pub fn max_read(&self) -> u32 {
        self.reads
            .iter()
            .map(|r| r.0)
            .chain(self.header.iter().map(|h| h.index))
            .max()
            .unwrap_or(0)
    }
}

/// What the Lua extractor finds in one script.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct LuaFacts {
    /// `redis.call` / `redis.pcall` commands.
    pub commands: Vec<Command>,
    /// Every `KEYS[n]` with a literal index.
    pub key_uses: Vec<(u32, Span)>,
    /// `KEYS[i]` with a computed index, `#KEYS`, `unpack(KEYS)`: the script
    /// may touch every key it is given.
    pub dynamic_keys: bool,
    /// `local waitKey = KEYS[2]`.
    pub aliases: Vec<KeyDecl>,
    /// `-- KEYS[1] 'wait'` header comments.
    pub header_keys: Vec<KeyDecl>,
    /// `#KEYS ~= 2`: the one count the script accepts, and where it says so.
    pub keys_guard: Option<(u32, Span)>,
    /// Syntax errors inside the script.
    pub errors: Vec<Span>,
    /// The part of the script the parser gave up on (its budget ran out):
    /// nothing in it is checked.
    pub unchecked: Option<Span>,
    /// The script's comments (where a suppression may sit).
    pub comments: Vec<Span>,
    /// `--- @include "includes/x"` directives: the path as written.
    pub includes: Vec<(String, Span)>,
    /// What the script does with its ARGV.
    pub argv: ArgvFacts,
    /// Calls of functions the chunk does not define (an included file's):
    /// what they send is not seen, so the records the script touches may
    /// hold fields the analysis cannot name.
    pub calls: Vec<LuaCall>,
    /// The functions a `.lua` file defines at its top level, for the
    /// scripts that `@include` it and call them.
    pub functions: Vec<LuaFunction>,
    /// The names its top level binds to `redis.call`/`redis.pcall`: an
    /// included function's call of one of them is a command.
    pub redis_names: Vec<String>,
    /// The whole script body.
    pub span: Span,
}

/// A function a `.lua` file defines at its top level, run once with its
/// parameters as `Value::Param`: bound to a caller's arguments, what it
/// sends is what that call sends (spans in the defining file).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LuaFunction {
    pub name: String,
    pub commands: Vec<Command>,
    /// Calls of functions its file does not define.
    pub calls: Vec<LuaCall>,
}

/// A call of a Lua function the chunk does not define.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LuaCall {
    pub name: String,
    pub args: Vec<Value>,
    /// More arguments may follow (`...`, `unpack` of an unknown table).
    pub open: bool,
    /// The call (the outermost one when it runs inside a function).
    pub span: Span,
}

impl FileFacts {
    /// Whether the file sends something to Redis: a command, a script
    /// call or a read of a reply's fields.
    pub fn sends(&self) -> bool {
        !(self.commands.is_empty() && self.script_calls.is_empty() && self.field_reads.is_empty())
    }

    /// Whether a parse gave up on part of the file or of a script in it.
    /// Such facts depend on a budget that may be of time, so on the
    /// machine's load: they are never stored in the facts cache.
    pub fn was_cut(&self) -> bool {
        self.unchecked.is_some()
            || self
                .scripts
                .iter()
                .any(|s| matches!(&s.source, ScriptSource::Inline(l) if l.unchecked.is_some()))
    }
}

/// What starts an inline suppression, in a comment: `wirelint: allow(..)`.
pub const SUPPRESSION_MARK: &[u8] = b"wirelint:";

/// Everything one extractor found in one file.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct FileFacts {
    pub functions: Vec<FunctionDef>,
    pub consts: Vec<ConstDef>,
    pub commands: Vec<Command>,
    pub scripts: Vec<ScriptDef>,
    pub script_calls: Vec<ScriptCall>,
    pub calls: Vec<CallFact>,
    /// Functions that are others under another name.
    #[serde(default)]
    pub aliases: Vec<FnAlias>,
    /// Modules whose functions a module of the file imports.
    #[serde(default)]
    pub imports: Vec<Import>,
    /// The base classes of the file's classes.
    #[serde(default)]
    pub bases: Vec<TypeBase>,
    /// The commands the file registers on a client for a script.
    #[serde(default)]
    pub registered: Vec<Registration>,
    /// Client calls sending a command held in a variable or parameter.
    pub sends: Vec<Send>,
    pub field_reads: Vec<FieldRead>,
    /// Maximal string-building expressions that look like keys
    /// (`"emq:{#{q}}:pending"`, `format!(...)`), wherever they appear.
    pub templates: Vec<Template>,
    /// Spans of syntax errors in the host file.
    pub errors: Vec<Span>,
    /// Regions of test code inside a source file (a `#[cfg(test)]` module,
    /// a `#[test]` function): coverage counts what runs there apart.
    pub test_regions: Vec<Span>,
    /// The part of the file the parser gave up on (its budget ran out):
    /// nothing in it is checked.
    pub unchecked: Option<Span>,
    /// The file's own comments (where a suppression may sit), listed only
    /// when the file holds `wirelint:`; the comments of Lua in its strings
    /// are in the scripts' facts.
    pub comments: Vec<Span>,
    /// Its place in a module tree, when its client facts count only with a
    /// client library in scope ([`ModuleScope`]).
    #[serde(default)]
    pub scope: Option<ModuleScope>,
}
