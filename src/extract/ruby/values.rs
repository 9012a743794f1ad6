//! Expressions as `Value`s: what a Ruby expression sends, as far as the
//! code shows it. A name reads its local or parameter, and is otherwise a
//! call of the method of that name (Ruby's meaning of a bare name); `@x`
//! the receiver's field; `X` and `A::X` a constant; `h["k"]` what a hash
//! with literal keys holds; `obj.x` with no arguments a field of `obj`;
//! calls of the code base stay calls (the link binds them); strings are
//! templates (interpolation, `+`, `%`, `format`, `join`);
//! `script(:load, lua)` is its script, and `File.read` of a `.lua` path a
//! script file.

use tree_sitter::Node;

use crate::extract::fields::RUBY as F;
use crate::extract::formats;
use crate::extract::literals;
use crate::extract::locals::Locals;
use crate::extract::parts::segs_of;
use crate::extract::source::{OnePass, Source};
use crate::facts::{Template, Value, RECEIVER};
use crate::parse::named_children;

use super::client::{BLOCK_CLIENTS, CLIENTS};
use super::{Cx, MAX_DEPTH};

/// Items of an array, pairs of a hash, read at most.
const MAX_ITEMS: usize = 256;

/// Constructors and methods whose result is a Redis client.
const CLIENT_MAKERS: &[&str] = &["Redis", "RedisClient", "ConnectionPool"];

