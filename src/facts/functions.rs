//! Functions as facts: a definition's parameters, clauses and what it
//! returns, a function that is another under another name, and which
//! clauses of a function may run for given arguments.

use super::{Span, Value};

/// A function that is another function under another name (Elixir's
/// `defdelegate f(a), to: M`): a call of it is a call of `target` with
/// the same arguments, and it is no call site of its own.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FnAlias {
    /// The function: an index into `FileFacts::functions`.
    pub func: usize,
    /// The function it is, as a call names it (`["M", "f"]`).
    pub target: Vec<String>,
}

/// A module's import of another's functions (Elixir's `import A.B`,
/// `import A.B, only: [f: 1]`): a call by a bare name the module does not
/// define is of the one imported module that defines it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Import {
    /// The importing module.
    pub module: String,
    /// The imported module, as definitions name theirs (`A.B`).
    pub from: String,
    /// The names `only:` lists, if any.
    pub only: Option<Vec<String>>,
}

/// A class's base class, as its definition names it (Python's `class
/// A(B)`, Ruby's `class A < B`, JavaScript's `class A extends B`): a field
/// `A` does not set is `B`'s, and a method of `B` run on an `A` reads the
/// fields of `A`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TypeBase {
    /// The class: the last segment of its methods' module (`A`).
    pub class: String,
    /// The base as written, its last segment the base's class (`m.B`).
    pub base: Vec<String>,
}

/// A command a client registers for a script (ioredis's
/// `defineCommand(name, {numberOfKeys, lua})`, node-redis's
/// `defineScript`): the speaker's clients then have a method of that name
/// that runs the script, in any file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Registration {
    /// The method's name; empty where the code computes it
    /// (`defineCommand(command.name, command.options)`, a loader's): any
    /// method of the speaker's clients named as one of its scripts may be
    /// one.
    pub command: String,
    /// The script, as the registration names it.
    pub script: Value,
    /// The key count registered with it, and where.
    pub keys: Option<(u32, Span)>,
    /// A function decides what a call sends (`transformArguments`): the
    /// script is known, its keys and arguments are not.
    pub transforms: bool,
}

/// The index of [`Value::Param`] that stands for a method's receiver
/// (`self`, `self.sha`): bound to [`CallFact::receiver`] at call sites.
pub const RECEIVER: usize = usize::MAX;

/// The first index of a closure's parameters: in the body of a [`Op::Closure`](super::Op::Closure),
/// `Param { index: CLOSURE_PARAM + i }` is its `i`-th parameter, which the
/// substitution of an enclosing function's parameters leaves alone.
pub const CLOSURE_PARAM: usize = usize::MAX / 2;

/// The last segment of a [`CallFact::path`](super::CallFact) that is a
/// construction: `[T, NEW]` for `new T(a..)`. A field of `T` that `T`'s
/// constructor sets from its parameters holds, for each construction, what
/// the construction passes (`constructor(private prefix: string)`).
pub const NEW: &str = "#new";

/// The qualifier of a call's path whose module the code computes where it
/// runs (Elixir's `client().q(conn, cmd)`, `mod.q(conn, cmd)`): `[ANY_MODULE,
/// q]` calls `q` of whichever module of the code base defines it with that
/// arity.
pub const ANY_MODULE: &str = "#module";

/// What a function stores through a pointer its caller passes is a
/// function of its own, named `<function>*<parameter>` (no identifier
/// spells it); a variable a call passes that pointer to is defined as a
/// call of it ([`stored_by`]).
pub fn store_name(function: &str, param: usize) -> String {
    format!("{function}*{param}")
}

/// The store function a definition's value calls ([`store_name`]), with
/// its argument count: such a definition defines nothing where the code
/// base holds no such function (what the call passes the pointer to only
/// reads it).
pub fn stored_by(v: &super::Value) -> Option<(&str, usize)> {
    match v {
        super::Value::Call { path, args, .. } => match path.as_slice() {
            [name] if name.contains('*') => Some((name.as_str(), args.len())),
            _ => None,
        },
        _ => None,
    }
}

/// A function whose return value may be a key: a key-builder candidate.
/// Multi-clause functions give one `FunctionDef` per clause.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FunctionDef {
    /// The enclosing module (`EchoMQ.Keyspace`, `crate::keys`), or empty.
    pub module: String,
    pub name: String,
    pub params: Vec<String>,
    /// What the clause returns.
    pub returns: Value,
    pub name_span: Span,
    /// Clause number (0-based) for multi-clause functions.
    pub clause: usize,
    /// How many trailing parameters have a default (`opts \\ []`): a call
    /// may leave them out.
    pub defaults: usize,
    /// Per parameter, the literal this clause requires of its argument
    /// (`def script(:enqueue)`): a call whose argument is another literal
    /// runs another clause. Empty when no parameter is a literal.
    #[serde(default)]
    pub patterns: Vec<Option<Value>>,
    /// Per parameter, the value it takes when a call leaves it out
    /// (`script \\ @enqueue`). Empty when no parameter has a default.
    #[serde(default)]
    pub default_values: Vec<Option<Value>>,
    /// The clauses of this function are tried in order, and the first
    /// whose patterns take the arguments runs (a Rust `match` on a
    /// parameter, each arm a clause): a clause none of whose patterns is
    /// left to a guard, so a later clause never runs for an argument an
    /// earlier one takes.
    #[serde(default)]
    pub ordered: bool,
    /// Code outside the tree may call it, as its language declares: an
    /// Elixir `def` (not `defp`), a Rust `pub` item (not `pub(crate)`), a
    /// Ruby method not under `private`/`protected`. False where the
    /// extractor does not tell.
    #[serde(default)]
    pub public: bool,
}

