//! Expressions as values: literals, names, `+` chains, `[..].concat()` and
//! `.join(..)`, `.replace(..)`, calls (transparent wrappers see through to
//! their argument).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::extract::push_lit;
use crate::facts::{Seg, Span, Template, Value, RECEIVER};
use crate::parse::named_children;

use super::paths::path_segments;
use super::stdlib::LIBRARY;
use super::strings::parse_int;
use super::{
    args_of, callee, is_comment, is_screaming, method_of, node_key, peel_ref, Cx, MAX_DEPTH,
};
use crate::extract::library::Flow;

/// Appends a value to a template: strings are spliced in, integers become
/// literal digits, unknowns holes, other values stay to be linked.
pub(super) fn append_value(segs: &mut Vec<Seg>, v: Value) {
    match v {
        Value::Str(t) => segs.extend(t.segs),
        Value::Int { value, span } => push_lit(segs, &value.to_string(), span),
        Value::Unknown { label, span } => segs.push(Seg::Hole { label, span }),
        other => segs.push(Seg::Value(Box::new(other))),
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// A `+` met by the walk: the top of a chain that builds a string is a
    /// template. Returns whether to descend.
    pub(super) fn plus_chain(&mut self, n: Node<'_>) -> bool {
        if self.operator(n) != "+" {
            return true;
        }
        // Only the top of a `+` chain is evaluated (the chain nests to the
        // left; its inner nodes are prefixes of it).
        if self.inner.contains(&node_key(n)) {
            return true;
        }
        self.mark_plus_spine(n);
        let v = self.value(n, 0);
        if matches!(v, Value::Str(_)) {
            self.push_template(v);
            false
        } else {
            true
        }
    }

    pub(super) fn value(&mut self, n: Node<'_>, depth: usize) -> Value {
        let span = self.span(n);
        if depth > MAX_DEPTH || !self.budget.spend(span.start) {
            return Value::unknown(self.label(n), span);
        }
        let d = depth + 1;
        match n.kind() {
            "string_literal" | "raw_string_literal" => Value::Str(self.literal_template(n)),
            "integer_literal" => match parse_int(&self.text(n)) {
                Some(value) => Value::Int { value, span },
                None => Value::unknown(self.label(n), span),
            },
            "identifier" => self.ident(&self.text(n), span),
            "scoped_identifier" => {
                let path = path_segments(&self.text(n));
                if path.last().is_some_and(|l| is_screaming(l)) {
                    Value::Const { path, span }
                } else {
                    Value::unknown(self.label(n), span)
                }
            }
            "reference_expression" => match n.child_by_field_id(F.value) {
                Some(inner) => self.value(inner, d),
                None => Value::unknown(self.label(n), span),
            },
            "parenthesized_expression" | "try_expression" | "await_expression" => {
                match named_children(n).into_iter().find(|c| !is_comment(*c)) {
                    Some(inner) => self.value(inner, d),
                    None => Value::unknown(self.label(n), span),
                }
            }
            "self" if self.scope.has_self => Value::Param {
                index: RECEIVER,
                name: "self".into(),
                span,
            },
            "field_expression" => self.field_value(n, span, d),
            "index_expression" => self
                .index_value(n, d)
                .unwrap_or_else(|| Value::unknown(self.label(n), span)),
            // `match lookup(..) { Some(s) => s, None => return }`: the value
            // an arm unwraps is the scrutinee's.
            "match_expression" => match n.child_by_field_id(F.value) {
                Some(v) if self.unwraps(n) => self.value(v, d),
                _ => Value::unknown(self.label(n), span),
            },
            "type_cast_expression" => match n.child_by_field_id(F.value) {
                Some(inner) => self.value(inner, d),
                None => Value::unknown(self.label(n), span),
            },
            "unary_expression" => {
                let t = self.text(n);
                let inner = named_children(n).into_iter().next();
                match (t.trim_start().chars().next(), inner) {
                    (Some('*'), Some(inner)) => self.value(inner, d),
                    (Some('-'), Some(inner)) => match self.value(inner, d) {
                        Value::Int { value, .. } => Value::Int {
                            value: value.wrapping_neg(),
                            span,
                        },
                        _ => Value::unknown(t, span),
                    },
                    _ => Value::unknown(t, span),
                }
            }
            "call_expression" => {
                // Calls nest (`f(g(h(x)))`) and each level is evaluated for
                // its own call fact: keep each value once.
                if let Some(v) = self.call_cache.get(&node_key(n)) {
                    return v.clone();
                }
                let v = self.call_value(n, d);
                self.call_cache.insert(node_key(n), v.clone());
                v
            }
            "macro_invocation" => self.macro_value(n, d),
            "closure_expression" => self.closure_value(n, d),
            "binary_expression" if self.operator(n) == "+" => self.plus_value(n, d),
            "if_expression" => self.if_value(n, d),
            "block" => self.block_value(n, d),
            "array_expression" | "tuple_expression" => {
                let items = named_children(n)
                    .into_iter()
                    .filter(|c| !is_comment(*c))
                    .map(|c| self.value(c, d))
                    .collect();
                Value::List {
                    items,
                    tail: Vec::new(),
                    span,
                }
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// `self.sha` in a method: the receiver's field, bound at call sites;
    /// any other field access is unknown.
    /// Whether a `match` has an arm `Some(x) => x` (or `Ok(x) => x.clone()`):
    /// what it gives is what its scrutinee holds.
    fn unwraps(&self, m: Node<'_>) -> bool {
        let Some(block) = m.child_by_field_id(F.body) else {
            return false;
        };
        named_children(block)
            .into_iter()
            .filter(|a| a.kind() == "match_arm")
            .any(|arm| {
                let (Some(p), Some(v)) = (
                    arm.child_by_field_id(F.pattern),
                    arm.child_by_field_id(F.value),
                ) else {
                    return false;
                };
                let pat: String = self
                    .text(p)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let Some(x) = pat
                    .strip_prefix("Some(")
                    .or_else(|| pat.strip_prefix("Ok("))
                    .and_then(|r| r.strip_suffix(')'))
                else {
                    return false;
                };
                let body = self.text(v);
                let body = body.trim();
                let body = body
                    .trim_end_matches(".clone()")
                    .trim_end_matches(".to_owned()");
                !x.is_empty() && body == x
            })
    }

    /// `script.sha` where `script` holds a script looked up by name: a
    /// projection (`.sha` of that value), which still names the script.
    fn field_value(&mut self, n: Node<'_>, span: Span, d: usize) -> Value {
        let recv = n.child_by_field_id(F.value).map(peel_ref);
        let field = n.child_by_field_id(F.field).map(|f| self.text(f));
        match (recv, field) {
            (Some(r), Some(f)) if r.kind() == "self" && self.scope.has_self => Value::Param {
                index: RECEIVER,
                name: f,
                span,
            },
            (Some(r), Some(f))
                if matches!(
                    r.kind(),
                    "identifier" | "field_expression" | "call_expression" | "scoped_identifier"
                ) =>
            {
                match self.value(r, d) {
                    v @ (Value::Call { .. }
                    | Value::Op { .. }
                    | Value::ScriptRef { .. }
                    | Value::Param { .. }
                    | Value::Const { .. }
                    | Value::Map { .. }) => crate::facts::field(f, v, span),
                    _ => Value::unknown(self.label(n), span),
                }
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    pub(super) fn ident(&self, name: &str, span: Span) -> Value {
        if let Some(v) = self.scope.locals.get(name) {
            return match v {
                Value::Unknown { .. } => Value::unknown(name, span),
                other => other.clone(),
            };
        }
        if let Some(index) = self.scope.params.iter().position(|p| p == name) {
            return Value::Param {
                index,
                name: name.to_string(),
                span,
            };
        }
        if is_screaming(name) {
            return Value::Const {
                path: vec![name.to_string()],
                span,
            };
        }
        Value::unknown(name, span)
    }

    /// `if c { a } else { b }`: one of the two blocks' values.
    /// `if c { a } else if d { b } else { c }`: one of the blocks' values.
    fn if_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(a) = block_tail(n.child_by_field_id(F.consequence)) else {
            return Value::unknown(self.label(n), span);
        };
        let alt = n.child_by_field_id(F.alternative);
        // `else if ..`: the alternatives of the `if` it holds.
        let chained = alt
            .and_then(|e| named_children(e).into_iter().next())
            .filter(|i| i.kind() == "if_expression");
        let rest = match (chained, block_tail(alt)) {
            (Some(i), _) if d < MAX_DEPTH => match self.value(i, d + 1) {
                Value::OneOf { alts, .. } => alts,
                _ => return Value::unknown(self.label(n), span),
            },
            (None, Some(b)) => vec![self.value(b, d)],
            _ => return Value::unknown(self.label(n), span),
        };
        let mut alts = vec![self.value(a, d)];
        alts.extend(rest);
        Value::OneOf { alts, span }
    }

    /// `a + &b + "c"` (left-nested) as one template.
    fn plus_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let mut parts = Vec::new();
        let mut cur = n;
        while cur.kind() == "binary_expression" && self.operator(cur) == "+" {
            let (Some(l), Some(r)) = (
                cur.child_by_field_id(F.left),
                cur.child_by_field_id(F.right),
            ) else {
                return Value::unknown(self.label(n), span);
            };
            parts.push(r);
            cur = l;
        }
        parts.push(cur);
        parts.reverse();
        let mut segs = Vec::new();
        let mut any_str = false;
        for p in parts {
            let v = self.value(p, d);
            any_str |= matches!(v, Value::Str(_));
            append_value(&mut segs, v);
        }
        if !any_str {
            return Value::unknown(self.label(n), span);
        }
        Value::Str(Template { segs, span })
    }

    /// Marks the inner nodes of a `+` chain so the walk does not evaluate
    /// them again.
    fn mark_plus_spine(&mut self, n: Node<'_>) {
        let mut cur = n;
        while let Some(l) = cur.child_by_field_id(F.left) {
            if l.kind() != "binary_expression" || self.operator(l) != "+" {
                break;
            }
            self.inner.insert(node_key(l));
            cur = l;
        }
    }

    /// `[a, b].concat()` / `.join(":")` (through transparent wrappers).
    pub(super) fn is_join(&self, n: Node<'_>) -> bool {
        let mut cur = n;
        for _ in 0..MAX_DEPTH {
            let Some((method, recv)) = method_of(cur, self.src) else {
                return false;
            };
            if LIBRARY.method(&method, 0) == Some(Flow::Same) {
                cur = recv;
                continue;
            }
            return matches!(method.as_str(), "concat" | "join")
                && peel_ref(recv).kind() == "array_expression";
        }
        false
    }

    /// `[a, b].concat()`, `parts.join(":")`: the items of a list the code
    /// shows whole (written as an array, or a value that comes to one: a
    /// `Vec` its pushes filled), with the separator between them. `None`
    /// for a list whose items are not all shown.
    fn joined(
        &mut self,
        recv: Node<'_>,
        method: &str,
        sep: Option<Node<'_>>,
        span: Span,
        d: usize,
    ) -> Option<Value> {
        if method == "join" && sep.is_none() {
            return None;
        }
        let array = peel_ref(recv);
        let items: Vec<Value> = if array.kind() == "array_expression" {
            named_children(array)
                .into_iter()
                .filter(|c| !is_comment(*c))
                .map(|item| self.value(item, d))
                .collect()
        } else {
            match self.value(recv, d) {
                Value::List { items, tail, .. } if tail.is_empty() => items,
                _ => return None,
            }
        };
        let mut segs = Vec::new();
        for (i, v) in items.into_iter().enumerate() {
            if let (true, Some(sep)) = (i > 0, sep) {
                let s = self.value(sep, d);
                append_value(&mut segs, s);
            }
            append_value(&mut segs, v);
        }
        Some(Value::Str(Template { segs, span }))
    }

    fn call_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(func) = callee(n) else {
            return Value::unknown(self.label(n), span);
        };
        let args = args_of(n);
        match func.kind() {
            "field_expression" => {
                let (Some(recv), Some(field)) = (
                    func.child_by_field_id(F.value),
                    func.child_by_field_id(F.field),
                ) else {
                    return Value::unknown(self.label(n), span);
                };
                let method = self.text(field);
                if let Some(v) = self.map_method(n, &method, recv, &args, d) {
                    return v;
                }
                if args.is_empty() && LIBRARY.method(&method, 0) == Some(Flow::Same) {
                    return self.value(recv, d);
                }
                if args.len() == 1 {
                    if let Some(v) = self.setter(recv, &method, d) {
                        return v;
                    }
                }
                // The library's methods (`stdlib.rs`): an adapter whose
                // arguments only say what happens on failure gives its
                // receiver; a lazily initialised cell what its initialiser
                // returns (`CELL.get_or_init(|| Script::new(..))`).
                match (LIBRARY.method(&method, args.len()), args.first()) {
                    (Some(Flow::Same), _) => return self.value(recv, d),
                    (Some(Flow::Initialised), Some(init)) => return self.value(*init, d),
                    _ => {}
                }
                if method == "replace" && args.len() == 2 {
                    return self.replace_value(recv, args[0], args[1], span, d);
                }
                if method == "concat" || method == "join" {
                    if let Some(v) = self.joined(recv, &method, args.first().copied(), span, d) {
                        return v;
                    }
                }
                let args = args.iter().map(|a| self.value(*a, d)).collect();
                // A method of a value whose type its constructor names
                // (`Registry::new().get(..)`) runs that type's `impl`.
                let mut path: Vec<String> = self.constructed_type(recv).into_iter().collect();
                path.push(method);
                Value::Call { path, args, span }
            }
            "identifier" | "scoped_identifier" => {
                let path = path_segments(&self.text(func));
                let strs: Vec<&str> = path.iter().map(|s| s.as_str()).collect();
                let last = strs.last().copied().unwrap_or("");
                if let Some(v) = self.library_value(&strs, &args, span, d) {
                    return v;
                }
                // `Vec::new()`: a list the straight-line pushes that
                // follow fill (see `vec_push`).
                if let Some(m) = self.map_call(&strs, &args, d) {
                    return m;
                }
                if let Some(v) = super::grow::empty_string(&strs, span) {
                    return v;
                }
                if matches!(strs.as_slice(), ["Vec", "new"] | ["Vec", "with_capacity"]) {
                    return Value::List {
                        items: Vec::new(),
                        tail: Vec::new(),
                        span,
                    };
                }
                if strs.contains(&"Script") && matches!(last, "new" | "from_lua") {
                    if let Some(index) = args.first().and_then(|a| self.script_of(*a)) {
                        return Value::ScriptRef { index, span };
                    }
                }
                let args = args.iter().map(|a| self.value(*a, d)).collect();
                Value::Call { path, args, span }
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// A call of the library on one argument whose value the wire keeps:
    /// a conversion gives its argument (`std::sync::LazyLock::new` is
    /// `LazyLock::new`), an encoder its argument serialized.
    fn library_value(
        &mut self,
        strs: &[&str],
        args: &[Node<'_>],
        span: Span,
        d: usize,
    ) -> Option<Value> {
        let [arg] = args else {
            return None;
        };
        match LIBRARY.function(strs, 1)? {
            Flow::Same => Some(self.value(*arg, d)),
            Flow::Encoded(format) => Some(crate::facts::encoded(format, self.value(*arg, d), span)),
            _ => None,
        }
    }

    /// `ACTIVE.replace("{queue}", ns)`: the placeholder's bytes give way to
    /// the argument, so the result holds no braces of its own.
    fn replace_value(
        &mut self,
        recv: Node<'_>,
        from: Node<'_>,
        to: Node<'_>,
        span: Span,
        d: usize,
    ) -> Value {
        let unknown = |cx: &Self| Value::unknown(cx.text(recv), span);
        let mut base = self.value(recv, d);
        if let Value::Const { path, .. } = &base {
            let name = path.last().cloned().unwrap_or_default();
            if let Some(c) = self.facts.consts.iter().rev().find(|c| c.name == name) {
                base = c.value.clone();
            }
        }
        let (Value::Str(t), Some((pat, _))) = (base, self.string_arg(from)) else {
            return unknown(self);
        };
        if pat.is_empty() {
            return unknown(self);
        }
        let with = self.value(to, d);
        let mut segs = Vec::new();
        for seg in t.segs {
            let Seg::Lit { text, span: ls } = &seg else {
                segs.push(seg);
                continue;
            };
            if !text.contains(pat.as_str()) {
                segs.push(seg);
                continue;
            }
            // Sub-spans are exact when the literal has no escapes.
            let exact = ls.len() as usize == text.len();
            let sub = |a: usize, b: usize| {
                if exact {
                    Span::new(ls.file, ls.start as usize + a, ls.start as usize + b)
                } else {
                    *ls
                }
            };
            let mut at = 0usize;
            for (i, _) in text.match_indices(pat.as_str()) {
                push_lit(&mut segs, &text[at..i], sub(at, i));
                append_value(&mut segs, with.clone());
                at = i + pat.len();
            }
            push_lit(&mut segs, &text[at..], sub(at, text.len()));
        }
        Value::Str(Template { segs, span })
    }
}

/// The value expression that ends a block (or an `else` block): `None`
/// when the block ends in a statement.
fn block_tail(b: Option<Node<'_>>) -> Option<Node<'_>> {
    let b = b?;
    let b = if b.kind() == "else_clause" {
        named_children(b).into_iter().next()?
    } else {
        b
    };
    if b.kind() != "block" {
        return None;
    }
    let last = named_children(b)
        .into_iter()
        .rev()
        .find(|c| !is_comment(*c))?;
    let statement = last.kind().ends_with("_statement")
        || last.kind() == "let_declaration"
        || last.kind().ends_with("_item");
    (!statement).then_some(last)
}
