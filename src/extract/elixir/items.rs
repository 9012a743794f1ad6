//! Definitions: `defmodule` scopes, `def`/`defp` clauses (every clause a
//! `FunctionDef`, with its parameters, local bindings and return value).

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{arguments, clause_patterns, do_block, sides, Cx, Env, Pending, Scope};
use crate::facts::{field, Command, FunctionDef, Seg, Value};
use crate::parse::named_children;

/// A local binding heavier than this is kept as unknown (guards against
/// `a = a <> a` doubling).
const MAX_BINDING_WEIGHT: usize = 2_000;

/// A rough size of a value, computed without recursion.
fn weight(v: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total += 1;
        match v {
            Value::Str(t) => {
                for s in &t.segs {
                    total += 1;
                    if let Seg::Value(inner) = s {
                        stack.push(inner);
                    }
                }
            }
            Value::List { items, tail, .. } => stack.extend(items.iter().chain(tail.iter())),
            Value::Map { pairs, .. } => {
                for (k, x) in pairs {
                    stack.push(k);
                    stack.push(x);
                }
            }
            Value::Call { args, .. } | Value::Op { args, .. } => stack.extend(args.iter()),
            _ => {}
        }
        if total > MAX_BINDING_WEIGHT * 4 {
            break;
        }
    }
    total
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `defmodule A.B do ... end`: a new scope for its body.
    pub(super) fn defmodule(&mut self, n: Node<'_>, scope: usize) -> usize {
        let Some(name) = self.module_name(n) else {
            return scope;
        };
        let module = nested(&self.module(scope), name);
        self.open_scope(Env {
            module,
            ..Env::default()
        })
    }

    /// The name a `defmodule` gives, as written.
    pub(super) fn module_name(&self, n: Node<'_>) -> Option<String> {
        arguments(n)
            .and_then(|a| named_children(a).into_iter().next())
            .filter(|a| a.kind() == "alias")
            .map(|a| self.text(a))
    }

    /// A scope with its own environment; returns the scope.
    fn open_scope(&mut self, env: Env) -> usize {
        let module = env.module.clone();
        self.envs.push(env);
        self.scopes.push(Scope {
            module,
            env: Some(self.envs.len() - 1),
        });
        self.scopes.len() - 1
    }

    /// The name node and parameter nodes of a `def`/`defp` head.
    pub(super) fn def_head(&self, n: Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>, Node<'t>)> {
        let args = arguments(n)?;
        let mut head = named_children(args).first().copied()?;
        if head.kind() == "binary_operator" && self.op(head) == "when" {
            head = head.child_by_field_id(F.left)?;
        }
        match head.kind() {
            "identifier" => Some((head, Vec::new(), head)),
            "call" => {
                let t = head.child_by_field_id(F.target)?;
                if t.kind() != "identifier" {
                    return None;
                }
                let ps = arguments(head).map(named_children).unwrap_or_default();
                Some((t, ps, head))
            }
            _ => None,
        }
    }

    /// Every function defined in the file, by module (for `import`s).
    pub(super) fn collect_defs(&self, root: Node<'t>) -> HashSet<(String, String)> {
        let mut out = HashSet::new();
        let mut stack = vec![(root, String::new())];
        while let Some((n, module)) = stack.pop() {
            let mut inner = module.clone();
            if n.kind() == "call" {
                match &*self.target(n) {
                    "defmodule" => {
                        if let Some(name) = self.module_name(n) {
                            inner = nested(&module, name);
                        }
                    }
                    "def" | "defp" | "defmacro" | "defmacrop" | "defdelegate" => {
                        if let Some((name, _, _)) = self.def_head(n) {
                            out.insert((module.clone(), self.text(name)));
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            for k in named_children(n) {
                stack.push((k, inner.clone()));
            }
        }
        out
    }

    /// `def name(params) when guard, do: body` or `... do body end`.
    pub(super) fn def(&mut self, n: Node<'t>, scope: usize) -> usize {
        let Some((name_node, param_nodes, head)) = self.def_head(n) else {
            return scope;
        };
        self.not_calls.insert(head.id());
        let args_kids = arguments(n).map(named_children).unwrap_or_default();
        let params: Vec<String> = param_nodes.iter().map(|p| self.param_name(*p)).collect();
        let module = self.module(scope);
        let defaults = param_nodes
            .iter()
            .filter(|p| p.kind() == "binary_operator" && self.op(**p) == "\\\\")
            .count();
        if defaults > 0 {
            // A head (with or without a body) gives every clause of the
            // function its defaults.
            let key = (module.clone(), self.text(name_node), params.len());
            let values = self.default_values(&param_nodes);
            let d = self.defaults.entry(key).or_insert((0, Vec::new()));
            d.0 = d.0.max(defaults);
            if d.1.is_empty() {
                d.1 = values;
            }
        }
        let body = do_block(n).or_else(|| self.keyword_arg(&args_kids, "do"));
        let func = body.map(|body| self.function_def(&module, name_node, &params, body));
        // `def`, not `defp`: code outside the tree may call it.
        let public = &*self.target(n) == "def";
        if let Some(f) = func.and_then(|f| self.facts.functions.get_mut(f)) {
            f.public = public;
        }
        let patterns: Vec<Option<Value>> = param_nodes
            .iter()
            .map(|p| self.literal_pattern(*p))
            .collect();
        if let Some(f) = func.and_then(|f| self.facts.functions.get_mut(f)) {
            if patterns.iter().any(Option::is_some) {
                f.patterns = patterns;
            }
        }
        let mut locals = self.tuple_params(&param_nodes);
        self.param_locals(&module, &self.text(name_node), &param_nodes, &mut locals);
        let inner = self.open_scope(Env {
            module,
            func,
            params,
            body_start: body.map_or(usize::MAX, |b| b.start_byte()),
            locals,
            ..Env::default()
        });
        if let Some(last) = body.and_then(|b| self.last_expression(b)) {
            self.clause_returns.insert(last.id());
        }
        if let (Some(body), Some(func)) = (body, func) {
            let env = self.envs.len() - 1;
            self.param_pattern_reads(&param_nodes, Some(env));
            self.pending.push(Pending { func, body, env });
        }
        inner
    }

    /// Records a clause with a body as a `FunctionDef` (numbered among the
    /// clauses of its name and arity; its return value comes at the end);
    /// returns its index.
    pub(super) fn function_def(
        &mut self,
        module: &str,
        name_node: Node<'_>,
        params: &[String],
        body: Node<'_>,
    ) -> usize {
        let name = self.text(name_node);
        let key = (module.to_string(), name.clone(), params.len());
        let counter = self.clauses.entry(key).or_insert(0);
        let clause = *counter;
        *counter += 1;
        self.facts.functions.push(FunctionDef {
            module: module.to_string(),
            name,
            params: params.to_vec(),
            returns: Value::unknown(self.text(body), self.span(body)),
            name_span: self.span(name_node),
            clause,
            defaults: 0,
            patterns: Vec::new(),
            default_values: Vec::new(),
            ordered: false,
            public: false,
        });
        self.facts.functions.len() - 1
    }

    /// A parameter that is a literal (`:enqueue`, `"ack"`, `2`, `nil`): the
    /// value a clause requires of its argument.
    pub(super) fn literal_pattern(&self, p: Node<'_>) -> Option<Value> {
        if !matches!(
            p.kind(),
            "atom" | "quoted_atom" | "string" | "charlist" | "integer" | "boolean" | "nil"
        ) {
            return None;
        }
        let v = self.value(p, None, 0);
        (v.as_str().is_some() || matches!(v, Value::Int { .. })).then_some(v)
    }

    /// Each parameter's default (`opts \\ []`), `None` for one without.
    fn default_values(&self, param_nodes: &[Node<'_>]) -> Vec<Option<Value>> {
        param_nodes
            .iter()
            .map(|p| {
                if p.kind() != "binary_operator" || self.op(*p) != "\\\\" {
                    return None;
                }
                let d = p.child_by_field_id(F.right)?;
                Some(self.value(d, None, 0))
            })
            .collect()
    }

    /// `def run(conn, {_name, sha, body}, keys)`: each variable of a tuple
    /// parameter holds its element of the argument (`.1` of parameter 1).
    fn tuple_params(&self, param_nodes: &[Node<'_>]) -> HashMap<String, Value> {
        let mut out = HashMap::new();
        for (index, p) in param_nodes.iter().enumerate() {
            if p.kind() != "tuple" {
                continue;
            }
            for (i, el) in named_children(*p).into_iter().enumerate() {
                let name = self.text(el);
                if el.kind() != "identifier" || name.starts_with('_') {
                    continue;
                }
                let param = Value::Param {
                    index,
                    name: "_".into(),
                    span: self.span(*p),
                };
                out.insert(name, field(i.to_string(), param, self.span(el)));
            }
        }
        out
    }

    /// A parameter's variable name, or `_` for a pattern.
    pub(super) fn param_name(&self, p: Node<'_>) -> String {
        match p.kind() {
            "identifier" => self.text(p),
            "binary_operator" => {
                let op = self.op(p);
                let (l, r) = (p.child_by_field_id(F.left), p.child_by_field_id(F.right));
                match op {
                    // `queue \\ "default"`
                    "\\\\" => l.map(|l| self.param_name(l)).unwrap_or_else(|| "_".into()),
                    // `%{q: q} = ctx` or `ctx = %{...}`
                    "=" => [r, l]
                        .into_iter()
                        .flatten()
                        .find(|x| x.kind() == "identifier")
                        .map(|x| self.text(x))
                        .unwrap_or_else(|| "_".into()),
                    _ => "_".into(),
                }
            }
            _ => "_".into(),
        }
    }

    /// Computes the return value of every clause, with all its bindings;
    /// records command heads never appended to.
    pub(super) fn finish_functions(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let returns = match self.returned_script(p.func, p.body) {
                Some(r) => r,
                None => match self.returns(p.body, p.env) {
                    Some(r) => r,
                    None => continue,
                },
            };
            if let Some(f) = self.facts.functions.get_mut(p.func) {
                f.returns = returns;
            }
        }
        let mut heads: Vec<Command> = Vec::new();
        for e in &mut self.envs {
            for (_, (c, used)) in e.heads.drain() {
                if !used {
                    heads.push(c);
                }
            }
        }
        heads.sort_by_key(|c| c.span.start);
        self.facts.commands.extend(heads);
    }

    /// A clause body's last expression (a `do` block's, or the `do:`
    /// value).
    pub(super) fn last_expression<'n>(&self, body: Node<'n>) -> Option<Node<'n>> {
        if body.kind() != "do_block" {
            return Some(body);
        }
        named_children(body)
            .into_iter()
            .rev()
            .find(|c| !c.kind().ends_with("_block") && c.kind() != "comment")
    }

    /// What a clause body returns: its last expression's value (unknown,
    /// with the expression's text, when it is not computable).
    pub(super) fn returns(&self, body: Node<'_>, env: usize) -> Option<Value> {
        let last = self.last_expression(body)?;
        // A whole-hash read's reply (or a map made from it), for the
        // field reads of its callers.
        if let Some(reply) = self.returned_reply(last, Some(env)) {
            return Some(reply);
        }
        Some(match self.value(last, Some(env), 0) {
            Value::Unknown { span, .. } => Value::unknown(self.text(last), span),
            returns => returns,
        })
    }

    /// `defp enqueue_script, do: """lua"""`: a clause that returns Lua
    /// in a string returns that script, named after the function.
    fn returned_script(&mut self, func: usize, body: Node<'_>) -> Option<Value> {
        let last = self.last_expression(body)?;
        let script = self.inline_script(last, None)?;
        let f = self.facts.functions.get(func)?;
        let (name, name_span) = (f.name.clone(), f.name_span);
        let index = self.push_script(Some(name), name_span, script);
        Some(Value::ScriptRef {
            index,
            span: self.span(last),
        })
    }

    /// `var = expr` inside a function: remembers the bound value.
    pub(super) fn binding(&mut self, n: Node<'t>, env: Option<usize>) {
        let Some(env) = env else {
            return;
        };
        let Some((l, r)) = sides(n) else {
            return;
        };
        if self
            .envs
            .get(env)
            .is_none_or(|e| n.start_byte() < e.body_start)
        {
            return;
        }
        self.row_binding(l, r, env);
        if l.kind() == "tuple" {
            let v = self.value(r, Some(env), 0);
            self.bind_tuple(l, &v, env);
            return;
        }
        if l.kind() == "map" {
            let v = self.value(r, Some(env), 0);
            let mut out = HashMap::new();
            self.pattern_locals(l, &v, &mut out);
            if let Some(e) = self.envs.get_mut(env) {
                e.locals.extend(out);
            }
            return;
        }
        if l.kind() != "identifier" {
            return;
        }
        let name = self.text(l);
        if name.starts_with('_') {
            return;
        }
        let captured = self.capture_of(r, self.module_of(Some(env)));
        if let Some(e) = self.envs.get_mut(env) {
            match captured {
                Some(c) => e.captures.insert(name.clone(), c),
                None => e.captures.remove(&name),
            };
        }
        if let Some(script) = self.inline_script(r, Some(env)) {
            // `script = "return redis.call(..)"`: a script named by a
            // local, which names it only in this file.
            let index = self.push_script(Some(name.clone()), self.span(l), script);
            self.facts.scripts[index].local = true;
            let v = Value::ScriptRef {
                index,
                span: self.span(r),
            };
            if let Some(e) = self.envs.get_mut(env) {
                e.locals.insert(name, v);
            }
            return;
        }
        self.bind_head(&name, r, env);
        let mut v = self.value(r, Some(env), 0);
        if weight(&v) > MAX_BINDING_WEIGHT {
            v = Value::unknown(self.text(r), self.span(r));
        }
        if let Some(e) = self.envs.get_mut(env) {
            e.locals.insert(name, v);
        }
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `{script, count} = Scripts.get(:name)`: each variable holds its
    /// element of what the call returns (`.0`, `.1`, …), so that a script
    /// looked up by name stays linked to that name.
    pub(super) fn bind_tuple(&mut self, pat: Node<'_>, v: &Value, env: usize) {
        if let Some((name, sha)) = self.ok_sha(pat, v) {
            if let Some(e) = self.envs.get_mut(env) {
                e.locals.insert(name, sha);
            }
            return;
        }
        if !matches!(v, Value::Call { .. } | Value::Op { .. } | Value::Map { .. }) {
            return;
        }
        for (i, el) in named_children(pat).into_iter().enumerate() {
            if el.kind() != "identifier" {
                continue;
            }
            let name = self.text(el);
            if name.starts_with('_') {
                continue;
            }
            let elem = match v {
                // A tuple the code shows: its element.
                Value::Map { pairs, .. } => match pairs.get(i) {
                    Some((Value::Int { value, .. }, x)) if *value == i as i64 => x.clone(),
                    _ => continue,
                },
                _ => field(i.to_string(), v.clone(), self.span(el)),
            };
            if let Some(e) = self.envs.get_mut(env) {
                e.locals.insert(name, elem);
            }
        }
    }

    /// `case get_sha(:name) do nil -> ..; sha -> .. end`: a clause that
    /// binds the whole subject to a variable, or its elements to a tuple's.
    pub(super) fn case_bindings(&mut self, n: Node<'_>, env: Option<usize>) {
        let Some(env) = env else {
            return;
        };
        let Some(subject) = arguments(n).and_then(|a| named_children(a).into_iter().next()) else {
            return;
        };
        let Some(block) = do_block(n) else {
            return;
        };
        let v = self.value(subject, Some(env), 0);
        if !matches!(v, Value::Call { .. } | Value::Op { .. } | Value::Map { .. }) {
            return;
        }
        for pat in clause_patterns(block) {
            match pat.kind() {
                "identifier" => {
                    let name = self.text(pat);
                    if name.starts_with('_') {
                        continue;
                    }
                    if let Some(e) = self.envs.get_mut(env) {
                        e.locals.insert(name, v.clone());
                    }
                }
                "tuple" => self.bind_tuple(pat, &v, env),
                _ => {}
            }
        }
    }
}

/// `A.B` inside `parent`: `parent.A.B` (or `A.B` at the top).
pub(super) fn nested(parent: &str, name: String) -> String {
    if parent.is_empty() {
        name
    } else {
        format!("{parent}.{name}")
    }
}
