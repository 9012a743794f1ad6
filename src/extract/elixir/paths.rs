//! Module paths: `alias` and `import` as written, names expanded to full
//! paths, callees resolved, and calls to functions of the code base.

use tree_sitter::Node;

use super::known::{NOT_CALLS, STDLIB};
use super::{arguments, Cx};
use crate::facts::{CallFact, Span, Value};
use crate::parse::named_children;

/// An `import`: the module's path and its `only:` names, if any.
pub(super) struct Import {
    path: Vec<String>,
    only: Option<Vec<String>>,
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `alias A.B`, `alias A.B, as: C`, `alias A.{B, C}`, `alias __MODULE__.B`.
    pub(super) fn alias(&mut self, n: Node<'_>, scope: usize) {
        let module = self.module(scope);
        let Some(args) = arguments(n) else {
            return;
        };
        let kids = named_children(args);
        let Some(first) = kids.first().copied() else {
            return;
        };
        let as_name = kids
            .iter()
            .filter(|k| k.kind() == "keywords")
            .flat_map(|k| named_children(*k))
            .find(|p| {
                p.child_by_field_name("key")
                    .is_some_and(|k| self.text(k).trim().trim_end_matches(':') == "as")
            })
            .and_then(|p| p.child_by_field_name("value"))
            .filter(|v| v.kind() == "alias")
            .map(|v| self.text(v));
        let mut full: Vec<Vec<String>> = Vec::new();
        match first.kind() {
            "alias" => full.push(self.module_path(&self.text(first), &module)),
            "identifier" if self.text(first) == "__MODULE__" => {
                full.push(self.module_path("__MODULE__", &module))
            }
            "dot" => {
                // `A.{B, C}` or `__MODULE__.B`
                let (Some(l), Some(r)) = (
                    first.child_by_field_name("left"),
                    first.child_by_field_name("right"),
                ) else {
                    return;
                };
                let base = self.module_path(&self.text(l), &module);
                match r.kind() {
                    "tuple" => {
                        for a in named_children(r)
                            .into_iter()
                            .filter(|a| a.kind() == "alias")
                        {
                            let mut p = base.clone();
                            p.extend(self.text(a).split('.').map(|x| x.trim().to_string()));
                            full.push(p);
                        }
                    }
                    "alias" => {
                        let mut p = base;
                        p.extend(self.text(r).split('.').map(|x| x.trim().to_string()));
                        full.push(p);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
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

    /// `import A.B` or `import A.B, only: [f: 1]`.
    pub(super) fn import(&mut self, n: Node<'_>, scope: usize) {
        let module = self.module(scope);
        let Some(args) = arguments(n) else {
            return;
        };
        let kids = named_children(args);
        let Some(first) = kids.first().copied() else {
            return;
        };
        if first.kind() != "alias" {
            return;
        }
        let path = self.module_path(&self.text(first), &module);
        let only = kids
            .iter()
            .filter(|k| k.kind() == "keywords")
            .flat_map(|k| named_children(*k))
            .find(|p| {
                p.child_by_field_name("key")
                    .is_some_and(|k| self.text(k).trim().trim_end_matches(':') == "only")
            })
            .and_then(|p| p.child_by_field_name("value"))
            .map(|v| {
                let mut names = Vec::new();
                crate::parse::walk(v, |x| {
                    if x.kind() == "keyword" {
                        names.push(self.text(x).trim().trim_end_matches(':').to_string());
                    }
                    true
                });
                names
            });
        self.imports
            .entry(module)
            .or_default()
            .push(Import { path, only });
    }

    /// A module name as written, with aliases and `__MODULE__` expanded.
    fn module_path(&self, written: &str, module: &str) -> Vec<String> {
        let parts: Vec<String> = written.split('.').map(|s| s.trim().to_string()).collect();
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

    /// The callee of a call: `["f"]`, `["EchoMQ", "Keys", "f"]` (aliases
    /// expanded, an imported function's module prepended), `None` for an
    /// anonymous call or a call on a variable (`ctx.queue`).
    pub(super) fn callee(&self, target: Node<'_>, module: &str) -> Option<Vec<String>> {
        match target.kind() {
            "identifier" => {
                let name = self.text(target);
                if !NOT_CALLS.contains(&name.as_str())
                    && !self.defined.contains(&(module.to_string(), name.clone()))
                {
                    if let Some(imports) = self.imports.get(module) {
                        let hits: Vec<&Import> = imports
                            .iter()
                            .filter(|i| i.only.as_ref().is_none_or(|o| o.contains(&name)))
                            .collect();
                        if let [one] = hits.as_slice() {
                            let mut p = one.path.clone();
                            p.push(name);
                            return Some(p);
                        }
                    }
                }
                Some(vec![name])
            }
            "dot" => {
                let left = target.child_by_field_name("left")?;
                let right = target.child_by_field_name("right")?;
                if right.kind() != "identifier" {
                    return None;
                }
                let mut path = match left.kind() {
                    "alias" => self.module_path(&self.text(left), module),
                    "identifier" if self.text(left) == "__MODULE__" => {
                        self.module_path("__MODULE__", module)
                    }
                    "atom" => vec![self.text(left)],
                    _ => return None,
                };
                path.push(self.text(right));
                Some(path)
            }
            _ => None,
        }
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
        let Some(target) = n.child_by_field_name("target") else {
            return;
        };
        if named_children(n).iter().any(|c| c.kind() == "do_block") {
            return;
        }
        let module = self.module_of(env).to_string();
        let Some(path) = self.callee(target, &module) else {
            return;
        };
        if !Self::is_codebase(&path) {
            return;
        }
        let mut args: Vec<Value> = piped.map(|p| self.value(p, env, 0)).into_iter().collect();
        if let Some(a) = arguments(n) {
            for k in named_children(a) {
                if k.kind() != "comment" {
                    args.push(self.value(k, env, 0));
                }
            }
        }
        self.facts.calls.push(CallFact {
            path,
            args,
            span,
            func: self.func_of(env),
        });
    }
}