// A `FunctionDef` is emitted for every function; `returns` is
// `Value::Unknown` when the body does not return a string-like value.

impl FunctionDef {
    /// The function `name` of `module` declared at `span`, its name at
    /// `name_span`: one clause, no parameters yet, not public, and
    /// returning what is not known until its body is read (a hole at
    /// `span`).
    pub fn declared(module: String, name: String, name_span: Span, span: Span) -> FunctionDef {
        FunctionDef {
            module,
            name,
            params: Vec::new(),
            returns: Value::unknown("", span),
            name_span,
            clause: 0,
            defaults: 0,
            patterns: Vec::new(),
            default_values: Vec::new(),
            ordered: false,
            public: false,
        }
    }

    /// Its parameters, each with the value it takes when a call leaves it
    /// out, if any: `defaults` counts those that have one, and
    /// `default_values` is empty when none has.
    pub fn with_params(
        mut self,
        params: Vec<String>,
        mut default_values: Vec<Option<Value>>,
    ) -> Self {
        self.defaults = default_values.iter().filter(|d| d.is_some()).count();
        if self.defaults == 0 {
            default_values.clear();
        }
        (self.params, self.default_values) = (params, default_values);
        self
    }

    /// Whether a call with these arguments may run this clause: no
    /// parameter requires a literal that a literal argument is not (an
    /// atom is never a string; an argument the call does not spell out
    /// may be anything).
    pub fn accepts(&self, args: &[Value]) -> bool {
        accepts(&self.patterns, args)
    }
}

/// The clauses a call with `args` may run, in the order given: each one
/// that [`FunctionDef::accepts`] the arguments, but none after a clause of
/// an `ordered` function that surely takes them (every pattern it has is
/// the literal argument given).
pub fn may_run<T>(clauses: Vec<T>, def: impl Fn(&T) -> &FunctionDef, args: &[Value]) -> Vec<T> {
    let mut settled: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    for c in clauses {
        let d = def(&c);
        if !d.accepts(args) {
            continue;
        }
        let id = (d.module.clone(), d.name.clone());
        if settled.contains(&id) {
            continue;
        }
        let sure = d.patterns.iter().zip(args).all(|(p, a)| match p {
            None => true,
            Some(p) => literal_eq(p, a) == Some(true),
        });
        if d.ordered && sure {
            settled.push(id);
        }
        out.push(c);
    }
    out
}

/// Whether arguments fit a clause's parameter patterns (see
/// [`FunctionDef::accepts`]).
pub fn accepts(patterns: &[Option<Value>], args: &[Value]) -> bool {
    patterns.iter().zip(args).all(|(p, a)| match p {
        None => true,
        Some(p) => literal_eq(p, a).unwrap_or(true),
    })
}

/// Whether two values are the same literal; `None` when either is not one.
fn literal_eq(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Atom { name: x, .. }, Value::Atom { name: y, .. }) => Some(x == y),
        (Value::Int { value: x, .. }, Value::Int { value: y, .. }) => Some(x == y),
        (Value::Str(x), Value::Str(y)) => Some(x.as_literal()? == y.as_literal()?),
        (Value::Atom { .. } | Value::Int { .. } | Value::Str(_), _)
        | (_, Value::Atom { .. } | Value::Int { .. } | Value::Str(_)) => {
            let lit = |v: &Value| match v {
                Value::Atom { .. } | Value::Int { .. } => true,
                Value::Str(t) => t.as_literal().is_some(),
                _ => false,
            };
            (lit(a) && lit(b)).then_some(false)
        }
        _ => None,
    }
}

/// The identifier a definition or reference of `name` holds in the bytes of
/// its file: `@prefix` → `prefix` (an attribute, `@` and all, also written
/// `@ prefix`), `valid?` → `valid`, `r#type` → `type`. A superset of the
/// spellings: searching for less finds more files.
pub fn needle_of(name: &str) -> Option<String> {
    let n = name.trim_start_matches('@');
    let n = n.strip_prefix("r#").unwrap_or(n);
    let n = n.trim_end_matches(['?', '!']);
    let core: &str = n
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|s| !s.is_empty())?;
    Some(core.to_string())
}

/// What the files that define `name` are counted by (the selection's name
/// pass and the link's pick agree on it): its [`needle_of`], and `.f` for
/// a field `.f` a type's constructors set.
pub fn definer_key(name: &str) -> Option<String> {
    let n = needle_of(name)?;
    Some(match name.starts_with('.') {
        true => format!(".{n}"),
        false => n,
    })
}
