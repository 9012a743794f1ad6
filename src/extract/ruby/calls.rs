//! Calls: redis-rb and redis-client methods as commands (`client.rs` says
//! what each sends), `eval`/`evalsha` with their keys and arguments as
//! script calls, a hash read whole and its fields, and calls of the code
//! base.

use tree_sitter::Node;

use crate::extract::fields::RUBY as F;
use crate::extract::sends::{self, Seq, States};
use crate::extract::source::{OnePass, Source};
use crate::facts::{FieldRead, Span, Value};
use crate::parse::named_children;

use super::client;
use super::stdlib::LIBRARY;
use super::{Cx, ScopeKind};
use crate::extract::clients::{Args, Method, Receiver, RunArgs, Sends};
use crate::extract::library::Flow;
use crate::extract::parts::segs_of;

/// Methods whose block is a test (`it "..." do`, `describe X do`).
const TEST_BLOCKS: &[&str] = &["describe", "it", "context", "test", "specify"];

/// A call's arguments: positional ones (splats among them), and the pairs
/// of a trailing hash written without braces (`keys: [..]`, `"f" => v`).
pub(super) struct Argv<'t> {
    pub(super) pos: Vec<Node<'t>>,
    pub(super) pairs: Vec<Node<'t>>,
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// A call's argument nodes.
    pub(super) fn arguments<'t>(&self, n: Node<'t>) -> Argv<'t> {
        let mut out = Argv {
            pos: Vec::new(),
            pairs: Vec::new(),
        };
        let Some(args) = n.child_by_field_id(F.arguments) else {
            return out;
        };
        for a in named_children(args) {
            match a.kind() {
                "comment" | "block_argument" => {}
                "pair" => out.pairs.push(a),
                _ => out.pos.push(a),
            }
        }
        out
    }

    /// The text of a pair's key: `keys` of `keys:` or `:keys =>`.
    fn pair_key(&self, pair: Node<'_>) -> Option<String> {
        let k = pair.child_by_field_id(F.key)?;
        let t = self.text(k);
        Some(
            t.trim_start_matches(':')
                .trim_end_matches(':')
                .trim_matches('"')
                .to_string(),
        )
    }

    /// A call met by the walk.
    pub(super) fn call(&mut self, n: Node<'_>) {
        let Some(called) = self.called(n) else {
            return;
        };
        let (m, method, argv, recv) = (
            called.name_node,
            called.method,
            called.argv,
            called.receiver,
        );
        if recv.is_none()
            && n.child_by_field_id(F.block).is_some()
            && TEST_BLOCKS.contains(&method.as_str())
        {
            self.base.facts.test_regions.push(self.span(n));
        }
        if recv.is_none()
            && self.kind == ScopeKind::Class
            && matches!(method.as_str(), "attr_reader" | "attr_accessor")
        {
            return self.attr_readers(&argv.pos);
        }
        if let (Some(r), Some(spec)) = (recv, client::script_method(&method)) {
            if self.runs_script_object(r, &argv) {
                return self.script_object_call(spec, n, r, &argv);
            }
        }
        if let (Some(r), Some(spec)) = (recv, client::lookup(&method)) {
            let fits = match spec.receiver {
                Receiver::RedisLike => self.redis_like(r) || self.is_own_client(Some(r), &method),
                _ => true,
            };
            if fits {
                return self.client_call(spec, n, m, &argv);
            }
        }
        if let (None, Some(spec)) = (recv, client::lookup(&method)) {
            if self.is_own_client(None, &method) {
                return self.client_call(spec, n, m, &argv);
            }
        }
        if method == "[]" {
            return;
        }
        if let Some(r) = recv {
            self.changed_in_place(r, &method, &argv.pos);
        }
        self.call_fact(n, recv, method, &argv);
    }

    /// Whether a call of `method` on `recv` (`self`, or none written) in a
    /// method of a client's subclass is the client's own: not one of the
    /// class's own methods of that name.
    fn is_own_client(&self, recv: Option<Node<'_>>, method: &str) -> bool {
        let on_self = recv.is_none_or(|r| r.kind() == "self");
        let own = || {
            let needle = format!("def {method}");
            memchr::memmem::find_iter(self.base.src, needle.as_bytes()).any(|i| {
                let next = self.base.src.get(i + needle.len()).copied();
                !next.is_some_and(|b| b == b'_' || b.is_ascii_alphanumeric())
            })
        };
        self.client_class && on_self && !own()
    }

    /// `row = r.hgetall(key)`: `row` holds the hash at `key`.
    pub(super) fn note_row(&mut self, name: &str, right: Node<'_>) {
        self.scope.rows.remove(name);
        if right.kind() != "call" {
            return;
        }
        let Some(called) = self.called(right) else {
            return;
        };
        let is_hgetall = called.method == "hgetall";
        let argv = called.argv;
        if let (true, Some(k)) = (is_hgetall, argv.pos.first()) {
            let key = self.value(*k, 0);
            self.scope.rows.insert(name.to_string(), key);
        }
    }

    /// `row["f"]` on a hash read whole: a field read.
    pub(super) fn row_read(&mut self, n: Node<'_>) {
        let (Some(base), Some(field)) = (
            n.child_by_field_id(F.object),
            named_children(n).into_iter().nth(1),
        ) else {
            return;
        };
        let Some(key) = self
            .local_name(base)
            .and_then(|k| self.scope.rows.get(&k).cloned())
        else {
            return;
        };
        let field = self.value(field, 0);
        if field.as_str().is_none() {
            return;
        }
        self.base.facts.field_reads.push(FieldRead {
            key,
            field,
            span: self.span(n),
            func: self.base.cur_func,
            command: None,
            row: None,
        });
    }

    /// Positional arguments as wire arguments, splats spread as Ruby
    /// spreads them (`values.rs`'s `spread`): an unknown one leaves the
    /// tail open.
    fn wire_args(&mut self, pos: &[Node<'_>]) -> (Vec<Value>, Vec<Value>) {
        self.spread(pos, 0)
    }

    /// A client method call, as its row says.
    fn client_call(&mut self, spec: &Method, n: Node<'_>, m: Node<'_>, argv: &Argv<'_>) {
        let (name, shape) = match spec.sends {
            Sends::Register => return,
            Sends::Eval(_) => return self.eval_call(n, argv),
            Sends::Command(name, shape) => (name.to_string(), shape),
            Sends::Named => return self.named_command(n, m, argv),
            // The other languages' forms.
            _ => return,
        };
        if argv.pos.is_empty() {
            return;
        }
        let (mut args, mut tail) = self.wire_args(&argv.pos);
        let mut open = !tail.is_empty();
        match shape {
            Args::Plain | Args::Spread => open |= !argv.pairs.is_empty(),
            Args::Pairs => {
                let span = self.span(n);
                let kw = if argv.pairs.is_empty() {
                    None
                } else {
                    Some(self.pairs_value(&argv.pairs, span, 0))
                };
                if let Some(Value::Map { pairs, .. }) = kw {
                    if args.len() == 1 {
                        args.push(Value::Map { pairs, span });
                    } else {
                        for (f, x) in pairs {
                            args.push(f);
                            args.push(x);
                        }
                    }
                }
                // `hset(key, hash)`: the hash's pairs; a value the code
                // does not show as a hash or an array leaves them open.
                if args.len() == 2 && tail.is_empty() {
                    match args.pop() {
                        Some(Value::Map { pairs, .. }) => {
                            for (f, x) in pairs {
                                args.push(f);
                                args.push(x);
                            }
                        }
                        Some(Value::List { items, tail: t, .. }) if t.is_empty() => {
                            args.extend(items)
                        }
                        Some(v) => {
                            open = true;
                            tail.push(v);
                        }
                        None => {}
                    }
                }
            }
            Args::Scores => {
                open |= !argv.pairs.is_empty();
                if args.len() == 2 {
                    match args.pop() {
                        Some(Value::List { items, tail: t, .. }) if t.is_empty() => {
                            for pair in items {
                                match pair {
                                    Value::List {
                                        items: sm,
                                        tail: t2,
                                        ..
                                    } if t2.is_empty() => args.extend(sm),
                                    v => {
                                        open = true;
                                        tail.push(v);
                                    }
                                }
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

    /// `call("HSET", k, ..)`, `call_v(["HSET", k, ..])`: the command the
    /// first argument (or the one array's first item) names.
    fn named_command(&mut self, n: Node<'_>, m: Node<'_>, argv: &Argv<'_>) {
        let (mut args, mut tail) = self.wire_args(&argv.pos);
        if args.is_empty() {
            return;
        }
        let name = match args.remove(0) {
            Value::List {
                mut items, tail: t, ..
            } if args.is_empty() && tail.is_empty() && !items.is_empty() => {
                let name = items.remove(0);
                args = items;
                tail = t;
                name
            }
            name => name,
        };
        let open = !tail.is_empty() || !argv.pairs.is_empty();
        match name.as_str() {
            Some(s) if crate::redis::is_command(&s) => {
                self.push_command(s.to_ascii_uppercase(), m, n, args, open, tail);
            }
            // `redis.call(HSET, ..)`: the link names it from what the value
            // comes to (`link::named`), or drops it.
            None if name.is_followed() => {
                self.push_command(String::new(), m, n, args, open, tail);
                if let Some(c) = self.base.facts.commands.last_mut() {
                    c.name_of = Some(name);
                }
            }
            _ => {}
        }
    }

    /// `eval(script, keys: [..], argv: [..])`, `eval(script, keys, argv)`,
    /// `eval(script, {keys: .., argv: ..})`, and `evalsha` alike.
    fn eval_call(&mut self, n: Node<'_>, argv: &Argv<'_>) {
        let (pos, rest) = self.wire_args(&argv.pos);
        let mut pos = pos.into_iter();
        let Some(script) = pos.next() else {
            return;
        };
        let (mut keys, mut args) = (pos.next(), pos.next());
        if let Some(Value::Map { pairs, .. }) = keys.clone() {
            (keys, args) = (None, None);
            for (k, v) in pairs {
                match k.as_str().as_deref() {
                    Some("keys") => keys = Some(v),
                    Some("argv") => args = Some(v),
                    _ => {}
                }
            }
        } else if args.is_none() && argv.pairs.is_empty() && !is_list(keys.as_ref()) {
            // `evalsha(sha, params)`: redis-rb takes a hash there for its
            // `keys:` and `argv:`, or an array for the keys alone, as the
            // value is at run time; which ARGV it passes is not shown.
            args = keys
                .as_ref()
                .map(|k| Value::unknown(k.describe(), k.span()));
        } else if let Some(r) = rest.first() {
            // Past the arguments listed, a splat's: what a sequence there
            // holds is unknown.
            let gone = || Some(Value::unknown(r.describe(), r.span()));
            keys = keys.or_else(gone);
            args = args.or_else(gone);
        }
        self.keyword_lists(argv, &mut keys, &mut args);
        let (keys, args) = (Seq::of(keys), Seq::of(args));
        self.push_run(n, script, keys, args);
    }

    /// The `keys:` and `argv:` lists a call passes by keyword, in place of
    /// what `keys` and `args` held; `keys:` alone (Ruby 3.1) passes a local
    /// the value does not show here, its items unknown.
    fn keyword_lists(
        &mut self,
        argv: &Argv<'_>,
        keys: &mut Option<Value>,
        args: &mut Option<Value>,
    ) {
        for p in &argv.pairs {
            let slot = match self.pair_key(*p).as_deref() {
                Some("keys") => &mut *keys,
                Some("argv") => &mut *args,
                _ => continue,
            };
            *slot = Some(match p.child_by_field_id(F.value) {
                Some(v) => self.value(v, 0),
                None => Value::unknown(self.label(*p), self.span(*p)),
            });
        }
    }

    /// Whether a call on `recv` has the shape of a script object's run: a
    /// name or constant that holds one, given a client first and the keys
    /// or arguments by keyword (`SCRIPT.call(redis, keys: [..])`).
    fn runs_script_object(&self, recv: Node<'_>, argv: &Argv<'_>) -> bool {
        let named = matches!(
            recv.kind(),
            "identifier" | "constant" | "scope_resolution" | "instance_variable" | "class_variable"
        );
        let keyword = argv
            .pairs
            .iter()
            .any(|p| matches!(self.pair_key(*p).as_deref(), Some("keys" | "argv")));
        named && keyword && argv.pos.len() == 1 && self.redis_like(argv.pos[0])
    }

    /// A script object run as its row says: the receiver is the script,
    /// the keys and arguments come by keyword (absent, none).
    fn script_object_call(&mut self, spec: &Method, n: Node<'_>, recv: Node<'_>, argv: &Argv<'_>) {
        if spec.sends != Sends::Run(RunArgs::Keywords) {
            return;
        }
        let script = self.value(recv, 0);
        let (mut keys, mut args) = (None, None);
        self.keyword_lists(argv, &mut keys, &mut args);
        self.push_run(n, script, Seq::of(keys), Seq::of(args));
    }

    /// What a call gives as a value.
    pub(super) fn call_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(called) = self.called(n) else {
            return Value::unknown(self.label(n), span);
        };
        let (method, argv, recv) = (called.method, called.argv, called.receiver);
        let (args, rest) = self.spread(&argv.pos, d + 1);
        // A splat of a value the code does not show: where each argument
        // lands is unknown.
        if !rest.is_empty() {
            return Value::unknown(self.label(n), span);
        }
        if let Some(v) = self.known_call(n, recv, &method, &args, d) {
            return v;
        }
        let path = match recv {
            None => vec![method],
            Some(r) if matches!(r.kind(), "constant" | "scope_resolution") => {
                let mut p = self.const_path(r);
                p.push(method);
                p
            }
            Some(r) if r.kind() == "self" => vec!["self".into(), method],
            // `job.queue`: a field of what `job` holds.
            Some(r) if args.is_empty() && n.child_by_field_id(F.arguments).is_none() => {
                let base = self.value(r, d + 1);
                return crate::facts::field(method, base, span);
            }
            // A method of what another value holds: which one runs is the
            // receiver's class's, which the code does not say here.
            Some(_) => return Value::unknown(self.label(n), span),
        };
        Value::Call { path, args, span }
    }

    /// Calls whose meaning is Ruby's or its library's: a script loaded,
    /// string building, file reads.
    fn known_call(
        &mut self,
        n: Node<'_>,
        recv: Option<Node<'_>>,
        method: &str,
        args: &[Value],
        d: usize,
    ) -> Option<Value> {
        let span = self.span(n);
        let recv_text = recv.map(|r| self.short_text(r)).unwrap_or_default();
        match (method, recv.is_some()) {
            ("script", true) => match args {
                [load, lua] if load.as_str().as_deref() == Some("load") => Some(lua.clone()),
                _ => None,
            },
            (m, true) if LIBRARY.method(m, args.len()) == Some(Flow::Same) => {
                recv.map(|r| self.value(r, d + 1))
            }
            // A serializer: `payload.to_json`, `JSON.generate(payload)`.
            (m, true) if library_encoder(m, &recv_text, args.len()).is_some() => {
                self.library_encoded(m, (recv?, &recv_text), args, span, d)
            }
            // `send(name, a..)` on the receiver: its method `name` (Ruby's
            // dynamic dispatch), with `a..`.
            ("send" | "public_send" | "__send__", _)
                if recv.is_none_or(|r| r.kind() == "self") && !args.is_empty() =>
            {
                Some(dispatch(args, span))
            }
            // `Digest::SHA1.hexdigest(text)`: the SHA1 that names the
            // script `text` is (`EVALSHA`).
            ("hexdigest", true) if recv_text.trim_start_matches("::").ends_with("Digest::SHA1") => {
                match args {
                    [text] => Some(crate::facts::sha1(text.clone(), span)),
                    _ => None,
                }
            }
            // `ERB.new(text).result(binding)`: the template's text with its
            // tags filled, the script the template is.
            ("new", true) if recv_text == "ERB" => args.first().cloned(),
            // A script object of a client's (`RedisPrescription.new(lua)`,
            // a row of the table): the script it runs.
            (m, true)
                if args.len() == 1
                    && client::makes_script(&format!(
                        "{}.{m}",
                        recv_text.trim_start_matches("::")
                    )) =>
            {
                args.first().cloned()
            }
            ("result" | "result_with_hash", true) if recv_text.starts_with("ERB.new") => {
                recv.map(|r| self.value(r, d + 1))
            }
            ("format" | "sprintf", false) => match args.first()? {
                Value::Str(t) => Some(Value::Str(self.sprintf(
                    t.clone(),
                    args[1..].to_vec(),
                    span,
                ))),
                _ => None,
            },
            ("join", true) if args.len() <= 1 => self.list_join(recv?, args.first(), span, d),
            ("join", true) if recv_text == "File" => Some(self.joined(args.to_vec(), None, span)),
            ("expand_path", true) if recv_text == "File" => {
                let mut items = args.to_vec();
                items.reverse();
                Some(self.joined(items, None, span))
            }
            ("read", true) if matches!(recv_text.as_str(), "File" | "IO") => {
                let path = args.first()?.clone();
                Some(
                    self.base
                        .read_script(path, self.span(n))
                        .unwrap_or_else(|| Value::unknown(self.label(n), span)),
                )
            }
            _ => None,
        }
    }

    /// `list.join(sep)` of a list whose every item the code shows: the
    /// items with `sep` (none written: nothing) between them.
    fn list_join(
        &mut self,
        list: Node<'_>,
        sep: Option<&Value>,
        span: Span,
        d: usize,
    ) -> Option<Value> {
        let Value::List { items, tail, .. } = self.value(list, d + 1) else {
            return None;
        };
        if !tail.is_empty() {
            return None;
        }
        let sep = match sep {
            Some(s) => s.clone(),
            None => Value::Str(crate::facts::Template {
                segs: Vec::new(),
                span,
            }),
        };
        Some(self.joined(items, Some(sep), span))
    }

    /// Parts joined by `sep` (or `/`, a path's).
    fn joined(&self, items: Vec<Value>, sep: Option<Value>, span: Span) -> Value {
        let mut segs = Vec::new();
        for (i, v) in items.into_iter().take(64).enumerate() {
            if i > 0 {
                match &sep {
                    Some(s) => segs.extend(segs_of(s.clone())),
                    None => crate::extract::push_lit(&mut segs, "/", span),
                }
            }
            segs.extend(segs_of(v));
        }
        Value::Str(crate::facts::Template { segs, span })
    }

    /// A call of a method of the code base, with its arguments.
    fn call_fact(&mut self, n: Node<'_>, recv: Option<Node<'_>>, method: String, argv: &Argv<'_>) {
        let (path, receiver) = match recv {
            None => (vec![method], None),
            Some(r) if matches!(r.kind(), "constant" | "scope_resolution") => {
                let mut p = self.const_path(r);
                p.push(method);
                (p, None)
            }
            Some(r) if r.kind() == "self" => (vec!["self".into(), method], None),
            Some(r) => {
                // The receiver as a name the link may follow; what a call
                // returned stays opaque.
                let v = self.value(r, 0);
                let v = sends::receiver(v, || Value::unknown(self.label(r), self.span(r)));
                (vec![method], Some(v))
            }
        };
        // Past a splat of a value the code does not show, positions are
        // unknown: one unknown argument stands for them.
        let (mut args, rest) = self.spread(&argv.pos, 0);
        if let Some(r) = rest.first() {
            args.push(Value::unknown(r.describe(), r.span()));
        }
        self.push_call(n, path, args, receiver);
        // `f(a, keys: [..])`: each keyword argument, bound by its name.
        let named: Vec<(String, Value)> = argv
            .pairs
            .iter()
            .filter_map(|p| {
                let v = p.child_by_field_id(F.value)?;
                Some((self.pair_key(*p)?, self.value(v, 0)))
            })
            .collect();
        self.name_arguments(named);
    }
}

impl Cx<'_, '_, '_> {
    /// What a library serializer (`stdlib.rs`) makes of its receiver or
    /// its argument.
    fn library_encoded(
        &mut self,
        m: &str,
        (recv, recv_text): (Node<'_>, &str),
        args: &[Value],
        span: Span,
        d: usize,
    ) -> Option<Value> {
        let (format, of_receiver) = library_encoder(m, recv_text, args.len())?;
        let v = if of_receiver {
            self.value(recv, d + 1)
        } else {
            args.first()?.clone()
        };
        Some(crate::facts::encoded(format, v, span))
    }
}

/// The format a library call serializes into (`stdlib.rs`), and whether
/// it serializes its receiver (the method `m`) or its argument (the
/// function `Recv.m`).
fn library_encoder(m: &str, recv: &str, args: usize) -> Option<(&'static str, bool)> {
    match LIBRARY.method(m, args) {
        Some(Flow::Encoded(format)) => Some((format, true)),
        Some(_) => None,
        None => match LIBRARY.function(&[recv, m], args)? {
            Flow::Encoded(format) => Some((format, false)),
            _ => None,
        },
    }
}

/// `send(name, a..)` on the receiver: a dispatch of its method `name`
/// with `a..` (`args` holds the name first).
fn dispatch(args: &[Value], span: Span) -> Value {
    let receiver = Value::Param {
        index: crate::facts::RECEIVER,
        name: "self".into(),
        span,
    };
    let list = Value::List {
        items: args[1..].to_vec(),
        tail: Vec::new(),
        span,
    };
    let call = vec![receiver, args[0].clone(), list];
    crate::facts::op(crate::facts::Op::Dispatch, call, span)
}

/// A list the code writes out.
fn is_list(v: Option<&Value>) -> bool {
    matches!(v, None | Some(Value::List { .. }))
}
