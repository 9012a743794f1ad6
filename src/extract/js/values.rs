//! Expressions as `Value`s: strings and template literals (decoded, with
//! where each piece came from), `+`, objects and arrays, conditionals,
//! names followed to what they are bound to, `this.f`, member reads and
//! calls.

use tree_sitter::Node;

use super::client;
use super::stdlib::LIBRARY;
use super::{is_function, Cx, NodeRef, COMMENT_KINDS, MAX_DEPTH};
use crate::extract::clients::{Receiver, Sends};
use crate::extract::embedded::Decoded;
use crate::extract::library::Flow;
use crate::extract::parts::Parts;
use crate::extract::source::Source;
use crate::facts::{applied, hash_reply, Seg, Span, Template, Value, RECEIVER};

/// Wrappers whose value is their operand's.
const TRANSPARENT: &[&str] = &[
    "parenthesized_expression",
    "await_expression",
    "as_expression",
    "satisfies_expression",
    "non_null_expression",
    "type_assertion",
];

/// Expressions one value may read, at most (names bound to names bound
/// to names, each several times, would grow without it).
const FUEL: usize = 4096;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// A short label for a value the analysis cannot see: its first 60
    /// characters (shorter than the shared `Source::label`).
    pub(super) fn short_label(&self, n: Node<'_>) -> String {
        let t = self.text(n);
        match t.char_indices().nth(60) {
            Some((i, _)) => t[..i].to_string(),
            None => t,
        }
    }

    pub(super) fn value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        if d == 0 {
            self.fuel = FUEL;
        }
        if d > MAX_DEPTH || self.fuel == 0 || !self.budget.spend(span.start) {
            return Value::unknown(self.short_label(n), span);
        }
        self.fuel -= 1;
        if let Some(i) = self.script_at(n) {
            return Value::ScriptRef { index: i, span };
        }
        let kind = n.kind();
        if TRANSPARENT.contains(&kind) {
            return match first_named(n) {
                Some(inner) => self.value(inner, d + 1),
                None => Value::unknown(self.short_label(n), span),
            };
        }
        match kind {
            "string" | "template_string" => {
                let (t, _) = self.string(n, d);
                Value::Str(t)
            }
            "number" => match self.text(n).replace('_', "").parse::<i64>() {
                Ok(value) => Value::Int { value, span },
                Err(_) => Value::unknown(self.short_label(n), span),
            },
            "identifier" => self.name_value(n, d),
            "this" if self.cur_class().is_some() => Value::Param {
                index: RECEIVER,
                name: "self".into(),
                span,
            },
            "member_expression" => self.member_value(n, d),
            "subscript_expression" => {
                let (Some(o), Some(i)) = (
                    n.child_by_field_id(self.f.object),
                    n.child_by_field_id(self.f.index),
                ) else {
                    return Value::unknown(self.short_label(n), span);
                };
                let (o, i) = (self.value(o, d + 1), self.value(i, d + 1));
                crate::facts::lookup(o, i, span)
            }
            "binary_expression" => self.binary(n, d),
            "ternary_expression" => {
                let alts = [self.f.consequence, self.f.alternative]
                    .into_iter()
                    .filter_map(|f| n.child_by_field_id(f))
                    .collect::<Vec<_>>();
                let alts = alts.into_iter().map(|a| self.value(a, d + 1)).collect();
                Value::OneOf { alts, span }
            }
            "object" => self.object(n, d),
            "array" => {
                let mut items = Vec::new();
                let mut tail = Vec::new();
                for c in named(n) {
                    match c.kind() {
                        // `[...xs]` of an array whose items the code shows
                        // holds them in place.
                        "spread_element" => match self.spread_of(c, d + 1) {
                            Value::List {
                                items: inner,
                                tail: rest,
                                ..
                            } if tail.is_empty() => {
                                items.extend(inner);
                                tail.extend(rest);
                            }
                            v => tail.push(v),
                        },
                        _ if tail.is_empty() => items.push(self.value(c, d + 1)),
                        _ => tail.push(self.value(c, d + 1)),
                    }
                }
                Value::List { items, tail, span }
            }
            "call_expression" => self.call_value(n, d),
            k if is_function(k) && k != "method_definition" => self.closure_value(n, d),
            "shorthand_property_identifier_pattern" | "pair_pattern" => self.destructured(n, d),
            _ => Value::unknown(self.short_label(n), span),
        }
    }

    /// A name: a parameter of the function the walk is in, a value a scope
    /// binds (followed), a module constant, or what a call gives the
    /// callback the walk is in.
    fn name_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let name = self.text(n);
        let span = self.span(n);
        let frames = self.stack.len();
        for at in (0..frames).rev() {
            let frame = &self.stack[at];
            if let Some(i) = frame.params.iter().position(|p| *p == name) {
                if let Some((_, v)) = frame.given.iter().find(|(g, _)| *g == i) {
                    return v.clone();
                }
                // A parameter of the named function the walk is in.
                if frame.func.is_some() && frame.func == self.cur_func() {
                    return Value::Param {
                        index: i,
                        name,
                        span,
                    };
                }
                return Value::unknown(name, span);
            }
            let bound = self
                .scopes
                .get(&frame.id)
                .and_then(|s| s.get(&name))
                .cloned();
            let Some(bound) = bound else { continue };
            if at == 0 && !self.scripts_at.contains_key(&bound[0]) {
                // A module constant: the value-flow core follows it.
                return Value::Const {
                    path: vec![name],
                    span,
                };
            }
            let mut alts = Vec::new();
            for r in bound {
                if self.following.contains(&r) {
                    continue;
                }
                let Some(x) = self.find(r) else { continue };
                self.following.push(r);
                alts.push(self.value(x, d + 1));
                self.following.pop();
            }
            return match alts.len() {
                0 => Value::unknown(name, span),
                1 => alts.into_iter().next().unwrap_or(Value::unknown("", span)),
                _ => Value::OneOf { alts, span },
            };
        }
        Value::Const {
            path: vec![name],
            span,
        }
    }

    /// `this.f` in a method: the receiver's field; `a.b`: the field `b` of
    /// `a`'s value.
    fn member_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(o), Some(p)) = (
            n.child_by_field_id(self.f.object),
            n.child_by_field_id(self.f.property),
        ) else {
            return Value::unknown(self.short_label(n), span);
        };
        let field = self.text(p);
        if o.kind() == "this" && self.cur_class().is_some() {
            return Value::Param {
                index: RECEIVER,
                name: field,
                span,
            };
        }
        if o.kind() == "identifier" && self.namespaces.contains(&self.text(o)) {
            // `ns.x` of `import * as ns`: the export `x`, as a named import.
            return Value::Const {
                path: vec![field],
                span,
            };
        }
        let base = self.value(o, d + 1);
        if let Value::Map { pairs, .. } = &base {
            if let Some((_, v)) = pairs
                .iter()
                .find(|(k, _)| k.as_str() == Some(field.clone()))
            {
                return v.clone();
            }
        }
        crate::facts::field(field, base, span)
    }

    /// `a + b`: a template when either side is a string.
    fn binary(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let op = n.child_by_field_id(self.f.operator).map(|o| self.text(o));
        let (Some(l), Some(r)) = (
            n.child_by_field_id(self.f.left),
            n.child_by_field_id(self.f.right),
        ) else {
            return Value::unknown(self.short_label(n), span);
        };
        if op.as_deref() != Some("+") {
            return Value::unknown(self.short_label(n), span);
        }
        let (l, r) = (self.value(l, d + 1), self.value(r, d + 1));
        if !matches!(l, Value::Str(_)) && !matches!(r, Value::Str(_)) {
            return Value::unknown(self.short_label(n), span);
        }
        let mut segs = Vec::new();
        for v in [l, r] {
            match v {
                Value::Str(t) => segs.extend(t.segs),
                other => segs.push(Seg::Value(Box::new(other))),
            }
        }
        Value::Str(Template { segs, span })
    }

    /// An object literal as a map from its property names.
    fn object(&mut self, n: Node<'_>, d: usize) -> Value {
        let mut pairs = Vec::new();
        for c in named(n) {
            match c.kind() {
                "pair" => {
                    let (Some(k), Some(v)) = (
                        c.child_by_field_id(self.f.key),
                        c.child_by_field_id(self.f.value),
                    ) else {
                        continue;
                    };
                    let key = match k.kind() {
                        "property_identifier" => {
                            Value::Str(Template::lit(self.text(k), self.span(k)))
                        }
                        "string" | "number" => self.value(k, d + 1),
                        _ => continue,
                    };
                    let v = self.value(v, d + 1);
                    pairs.push((key, v));
                }
                "shorthand_property_identifier" => {
                    let key = Value::Str(Template::lit(self.text(c), self.span(c)));
                    let v = self.name_value(c, d + 1);
                    pairs.push((key, v));
                }
                _ => {}
            }
        }
        Value::Map {
            pairs,
            span: self.span(n),
        }
    }

    /// A call as a value: `script("load", text)` gives the text's SHA1; a
    /// `.lua` file read is its script; a call of the code base is what it
    /// returns (followed by the core).
    fn call_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some((func, args)) = self.invocation(n) else {
            return Value::unknown(self.short_label(n), span);
        };
        let func = self.local_method(func).unwrap_or(func);
        if let Some(text) = self
            .script_load(func, &args)
            .or_else(|| self.sha1_digest(func))
        {
            let text = self.value(text, d + 1);
            return crate::facts::sha1(text, span);
        }
        // The library's functions (`stdlib.rs`), by the callee as written
        // (a name or a short member chain).
        if matches!(
            func.kind(),
            "identifier" | "member_expression" | "subscript_expression"
        ) && func.byte_range().len() <= 64
        {
            let written = self.written(func);
            let written: Vec<&str> = written.split('.').collect();
            match (LIBRARY.function(&written, args.len()), args.first()) {
                (Some(Flow::Same), Some(a)) => return self.value(*a, d + 1),
                (Some(Flow::Encoded(format)), Some(a)) => {
                    return crate::facts::encoded(format, self.value(*a, d + 1), span)
                }
                _ => {}
            }
        }
        let member = self.member(func);
        let path = match (func.kind(), member) {
            ("identifier", _) => vec![self.text(func)],
            (_, Some((o, name, p))) => {
                if name == "join" {
                    if let Some(joined) = self.join(o, &args, span, d) {
                        return joined;
                    }
                }
                if name == "concat" {
                    if let Some(joined) = self.concat(o, &args, span, d) {
                        return joined;
                    }
                }
                if let Some(reply) = self.hash_read_reply(o, (p, &name), &args, d) {
                    return reply;
                }
                if LIBRARY.method(&name, args.len()) == Some(Flow::Same) {
                    if let v @ (Value::Str(_) | Value::ScriptRef { .. }) = self.value(o, d + 1) {
                        return v;
                    }
                }
                let path = match self.method_path(o, &name) {
                    Some(path) => path,
                    None if o.kind() == "this" => vec!["self".to_string(), name],
                    None => vec![name],
                };
                if o.kind() == "member_expression" {
                    return self.apply_value(n, func, path, &args, d);
                }
                path
            }
            _ => return Value::unknown(self.short_label(n), span),
        };
        let args: Vec<Node<'_>> = args
            .into_iter()
            .filter(|a| !is_function(a.kind()))
            .collect();
        let args = self.call_args(&args, d + 1);
        Value::Call { path, args, span }
    }

    /// `a.f.m(args)`: a call of what the field `m` holds (a closure a
    /// constructor was given), or of the method `path` names
    /// ([`Op::Apply`](crate::facts::Op::Apply)).
    fn apply_value(
        &mut self,
        n: Node<'_>,
        func: Node<'_>,
        path: Vec<String>,
        args: &[Node<'_>],
        d: usize,
    ) -> Value {
        let callee = self.member_value(func, d + 1);
        let args: Vec<Node<'_>> = args
            .iter()
            .copied()
            .filter(|a| !is_function(a.kind()))
            .collect();
        let args = self.call_args(&args, d + 1);
        applied(path, callee, args, self.span(n))
    }

    /// The arguments of a call of the code base, one value per parameter
    /// they fill: a spread (`...xs`) of an array whose every item the code
    /// shows is those items in place (`f(...[a, b])` is `f(a, b)`); a
    /// spread of anything else fills parameters the code does not show, and
    /// stays one value it cannot see.
    pub(super) fn call_args(&mut self, args: &[Node<'_>], d: usize) -> Vec<Value> {
        let mut out = Vec::new();
        for a in args {
            if a.kind() != "spread_element" {
                out.push(self.value(*a, d));
                continue;
            }
            match self.spread_of(*a, d) {
                Value::List { items, tail, .. } if tail.is_empty() => out.extend(items),
                _ => out.push(Value::unknown(self.short_label(*a), self.span(*a))),
            }
        }
        out
    }

    /// What a spread (`...xs`) spreads: its operand's value (at the
    /// spread's depth: at 0, a value of its own).
    pub(super) fn spread_of(&mut self, n: Node<'_>, d: usize) -> Value {
        match first_named(n) {
            Some(x) => self.value(x, d),
            None => Value::unknown(self.short_label(n), self.span(n)),
        }
    }

    /// `client.hgetall(key)`: the reply of a whole-hash read, as the
    /// functions it is passed to receive it (`facts::hash_reply`). `prop`
    /// is the node that names the method, and the name.
    fn hash_read_reply(
        &mut self,
        recv: Node<'_>,
        prop: (Node<'_>, &str),
        args: &[Node<'_>],
        d: usize,
    ) -> Option<Value> {
        let (prop, name) = prop;
        let m = client::lookup(name, args.len())?;
        if !matches!(m.sends, Sends::Command(c, _) if c == "HGETALL") {
            return None;
        }
        let here = self.names_redis || m.receiver == Receiver::Any;
        if !here || !client::CLIENTS.admits(m.receiver, &self.text(recv)) {
            return None;
        }
        let key = self.value(*args.first()?, d + 1);
        let command = Value::Str(Template::lit("HGETALL", self.span(prop)));
        Some(hash_reply(
            command,
            key,
            self.span(recv).join(self.span(prop)),
        ))
    }

    /// `list.concat(a, b)` of an array the code shows: a new array of its
    /// items, then each argument's (appended whole, as an array gives its
    /// items and a value itself).
    fn concat(&mut self, o: Node<'_>, args: &[Node<'_>], span: Span, d: usize) -> Option<Value> {
        let Value::List {
            items, mut tail, ..
        } = self.value(o, d + 1)
        else {
            return None;
        };
        for a in args {
            tail.push(self.value(*a, d + 1));
        }
        Some(Value::List { items, tail, span })
    }

    /// `[a, b].join(":")`: the string `Array.prototype.join` builds, where
    /// the separator is literal text (`","` when none is given) and the
    /// code shows every item of the array: the items with the separator
    /// between them.
    fn join(&mut self, o: Node<'_>, args: &[Node<'_>], span: Span, d: usize) -> Option<Value> {
        let (sep, sep_span) = match args {
            [] => (",".to_string(), span),
            [sep] => (self.value(*sep, d + 1).as_str()?, self.span(*sep)),
            _ => return None,
        };
        let Value::List { items, tail, .. } = self.value(o, d + 1) else {
            return None;
        };
        tail.is_empty()
            .then(|| crate::extract::parts::joined(items, &sep, sep_span, span))
    }

    /// `const { sha, n: count } = script`: the property of the value
    /// destructured, as a field read of it.
    fn destructured(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let prop = match n.kind() {
            "pair_pattern" => n.child_by_field_id(self.f.key),
            _ => Some(n),
        };
        let source = self
            .parent_of(n)
            .filter(|p| p.kind() == "object_pattern")
            .and_then(|p| self.parent_of(p))
            .filter(|p| p.kind() == "variable_declarator")
            .and_then(|p| p.child_by_field_id(self.f.value));
        let (Some(prop), Some(source)) = (prop, source) else {
            return Value::unknown(self.short_label(n), span);
        };
        if !matches!(
            prop.kind(),
            "property_identifier" | "shorthand_property_identifier_pattern"
        ) {
            return Value::unknown(self.short_label(n), span);
        }
        let field = self.text(prop);
        let base = self.value(source, d + 1);
        if let Value::Map { pairs, .. } = &base {
            if let Some((_, v)) = pairs
                .iter()
                .find(|(k, _)| k.as_str().as_deref() == Some(&field))
            {
                return v.clone();
            }
        }
        crate::facts::field(field, base, span)
    }

    /// `x.script("load", text, ..)`: the text loaded.
    pub(super) fn script_load<'n>(
        &mut self,
        func: Node<'n>,
        args: &[Node<'n>],
    ) -> Option<Node<'n>> {
        if self.member(func)?.1 != "script" {
            return None;
        }
        let sub = args.first()?;
        let t = self.plain_string(*sub)?;
        t.eq_ignore_ascii_case("load")
            .then(|| args.get(1).copied())?
    }

    /// Node's `createHash("sha1").update(text).digest("hex")` (the
    /// encoding of `update` aside): `text`, whose SHA1 the chain computes,
    /// the name `EVALSHA` runs the script by.
    pub(super) fn sha1_digest<'n>(&mut self, func: Node<'n>) -> Option<Node<'n>> {
        let (updated, method, _) = self.member(func)?;
        if method != "digest" || updated.kind() != "call_expression" {
            return None;
        }
        let (update, text) = self.invocation(updated)?;
        let (created, method, _) = self.member(update)?;
        if method != "update" || created.kind() != "call_expression" {
            return None;
        }
        let (create, algorithm) = self.invocation(created)?;
        let name = match create.kind() {
            "identifier" => self.text(create),
            _ => self.member(create)?.1,
        };
        let sha1 = name == "createHash"
            && algorithm
                .first()
                .and_then(|a| self.plain_string(*a))
                .is_some_and(|a| a.eq_ignore_ascii_case("sha1"));
        sha1.then(|| text.first().copied())?
    }

    /// A string or template literal's text when it has no interpolation.
    pub(super) fn plain_string(&mut self, n: Node<'_>) -> Option<String> {
        if !matches!(n.kind(), "string" | "template_string") {
            return None;
        }
        self.string(n, 0).0.as_literal()
    }

    /// A string or template literal as a template, and its decoded text
    /// (for Lua parsed in place).
    pub(super) fn string(&mut self, n: Node<'_>, d: usize) -> (Template, Decoded) {
        let mut parts = Parts::apart();
        self.string_into(n, d, &mut parts);
        parts.finish(self.span(n))
    }

    /// Appends a string or template literal's pieces (each a segment of
    /// its own) to `parts`.
    pub(super) fn string_into(&mut self, n: Node<'_>, d: usize, parts: &mut Parts) {
        let src = self.src;
        for c in named(n) {
            let (s, e) = (c.start_byte(), c.end_byte());
            match c.kind() {
                "string_fragment" => parts.raw(src, self.file, s, e),
                "escape_sequence" => parts.escape(&unescape(&src[s..e]), self.file, s, e),
                "template_substitution" => {
                    let label = self.short_label(c);
                    let segs = &mut parts.segs;
                    parts.decoded.hole(label.clone(), s, e);
                    match first_named(c) {
                        Some(x) => match self.value(x, d + 1) {
                            Value::Str(t) => segs.extend(t.segs),
                            v => segs.push(Seg::Value(Box::new(v))),
                        },
                        None => segs.push(Seg::Hole {
                            label,
                            span: self.span(c),
                        }),
                    }
                }
                _ => {}
            }
        }
    }

    /// The node `r` stands for, found again from the root.
    pub(super) fn find(&self, r: NodeRef) -> Option<Node<'t>> {
        let mut n = self.root.descendant_for_byte_range(r.start, r.end)?;
        for _ in 0..MAX_DEPTH {
            if n.start_byte() == r.start && n.end_byte() == r.end && n.kind_id() == r.kind {
                return Some(n);
            }
            n = self.parent_of(n)?;
            if n.start_byte() != r.start || n.end_byte() != r.end {
                return None;
            }
        }
        None
    }
}

