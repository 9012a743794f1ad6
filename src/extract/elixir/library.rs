//! What library calls compute, where the wire depends on it: the SHA1 of
//! a script (`:crypto.hash(:sha, s)`, hex-encoded or not, and the reply of
//! `SCRIPT LOAD`), a lookup by a literal key (`Keyword.fetch!`, `Map.get`,
//! `kw[:k]`, `state.sha`), `then/2` (its function applied to its
//! value), a value serialized for a script to decode (`Msgpax.pack!`,
//! `Jason.encode!`), the reply of a whole-hash read (`{:ok, reply}`) and
//! the map made from it (`Enum.chunk_every(2) |> Map.new(..)`),
//! `apply(mod, fun, args)`, a path joined (`Path.join`) and the text of
//! the file it names, read where the code runs (`File.read`, `{:ok,
//! text}`, and `File.read!`; [`Op::Read`]).

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::client::client_command_arg;
use super::{call_arg_values, sides, Cx};
use crate::facts::{encoded, op, Op, Span, Value, RECEIVER};
use crate::parse::named_children;

use super::stdlib::LIBRARY;
use crate::extract::library::Flow;

/// `#sha1(v)`: the SHA1 of what `v` holds.
pub(super) fn sha1_of(v: Value, span: Span) -> Value {
    if is_sha1(&v) {
        return v;
    }
    crate::facts::sha1(v, span)
}

/// Whether a value is a SHA1 computed from another.
pub(super) fn is_sha1(v: &Value) -> bool {
    matches!(v, Value::Op { op: Op::Sha1, .. })
}

/// Whether a value is the reply of a command the link reads
/// ([`Op::Reply`]).
pub(super) fn is_reply(v: &Value) -> bool {
    matches!(v, Value::Op { op: Op::Reply, .. })
}

/// `{:ok, v}`: a tuple is a record whose fields are its positions.
pub(super) fn ok_tuple(v: Value, span: Span) -> Value {
    Value::Map {
        pairs: vec![
            (
                Value::Int { value: 0, span },
                Value::Atom {
                    name: "ok".into(),
                    span,
                },
            ),
            (Value::Int { value: 1, span }, v),
        ],
        span,
    }
}

/// The same key, when both are literals: an atom is never a string.
fn same_key(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Atom { name: x, .. }, Value::Atom { name: y, .. }) => Some(x == y),
        (Value::Int { value: x, .. }, Value::Int { value: y, .. }) => Some(x == y),
        (Value::Str(_), Value::Str(_)) => Some(a.as_str()? == b.as_str()?),
        (Value::Atom { .. } | Value::Int { .. } | Value::Str(_), _) => {
            (matches!(b, Value::Atom { .. } | Value::Int { .. }) || b.as_str().is_some())
                .then_some(false)
        }
        _ => None,
    }
}

