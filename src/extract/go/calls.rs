//! Calls: go-redis and redigo client methods as commands (`client.rs` says
//! what each sends), scripts run (`script.Run(ctx, rdb, keys, args...)`,
//! `rdb.Eval(ctx, src, keys, args...)`, redigo's `script.Do(conn,
//! keysAndArgs...)`) as script calls, and calls of the code base.

use tree_sitter::Node;

use crate::extract::fields::GO as F;
use crate::extract::sends::{self, Seq, States};
use crate::extract::source::{OnePass, Source};
use crate::facts::{Template, Value};
use crate::parse::named_children;

use super::client::{self, CLIENTS, CLIENT_PACKAGES};
use super::{Cx, MAX_DEPTH};
use crate::extract::clients::{Args, Method, Receiver, RunArgs, Sends};

/// Methods whose result is a pipeline or a client of the receiver's.
const CLIENT_MAKERS: &[&str] = &[
    "Pipeline",
    "TxPipeline",
    "NewClient",
    "NewClusterClient",
    "NewUniversalClient",
    "NewFailoverClient",
    "Get",
    "GetContext",
    "Dial",
    "DialURL",
    "Conn",
];

impl<'s, 'p> Cx<'s, 'p> {
    /// The receiver and method of a call `recv.Method(..)`.
    fn method<'t>(&self, n: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let func = self.function_of(n)?;
        if func.kind() != "selector_expression" {
            return None;
        }
        Some((
            func.child_by_field_id(F.operand)?,
            func.child_by_field_id(F.field)?,
        ))
    }

    /// Whether an expression is a Redis client, connection or pipeline: a
    /// name bound or typed as one, a receiver word in its text, or a
    /// client made by `redis.NewClient(..)`, `rdb.Pipeline()`,
    /// `pool.Get()`, `redis.Dial(..)`.
    pub(super) fn is_client_expr(&self, n: Node<'_>) -> bool {
        // A loop down the operands and receivers, `MAX_DEPTH` of them:
        // 30,000 nested parentheses overflowed the stack of a recursion.
        let mut n = n;
        for _ in 0..MAX_DEPTH {
            match n.kind() {
                "identifier" => {
                    let t = self.text(n);
                    return self.scope.clients.contains(&t)
                        || (!self.scope.names.is_bound(&t) && self.globals.clients.contains(&t))
                        || self.receiver_word(n);
                }
                "selector_expression" => return self.receiver_word(n),
                "unary_expression" | "parenthesized_expression" => match named_children(n).last() {
                    Some(x) => n = *x,
                    None => return false,
                },
                "call_expression" => match self.made_client(n) {
                    Some((true, _)) => return true,
                    Some((false, r)) => n = r,
                    None => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// A call that makes a client from `recv`: `(true, _)` when `recv` is
    /// a client package, `(false, recv)` when `recv` must be a client
    /// itself, `None` when the call makes none.
    fn made_client<'t>(&self, n: Node<'t>) -> Option<(bool, Node<'t>)> {
        let func = self.function_of(n)?;
        if func.kind() != "selector_expression" {
            return None;
        }
        let recv = func.child_by_field_id(F.operand)?;
        let m = self.text(func.child_by_field_id(F.field)?);
        // `pool.Get()` is a connection; another `Get` a reply.
        let made = CLIENT_MAKERS.contains(&m.as_str())
            && (!m.starts_with("Get") || self.text(recv).to_ascii_lowercase().contains("pool"));
        if !made {
            return None;
        }
        let package = self
            .imports
            .get(&self.text(recv))
            .is_some_and(|p| CLIENT_PACKAGES.contains(&p.as_str()));
        Some((package, recv))
    }

    /// Whether `recv` names an imported client package (`radix` of
    /// `radix.Cmd(..)`), not a variable of that name.
    fn is_client_package(&self, recv: Node<'_>) -> bool {
        let t = self.text(recv);
        recv.kind() == "identifier"
            && !self.scope.names.is_bound(&t)
            && self
                .imports
                .get(&t)
                .is_some_and(|p| CLIENT_PACKAGES.contains(&p.as_str()))
    }

    /// Whether a receiver's text holds a receiver word.
    fn receiver_word(&self, n: Node<'_>) -> bool {
        let t = self.text(n);
        t.len() < 80 && CLIENTS.redis_like(&t)
    }

    /// `redis.NewScript(src)`, redigo's `redis.NewScript(n, src)`,
    /// `rueidis.NewLuaScript(src, opts..)`: a script object (a
    /// [`client::maker`] row), with redigo's key count.
    pub(super) fn new_script(&mut self, n: Node<'_>) -> Option<Option<Value>> {
        let (count, _) = self.made_script(n)?;
        Some(count.map(|c| self.value(c, 0)))
    }

    /// The key count (redigo's) and the script a call of a script maker
    /// is given.
    pub(super) fn made_script<'t>(&self, n: Node<'t>) -> Option<(Option<Node<'t>>, Node<'t>)> {
        if n.kind() != "call_expression" {
            return None;
        }
        let func = self.function_of(n)?;
        let path = self.callee_path(func)?;
        let [pkg, name] = path.as_slice() else {
            return None;
        };
        if !CLIENT_PACKAGES.contains(&pkg.as_str()) {
            return None;
        }
        let args = self.arg_nodes(n);
        client::maker(name, args.len())?;
        Some(match args.as_slice() {
            [count, src] if client::COUNT_FIRST.contains(&name.as_str()) => (Some(*count), *src),
            [src, ..] => (None, *src),
            [] => return None,
        })
    }

    /// The script a maker's call makes, its key count (redigo's, a literal)
    /// the script's registration.
    pub(super) fn made_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let Some((count, src)) = self.made_script(n) else {
            return Value::unknown(self.label(n), self.span(n));
        };
        let v = self.value(src, d + 1);
        let count = count.map(|c| (self.value(c, d + 1), self.span(c)));
        if let (Value::ScriptRef { index, .. }, Some((Value::Int { value, .. }, at))) = (&v, count)
        {
            let def = self.base.facts.scripts.get_mut(*index);
            if let (Some(def), Ok(k)) = (def, u32::try_from(value)) {
                def.declared_keys.get_or_insert((k, at));
            }
        }
        v
    }

    /// Whether `recv` is a script: a name bound to `NewScript(..)` or
    /// typed `*redis.Script`, or a `NewScript(..)` itself.
    pub(super) fn script_of(&mut self, recv: Node<'_>) -> Option<Option<Value>> {
        if recv.kind() == "identifier" {
            let t = self.text(recv);
            if let Some(c) = self.scope.scripts.get(&t) {
                return Some(c.clone());
            }
            if !self.scope.names.is_bound(&t) {
                return self.globals.scripts.get(&t).cloned();
            }
            return None;
        }
        if recv.kind() == "selector_expression" {
            let field = recv.child_by_field_id(F.field)?;
            return self.field_scripts.get(&self.text(field)).cloned();
        }
        self.new_script(recv)
    }

    /// `scripts.Enqueue.Run(ctx, rdb, keys)`: a variable another package
    /// of a module exports, or `enqueueCmd.Run(ctx, rdb, keys)` one another
    /// file of the package declares (its type not in this file), run as a script
    /// object is, when the row's shape holds, the client passed first (after
    /// a context); the link follows it to its definition.
    fn imported_script(&self, n: Node<'_>, recv: Node<'_>, name: &str) -> Option<Option<Value>> {
        let imported = match recv.kind() {
            "selector_expression" => recv.child_by_field_id(F.operand).is_some_and(|pkg| {
                pkg.kind() == "identifier"
                    && !self.scope.names.is_bound(&self.text(pkg))
                    && self.module_imports.contains(&self.text(pkg))
            }),
            // A variable of the package another of its files declares.
            "identifier" => {
                let t = self.text(recv);
                !self.scope.names.is_bound(&t)
                    && !self.imports.contains_key(&t)
                    && !self.globals.names.locals.contains_key(&t)
                    && !self.globals.types.contains_key(&t)
                    && !self.base.facts.consts.iter().any(|c| c.name == t)
            }
            _ => false,
        };
        let spec = client::lookup(name, Receiver::Script).filter(|_| imported)?;
        let first = self.wire_nodes(n, spec).into_iter().next()?;
        self.is_client_expr(first).then_some(None)
    }

    /// What a client call gives the code: `ScriptLoad(ctx, src)` the SHA1
    /// of `src`, as Redis replies; `.Result()` and `.Val()` of a client
    /// call what that call gives.
    pub(super) fn client_reply(&mut self, n: Node<'_>, d: usize) -> Option<Value> {
        let (recv, m) = self.method(n)?;
        let name = self.text(m);
        if matches!(name.as_str(), "Result" | "Val") && self.arg_nodes(n).is_empty() {
            let (inner, im) = self.method(recv)?;
            client::lookup(&self.text(im), Receiver::RedisLike)?;
            return self
                .is_client_expr(inner)
                .then(|| self.client_reply(recv, d))
                .flatten();
        }
        let spec = client::lookup(&name, Receiver::RedisLike)?;
        if !matches!(spec.sends, Sends::Command("SCRIPT LOAD", _)) || !self.is_client_expr(recv) {
            return None;
        }
        let [src] = self.wire_nodes(n, spec)[..] else {
            return None;
        };
        let body = self.value(src, d + 1);
        Some(crate::facts::sha1(body, self.span(n)))
    }

    /// A call met by the walk.
    pub(super) fn call(&mut self, n: Node<'_>) {
        if let Some((recv, m)) = self.method(n) {
            let name = self.text(m);
            let script = self
                .script_of(recv)
                .or_else(|| self.imported_script(n, recv, &name));
            if let Some(count) = script {
                if let Some(spec) = client::lookup(&name, Receiver::Script) {
                    return self.script_run(spec, n, recv, count);
                }
            }
            if let Some(spec) = client::package_command(&name) {
                if self.is_client_package(recv) {
                    let nodes = self.wire_nodes(n, spec);
                    let from = usize::from(client::DESTINATION_FIRST.contains(&name.as_str()));
                    if let Some(rest) = nodes.get(from..) {
                        self.named_command(n, m, rest);
                    }
                    return;
                }
            }
            if let Some(spec) = client::lookup(&name, Receiver::RedisLike) {
                if self.is_client_expr(recv) {
                    return self.client_call(spec, n, m);
                }
            }
        }
        self.pointer_args(n);
        self.call_fact(n);
    }

    /// The arguments of a call after a leading `context.Context`: one
    /// `types.rs` tells by its type or value, or, for a script run, by the
    /// row's shape (its list of keys one place later than the row puts it,
    /// whatever the context's name).
    fn wire_nodes<'t>(&self, n: Node<'t>, spec: &Method) -> Vec<Node<'t>> {
        let mut args = self.arg_nodes(n);
        let keys_at = match spec.sends {
            // `Eval(script, keys, ..)`, `Run(client, keys, ..)`.
            Sends::Eval(_) | Sends::Run(RunArgs::KeysThenArgs | RunArgs::TwoLists) => Some(1),
            _ => None,
        };
        let listed = |i: usize| args.get(i).is_some_and(|a| self.is_list(*a));
        let by_shape = keys_at.is_some_and(|k| listed(k + 1) && !listed(k));
        if args.first().is_some_and(|a| self.is_context(*a)) || by_shape {
            args.remove(0);
        }
        args
    }

    /// Arguments as wire arguments ([`Self::passed`]): a map gives its
    /// pairs, a slice not listed leaves the tail open.
    fn wire_args(&mut self, nodes: &[Node<'_>], shape: Args) -> (Vec<Value>, Vec<Value>) {
        let (passed, tail) = self.passed(nodes, 0);
        shaped(passed, tail, shape)
    }

    /// A client method call, as its row says.
    fn client_call(&mut self, spec: &Method, n: Node<'_>, m: Node<'_>) {
        let nodes = self.wire_nodes(n, spec);
        match spec.sends {
            Sends::Command(name, shape) => {
                if nodes.is_empty() {
                    return;
                }
                let (mut args, tail) = self.wire_args(&nodes, shape);
                // `SCRIPT LOAD`: a subcommand is the first argument.
                let (name, sub) = name.split_once(' ').unwrap_or((name, ""));
                if !sub.is_empty() {
                    args.insert(0, Value::Str(Template::lit(sub, self.span(m))));
                }
                let open = !tail.is_empty();
                self.push_command(name.to_string(), m, n, args, open, tail);
            }
            Sends::Named => self.named_command(n, m, &nodes),
            Sends::Eval(_) => {
                if nodes.len() < 2 {
                    return;
                }
                let script = self.value(nodes[0], 0);
                self.push_script_call(n, script, nodes[1], &nodes[2..]);
            }
            // Script objects run in `script_run`; the rest are other
            // languages' forms.
            _ => {}
        }
    }

    /// A command by name: `conn.Do("HSET", k, ..)`, radix's
    /// `radix.Cmd(&rcv, "HSET", k, ..)` (its destination left out of
    /// `nodes`). A name the code does not show is named by the link from
    /// what it comes to (`link::named`), or dropped.
    fn named_command(&mut self, n: Node<'_>, m: Node<'_>, nodes: &[Node<'_>]) {
        let (mut passed, tail) = self.passed(nodes, 0);
        if passed.is_empty() {
            return;
        }
        let named = passed.remove(0);
        // `c.Do(ctx, radix.Cmd(&rcv, "HSET", ..))`: an action a function of
        // the client's package built (read where it is built), no name.
        if let Value::Call { path, .. } = &named {
            if let [pkg, _] = path.as_slice() {
                let client = self.imports.get(pkg);
                if client.is_some_and(|p| CLIENT_PACKAGES.contains(&p.as_str())) {
                    return;
                }
            }
        }
        let name = match named.as_str() {
            Some(name) if crate::redis::is_command(&name) => name.to_ascii_uppercase(),
            Some(_) => return,
            // `conn.Do(cmdHSET, ..)`: the link names it from what
            // the value comes to (`link::named`), or drops it.
            None if named.is_followed() => String::new(),
            None => return,
        };
        let (args, tail) = shaped(passed, tail, Args::Plain);
        let open = !tail.is_empty();
        self.push_command(name.clone(), m, n, args, open, tail);
        if name.is_empty() {
            if let Some(c) = self.base.facts.commands.last_mut() {
                c.name_of = Some(named);
            }
        }
    }

    /// A script object run, after the context and the client:
    /// `script.Run(ctx, rdb, keys, args...)` (go-redis: a list of keys,
    /// then args), `script.Exec(ctx, c, keys, args)` (rueidis: two lists),
    /// `script.Do(conn, keysAndArgs...)` (redigo: keys and args in one
    /// list, the script's key count splitting them).
    fn script_run(&mut self, spec: &Method, n: Node<'_>, recv: Node<'_>, count: Option<Value>) {
        let script = self.value(recv, 0);
        let nodes = self.wire_nodes(n, spec);
        let Sends::Run(how) = spec.sends else { return };
        if how == RunArgs::Counted {
            // A script that carries no count, given a list of keys (radix
            // v4's `Cmd(&rcv, keys, args..)`): the keys, then the args.
            if let (None, [_, keys, rest @ ..]) = (&count, nodes.as_slice()) {
                if self.is_list(*keys) {
                    return self.push_script_call(n, script, *keys, rest);
                }
            }
            let Some(rest) = nodes.get(1..) else { return };
            return self.redigo_run(n, script, count, rest);
        }
        if nodes.len() < 2 {
            return;
        }
        if how == RunArgs::TwoLists {
            let args = self.seq(nodes.get(2).copied());
            let keys = self.seq(Some(nodes[1]));
            return self.push_run(n, script, keys, args);
        }
        self.push_script_call(n, script, nodes[1], &nodes[2..]);
    }

    /// redigo's `script.Do(conn, k1, k2, a1)`: the first `count` items are
    /// keys when the count is written and the items listed; a script whose
    /// count this file does not show is the `EVALSHA` redigo sends, its
    /// count the script's own.
    fn redigo_run(&mut self, n: Node<'_>, script: Value, count: Option<Value>, rest: &[Node<'_>]) {
        let (items, tail) = self.wire_args(rest, Args::Plain);
        let count = match count {
            Some(Value::Int { value, .. }) => usize::try_from(value).ok(),
            _ => None,
        };
        let (keys, args) = match count {
            Some(k) if k <= items.len() => {
                let mut keys = items;
                let args = keys.split_off(k);
                let keys = Seq {
                    items: keys,
                    open: false,
                    from: None,
                };
                (keys, args)
            }
            Some(_) => {
                let from = tail.first().cloned();
                let keys = Seq {
                    items: Vec::new(),
                    open: true,
                    from,
                };
                (keys, Vec::new())
            }
            // The count travels with the script (its registration): what
            // redigo sends, `EVALSHA sha count keysAndArgs..`.
            None => {
                let Some(m) = self.method(n).map(|(_, m)| m) else {
                    return;
                };
                let numkeys = Value::unknown("the script's key count", self.span(m));
                let mut wire = vec![script, numkeys];
                wire.extend(items);
                let open = !tail.is_empty();
                return self.push_command("EVALSHA".into(), m, n, wire, open, tail);
            }
        };
        let args = Seq {
            items: args,
            open: !tail.is_empty(),
            from: None,
        };
        self.push_run(n, script, keys, args);
    }

    /// A script call whose keys are one slice and whose args follow.
    fn push_script_call(&mut self, n: Node<'_>, script: Value, keys: Node<'_>, rest: &[Node<'_>]) {
        let keys = self.seq(Some(keys));
        let (items, tail) = self.wire_args(rest, Args::Plain);
        let args = Seq {
            items,
            open: !tail.is_empty(),
            from: None,
        };
        self.push_run(n, script, keys, args);
    }

    /// A slice argument: `nil` (empty), a listed slice, or a collection
    /// whose items are not listed.
    fn seq(&mut self, n: Option<Node<'_>>) -> Seq {
        let n = n.filter(|n| n.kind() != "nil");
        Seq::of(n.map(|n| self.value(n, 0)))
    }

    /// A call of a function of the code base, with its arguments.
    fn call_fact(&mut self, n: Node<'_>) {
        let Some(func) = self.function_of(n) else {
            return;
        };
        let (path, receiver) = match self.callee_path(func) {
            Some(p) => (p, None),
            None if func.kind() == "selector_expression" => {
                let (Some(obj), Some(m)) = (
                    func.child_by_field_id(F.operand),
                    func.child_by_field_id(F.field),
                ) else {
                    return;
                };
                let v = self.value(obj, 0);
                let r = sends::receiver(v, || Value::unknown(self.label(obj), self.span(obj)));
                (vec![self.text(m)], Some(r))
            }
            None => return,
        };
        // `fmt.Sprintf` is no function of the code base; its format is read
        // where its value is (a template, its verbs holes), not here.
        if path == ["fmt", "Sprintf"] {
            return;
        }
        let nodes = self.arg_nodes(n);
        let args = self.call_args(&path, &nodes, self.span(n), 0);
        self.push_call(n, path, args, receiver);
    }
}

/// Wire arguments as `shape` maps them: a map after the key gives its pairs
/// (`HSet(ctx, k, map[string]any{..})`), a `redis.Z` its score and member;
/// a `Z` whose two are not shown leaves the tail open from it.
fn shaped(passed: Vec<Value>, mut tail: Vec<Value>, shape: Args) -> (Vec<Value>, Vec<Value>) {
    let mut args = Vec::new();
    let mut open = Vec::new();
    for v in passed {
        if !open.is_empty() {
            open.push(v);
            continue;
        }
        match (shape, v) {
            (Args::Plain, Value::Map { pairs, .. }) if args.len() == 1 => {
                for (f, x) in pairs {
                    args.push(f);
                    args.push(x);
                }
            }
            (Args::Scores, Value::Map { pairs, span }) if !args.is_empty() => {
                let get = |k: &str| {
                    pairs
                        .iter()
                        .find(|(x, _)| x.as_str().as_deref() == Some(k))
                        .map(|p| p.1.clone())
                };
                match (get("Score"), get("Member")) {
                    (Some(s), Some(m)) => {
                        args.push(s);
                        args.push(m);
                    }
                    _ => open.push(Value::Map { pairs, span }),
                }
            }
            (_, v) => args.push(v),
        }
    }
    open.append(&mut tail);
    (args, open)
}
