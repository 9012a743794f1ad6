//! What a function body's names hold, followed the same way by the
//! extractors of languages that bind names in place (Python and Ruby):
//! a name bound in straight-line code holds the new value, one bound in
//! a branch or a loop holds either; an item set on a local map under a
//! literal key is one more pair of it; a function's value is what its
//! `return`s give. A language says only which of its nodes are a body
//! and which a branch ([`Reach`]), and where its locals are
//! ([`Locals::locals`]).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::facts::{Span, Value};
use crate::parse::Climb;

/// The values a name may hold at once, at the most.
const MAX_ALTS: usize = 8;
/// The pairs a local map holds, at the most.
const MAX_PAIRS: usize = 256;
/// The ancestors climbed to tell whether a node is straight-line code.
const MAX_CLIMB: usize = 256;

/// What an ancestor of a node says of how often the node runs.
pub(crate) enum Reach {
    /// A function's (or a module's, a class's) body: the node runs every
    /// time it does.
    Body,
    /// A branch, a loop, a closure: the node may run or not, or again.
    Branch,
    /// Neither: the climb goes on.
    Through,
}

/// Whether `n` runs every time the body holding it does: climbing from
/// `n`, `reach` names a [`Reach::Body`] before any [`Reach::Branch`] (or
/// the root is reached).
pub(crate) fn straight_line<'t: 'n, 'n>(
    climb: &RefCell<Climb<'t>>,
    n: Node<'n>,
    reach: impl Fn(Node<'n>) -> Reach,
) -> bool {
    let mut cur = climb.borrow_mut().parent(n);
    for _ in 0..MAX_CLIMB {
        let Some(p) = cur else { return true };
        match reach(p) {
            Reach::Body => return true,
            Reach::Branch => return false,
            Reach::Through => {}
        }
        cur = climb.borrow_mut().parent(p);
    }
    false
}

/// Either what a name held (`old`, one value or several) or `v`, the
/// first [`MAX_ALTS`] kept.
pub(crate) fn either(old: Value, v: Value) -> Value {
    let span = v.span();
    let mut alts = match old {
        Value::OneOf { alts, .. } => alts,
        o => vec![o],
    };
    if alts.len() < MAX_ALTS {
        alts.push(v);
    }
    Value::OneOf { alts, span }
}

/// A function's value from what its `return`s give: nothing known, the
/// one value, or one of them (the first [`MAX_ALTS`]).
pub(crate) fn returned(mut rets: Vec<Value>, span: Span) -> Value {
    match rets.len() {
        0 => Value::unknown("", span),
        1 => rets.remove(0),
        _ => Value::OneOf {
            alts: rets.into_iter().take(MAX_ALTS).collect(),
            span,
        },
    }
}

/// The nodes of `kinds` in an assignment's target (`a, b = ..`, `for x in
/// ..`): the names it binds, in source order.
pub(crate) fn target_names<'t>(target: Node<'t>, kinds: &[&str]) -> Vec<Node<'t>> {
    let mut names = Vec::new();
    crate::parse::walk(target, |m| {
        if kinds.contains(&m.kind()) {
            names.push(m);
        }
        true
    });
    names
}

/// A context whose function bodies bind locals in place.
pub(crate) trait Locals {
    /// The locals of the scope being walked, by name: the last value.
    fn locals(&mut self) -> &mut HashMap<String, Value>;