/// The named children that are not comments.
pub(super) fn named(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.named_children(&mut c)
        .filter(|x| !COMMENT_KINDS.contains(&x.kind()))
        .collect()
}

pub(super) fn first_named(n: Node<'_>) -> Option<Node<'_>> {
    named(n).into_iter().next()
}

/// What a JavaScript escape sequence stands for.
fn unescape(esc: &[u8]) -> Vec<u8> {
    let Some((&b'\\', rest)) = esc.split_first() else {
        return esc.to_vec();
    };
    let hex = |h: &[u8]| {
        std::str::from_utf8(h)
            .ok()
            .and_then(|h| u32::from_str_radix(h.trim_matches(['{', '}']), 16).ok())
            .and_then(char::from_u32)
    };
    let one = |c: char| c.to_string().into_bytes();
    match rest.first() {
        Some(b'n') => b"\n".to_vec(),
        Some(b't') => b"\t".to_vec(),
        Some(b'r') => b"\r".to_vec(),
        Some(b'0') if rest.len() == 1 => b"\0".to_vec(),
        Some(b'b') => b"\x08".to_vec(),
        Some(b'f') => b"\x0c".to_vec(),
        Some(b'v') => b"\x0b".to_vec(),
        Some(b'\n') | Some(b'\r') => Vec::new(),
        Some(b'x') | Some(b'u') => hex(&rest[1..]).map(one).unwrap_or_else(|| esc.to_vec()),
        Some(_) => rest.to_vec(),
        None => Vec::new(),
    }
}
