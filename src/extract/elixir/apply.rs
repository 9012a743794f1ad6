//! `apply(Mod, :fun, [a, b])`: a remote call made through `Kernel.apply/3`
//! with its module (an alias, `__MODULE__` or an Erlang module's atom), its function (an atom) and
//! its arguments (a list without a tail) written in place. Every reader of
//! a call (call facts, client sends, field reads, values, where a command
//! list goes) reads it as `Mod.fun(a, b)`; any other `apply` stays the
//! dispatch the value core keeps (`Op::Dispatch`).

use std::rc::Rc;

use tree_sitter::Node;

use super::{call_arg_values, CallHead, Cx};
use crate::extract::source::Source;
use crate::parse::named_children;

/// A call `apply/3` makes.
pub(super) struct Applied<'n> {
    /// The callee as written: `Keyspace.job_key`.
    pub written: String,
    /// The callee with its module resolved: `["EchoMQ", "Keyspace", "job_key"]`.
    pub path: Vec<String>,
    /// The list the arguments are written in.
    pub list: Node<'n>,
    /// Its items, comments aside.
    pub args: Vec<Node<'n>>,
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// The call `n` makes through `apply/3`, when the module, the function
    /// and the argument list are written in place; `module` is the module
    /// the call is written in.
    pub(super) fn applied<'n>(
        &self,
        n: Node<'n>,
        piped: Option<Node<'n>>,
        module: &str,
    ) -> Option<Applied<'n>> {
        if n.kind() != "call" || !matches!(&*self.target(n), "apply" | "Kernel.apply") {
            return None;
        }
        let [target, fun, list] = *call_arg_values(n, piped).as_slice() else {
            return None;
        };
        let name = self.text(fun);
        let name = name.strip_prefix(':').filter(|s| is_plain_atom(s))?;
        if list.kind() != "list" {
            return None;
        }
        let args: Vec<Node<'n>> = named_children(list)
            .into_iter()
            .filter(|k| k.kind() != "comment")
            .collect();
        // `[a | rest]`: the count of arguments is not written.
        if args
            .iter()
            .any(|a| a.kind() == "binary_operator" && self.op(*a) == "|")
        {
            return None;
        }
        // `:eredis`: an Erlang module, named as `:eredis.q(..)` names it.
        let erlang = || {
            let t = self.text(target);
            (target.kind() == "atom" && t.strip_prefix(':').is_some_and(is_plain_atom))
                .then(|| vec![t])
        };
        let mut path = self.module_ref(target, module).or_else(erlang)?;
        path.push(name.to_string());
        Some(Applied {
            written: format!("{}.{name}", self.text(target)),
            path,
            list,
            args,
        })
    }

    /// The head of a call `apply/3` makes, as [`Cx::call_head`] gives it
    /// for the call written directly.
    pub(super) fn applied_head(&self, a: &Applied<'_>) -> CallHead {
        let path: Rc<[String]> = Rc::from(a.path.clone());
        CallHead {
            do_block: false,
            builder: super::templates::is_builder_callee(&a.path.join(".")),
            codebase: Self::is_codebase(&path) || self.nested_in_own(&path),
            to_string: a.written == "Integer.to_string",
            path: Some(path),
        }
    }

    /// Where `node`, an item of `list`, goes when `list` is the argument
    /// list of an `apply/3` that [`Cx::applied`] reads: the call and the
    /// item's index among its arguments.
    pub(super) fn applied_arg(
        &self,
        node: Node<'t>,
        list: Node<'t>,
        module: &str,
    ) -> Option<(Applied<'t>, usize)> {
        let args = self.parent_of(list).filter(|a| a.kind() == "arguments")?;
        let call = self.parent_of(args).filter(|c| c.kind() == "call")?;
        let piped = self.is_piped(call);
        let a = self.applied(call, None, module).filter(|_| !piped)?;
        if a.list.id() != list.id() {
            return None;
        }
        let at = a.args.iter().position(|k| k.id() == node.id())?;
        Some((a, at))
    }
}

/// An atom's name that needs no quotes: `job_key`, `command!`.
fn is_plain_atom(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '?' | '!' | '@'))
}