    /// Whether `n` runs every time its body does (the language's
    /// [`straight_line`]).
    fn straight_line(&self, n: Node<'_>) -> bool;

    /// Binds a local at `n`: in straight-line code the new value replaces
    /// the old; in a branch it is [`either`].
    fn bind_local(&mut self, name: String, v: Value, n: Node<'_>) {
        let merged = match self.locals().remove(&name) {
            Some(old) if !self.straight_line(n) && old != v => either(old, v),
            _ => v,
        };
        self.locals().insert(name, merged);
    }

    /// `d[k] = v` at `at` on the local `name`: in straight-line code, with
    /// a literal key, a map it holds holds `v` under `k`; in a branch, or
    /// under a key not known here, what it held is gone.
    fn set_item(&mut self, name: String, k: Value, v: Value, at: Node<'_>) {
        let straight = self.straight_line(at);
        if let Some(Value::Map { pairs, .. }) = self.locals().get_mut(&name) {
            if straight && k.as_str().is_some() && pairs.len() < MAX_PAIRS {
                pairs.retain(|(x, _)| x.as_str() != k.as_str());
                pairs.push((k, v));
                return;
            }
        }
        if !straight || k.as_str().is_none() {
            self.locals().remove(&name);
        }
    }
}

/// [`Locals`] for a context `$cx` whose scope being walked is a [`Scope`]
/// in `scope` and whose climbs are a `RefCell<Climb>` in `climb`, its
/// language's nodes read by `$reach` ([`straight_line`]).
macro_rules! in_place {
    ($cx:ty, $reach:expr) => {
        impl $crate::extract::locals::Locals for $cx {
            fn locals(&mut self) -> &mut std::collections::HashMap<String, $crate::facts::Value> {
                &mut self.scope.names.locals
            }

            fn straight_line(&self, n: tree_sitter::Node<'_>) -> bool {
                $crate::extract::locals::straight_line(&self.climb, n, $reach)
            }
        }
    };
}
pub(crate) use in_place;

/// What every language's function scope binds the same way: its
/// parameters, its receiver and its locals.
#[derive(Default, Clone)]
pub(crate) struct Names {
    pub(crate) params: Vec<String>,
    /// The receiver's name in a method (`self`, `cls`, Go's `r`).
    pub(crate) receiver: Option<String>,
    /// Locals (and a receiver's fields, as the language writes them) in
    /// source order: the last value.
    pub(crate) locals: HashMap<String, Value>,
}

impl Names {
    /// What `name`, read at `span`, holds here: its local's value, else
    /// the receiver or the parameter it is.
    pub(crate) fn get(&self, name: &str, span: Span) -> Option<Value> {
        match self.locals.get(name) {
            Some(v) => Some(v.clone()),
            None => self.param_value(name, span),
        }
    }

    /// What the bare name `name`, read at `span`, holds: what [`Names::get`]
    /// finds here, else `outside(name)`, what the language makes of a
    /// name bound nowhere in the function.
    pub(crate) fn get_or(
        &self,
        name: String,
        span: Span,
        outside: impl FnOnce(String) -> Value,
    ) -> Value {
        match self.get(&name, span) {
            Some(v) => v,
            None => outside(name),
        }
    }

    /// The receiver or the parameter `name` is ([`crate::extract::param_value`]).
    pub(crate) fn param_value(&self, name: &str, span: Span) -> Option<Value> {
        crate::extract::param_value(self.receiver.as_deref(), &self.params, name, span)
    }

    /// Whether `name` is bound here: a local, a parameter, the receiver.
    pub(crate) fn is_bound(&self, name: &str) -> bool {
        self.locals.contains_key(name)
            || self.params.iter().any(|p| p == name)
            || self.receiver.as_deref() == Some(name)
    }
}

/// What a name is bound to in the scope a dynamic language's lowering
/// walks (Python's, Ruby's): a function's, a class body's, the file's.
#[derive(Default)]
pub struct Scope {
    /// Parameters, the receiver (`self`, `cls`), locals, and the
    /// receiver's attributes as written (`self.x`, `@x`).
    pub names: Names,
    /// Names (a local, an attribute) bound to a Redis client or a pipeline.
    pub clients: HashSet<String>,
    /// Names bound to a script object (redis-py's `register_script(..)`).
    pub scripts: HashSet<String>,
    /// Names bound to a whole hash read by `HGETALL`: the key read.
    pub rows: HashMap<String, Value>,
    /// Names bound to a method read from an object (Python's
    /// `hset = self.redis.hset`, which keeps its object): the bytes of
    /// that attribute, which a call of the name calls.
    pub methods: HashMap<String, std::ops::Range<usize>>,
}

/// Which scope is being walked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    /// The file's top level (a module, a script).
    Top,
    /// A class (or module) body.
    Class,
    /// A function or method body.
    Function,
}
