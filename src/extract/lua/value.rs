//! What a Lua expression evaluates to, as far as the wire cares: a value
//! the model knows (`Value`), `nil`, `redis.call` itself, a function, a
//! table of positional items; and where it comes from: the `ARGV` reads
//! whose `nil` it would be, and whether it depends on the caller's
//! arguments or on Redis state.

use tree_sitter::Node;

use crate::facts::{Span, Value};

/// At most this many alternatives in a `OneOf` (as the link's `MAX_ALTS`).
const MAX_ALTS: usize = 8;

/// A Lua value as evaluation sees it.
#[derive(Clone, Debug)]
pub(super) enum Kind<'t> {
    Val(Value),
    Nil,
    /// `redis.call` or `redis.pcall`, under any name.
    Redis,
    /// The `redis` table.
    RedisLib,
    /// A function, and how many scopes were open where it was defined (its
    /// upvalues are in those).
    Func(Node<'t>, usize),
    /// A table's positional items; `open` when more may follow.
    Table {
        items: Vec<Lv<'t>>,
        open: bool,
    },
    /// The `KEYS` or `ARGV` table itself (`local keys = KEYS`, a Redis
    /// function's `keys` and `args`): its item `n` is `KEYS[n]` or
    /// `ARGV[n]`.
    Args(Slot),
}

/// Which of the tables a script is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Keys,
    Argv,
}

/// A value with its provenance.
#[derive(Clone, Debug)]
pub(super) struct Lv<'t> {
    pub kind: Kind<'t>,
    pub span: Span,
    /// The `ARGV[n]` reads (index, where) this value is `nil` when the
    /// caller did not pass them.
    pub nil_from: Vec<(u32, Span)>,
    /// Depends on the caller's own arguments (ARGV, `#ARGV`).
    pub caller: bool,
    /// Depends on what Redis answered.
    pub state: bool,
}

impl<'t> Lv<'t> {
    pub fn new(kind: Kind<'t>, span: Span) -> Lv<'t> {
        Lv {
            kind,
            span,
            nil_from: Vec::new(),
            caller: false,
            state: false,
        }
    }

    pub fn val(v: Value) -> Lv<'t> {
        let span = v.span();
        Lv::new(Kind::Val(v), span)
    }

    pub fn unknown(label: impl Into<String>, span: Span) -> Lv<'t> {
        Lv::val(Value::unknown(label, span))
    }

    /// An unknown value that depends on what `from` depend on (a function
    /// of them), but is not `nil` for their sake.
    pub fn derived(label: impl Into<String>, span: Span, from: &[Lv<'t>]) -> Lv<'t> {
        let mut v = Lv::unknown(label, span);
        for f in from {
            v.caller |= f.caller;
            v.state |= f.state;
        }
        v
    }

    /// The value as the model holds it.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Val(v) => v.clone(),
            Kind::Nil => Value::unknown("nil", self.span),
            Kind::Redis | Kind::RedisLib => Value::unknown("redis", self.span),
            Kind::Func(..) => Value::unknown("function", self.span),
            Kind::Table { .. } => Value::unknown("table", self.span),
            Kind::Args(Slot::Keys) => Value::unknown("KEYS", self.span),
            Kind::Args(Slot::Argv) => Value::unknown("ARGV", self.span),
        }
    }

    pub fn is_nil(&self) -> bool {
        matches!(self.kind, Kind::Nil)
    }

    /// Either `self` or `other` (a variable assigned on some paths, a
    /// function with several returns).
    pub fn join(self, other: Lv<'t>) -> Lv<'t> {
        if self.is_nil() {
            return other;
        }
        if other.is_nil() {
            return self;
        }
        let mut out = match (&self.kind, &other.kind) {
            (Kind::Val(a), Kind::Val(b)) if a == b => self.clone(),
            (Kind::Val(a), Kind::Val(b)) => {
                let mut alts = Vec::new();
                for v in [a, b] {
                    match v {
                        Value::OneOf { alts: inner, .. } => alts.extend(inner.iter().cloned()),
                        other => alts.push(other.clone()),
                    }
                }
                alts.dedup();
                if alts.len() > MAX_ALTS {
                    Lv::unknown("value", self.span)
                } else {
                    Lv::val(Value::OneOf {
                        alts,
                        span: self.span,
                    })
                }
            }
            (Kind::Redis, Kind::Redis) => self.clone(),
            _ => Lv::unknown("value", self.span),
        };
        out.caller = self.caller || other.caller;
        out.state = self.state || other.state;
        out.nil_from = self.nil_from;
        for r in other.nil_from {
            if !out.nil_from.contains(&r) {
                out.nil_from.push(r);
            }
        }
        out
    }
}
