//! Module paths: `alias` and `import` as written, names expanded to full
//! paths, callees resolved, and calls to functions of the code base.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::client::client_command_arg;
use super::known::{NOT_CALLS, STDLIB};
use super::templates::is_builder_callee;
use super::{arguments, call_arg_values, do_block, sides, CallHead, Cx};
use crate::facts::{CallFact, Send, Span, Value};
use crate::parse::{named_children, text};
use std::rc::Rc;

/// An `import`: the module's path and its `only:` names, if any.
pub(super) struct Import {
    path: Vec<String>,
    only: Option<Vec<String>>,
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `alias A.B`, `alias A.B, as: C`, `alias A.{B, C}`, `alias __MODULE__.B`.
    pub(super) fn alias(&mut self, n: Node<'_>, scope: usize) {
        let module = self.module(scope);
        let Some((first, kids)) = directive_args(n) else {
            return;
        };
        let as_name = self
            .keyword_arg(&kids, "as")
            .filter(|v| v.kind() == "alias")
            .map(|v| self.text(v));
        let Some(full) = self.aliased_paths(first, &module) else {
            return;
        };
        self.heads.get_mut().clear();
        let map = self.aliases.entry(module).or_default();
        for p in full {
            let short = match (&as_name, p.last()) {
                (Some(a), _) => a.clone(),
                (None, Some(l)) => l.clone(),
                _ => continue,
            };
            map.insert(short, p);
        }
    }

    /// The full paths an `alias` names (`A.B`, `__MODULE__`, `A.{B, C}`,
    /// `__MODULE__.B`); `None` for a dot without both sides.
    pub(super) fn aliased_paths(&self, first: Node<'_>, module: &str) -> Option<Vec<Vec<String>>> {
        if first.kind() != "dot" {
            return Some(self.module_ref(first, module).into_iter().collect());
        }
        let (l, r) = sides(first)?;
        let base = self.module_path(&self.text(l), module);
        let names = match r.kind() {
            "tuple" => named_children(r)
                .into_iter()
                .filter(|a| a.kind() == "alias")
                .collect(),
            "alias" => vec![r],
            _ => Vec::new(),
        };
        let full = names
            .into_iter()
            .map(|a| {
                let mut p = base.clone();
                p.extend(path_parts(&self.text(a)));
                p
            })
            .collect();
        Some(full)
    }

    /// `import A.B` or `import A.B, only: [f: 1]`.
    pub(super) fn import(&mut self, n: Node<'_>, scope: usize) {
        let module = self.module(scope);
        let Some((first, kids)) = directive_args(n) else {
            return;
        };
        if first.kind() != "alias" {
            return;
        }
        let path = self.module_path(&self.text(first), &module);
        let only = self.keyword_arg(&kids, "only").map(|v| {
            let mut names = Vec::new();
            crate::parse::walk(v, |x| {
                if x.kind() == "keyword" {
                    names.push(self.keyword_name(x));
                }
                true
            });
            names
        });
        self.heads.get_mut().clear();
        self.facts.imports.push(crate::facts::Import {
            module: module.clone(),
            from: path.join("."),
            only: only.clone(),
        });
        self.imports
            .entry(module)
            .or_default()
            .push(Import { path, only });
    }

    /// A module name as written, with aliases and `__MODULE__` expanded.
    fn module_path(&self, written: &str, module: &str) -> Vec<String> {
        let parts: Vec<String> = path_parts(written).collect();
        let Some(first) = parts.first() else {
            return parts;
        };
        let mut out: Vec<String> = if first == "__MODULE__" {
            module.split('.').map(str::to_string).collect()
        } else if let Some(full) = self.aliases.get(module).and_then(|m| m.get(first)) {
            full.clone()
        } else {
            vec![first.clone()]
        };
        out.extend(parts.into_iter().skip(1));
        out
    }

    /// A module written as an alias (`Keys`, `A.B`) or `__MODULE__`, as a
    /// full path.
    pub(super) fn module_ref(&self, n: Node<'_>, module: &str) -> Option<Vec<String>> {
        match n.kind() {
            "alias" => Some(self.module_path(&self.text(n), module)),
            "identifier" if self.text(n) == "__MODULE__" => {
                Some(self.module_path("__MODULE__", module))
            }
            _ => None,
        }
    }

    /// The callee of a call: `["f"]`, `["EchoMQ", "Keys", "f"]` (aliases
    /// expanded, an imported function's module prepended), `[ANY_MODULE,
    /// "f"]` for a module computed where the code runs (`mod.f(..)`,
    /// `client().f(..)`), `None` for an anonymous call or a field's read
    /// (`ctx.queue`).
    pub(super) fn callee(&self, target: Node<'_>, module: &str) -> Option<Vec<String>> {
        match target.kind() {
            "identifier" => {
                let name = self.text(target);
                Some(self.imported(&name, module).unwrap_or_else(|| vec![name]))
            }
            "dot" => {
                let (left, right) = sides(target)?;
                if right.kind() != "identifier" {
                    return None;
                }
                let mut path = match left.kind() {
                    "atom" => vec![self.text(left)],
                    // `client().q(conn, cmd)`, `mod.q(conn, cmd)`: a call of
                    // a module computed where the code runs (a field's read,
                    // `ctx.queue`, has no parentheses).
                    "call" | "identifier" if self.module_ref(left, module).is_none() => {
                        let call = target.parent()?;
                        if !super::arguments(call).is_some_and(|a| self.text(a).starts_with('(')) {
                            return None;
                        }
                        vec![crate::facts::ANY_MODULE.to_string()]
                    }
                    _ => self.module_ref(left, module)?,
                };
                path.push(self.text(right));
                Some(path)
            }
            _ => None,
        }
    }

