//! Hash fields read back: the reply of an `HGETALL` (or a map made from
//! it) followed through matches, `case` clauses and pipes to the fields
//! the code takes from it (`Map.get`, `row["f"]`, map patterns). A field
//! taken from a parameter is a read of what the callers pass there
//! (`FieldRead::row`), and a reply passed to a function of the code base
//! is a [`hash_reply`] among the call's arguments: the link joins them.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source as _;
use tree_sitter::Node;

use super::{arguments, call_args, clause_patterns, do_block, sides, Cx};
use crate::facts::{hash_reply, FieldRead, Template, Value, RECEIVER};
use crate::parse::named_children;

/// What a local holding an `HGETALL` reply knows: the key read, and the
/// command's name as a value when the link has to follow it.
pub(super) type Row = (Value, Option<Value>);

/// A call of a function of the code base (not an operation of the value
/// model), whose path starts with a letter.
fn is_code_call(v: &Value) -> bool {
    matches!(v, Value::Call { path, .. }
        if path.first().is_some_and(|p| p.starts_with(|c: char| c.is_ascii_alphabetic())))
}

/// A command list that reads a whole hash: `["HGETALL", key]`, or
/// `[Verbs.hgetall(), key]` (its name a function without arguments gives,
/// which the link follows): the key, and that head when the link has to
/// read it.
pub(super) fn whole_hash_read(items: &[Value]) -> Option<Row> {
    match items.first()? {
        h if h
            .as_str()
            .is_some_and(|h| h.eq_ignore_ascii_case("HGETALL")) =>
        {
            Some((items.get(1)?.clone(), None))
        }
        h @ Value::Call { args, .. } if args.is_empty() && items.len() == 2 => {
            Some((items[1].clone(), Some(h.clone())))
        }
        _ => None,
    }
}

/// Where the map a field is taken from comes from.
#[derive(Clone)]
pub(super) enum Source {
    /// A whole-hash read in this function.
    Read(Row),
    /// A value the link follows: a parameter of the function (what its
    /// callers pass), or a call of the code base (what it returns).
    Flow(Value),
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `{:ok, row}` or `row` on the left of a match: the variable.
    fn ok_var(&self, l: Node<'_>) -> Option<String> {
        let var = match l.kind() {
            "identifier" => l,
            "tuple" => match named_children(l).as_slice() {
                [ok, v] if self.text(*ok) == ":ok" && v.kind() == "identifier" => *v,
                _ => return None,
            },
            _ => return None,
        };
        let name = self.text(var);
        (!name.starts_with('_')).then_some(name)
    }

