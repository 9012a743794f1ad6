//! Functions that return a constant: `defp enqueue_sha, do: @enqueue_sha`,
//! `def name(:enqueue), do: "enqueue"`. A call of one, in the file that
//! defines it, is the constant the clause it runs returns (chosen by the
//! literal each parameter requires), as a function returns its body's
//! value; a call the file cannot settle stays a call, for the link step.

use tree_sitter::Node;

use super::items::nested;
use super::{arguments, do_block, ConstantClause, Cx};
use crate::extract::source::Source;
use crate::facts::{accepts, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// Every clause of every function of the file: its patterns and the
    /// constant it returns, if it returns one.
    pub(super) fn collect_constant_fns(
        &self,
        root: Node<'t>,
    ) -> std::collections::HashMap<(String, String, usize), Vec<ConstantClause>> {
        let mut out: std::collections::HashMap<_, Vec<ConstantClause>> = Default::default();
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
                    "def" | "defp" => {
                        if let Some((name, params, _)) = self.def_head(n) {
                            let clause = self.constant_clause(n, &params);
                            out.entry((module.clone(), self.text(name), params.len()))
                                .or_default()
                                .push(clause);
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

    /// One clause: the literal each parameter requires, and what its body
    /// returns when that is a literal or an attribute.
    fn constant_clause(&self, def: Node<'_>, params: &[Node<'_>]) -> ConstantClause {
        let patterns = params.iter().map(|p| self.literal_pattern(*p)).collect();
        let args = arguments(def).map(named_children).unwrap_or_default();
        let body = do_block(def).or_else(|| self.keyword_arg(&args, "do"));
        let last = body.and_then(|b| self.last_expression(b));
        let value = last.and_then(|l| match l.kind() {
            "string" | "charlist" | "atom" | "quoted_atom" | "integer" => {
                let v = self.value(l, None, 0);
                let literal = matches!(v, Value::Atom { .. } | Value::Int { .. })
                    || matches!(&v, Value::Str(t) if t.as_literal().is_some());
                literal.then_some(v)
            }
            "unary_operator" => self.attr_ref(l).map(|name| Value::Const {
                path: vec![name],
                span: self.span(l),
            }),
            _ => None,
        });
        (patterns, value)
    }

    /// A call of a function of this file (`path` as the call names it, in
    /// `module`): the constant every clause it may run returns, when they
    /// agree.
    pub(super) fn constant_return(
        &self,
        path: &[String],
        args: &[Value],
        module: &str,
    ) -> Option<Value> {
        let (name, qual) = path.split_last()?;
        let module = match qual {
            [] => module.to_string(),
            q => q.join("."),
        };
        let clauses = self.constant_fns.get(&(module, name.clone(), args.len()))?;
        let mut found: Option<&Value> = None;
        for (_, ret) in clauses.iter().filter(|(p, _)| accepts(p, args)) {
            let ret = ret.as_ref()?;
            if found.is_some_and(|f| !same_constant(f, ret)) {
                return None;
            }
            found = found.or(Some(ret));
        }
        found.cloned()
    }
}

/// The same constant, wherever it is written.
fn same_constant(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Const { path: x, .. }, Value::Const { path: y, .. }) => x == y,
        (Value::Atom { name: x, .. }, Value::Atom { name: y, .. }) => x == y,
        (Value::Int { value: x, .. }, Value::Int { value: y, .. }) => x == y,
        (Value::Str(x), Value::Str(y)) => x.as_literal() == y.as_literal(),
        _ => false,
    }
}
