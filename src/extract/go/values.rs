//! Expressions as values: names (locals, parameters, the package's
//! definitions, other packages' through their import), selectors (a
//! receiver's field, a package's name), calls (of the code base as calls
//! the link follows; `fmt.Sprintf` and `strings.Join` as templates; a
//! script maker's call, `redis.NewScript(src)`, as its script),
//! composite literals, `+`.

use tree_sitter::Node;

use crate::extract::fields::GO as F;
use crate::extract::source::{OnePass, Source};
use crate::facts::{applied, closure, Seg, Span, Template, Value, RECEIVER};
use crate::parse::named_children;

use super::stdlib::LIBRARY;
use super::strings::is_string;
use super::Cx;
use crate::extract::formats;
use crate::extract::library::Flow;
use crate::extract::literals;
use crate::extract::parts::segs_of;

impl<'s, 'p> Cx<'s, 'p> {
    /// The value of an expression ([`OnePass::value`] bounds the depth).
    pub(super) fn expression(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        match n.kind() {
            "interpreted_string_literal" | "raw_string_literal" => self.concat_value(n, &[n], d),
            "int_literal" => literals::int_value(self, n),
            "identifier" => self.name_value(n),
            "selector_expression" => self.selector_value(n, d),
            "call_expression" => self.call_value(n, d),
            "binary_expression" => self.binary_value(n, d),
            "composite_literal" => self.composite_value(n, d),
            "parenthesized_expression" => match named_children(n).into_iter().next() {
                Some(e) => self.value(e, d + 1),
                None => Value::unknown(self.label(n), span),
            },
            "unary_expression" if self.text(n).starts_with('&') => {
                match n.child_by_field_id(F.operand) {
                    Some(e) => self.value(e, d + 1),
                    None => Value::unknown(self.label(n), span),
                }
            }
            "index_expression" => self.index_value(n, d),
            "type_conversion_expression" => self.conversion_value(n, d),
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// `[]byte(s)`, `string(b)`: a conversion that keeps the bytes (a row
    /// of `stdlib.rs`) gives its operand's value; any other is Unknown.
    fn conversion_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let (ty, operand) = (n.child_by_field_id(F.ty), n.child_by_field_id(F.operand));
        match (ty, operand) {
            (Some(t), Some(o)) if LIBRARY.function(&[self.text(t)], 1) == Some(Flow::Same) => {
                self.value(o, d + 1)
            }
            _ => Value::unknown(self.label(n), self.span(n)),
        }
    }

    /// A name: a local, a parameter, or a definition of the package.
    fn name_value(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let package = |name| Value::Const {
            path: vec![name],
            span,
        };
        self.scope.names.get_or(self.text(n), span, package)
    }

    /// `r.f` (the receiver's field), `pkg.Name`, `x.f`.
    fn selector_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(obj), Some(field)) =
            (n.child_by_field_id(F.operand), n.child_by_field_id(F.field))
        else {
            return Value::unknown(self.label(n), span);
        };
        let field = self.text(field);
        if obj.kind() == "identifier" {
            let name = self.text(obj);
            if self.scope.names.receiver.as_deref() == Some(name.as_str()) {
                if let Some(v) = self.method_value(&field, span) {
                    return v;
                }
                return Value::Param {
                    index: RECEIVER,
                    name: field,
                    span,
                };
            }
            if !self.scope.names.is_bound(&name) {
                if let Some(pkg) = self.imports.get(&name) {
                    return Value::Const {
                        path: vec![pkg.clone(), field],
                        span,
                    };
                }
            }
        }
        let base = self.value(obj, d + 1);
        crate::facts::field(field, base, span)
    }

    /// The path a call names: `f`, `pkg.F`, `self.m` (a method of the
    /// receiver); `None` for any other callee.
    pub(super) fn callee_path(&self, func: Node<'_>) -> Option<Vec<String>> {
        match func.kind() {
            "identifier" => Some(vec![self.text(func)]),
            "selector_expression" => {
                let obj = func.child_by_field_id(F.operand)?;
                let m = self.text(func.child_by_field_id(F.field)?);
                if obj.kind() != "identifier" {
                    return None;
                }
                let o = self.text(obj);
                if self.scope.names.receiver.as_deref() == Some(o.as_str()) {
                    return Some(vec!["self".into(), m]);
                }
                if self.scope.names.is_bound(&o) {
                    return None;
                }
                self.imports.get(&o).map(|pkg| vec![pkg.clone(), m])
            }
            _ => None,
        }
    }

    /// A call's value: a template of `fmt.Sprintf` or `strings.Join`, the
    /// script of `redis.NewScript`, a conversion's operand, or a call of
    /// the code base.
    fn call_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(func) = self.function_of(n) else {
            return Value::unknown(self.label(n), span);
        };
        if let Some(lit) = super::files::literal_callee(n) {
            if let Some(v) = self.called_literal(lit) {
                return v;
            }
        }
        if let Some(v) = self.client_reply(n, d) {
            return v;
        }
        let args = self.arg_nodes(n);
        if let Some(v) = self.param_call(func, &args, span, d) {
            return v;
        }
        let path = self.callee_path(func);
        if let Some(v) = match &path {
            Some(p) => self.file_read(n, p, d),
            None => self.fs_method_read(n, d),
        } {
            return v;
        }
        let p: Vec<&str> = path.iter().flatten().map(String::as_str).collect();
        match p.as_slice() {
            ["fmt", "Sprintf"] if !args.is_empty() => {
                self.verbs = is_string(args[0]);
                let f = self.value(args[0], d + 1);
                self.verbs = false;
                let rest: Vec<Value> = args[1..].iter().map(|a| self.value(*a, d + 1)).collect();
                return match f {
                    Value::Str(t) if is_string(args[0]) => Value::Str(fill(t, rest, span)),
                    Value::Str(t) => Value::Str(printf(t, rest, span)),
                    v @ Value::ScriptRef { .. } => v,
                    _ => Value::unknown(self.label(n), span),
                };
            }
            ["strings", "Join"] if args.len() == 2 => {
                let list = self.value(args[0], d + 1);
                let sep = self.value(args[1], d + 1);
                return join(list, sep, span)
                    .unwrap_or_else(|| Value::unknown(self.label(n), span));
            }
            _ if self.made_script(n).is_some() => return self.made_value(n, d),
            [..] if LIBRARY.function(&p, args.len()) == Some(Flow::Same) => {
                if let Some(a) = args.first() {
                    return self.value(*a, d + 1);
                }
            }
            // `make([]T, n, cap)`: a slice of zero values, or none; a
            // slice filled by `append` after it holds what was appended.
            ["make"]
                if args.len() >= 2
                    && args[0].kind() == "slice_type"
                    && self.text(args[1]) == "0"
                    && !self.scope.names.is_bound("make") =>
            {
                return Value::List {
                    items: Vec::new(),
                    tail: Vec::new(),
                    span,
                };
            }
            ["append"] if !args.is_empty() && !self.scope.names.is_bound("append") => {
                return self.append_value(&args, span, d);
            }
            _ => {}
        }
        if func.kind() == "parenthesized_expression" {
            return Value::unknown(self.label(n), span);
        }
        match path {
            Some(path) => {
                let args = self.call_args(&path, &args, span, d + 1);
                Value::Call { path, args, span }
            }
            None => Value::unknown(self.label(n), span),
        }
    }

    /// `s.sha` (no call) in a method of `T` that declares `sha`: the method
    /// as a value, a closure that calls it (`[T, sha]`).
    fn method_value(&self, field: &str, span: Span) -> Option<Value> {
        let t = self.receiver_type.as_ref()?;
        self.methods
            .contains(&(t.clone(), field.to_string()))
            .then(|| {
                let call = Value::Call {
                    path: vec![t.clone(), field.to_string()],
                    args: Vec::new(),
                    span,
                };
                closure(call, span)
            })
    }

    /// `getSha()` where `getSha` is a parameter of a function type: a call
    /// of what the caller passes ([`applied`]).
    fn param_call(
        &mut self,
        func: Node<'_>,
        args: &[Node<'_>],
        span: Span,
        d: usize,
    ) -> Option<Value> {
        if func.kind() != "identifier" || self.scope.names.locals.contains_key(&self.text(func)) {
            return None;
        }
        let name = self.text(func);
        let typed_func = self
            .scope
            .types
            .get(&name)
            .is_some_and(|t| t.starts_with("func"));
        let callee = self
            .scope
            .names
            .param_value(&name, span)
            .filter(|_| typed_func)?;
        let args = args.iter().map(|a| self.value(*a, d + 1)).collect();
        Some(applied(vec![name], callee, args, span))
    }

    /// `append(xs, a, b)`, `append(xs, ys...)`: a listed slice grows by
    /// the items; what else is appended leaves its tail open.
    fn append_value(&mut self, args: &[Node<'_>], span: Span, d: usize) -> Value {
        let (mut items, mut tail) = match self.value(args[0], d + 1) {
            Value::List { items, tail, .. } => (items, tail),
            other => (Vec::new(), vec![other]),
        };
        let (more, rest) = self.passed(&args[1..], d + 1);
        if tail.is_empty() {
            items.extend(more);
        } else {
            tail.extend(more);
        }
        tail.extend(rest);
        let (items, tail) = capped(items, tail);
        Value::List { items, tail, span }
    }

    /// What arguments pass to a variadic parameter: the values written one
    /// by one, then a spread slice's (`xs...`: Go passes the slice itself,
    /// so a listed one gives its items), and the part no list shows as the
    /// tail (a slice not listed, what follows it).
    pub(super) fn passed(&mut self, nodes: &[Node<'_>], d: usize) -> (Vec<Value>, Vec<Value>) {
        let mut items = Vec::new();
        let mut tail = Vec::new();
        for a in nodes.iter().take(256) {
            let v = match spread_slice(*a) {
                Some(inner) => match self.value(inner, d) {
                    Value::List {
                        items: more,
                        tail: rest,
                        ..
                    } if tail.is_empty() => {
                        items.extend(more);
                        tail.extend(rest);
                        continue;
                    }
                    other => {
                        tail.push(other);
                        continue;
                    }
                },
                None => self.value(*a, d),
            };
            if tail.is_empty() {
                items.push(v);
            } else {
                tail.push(v);
            }
        }
        if nodes.len() > 256 {
            tail.push(Value::unknown("arguments past the 256th", Span::default()));
        }
        capped(items, tail)
    }

    /// A call's arguments as the callee's parameters receive them: a
    /// spread slice (`f(a, xs...)`) is the variadic parameter itself; the
    /// items written from a variadic parameter of a function of the file
    /// on are packed as the one slice it receives ([`Self::pack_variadic`]).
    pub(super) fn call_args(
        &mut self,
        path: &[String],
        nodes: &[Node<'_>],
        span: Span,
        d: usize,
    ) -> Vec<Value> {
        let spread = nodes.last().is_some_and(|a| spread_slice(*a).is_some());
        let args = nodes
            .iter()
            .map(|a| self.value(spread_slice(*a).unwrap_or(*a), d))
            .collect();
        if spread {
            args
        } else {
            self.pack_variadic(path, args, span)
        }
    }

    /// A call's argument nodes.
    pub(super) fn arg_nodes<'t>(&self, n: Node<'t>) -> Vec<Node<'t>> {
        n.child_by_field_id(F.arguments)
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|a| a.kind() != "comment")
            .collect()
    }

    /// `a + b + ..`: a string concatenation when an operand is a string.
    fn binary_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let op = n
            .child_by_field_id(F.operator)
            .map(|o| self.text(o))
            .unwrap_or_default();
        if op != "+" {
            return Value::unknown(self.label(n), span);
        }
        // The operands of a chain of `+`, left to right.
        let mut ops = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            if ops.len() + stack.len() > 256 {
                return Value::unknown(self.label(n), span);
            }
            let is_plus = x.kind() == "binary_expression"
                && x.child_by_field_id(F.operator)
                    .is_some_and(|o| self.text(o) == "+");
            match (
                is_plus,
                x.child_by_field_id(F.left),
                x.child_by_field_id(F.right),
            ) {
                (true, Some(l), Some(r)) => {
                    stack.push(r);
                    stack.push(l);
                }
                _ => ops.push(x),
            }
        }
        if ops.iter().any(|o| is_string(*o)) {
            return self.concat_value(n, &ops, d);
        }
        let vals: Vec<Value> = ops.iter().map(|o| self.value(*o, d + 1)).collect();
        if !vals.iter().any(|v| matches!(v, Value::Str(_))) {
            return Value::unknown(self.label(n), span);
        }
        let segs = vals.into_iter().flat_map(segs_of).collect();
        Value::Str(Template { segs, span })
    }

    /// `[]string{a, b}` as a list; `map[string]any{"f": v}` and `T{F: v}`
    /// as maps (a struct's by its field names); comments between the
    /// elements are none.
    fn composite_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(ty), Some(body)) = (n.child_by_field_id(F.ty), n.child_by_field_id(F.body))
        else {
            return Value::unknown(self.label(n), span);
        };
        let els: Vec<Node<'_>> = named_children(body)
            .into_iter()
            .filter(|e| e.kind() != "comment")
            .collect();
        fn inner(x: Node<'_>) -> Node<'_> {
            named_children(x).into_iter().next().unwrap_or(x)
        }
        if matches!(
            ty.kind(),
            "slice_type" | "array_type" | "implicit_length_array_type"
        ) {
            let mut items = Vec::new();
            for el in els.iter().take(256) {
                if el.kind() != "literal_element" {
                    return Value::unknown(self.label(n), span);
                }
                items.push(self.value(inner(*el), d + 1));
            }
            // Items past the 256th are not read, but counted as there.
            let tail = match els.len() > 256 {
                true => vec![Value::unknown("items past the 256th", span)],
                false => Vec::new(),
            };
            return Value::List { items, tail, span };
        }
        if els.len() > 256 {
            return Value::unknown(self.label(n), span);
        }
        let by_name = ty.kind() != "map_type";
        let mut pairs = Vec::new();
        for el in els.iter().take(256) {
            let (Some(k), Some(v)) = (el.child_by_field_id(F.key), el.child_by_field_id(F.value))
            else {
                return Value::unknown(self.label(n), span);
            };
            let key = if by_name {
                Value::Str(Template {
                    segs: vec![Seg::Lit {
                        text: self.text(k),
                        span: self.span(k),
                    }],
                    span: self.span(k),
                })
            } else {
                self.value(inner(k), d + 1)
            };
            pairs.push((key, self.value(inner(v), d + 1)));
        }
        Value::Map { pairs, span }
    }

    /// `xs[i]`, `m["k"]` on a literal list or map.
    fn index_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(base), Some(idx)) =
            (n.child_by_field_id(F.operand), n.child_by_field_id(F.index))
        else {
            return Value::unknown(self.label(n), span);
        };
        let b = self.value(base, d + 1);
        let k = self.value(idx, d + 1);
        literals::item(&b, &k).unwrap_or_else(|| Value::unknown(self.label(n), span))
    }
}