/// Whether a class whose base is `base` is a client: its base is one of
/// the client classes (`Redis`, `::Redis`, `RedisClient`).
pub(super) fn is_client_class(base: &str) -> bool {
    let base = base.trim_start_matches("::");
    CLIENT_MAKERS[..2].contains(&base)
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The value of an expression ([`OnePass::value`] bounds the depth).
    pub(super) fn expression(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        match n.kind() {
            "string" | "chained_string" | "heredoc_beginning" | "simple_symbol"
            | "hash_key_symbol" | "delimited_symbol" => self.string_value(n, d),
            "integer" => literals::int_value(self, n),
            "identifier" => self.name_value(n),
            "instance_variable" => self.ivar_value(n),
            "constant" => Value::Const {
                path: vec![self.text(n)],
                span,
            },
            "scope_resolution" => Value::Const {
                path: self.const_path(n),
                span,
            },
            "self" => self
                .scope
                .names
                .param_value("self", span)
                .unwrap_or_else(|| Value::unknown("self", span)),
            "element_reference" => self.element_value(n, d),
            "call" => self.call_value(n, d),
            "binary" => self.binary_value(n, d),
            "array" => self.list_value(n, d),
            "hash" => self.hash_value(n, d),
            "parenthesized_statements" | "begin" => match named_children(n)
                .into_iter()
                .rfind(|c| !matches!(c.kind(), "comment" | "heredoc_body"))
            {
                Some(e) => self.value(e, d + 1),
                None => Value::unknown(self.label(n), span),
            },
            "conditional" => {
                let alts = [F.consequence, F.alternative]
                    .into_iter()
                    .filter_map(|f| n.child_by_field_id(f))
                    .map(|x| self.value(x, d + 1))
                    .collect();
                Value::OneOf { alts, span }
            }
            "if" | "unless" | "case" => self
                .tail_value(n, d + 1)
                .unwrap_or_else(|| Value::unknown(self.label(n), span)),
            // `x = v` and `@x ||= v` give `v` (what a memo holds once set).
            "assignment" | "operator_assignment" if self.assigns_value(n) => {
                match n.child_by_field_id(F.right) {
                    Some(r) => self.value(r, d + 1),
                    None => Value::unknown(self.label(n), span),
                }
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// Whether an assignment's value is its right side: `=` and `||=`, not
    /// an operator's (`+=`).
    fn assigns_value(&self, n: Node<'_>) -> bool {
        n.kind() == "assignment"
            || n.child_by_field_id(F.operator)
                .is_some_and(|o| o.kind() == "||=")
    }

    /// The value a body gives: its last expression; each arm's for an
    /// `if`, `unless` or `case`.
    pub(super) fn tail_value(&mut self, n: Node<'_>, d: usize) -> Option<Value> {
        if d > MAX_DEPTH {
            return None;
        }
        let span = self.span(n);
        match n.kind() {
            "body_statement" | "then" | "else" | "begin" | "block_body" => {
                let last = named_children(n).into_iter().rfind(|c| {
                    !matches!(
                        c.kind(),
                        "comment"
                            | "heredoc_body"
                            | "rescue"
                            | "ensure"
                            | "else"
                            | "empty_statement"
                    )
                })?;
                self.tail_value(last, d + 1)
            }
            "if" | "unless" | "elsif" | "case" => {
                let arms: Vec<Node<'_>> = match n.kind() {
                    "case" => named_children(n)
                        .into_iter()
                        .filter(|c| matches!(c.kind(), "when" | "else"))
                        .filter_map(|c| match c.kind() {
                            "when" => c.child_by_field_id(F.body),
                            _ => Some(c),
                        })
                        .collect(),
                    _ => [F.consequence, F.alternative]
                        .into_iter()
                        .filter_map(|f| n.child_by_field_id(f))
                        .collect(),
                };
                let alts: Vec<Value> = arms
                    .into_iter()
                    .take(8)
                    .filter_map(|a| self.tail_value(a, d + 1))
                    .collect();
                match alts.len() {
                    0 => None,
                    _ => Some(Value::OneOf { alts, span }),
                }
            }
            // Counted where the walk met it.
            "return" => None,
            _ => Some(self.value(n, d)),
        }
    }

    /// `A::B::C`: `["A", "B", "C"]`; `::C`: `["C"]`.
    pub(super) fn const_path(&self, n: Node<'_>) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = Some(n);
        for _ in 0..MAX_DEPTH {
            let Some(c) = cur else { break };
            match c.kind() {
                "scope_resolution" => {
                    out.extend(c.child_by_field_id(F.name).map(|x| self.text(x)));
                    cur = c.child_by_field_id(F.scope);
                }
                _ => {
                    out.push(self.text(c));
                    break;
                }
            }
        }
        out.reverse();
        out
    }

    /// A name: a local, a parameter, or a call of the method so named.
    fn name_value(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        // Ruby's meaning of a bare name bound nowhere: a call of the method.
        let method = |name| Value::Call {
            path: vec![name],
            args: Vec::new(),
            span,
        };
        self.scope.names.get_or(self.text(n), span, method)
    }

    /// `@x`: what the method set it to, else the receiver's field.
    fn ivar_value(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let name = self.text(n);
        if let Some(v) = self.scope.names.locals.get(&name) {
            return v.clone();
        }
        match self.scope.names.receiver {
            Some(_) => Value::Param {
                index: RECEIVER,
                name: name[1..].to_string(),
                span,
            },
            None => Value::unknown(name, span),
        }
    }

    /// `h[k]`: what a hash with literal keys holds under a literal key,
    /// else a lookup the link reads.
    fn element_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(base), Some(key)) = (
            n.child_by_field_id(F.object),
            named_children(n).into_iter().nth(1),
        ) else {
            return Value::unknown(self.label(n), span);
        };
        let b = self.value(base, d + 1);
        let k = self.value(key, d + 1);
        literals::item(&b, &k).unwrap_or_else(|| crate::facts::lookup(b, k, span))
    }

    pub(super) fn list_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let children: Vec<Node<'_>> = named_children(n)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .take(MAX_ITEMS)
            .collect();
        let (items, tail) = self.spread(&children, d + 1);
        Value::List {
            items,
            tail,
            span: self.span(n),
        }
    }

    /// Items as Ruby lays them out (an array's, a call's positional
    /// arguments): `*x` of an array the code shows is its items in place,
    /// as the splat spreads them; of any other value (`**opts` too) an
    /// open tail, which every item after it joins (its position unknown).
    pub(super) fn spread(&mut self, nodes: &[Node<'_>], d: usize) -> (Vec<Value>, Vec<Value>) {
        let mut items = Vec::new();
        let mut tail = Vec::new();
        for c in nodes.iter().take(MAX_ITEMS) {
            let v = match c.kind() {
                "splat_argument" | "hash_splat_argument" => {
                    match named_children(*c).into_iter().next() {
                        Some(i) => self.value(i, d),
                        None => Value::unknown(self.label(*c), self.span(*c)),
                    }
                }
                _ => {
                    let v = self.value(*c, d);
                    if tail.is_empty() {
                        items.push(v);
                    } else {
                        tail.push(v);
                    }
                    continue;
                }
            };
            match v {
                Value::List {
                    items: xs, tail: t, ..
                } if c.kind() == "splat_argument" && tail.is_empty() => {
                    items.extend(xs);
                    tail.extend(t);
                }
                v => tail.push(v),
            }
        }
        (items, tail)
    }

    /// `{"a" => 1, b: 2}`, and the trailing options of a call.
    pub(super) fn hash_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let pairs = named_children(n)
            .into_iter()
            .filter(|c| c.kind() == "pair")
            .take(MAX_ITEMS)
            .collect::<Vec<_>>();
        self.pairs_value(&pairs, self.span(n), d)
    }

    pub(super) fn pairs_value(
        &mut self,
        pairs: &[Node<'_>],
        span: crate::facts::Span,
        d: usize,
    ) -> Value {
        let mut out = Vec::new();
        for c in pairs {
            let (Some(k), Some(v)) = (c.child_by_field_id(F.key), c.child_by_field_id(F.value))
            else {
                continue;
            };
            let k = self.value(k, d + 1);
            let v = self.value(v, d + 1);
            out.push((k, v));
        }
        Value::Map { pairs: out, span }
    }

    /// `a + b`, `fmt % args`, `a || b`.
    fn binary_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(l), Some(r), Some(op)) = (
            n.child_by_field_id(F.left),
            n.child_by_field_id(F.right),
            n.child_by_field_id(F.operator),
        ) else {
            return Value::unknown(self.label(n), span);
        };
        let op = op.kind();
        if matches!(op, "||" | "or") {
            let alts = vec![self.value(l, d + 1), self.value(r, d + 1)];
            return Value::OneOf { alts, span };
        }
        if !matches!(op, "+" | "%") {
            return Value::unknown(self.label(n), span);
        }
        let lv = self.value(l, d + 1);
        let rv = self.value(r, d + 1);
        match (op, lv) {
            ("+", lv) if matches!(lv, Value::Str(_)) || matches!(rv, Value::Str(_)) => {
                let mut segs = segs_of(lv);
                segs.extend(segs_of(rv));
                Value::Str(Template { segs, span })
            }
            ("%", Value::Str(t)) => {
                let args = match rv {
                    Value::List { items, tail, .. } if tail.is_empty() => items,
                    other => vec![other],
                };
                Value::Str(self.sprintf(t, args, span))
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// `format("%s:%d", a, b)`: each `%` directive is the next argument.
    pub(super) fn sprintf(
        &self,
        t: Template,
        args: Vec<Value>,
        span: crate::facts::Span,
    ) -> Template {
        let mut next = args.into_iter();
        formats::fill(t, span, &['%'], |_, chars, out| {
            match chars
                .by_ref()
                .find(|x| x.is_ascii_alphabetic() || *x == '%')
            {
                Some('%') => out.push('%'),
                _ => {
                    let v = next.next().unwrap_or_else(|| Value::unknown("%", out.at()));
                    out.value(v);
                }
            }
        })
    }

    /// Whether an expression is a Redis client: a call of a client's
    /// constructor (`Redis.new`, `RedisClient.config(..).new_client`), or
    /// a name bound to one.
    pub(super) fn is_client_expr(&self, n: Node<'_>) -> bool {
        match n.kind() {
            "call" => {
                let called = self.called(n);
                let recv = called.as_ref().and_then(|c| c.receiver);
                let method = called.map(|c| c.method);
                let made = recv
                    .is_some_and(|r| CLIENT_MAKERS.iter().any(|m| self.short_text(r) == *m))
                    && method.as_deref() == Some("new");
                made || method.as_deref() == Some("new_client")
            }
            "identifier" | "instance_variable" => self
                .local_name(n)
                .is_some_and(|k| self.scope.clients.contains(&k)),
            _ => false,
        }
    }

    /// Whether a call gives its block a client: `redis { |c| }`,
    /// `x.redis { |c| }`, `r.pipelined { |p| }`, `pool.with { |c| }`.
    pub(super) fn gives_client(&self, call: Node<'_>) -> bool {
        let Some(c) = self.called(call) else {
            return false;
        };
        if !BLOCK_CLIENTS.contains(&c.method.as_str()) {
            return false;
        }
        match (c.method.as_str(), c.receiver) {
            ("redis", _) => true,
            (_, Some(r)) => self.redis_like(r),
            (_, None) => false,
        }
    }

    /// A receiver whose text names a client, or a name bound to one.
    pub(super) fn redis_like(&self, r: Node<'_>) -> bool {
        CLIENTS.redis_like(&self.short_text(r)) || self.is_client_expr(r)
    }

    /// A node's text when it is short (a receiver, a constant path), else
    /// nothing: a long chain is never copied at each of its links.
    pub(super) fn short_text(&self, n: Node<'_>) -> String {
        if n.end_byte() - n.start_byte() > 200 {
            return String::new();
        }
        self.text(n)
    }
}

/// Array methods that change their receiver in place (and any `x!`).
const CHANGES_IN_PLACE: &[&str] = &[
    "<<",
    "push",
    "append",
    "concat",
    "unshift",
    "prepend",
    "insert",
    "pop",
    "shift",
    "delete",
    "delete_at",
    "delete_if",
    "keep_if",
    "clear",
    "replace",
    "fill",
];

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `a << x`, `a.push(x, y)`, `a.clear`: a local array (or string)
    /// changed in place. Items appended in straight-line code to an array
    /// whose items are all known are its new items (`<<` on a string its
    /// new end); any other change leaves what the local holds unknown, so
    /// that a splat or a sequence of it never stands for items it no
    /// longer holds.
    pub(super) fn changed_in_place(&mut self, target: Node<'_>, method: &str, args: &[Node<'_>]) {
        if !(CHANGES_IN_PLACE.contains(&method) || method.ends_with('!')) {
            return;
        }
        let Some(name) = self.local_name(target) else {
            return;
        };
        let Some(old) = self.scope.names.locals.get(&name).cloned() else {
            return;
        };
        let appends = matches!(method, "<<" | "push" | "append") && self.straight_line(target);
        let span = old.span();
        let new = match old {
            Value::List { items, tail, .. } if appends => {
                let (more, more_tail) = self.spread(args, 0);
                let (mut items, mut tail) = (items, tail);
                if tail.is_empty() {
                    items.extend(more);
                } else {
                    tail.extend(more);
                }
                tail.extend(more_tail);
                Value::List { items, tail, span }
            }
            Value::Str(t) if method == "<<" && appends && args.len() == 1 => {
                let mut segs = t.segs;
                let v = self.value(args[0], 0);
                segs.extend(segs_of(v));
                Value::Str(Template { segs, span })
            }
            Value::List { .. } | Value::Str(_) => Value::unknown(name.clone(), span),
            _ => return,
        };
        self.scope.names.locals.insert(name, new);
    }
}
