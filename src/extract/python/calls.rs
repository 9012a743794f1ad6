//! Calls: redis-py client methods as commands (`client.rs` says what each
//! sends), a `Script` called with its keys and args as a script call, a
//! list grown by `append`, and calls of the code base.

use tree_sitter::Node;

use crate::extract::fields::PYTHON as F;
use crate::extract::locals::Locals;
use crate::extract::sends::{self, Seq, States};
use crate::extract::source::{OnePass, Source};
use crate::facts::{FieldRead, Value};
use crate::parse::named_children;

use super::client::{self, CLIENTS};
use super::Cx;
use crate::extract::clients::{Args, Method, Receiver, Sends};

/// The keywords of `Script.__call__(keys=[], args=[], client=None)`.
const SCRIPT_KEYWORDS: &[&str] = &["keys", "args", "client"];

/// The methods of Python's built-in types (`list`, `dict`, `set`, `str`,
/// `bytes`): a call of one on a value whose class the code does not show
/// runs the built-in as likely as a method of that name in the code base,
/// so it is no call of the code base's.
const BUILTIN_METHODS: &[&str] = &[
    // list
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "clear",
    "index",
    "count",
    "sort",
    "reverse",
    "copy",
    // dict
    "get",
    "items",
    "keys",
    "values",
    "update",
    "setdefault",
    "popitem",
    // set
    "add",
    "discard",
    "union",
    "intersection",
    "difference",
    "issubset",
    "issuperset",
    // str, bytes
    "join",
    "split",
    "rsplit",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "startswith",
    "endswith",
    "encode",
    "decode",
    "lower",
    "upper",
    "format",
    "find",
    "partition",
];

