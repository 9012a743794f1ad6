//! Expressions and calls, as evaluation reads them (`eval.rs`).

use tree_sitter::Node;

use super::append_value;
use super::eval::Eval;
use super::stdlib::LIBRARY;
use super::value::{Kind, Lv, Slot};
use crate::extract::fields::LUA as F;
use crate::extract::library::Flow;
use crate::facts::{
    decoded, lookup, serial_of, Command, LuaCall, Op, Seg, Sink, Span, Template, Value,
};
use crate::parse::named_children;

/// Binary operators that fail on a `nil` operand (`..` is read apart).
const NIL_FAILS_OP: &[&str] = &["+", "-", "*", "/", "//", "%", "^", "<", "<=", ">", ">="];

/// Global functions of Lua's library: never another file's.
const BUILTINS: &[&str] = &[
    "assert",
    "error",
    "ipairs",
    "next",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "getmetatable",
    "tonumber",
    "tostring",
    "type",
    "unpack",
    "xpcall",
];

/// Functions whose arguments fail on `nil`.
fn nil_fails(callee: &str) -> bool {
    callee.starts_with("string.")
        || matches!(callee, "cjson.decode" | "cmsgpack.unpack" | "struct.unpack")
}

impl<'t> Eval<'_, 't> {
    pub(super) fn lookup(&self, n: Node<'t>) -> Lv<'t> {
        let name = self.s.text(n);
        let span = self.s.span(n);
        for s in self.scopes.iter().rev() {
            if let Some(b) = s.get(&name) {
                let mut v = b.v.clone();
                // A use of a local alias of `KEYS[n]`/`ARGV[n]` is at the
                // use (the diagnostic points at the call site).
                if b.local && b.frame == self.stack.len() {
                    match &mut v.kind {
                        Kind::Val(Value::Keys { span: s, .. }) => *s = span,
                        Kind::Val(Value::Argv { span: s, index }) => {
                            *s = span;
                            if let Some(i) = index {
                                v.nil_from = vec![(*i, span)];
                            }
                        }
                        _ => {}
                    }
                }
                return v;
            }
        }
        match name.as_str() {
            // Valkey's name for the library too.
            "redis" | "server" => Lv::new(Kind::RedisLib, span),
            "KEYS" => Lv::new(Kind::Args(Slot::Keys), span),
            "ARGV" => {
                let mut v = Lv::new(Kind::Args(Slot::Argv), span);
                v.caller = true;
                v
            }
            _ => Lv::unknown(name, span),
        }
    }

    pub(super) fn expr(&mut self, n: Node<'t>) -> Lv<'t> {
        if !self.enter() {
            return Lv::unknown(self.s.text(n), self.s.span(n));
        }
        let v = self.expr_inner(n);
        self.leave();
        v
    }

    pub(super) fn expr_inner(&mut self, n: Node<'t>) -> Lv<'t> {
        let span = self.s.span(n);
        match n.kind() {
            "string" => Lv::val(Value::Str(self.s.string(n))),
            "number" => match self.s.text(n).trim().parse::<i64>() {
                Ok(value) => Lv::val(Value::Int { value, span }),
                Err(_) => Lv::unknown(self.s.text(n), span),
            },
            "nil" => Lv::new(Kind::Nil, span),
            "identifier" => self.lookup(n),
            "vararg_expression" => self.varargs(span).0.into_iter().next().unwrap_or_else(|| {
                let mut v = Lv::unknown("...", span);
                v.caller = true;
                v
            }),
            "bracket_index_expression" => self.index(n),
            "dot_index_expression" => {
                let base = n.child_by_field_id(F.table).map(|t| self.expr(t));
                let field = n
                    .child_by_field_id(F.field)
                    .map(|f| self.s.text(f))
                    .unwrap_or_default();
                match base {
                    Some(b) if matches!(b.kind, Kind::RedisLib) => {
                        if field == "call" || field == "pcall" {
                            Lv::new(Kind::Redis, span)
                        } else {
                            Lv::unknown(self.s.text(n), span)
                        }
                    }
                    Some(b) => {
                        self.strict(&b);
                        Lv::derived(self.s.text(n), span, &[b])
                    }
                    None => Lv::unknown(self.s.text(n), span),
                }
            }
            "parenthesized_expression" => match named_children(n).first() {
                Some(inner) => self.expr(*inner),
                None => Lv::unknown("", span),
            },
            "binary_expression" => self.binary(n),
            "unary_expression" => {
                let op = self.op(n);
                let v = n.child_by_field_id(F.operand).map(|o| self.expr(o));
                let v: Vec<Lv<'t>> = v.into_iter().collect();
                if op == "-" || op == "#" {
                    v.iter().for_each(|x| self.strict(x));
                }
                Lv::derived(self.s.text(n), span, &v)
            }
            "function_call" => self.call(n),
            "table_constructor" => {
                let mut items = Vec::new();
                let mut open = false;
                for field in named_children(n) {
                    let Some(value) = field.child_by_field_id(F.value) else {
                        continue;
                    };
                    let v = self.expr(value);
                    if field.child_by_field_id(F.name).is_none() {
                        if matches!(value.kind(), "vararg_expression" | "function_call") {
                            open = true;
                        }
                        items.push(v);
                    }
                }
                Lv::new(Kind::Table { items, open }, span)
            }
            "function_definition" => {
                self.defined.push(n);
                Lv::new(Kind::Func(n, self.scopes.len()), span)
            }
            _ => Lv::unknown(self.s.text(n), span),
        }
    }

    pub(super) fn op(&self, n: Node<'t>) -> String {
        n.child_by_field_id(F.operator)
            .map(|o| self.s.text(o))
            .unwrap_or_default()
    }

    /// What an identifier naming a table holds, if it is bound to one.
    fn lookup_bound(&self, table: Node<'t>) -> Option<Kind<'t>> {
        (table.kind() == "identifier").then(|| self.lookup(table).kind)
    }

    /// `KEYS[n]`, `ARGV[n]`, `t[i]`.
    pub(super) fn index(&mut self, n: Node<'t>) -> Lv<'t> {
        let span = self.s.span(n);
        let (Some(table), Some(field)) =
            (n.child_by_field_id(F.table), n.child_by_field_id(F.field))
        else {
            return Lv::unknown(self.s.text(n), span);
        };
        let name = self.s.text(table);
        let literal = (field.kind() == "number")
            .then(|| self.s.text(field).trim().parse::<u32>().ok())
            .flatten();
        let shadowed = self.scopes.iter().any(|s| s.contains_key(&name));
        // `keys[1]` where `keys` holds the `KEYS` table.
        let slot = match name.as_str() {
            "KEYS" | "ARGV" if !shadowed => None,
            _ => match self.lookup_bound(table) {
                Some(Kind::Args(slot)) => Some(slot),
                _ => None,
            },
        };
        let name = match slot {
            Some(Slot::Keys) => "KEYS".to_string(),
            Some(Slot::Argv) => "ARGV".to_string(),
            None => name,
        };
        let shadowed = shadowed && slot.is_none();
        match name.as_str() {
            "KEYS" if !shadowed => {
                if literal.is_none() {
                    self.expr(field);
                }
                Lv::val(Value::Keys {
                    index: literal,
                    span,
                })
            }
            "ARGV" if !shadowed => {
                if literal.is_none() {
                    self.expr(field);
                }
                let mut v = Lv::val(Value::Argv {
                    index: literal,
                    span,
                });
                v.caller = true;
                if let Some(i) = literal.filter(|i| *i > 0) {
                    v.nil_from.push((i, span));
                }
                v
            }
            _ => {
                let base = self.expr(table);
                self.strict(&base);
                let key = self.expr(field);
                // An item of a decoded argument: what the caller packed
                // at that position.
                if let (Kind::Val(coll), Kind::Val(k @ Value::Int { .. })) = (&base.kind, &key.kind)
                {
                    if serial_of(&Op::Decode, coll).is_some() {
                        let item = lookup(coll.clone(), k.clone(), span);
                        let mut v = Lv::derived(self.s.text(n), span, &[base, key]);
                        v.kind = Kind::Val(item);
                        return v;
                    }
                }
                if let (Kind::Table { items, open }, Kind::Val(Value::Int { value, .. })) =
                    (&base.kind, &key.kind)
                {
                    if let Some(item) = usize::try_from(*value)
                        .ok()
                        .and_then(|k| k.checked_sub(1))
                        .and_then(|k| items.get(k))
                    {
                        return item.clone();
                    }
                    if !open {
                        return Lv::new(Kind::Nil, span);
                    }
                }
                Lv::derived(self.s.text(n), span, &[base, key])
            }
        }
    }

    pub(super) fn binary(&mut self, n: Node<'t>) -> Lv<'t> {
        let span = self.s.span(n);
        let op = self.op(n);
        let (Some(l), Some(r)) = (n.child_by_field_id(F.left), n.child_by_field_id(F.right)) else {
            return Lv::unknown(self.s.text(n), span);
        };
        match op.as_str() {
            ".." => self.concat(n),
            "and" | "or" => {
                let lv = self.expr(l);
                let rv = self.with_optional(Self::chosen(&lv), |s| s.expr(r));
                let mut out = if op == "and" {
                    let mut v = rv.clone();
                    v.nil_from.extend(lv.nil_from.iter().copied());
                    v
                } else {
                    let mut v = lv.clone().join(rv.clone());
                    v.nil_from = rv.nil_from.clone();
                    v
                };
                out.caller |= lv.caller || rv.caller;
                out.state |= lv.state || rv.state;
                out
            }
            _ => {
                let lv = self.expr(l);
                let rv = self.expr(r);
                if NIL_FAILS_OP.contains(&op.as_str()) {
                    self.strict(&lv);
                    self.strict(&rv);
                }
                Lv::derived(self.s.text(n), span, &[lv, rv])
            }
        }
    }

    /// `a .. b .. c` (right-nested) as one template.
    pub(super) fn concat(&mut self, n: Node<'t>) -> Lv<'t> {
        let span = self.s.span(n);
        let mut stack = vec![n];
        let mut parts = Vec::new();
        // Iterative flattening: the chain nests to the right.
        while let Some(node) = stack.pop() {
            if node.kind() == "binary_expression" && self.op(node) == ".." {
                if let (Some(l), Some(r)) = (
                    node.child_by_field_id(F.left),
                    node.child_by_field_id(F.right),
                ) {
                    stack.push(r);
                    stack.push(l);
                    continue;
                }
            }
            parts.push(node);
        }
        let mut segs = Vec::new();
        let mut out = Lv::unknown("", span);
        for part in parts {
            let v = self.expr(part);
            self.strict(&v);
            out.caller |= v.caller;
            out.state |= v.state;
            append_value(&mut segs, v.to_value());
        }
        out.kind = Kind::Val(Value::Str(Template { segs, span }));
        out
    }

    /// The values of `...` in the running function, and whether more may
    /// follow.
    pub(super) fn varargs(&self, span: Span) -> (Vec<Lv<'t>>, bool) {
        for s in self.scopes.iter().rev() {
            if let Some(b) = s.get("...") {
                if let Kind::Table { items, open } = &b.v.kind {
                    return (items.clone(), *open);
                }
            }
        }
        let _ = span;
        (Vec::new(), true)
    }

    /// A table the code adds to (`table.insert(t, v)`, `t[k] = v`): what it
    /// holds is no longer all shown, so `unpack(t)` may spread more.
    pub(super) fn grown(&mut self, t: Option<Node<'t>>) {
        let Some(t) = t.filter(|t| t.kind() == "identifier") else {
            return;
        };
        let name = self.s.text(t);
        if let Some(b) = self.scopes.iter_mut().rev().find_map(|s| s.get_mut(&name)) {
            if let Kind::Table { open, .. } = &mut b.v.kind {
                *open = true;
            }
        }
    }

    /// A call's arguments; the last one spreads (`...`, `unpack(t)`).
    pub(super) fn args(&mut self, call: Node<'t>) -> (Vec<Lv<'t>>, bool) {
        let nodes = call
            .child_by_field_id(F.arguments)
            .map(named_children)
            .unwrap_or_default();
        let mut out = Vec::new();
        let mut open = false;
        let last = nodes.len().saturating_sub(1);
        for (k, a) in nodes.iter().enumerate() {
            if k == last {
                if a.kind() == "vararg_expression" {
                    let (items, more) = self.varargs(self.s.span(*a));
                    out.extend(items);
                    open |= more;
                    continue;
                }
                if a.kind() == "function_call" && self.is_unpack(*a) {
                    let inner = self.args(*a);
                    match unpacked(&inner.0) {
                        Some((items, more)) => {
                            out.extend(items.iter().cloned());
                            open |= more;
                        }
                        None => open = true,
                    }
                    continue;
                }
            }
            out.push(self.expr(*a));
        }
        (out, open)
    }

    pub(super) fn is_unpack(&self, call: Node<'t>) -> bool {
        call.child_by_field_id(F.name)
            .is_some_and(|c| matches!(self.s.text(c).trim(), "unpack" | "table.unpack"))
    }

    pub(super) fn call(&mut self, n: Node<'t>) -> Lv<'t> {
        let span = self.s.span(n);
        let Some(name) = n.child_by_field_id(F.name) else {
            return Lv::unknown(self.s.text(n), span);
        };
        let callee = self.s.text(name);
        let callee = super::library_name(callee.trim());
        match &*callee {
            "string.format" => {
                let (args, _) = self.args(n);
                args.iter().for_each(|a| self.strict(a));
                return super::build::format(&args, span);
            }
            "table.concat" => {
                let (args, _) = self.args(n);
                self.strict(args.first().unwrap_or(&Lv::unknown("", span)));
                return super::build::table_concat(&args, span);
            }
            "tonumber" => {
                let (args, _) = self.args(n);
                let mut v = Lv::derived(self.s.text(n), span, &args);
                v.nil_from = args.first().map(|a| a.nil_from.clone()).unwrap_or_default();
                return v;
            }
            c if LIBRARY.function(&[c], 1) == Some(Flow::Same) => {
                let (args, _) = self.args(n);
                return match args.first() {
                    Some(a) if matches!(a.kind, Kind::Val(Value::Str(_) | Value::Int { .. })) => {
                        let mut v = a.clone();
                        v.nil_from.clear();
                        v
                    }
                    _ => Lv::derived(self.s.text(n), span, &args),
                };
            }
            "table.insert" => {
                let (args, _) = self.args(n);
                self.grown(
                    n.child_by_field_id(F.arguments)
                        .and_then(|a| a.named_child(0)),
                );
                return Lv::derived(self.s.text(n), span, &args);
            }
            "redis.register_function" => return self.register_function(n, span),
            "unpack" | "table.unpack" => {
                let (args, _) = self.args(n);
                return match args.first().map(|a| &a.kind) {
                    Some(Kind::Table { items, .. }) if !items.is_empty() => items[0].clone(),
                    _ => Lv::derived(self.s.text(n), span, &args),
                };
            }
            c if nil_fails(c) => {
                let (args, _) = self.args(n);
                args.iter().for_each(|a| self.strict(a));
                let mut v = Lv::derived(self.s.text(n), span, &args);
                // The structure a serialized argument decodes to, for its
                // items to be what the caller packed.
                let path: Vec<&str> = c.split('.').collect();
                let flow = LIBRARY.function(&path, args.len());
                if let (Some(Flow::Decoded(format)), [arg]) = (flow, args.as_slice()) {
                    v.kind = Kind::Val(decoded(format, arg.to_value(), span));
                }
                return v;
            }
            _ => {}
        }
        if name.kind() == "method_index_expression" {
            if let Some(t) = name.child_by_field_id(F.table) {
                let base = self.expr(t);
                self.strict(&base);
                let (mut args, _) = self.args(n);
                args.push(base);
                return Lv::derived(self.s.text(n), span, &args);
            }
        }
        let f = self.expr(name);
        let (args, open) = self.args(n);
        match f.kind {
            Kind::Redis => self.redis_call(n, args, open),
            Kind::Func(def, depth) => self.call_fn(def, depth, args, open, span),
            _ => {
                if name.kind() == "identifier" {
                    self.elsewhere(name, &args, open, span);
                }
                Lv::derived(self.s.text(n), span, &args)
            }
        }
    }

    /// A call of a function the chunk does not define (an included
    /// file's): what it sends is not seen.
    fn elsewhere(&mut self, name: Node<'t>, args: &[Lv<'t>], open: bool, span: Span) {
        let name = self.s.text(name);
        if !self.recording
            || BUILTINS.contains(&name.as_str())
            || self.scopes.iter().any(|s| s.contains_key(&name))
        {
            return;
        }
        let call = LuaCall {
            name,
            args: args.iter().map(Lv::to_value).collect(),
            open,
            span: self.site.unwrap_or(span),
        };
        self.out.calls.push(call);
    }

    /// `redis.call(name, ...)`, under any name: a command for each name it
    /// may send.
    pub(super) fn redis_call(&mut self, n: Node<'t>, args: Vec<Lv<'t>>, open: bool) -> Lv<'t> {
        let span = self.s.span(n);
        self.out.visited.insert(n.id());
        args.iter().for_each(|a| self.strict(a));
        let mut result = Lv::unknown(self.s.text(n), span);
        result.state = true;
        let Some(first) = args.first() else {
            return result;
        };
        let names: Vec<(String, Span)> = match first.to_value() {
            Value::OneOf { alts, .. } => alts.iter().filter_map(command_name).collect(),
            v => command_name(&v).into_iter().collect(),
        };
        let rest: Vec<Value> = args[1..].iter().map(Lv::to_value).collect();
        for (name, name_span) in names {
            self.out.commands.push(Command {
                name: name.to_ascii_uppercase(),
                name_span,
                name_of: None,
                args: rest.clone(),
                open_tail: open,
                tail: Vec::new(),
                span: self.site.unwrap_or(span),
                func: None,
                sink: Sink::Client,
            });
        }
        result
    }
}

/// A command name: a literal string, spanning its bytes.
fn command_name(v: &Value) -> Option<(String, Span)> {
    let name = v.as_str()?;
    let span = match v {
        Value::Str(t) => t.segs.first().map(Seg::span).unwrap_or(t.span),
        other => other.span(),
    };
    Some((name, span))
}

/// What `unpack(t)`, `unpack(t, i)` or `unpack(t, i, j)` spreads, when
/// `t` is a literal table and `i`, `j` literal integers (Lua counts from
/// 1; `j` defaults to the table's length): the items, and whether more
/// may follow (the table is open, or `j` reaches past what it shows).
fn unpacked<'a, 't>(args: &'a [Lv<'t>]) -> Option<(&'a [Lv<'t>], bool)> {
    let Kind::Table { items, open } = &args.first()?.kind else {
        return None;
    };
    let int = |k: usize| match args.get(k).map(|a| &a.kind) {
        None => Some(None),
        Some(Kind::Val(Value::Int { value, .. })) => Some(Some(*value)),
        Some(_) => None,
    };
    let (i, j) = (int(1)?, int(2)?);
    let len = items.len() as i64;
    let from = i.unwrap_or(1).max(1);
    let to = j.unwrap_or(len);
    if to < from {
        // Nothing it shows; a table that may hold more spreads that.
        return Some((&[], j.is_none() && *open));
    }
    let start = usize::try_from(from - 1).ok()?.min(items.len());
    let end = usize::try_from(to).ok()?.min(items.len()).max(start);
    let more = match j {
        Some(_) => to > len,
        None => *open,
    };
    Some((&items[start..end], more))
}