    /// A call's head (its `do` block, its callee), once per call node and
    /// environment.
    pub(super) fn call_head(&self, n: Node<'_>, target: Node<'_>, env: Option<usize>) -> CallHead {
        let key = (n.id(), env);
        if let Some(h) = self.heads.borrow().get(&key) {
            return h.clone();
        }
        let path: Option<Rc<[String]>> = self.callee(target, self.module_of(env)).map(Rc::from);
        let head = CallHead {
            do_block: do_block(n).is_some(),
            builder: path
                .as_deref()
                .is_some_and(|p| is_builder_callee(&p.join("."))),
            codebase: path
                .as_deref()
                .is_some_and(|p| Self::is_codebase(p) || self.nested_in_own(p)),
            to_string: matches!(&*text(target, self.src), "to_string" | "Integer.to_string"),
            path,
        };
        self.heads.borrow_mut().insert(key, head.clone());
        head
    }

    /// A bare call's path when one `import` of the module brings the name
    /// (and the module neither defines it nor is it a Kernel form).
    fn imported(&self, name: &str, module: &str) -> Option<Vec<String>> {
        if NOT_CALLS.contains(&name)
            || self
                .defined
                .contains(&(module.to_string(), name.to_string()))
        {
            return None;
        }
        let hits: Vec<&Import> = self
            .imports
            .get(module)?
            .iter()
            .filter(|i| i.only.as_ref().is_none_or(|o| o.iter().any(|x| x == name)))
            .collect();
        let [one] = hits.as_slice() else {
            return None;
        };
        let mut p = one.path.clone();
        p.push(name.to_string());
        Some(p)
    }

    /// Whether a remote call's module is, or is nested in, a module this
    /// file defines (`Mix.Tasks.Bench.Values` beside `Mix.Tasks.Bench`):
    /// the code base's own, whatever library's name it sits under.
    pub(super) fn nested_in_own(&self, path: &[String]) -> bool {
        let module = &path[..path.len().saturating_sub(1)];
        (1..=module.len()).any(|k| self.own_modules.contains(&module[..k].join(".")))
    }

    /// Whether a callee is a function of the code base (not Kernel, a
    /// special form, the standard library, an Erlang module or Redix).
    pub(super) fn is_codebase(path: &[String]) -> bool {
        match path {
            [] => false,
            [name] => !NOT_CALLS.contains(&name.as_str()) && !name.starts_with("sigil_"),
            [first, ..] => !first.starts_with(':') && !STDLIB.contains(&first.as_str()),
        }
    }

    /// Records a call to a function of the code base. `piped` is the value
    /// piped into it; `span` the call (with its pipe).
    pub(super) fn call_fact(
        &mut self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        span: Span,
        env: Option<usize>,
    ) {
        let Some(target) = n.child_by_field_id(F.target) else {
            return;
        };
        let (head, arg_nodes) = match self.called(n, piped, env) {
            Some(a) => (self.called_head(&a), a.args),
            None => (self.call_head(n, target, env), call_arg_values(n, piped)),
        };
        if head.do_block {
            return;
        }
        let Some(path) = head.path.filter(|_| head.codebase) else {
            return;
        };
        let path = path.to_vec();
        let args: Vec<Value> = arg_nodes
            .into_iter()
            .map(|k| {
                self.reply_arg(k, env)
                    .unwrap_or_else(|| self.value(k, env, 0))
            })
            .collect();
        self.facts.calls.push(CallFact {
            path,
            args,
            receiver: None,
            span,
            func: self.func_of(env),
            named: Vec::new(),
            on_client: false,
        });
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// Records a Redis client call whose command is not a list written in
    /// place (`Redix.command(conn, command)`): what makes the enclosing
    /// function a sender of its parameter.
    pub(super) fn client_send(
        &mut self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        span: Span,
        env: Option<usize>,
    ) {
        let Some(target) = n.child_by_field_id(F.target) else {
            return;
        };
        let module = self.module_of(env).to_string();
        let (path, args) = match self.called(n, piped, env) {
            Some(a) => (Some(a.path), a.args),
            None => (self.callee(target, &module), call_arg_values(n, piped)),
        };
        let Some(at) = path.and_then(|p| client_command_arg(&p)) else {
            return;
        };
        let Some(arg) = args.get(at) else {
            return;
        };
        if arg.kind() == "list" {
            return;
        }
        let command = self.value(*arg, env, 0);
        self.facts.sends.push(Send {
            command,
            span,
            func: self.func_of(env),
        });
    }
}

/// An `alias`/`import`'s first argument (the module) and all its
/// arguments.
fn directive_args(n: Node<'_>) -> Option<(Node<'_>, Vec<Node<'_>>)> {
    let kids = named_children(arguments(n)?);
    Some((kids.first().copied()?, kids))
}

/// `A.B` as its parts `["A", "B"]`.
fn path_parts(written: &str) -> impl Iterator<Item = String> + '_ {
    written.split('.').map(|s| s.trim().to_string())
}
