//! Expressions as `Value`s: what a Python expression sends, as far as the
//! code shows it. Names read their local, parameter, import or module
//! definition; `self.x` the receiver's field; `d["k"]` what a dict with
//! literal keys holds; calls of the code base stay calls (the link binds
//! them); strings are templates (`+`, `%`, `.format`, f-strings,
//! `os.path.join`); `register_script(lua)` is its script, and a `.lua`
//! file read (`open(p).read()`, `Path(p).read_text()`,
//! `pkgutil.get_data(..)`, `importlib.resources`) a script file.

use tree_sitter::Node;

use crate::extract::fields::PYTHON as F;
use crate::extract::source::{OnePass, Source};
use crate::facts::{Seg, Span, Template, Value};
use crate::parse::named_children;

use super::stdlib::LIBRARY;
use super::{Cx, MAX_DEPTH};
use crate::extract::formats;
use crate::extract::library::Flow;
use crate::extract::literals;
use crate::extract::parts::segs_of;

/// Items of a list, pairs of a dict, read at most.
const MAX_ITEMS: usize = 256;

/// Constructors and methods whose result is a Redis client or pipeline.
const CLIENT_MAKERS: &[&str] = &[
    "Redis",
    "StrictRedis",
    "RedisCluster",
    "from_url",
    "from_pool",
    "pipeline",
];

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The value of an expression ([`OnePass::value`] bounds the depth).
    pub(super) fn expression(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        match n.kind() {
            "string" | "concatenated_string" => self.string_value(n, d),
            "integer" => literals::int_value(self, n),
            "identifier" => self.name_value(n),
            "attribute" => self.attribute_value(n, d),
            "subscript" => self.subscript_value(n, d),
            // `getattr(obj, "x")` reads what `obj.x` does.
            "call" if self.member(n).is_some() => self.attribute_value(n, d),
            "call" => self.call_value(n, d),
            "binary_operator" => self.binary_value(n, d),
            "list" | "tuple" | "expression_list" => self.list_value(n, d),
            "dictionary" => self.dict_value(n, d),
            "parenthesized_expression" | "await" => match named_children(n).into_iter().next() {
                Some(e) => self.value(e, d + 1),
                None => Value::unknown(self.label(n), span),
            },
            "conditional_expression" | "boolean_operator" => {
                let kids = named_children(n);
                let (a, b) = match n.kind() {
                    "boolean_operator" => (kids.first(), kids.get(1)),
                    _ => (kids.first(), kids.get(2)),
                };
                let alts: Vec<Value> = [a, b]
                    .into_iter()
                    .flatten()
                    .map(|x| self.value(*x, d + 1))
                    .collect();
                Value::OneOf { alts, span }
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// A name: a local, a parameter, an import, or a definition of the
    /// module.
    fn name_value(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        self.scope.names.get_or(self.text(n), span, |name| {
            if name.starts_with("__") && name.ends_with("__") {
                return Value::unknown(name, span);
            }
            let path = self.imports.get(&name).cloned().unwrap_or(vec![name]);
            Value::Const { path, span }
        })
    }

    /// `self.x`, `obj.x`, `module.NAME`, `Class.NAME` (or `getattr(obj,
    /// "x")`).
    fn attribute_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some((obj, _, field)) = self.member(n) else {
            return Value::unknown(self.label(n), span);
        };
        if let Some(f) = self.self_field(n) {
            if let Some(v) = self.scope.names.locals.get(&format!("self.{f}")) {
                return v.clone();
            }
            // A class attribute read through the instance.
            if let Some(c) = self
                .classes
                .last()
                .filter(|c| self.class_attrs.contains(&((*c).clone(), f.clone())))
            {
                return Value::Const {
                    path: vec![c.clone(), f],
                    span,
                };
            }
            return Value::Param {
                index: crate::facts::RECEIVER,
                name: f,
                span,
            };
        }
        if obj.kind() == "identifier" && !self.scope.names.is_bound(&self.text(obj)) {
            let name = self.text(obj);
            let qual = match self.imports.get(&name) {
                Some(p) => p.last().cloned().unwrap_or(name),
                None => name,
            };
            return Value::Const {
                path: vec![qual, field],
                span,
            };
        }
        let base = self.value(obj, d + 1);
        crate::facts::field(field, base, span)
    }

    /// `d[k]`: what a dict with literal keys holds under a literal key,
    /// else a lookup the link reads.
    fn subscript_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(base), Some(key)) = (
            n.child_by_field_id(F.value),
            n.child_by_field_id(F.subscript),
        ) else {
            return Value::unknown(self.label(n), span);
        };
        let b = self.value(base, d + 1);
        let k = self.value(key, d + 1);
        literals::item(&b, &k).unwrap_or_else(|| crate::facts::lookup(b, k, span))
    }

    fn list_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let mut items = Vec::new();
        let mut tail = Vec::new();
        for c in named_children(n).into_iter().take(MAX_ITEMS) {
            match c.kind() {
                "comment" => {}
                "list_splat" => {
                    let inner = named_children(c).into_iter().next();
                    let v = match inner {
                        Some(i) => self.value(i, d + 1),
                        None => Value::unknown(self.label(c), self.span(c)),
                    };
                    tail.push(v);
                }
                _ if tail.is_empty() => items.push(self.value(c, d + 1)),
                _ => tail.push(self.value(c, d + 1)),
            }
        }
        Value::List {
            items,
            tail,
            span: self.span(n),
        }
    }

    fn dict_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let mut pairs = Vec::new();
        for c in named_children(n).into_iter().take(MAX_ITEMS) {
            if c.kind() != "pair" {
                continue;
            }
            let (Some(k), Some(v)) = (c.child_by_field_id(F.key), c.child_by_field_id(F.value))
            else {
                continue;
            };
            let k = self.value(k, d + 1);
            let v = self.value(v, d + 1);
            pairs.push((k, v));
        }
        Value::Map {
            pairs,
            span: self.span(n),
        }
    }

    /// `a + b`, `fmt % args`, `path / "x.lua"`.
    fn binary_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let (Some(l), Some(r)) = (n.child_by_field_id(F.left), n.child_by_field_id(F.right)) else {
            return Value::unknown(self.label(n), span);
        };
        let op = n
            .child_by_field_id(F.operator)
            .map(|o| self.text(o))
            .unwrap_or_default();
        let lv = self.value(l, d + 1);
        let rv = self.value(r, d + 1);
        let stringy = |v: &Value| matches!(v, Value::Str(_));
        match op.as_str() {
            "+" if stringy(&lv) || stringy(&rv) => {
                let mut segs = segs_of(lv);
                segs.extend(segs_of(rv));
                Value::Str(Template { segs, span })
            }
            // A path joined: to a string, or a `pathlib` path to anything.
            "/" if stringy(&rv) || stringy(&lv) || self.is_path(l) => {
                let mut segs = segs_of(lv);
                segs.push(Seg::Lit {
                    text: "/".into(),
                    span: self.span(r),
                });
                segs.extend(segs_of(rv));
                Value::Str(Template { segs, span })
            }
            "%" => match lv {
                Value::Str(t) => Value::Str(self.percent(t, rv, span)),
                _ => Value::unknown(self.label(n), span),
            },
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// `"%s:%s" % (a, b)`, `"%(q)s" % {"q": q}`.
    fn percent(&self, t: Template, args: Value, span: Span) -> Template {
        let (list, map) = match args {
            Value::List { items, tail, .. } if tail.is_empty() => (items, Vec::new()),
            Value::Map { pairs, .. } => (Vec::new(), pairs),
            other => (vec![other], Vec::new()),
        };
        let mut next = list.into_iter();
        formats::fill(t, span, &['%'], |_, chars, out| {
            let mut key = None;
            if chars.peek() == Some(&'(') {
                let name: String = chars.by_ref().skip(1).take_while(|x| *x != ')').collect();
                key = Some(name);
            }
            let conv = chars
                .by_ref()
                .find(|x| x.is_ascii_alphabetic() || *x == '%');
            match conv {
                Some('%') if key.is_none() => out.push('%'),
                _ => {
                    let v = match &key {
                        Some(k) => map
                            .iter()
                            .find(|(x, _)| x.as_str().as_deref() == Some(k.as_str()))
                            .map(|p| p.1.clone()),
                        None => next.next(),
                    };
                    out.value(v.unwrap_or_else(|| Value::unknown("%", out.at())));
                }
            }
        })
    }

    /// `"{}:{q}".format(a, q=b)`.
    fn format(
        &self,
        t: Template,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        span: Span,
    ) -> Template {
        let mut auto = 0usize;
        formats::fill(t, span, &['{', '}'], |c, chars, out| {
            if chars.peek() == Some(&c) {
                chars.next();
                return out.push(c);
            }
            if c == '}' {
                return out.push(c);
            }
            let field: String = chars.by_ref().take_while(|x| *x != '}').collect();
            let name = field.split([':', '!', '.', '[']).next().unwrap_or("");
            let v = if name.is_empty() {
                auto += 1;
                pos.get(auto - 1).cloned()
            } else if let Ok(i) = name.parse::<usize>() {
                pos.get(i).cloned()
            } else {
                kw.iter().find(|(k, _)| k == name).map(|p| p.1.clone())
            };
            out.value(v.unwrap_or_else(|| Value::unknown(field.clone(), out.at())));
        })
    }

    /// A call's positional and keyword argument nodes.
    pub(super) fn arguments<'t>(&self, n: Node<'t>) -> (Vec<Node<'t>>, Vec<(String, Node<'t>)>) {
        let mut pos = Vec::new();
        let mut kw = Vec::new();
        let Some(args) = n.child_by_field_id(F.arguments) else {
            return (pos, kw);
        };
        for a in named_children(args) {
            match a.kind() {
                "comment" => {}
                "keyword_argument" => {
                    if let (Some(k), Some(v)) =
                        (a.child_by_field_id(F.name), a.child_by_field_id(F.value))
                    {
                        kw.push((self.text(k), v));
                    }
                }
                _ => pos.push(a),
            }
        }
        (pos, kw)
    }

    /// What a call gives (a value serialized for a script to decode, by a
    /// row of `stdlib.rs`, as that encoding).
    fn call_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(func) = n.child_by_field_id(F.function) else {
            return Value::unknown(self.label(n), span);
        };
        let func = self.callee(func).unwrap_or(func);
        let (pos, kw) = self.arguments(n);
        if let Some(v) = self.list_call(n, func, &pos, d) {
            return v;
        }
        if let Some(v) = self.known_call(n, func, &pos, d) {
            return v;
        }
        if let Some(v) = self.hgetall_reply(func, &pos, d) {
            return v;
        }
        let Some(args) = self.positional(&pos, d) else {
            return Value::unknown(self.label(n), span);
        };
        let path = match (func.kind(), self.member(func)) {
            ("identifier", _) => {
                let name = self.text(func);
                self.imports.get(&name).cloned().unwrap_or(vec![name])
            }
            (_, Some((obj, _, m))) => {
                match obj.kind() {
                    // `self.scripts.to_key(t)`: a call of what the field
                    // holds, or of the method of the type that made it.
                    "attribute" => return self.apply_value(obj, m, args, span, d),
                    "identifier"
                        if self.scope.names.receiver.as_deref() == Some(&self.text(obj)) =>
                    {
                        vec!["self".to_string(), m]
                    }
                    "identifier" if !self.scope.names.is_bound(&self.text(obj)) => {
                        let name = self.text(obj);
                        let q = self
                            .imports
                            .get(&name)
                            .and_then(|p| p.last().cloned())
                            .unwrap_or(name);
                        vec![q, m]
                    }
                    _ => vec![m],
                }
            }
            _ => return Value::unknown(self.label(n), span),
        };
        let _ = kw;
        let flow = LIBRARY.function(&path, args.len());
        if let (Some(Flow::Encoded(format)), [arg]) = (flow, args.as_slice()) {
            return crate::facts::encoded(format, arg.clone(), span);
        }
        Value::Call { path, args, span }
    }

    /// `a.f.m(args)` ([`Op::Apply`](crate::facts::Op::Apply)): the field `m` of `a.f`'s
    /// value called, the method `m` as the fallback.
    fn apply_value(
        &mut self,
        obj: Node<'_>,
        m: String,
        args: Vec<Value>,
        span: Span,
        d: usize,
    ) -> Value {
        let base = self.value(obj, d + 1);
        let callee = crate::facts::field(m.clone(), base, span);
        crate::facts::applied(vec![m], callee, args, span)
    }

    /// `map(f, xs)`: as many items as `xs`, each unknown
    /// ([`Op::Mapped`](crate::facts::Op::Mapped)); `list(..)` of a list or of such a map is
    /// that list.
    fn list_call(
        &mut self,
        n: Node<'_>,
        func: Node<'_>,
        pos: &[Node<'_>],
        d: usize,
    ) -> Option<Value> {
        let name = self.text(func);
        if func.kind() != "identifier" || !matches!(name.as_str(), "map" | "list") {
            return None;
        }
        match (name.as_str(), self.positional(pos, d)?.as_slice()) {
            ("map", [_, xs]) => Some(crate::facts::op(
                crate::facts::Op::Mapped,
                vec![xs.clone()],
                self.span(n),
            )),
            ("list", [v @ Value::List { .. }]) => Some(v.clone()),
            ("list", [v]) if is_mapped(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// Calls whose meaning is Python's or its library's: scripts, file
    /// reads, string building.
    fn known_call(
        &mut self,
        n: Node<'_>,
        func: Node<'_>,
        pos: &[Node<'_>],
        d: usize,
    ) -> Option<Value> {
        let span = self.span(n);
        let (method, obj) = match (func.kind(), self.member(func)) {
            ("identifier", _) => (self.text(func), None),
            (_, Some((obj, _, m))) => (m, Some(obj)),
            _ => return None,
        };
        let obj_text = obj.map(|o| self.short_text(o)).unwrap_or_default();
        let first = pos.first().copied();
        match (method.as_str(), obj) {
            ("register_script", Some(_))
            | ("Script", _)
            | ("str", None)
            | ("Path", None)
            | ("PurePath", None) => {
                let a = if method == "Script" {
                    pos.get(1).copied()
                } else {
                    first
                };
                Some(match a {
                    Some(a) => self.value(a, d + 1),
                    None => Value::unknown(self.label(n), span),
                })
            }
            (m, Some(o)) if LIBRARY.method(m, pos.len()) == Some(Flow::Same) => {
                Some(self.value(o, d + 1))
            }
            ("open", None) => {
                let p = self.value(first?, d + 1);
                Some(Value::Call {
                    path: vec!["open".into()],
                    args: vec![p],
                    span,
                })
            }
            ("read" | "read_text" | "read_bytes", Some(o))
                if pos.is_empty() || obj_text.ends_with("resources") =>
            {
                let path = if pos.len() >= 2 {
                    let name = self.value(pos[1], d + 1);
                    self.under_package(name, n)
                } else {
                    match self.value(o, d + 1) {
                        Value::Call { path, mut args, .. }
                            if path == ["open"] && !args.is_empty() =>
                        {
                            args.remove(0)
                        }
                        v @ Value::Str(_) => v,
                        // `Path(p).read_text()`: the path `p` is, whatever
                        // it is (the read's own reading says).
                        v if self.is_path(o) => v,
                        _ => return Some(Value::unknown(self.label(n), span)),
                    }
                };
                Some(
                    self.base
                        .read_script(path, self.span(n))
                        .unwrap_or_else(|| Value::unknown(self.label(n), span)),
                )
            }
            ("get_data", Some(_)) if pos.len() == 2 => {
                let name = self.value(pos[1], d + 1);
                let path = self.under_package(name, n);
                Some(
                    self.base
                        .path_script(&path, self.span(n))
                        .unwrap_or_else(|| Value::unknown(self.label(n), span)),
                )
            }
            ("join", Some(_)) if obj_text.ends_with("path") => Some(self.joined(None, pos, n, d)),
            ("join", Some(o)) if pos.len() == 1 => self.str_join(o, pos[0], n, d),
            ("joinpath", Some(o)) => {
                let base = self.value(o, d + 1);
                Some(self.joined(Some(base), pos, n, d))
            }
            ("files", Some(_)) | ("dirname" | "abspath" | "realpath" | "normpath", Some(_))
                if obj_text.ends_with("path") || method == "files" =>
            {
                Some(Value::unknown(self.label(n), span))
            }
            ("format", Some(o)) if matches!(o.kind(), "string" | "concatenated_string") => {
                Some(self.str_format(o, pos, n, d))
            }
            _ => None,
        }
    }

    /// Whether `n` is a `pathlib` path, as the code writes one: `Path(..)`
    /// (or `PurePath`, `PosixPath`, `WindowsPath`), its `.parent`, a
    /// method of it that gives a path (`.resolve()`, `.absolute()`,
    /// `.joinpath(..)`, `.with_name(..)`, `.with_suffix(..)`), or one
    /// joined with `/`.
    fn is_path(&self, n: Node<'_>) -> bool {
        const TYPES: &[&str] = &["Path", "PurePath", "PosixPath", "WindowsPath"];
        const METHODS: &[&str] = &[
            "resolve",
            "absolute",
            "joinpath",
            "with_name",
            "with_suffix",
        ];
        let mut n = n;
        // Bounded by the expression's own depth.
        for _ in 0..64 {
            match n.kind() {
                "parenthesized_expression" => match n.named_child(0) {
                    Some(c) => n = c,
                    None => return false,
                },
                "attribute"
                    if n.child_by_field_id(F.attribute)
                        .is_some_and(|a| self.text(a) == "parent") =>
                {
                    match n.child_by_field_id(F.object) {
                        Some(o) => n = o,
                        None => return false,
                    }
                }
                "binary_operator" => match n.child_by_field_id(F.left) {
                    Some(l)
                        if n.child_by_field_id(F.operator)
                            .is_some_and(|o| self.text(o) == "/") =>
                    {
                        n = l
                    }
                    _ => return false,
                },
                "call" => {
                    let Some(f) = n.child_by_field_id(F.function) else {
                        return false;
                    };
                    match f.kind() {
                        "identifier" => return TYPES.contains(&self.text(f).as_str()),
                        "attribute" => {
                            let name = f.child_by_field_id(F.attribute).map(|a| self.text(a));
                            let obj = f.child_by_field_id(F.object);
                            match (name, obj) {
                                (Some(m), Some(o)) if METHODS.contains(&m.as_str()) => n = o,
                                (Some(m), _) => return TYPES.contains(&m.as_str()),
                                _ => return false,
                            }
                        }
                        _ => return false,
                    }
                }
                _ => return false,
            }
        }
        false
    }

    /// `"{}:{q}".format(a, q=b)`: the template filled.
    fn str_format(&mut self, o: Node<'_>, pos: &[Node<'_>], n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Value::Str(t) = self.value(o, d + 1) else {
            return Value::unknown(self.label(n), span);
        };
        // A splat of unknown length leaves the holes from it on unknown
        // (the template's literal text stays).
        let args = match self.positional(pos, d) {
            Some(args) => args,
            None => pos.iter().map(|a| self.value(*a, d + 1)).collect(),
        };
        let (_, kw) = self.arguments(n);
        let kw: Vec<(String, Value)> = kw
            .into_iter()
            .map(|(k, v)| (k, self.value(v, d + 1)))
            .collect();
        Value::Str(self.format(t, args, kw, span))
    }

    /// A resource of the module's package: relative to its directory.
    fn under_package(&self, name: Value, n: Node<'_>) -> Value {
        let span = self.span(n);
        let mut segs = vec![
            Seg::Hole {
                label: "package".into(),
                span,
            },
            Seg::Lit {
                text: "/".into(),
                span,
            },
        ];
        segs.extend(segs_of(name));
        Value::Str(Template { segs, span })
    }

    /// `os.path.join(a, b)`, `base.joinpath(a, b)`: the parts joined by `/`.
    fn joined(&mut self, base: Option<Value>, pos: &[Node<'_>], n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let mut segs = base.map(segs_of).unwrap_or_default();
        for p in pos {
            if !segs.is_empty() {
                segs.push(Seg::Lit {
                    text: "/".into(),
                    span: self.span(*p),
                });
            }
            let v = self.value(*p, d + 1);
            segs.extend(segs_of(v));
        }
        Value::Str(Template { segs, span })
    }

    /// `":".join([a, b])`: the string `str.join` builds, where the
    /// separator is literal text and the code shows every item of the
    /// list (or tuple) joined: the items with the separator between them.
    fn str_join(&mut self, sep: Node<'_>, list: Node<'_>, n: Node<'_>, d: usize) -> Option<Value> {
        let text = self.value(sep, d + 1).as_str()?;
        let Value::List { items, tail, .. } = self.value(list, d + 1) else {
            return None;
        };
        tail.is_empty()
            .then(|| crate::extract::parts::joined(items, &text, self.span(sep), self.span(n)))
    }

    /// `*xs` of a list or tuple whose every item the code shows: those
    /// items, which the call receives in its place (`f(*[a, b])` is
    /// `f(a, b)`). `None` for any other argument, and for a splat whose
    /// length the code does not show.
    pub(super) fn splat_items(&mut self, p: Node<'_>, d: usize) -> Option<Vec<Value>> {
        if p.kind() != "list_splat" {
            return None;
        }
        let inner = named_children(p).into_iter().next()?;
        match self.value(inner, d + 1) {
            Value::List { items, tail, .. } if tail.is_empty() => Some(items),
            _ => None,
        }
    }

    /// The values of a call's positional arguments, each splat of a list
    /// the code shows as its items ([`Cx::splat_items`]); `None` where a
    /// splat's length is unknown (the positions after it are).
    fn positional(&mut self, pos: &[Node<'_>], d: usize) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for p in pos {
            if let Some(items) = self.splat_items(*p, d) {
                out.extend(items);
            } else if p.kind().ends_with("splat") {
                return None;
            } else {
                out.push(self.value(*p, d + 1));
            }
        }
        Some(out)
    }

    /// Whether an expression is a Redis client or pipeline: a call of a
    /// client's constructor (`redis.Redis(..)`, `from_url(..)`,
    /// `r.pipeline()`), or a name bound to one.
    pub(super) fn is_client_expr(&self, n: Node<'_>) -> bool {
        let mut n = n;
        for _ in 0..MAX_DEPTH {
            if !matches!(n.kind(), "await" | "parenthesized_expression") {
                break;
            }
            match named_children(n).into_iter().next() {
                Some(e) => n = e,
                None => return false,
            }
        }
        match n.kind() {
            "call" => n
                .child_by_field_id(F.function)
                .map(|f| self.callee(f).unwrap_or(f))
                .is_some_and(|f| CLIENT_MAKERS.contains(&self.last_name(f).as_str())),
            "identifier" | "attribute" => self
                .local_name(n)
                .is_some_and(|k| self.scope.clients.contains(&k)),
            _ => false,
        }
    }

    /// `x.register_script(..)`, `Script(..)`.
    pub(super) fn is_register(&self, n: Node<'_>) -> bool {
        let n = match n.kind() {
            "await" => match named_children(n).into_iter().next() {
                Some(e) => e,
                None => return false,
            },
            _ => n,
        };
        n.kind() == "call"
            && n.child_by_field_id(F.function)
                .map(|f| self.callee(f).unwrap_or(f))
                .is_some_and(|f| {
                    let last = self.last_name(f);
                    last == "Script" || (last == "register_script" && self.member(f).is_some())
                })
    }

    /// Whether `n` is a dict of scripts: a literal or a comprehension whose
    /// values are registrations (`{n: r.register_script(s) for n, s in
    /// SCRIPTS.items()}`).
    pub(super) fn is_script_table(&self, n: Node<'_>) -> bool {
        let values: Vec<Node<'_>> = match n.kind() {
            "dictionary_comprehension" => named_children(n)
                .into_iter()
                .filter(|c| c.kind() == "pair")
                .filter_map(|p| p.child_by_field_id(F.value))
                .collect(),
            "dictionary" => named_children(n)
                .into_iter()
                .filter(|c| c.kind() == "pair")
                .filter_map(|p| p.child_by_field_id(F.value))
                .collect(),
            _ => return false,
        };
        !values.is_empty() && values.iter().all(|v| self.is_register(*v))
    }

    /// The name a callee ends with: `c` of `a.b.c`, `f` of `f`.
    fn last_name(&self, f: Node<'_>) -> String {
        match (f.kind(), self.member(f)) {
            ("identifier", _) => self.text(f),
            (_, Some((_, _, name))) => name,
            _ => String::new(),
        }
    }

    /// A node's text when it is short (a module path, a receiver), else
    /// nothing: a long chain is never copied at each of its links.
    pub(super) fn short_text(&self, n: Node<'_>) -> String {
        if n.end_byte() - n.start_byte() > 200 {
            return String::new();
        }
        self.text(n)
    }
}

/// Whether a value is [`Op::Mapped`](crate::facts::Op::Mapped) of a list.
fn is_mapped(v: &Value) -> bool {
    matches!(
        v,
        Value::Op {
            op: crate::facts::Op::Mapped,
            ..
        }
    )
}
