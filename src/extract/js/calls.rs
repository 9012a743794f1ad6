//! Calls: client commands through the method table (`client.rs`), script
//! calls (`eval`, `evalsha`, a command `defineCommand` registered, called
//! by name or by a name parameter, `client[name](..)`), what
//! `script("load", ..)` hands its callback, and calls of the code base;
//! and the definitions the second walk states (module constants, the
//! fields a class's methods set on `this`).

use tree_sitter::Node;

use super::client;
use super::values::named;
use super::{is_function, top_level_const, Cx, Frame, NodeRef, Registered};
use crate::extract::clients::{Args, Receiver, Sends};
use crate::extract::sends::{self, Seq};
use crate::extract::source::Source;
use crate::facts::{CallFact, ConstDef, FieldRead, Span, Template, Value};

/// A registration `defineCommand`/`defineScript` makes, read once the first
/// walk has found every script: the frames it sat in, its name (or the
/// call), its options.
pub(super) type Pending = (Vec<Frame>, NodeRef, NodeRef, bool);

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// Second pass: one node's definitions and calls.
    pub(super) fn fact(&mut self, n: Node<'_>) {
        match n.kind() {
            "variable_declarator" => top_level_const(self, n),
            "public_field_definition" | "field_definition" => self.class_field(n),
            "call_expression" => {
                self.mark_not_read(n, self.f.function);
                // `r.m.call(r, ..)`: `r.m` is called, not read.
                if self.through_prototype(n) {
                    if let Some((func, _)) = self.invocation(n) {
                        self.not_reads.insert(func.id());
                    }
                }
                self.call(n);
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                self.mark_not_read(n, self.f.left);
                if n.kind() == "assignment_expression" {
                    self.field_set(n);
                }
            }
            "member_expression" | "subscript_expression" => self.param_field_read(n),
            "new_expression" => self.construction(n),
            _ => {}
        }
    }

    /// The member expression in `field` of `n` is called or written, not
    /// read.
    fn mark_not_read(&mut self, n: Node<'_>, field: u16) {
        if let Some(x) = n.child_by_field_id(field) {
            self.not_reads.insert(x.id());
        }
    }

    /// `row.f` or `row["f"]` read from a parameter `row` of the function:
    /// a field of what its callers pass, which the link reads as a hash
    /// field where a caller passes a whole-hash read's reply.
    fn param_field_read(&mut self, n: Node<'_>) {
        if self.not_reads.contains(&n.id()) {
            return;
        }
        let Some(o) = n.child_by_field_id(self.f.object) else {
            return;
        };
        let field = match n.kind() {
            "member_expression" => match n.child_by_field_id(self.f.property) {
                Some(p) if p.kind() == "property_identifier" => {
                    Value::Str(Template::lit(self.text(p), self.span(p)))
                }
                _ => return,
            },
            _ => match n.child_by_field_id(self.f.index) {
                Some(i) if i.kind() == "string" => self.value(i, 0),
                _ => return,
            },
        };
        if o.kind() != "identifier" || field.as_str().is_none() {
            return;
        }
        let row = self.value(o, 0);
        if !matches!(row, Value::Param { index, .. } if index != crate::facts::RECEIVER) {
            return;
        }
        let span = field.span();
        self.facts.field_reads.push(FieldRead {
            key: Value::unknown("row", row.span()),
            field,
            span,
            func: self.cur_func(),
            command: None,
            row: Some(row),
        });
    }

    /// `this.f = v` in a method of a class: what the class's `f` holds.
    fn field_set(&mut self, n: Node<'_>) {
        let (Some(l), Some(r)) = (
            n.child_by_field_id(self.f.left),
            n.child_by_field_id(self.f.right),
        ) else {
            return;
        };
        let on_this = l
            .child_by_field_id(self.f.object)
            .is_some_and(|o| o.kind() == "this");
        if l.kind() != "member_expression" || !on_this {
            return;
        }
        let (Some(class), Some(p)) = (self.cur_class(), l.child_by_field_id(self.f.property))
        else {
            return;
        };
        let module = format!("{}.{class}", self.module);
        let name = format!(".{}", self.text(p));
        let value = self.value(r, 0);
        // Only a constructor's parameters are what its constructions pass.
        if !self.in_constructor() && value.holds_param() {
            return;
        }
        self.facts.consts.push(ConstDef {
            module,
            name,
            value,
            name_span: self.span(p),
        });
    }

    /// `f = v;` in a class body.
    fn class_field(&mut self, n: Node<'_>) {
        let Some(class) = self.stack.last().and_then(|f| f.class.clone()) else {
            return;
        };
        let name = n
            .child_by_field_id(self.f.name)
            .or_else(|| n.child_by_field_id(self.f.property));
        let (Some(name), Some(v)) = (name, n.child_by_field_id(self.f.value)) else {
            return;
        };
        if is_function(v.kind()) {
            return;
        }
        let value = self.value(v, 0);
        self.facts.consts.push(ConstDef {
            module: format!("{}.{class}", self.module),
            name: format!(".{}", self.text(name)),
            value,
            name_span: self.span(name),
        });
    }

    fn call(&mut self, n: Node<'_>) {
        let Some((func, args)) = self.invocation(n) else {
            return;
        };
        let func = self.local_method(func).unwrap_or(func);
        if let Some(text) = self.script_load(func, &args) {
            if let Some(cb) = args.iter().rev().find(|a| is_function(a.kind())) {
                let v = self.value(text, 0);
                self.loaded.insert(cb.start_byte(), v);
            }
        }
        if let Some((recv, name, _)) = self.member(func) {
            return self.method_call(n, recv, name, &args);
        }
        match func.kind() {
            "subscript_expression" => self.computed_call(n, func, &args),
            "identifier" => {
                let name = self.text(func);
                if self.stack.iter().any(|f| f.params.contains(&name)) {
                    return; // a callback held in a parameter
                }
                self.code_call(n, vec![name], None, &args);
            }
            _ => {}
        }
    }

    /// `recv.name(args)` (or `recv["name"](args)`): a client method, a
    /// registered command, or a method of the code base.
    fn method_call(&mut self, n: Node<'_>, recv: Node<'_>, name: String, args: &[Node<'_>]) {
        let recv_text = self.text(recv);
        // A trailing callback is node_redis v3's reply handler, not sent.
        let sent: Vec<Node<'_>> = match args.last() {
            Some(l) if is_function(l.kind()) => args[..args.len() - 1].to_vec(),
            _ => args.to_vec(),
        };
        if let Some(r) = self.commands.get(&name).cloned() {
            return self.registered_call(n, r, &sent);
        }
        if let Some(m) = client::lookup(&name, self.arity(&sent)) {
            let chained = recv.kind() == "call_expression" && self.in_batch(recv);
            let generic_here = self.names_redis || m.receiver == Receiver::Any;
            if generic_here && (chained || client::CLIENTS.admits(m.receiver, &recv_text)) {
                return self.client_call(n, m.sends, &sent);
            }
            return;
        }
        if client::is_client_method(&name) {
            return;
        }
        let typed = self.method_path(recv, &name);
        if recv.kind() == "this" {
            let path = typed.unwrap_or_else(|| vec!["self".into(), name]);
            return self.code_call(n, path, None, args);
        }
        let receiver = Some(self.value(recv, 0));
        // Named as a client, or a batch's chain: with no word of Redis in
        // the file, still no client call, but a method the speaker's
        // registrations may give.
        let on_client = typed.is_none()
            && ((recv.kind() == "call_expression" && self.in_batch(recv))
                || client::CLIENTS.redis_like(&recv_text));
        let path = typed.unwrap_or_else(|| vec![name]);
        self.code_call(n, path, receiver, args);
        if let Some(call) = self.facts.calls.last_mut().filter(|_| on_client) {
            call.on_client = true;
        }
    }

    /// `client[name](args)` in a function whose parameter `name` is: on a
    /// Redis client (in a file that names Redis), a call of the command
    /// `defineCommand` gave it under that name (ioredis adds one method per
    /// command), so EVALSHA of the script its caller names, with the key
    /// count it was registered with (a caller naming one of Redis's own
    /// commands, `'zcard'`, runs that command: the link drops the site).
    /// An element called by a literal index or a local is no command name
    /// a caller gives.
    fn computed_call(&mut self, n: Node<'_>, func: Node<'_>, args: &[Node<'_>]) {
        let (Some(recv), Some(index)) = (
            func.child_by_field_id(self.f.object),
            func.child_by_field_id(self.f.index),
        ) else {
            return;
        };
        let recv_text = self.text(recv);
        if !self.names_redis || !client::CLIENTS.redis_like(&recv_text) {
            return;
        }
        let sent: Vec<Node<'_>> = match args.last() {
            Some(l) if is_function(l.kind()) => args[..args.len() - 1].to_vec(),
            _ => args.to_vec(),
        };
        let script = self.value(index, 0);
        if matches!(script, Value::Param { index, .. } if index != crate::facts::RECEIVER) {
            let r = Registered {
                script,
                transforms: false,
                keys: None,
            };
            self.registered_call(n, r, &sent);
        }
    }

    /// Whether a chain's receiver is a `multi()`/`pipeline()` chain.
    fn in_batch(&self, mut recv: Node<'_>) -> bool {
        for _ in 0..64 {
            let Some(f) = recv.child_by_field_id(self.f.function) else {
                return false;
            };
            let Some((object, name, _)) = self.member(f) else {
                return false;
            };
            if matches!(name.as_str(), "multi" | "pipeline") {
                return true;
            }
            if object.kind() != "call_expression" {
                return false;
            }
            recv = object;
        }
        false
    }

    fn client_call(&mut self, n: Node<'_>, sends: Sends, args: &[Node<'_>]) {
        match sends {
            Sends::Command(name, how) => {
                let name_span = self.span(n.child_by_field_id(self.f.function).unwrap_or(n));
                self.command(n, name.to_string(), name_span, how, args);
            }
            Sends::Named => {
                let mut items = args.to_vec();
                if let [one] = args {
                    if one.kind() == "array" {
                        items = named(*one);
                    }
                }
                let Some((first, rest)) = items.split_first() else {
                    return;
                };
                if let Some(name) = self.plain_string(*first) {
                    if crate::redis::is_command(&name) {
                        let span = self.span(*first);
                        self.command(n, name.to_ascii_uppercase(), span, Args::Spread, rest);
                    }
                }
            }
            Sends::Batch => {
                let Some(list) = args.first().filter(|a| a.kind() == "array") else {
                    return;
                };
                for c in named(*list).into_iter().filter(|c| c.kind() == "array") {
                    let items = named(c);
                    let Some((first, rest)) = items.split_first() else {
                        continue;
                    };
                    let Some(name) = self.plain_string(*first) else {
                        continue;
                    };
                    if crate::redis::is_command(&name) {
                        let span = self.span(*first);
                        self.command(c, name.to_ascii_uppercase(), span, Args::Spread, rest);
                    }
                }
            }
            Sends::Eval(name) => self.eval(n, name, args),
            // The other languages' forms.
            _ => {}
        }
    }

    /// One command: its arguments as the table's [`Args`] says.
    fn command(
        &mut self,
        n: Node<'_>,
        name: String,
        name_span: Span,
        how: Args,
        args: &[Node<'_>],
    ) {
        let wires = self.wires(args);
        let (args, tail, open_tail) = self.wire_args(wires, how, false);
        let (span, func) = (self.span(n), self.cur_func());
        let command = sends::client_command(name, name_span, args, open_tail, tail, span, func);
        self.facts.commands.push(command);
    }

    /// A call's arguments as the client sends them, in order: a spread
    /// (`...xs`) of an array the code shows is its items in place (an
    /// array the client flattens as it would the items written out), and
    /// where that array's end is not shown, a spread of its rest; a spread
    /// of a value whose length is unknown stays one spread of that value.
    fn wires(&mut self, args: &[Node<'_>]) -> Vec<Wire> {
        let mut out = Vec::new();
        for a in args {
            if a.kind() != "spread_element" {
                let value = self.value(*a, 0);
                let scalar = a.kind() == "identifier" && self.scalar_param(&self.text(*a));
                out.push(Wire::one(value, scalar));
                continue;
            }
            match self.spread_of(*a, 0) {
                Value::List { items, tail, .. } => {
                    for item in items {
                        let scalar = matches!(&item, Value::Param { index, name, .. }
                            if *index != crate::facts::RECEIVER && self.scalar_param(name));
                        out.push(Wire::one(item, scalar));
                    }
                    out.extend(tail.into_iter().map(Wire::spread));
                }
                other => out.push(Wire::spread(other)),
            }
        }
        out
    }

    /// How many arguments a call passes: a spread of an array the code
    /// shows counts its items ([`Cx::wires`]), any other spread one.
    fn arity(&mut self, args: &[Node<'_>]) -> usize {
        let mut count = 0;
        for a in args {
            count += match a.kind() {
                "spread_element" => match self.spread_of(*a, 0) {
                    Value::List { items, tail, .. } if tail.is_empty() => items.len(),
                    _ => 1,
                },
                _ => 1,
            };
        }
        count
    }

    /// The wire arguments of a call ([`Cx::wires`]): an array literal gives
    /// its items, a spread or an array the code does not show leaves the
    /// rest open; with `strict` (a script's keys and args, whose count
    /// matters), so does a value the code cannot see, as it may be an
    /// array.
    fn wire_args(
        &mut self,
        args: Vec<Wire>,
        how: Args,
        strict: bool,
    ) -> (Vec<Value>, Vec<Value>, bool) {
        let mut out = Vec::new();
        let mut tail = Vec::new();
        let mut open = false;
        let count = args.len();
        for (i, a) in args.into_iter().enumerate() {
            let v = a.value;
            // node_redis's reply handler may come last as a call's result
            // (`this.handler(cb)`): such a value is not counted as sent.
            let last_call = i + 1 == count && matches!(&v, Value::Call { .. });
            let spread = a.spread || (strict && !a.scalar && (maybe_array(&v) || last_call));
            match v {
                Value::List { items, tail: t, .. } if tail.is_empty() => {
                    out.extend(items);
                    open |= !t.is_empty();
                    tail.extend(t);
                }
                Value::Map { pairs, .. } if how == Args::Pairs && i == 1 && tail.is_empty() => {
                    for (k, v) in pairs {
                        out.push(k);
                        out.push(v);
                    }
                }
                Value::Map { .. } | Value::List { .. } => {
                    open = true;
                    tail.push(v);
                }
                v if spread => {
                    open = true;
                    tail.push(v);
                }
                v if tail.is_empty() => out.push(v),
                v => tail.push(v),
            }
        }
        (out, tail, open)
    }

    /// `eval(script, numkeys, ...)`, `evalsha(..)`; node-redis v4's
    /// `eval(script, {keys, arguments})`.
    fn eval(&mut self, n: Node<'_>, name: &str, args: &[Node<'_>]) {
        if let [script, opts] = args {
            if opts.kind() == "object" {
                let script = self.value(*script, 0);
                let Value::Map { pairs, .. } = self.value(*opts, 0) else {
                    return;
                };
                let get = |k: &str| {
                    pairs
                        .iter()
                        .find(|(x, _)| x.as_str().as_deref() == Some(k))
                        .map(|(_, v)| v.clone())
                };
                let (keys, args) = (spread_list(get("keys")), spread_list(get("arguments")));
                let args = Seq { from: None, ..args };
                let call = sends::script_call(script, keys, args, self.span(n), self.cur_func());
                self.facts.script_calls.push(call);
                return;
            }
        }
        // valkey-glide's `fcall(name, keys, args)`: the keys and the
        // arguments an array each, where ioredis's count is a number.
        if let (true, [script, keys, rest @ ..]) = (name.starts_with("FCALL"), args) {
            if rest.len() <= 1 {
                if let keys @ Value::List { .. } = self.value(*keys, 0) {
                    let script = self.value(*script, 0);
                    let args = spread_list(rest.first().map(|a| self.value(*a, 0)));
                    let call = sends::script_call(
                        script,
                        spread_list(Some(keys)),
                        Seq { from: None, ..args },
                        self.span(n),
                        self.cur_func(),
                    );
                    self.facts.script_calls.push(call);
                    return;
                }
            }
        }
        // The script and the key count are one argument each.
        let mut wires = self.wires(args);
        let rest = wires.split_off(wires.len().min(2));
        let head: Vec<Value> = wires.into_iter().map(|w| w.value).collect();
        let (rest, tail, open_tail) = self.wire_args(rest, Args::Spread, true);
        let name_span = self.span(n.child_by_field_id(self.f.function).unwrap_or(n));
        let args = head.into_iter().chain(rest).collect();
        let (span, func) = (self.span(n), self.cur_func());
        let command = sends::client_command(
            name.to_string(),
            name_span,
            args,
            open_tail,
            tail,
            span,
            func,
        );
        self.facts.commands.push(command);
    }

    /// `client.name(keys.., args..)` of a command `defineCommand` gave the
    /// client: EVALSHA with the key count it was registered with.
    fn registered_call(&mut self, n: Node<'_>, r: Registered, args: &[Node<'_>]) {
        let span = self.span(n);
        let Registered {
            script,
            transforms,
            keys,
        } = r;
        let numkeys = match keys {
            Some((value, span)) => Value::Int {
                value: i64::from(value),
                span,
            },
            None => crate::facts::field("numberOfKeys", script.clone(), span),
        };
        if transforms {
            // `transformArguments` decides what is sent: the script is
            // known, its keys and arguments are not.
            let open = || Seq {
                open: true,
                ..Seq::empty()
            };
            let call = sends::script_call(script, open(), open(), span, self.cur_func());
            self.facts.script_calls.push(call);
            return;
        }
        let wires = self.wires(args);
        let (rest, tail, open_tail) = self.wire_args(wires, Args::Spread, true);
        let mut all = vec![script, numkeys];
        all.extend(rest);
        let name_span = self.span(n.child_by_field_id(self.f.function).unwrap_or(n));
        let func = self.cur_func();
        let command = sends::client_command(
            "EVALSHA".into(),
            name_span,
            all,
            open_tail,
            tail,
            span,
            func,
        );
        self.facts.commands.push(command);
    }

    /// A call of a function of the code base.
    fn code_call(
        &mut self,
        n: Node<'_>,
        path: Vec<String>,
        receiver: Option<Value>,
        args: &[Node<'_>],
    ) {
        let args = self.call_args(args, 0);
        self.facts.calls.push(CallFact {
            path,
            args,
            receiver,
            span: self.span(n),
            func: self.cur_func(),
            named: Vec::new(),
            on_client: false,
        });
    }

    /// Reads the registrations the first walk found.
    pub(super) fn registrations(&mut self, pending: Vec<Pending>) {
        let saved = std::mem::take(&mut self.stack);
        for (frames, name, opts, script) in pending {
            self.stack = frames;
            let (Some(name), Some(opts)) = (self.find(name), self.find(opts)) else {
                continue;
            };
            match script {
                false => self.define_command(name, opts),
                true => self.define_script(name, opts),
            }
        }
        self.stack = saved;
    }

    /// First pass: a registration to read once every script is known.
    pub(super) fn pending_registration(&mut self, n: Node<'_>, pending: &mut Vec<Pending>) {
        let Some((func, args)) = self.invocation(n) else {
            return;
        };
        let func = self.local_method(func).unwrap_or(func);
        let callee = self.written(func);
        if callee.ends_with(".defineCommand") {
            if let [name, opts, ..] = args.as_slice() {
                pending.push((
                    self.stack.clone(),
                    NodeRef::of(*name),
                    NodeRef::of(*opts),
                    false,
                ));
            }
        } else if callee == "defineScript" || callee.ends_with(".defineScript") {
            if let [opts] = args.as_slice() {
                pending.push((self.stack.clone(), NodeRef::of(n), NodeRef::of(*opts), true));
            }
        }
    }
}

/// One argument as the client sends it: its value, whether it is spread
/// (its items sent in its place, their number unknown), whether it is a
/// parameter declared a string, number or boolean.
struct Wire {
    value: Value,
    spread: bool,
    scalar: bool,
}

impl Wire {
    fn one(value: Value, scalar: bool) -> Wire {
        Wire {
            value,
            spread: false,
            scalar,
        }
    }

    fn spread(value: Value) -> Wire {
        Wire {
            value,
            spread: true,
            scalar: false,
        }
    }
}

/// A value the code cannot see, which may be an array (ioredis and
/// node-redis spread an array wherever it is passed): a parameter, or
/// what the code does not show.
fn maybe_array(v: &Value) -> bool {
    matches!(v, Value::Param { .. } | Value::Unknown { .. })
}

/// A list's items, whether more may follow, and the collection when the
/// code does not show its items.
fn spread_list(v: Option<Value>) -> Seq {
    match v {
        None => Seq::empty(),
        Some(Value::List { items, tail, .. }) => Seq {
            open: !tail.is_empty(),
            from: tail.into_iter().next(),
            items,
        },
        Some(other) => Seq {
            items: Vec::new(),
            open: true,
            from: Some(other),
        },
    }
}