/// `fmt.Sprintf(format, args...)`: each verb (`%s`, `%v`, `%d`) the
/// argument it formats; `%%` a percent sign; a quoting verb (`%q`) or a
/// missing argument, a hole.
fn printf(t: Template, args: Vec<Value>, span: Span) -> Template {
    let mut next = args.into_iter();
    formats::fill(t, span, &['%'], |_, chars, out| {
        let verb = chars
            .by_ref()
            .find(|x| x.is_ascii_alphabetic() || *x == '%');
        if verb == Some('%') {
            return out.push('%');
        }
        match (verb, next.next()) {
            (Some('s' | 'v' | 'd'), Some(v)) => out.value(v),
            _ => out.hole("%"),
        }
    })
}

/// A format literal read with its verbs as holes (`%s` labelled so):
/// each verb's hole filled with the argument it formats (`%s`, `%v`,
/// `%d`); a quoting verb (`%q`) or a missing argument stays a hole.
fn fill(t: Template, args: Vec<Value>, span: Span) -> Template {
    let mut next = args.into_iter();
    let mut segs = Vec::new();
    for s in t.segs {
        match s {
            Seg::Hole { label, span: hs } if label.starts_with('%') => {
                let v = next.next();
                match (label.chars().last(), v) {
                    (Some('s' | 'v' | 'd'), Some(v)) => segs.extend(segs_of(v)),
                    _ => segs.push(Seg::Hole { label, span: hs }),
                }
            }
            s => segs.push(s),
        }
    }
    Template { segs, span }
}

/// `strings.Join([]string{a, b}, ":")`.
fn join(list: Value, sep: Value, span: Span) -> Option<Value> {
    let Value::List { items, tail, .. } = list else {
        return None;
    };
    if !tail.is_empty() || matches!(sep, Value::Unknown { .. }) {
        return None;
    }
    let sep = segs_of(sep);
    let mut segs = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            segs.extend(sep.iter().cloned());
        }
        segs.extend(segs_of(item));
    }
    Some(Value::Str(Template { segs, span }))
}

/// The slice a spread argument passes (`xs` of `f(xs...)`).
pub(super) fn spread_slice(n: Node<'_>) -> Option<Node<'_>> {
    if n.kind() != "variadic_argument" {
        return None;
    }
    named_children(n).into_iter().next()
}

/// A list's items past the 256th appended to its tail: a list read
/// from code stays bounded, and none of its values is dropped.
fn capped(mut items: Vec<Value>, tail: Vec<Value>) -> (Vec<Value>, Vec<Value>) {
    if items.len() <= 256 {
        return (items, tail);
    }
    let mut over = items.split_off(256);
    over.extend(tail);
    (items, over)
}
