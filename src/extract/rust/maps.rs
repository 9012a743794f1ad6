//! Maps: a `HashMap` (a `BTreeMap`, any `..Map`) filled with literal keys
//! is a [`Value::Map`] from those keys to what was put under them, as
//! `HashMap::new()` and the straight-line `insert`s that follow fill it,
//! `HashMap::from([(k, v), ..])` makes it, or an array of pairs collected
//! into a map gives it. A lookup by key (`m["k"]`, `m.get("k")`) is what
//! the map holds under the key, or a [`LOOKUP`] the link reduces where the
//! map comes from elsewhere (a field its constructor filled).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::facts::{Op, Span, Value};
use crate::parse::named_children;

use super::{args_of, is_comment, method_of, peel_ref, Cx, MAX_DEPTH};

/// Pairs of one map kept, at most; past it the map is not known.
const MAX_PAIRS: usize = 256;

/// Whether a type (as written) is a map keyed by value.
fn is_map_type(t: &str) -> bool {
    let head = t.split('<').next().unwrap_or(t).trim();
    let last = head.rsplit("::").next().unwrap_or(head);
    last.ends_with("Map") && !last.is_empty()
}

fn empty_map(span: Span) -> Value {
    Value::Map {
        pairs: Vec::new(),
        span,
    }
}

/// A list of 2-item lists (an array of pairs) as a map; `None` when an
/// item is not a pair.
fn pairs_of(v: Value, span: Span) -> Option<Value> {
    let Value::List { items, tail, .. } = v else {
        return None;
    };
    if !tail.is_empty() || items.len() > MAX_PAIRS {
        return None;
    }
    let mut pairs = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::List {
                mut items, tail, ..
            } if items.len() == 2 && tail.is_empty() => {
                let v = items.pop()?;
                let k = items.pop()?;
                pairs.push((k, v));
            }
            _ => return None,
        }
    }
    Some(Value::Map { pairs, span })
}

