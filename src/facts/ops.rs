//! The operations of the value core: what a [`Value::Op`] computes from
//! its arguments. Each language lowers its syntax into them (a closure, a
//! call of a value, a lookup by key, a field of a record, a script's SHA1,
//! Redis's reply to a command, a serialization and its decoding); the link
//! evaluates them with one exhaustive match (`link::flow`).

use super::{Span, Template, Value};

/// An operation of the value core. The arguments of a [`Value::Op`] are,
/// per operation, as each variant says.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Op {
    /// A function as a value (a closure, `(t) => ring.toKey(name, t)`):
    /// its one argument is what it returns, its own parameters as
    /// [`CLOSURE_PARAM`](super::CLOSURE_PARAM)`+ i`, the enclosing
    /// function's as they are. [`closure`] builds it.
    Closure,
    /// A call of a value, `[callee, a..]` (`this.queue.toKey(id)`, where the
    /// field holds a closure), with the method as the code names it. Where
    /// the callee comes to a [`Op::Closure`], it is that closure's body with
    /// the arguments in place of its parameters; else the call of the method
    /// as the receiver's declared type names it (`[T, toKey]`, an
    /// interface's) or as written (`[toKey]`). [`applied`] builds it.
    Apply(Box<[String]>),
    /// A call of the function a value names, `[module, name, list]`: runs
    /// the function `name` (an atom or a string) of `module` with the items
    /// of `list` as its arguments (Elixir's `apply(mod, fun, args)`). Where
    /// the name comes to one literal, it is that function of the module the
    /// first argument names, or, where the code does not show the module (a
    /// struct's, `%mod{} = backend`), of whichever module defines it.
    Dispatch,
    /// What a collection holds under a key, `[collection, key]`
    /// (`scripts[:enqueue]`, `Keyword.fetch!(scripts, :enqueue)`).
    /// Extractors reduce it where they see both; the link where the
    /// collection comes from elsewhere.
    Lookup,
    /// The field of a record its one argument is (`state.prefix`, a
    /// tuple's position `0` as `{:ok, reply}` holds it).
    Field(Box<str>),
    /// The SHA1 of its one argument, as `SCRIPT LOAD` returns it and
    /// `EVALSHA` names a script (hex, either case):
    /// `:crypto.hash(:sha, @enqueue) |> Base.encode16()`.
    Sha1,
    /// Redis's reply to the command its one argument lists, where the
    /// extractor cannot read the command's words itself
    /// (`[Verbs.script(), Verbs.load(), body]`, the words in another file):
    /// the link reads them, and the reply of `SCRIPT LOAD body` is the
    /// [`Op::Sha1`] of `body`. A whole-hash read's reply is one too
    /// ([`hash_reply`]).
    Reply,
    /// Its second argument serialized in the format its first names (a
    /// literal `"msgpack"` or `"json"`), as a host's library packs a value
    /// for a script to decode: `Msgpax.pack!([prefix, id])`,
    /// `rmp_serde::to_vec(&(prefix, id))`, `json.dumps([..])`.
    Encode,
    /// The structure its second argument decodes to in the format its first
    /// names: Lua's `cmsgpack.unpack(ARGV[1])`, `cjson.decode(ARGV[1])`. The
    /// decoding of an [`Op::Encode`] of the same format is the value
    /// encoded, a list as a table whose key `k` holds its `k`-th item (Lua
    /// counts from 1); a [`Op::Lookup`] of it by a literal key is that item.
    Decode,
    /// A list as long as its one argument, each item what a function makes
    /// of that list's item (Python's `list(map(f, xs))`): its length is
    /// known where the list's is, its items are not.
    Mapped,
    /// The text of the file its one argument names, a path read where the
    /// code runs (`open(dir / name).read()`, `File.read(path)`,
    /// `fs.ReadFile(fsys, "scripts/" + name)`): where the path's literal
    /// end names a `.lua` file, that file's script. Front ends lower a file
    /// read to it when parts of the path come from elsewhere (a parameter,
    /// a field a subclass sets); the link fills them in, then reads the
    /// path ([`read`] builds it).
    Read,
}

impl Op {
    /// How a message names the operation where it names no value (the
    /// method an [`Op::Apply`] calls, the field an [`Op::Field`] takes).
    pub fn name(&self) -> String {
        match self {
            Op::Closure => "#fn".into(),
            Op::Apply(method) => method.last().cloned().unwrap_or_else(|| "#apply".into()),
            Op::Dispatch => "#dispatch".into(),
            Op::Lookup => "[]".into(),
            Op::Field(f) => format!(".{f}"),
            Op::Sha1 => "#sha1".into(),
            Op::Reply => "#reply".into(),
            Op::Encode => "#encode".into(),
            Op::Decode => "#decode".into(),
            Op::Mapped => "#mapped".into(),
            Op::Read => "#read".into(),
        }
    }
}

impl Op {
    /// The operation as a message writes a call of it: an
    /// [`Op::Apply`]'s method as the code names it, else [`Op::name`].
    pub fn written(&self) -> String {
        match self {
            Op::Apply(method) if !method.is_empty() => method.join("."),
            other => other.name(),
        }
    }
}