    /// The key an `HGETALL` reply read, when `n` is that reply or a map
    /// made from it: a Redix call whose command list is `HGETALL`, a local
    /// holding one, or either piped through `Enum`/`Map`/`Stream` or a
    /// helper whose name says `map`.
    fn hgetall_source(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Option<Row> {
        match self.source(n, env, depth)? {
            Source::Read(row) => Some(row),
            Source::Flow(_) => None,
        }
    }

    /// The whole-hash read `n` is, or the parameter it is, as
    /// [`Cx::hgetall_source`] follows it.
    fn source(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Option<Source> {
        if depth > 16 {
            return None;
        }
        match n.kind() {
            "identifier" => {
                let name = self.text(n);
                let e = env.and_then(|e| self.envs.get(e));
                if let Some(row) = e.and_then(|e| e.rows.get(&name)) {
                    return Some(Source::Read(row.clone()));
                }
                match self.ident(n, env) {
                    p @ Value::Param { index, .. } if index != RECEIVER => Some(Source::Flow(p)),
                    c @ Value::Call { .. } if is_code_call(&c) => Some(Source::Flow(c)),
                    _ => None,
                }
            }
            "binary_operator" if self.op(n) == "|>" => {
                let (l, r) = sides(n)?;
                self.hgetall_call(r, Some(l), env, depth)
            }
            "call" => self.hgetall_call(n, None, env, depth),
            // `(expr)`: a block is its last expression.
            "block" => {
                let last = named_children(n)
                    .into_iter()
                    .rev()
                    .find(|c| c.kind() != "comment")?;
                self.source(last, env, depth + 1)
            }
            _ => None,
        }
    }

    /// What a clause returns when its last expression is an `HGETALL`
    /// reply (or a map made from it): not a Redix call that returns
    /// `{:ok, reply}`, which callers take apart.
    pub(super) fn returned_reply(&self, last: Node<'_>, env: Option<usize>) -> Option<Value> {
        let call = match last.kind() {
            "binary_operator" if self.op(last) == "|>" => sides(last).map(|(_, r)| r),
            "call" => Some(last),
            _ => None,
        };
        let target = call.and_then(|c| c.child_by_field_id(F.target));
        if target.is_some_and(|t| {
            let t = self.text(t);
            t.starts_with("Redix.") && !t.ends_with('!')
        }) {
            return None;
        }
        self.reply_arg(last, env)
    }

    /// An argument of a call of the code base that is an `HGETALL` reply
    /// (or a map made from it): the reply, as the callee's parameter
    /// receives it.
    pub(super) fn reply_arg(&self, n: Node<'_>, env: Option<usize>) -> Option<Value> {
        let (key, command) = self.hgetall_source(n, env, 0)?;
        let span = self.span(n);
        let command = command.unwrap_or_else(|| Value::Str(Template::lit("HGETALL", span)));
        Some(hash_reply(command, key, span))
    }

    /// A call whose result is an `HGETALL` reply (or a map made from one):
    /// the key read.
    fn hgetall_call(
        &self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        env: Option<usize>,
        depth: usize,
    ) -> Option<Source> {
        if n.kind() != "call" {
            return None;
        }
        let module = self.module_of(env).to_string();
        let (path, args) = match self.called(n, piped, env) {
            Some(a) => (a.path, a.args),
            None => (
                self.callee(n.child_by_field_id(F.target)?, &module)?,
                call_args(n, piped),
            ),
        };
        let first = path.first().map(String::as_str).unwrap_or("");
        let last = path.last().map(String::as_str).unwrap_or("");
        if first == "Redix" && path.len() == 2 {
            return self.hgetall_key(&args, env).map(Source::Read);
        }
        if matches!(path.join(".").as_str(), "then" | "Kernel.then") {
            // `x |> then(fn v -> body end)`: the body, `v` being `x`.
            let (param, body) = self.one_param_fn(*args.get(1)?)?;
            if body.kind() == "identifier" && self.text(body) == param {
                return self.source(*args.first()?, env, depth + 1);
            }
            return self.hgetall_source(body, env, depth + 1).map(Source::Read);
        }
        let converts = (path.len() == 2 && matches!(first, "Enum" | "Map" | "Stream"))
            || last.to_ascii_lowercase().contains("map");
        if converts {
            return self.source(*args.first()?, env, depth + 1);
        }
        None
    }

    /// `Redix.command(conn, ["HGETALL", key])`: the key of the first
    /// `HGETALL` command list among the arguments. A list whose name a
    /// function without arguments gives (`[Verbs.hgetall(), key]`, in
    /// another file) reads its key when the link follows that name to
    /// `HGETALL`.
    fn hgetall_key(&self, args: &[Node<'_>], env: Option<usize>) -> Option<Row> {
        args.iter().find_map(|a| match self.value(*a, env, 0) {
            Value::List { items, .. } => whole_hash_read(&items),
            _ => None,
        })
    }

    /// `case Redix.command(conn, ["HGETALL", k]) do {:ok, row} -> .. end`:
    /// the clause variables hold the reply.
    pub(super) fn case_rows(&mut self, n: Node<'_>, env: Option<usize>) {
        let Some(subject) = arguments(n).and_then(|a| named_children(a).into_iter().next()) else {
            return;
        };
        let Some(key) = self.hgetall_source(subject, env, 0) else {
            return;
        };
        let Some(block) = do_block(n) else {
            return;
        };
        let mut vars = Vec::new();
        for pat in clause_patterns(block) {
            if let Some(v) = self.ok_var(pat) {
                vars.push(v);
            }
        }
        if let Some(e) = env.and_then(|e| self.envs.get_mut(e)) {
            for v in vars {
                e.rows.insert(v, key.clone());
            }
        }
    }

    /// Records a field read of what `source` holds, when the field is a
    /// literal (or a function without arguments the link follows to one).
    fn push_read(&mut self, source: Source, field: Value, env: Option<usize>) {
        let bare = matches!(&field, Value::Call { args, .. } if args.is_empty());
        if !bare && !matches!(field, Value::Str(_) | Value::Atom { .. }) {
            return;
        }
        let span = field.span();
        let ((key, command), row) = match source {
            Source::Read(row) => (row, None),
            Source::Flow(p) => ((Value::unknown("row", p.span()), None), Some(p)),
        };
        self.facts.field_reads.push(FieldRead {
            key,
            field,
            span,
            func: self.func_of(env),
            command,
            row,
        });
    }

    /// `Map.get(row, "payload")`, `row |> Map.fetch!("payload")`.
    pub(super) fn field_read_call(
        &mut self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        env: Option<usize>,
    ) {
        let Some(target) = n.child_by_field_id(F.target) else {
            return;
        };
        let (written, args) = match self.called(n, piped, env) {
            Some(a) => (a.written, a.args),
            None => (self.text(target), call_args(n, piped)),
        };
        if !matches!(
            written.as_str(),
            "Map.get" | "Map.fetch" | "Map.fetch!" | "Map.get_lazy" | "Map.has_key?" | "Map.pop"
        ) {
            return;
        }
        let [row, field, ..] = args.as_slice() else {
            return;
        };
        let Some(source) = self.source(*row, env, 0) else {
            return;
        };
        let field = self.value(*field, env, 0);
        self.push_read(source, field, env);
    }

    /// `row |> then(fn v -> .. end)`: inside the function, `v` holds the
    /// reply `row` holds.
    pub(super) fn then_rows(&mut self, n: Node<'_>, piped: Option<Node<'_>>, env: Option<usize>) {
        if !matches!(self.target(n).as_ref(), "then" | "Kernel.then") {
            return;
        }
        let args = call_args(n, piped);
        let (Some(x), Some(fun)) = (args.first(), args.get(1)) else {
            return;
        };
        let Some((param, _)) = self.one_param_fn(*fun) else {
            return;
        };
        let Some(key) = self.hgetall_source(*x, env, 0) else {
            return;
        };
        if let Some(e) = env.and_then(|e| self.envs.get_mut(e)) {
            e.rows.insert(param, key);
        }
    }

    /// `row["payload"]`.
    pub(super) fn field_read_access(&mut self, n: Node<'_>, env: Option<usize>) {
        let (Some(target), Some(field)) =
            (n.child_by_field_id(F.target), n.child_by_field_id(F.key))
        else {
            return;
        };
        let Some(source) = self.source(target, env, 0) else {
            return;
        };
        let field = self.value(field, env, 0);
        self.push_read(source, field, env);
    }

    /// `{:ok, row} = Redix.command(conn, ["HGETALL", k])` or `row = ..`:
    /// `row` holds the reply (or no longer does); `%{"payload" => p} = row`
    /// reads fields.
    pub(super) fn row_binding(&mut self, l: Node<'_>, r: Node<'_>, env: usize) {
        if let Some(var) = self.ok_var(l) {
            let key = self.hgetall_source(r, Some(env), 0);
            if let Some(e) = self.envs.get_mut(env) {
                match key {
                    Some(k) => {
                        e.rows.insert(var, k);
                    }
                    None => {
                        e.rows.remove(&var);
                    }
                }
            }
        }
        if l.kind() == "map" {
            if let Some(source) = self.source(r, Some(env), 0) {
                self.map_pattern_reads(l, source, Some(env));
            }
        }
    }

    /// `%{"payload" => p, "state" => s} = row`.
    fn map_pattern_reads(&mut self, map: Node<'_>, source: Source, env: Option<usize>) {
        if let Value::Map { pairs, .. } = self.value(map, env, 0) {
            for (field, _) in pairs {
                self.push_read(source.clone(), field, env);
            }
        }
    }

    /// `def f(%{"payload" => p} = row)`, `def f(%{"payload" => p})`: the
    /// fields a map pattern of a parameter takes from what callers pass.
    pub(super) fn param_pattern_reads(&mut self, params: &[Node<'_>], env: Option<usize>) {
        for (index, p) in params.iter().enumerate() {
            let mut pats = vec![*p];
            if p.kind() == "binary_operator" && self.op(*p) == "=" {
                pats = sides(*p).map(|(l, r)| vec![l, r]).unwrap_or_default();
            }
            // A struct pattern (`%T{..}`) matches no hash's reply.
            let plain = |m: &Node<'_>| {
                m.kind() == "map" && !named_children(*m).iter().any(|c| c.kind() == "struct")
            };
            for map in pats.into_iter().filter(plain) {
                let param = Value::Param {
                    index,
                    name: self.param_name(*p),
                    span: self.span(*p),
                };
                self.map_pattern_reads(map, Source::Flow(param), env);
            }
        }
    }
}
