//! `defdelegate f(a, b), to: Other, as: g`: the function `Other.g/2`
//! under the name `f`. It is stated as a function that returns
//! `Other.g(a, b)` (its value) and as an alias of `Other.g` (a call of
//! `f` binds what `Other.g` sends): the delegate is no call site of its
//! own.

use tree_sitter::Node;

use super::{arguments, Cx};
use crate::extract::source::Source;
use crate::facts::{FnAlias, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// States a `defdelegate` as a function that calls its target with its
    /// parameters. A delegate whose target module cannot be read states
    /// nothing (a call of it stays unresolved).
    pub(super) fn defdelegate(&mut self, n: Node<'t>, scope: usize) {
        let Some((name_node, param_nodes, head)) = self.def_head(n) else {
            return;
        };
        let kids = arguments(n).map(named_children).unwrap_or_default();
        let module = self.module(scope);
        let Some(mut path) = self
            .keyword_arg(&kids, "to")
            .and_then(|t| self.aliased_paths(t, &module))
            .and_then(|paths| paths.into_iter().next())
        else {
            return;
        };
        let target = self
            .keyword_arg(&kids, "as")
            .filter(|a| a.kind() == "atom")
            .map(|a| self.text(a).trim_start_matches(':').to_string())
            .unwrap_or_else(|| self.text(name_node));
        path.push(target);
        let params: Vec<String> = param_nodes.iter().map(|p| self.param_name(*p)).collect();
        let args: Vec<Value> = params
            .iter()
            .zip(&param_nodes)
            .enumerate()
            .map(|(index, (name, p))| Value::Param {
                index,
                name: name.clone(),
                span: self.span(*p),
            })
            .collect();
        let span = self.span(head);
        let func = self.function_def(&module, name_node, &params, head);
        if let Some(f) = self.facts.functions.get_mut(func) {
            f.returns = Value::Call {
                path: path.clone(),
                args,
                span,
            };
        }
        self.facts.aliases.push(FnAlias { func, target: path });
    }
}
