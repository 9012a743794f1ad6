//! Method chains as Redis facts: `redis::cmd("X").arg(..)`, pipelines,
//! typed command methods (`con.hset(..)`), script invocations
//! (`SCRIPT.key(..).invoke(..)`, fred's `evalsha`), builders kept in a
//! variable and added to in loops.

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::extract::sends::{self, Seq};
use crate::facts::{Command, Span, Value};
use crate::parse::named_children;

use super::client::{lookup, CLIENTS};
use super::paths::path_segments;
use super::{args_of, callee, is_comment, method_of, node_key, peel_ref, Cx, MAX_DEPTH};
use crate::extract::clients::{Args, Method, Receiver, Sends};

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
pub(super) enum Target {
    /// `redis::cmd(..)`: the command at this index.
    Cmd(usize),
    /// `redis::pipe()`: the command last started by `.cmd(..)`, if any.
    Pipe(Option<usize>),
    /// A script invocation at this index of `script_calls`.
    Invoke(usize),
    /// `Cmd::new()`: a command whose first `.arg(..)` is its name.
    Nameless,
}

/// A variable holding a command, pipeline or invocation under construction.
#[derive(Clone, Copy)]
pub(super) struct Builder {
    pub(super) target: Target,
    /// Where the builder was made (to tell loops that add to it).
    created: usize,
    /// An invocation not run yet (`let mut inv = script.key(k)`): a call
    /// only once a statement runs it.
    pub(super) pending: bool,
    /// The chain that made it shows a script call: a script it names, or
    /// `prepare_invoke()` (`.key(k)` alone is also other builders').
    pub(super) shown: bool,
}

/// One method call of a chain: `.arg(x)`.
struct Link<'t> {
    /// Its row in the table of client methods, if it is a client method.
    spec: Option<&'static Method>,
    name: Node<'t>,
    receiver: Node<'t>,
    args: Vec<Node<'t>>,
    call: Node<'t>,
}

/// A chain while its links are read.
struct ChainState<'t> {
    /// What `.arg(..)` and `.key(..)` add to.
    target: Option<Target>,
    /// The chain sits in a loop (or a closure) that its builder was made
    /// outside of: what it adds has a count we cannot see.
    in_loop: bool,
    /// The collection that loop iterates, when it is a `for`.
    loop_coll: Option<Value>,
    /// A link runs or prepares a script call (`.invoke(..)`).
    invokes: bool,
    /// The chain is bound by `let` to a variable.
    bound: bool,
    /// The script call it makes is pending ([`Builder::pending`]).
    pending: bool,
    /// It shows a script call ([`Builder::shown`]).
    shown: bool,
    /// The chain's base expression, and its value once asked for.
    base: Node<'t>,
    base_value: Option<Value>,
    span: Span,
}

