//! Definitions: `defmodule` scopes, `def`/`defp` clauses (every clause a
//! `FunctionDef`, with its parameters, local bindings and return value).

use std::collections::HashSet;

use tree_sitter::Node;

use super::{arguments, Cx, Env, Pending, Scope};
use crate::facts::{Command, FunctionDef, Seg, Value};
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
            Value::Call { args, .. } => stack.extend(args.iter()),
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
        let name = arguments(n)
            .and_then(|a| named_children(a).into_iter().next())
            .filter(|a| a.kind() == "alias")
            .map(|a| self.text(a));
        let Some(name) = name else {
            return scope;
        };
        let parent = self.module(scope);
        let module = if parent.is_empty() {
            name
        } else {
            format!("{parent}.{name}")
        };
        self.envs.push(Env {
            module: module.clone(),
            ..Env::default()
        });
        self.scopes.push(Scope {
            module,
            env: Some(self.envs.len() - 1),
        });
        self.scopes.len() - 1
    }

    /// The name node and parameter nodes of a `def`/`defp` head.
    fn def_head(&self, n: Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>, Node<'t>)> {
        let args = arguments(n)?;
        let mut head = named_children(args).first().copied()?;
        if head.kind() == "binary_operator" && self.op(head) == "when" {
            head = head.child_by_field_name("left")?;
        }
        match head.kind() {
            "identifier" => Some((head, Vec::new(), head)),
            "call" => {
                let t = head.child_by_field_name("target")?;
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
                let target = n
                    .child_by_field_name("target")
                    .map(|t| self.text(t))
                    .unwrap_or_default();
                match target.as_str() {
                    "defmodule" => {
                        if let Some(a) = arguments(n)
                            .and_then(|a| named_children(a).into_iter().next())
                            .filter(|a| a.kind() == "alias")
                        {
                            let name = self.text(a);
                            inner = if module.is_empty() {
                                name
                            } else {
                                format!("{module}.{name}")
                            };
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
        let name = self.text(name_node);

        let body = n
            .named_children(&mut n.walk())
            .find(|c| c.kind() == "do_block")
            .or_else(|| {
                args_kids
                    .iter()
                    .filter(|k| k.kind() == "keywords")
                    .flat_map(|k| named_children(*k))
                    .find(|p| {
                        p.child_by_field_name("key")
                            .is_some_and(|k| self.text(k).trim().trim_end_matches(':') == "do")
                    })
                    .and_then(|p| p.child_by_field_name("value"))
            });
        let func = body.map(|body| {
            let key = (module.clone(), name.clone(), params.len());
            let counter = self.clauses.entry(key).or_insert(0);
            let clause = *counter;
            *counter += 1;
            let name_span = self.span(name_node);
            self.facts.functions.push(FunctionDef {
                module: module.clone(),
                name: name.clone(),
                params: params.clone(),
                returns: Value::unknown(self.text(body), self.span(body)),
                name_span,
                clause,
            });
            self.facts.functions.len() - 1
        });
        self.envs.push(Env {
            module: module.clone(),
            func,
            params,
            body_start: body.map_or(usize::MAX, |b| b.start_byte()),
            ..Env::default()
        });
        let env = self.envs.len() - 1;
        self.scopes.push(Scope {
            module,
            env: Some(env),
        });
        if let (Some(body), Some(func)) = (body, func) {
            self.pending.push(Pending { func, body, env });
        }
        self.scopes.len() - 1
    }

    /// A parameter's variable name, or `_` for a pattern.
    fn param_name(&self, p: Node<'_>) -> String {
        match p.kind() {
            "identifier" => self.text(p),
            "binary_operator" => {
                let op = self.op(p);
                let (l, r) = (
                    p.child_by_field_name("left"),
                    p.child_by_field_name("right"),
                );
                match op.as_str() {
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
            let last = if p.body.kind() == "do_block" {
                named_children(p.body)
                    .into_iter()
                    .rev()
                    .find(|c| !c.kind().ends_with("_block") && c.kind() != "comment")
            } else {
                Some(p.body)
            };
            let Some(last) = last else {
                continue;
            };
            let returns = self.value(last, Some(p.env), 0);
            let returns = match returns {
                Value::Str(_)
                | Value::Call { .. }
                | Value::Const { .. }
                | Value::Param { .. }
                | Value::Atom { .. } => returns,
                other => Value::unknown(self.text(last), other.span()),
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

    /// `var = expr` inside a function: remembers the bound value.
    pub(super) fn binding(&mut self, n: Node<'_>, env: Option<usize>) {
        let Some(env) = env else {
            return;
        };
        let (Some(l), Some(r)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            return;
        };
        if self
            .envs
            .get(env)
            .is_none_or(|e| n.start_byte() < e.body_start)
        {
            return;
        }
        // `{:ok, row} = Redix.command(conn, ["HGETALL", k])`, `row = ...`.
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
        // `%{"payload" => p} = row`.
        if l.kind() == "map" {
            if let Some(key) = self.hgetall_source(r, Some(env), 0) {
                self.map_pattern_reads(l, key, Some(env));
            }
        }
        if l.kind() != "identifier" {
            return;
        }
        let name = self.text(l);
        if name.starts_with('_') {
            return;
        }
        // `cmd = ["EVALSHA", sha, 2]`: a command head, appended to later.
        if r.kind() == "list" {
            if let Some(c) = self.build_command(r, r, Some(env)) {
                self.handled.insert(r.id());
                if let Some(e) = self.envs.get_mut(env) {
                    e.heads.insert(name.clone(), (c, false));
                }
            }
        }
        let mut v = self.value(r, Some(env), 0);
        if weight(&v) > MAX_BINDING_WEIGHT {
            v = Value::unknown(self.text(r), self.span(r));
        }
        if let Some(e) = self.envs.get_mut(env) {
            e.locals.insert(name, v);
        }
    }
}
