//! Patterns that bind variables to parts of a value: `%{sha: sha} = state`
//! (what the map holds under `:sha`), `{:ok, sha} = Redix.command(conn,
//! ["SCRIPT", "LOAD", body])` (the SHA), and a GenServer's state, which
//! every callback receives as `init/1` made it.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use std::collections::HashMap;

use tree_sitter::Node;

use super::library::{is_reply, is_sha1, lookup};
use super::{sides, Cx};
use crate::facts::Value;
use crate::parse::named_children;

/// Patterns nested deeper than this bind nothing further.
const MAX_PATTERN_DEPTH: usize = 8;

/// Values nested deeper than this are not carried from `init/1` into the
/// callbacks.
const MAX_CARRY_DEPTH: usize = 16;

/// The callbacks of a GenServer that receive its state, with their arity:
/// the state is their last parameter.
const STATE_CALLBACKS: &[(&str, usize)] = &[
    ("handle_call", 3),
    ("handle_cast", 2),
    ("handle_info", 2),
    ("handle_continue", 2),
];

/// A value carried out of the function that made it: its parameters mean
/// nothing elsewhere, so they become unknown.
fn detach(v: &Value, depth: usize) -> Value {
    if depth > MAX_CARRY_DEPTH {
        return Value::unknown(v.describe(), v.span());
    }
    match v {
        Value::Param { name, span, .. } => Value::unknown(name.clone(), *span),
        Value::Map { pairs, span } => Value::Map {
            pairs: pairs
                .iter()
                .map(|(k, x)| (detach(k, depth + 1), detach(x, depth + 1)))
                .collect(),
            span: *span,
        },
        Value::List { items, tail, span } => Value::List {
            items: items.iter().map(|x| detach(x, depth + 1)).collect(),
            tail: tail.iter().map(|x| detach(x, depth + 1)).collect(),
            span: *span,
        },
        Value::Call { args, .. } | Value::Op { args, .. } => {
            v.with_args(args.iter().map(|x| detach(x, depth + 1)).collect())
        }
        Value::OneOf { alts, span } => Value::OneOf {
            alts: alts.iter().map(|x| detach(x, depth + 1)).collect(),
            span: *span,
        },
        Value::Str(t)
            if t.segs
                .iter()
                .any(|s| matches!(s, crate::facts::Seg::Value(_))) =>
        {
            Value::unknown(v.describe(), v.span())
        }
        other => other.clone(),
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// The variables a pattern binds, each to its part of `v`: a variable
    /// all of it, `%{k: p}` and `%{"k" => p}` what `v` holds under the key,
    /// `p = q` both sides. Tuples are [`Cx::bind_tuple`]'s.
    pub(super) fn pattern_locals(
        &self,
        pat: Node<'_>,
        v: &Value,
        out: &mut HashMap<String, Value>,
    ) {
        let mut stack = vec![(pat, v.clone(), 0usize)];
        while let Some((p, v, depth)) = stack.pop() {
            if depth > MAX_PATTERN_DEPTH {
                continue;
            }
            match p.kind() {
                "identifier" => {
                    let name = self.text(p);
                    if !name.starts_with('_') {
                        out.insert(name, v);
                    }
                }
                "binary_operator" if self.op(p) == "=" => {
                    if let Some((l, r)) = sides(p) {
                        stack.push((l, v.clone(), depth + 1));
                        stack.push((r, v, depth + 1));
                    }
                }
                "map" => {
                    for (key, sub) in self.map_pattern_pairs(p) {
                        stack.push((sub, lookup(v.clone(), key, self.span(sub)), depth + 1));
                    }
                }
                _ => {}
            }
        }
    }

    /// A map pattern's literal keys and the pattern under each.
    fn map_pattern_pairs<'n>(&self, map: Node<'n>) -> Vec<(Value, Node<'n>)> {
        let mut out = Vec::new();
        for content in named_children(map)
            .into_iter()
            .filter(|c| c.kind() == "map_content")
        {
            for entry in named_children(content) {
                match entry.kind() {
                    "keywords" => {
                        for pair in named_children(entry) {
                            if let (Some(k), Some(sub)) = (
                                pair.child_by_field_id(F.key),
                                pair.child_by_field_id(F.value),
                            ) {
                                out.push((self.keyword_atom(k), sub));
                            }
                        }
                    }
                    "binary_operator" if self.op(entry) == "=>" => {
                        if let Some((k, sub)) = sides(entry) {
                            let key = self.value(k, None, 0);
                            if key.as_str().is_some() || matches!(key, Value::Int { .. }) {
                                out.push((key, sub));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// `{:ok, sha} = Redix.command(conn, ["SCRIPT", "LOAD", body])`: the
    /// reply's SHA, when `v` is one (or a reply the link reads). `None` for
    /// any other pattern or value.
    pub(super) fn ok_sha(&self, pat: Node<'_>, v: &Value) -> Option<(String, Value)> {
        if !is_sha1(v) && !is_reply(v) {
            return None;
        }
        let kids = named_children(pat);
        let [ok, var] = kids.as_slice() else {
            return None;
        };
        let name = self.text(*var);
        (ok.kind() == "atom"
            && self.text(*ok) == ":ok"
            && var.kind() == "identifier"
            && !name.starts_with('_'))
        .then(|| (name, v.clone()))
    }

    /// Parameters that are patterns (`%{sha: sha} = state`), each variable
    /// bound to its part of the argument; in a GenServer's callback, the
    /// state parameter to the state `init/1` returns.
    pub(super) fn param_locals(
        &self,
        module: &str,
        name: &str,
        param_nodes: &[Node<'_>],
        out: &mut HashMap<String, Value>,
    ) {
        let state = STATE_CALLBACKS
            .iter()
            .any(|(n, arity)| *n == name && *arity == param_nodes.len())
            .then(|| self.genserver_state(module))
            .flatten();
        for (index, p) in param_nodes.iter().enumerate() {
            let whole = match &state {
                Some(s) if index + 1 == param_nodes.len() => s.clone(),
                _ if p.kind() == "identifier" => continue,
                _ => Value::Param {
                    index,
                    name: self.param_name(*p),
                    span: self.span(*p),
                },
            };
            self.pattern_locals(*p, &whole, out);
        }
    }

    /// The state a module's `init/1` returns in `{:ok, state}` (its first
    /// clause that does), read once its body is read: callbacks after it
    /// in the file receive it.
    fn genserver_state(&self, module: &str) -> Option<Value> {
        self.pending.iter().find_map(|p| {
            let f = self.facts.functions.get(p.func)?;
            if f.name != "init" || f.params.len() != 1 || f.module != module {
                return None;
            }
            let last = self.last_expression(p.body)?;
            let kids = named_children(last);
            match (last.kind(), kids.as_slice()) {
                ("tuple", [ok, state, ..]) if self.text(*ok) == ":ok" => {
                    Some(detach(&self.value(*state, Some(p.env), 0), 0))
                }
                _ => None,
            }
        })
    }
}