/// What one `.arg(..)` or `.key(..)` adds.
enum Added {
    /// These values, in order.
    Values(Vec<Value>),
    /// A count we cannot see, from this collection if known.
    Open(Option<Value>),
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
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
                    let Some(func) = callee(cur) else {
                        break;
                    };
                    if func.kind() != "field_expression" {
                        break;
                    }
                    let (Some(recv), Some(field)) = (
                        func.child_by_field_id(F.value),
                        func.child_by_field_id(F.field),
                    ) else {
                        break;
                    };
                    if cur != top {
                        inner.push(node_key(cur));
                    }
                    let args = args_of(cur);
                    links.push(Link {
                        spec: lookup(&self.text(field), args.len()),
                        name: field,
                        receiver: recv,
                        args,
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
    fn loop_since<'t>(&self, n: Node<'t>, created: usize) -> Option<Node<'t>>
    where
        'r: 't,
    {
        for p in self.ancestors(n, 256) {
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
        }
        None
    }

    /// The collection a loop iterates, when it is a `for` loop:
    /// `for k in keys`, `for k in keys.iter()`, `for k in &keys`.
    fn loop_collection(&mut self, lp: Node<'_>) -> Option<Value> {
        if lp.kind() != "for_expression" {
            return None;
        }
        let v = lp.child_by_field_id(F.value)?;
        Some(self.collection_value(v))
    }

    /// A collection expression without its iterator adapters:
    /// `keys.iter().cloned()` → `keys`.
    pub(super) fn collection_value(&mut self, n: Node<'_>) -> Value {
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

    pub(super) fn new_command(&mut self, name: &str, name_span: Span, span: Span) -> usize {
        let name = name.to_ascii_uppercase();
        let command = sends::client_command(
            name,
            name_span,
            Vec::new(),
            false,
            Vec::new(),
            span,
            self.cur_func,
        );
        self.facts.commands.push(command);
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
            // A list whose tail the code does not show: its count is open.
            Value::List { items, tail, .. } => {
                out.extend(items);
                return tail.into_iter().next();
            }
            other => out.push(other),
        }
        None
    }

    /// A chain whose top is a statement or expression: commands, pipelines,
    /// script invocations, builders continued from a variable. Each link is
    /// read as its row of the client method table says.
    pub(super) fn chain_statement(&mut self, top: Node<'_>) {
        self.read_chain(top, None);
    }

    /// A chain, as [`Cx::chain_statement`] reads it; `run_at`: the chain
    /// builds a script call that a call around it runs there
    /// (`pipe.invoke_script(&script.key(k))`).
    pub(super) fn read_chain(&mut self, top: Node<'_>, run_at: Option<Span>) {
        let (base, links) = self.chain(top);
        let var = run_at.is_none().then(|| self.let_name(top)).flatten();
        let (target, continued) = self.chain_start(base, top);
        let runs = run_at.is_some()
            || links
                .iter()
                .any(|l| l.spec.is_some_and(|s| s.sends.invokes()));
        if runs && continued.is_some() {
            // A statement that runs a pending invocation makes it a call.
            self.run_builder(&self.text(base));
        }
        let lp = continued.and_then(|c| self.loop_since(top, c));
        let mut st = ChainState {
            target,
            in_loop: lp.is_some(),
            loop_coll: lp.and_then(|l| self.loop_collection(l)),
            invokes: runs,
            // Only a function's end settles a pending invocation.
            bound: var.is_some() && self.cur_func.is_some(),
            pending: false,
            shown: false,
            base,
            base_value: None,
            span: run_at.unwrap_or_else(|| self.span(top)),
        };
        let nameless = target == Some(Target::Nameless);
        for link in &links {
            self.read_link(link, &mut st);
        }
        if let (true, Some(Target::Cmd(i)), Some(_)) = (nameless, st.target, continued) {
            // `c.arg("HSET")` on a variable that held `Cmd::new()`: the
            // variable holds that command from here on.
            let name = self.text(base);
            if let Some(held) = self.scope.builders.get_mut(&name) {
                held.target = Target::Cmd(i);
            }
        }
        if run_at.is_some() && st.target.is_none() {
            // Run whole: the invocation the value comes to.
            self.script_call_of_chain(&mut st, top);
        }
        let ran = links
            .last()
            .is_some_and(|l| l.spec.is_some_and(|s| s.sends.runs()));
        if let (Some(var), Some(t), None, false) = (var, st.target, continued, ran) {
            // A pending builder bound again stays, under a name no code
            // has, for the function's end to settle.
            if let Some(old) = self.scope.builders.get(&var).copied() {
                if let (true, Target::Invoke(i)) = (old.pending, old.target) {
                    self.scope.builders.insert(format!("\0{i}"), old);
                }
            }
            self.scope.builders.insert(
                var,
                Builder {
                    target: t,
                    created: top.start_byte(),
                    pending: st.pending,
                    shown: st.shown,
                },
            );
        }
    }

    /// What a chain starts from: `redis::cmd("X")`, `redis::pipe()`,
    /// `Pipeline::new()`, a typed `Cmd::hset(..)`, or a variable holding a
    /// builder (then also where the builder was made).
    fn chain_start(&mut self, base: Node<'_>, top: Node<'_>) -> (Option<Target>, Option<usize>) {
        if base.kind() == "identifier" {
            return match self.scope.builders.get(&self.text(base)) {
                Some(b) => (Some(b.target), Some(b.created)),
                None => (None, None),
            };
        }
        if base.kind() != "call_expression" {
            return (None, None);
        }
        let func = base.child_by_field_id(F.function);
        let path = func
            .filter(|f| matches!(f.kind(), "identifier" | "scoped_identifier"))
            .map(|f| path_segments(&self.text(f)))
            .unwrap_or_default();
        let last = path.last().map(|s| s.as_str()).unwrap_or("");
        let owner = path.len().checked_sub(2).map(|i| path[i].as_str());
        let args = args_of(base);
        let target = if last == "cmd" && args.len() == 1 {
            let span = self.span(top);
            match self.name_arg(args[0]) {
                Some((name, name_span)) => Some(self.new_command(&name, name_span, span)),
                None => {
                    let v = self.value(args[0], 0);
                    self.defer_name(v, span)
                }
            }
            .map(Target::Cmd)
        } else if (last == "pipe" && args.is_empty()) || owner == Some("Pipeline") {
            Some(Target::Pipe(None))
        } else if owner == Some("Cmd") && matches!(last, "new" | "default") && args.is_empty() {
            Some(Target::Nameless)
        } else if owner == Some("Cmd") {
            let name_node = func.and_then(|f| f.child_by_field_id(F.name));
            let spec = lookup(last, args.len());
            match (name_node, spec) {
                (Some(name_node), Some(spec)) => self
                    .typed_command(spec, None, &args, name_node, base)
                    .map(|cmd| {
                        self.facts.commands.push(cmd);
                        Target::Cmd(self.facts.commands.len() - 1)
                    }),
                _ => None,
            }
        } else {
            None
        };
        (target, None)
    }

    /// One link of a chain, as its method's row says.
    fn read_link(&mut self, link: &Link<'_>, st: &mut ChainState<'_>) {
        let Some(spec) = link.spec else {
            return;
        };
        match spec.sends {
            Sends::PipelineCommand => {
                let i = match self.name_arg(link.args[0]) {
                    Some((name, name_span)) => Some(self.new_command(&name, name_span, st.span)),
                    None => {
                        let v = self.value(link.args[0], 0);
                        self.defer_name(v, st.span)
                    }
                };
                if let Some(i) = i {
                    st.target = Some(Target::Pipe(Some(i)));
                }
            }
            // `Cmd::new().arg("HSET")`: the first argument names the
            // command, as `redis::cmd("HSET")` does.
            Sends::Arg if st.target == Some(Target::Nameless) => {
                let i = match self.name_arg(link.args[0]) {
                    Some((name, name_span)) => Some(self.new_command(&name, name_span, st.span)),
                    None => {
                        let v = self.value(link.args[0], 0);
                        self.defer_name(v, st.span)
                    }
                };
                st.target = i.map(Target::Cmd);
            }
            Sends::Arg => {
                // `script.arg(x)` starts a script call as `.key(k)` does.
                if st.target.is_none() {
                    self.script_call_of_chain(st, link.receiver);
                }
                self.add_arg(link.args[0], st)
            }
            Sends::ScriptKey | Sends::PrepareInvoke | Sends::Invoke => {
                st.shown |= spec.sends == Sends::PrepareInvoke;
                if self.script_call_of_chain(st, link.receiver) && spec.sends == Sends::ScriptKey {
                    if let [key] = link.args.as_slice() {
                        self.add_key(*key, st);
                    }
                }
            }
            Sends::Eval(_) if !self.receiver_fits(spec.receiver, link.receiver) => {}
            Sends::Eval(_) => match link.args.as_slice() {
                [builder] => self.built_eval(*builder, st.span),
                _ => self.fred_eval(link.receiver, &link.args, st.span),
            },
            Sends::InvokeArgument => self.invoke_argument(link.name, link.call, link.args[0]),
            Sends::Command(..) => {
                let on_pipe = matches!(st.target, Some(Target::Pipe(_)));
                let recv = (!on_pipe).then_some(link.receiver);
                if let Some(cmd) = self.typed_command(spec, recv, &link.args, link.name, link.call)
                {
                    self.facts.commands.push(cmd);
                }
            }
            Sends::Named => self.named_command(spec, link.receiver, &link.args, link.call),
            Sends::Query | Sends::Batch | Sends::Run(_) | Sends::Register => {}
        }
    }

    /// `.arg(x)`: adds to the command, the pipeline's current command or
    /// the script call the chain builds.
    fn add_arg(&mut self, arg: Node<'_>, st: &ChainState<'_>) {
        match st.target {
            Some(Target::Cmd(i)) | Some(Target::Pipe(Some(i))) => {
                let added = self.added(arg, st);
                let Some(c) = self.facts.commands.get_mut(i) else {
                    return;
                };
                match added {
                    Added::Open(coll) => {
                        c.open_tail = true;
                        if let Some(coll) = coll {
                            if !c.tail.contains(&coll) {
                                c.tail.push(coll);
                            }
                        }
                    }
                    Added::Values(vals) => c.args.extend(vals),
                }
            }
            Some(Target::Invoke(i)) => {
                let added = self.added(arg, st);
                if let Some(c) = self.facts.script_calls.get_mut(i) {
                    match added {
                        Added::Open(_) => c.open_args = true,
                        Added::Values(vals) => c.args.extend(vals),
                    }
                }
            }
            _ => {}
        }
    }

    /// `.key(k)` on the script call the chain builds.
    fn add_key(&mut self, key: Node<'_>, st: &ChainState<'_>) {
        let Some(Target::Invoke(i)) = st.target else {
            return;
        };
        let added = self.added(key, st);
        let Some(c) = self.facts.script_calls.get_mut(i) else {
            return;
        };
        match added {
            Added::Open(coll) => {
                c.open_keys = true;
                if c.keys_from.is_none() {
                    c.keys_from = coll;
                }
            }
            Added::Values(vals) => c.keys.extend(vals),
        }
    }

    /// What one `.arg(..)` or `.key(..)` adds: open when it is added in a
    /// loop or spreads a collection we cannot see.
    fn added(&mut self, n: Node<'_>, st: &ChainState<'_>) -> Added {
        let mut vals = Vec::new();
        let open = self.spread(n, &mut vals);
        if st.in_loop {
            Added::Open(st.loop_coll.clone())
        } else if let Some(coll) = open {
            Added::Open(Some(coll))
        } else {
            Added::Values(vals)
        }
    }

    /// Makes the chain a script call, started on its base (a script, or a
    /// constant holding one) unless it is one already. Returns false when
    /// it is not one: the chain builds a command, or its base is not a
    /// script and no link invokes one.
    fn script_call_of_chain(&mut self, st: &mut ChainState<'_>, on: Node<'_>) -> bool {
        match st.target {
            Some(Target::Invoke(_)) => return true,
            Some(Target::Cmd(_) | Target::Pipe(_) | Target::Nameless) => return false,
            None => {}
        }
        // The script is what the first script method is called on
        // (`scripts.ack().key(k)`: what `scripts.ack()` gives).
        let script = match &st.base_value {
            Some(v) if on == st.base => v.clone(),
            _ => {
                let v = self
                    .invocation_script(on)
                    .unwrap_or_else(|| self.value(on, 0));
                st.base_value = Some(v.clone());
                v
            }
        };
        let known = matches!(script, Value::ScriptRef { .. } | Value::Const { .. });
        if !(known || st.invokes || st.bound) {
            return false;
        }
        // Only an invocation is a call: one bound to a variable is a call
        // once a statement runs it.
        st.pending = st.bound && !st.invokes;
        st.shown |= known;
        let call = sends::script_call(script, Seq::empty(), Seq::empty(), st.span, self.cur_func);
        self.facts.script_calls.push(call);
        st.target = Some(Target::Invoke(self.facts.script_calls.len() - 1));
        true
    }

    /// At the end of a function's body: a body that ends in a variable
    /// holding an invocation it built (`let mut inv =
    /// S.prepare_invoke(); inv.key(k); inv`) returns the invocation unrun;
    /// a pending invocation nothing ran is no call, and goes.
    pub(super) fn returns_builder(&mut self, block: Node<'_>) {
        self.mark_returned(block);
        let mut unrun: Vec<usize> = self
            .scope
            .builders
            .values()
            .filter(|b| b.pending)
            .filter_map(|b| match b.target {
                Target::Invoke(i) => Some(i),
                _ => None,
            })
            .collect();
        unrun.sort_unstable();
        unrun.dedup();
        // The function ends: no builder of its own is read after this.
        for i in unrun.into_iter().rev() {
            if i < self.facts.script_calls.len() {
                self.facts.script_calls.remove(i);
            }
        }
    }

    fn mark_returned(&mut self, block: Node<'_>) {
        let Some(last) = named_children(block)
            .into_iter()
            .rev()
            .find(|c| !is_comment(*c))
        else {
            return;
        };
        let last = match last.kind() {
            "return_expression" => named_children(last).into_iter().next(),
            "expression_statement" => named_children(last)
                .into_iter()
                .next()
                .filter(|r| r.kind() == "return_expression")
                .and_then(|r| named_children(r).into_iter().next()),
            _ => Some(last),
        };
        let Some(var) = last.map(peel_ref).filter(|v| v.kind() == "identifier") else {
            return;
        };
        let Some(b) = self.scope.builders.get_mut(&self.text(var)) else {
            return;
        };
        let Target::Invoke(i) = b.target else {
            return;
        };
        let Some(c) = self.facts.script_calls.get_mut(i) else {
            return;
        };
        // Returned unrun, it runs where its callers run it; where the chain
        // shows no script call, it stays pending: never seen run, it is no
        // evidence of a call.
        if !b.pending || b.shown {
            b.pending = false;
            c.returned = true;
        }
    }

    /// A typed command method, as its row says: `.hset(key, field, value)`,
    /// fred's `.hset(key, [(f, v), ..])`, `Cmd::hget(..)`. `recv` is `None`
    /// when the receiver is known to be a pipeline (or there is none).
    fn typed_command(
        &mut self,
        spec: &Method,
        recv: Option<Node<'_>>,
        args: &[Node<'_>],
        name_node: Node<'_>,
        call: Node<'_>,
    ) -> Option<Command> {
        let Sends::Command(name, shape) = spec.sends else {
            return None;
        };
        if args.is_empty() {
            return None;
        }
        if let Some(recv) = recv {
            if !self.receiver_fits(spec.receiver, recv) {
                return None;
            }
        }
        let (out, tail) = self.command_args(shape, args);
        let (name_span, span, open) = (self.span(name_node), self.span(call), !tail.is_empty());
        let name = name.to_string();
        Some(sends::client_command(
            name,
            name_span,
            out,
            open,
            tail,
            span,
            self.cur_func,
        ))
    }

    /// Whether a typed command's receiver fits its row's rule; and never a
    /// local variable holding a map or a set (`let m = HashMap::new()`).
    fn receiver_fits(&self, rule: Receiver, recv: Node<'_>) -> bool {
        let t = self.text(recv).to_ascii_lowercase();
        if !CLIENTS.admits(rule, &t) {
            return false;
        }
        if peel_ref(recv).kind() == "identifier" {
            if let Some(Value::Call { path, .. }) = self.scope.locals.get(t.as_str()) {
                if path
                    .iter()
                    .any(|p| p.ends_with("Map") || p.ends_with("Set"))
                {
                    return false;
                }
            }
        }
        true
    }

    /// A typed command's arguments on the wire, as `shape` says, and the
    /// collections spread whose items we cannot see (the open tail).
    pub(super) fn command_args(
        &mut self,
        shape: Args,
        args: &[Node<'_>],
    ) -> (Vec<Value>, Vec<Value>) {
        let mut out = Vec::new();
        let mut tail = Vec::new();
        for (i, a) in args.iter().enumerate() {
            match shape {
                Args::Plain | Args::Scores => out.push(self.value(*a, 0)),
                Args::Pairs if i == 0 => out.push(self.value(*a, 0)),
                Args::Pairs => {
                    let v = self.value(*a, 0);
                    flatten_pairs(v, &mut out);
                }
                Args::Spread => {
                    if let Some(coll) = self.spread(*a, &mut out) {
                        tail.push(coll);
                    }
                }
            }
        }
        (out, tail)
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
                    m @ Value::Map { .. } => flatten_pairs(m, out),
                    other => out.push(other),
                }
            }
        }
        Value::Map { pairs, .. } => out.extend(pairs.into_iter().flat_map(|(k, v)| [k, v])),
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