/// A short description of `op(args..)` for messages: a lookup is named by
/// its key (an item of a decoded value by position: `ARGV[1][2]`), a SHA1
/// by what it hashes, a value serialized or decoded by what it holds.
pub fn describe(op: &Op, args: &[Value]) -> String {
    match (op, args) {
        (Op::Lookup, [coll, k @ Value::Int { .. }]) => {
            format!("{}[{}]", coll.describe(), k.describe())
        }
        (Op::Encode | Op::Decode, _) => args.get(1).map(Value::describe).unwrap_or_default(),
        (Op::Lookup, _) => args
            .get(1)
            .map(|k| k.describe().trim_start_matches(':').to_string())
            .unwrap_or_default(),
        (Op::Sha1, _) => format!(
            "sha1({})",
            args.first().map(Value::describe).unwrap_or_default()
        ),
        _ => op.name(),
    }
}

/// `op(args..)`.
pub fn op(op: Op, args: Vec<Value>, span: Span) -> Value {
    Value::Op { op, args, span }
}

/// A closure returning `body`.
pub fn closure(body: Value, span: Span) -> Value {
    op(Op::Closure, vec![body], span)
}

/// The call of `callee` as the method `method`, with `args`.
pub fn applied(method: Vec<String>, callee: Value, args: Vec<Value>, span: Span) -> Value {
    let mut all = vec![callee];
    all.extend(args);
    op(Op::Apply(method.into()), all, span)
}

/// What `collection` holds under `key`.
pub fn lookup(collection: Value, key: Value, span: Span) -> Value {
    op(Op::Lookup, vec![collection, key], span)
}

/// The field `field` of the record `of`.
pub fn field(field: impl Into<String>, of: Value, span: Span) -> Value {
    op(Op::Field(field.into().into()), vec![of], span)
}

/// The text of the file `path` names ([`Op::Read`]).
pub fn read(path: Value, span: Span) -> Value {
    op(Op::Read, vec![path], span)
}

/// The SHA1 of what `of` holds.
pub fn sha1(of: Value, span: Span) -> Value {
    op(Op::Sha1, vec![of], span)
}

/// The body of a [`Op::Closure`].
pub fn closure_body(v: &Value) -> Option<&Value> {
    match v {
        Value::Op {
            op: Op::Closure,
            args,
            ..
        } => args.first(),
        _ => None,
    }
}

/// The reply of a whole-hash read (`HGETALL key`), as a value a function
/// passes on: `command` is `HGETALL`, or a function of the code base the
/// link follows to it (`Verbs.hgetall()`).
pub fn hash_reply(command: Value, key: Value, span: Span) -> Value {
    let list = Value::List {
        items: vec![command, key],
        tail: Vec::new(),
        span,
    };
    op(Op::Reply, vec![list], span)
}

/// The command and the key of a [`hash_reply`].
pub fn hash_reply_parts(v: &Value) -> Option<(&Value, &Value)> {
    let Value::Op {
        op: Op::Reply,
        args,
        ..
    } = v
    else {
        return None;
    };
    match args.as_slice() {
        [Value::List { items, tail, .. }] if tail.is_empty() => match items.as_slice() {
            [command, key] => Some((command, key)),
            _ => None,
        },
        _ => None,
    }
}

/// `v` serialized in `format`.
pub fn encoded(format: &str, v: Value, span: Span) -> Value {
    op(
        Op::Encode,
        vec![Value::Str(Template::lit(format, span)), v],
        span,
    )
}

/// What `v` decodes to in `format`.
pub fn decoded(format: &str, v: Value, span: Span) -> Value {
    op(
        Op::Decode,
        vec![Value::Str(Template::lit(format, span)), v],
        span,
    )
}

/// The format and the value of an [`Op::Encode`] or [`Op::Decode`]
/// (`which`).
pub fn serial_of<'v>(which: &Op, v: &'v Value) -> Option<(String, &'v Value)> {
    match v {
        Value::Op { op, args, .. } if op == which => match args.as_slice() {
            [format, inner] => Some((format.as_str()?, inner)),
            _ => None,
        },
        _ => None,
    }
}

impl Value {
    /// Whether the value is computed from others: a call of a function or
    /// an operation of the value core.
    pub fn is_computed(&self) -> bool {
        matches!(self, Value::Call { .. } | Value::Op { .. })
    }

    /// Whether the link follows the value to what it comes to: a call, an
    /// operation or a constant.
    pub fn is_followed(&self) -> bool {
        self.is_computed() || matches!(self, Value::Const { .. })
    }

    /// The name a call or an operation goes by: the last segment of the
    /// callee a call writes, what [`Op::name`] calls an operation.
    pub fn callee_name(&self) -> Option<String> {
        match self {
            Value::Call { path, .. } => path.last().cloned(),
            Value::Op { op, .. } => Some(op.name()),
            _ => None,
        }
    }

    /// The same call or operation with other arguments; any other value as
    /// it is.
    pub fn with_args(&self, args: Vec<Value>) -> Value {
        match self {
            Value::Call { path, span, .. } => Value::Call {
                path: path.clone(),
                args,
                span: *span,
            },
            Value::Op { op, span, .. } => Value::Op {
                op: op.clone(),
                args,
                span: *span,
            },
            other => other.clone(),
        }
    }
}

// A value is moved, cloned and dropped millions of times a run: the boxed
// payloads above keep it at 64 bytes (from 72 with a `Vec` and a `String`).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Value>() <= 64);