/// Methods that change a list in ways an `append` in straight-line code
/// does not describe.
const MUTATORS: &[&str] = &[
    "extend",
    "insert",
    "pop",
    "remove",
    "clear",
    "reverse",
    "sort",
    "__setitem__",
];

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// A call met by the walk.
    pub(super) fn call(&mut self, n: Node<'_>) {
        let Some(func) = n.child_by_field_id(F.function) else {
            return;
        };
        let func = self.callee(func).unwrap_or(func);
        let (pos, kw) = self.arguments(n);
        if let Some((obj, m, method)) = self.member(func) {
            if self.list_mutation(n, obj, &method, &pos) {
                return;
            }
            if method == "get" && !pos.is_empty() && self.field_read(n, obj, pos[0]) {
                return;
            }
            if let Some(spec) = client::lookup(&method) {
                if self.receiver_fits(spec.receiver, obj) {
                    self.client_call(spec, n, m, &pos, &kw);
                    return;
                }
            }
        }
        if self.script_call(n, func, &pos, &kw) {
            return;
        }
        self.call_fact(n, func, &pos, &kw);
    }

    /// `row = r.hgetall(key)`: `row` holds the hash at `key`.
    pub(super) fn note_row(&mut self, name: &str, right: Node<'_>) {
        self.scope.rows.remove(name);
        let call = match right.kind() {
            "await" => named_children(right).into_iter().next(),
            _ => Some(right),
        };
        let Some(call) = call.filter(|c| c.kind() == "call") else {
            return;
        };
        let Some(func) = call
            .child_by_field_id(F.function)
            .map(|f| self.callee(f).unwrap_or(f))
        else {
            return;
        };
        let is_hgetall = self.member(func).is_some_and(|(_, _, m)| m == "hgetall");
        let (pos, _) = self.arguments(call);
        if let (true, Some(k)) = (is_hgetall, pos.first()) {
            let key = self.value(*k, 0);
            self.scope.rows.insert(name.to_string(), key);
        }
    }

    /// `r.hgetall(key)` as a value on a Redis-like receiver: the reply, as
    /// what a function returns or passes on (`facts::hash_reply`).
    pub(super) fn hgetall_reply(
        &mut self,
        func: Node<'_>,
        pos: &[Node<'_>],
        d: usize,
    ) -> Option<Value> {
        let (obj, m, name) = self.member(func)?;
        let [k] = pos else {
            return None;
        };
        if name != "hgetall" || !self.receiver_fits(Receiver::RedisLike, obj) {
            return None;
        }
        let key = self.value(*k, d + 1);
        let command = Value::Str(crate::facts::Template::lit("HGETALL", self.span(m)));
        Some(crate::facts::hash_reply(command, key, self.span(func)))
    }

    /// `row.get("f")` or `row["f"]` on a hash read whole: a field read
    /// (true). On a parameter `row`, a read of what the callers pass, for
    /// the link (false: the call may still be a client's, `r.get(k)`).
    fn field_read(&mut self, n: Node<'_>, obj: Node<'_>, field: Node<'_>) -> bool {
        let key = self
            .local_name(obj)
            .and_then(|k| self.scope.rows.get(&k).cloned());
        let row = match (&key, obj.kind()) {
            (None, "identifier") => match self.value(obj, 0) {
                p @ Value::Param { index, .. } if index != crate::facts::RECEIVER => Some(p),
                _ => return false,
            },
            (None, _) => return false,
            (Some(_), _) => None,
        };
        let field = self.value(field, 0);
        if field.as_str().is_none() {
            return false;
        }
        let found = key.is_some();
        self.base.facts.field_reads.push(FieldRead {
            key: key.unwrap_or_else(|| Value::unknown("row", self.span(obj))),
            field,
            span: self.span(n),
            func: self.base.cur_func,
            command: None,
            row,
        });
        found
    }

    /// An argument that is a local holding a hash read whole: the reply,
    /// as the callee's parameter receives it.
    fn reply_arg(&self, p: Node<'_>) -> Option<Value> {
        let key = self.scope.rows.get(&self.local_name(p)?)?.clone();
        let span = self.span(p);
        let command = Value::Str(crate::facts::Template::lit("HGETALL", span));
        Some(crate::facts::hash_reply(command, key, span))
    }

    /// `row["f"]` met by the walk.
    pub(super) fn row_read(&mut self, n: Node<'_>) {
        if let (Some(base), Some(k)) = (
            n.child_by_field_id(F.value),
            n.child_by_field_id(F.subscript),
        ) {
            self.field_read(n, base, k);
        }
    }

    /// Whether a call on `obj` counts for a row's receiver rule.
    fn receiver_fits(&self, rule: Receiver, obj: Node<'_>) -> bool {
        match rule {
            Receiver::RedisLike => CLIENTS.redis_like(&self.label(obj)) || self.is_client_expr(obj),
            _ => true,
        }
    }

    /// `keys.append(k)` on a local list: in straight-line code the list
    /// grows by `k`; otherwise what it holds is no longer known.
    fn list_mutation(
        &mut self,
        n: Node<'_>,
        obj: Node<'_>,
        method: &str,
        pos: &[Node<'_>],
    ) -> bool {
        if method != "append" && !MUTATORS.contains(&method) {
            return false;
        }
        let Some(name) = self.local_name(obj) else {
            return false;
        };
        if !self.scope.names.locals.contains_key(&name) {
            return false;
        }
        let grows = method == "append" && pos.len() == 1 && self.straight_line(n);
        let v = grows.then(|| self.value(pos[0], 0));
        let span = self.span(obj);
        match self.scope.names.locals.get_mut(&name) {
            Some(Value::List { items, tail, .. }) => match v {
                Some(v) if tail.is_empty() && items.len() < 256 => items.push(v),
                _ if tail.is_empty() => tail.push(Value::unknown(name.clone(), span)),
                _ => {}
            },
            Some(other) => *other = Value::unknown(name.clone(), span),
            None => {}
        }
        true
    }

    /// Positional arguments as wire arguments: a `*rest` of a list the
    /// code shows is its items in place, any other leaves the tail open.
    fn wire_args(&mut self, pos: &[Node<'_>]) -> (Vec<Value>, Vec<Value>) {
        let mut args = Vec::new();
        let mut tail = Vec::new();
        for p in pos {
            if let Some(items) = self.splat_items(*p, 0) {
                match tail.is_empty() {
                    true => args.extend(items),
                    false => tail.extend(items),
                }
            } else if p.kind() == "list_splat" || p.kind() == "dictionary_splat" {
                let inner = named_children(*p).into_iter().next();
                let v = match inner {
                    Some(i) => self.value(i, 0),
                    None => Value::unknown(self.label(*p), self.span(*p)),
                };
                tail.push(v);
            } else if tail.is_empty() {
                args.push(self.value(*p, 0));
            } else {
                tail.push(self.value(*p, 0));
            }
        }
        (args, tail)
    }

    /// A client method call, as its row says.
    fn client_call(
        &mut self,
        spec: &Method,
        n: Node<'_>,
        m: Node<'_>,
        pos: &[Node<'_>],
        kw: &[(String, Node<'_>)],
    ) {
        let (name, shape) = match spec.sends {
            Sends::Register => return,
            Sends::Command(name, shape) => (name.to_string(), shape),
            Sends::Eval(name) => {
                if name.starts_with("EVAL") && self.listed_eval(n, pos, kw) {
                    return;
                }
                (name.to_string(), Args::Plain)
            }
            Sends::Named => {
                let (mut args, tail) = self.wire_args(pos);
                if args.is_empty() {
                    return;
                }
                let Some(name) = args.remove(0).as_str() else {
                    return;
                };
                if !crate::redis::is_command(&name) {
                    return;
                }
                let open = !tail.is_empty() || !kw.is_empty();
                args.truncate(256);
                return self.push_command(name.to_ascii_uppercase(), m, n, args, open, tail);
            }
            // The other languages' forms.
            _ => return,
        };
        if pos.is_empty() {
            return;
        }
        let (mut args, mut tail) = self.wire_args(pos);
        let mut open = !tail.is_empty();
        match shape {
            Args::Plain | Args::Spread => open |= !kw.is_empty(),
            Args::Pairs => {
                for (k, v) in kw {
                    let v = self.value(*v, 0);
                    match (k.as_str(), v) {
                        ("mapping", Value::Map { pairs, .. }) => {
                            for (f, x) in pairs {
                                args.push(f);
                                args.push(x);
                            }
                        }
                        (_, v) => {
                            open = true;
                            tail.push(v);
                        }
                    }
                }
            }
            Args::Scores => {
                open |= !kw.is_empty();
                if args.len() == 2 {
                    match args.pop() {
                        Some(Value::Map { pairs, .. }) if !open => {
                            for (member, score) in pairs {
                                args.push(score);
                                args.push(member);
                            }
                        }
                        Some(v) => {
                            open = true;
                            tail.push(v);
                        }
                        None => {}
                    }
                }
            }
        }
        self.push_command(name, m, n, args, open, tail);
    }

    /// coredis's `eval(script, keys=None, args=None)` (and `evalsha`): the
    /// keys and the args as two lists, by keyword or by position (a list
    /// second, where redis-py's `eval(script, numkeys, *keys_and_args)`
    /// passes a count). A script run with those keys and args.
    fn listed_eval(&mut self, n: Node<'_>, pos: &[Node<'_>], kw: &[(String, Node<'_>)]) -> bool {
        let Some(script) = pos.first() else {
            return false;
        };
        let by = |name: &str| kw.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
        let (keys, args) = if by("keys").is_some() || by("args").is_some() {
            if pos.len() > 1 {
                return false;
            }
            (by("keys"), by("args"))
        } else if pos.get(1).is_some_and(|k| k.kind() == "list") && pos.len() <= 3 {
            (pos.get(1).copied(), pos.get(2).copied())
        } else {
            return false;
        };
        let script = self.value(*script, 0);
        let (keys, args) = (self.seq(keys), self.seq(args));
        self.push_run(n, script, keys, args);
        true
    }

    /// Whether the file defines a function (or method) of this name.
    fn defines_function(&self, name: &str) -> bool {
        let needle = format!("def {name}(");
        memchr::memmem::find(self.base.src, needle.as_bytes()).is_some()
    }

    /// `script(keys=[..], args=[..], client=..)`: a `Script` run, when the
    /// callee is one (bound to `register_script(..)` here), or is called
    /// with `Script.__call__`'s keywords alone, `keys=` among them (a task's
    /// `apply(args=..)` is no script).
    fn script_call(
        &mut self,
        n: Node<'_>,
        func: Node<'_>,
        pos: &[Node<'_>],
        kw: &[(String, Node<'_>)],
    ) -> bool {
        let held = match func.kind() {
            "subscript" => func
                .child_by_field_id(F.value)
                .and_then(|b| self.local_name(b)),
            _ => self.local_name(func),
        };
        let known = held.is_some_and(|k| self.scope.scripts.contains(&k));
        let only_script_kw = kw
            .iter()
            .all(|(k, _)| SCRIPT_KEYWORDS.contains(&k.as_str()));
        let has_keys = kw.iter().any(|(k, _)| k == "keys");
        // `f(*[keys, args])` is `f(keys, args)`; a splat whose items the
        // code does not show leaves the call unread.
        let spread = pos.iter().any(|p| p.kind().ends_with("splat"));
        let items = match spread {
            true => match self.spread_items(pos) {
                Some(items) => Some(items),
                None => return false,
            },
            false => None,
        };
        let passed = items.as_ref().map_or(pos.len(), Vec::len);
        if !only_script_kw || passed > 3 {
            return false;
        }
        if !known {
            let last = match (func.kind(), self.member(func)) {
                ("identifier", _) => Some(self.text(func)),
                (_, Some((_, _, name))) => Some(name),
                ("subscript", _) => None,
                _ => return false,
            };
            if !has_keys || !pos.is_empty() || last.is_some_and(|l| self.defines_function(&l)) {
                return false;
            }
        }
        let arg = |name: &str, i: usize| {
            kw.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| *v)
                .or_else(|| pos.get(i).copied())
        };
        let script = self.value(func, 0);
        let (keys, args) = match items {
            // Past a splat, the positions are the items'.
            Some(items) => {
                let by = |name: &str, i: usize, cx: &mut Self| match kw
                    .iter()
                    .find(|(k, _)| k == name)
                {
                    Some((_, v)) => cx.seq(Some(*v)),
                    None => Seq::of(items.get(i).cloned()),
                };
                (by("keys", 0, self), by("args", 1, self))
            }
            None => {
                let (keys_node, args_node) = (arg("keys", 0), arg("args", 1));
                (self.seq(keys_node), self.seq(args_node))
            }
        };
        self.push_run(n, script, keys, args);
        true
    }

    /// The positional arguments as values, each splat of a list the code
    /// shows as its items; `None` where a splat's items are not shown.
    fn spread_items(&mut self, pos: &[Node<'_>]) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for p in pos {
            match self.splat_items(*p, 0) {
                Some(items) => out.extend(items),
                None if p.kind().ends_with("splat") => return None,
                None => out.push(self.value(*p, 0)),
            }
        }
        Some(out)
    }

    /// A sequence argument: absent (empty), a list, or a collection whose
    /// items are not listed; `None` passes nothing.
    fn seq(&mut self, n: Option<Node<'_>>) -> Seq {
        let v = n.map(|n| self.value(n, 0));
        Seq::of(v.filter(|v| !matches!(v, Value::Unknown { label, .. } if label == "None")))
    }

    /// A call of a function of the code base, with its arguments.
    fn call_fact(
        &mut self,
        n: Node<'_>,
        func: Node<'_>,
        pos: &[Node<'_>],
        kw: &[(String, Node<'_>)],
    ) {
        let (path, receiver) = match (func.kind(), self.member(func)) {
            ("identifier", _) => {
                let name = self.text(func);
                (self.imports.get(&name).cloned().unwrap_or(vec![name]), None)
            }
            (_, Some((obj, _, m))) => {
                let o = self.short_text(obj);
                if obj.kind() == "identifier"
                    && self.scope.names.receiver.as_deref() == Some(o.as_str())
                {
                    (vec!["self".to_string(), m], None)
                } else if obj.kind() == "identifier" && !self.scope.names.is_bound(&o) {
                    // A name `import m` binds is a module; one `from p import
                    // o` binds (or none) may be an object of a built-in type.
                    let module = self.imports.get(&o).is_some_and(|p| p.len() == 1);
                    if BUILTIN_METHODS.contains(&m.as_str()) && !module {
                        return;
                    }
                    let q = self
                        .imports
                        .get(&o)
                        .and_then(|p| p.last().cloned())
                        .unwrap_or(o);
                    (vec![q, m], None)
                } else {
                    // The receiver as a name the link may follow; what a
                    // call returned stays opaque (`self.f` in the method is
                    // a field of it, not the call's arguments).
                    let v = self.value(obj, 0);
                    let class_shown = matches!(&v, Value::Call { .. });
                    if BUILTIN_METHODS.contains(&m.as_str()) && !class_shown {
                        return;
                    }
                    let r = sends::receiver(v, || Value::unknown(self.label(obj), self.span(obj)));
                    (vec![m], Some(r))
                }
            }
            _ => return,
        };
        let mut args = Vec::new();
        for p in pos {
            if let Some(items) = self.splat_items(*p, 0) {
                args.extend(items);
                continue;
            }
            args.push(match p.kind() {
                "list_splat" | "dictionary_splat" => Value::unknown(self.label(*p), self.span(*p)),
                _ => self.reply_arg(*p).unwrap_or_else(|| self.value(*p, 0)),
            });
        }
        self.push_call(n, path, args, receiver);
        // `f(a, keys=[..])`: each keyword argument, bound by its name.
        let named: Vec<(String, Value)> = kw
            .iter()
            .map(|(k, v)| (k.clone(), self.value(*v, 0)))
            .collect();
        self.name_arguments(named);
    }
}