/// `coll[key]` where both are known here: what the map holds under the
/// key (the first pair with it); a lookup left to the link otherwise.
pub(super) fn lookup(coll: Value, key: Value, span: Span) -> Value {
    if let (Value::Map { pairs, .. }, Some(k)) = (&coll, key.as_str()) {
        if pairs.iter().all(|(x, _)| x.as_str().is_some()) {
            return match pairs.iter().find(|(x, _)| x.as_str().as_ref() == Some(&k)) {
                Some((_, v)) => v.clone(),
                None => Value::unknown(format!("no `{k}` key"), span),
            };
        }
    }
    crate::facts::lookup(coll, key, span)
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `HashMap::new()`, `BTreeMap::with_capacity(n)`: an empty map;
    /// `HashMap::from([(k, v), ..])`: its pairs.
    pub(super) fn map_call(&mut self, path: &[&str], args: &[Node<'_>], d: usize) -> Option<Value> {
        let [.., ty, ctor] = path else {
            return None;
        };
        if !is_map_type(ty) {
            return None;
        }
        let span = args
            .first()
            .map(|a| self.span(*a))
            .unwrap_or(Span::new(self.file, 0, 0));
        match (*ctor, args) {
            ("new" | "default", []) | ("with_capacity", [_]) => Some(empty_map(span)),
            ("from" | "from_iter", [a]) => {
                let v = self.value(*a, d);
                pairs_of(v, self.span(*a))
            }
            _ => None,
        }
    }

    /// `[(k, v), ..].into_iter().collect::<HashMap<_, _>>()` (or into a
    /// `let m: HashMap<..>`): the pairs as a map.
    pub(super) fn collected_map(
        &mut self,
        call: Node<'_>,
        recv: Node<'_>,
        d: usize,
    ) -> Option<Value> {
        let into_map = call
            .child_by_field_id(F.function)
            .filter(|f| f.kind() == "generic_function")
            .and_then(|f| {
                named_children(f)
                    .into_iter()
                    .find(|c| c.kind() == "type_arguments")
            })
            .is_some_and(|t| is_map_type(self.text(t).trim_start_matches('<')))
            || self
                .ancestors(call, 4)
                .find(|a| a.kind() == "let_declaration")
                .and_then(|l| l.child_by_field_id(F.ty))
                .is_some_and(|t| is_map_type(&self.text(t)));
        if !into_map {
            return None;
        }
        let mut cur = recv;
        for _ in 0..MAX_DEPTH {
            match method_of(cur, self.src) {
                Some((m, r))
                    if matches!(m.as_str(), "into_iter" | "iter" | "copied" | "cloned") =>
                {
                    cur = r;
                }
                Some(_) => return None,
                None => break,
            }
        }
        let cur = peel_ref(cur);
        let list = match cur.kind() {
            "array_expression" => self.value(cur, d),
            "macro_invocation" => self.value(cur, d),
            _ => return None,
        };
        pairs_of(list, self.span(cur))
    }

    /// `m.get(k)` on a map, `[(k, v), ..].into_iter().collect()` into one.
    pub(super) fn map_method(
        &mut self,
        call: Node<'_>,
        method: &str,
        recv: Node<'_>,
        args: &[Node<'_>],
        d: usize,
    ) -> Option<Value> {
        match (method, args) {
            ("get", [key]) => {
                let coll = self.map_receiver(recv, d)?;
                let key = self.value(*key, d);
                Some(lookup(coll, key, self.span(call)))
            }
            ("collect", []) => self.collected_map(call, recv, d),
            _ => None,
        }
    }

    /// `m["k"]`, `self.all[name]`: a lookup by a string key; `None` for an
    /// index by position or range.
    pub(super) fn index_value(&mut self, n: Node<'_>, d: usize) -> Option<Value> {
        let kids: Vec<Node<'_>> = named_children(n)
            .into_iter()
            .filter(|c| !is_comment(*c))
            .collect();
        let [coll, key] = kids.as_slice() else {
            return None;
        };
        let key = self.value(*key, d);
        if !matches!(
            key,
            Value::Str(_)
                | Value::Param { .. }
                | Value::Const { .. }
                | Value::Call { .. }
                | Value::Op { .. }
        ) {
            return None;
        }
        let coll = self.value(*coll, d);
        Some(lookup(coll, key, self.span(n)))
    }

    /// `m.get(k)` on a map: the receiver's value, when it is a map this
    /// file shows (a local filled here, or a field the file declares as a
    /// map).
    pub(super) fn map_receiver(&mut self, recv: Node<'_>, d: usize) -> Option<Value> {
        let v = self.value(recv, d);
        let field = match &v {
            Value::Map { .. } => return Some(v),
            Value::Param {
                index: crate::facts::RECEIVER,
                name,
                ..
            } => name.clone(),
            Value::Op {
                op: Op::Field(f),
                args,
                ..
            } if args.len() == 1 && !f.is_empty() => f.to_string(),
            _ => return None,
        };
        self.map_field(&field).then_some(v)
    }

    /// Whether a struct of the file declares the field `name` with a map
    /// type.
    fn map_field(&self, name: &str) -> bool {
        let mut stack: Vec<Node<'_>> = named_children(self.root);
        let mut seen = 0;
        while let Some(item) = stack.pop() {
            seen += 1;
            if seen > 4096 {
                return false;
            }
            match item.kind() {
                "mod_item" => stack.extend(
                    item.child_by_field_id(F.body)
                        .map(named_children)
                        .unwrap_or_default(),
                ),
                "declaration_list" => stack.extend(named_children(item)),
                "struct_item" => {
                    let Some(body) = item.child_by_field_id(F.body) else {
                        continue;
                    };
                    let hit = named_children(body).into_iter().any(|f| {
                        f.kind() == "field_declaration"
                            && f.child_by_field_id(F.name)
                                .is_some_and(|x| self.text(x) == name)
                            && f.child_by_field_id(F.ty)
                                .is_some_and(|t| is_map_type(&self.text(t)))
                    });
                    if hit {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// `m.insert(k, v)` on a local map: in straight-line code the map holds
    /// `v` under `k`; in a loop, a branch or a closure, or after any other
    /// change, what it holds is no longer known.
    pub(super) fn map_insert(&mut self, n: Node<'_>) {
        let Some((method, recv)) = method_of(n, self.src) else {
            return;
        };
        let recv = peel_ref(recv);
        if recv.kind() != "identifier" {
            return;
        }
        let name = self.text(recv);
        if !matches!(self.scope.locals.get(&name), Some(Value::Map { .. })) {
            return;
        }
        let args = args_of(n);
        let pair = if method == "insert" && args.len() == 2 && self.straight_line(n) {
            Some((self.value(args[0], 0), self.value(args[1], 0)))
        } else if super::MUTATORS.contains(&method.as_str()) || method == "entry" {
            None
        } else {
            return;
        };
        let Some(Value::Map { pairs, span }) = self.scope.locals.get_mut(&name) else {
            return;
        };
        match pair {
            Some((k, v)) if pairs.len() < MAX_PAIRS && k.as_str().is_some() => {
                pairs.retain(|(x, _)| x.as_str() != k.as_str());
                pairs.push((k, v));
            }
            _ => {
                let span = *span;
                self.scope
                    .locals
                    .insert(name.clone(), Value::unknown(name, span));
            }
        }
    }
}
