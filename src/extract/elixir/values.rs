//! Expressions as the values they send: literals, locals and parameters,
//! lists with `|` and `++` tails, maps, and calls.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::library::lookup;
use super::{arguments, call_arg_values, call_args, sides, Cx};
use crate::facts::{Seg, Template, Value};
use crate::parse::named_children;

/// Expressions nested deeper than this evaluate to `Value::Unknown`.
const MAX_DEPTH: usize = 64;

/// Calls this deep in an expression evaluate to `Value::Unknown`: every
/// step of a pipe is recorded as a call whose piped argument is the value
/// of the steps before it, so each step's value was evaluated to
/// [`MAX_DEPTH`] (32,000 `|>` took 7 s).
const MAX_CALL_DEPTH: usize = 16;

/// How many calls one `|>` step counts as against [`MAX_CALL_DEPTH`]: a
/// pipe is followed four steps back (150,000 steps in 1 MB took 10.9 s at
/// one).
const PIPE_STEP: usize = 4;

/// How many steps of one pipe chain are followed: the value of a step
/// further from the chain's head is not known. Real pipes have a few steps;
/// each step's value is built afresh (its piped value is followed back
/// [`MAX_CALL_DEPTH`] / [`PIPE_STEP`] steps), and 150,000 steps in 1 MB took
/// 2 s with every step followed.
const MAX_PIPE_STEPS: u32 = 1000;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// How many `|>` steps a pipe node is from its chain's head (`a |> f()`
    /// is 1). Each chain is walked once, iteratively, down its left sides to
    /// the head or to a step already counted.
    fn pipe_step(&self, n: Node<'_>) -> u32 {
        let is_pipe = |x: Node<'_>| x.kind() == "binary_operator" && self.op(x) == "|>";
        let mut above = Vec::new();
        let mut x = n;
        let mut base = loop {
            if let Some(&k) = self.pipe_steps.borrow().get(&x.id()) {
                break k;
            }
            above.push(x.id());
            match x.child_by_field_id(F.left).filter(|l| is_pipe(*l)) {
                Some(l) => x = l,
                None => break 0,
            }
        };
        let mut steps = self.pipe_steps.borrow_mut();
        for id in above.into_iter().rev() {
            base = base.saturating_add(1);
            steps.insert(id, base);
        }
        base
    }

    /// What an expression sends.
    pub(super) fn value(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        if depth > MAX_DEPTH || !self.budget.spend(span.start) {
            return Value::unknown(self.label(n), span);
        }
        match n.kind() {
            "string" | "charlist" => Value::Str(self.string(n, env, depth)),
            "sigil" => self.sigil(n, env, depth),
            "integer" | "char" | "atom" | "boolean" | "nil" => self.scalar(n),
            "quoted_atom" => {
                let t = self.string(n, env, depth);
                match t.as_literal() {
                    Some(name) => Value::Atom { name, span },
                    None => Value::unknown(self.label(n), span),
                }
            }
            "identifier" => self.ident(n, env),
            "unary_operator" => match self.attr_ref(n) {
                Some(name) => self.attr_value(name, span, env),
                None => self
                    .capture_arg(n)
                    .unwrap_or_else(|| Value::unknown(self.label(n), span)),
            },
            "block" => match named_children(n)
                .into_iter()
                .rev()
                .find(|c| c.kind() != "comment")
            {
                Some(last) => self.value(last, env, depth + 1),
                None => Value::unknown(self.label(n), span),
            },
            "list" => match self.keyword_list(n, env, depth) {
                Some(map) => map,
                None => {
                    let (items, tail) = self.list(n, env, depth);
                    Value::List { items, tail, span }
                }
            },
            "map" => self.map(n, env, depth),
            "tuple" => self.tuple(n, env, depth),
            "bitstring" => self.bitstring(n, env, depth),
            "binary_operator" => self.binary(n, env, depth),
            "call" => self.call(n, None, env, depth),
            // `@scripts[name]`: a lookup by key, which names a script when
            // the key does.
            "access_call" => match (n.child_by_field_id(F.target), n.child_by_field_id(F.key)) {
                (Some(t), Some(k)) => lookup(
                    self.list_value(t, env, depth + 1),
                    self.value(k, env, depth + 1),
                    span,
                ),
                _ => Value::unknown(self.label(n), span),
            },
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// `{a, b}`: a record whose fields are its positions (`0`, `1`, …),
    /// what a tuple pattern's `.0`, `.1` take.
    fn tuple(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let pairs = named_children(n)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .enumerate()
            .map(|(i, c)| {
                let key = Value::Int {
                    value: i as i64,
                    span: self.span(c),
                };
                (key, self.value(c, env, depth + 1))
            })
            .collect();
        Value::Map {
            pairs,
            span: self.span(n),
        }
    }

    /// A call with a `do` block: `with p <- x do body end` is the body's
    /// value when every clause matches (its bindings are read as `=`'s);
    /// `case x do p -> a; q -> b end` one of its clauses' values (their
    /// patterns' bindings are read by `case_bindings`).
    fn block_value(
        &self,
        n: Node<'_>,
        target: Node<'_>,
        env: Option<usize>,
        depth: usize,
    ) -> Option<Value> {
        let block = super::do_block(n)?;
        match self.text(target).as_str() {
            "with" => Some(self.value(self.last_expression(block)?, env, depth + 1)),
            "case" => {
                let alts: Vec<Value> = named_children(block)
                    .into_iter()
                    .filter(|c| c.kind() == "stab_clause")
                    .filter_map(|c| {
                        let body = c.child_by_field_id(F.right)?;
                        let last = named_children(body)
                            .into_iter()
                            .rev()
                            .find(|x| x.kind() != "comment")?;
                        Some(self.value(last, env, depth + 1))
                    })
                    .collect();
                (!alts.is_empty()).then(|| Value::OneOf {
                    alts,
                    span: self.span(n),
                })
            }
            _ => None,
        }
    }

    /// `if(c, do: a, else: b)` (or `unless`): one of `a` and `b`.
    fn if_value(
        &self,
        n: Node<'_>,
        target: Node<'_>,
        env: Option<usize>,
        depth: usize,
    ) -> Option<Value> {
        if !matches!(self.text(target).as_str(), "if" | "unless") {
            return None;
        }
        let args = call_args(n, None);
        let kw = args.iter().find(|a| a.kind() == "keywords")?;
        let mut alts = Vec::new();
        for pair in named_children(*kw) {
            let key = pair.child_by_field_id(F.key).map(|k| self.text(k))?;
            let key = key.trim().trim_end_matches(':').trim();
            if key != "do" && key != "else" {
                return None;
            }
            alts.push(self.value(pair.child_by_field_id(F.value)?, env, depth + 1));
        }
        (alts.len() == 2).then(|| Value::OneOf {
            alts,
            span: self.span(n),
        })
    }

    /// An integer, a `?c` character (its code), an atom, a boolean or `nil`.
    fn scalar(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let t = self.text(n);
        match n.kind() {
            "integer" => match parse_int(&t) {
                Some(value) => Value::Int { value, span },
                None => Value::unknown(t, span),
            },
            "char" => match t.strip_prefix('?').and_then(|c| c.chars().next()) {
                Some(c) if t.chars().count() == 2 => Value::Int {
                    value: c as i64,
                    span,
                },
                _ => Value::unknown(t, span),
            },
            "atom" => Value::Atom {
                name: t.strip_prefix(':').unwrap_or(&t).to_string(),
                span,
            },
            // `true`, `false`, `nil`.
            _ => Value::Atom { name: t, span },
        }
    }

    pub(super) fn ident(&self, n: Node<'_>, env: Option<usize>) -> Value {
        let span = self.span(n);
        let name = self.text(n);
        if let Some(v) = self.bound(&name) {
            return v;
        }
        if let Some(e) = env.and_then(|i| self.envs.get(i)) {
            if let Some(v) = e.locals.get(&name) {
                return v.clone();
            }
            if name != "_" {
                if let Some(index) = e.params.iter().position(|p| *p == name) {
                    return Value::Param { index, name, span };
                }
            }
        }
        Value::unknown(name, span)
    }

    /// A list's items and its `| tail`.
    pub(super) fn list(
        &self,
        n: Node<'_>,
        env: Option<usize>,
        depth: usize,
    ) -> (Vec<Value>, Vec<Value>) {
        let mut items = Vec::new();
        let mut tail = Vec::new();
        let kids = named_children(n);
        let last = kids.len().saturating_sub(1);
        for (i, k) in kids.into_iter().enumerate() {
            if k.kind() == "comment" {
                continue;
            }
            if i == last && k.kind() == "binary_operator" && self.op(k) == "|" {
                if let Some(l) = k.child_by_field_id(F.left) {
                    items.push(self.value(l, env, depth + 1));
                }
                if let Some(r) = k.child_by_field_id(F.right) {
                    // `[a | [b, c]]` is `[a, b, c]`; `[a | keys ++ args]`
                    // has the tail `[keys, args]`.
                    match self.appended(r, env, depth + 1) {
                        Value::List {
                            items: more,
                            tail: rest,
                            ..
                        } => {
                            items.extend(more);
                            tail.extend(rest);
                        }
                        other => tail.push(other),
                    }
                }
                continue;
            }
            items.push(self.value(k, env, depth + 1));
        }
        (items, tail)
    }

    pub(super) fn map(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let Some(content) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "map_content")
        else {
            if named_children(n).iter().any(|c| c.kind() == "struct") {
                return Value::unknown(self.label(n), span);
            }
            return Value::Map {
                pairs: Vec::new(),
                span,
            };
        };
        let mut pairs = Vec::new();
        for entry in named_children(content) {
            match entry.kind() {
                "binary_operator" if self.op(entry) == "=>" => {
                    if let Some((k, v)) = sides(entry) {
                        pairs.push((self.value(k, env, depth + 1), self.value(v, env, depth + 1)));
                    }
                }
                "keywords" => {
                    for pair in named_children(entry) {
                        if let (Some(k), Some(v)) = (
                            pair.child_by_field_id(F.key),
                            pair.child_by_field_id(F.value),
                        ) {
                            pairs.push((self.keyword_atom(k), self.value(v, env, depth + 1)));
                        }
                    }
                }
                // `%{map | k => v}` updates: not a literal.
                _ => return Value::unknown(self.label(n), span),
            }
        }
        Value::Map { pairs, span }
    }

    /// `[enqueue: a, ack: b]`: a keyword list, looked up by its keys like
    /// a map (the first pair with a key is the one `Keyword` reads).
    fn keyword_list(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Option<Value> {
        let kids: Vec<Node<'_>> = named_children(n)
            .into_iter()
            .filter(|k| k.kind() != "comment")
            .collect();
        let [kw] = kids.as_slice() else {
            return None;
        };
        if kw.kind() != "keywords" {
            return None;
        }
        let mut pairs = Vec::new();
        for pair in named_children(*kw) {
            let (Some(k), Some(v)) = (
                pair.child_by_field_id(F.key),
                pair.child_by_field_id(F.value),
            ) else {
                continue;
            };
            pairs.push((self.keyword_atom(k), self.value(v, env, depth + 1)));
        }
        Some(Value::Map {
            pairs,
            span: self.span(n),
        })
    }

    /// `state.sha` (a variable's field, no parentheses): what the map it
    /// holds has under `:sha`.
    fn field_of(
        &self,
        n: Node<'_>,
        target: Node<'_>,
        env: Option<usize>,
        depth: usize,
    ) -> Option<Value> {
        if target.kind() != "dot" || arguments(n).is_some() {
            return None;
        }
        let (l, r) = sides(target)?;
        if l.kind() != "identifier" || r.kind() != "identifier" {
            return None;
        }
        let key = Value::Atom {
            name: self.text(r),
            span: self.span(r),
        };
        Some(lookup(self.value(l, env, depth + 1), key, self.span(n)))
    }

    /// `state: ` as the atom `state`.
    pub(super) fn keyword_atom(&self, k: Node<'_>) -> Value {
        let t = self.text(k);
        let name = t
            .trim_end()
            .trim_end_matches(':')
            .trim_matches('"')
            .to_string();
        Value::Atom {
            name,
            span: self.span(k),
        }
    }

    fn binary(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let op = self.op(n);
        let Some((l, r)) = sides(n) else {
            return Value::unknown(self.label(n), span);
        };
        match op {
            "<>" => self.concat(n, env, depth),
            "++" => self.appended(n, env, depth),
            "|>" => {
                if r.kind() == "call" && self.pipe_step(n) <= MAX_PIPE_STEPS {
                    // A pipe step counts as [`PIPE_STEP`] calls, so a chain
                    // is followed [`MAX_CALL_DEPTH`] / `PIPE_STEP` steps back.
                    self.call(r, Some(l), env, depth + PIPE_STEP - 1)
                } else {
                    Value::unknown(self.label(n), span)
                }
            }
            // A match returns its right side.
            "=" => self.value(r, env, depth + 1),
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// A list expression as items the code shows and the values appended as
    /// a whole: `[a] ++ keys ++ args` gives items `[a]`, tail `[keys,
    /// args]`. Lists (and list attributes) before the first opaque operand
    /// are spliced in.
    fn appended(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        if depth > MAX_DEPTH {
            return Value::unknown(self.label(n), span);
        }
        let operands = self.operands(n, "++");
        if operands.len() == 1 && n.kind() != "binary_operator" {
            return self.list_value(n, env, depth);
        }
        let mut items = Vec::new();
        let mut tail = Vec::new();
        for o in operands {
            match self.list_value(o, env, depth + 1) {
                Value::List {
                    items: its,
                    tail: t,
                    ..
                } if tail.is_empty() => {
                    items.extend(its);
                    tail.extend(t);
                }
                other => tail.push(other),
            }
        }
        Value::List { items, tail, span }
    }

    /// A value, with a list or map attribute of this module spliced in
    /// (attributes are defined before they are used).
    pub(super) fn list_value(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        match self.value(n, env, depth) {
            Value::Const { path, span } => {
                let module = self.module_of(env).to_string();
                match path
                    .first()
                    .and_then(|p| self.attr_lists.get(&(module, p.clone())))
                {
                    Some(v) => v.clone(),
                    None => Value::Const { path, span },
                }
            }
            other => other,
        }
    }

    /// A call; `piped` is the value piped into it as first argument.
    pub(super) fn call(
        &self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        env: Option<usize>,
        depth: usize,
    ) -> Value {
        let span = self.span(n);
        let unknown = || Value::unknown(self.label(n), span);
        if depth > MAX_CALL_DEPTH || !self.budget.spend(span.start) {
            return unknown();
        }
        let Some(target) = n.child_by_field_id(F.target) else {
            return unknown();
        };
        let (head, arg_nodes) = match self.called(n, piped, env) {
            Some(a) => (self.called_head(&a), a.args),
            None => (self.call_head(n, target, env), call_arg_values(n, piped)),
        };
        if head.do_block {
            return self
                .block_value(n, target, env, depth)
                .unwrap_or_else(unknown);
        }
        // `to_string(2)`, `Integer.to_string(2)`: the digits, as text.
        if head.to_string {
            if let [arg] = arg_nodes.as_slice() {
                if let Value::Int { value, .. } = self.value(*arg, env, depth + 1) {
                    let text = value.to_string();
                    return Value::Str(Template {
                        segs: vec![Seg::Lit { text, span }],
                        span,
                    });
                }
            }
        }
        if let Some(v) = self.if_value(n, target, env, depth) {
            return v;
        }
        let Some(path) = head.path.as_deref() else {
            return self.field_of(n, target, env, depth).unwrap_or_else(unknown);
        };
        if let Some(v) = self.library_call(path, &arg_nodes, env, depth, span) {
            return v;
        }
        if head.builder {
            return match self.built(&path.join("."), &arg_nodes, env, depth) {
                Some(segs) => Value::Str(Template { segs, span }),
                None => unknown(),
            };
        }
        let args: Vec<Value> = arg_nodes
            .into_iter()
            .map(|a| self.value(a, env, depth + 1))
            .collect();
        let named = |p: &[&str]| path.iter().map(String::as_str).eq(p.iter().copied());
        if named(&["length"]) {
            // `length(keys)` of a list the code shows is its count.
            return match args.as_slice() {
                [Value::List { items, tail, .. }] if tail.is_empty() => Value::Int {
                    value: items.len() as i64,
                    span,
                },
                _ => Value::Call {
                    path: path.to_vec(),
                    args,
                    span,
                },
            };
        }
        // `Enum.map(list, fun)`: a list as long as `list` (the link counts
        // it; its items are unknown).
        if named(&["Enum", "map"]) && args.len() == 2 {
            return Value::Call {
                path: path.to_vec(),
                args: args.into_iter().take(1).collect(),
                span,
            };
        }
        if !head.codebase {
            return unknown();
        }
        // A function of this file that returns a constant: that constant.
        if let Some(v) = self.constant_return(path, &args, self.module_of(env)) {
            return v;
        }
        Value::Call {
            path: path.to_vec(),
            args,
            span,
        }
    }
}

/// `1_000`, `0x1F`, `0b101`, `0o17`.
fn parse_int(t: &str) -> Option<i64> {
    let t: String = t.chars().filter(|c| *c != '_').collect();
    if let Some(h) = t.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()
    } else if let Some(b) = t.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()
    } else if let Some(o) = t.strip_prefix("0o") {
        i64::from_str_radix(o, 8).ok()
    } else {
        t.parse().ok()
    }
}
