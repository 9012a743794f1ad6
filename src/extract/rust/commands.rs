//! Method chains as Redis facts: `redis::cmd("X").arg(..)`, pipelines,
//! typed command methods (`con.hset(..)`), script invocations
//! (`SCRIPT.key(..).invoke(..)`, fred's `evalsha`), builders kept in a
//! variable and added to in loops; and field reads of maps read by HGETALL.

use tree_sitter::Node;

use crate::facts::{Command, FieldRead, ScriptCall, Span, Value};
use crate::parse::named_children;

use super::client::RECEIVER_WORDS;
use super::paths::path_segments;
use super::{args_of, is_comment, method_of, node_key, peel_ref, Cx, MAX_DEPTH};

/// Iterator adapters that keep a collection's elements.
const ITER_ADAPTERS: &[&str] = &[
    "iter",
    "into_iter",
    "cloned",
    "copied",
    "as_slice",
    "to_vec",
    "clone",
    "as_ref",
    "borrow",
];

/// Names of argument variables that hold several values (a slice spread by
/// `.arg(&keys)`).
const PLURAL_SUFFIXES: &[&str] = &[
    "keys", "args", "argv", "fields", "values", "members", "ids", "items",
];

/// What a chain of `.arg(..)` / `.key(..)` calls adds to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    /// `redis::cmd(..)`: the command at this index.
    Cmd(usize),
    /// `redis::pipe()`: the command last started by `.cmd(..)`, if any.
    Pipe(Option<usize>),
    /// A script invocation at this index of `script_calls`.
    Invoke(usize),
}

/// A variable holding a command, pipeline or invocation under construction.
#[derive(Clone, Copy)]
pub(super) struct Builder {
    target: Target,
    /// Where the builder was made (to tell loops that add to it).
    created: usize,
}

/// One method call of a chain: `.arg(x)`.
struct Link<'t> {
    method: String,
    name: Node<'t>,
    receiver: Node<'t>,
    args: Vec<Node<'t>>,
    call: Node<'t>,
}

impl<'s, 'p> Cx<'s, 'p> {
    /// `fields.get("payload")`, `fields.remove("payload")` on a map read by
    /// `HGETALL`.
    pub(super) fn field_read(&mut self, n: Node<'_>) {
        let Some((method, recv)) = method_of(n, self.src) else {
            return;
        };
        if !matches!(
            method.as_str(),
            "get" | "remove" | "get_mut" | "contains_key" | "get_key_value" | "entry"
        ) {
            return;
        }
        let args = args_of(n);
        if let Some(a) = args.first() {
            self.push_field_read(recv, *a);
        }
    }

    /// `fields["payload"]` on a map read by `HGETALL`.
    pub(super) fn index_read(&mut self, n: Node<'_>) {
        let kids: Vec<Node<'_>> = named_children(n)
            .into_iter()
            .filter(|c| !is_comment(*c))
            .collect();
        if let [map, index] = kids.as_slice() {
            self.push_field_read(*map, *index);
        }
    }

    fn push_field_read(&mut self, map: Node<'_>, field: Node<'_>) {
        let map = peel_ref(map);
        if map.kind() != "identifier" {
            return;
        }
        let Some(key) = self.hash_maps.get(&self.text(map)).cloned() else {
            return;
        };
        let field = peel_ref(field);
        if !matches!(field.kind(), "string_literal" | "raw_string_literal") {
            return;
        }
        let tpl = self.literal_template(field);
        let span = tpl.segs.first().map(|s| s.span()).unwrap_or(tpl.span);
        self.facts.field_reads.push(FieldRead {
            key,
            field: Value::Str(tpl),
            span,
            func: self.cur_func,
        });
    }