/// `coll[key]`: the value a map or keyword list the code shows holds under
/// a literal key (the first pair with it, as `Keyword` reads); a lookup
/// left to the link (`[]` of the two) when either is not known here.
pub(super) fn lookup(coll: Value, key: Value, span: Span) -> Value {
    if let Value::Map { pairs, .. } = &coll {
        let mut all_known = true;
        for (k, v) in pairs {
            match same_key(k, &key) {
                Some(true) => return v.clone(),
                Some(false) => {}
                None => all_known = false,
            }
        }
        if all_known && !pairs.is_empty() {
            return Value::unknown(format!("no `{}` key", key.describe()), span);
        }
    }
    crate::facts::lookup(coll, key, span)
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// The value of a call of the library whose result the wire depends on;
    /// `None` for any other call.
    pub(super) fn library_call(
        &self,
        path: &[String],
        args: &[Node<'_>],
        env: Option<usize>,
        depth: usize,
        span: Span,
    ) -> Option<Value> {
        let name = path.join(".");
        // The rows of `stdlib.rs`; the calls below them read more than one
        // value's flow.
        let arg = |i: usize| args.get(i).map(|a| self.value(*a, env, depth + 1));
        match LIBRARY.function(path, args.len()) {
            Some(Flow::SameSha) => return arg(0).filter(is_sha1),
            Some(Flow::Lookup) if args.len() >= 2 => {
                let coll = self.list_value(args[0], env, depth + 1);
                return Some(lookup(coll, arg(1)?, span));
            }
            Some(Flow::Encoded(format)) => return Some(encoded(format, arg(0)?, span)),
            _ => {}
        }
        match name.as_str() {
            ":crypto.hash" if args.len() == 2 => {
                let alg = arg(0)?;
                (alg.as_str().as_deref() == Some("sha"))
                    .then(|| sha1_of(arg(1).unwrap_or(alg), span))
            }
            "then" | "Kernel.then" if args.len() == 2 => Some(self.then(args, env, depth, span)),
            "apply" | "Kernel.apply" if args.len() == 3 => Some(op(
                Op::Dispatch,
                vec![arg(0)?, arg(1)?, self.list_value(args[2], env, depth + 1)],
                span,
            )),
            "Enum.into" | "Map.new" => self.map_made(&name, args, env, depth),
            "Path.join" => self.path_joined(args, env, depth, span),
            "File.read" | "File.read!" if args.len() == 1 => {
                let read = crate::facts::read(self.value(args[0], env, depth + 1), span);
                Some(if name == "File.read" {
                    ok_tuple(read, span)
                } else {
                    read
                })
            }
            _ => self
                .script_load(path, args, env, depth, span)
                .or_else(|| self.client_reply(path, args, env, depth, span)),
        }
    }

    /// `Redix.command(conn, ["HGETALL", key])`: `{:ok, reply}` (the reply
    /// itself for `command!`), where the command is a whole-hash read or
    /// the one a wrapper's caller passes (a parameter): the reply its
    /// callers take apart and read fields of.
    fn client_reply(
        &self,
        path: &[String],
        args: &[Node<'_>],
        env: Option<usize>,
        depth: usize,
        span: Span,
    ) -> Option<Value> {
        let at = client_command_arg(path)?;
        let bang = match path {
            [m, f] if m == "Redix" && f == "command" => false,
            [m, f] if m == "Redix" && f == "command!" => true,
            _ => return None,
        };
        let command = self.value(*args.get(at)?, env, depth + 1);
        let whole_hash = match &command {
            Value::Param { index, .. } => *index != RECEIVER,
            Value::List { items, tail, .. } => {
                tail.is_empty() && super::reads::whole_hash_read(items).is_some()
            }
            _ => false,
        };
        if !whole_hash {
            return None;
        }
        let reply = op(Op::Reply, vec![command], span);
        Some(if bang { reply } else { ok_tuple(reply, span) })
    }

    /// `Path.join(a, b)` and `Path.join([a, b, ..])`: the parts joined by
    /// `/`. `None` for a list whose items the code does not show.
    fn path_joined(
        &self,
        args: &[Node<'_>],
        env: Option<usize>,
        depth: usize,
        span: Span,
    ) -> Option<Value> {
        let items = match args {
            [list] => match self.list_value(*list, env, depth + 1) {
                Value::List { items, tail, .. } if tail.is_empty() => items,
                _ => return None,
            },
            [a, b] => vec![
                self.value(*a, env, depth + 1),
                self.value(*b, env, depth + 1),
            ],
            _ => return None,
        };
        Some(crate::extract::parts::joined(items, "/", span, span))
    }

    /// A map made from a value: `Map.new(x)` and `Enum.into(x, %{})` hold
    /// what `x` holds; made with the function that turns a pair into a
    /// tuple from `Enum.chunk_every(flat, 2)`, the fields and values of the
    /// flat list `flat` (an `HGETALL` reply) as a map. `None` for any other
    /// function, or a map merged into.
    fn map_made(
        &self,
        name: &str,
        args: &[Node<'_>],
        env: Option<usize>,
        depth: usize,
    ) -> Option<Value> {
        let (source, rest) = match name {
            "Map.new" => (*args.first()?, args.get(1..)?),
            _ => {
                let into = args.get(1)?;
                if into.kind() != "map" || !named_children(*into).is_empty() {
                    return None;
                }
                (*args.first()?, args.get(2..)?)
            }
        };
        match rest {
            [] => Some(self.value(source, env, depth + 1)),
            [f] if self.is_pair_fn(*f) => {
                Some(self.value(self.chunked_in_pairs(source)?, env, depth + 1))
            }
            _ => None,
        }
    }

    /// `Enum.chunk_every(flat, 2)` or `flat |> Enum.chunk_every(2)`: `flat`.
    fn chunked_in_pairs<'n>(&self, n: Node<'n>) -> Option<Node<'n>> {
        let (call, piped) = match n.kind() {
            "binary_operator" if self.op(n) == "|>" => {
                let (l, r) = sides(n)?;
                (r, Some(l))
            }
            "call" => (n, None),
            _ => return None,
        };
        if call.kind() != "call" || self.target(call) != "Enum.chunk_every" {
            return None;
        }
        match call_arg_values(call, piped).as_slice() {
            [flat, two] if self.text(*two) == "2" => Some(*flat),
            _ => None,
        }
    }

    /// `fn [k, v] -> {k, v} end` or `&List.to_tuple/1`: a pair as a tuple.
    fn is_pair_fn(&self, f: Node<'_>) -> bool {
        if f.kind() == "unary_operator" {
            return self.text(f).replace(' ', "") == "&List.to_tuple/1";
        }
        if f.kind() != "anonymous_function" {
            return false;
        }
        let clauses = named_children(f);
        let [clause] = clauses.as_slice() else {
            return false;
        };
        let idents = |n: Option<Node<'_>>| -> Vec<String> {
            n.map(named_children)
                .unwrap_or_default()
                .into_iter()
                .map(|x| match x.kind() {
                    "identifier" => self.text(x),
                    _ => String::new(),
                })
                .collect()
        };
        let params = clause
            .child_by_field_id(F.left)
            .map(named_children)
            .unwrap_or_default();
        let [list] = params.as_slice() else {
            return false;
        };
        let body = clause.child_by_field_id(F.right).and_then(|b| {
            named_children(b)
                .into_iter()
                .rev()
                .find(|c| c.kind() != "comment")
        });
        let pair = idents((list.kind() == "list").then_some(*list));
        let tuple = idents(body.filter(|b| b.kind() == "tuple"));
        pair.len() == 2 && pair.iter().all(|p| !p.is_empty()) && pair == tuple
    }

    /// `Redix.command(conn, ["SCRIPT", "LOAD", body])`: the SHA1 of `body`
    /// (`{:ok, sha}` is read as the SHA by [`Cx::bind_tuple`]).
    fn script_load(
        &self,
        path: &[String],
        args: &[Node<'_>],
        env: Option<usize>,
        depth: usize,
        span: Span,
    ) -> Option<Value> {
        let at = client_command_arg(path)?;
        let arg = args.get(at)?;
        if arg.kind() == "call" {
            // A list a function of the code base builds
            // (`script_command(["LOAD", body])`): the link reads its words.
            let built = self.value(*arg, env, depth + 1);
            return matches!(built, Value::Call { .. }).then(|| op(Op::Reply, vec![built], span));
        }
        let list = Some(arg).filter(|a| a.kind() == "list")?;
        let list_span = self.span(*list);
        let items: Vec<Node<'_>> = named_children(*list)
            .into_iter()
            .filter(|k| k.kind() != "comment")
            .collect();
        let [verb, sub, body] = items.as_slice() else {
            return None;
        };
        let (verb, sub) = (
            self.value(*verb, env, depth + 1),
            self.value(*sub, env, depth + 1),
        );
        let is = |v: &Value, w: &str| v.as_str().is_some_and(|s| s.eq_ignore_ascii_case(w));
        if is(&verb, "SCRIPT") && is(&sub, "LOAD") {
            return Some(sha1_of(self.value(*body, env, depth + 1), span));
        }
        // Words a function of another file gives: the link reads them.
        let bare = |v: &Value| matches!(v, Value::Call { args, .. } if args.is_empty());
        let may = |v: &Value, w: &str| is(v, w) || bare(v);
        let pending = bare(&verb) || bare(&sub);
        (pending && may(&verb, "SCRIPT") && may(&sub, "LOAD")).then(|| {
            let list = Value::List {
                items: vec![verb, sub, self.value(*body, env, depth + 1)],
                tail: Vec::new(),
                span: list_span,
            };
            op(Op::Reply, vec![list], span)
        })
    }

    /// `then(value, fn v -> body end)` or `then(value, &(..&1..))`: the
    /// function's body with its parameter bound to the value.
    fn then(&self, args: &[Node<'_>], env: Option<usize>, depth: usize, span: Span) -> Value {
        let unknown = || Value::unknown("then(..)", span);
        let (Some(x), Some(fun)) = (args.first(), args.get(1)) else {
            return unknown();
        };
        let Some((param, body)) = self.one_param_fn(*fun) else {
            return unknown();
        };
        let v = self.value(*x, env, depth + 1);
        self.overlay.borrow_mut().push((param, v));
        let out = self.value(body, env, depth + 1);
        self.overlay.borrow_mut().pop();
        out
    }

    /// A function of one parameter: `fn v -> body end` gives (`v`, the
    /// body's last expression), `&(..&1..)` gives (`&1`, the expression).
    pub(super) fn one_param_fn<'n>(&self, fun: Node<'n>) -> Option<(String, Node<'n>)> {
        match fun.kind() {
            "anonymous_function" => {
                let clauses = named_children(fun);
                let [clause] = clauses.as_slice() else {
                    return None;
                };
                let params = named_children(clause.child_by_field_id(F.left)?);
                let [p] = params.as_slice() else {
                    return None;
                };
                if p.kind() != "identifier" {
                    return None;
                }
                let body = clause.child_by_field_id(F.right)?;
                let last = named_children(body)
                    .into_iter()
                    .rev()
                    .find(|c| c.kind() != "comment")?;
                Some((self.text(*p), last))
            }
            "unary_operator" if self.op(fun) == "&" => {
                let body = named_children(fun).into_iter().next()?;
                let body = match body.kind() {
                    "block" => named_children(body).into_iter().next()?,
                    _ => body,
                };
                (body.kind() != "integer").then(|| ("&1".to_string(), body))
            }
            _ => None,
        }
    }

    /// `&1` inside a capture whose argument is known.
    pub(super) fn capture_arg(&self, n: Node<'_>) -> Option<Value> {
        let o = n.child_by_field_id(F.operand)?;
        if self.op(n) != "&" || o.kind() != "integer" {
            return None;
        }
        self.bound(&format!("&{}", self.text(o)))
    }

    /// A name bound by an enclosing `then/2` being evaluated.
    pub(super) fn bound(&self, name: &str) -> Option<Value> {
        let overlay = self.overlay.borrow();
        overlay
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}