    /// Flattens a method chain ending at `top`: the base expression and the
    /// calls from the innermost out.
    fn chain<'t>(&mut self, top: Node<'t>) -> (Node<'t>, Vec<Link<'t>>) {
        let mut links = Vec::new();
        let mut inner = Vec::new();
        let mut cur = top;
        loop {
            match cur.kind() {
                "await_expression" | "try_expression" => {
                    match named_children(cur).into_iter().next() {
                        Some(inner) => cur = inner,
                        None => break,
                    }
                }
                "call_expression" => {
                    let Some(mut func) = cur.child_by_field_name("function") else {
                        break;
                    };
                    if func.kind() == "generic_function" {
                        match func.child_by_field_name("function") {
                            Some(f) => func = f,
                            None => break,
                        }
                    }
                    if func.kind() != "field_expression" {
                        break;
                    }
                    let (Some(recv), Some(field)) = (
                        func.child_by_field_name("value"),
                        func.child_by_field_name("field"),
                    ) else {
                        break;
                    };
                    if cur != top {
                        inner.push(node_key(cur));
                    }
                    links.push(Link {
                        method: self.text(field),
                        name: field,
                        receiver: recv,
                        args: args_of(cur),
                        call: cur,
                    });
                    cur = recv;
                }
                _ => break,
            }
        }
        links.reverse();
        if cur != top {
            inner.push(node_key(cur));
        }
        self.inner.extend(inner);
        (cur, links)
    }

    /// The variable a chain is bound to by `let`.
    fn let_name(&self, top: Node<'_>) -> Option<String> {
        match &self.pending_let {
            Some((key, name)) if *key == node_key(top) => Some(name.clone()),
            _ => None,
        }
    }

    /// The loop or closure between `n` and its function that does not
    /// contain byte `created` (a builder made outside it, added to inside).
    fn loop_since<'t>(&self, n: Node<'t>, created: usize) -> Option<Node<'t>> {
        let mut cur = n;
        for _ in 0..256 {
            let p = cur.parent()?;
            match p.kind() {
                "for_expression" | "while_expression" | "loop_expression"
                | "closure_expression"
                    if !(p.start_byte() <= created && created < p.end_byte()) =>
                {
                    return Some(p);
                }
                "function_item" | "source_file" => return None,
                _ => {}
            }
            cur = p;
        }
        None
    }

    /// The collection a loop iterates, when it is a `for` loop:
    /// `for k in keys`, `for k in keys.iter()`, `for k in &keys`.
    fn loop_collection(&mut self, lp: Node<'_>) -> Option<Value> {
        if lp.kind() != "for_expression" {
            return None;
        }
        let v = lp.child_by_field_name("value")?;
        Some(self.collection_value(v))
    }

    /// A collection expression without its iterator adapters:
    /// `keys.iter().cloned()` → `keys`.
    fn collection_value(&mut self, n: Node<'_>) -> Value {
        let mut cur = peel_ref(n);
        for _ in 0..MAX_DEPTH {
            match method_of(cur, self.src) {
                Some((m, recv))
                    if ITER_ADAPTERS.contains(&m.as_str()) && args_of(cur).is_empty() =>
                {
                    cur = peel_ref(recv);
                }
                _ => break,
            }
        }
        self.value(cur, 0)
    }

    fn new_command(&mut self, name: &str, name_span: Span, span: Span) -> usize {
        self.facts.commands.push(Command {
            name: name.to_ascii_uppercase(),
            name_span,
            args: Vec::new(),
            open_tail: false,
            tail: Vec::new(),
            span,
            func: self.cur_func,
        });
        self.facts.commands.len() - 1
    }

    /// Whether an argument spreads a collection we cannot see (`&keys`,
    /// `&v[..]`).
    fn opaque_many(&self, n: Node<'_>, v: &Value) -> bool {
        if matches!(v, Value::Str(_) | Value::Int { .. } | Value::List { .. }) {
            return false;
        }
        let n = peel_ref(n);
        let t = self.text(n);
        if n.kind() == "index_expression" && t.contains("..") {
            return true;
        }
        if t.ends_with(".as_slice()") || t.ends_with(".iter()") {
            return true;
        }
        if n.kind() == "identifier" || n.kind() == "field_expression" {
            let last = short_tail(&t).to_ascii_lowercase();
            // `num_keys`, `n_keys`, `key_count`: a count, not the keys.
            if last.starts_with("num") || last.starts_with("n_") || last.contains("count") {
                return false;
            }
            return PLURAL_SUFFIXES.iter().any(|s| last.ends_with(s));
        }
        false
    }

    /// Adds `.arg(x)` / `.key(x)` values: a visible array adds each element.
    /// Returns the collection spread when the count is open (`&keys`).
    fn spread(&mut self, n: Node<'_>, out: &mut Vec<Value>) -> Option<Value> {
        let v = self.value(n, 0);
        if self.opaque_many(n, &v) {
            return Some(self.collection_value(n));
        }
        match v {
            Value::List { items, .. } => out.extend(items),
            other => out.push(other),
        }
        None
    }

    /// A chain whose top is a statement or expression: commands, pipelines,
    /// script invocations, builders continued from a variable.
    pub(super) fn chain_statement(&mut self, top: Node<'_>) {
        let (base, links) = self.chain(top);
        let var = self.let_name(top);
        let mut target: Option<Target> = None;
        let mut continued: Option<usize> = None;
        if base.kind() == "call_expression" {
            let func = base.child_by_field_name("function");
            let path = func
                .filter(|f| matches!(f.kind(), "identifier" | "scoped_identifier"))
                .map(|f| path_segments(&self.text(f)))
                .unwrap_or_default();
            let last = path.last().map(|s| s.as_str()).unwrap_or("");
            let args = args_of(base);
            if last == "cmd" && args.len() == 1 {
                if let Some((name, name_span)) = self.string_arg(args[0]) {
                    let span = self.span(top);
                    target = Some(Target::Cmd(self.new_command(&name, name_span, span)));
                }
            } else if (last == "pipe" && args.is_empty())
                || (path.len() >= 2 && path[path.len() - 2] == "Pipeline")
            {
                target = Some(Target::Pipe(None));
            } else if path.len() >= 2 && path[path.len() - 2] == "Cmd" {
                if let Some(name_node) = func.and_then(|f| f.child_by_field_name("name")) {
                    if let Some(cmd) = self.typed_command(last, None, &args, name_node, base) {
                        self.facts.commands.push(cmd);
                        target = Some(Target::Cmd(self.facts.commands.len() - 1));
                    }
                }
            }
        } else if base.kind() == "identifier" {
            if let Some(b) = self.scope.builders.get(&self.text(base)) {
                target = Some(b.target);
                continued = Some(b.created);
            }
        }
        let lp = continued.and_then(|c| self.loop_since(top, c));
        let in_loop = lp.is_some();
        let loop_coll = lp.and_then(|l| self.loop_collection(l));
        let has_invoke = links.iter().any(|l| {
            matches!(
                l.method.as_str(),
                "invoke" | "invoke_async" | "prepare_invoke"
            )
        });
        let span = self.span(top);
        let mut base_value: Option<Value> = None;
        for link in &links {
            match link.method.as_str() {
                "cmd" if link.args.len() == 1 => {
                    if let Some((name, name_span)) = self.string_arg(link.args[0]) {
                        target = Some(Target::Pipe(Some(self.new_command(&name, name_span, span))));
                    }
                }
                "arg" if link.args.len() == 1 => match target {
                    Some(Target::Cmd(i)) | Some(Target::Pipe(Some(i))) => {
                        let mut vals = Vec::new();
                        let open = self.spread(link.args[0], &mut vals);
                        if let Some(c) = self.facts.commands.get_mut(i) {
                            if in_loop || open.is_some() {
                                c.open_tail = true;
                                let coll = if in_loop { loop_coll.clone() } else { open };
                                if let Some(coll) = coll {
                                    if !c.tail.contains(&coll) {
                                        c.tail.push(coll);
                                    }
                                }
                            } else {
                                c.args.extend(vals);
                            }
                        }
                    }
                    Some(Target::Invoke(i)) => {
                        let mut vals = Vec::new();
                        self.spread(link.args[0], &mut vals);
                        if let Some(c) = self.facts.script_calls.get_mut(i) {
                            c.args.extend(vals);
                        }
                    }
                    _ => {}
                },
                "key" | "prepare_invoke" | "invoke" | "invoke_async" => {
                    if !matches!(target, Some(Target::Invoke(_))) {
                        if matches!(target, Some(Target::Cmd(_)) | Some(Target::Pipe(_))) {
                            continue;
                        }
                        let script = match &base_value {
                            Some(v) => v.clone(),
                            None => {
                                let v = self.value(base, 0);
                                base_value = Some(v.clone());
                                v
                            }
                        };
                        let known = matches!(script, Value::ScriptRef { .. } | Value::Const { .. });
                        if !(known || has_invoke) {
                            continue;
                        }
                        self.facts.script_calls.push(ScriptCall {
                            script,
                            numkeys: None,
                            keys: Vec::new(),
                            args: Vec::new(),
                            open_keys: false,
                            keys_from: None,
                            span,
                            func: self.cur_func,
                        });
                        target = Some(Target::Invoke(self.facts.script_calls.len() - 1));
                    }
                    if link.method == "key" && link.args.len() == 1 {
                        if let Some(Target::Invoke(i)) = target {
                            let mut vals = Vec::new();
                            let open = self.spread(link.args[0], &mut vals);
                            if let Some(c) = self.facts.script_calls.get_mut(i) {
                                if in_loop || open.is_some() {
                                    c.open_keys = true;
                                    let coll = if in_loop { loop_coll.clone() } else { open };
                                    if c.keys_from.is_none() {
                                        c.keys_from = coll;
                                    }
                                } else {
                                    c.keys.extend(vals);
                                }
                            }
                        }
                    }
                }
                "eval" | "evalsha" | "evalsha_with_reload" | "eval_with_reload"
                    if link.args.len() == 3 =>
                {
                    self.fred_eval(link, span);
                }
                m => {
                    let receiver_is_pipe = matches!(target, Some(Target::Pipe(_)));
                    let recv = if receiver_is_pipe {
                        None
                    } else {
                        Some(link.receiver)
                    };
                    if let Some(cmd) = self.typed_command(m, recv, &link.args, link.name, link.call)
                    {
                        self.facts.commands.push(cmd);
                    }
                }
            }
        }
        let ran = links.last().is_some_and(|l| {
            matches!(
                l.method.as_str(),
                "query" | "query_async" | "execute" | "invoke" | "invoke_async"
            )
        });
        if let (Some(var), Some(t), None, false) = (var, target, continued, ran) {
            self.scope.builders.insert(
                var,
                Builder {
                    target: t,
                    created: top.start_byte(),
                },
            );
        }
    }

    /// fred: `client.evalsha(hash, keys, args)`, `script.evalsha(&client, keys, args)`.
    fn fred_eval(&mut self, link: &Link<'_>, span: Span) {
        let first = self.text(link.args[0]).to_ascii_lowercase();
        let script = if ["client", "conn", "pool", "pipe"]
            .iter()
            .any(|w| first.contains(w))
        {
            self.value(link.receiver, 0)
        } else {
            self.value(link.args[0], 0)
        };
        let mut open_keys = false;
        let mut keys_from = None;
        let keys = match self.value(link.args[1], 0) {
            Value::List { items, .. } => items,
            v @ Value::Str(_) => vec![v],
            _ => {
                open_keys = true;
                keys_from = Some(self.collection_value(link.args[1]));
                Vec::new()
            }
        };
        let args = match self.value(link.args[2], 0) {
            Value::List { items, .. } => items,
            v => vec![v],
        };
        self.facts.script_calls.push(ScriptCall {
            script,
            numkeys: None,
            keys,
            args,
            open_keys,
            keys_from,
            span,
            func: self.cur_func,
        });
    }

    /// Typed command methods: `.hset(key, field, value)`, fred's
    /// `.hset(key, [(f, v), ..])`. `recv` is `None` when the receiver is
    /// known to be a pipeline.
    fn typed_command(
        &mut self,
        method: &str,
        recv: Option<Node<'_>>,
        args: &[Node<'_>],
        name_node: Node<'_>,
        call: Node<'_>,
    ) -> Option<Command> {
        #[derive(PartialEq)]
        enum Mode {
            Plain,
            Pairs,
            List,
        }
        let (name, mode, generic) = match method {
            "hset" if args.len() == 2 => ("HSET", Mode::Pairs, false),
            "hset" => ("HSET", Mode::Plain, false),
            "hset_nx" | "hsetnx" => ("HSETNX", Mode::Plain, false),
            "hset_multiple" => ("HSET", Mode::Pairs, false),
            "hmset" => ("HMSET", Mode::Pairs, false),
            "hget" => ("HGET", Mode::Plain, false),
            "hmget" => ("HMGET", Mode::List, false),
            "hincr" | "hincrby" => ("HINCRBY", Mode::Plain, false),
            "hdel" => ("HDEL", Mode::List, false),
            "hgetall" => ("HGETALL", Mode::Plain, false),
            "hexists" => ("HEXISTS", Mode::Plain, false),
            "hkeys" => ("HKEYS", Mode::Plain, false),
            "hvals" => ("HVALS", Mode::Plain, false),
            "hlen" => ("HLEN", Mode::Plain, false),
            "zadd" => ("ZADD", Mode::Plain, false),
            "zrem" => ("ZREM", Mode::List, false),
            "zscore" => ("ZSCORE", Mode::Plain, false),
            "zcard" => ("ZCARD", Mode::Plain, false),
            "zrangebyscore" => ("ZRANGEBYSCORE", Mode::Plain, false),
            "lpush" => ("LPUSH", Mode::List, false),
            "rpush" => ("RPUSH", Mode::List, false),
            "lrem" => ("LREM", Mode::Plain, false),
            "llen" => ("LLEN", Mode::Plain, false),
            "lrange" => ("LRANGE", Mode::Plain, false),
            "rpoplpush" => ("RPOPLPUSH", Mode::Plain, false),
            "brpoplpush" => ("BRPOPLPUSH", Mode::Plain, false),
            "lmove" => ("LMOVE", Mode::Plain, false),
            "sadd" => ("SADD", Mode::List, false),
            "srem" => ("SREM", Mode::List, false),
            "smembers" => ("SMEMBERS", Mode::Plain, false),
            "sismember" => ("SISMEMBER", Mode::Plain, false),
            "del" => ("DEL", Mode::List, true),
            "get" if args.len() == 1 => ("GET", Mode::Plain, true),
            "set" if args.len() >= 2 => ("SET", Mode::Plain, true),
            "exists" => ("EXISTS", Mode::List, true),
            "expire" => ("EXPIRE", Mode::Plain, true),
            "incr" => ("INCRBY", Mode::Plain, true),
            "publish" => ("PUBLISH", Mode::Plain, true),
            _ => return None,
        };
        if args.is_empty() {
            return None;
        }
        if let Some(recv) = recv {
            let t = self.text(recv).to_ascii_lowercase();
            if generic && !RECEIVER_WORDS.iter().any(|w| t.contains(w)) {
                return None;
            }
            if peel_ref(recv).kind() == "identifier" {
                if let Some(Value::Call { path, .. }) = self.scope.locals.get(t.as_str()) {
                    if path
                        .iter()
                        .any(|p| p.ends_with("Map") || p.ends_with("Set"))
                    {
                        return None;
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut open = false;
        let mut tail = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if i == 0 && mode != Mode::List {
                out.push(self.value(*a, 0));
                continue;
            }
            match mode {
                Mode::Plain => out.push(self.value(*a, 0)),
                Mode::List => {
                    if let Some(coll) = self.spread(*a, &mut out) {
                        open = true;
                        tail.push(coll);
                    }
                }
                Mode::Pairs => {
                    let v = self.value(*a, 0);
                    flatten_pairs(v, &mut out);
                }
            }
        }
        Some(Command {
            name: name.to_string(),
            name_span: self.span(name_node),
            args: out,
            open_tail: open,
            tail,
            span: self.span(call),
            func: self.cur_func,
        })
    }
}

/// The last identifier of `self.keys` → `keys`.
fn short_tail(t: &str) -> &str {
    t.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|s| !s.is_empty())
        .unwrap_or("")
}

/// `[("a", x), ("b", y)]`, `HashMap::from([..])`, `vec![..]` → `a, x, b, y`.
fn flatten_pairs(v: Value, out: &mut Vec<Value>) {
    match v {
        Value::List { items, .. } => {
            for item in items {
                match item {
                    Value::List { items, .. } => out.extend(items),
                    Value::Map { pairs, .. } => {
                        for (k, v) in pairs {
                            out.push(k);
                            out.push(v);
                        }
                    }
                    other => out.push(other),
                }
            }
        }
        Value::Map { pairs, .. } => {
            for (k, v) in pairs {
                out.push(k);
                out.push(v);
            }
        }
        Value::Call { path, mut args, .. }
            if args.len() == 1 && path.last().is_some_and(|l| l == "from" || l == "from_iter") =>
        {
            let inner = args.remove(0);
            if matches!(inner, Value::List { .. }) {
                flatten_pairs(inner, out);
            } else {
                out.push(inner);
            }
        }
        other => out.push(other),
    }
}
