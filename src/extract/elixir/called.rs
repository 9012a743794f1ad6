//! Calls made through another function, with the callee written in the
//! code: `apply(Mod, :fun, [a, b])` (`Kernel.apply/3` with its module, an
//! alias, `__MODULE__` or an Erlang module's atom, its function, an atom,
//! and its arguments, a list without a tail, written in place), and
//! `f.(a, b)` where `f` is a capture `&Mod.fun/2` (written there, or bound
//! to `f` in the same function body). Every reader of a call (call facts,
//! client sends, field reads, values, where a command list goes) reads
//! them as `Mod.fun(a, b)`; any other `apply` stays the dispatch the value
//! core keeps (`Op::Dispatch`), and any other anonymous call is no call of
//! a known function.

use std::rc::Rc;

use tree_sitter::Node;

use super::{call_arg_values, CallHead, Cx};
use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use crate::parse::named_children;

/// A call made through another function.
pub(super) struct Called<'n> {
    /// The callee as written: `Keyspace.job_key`.
    pub written: String,
    /// The callee with its module resolved: `["EchoMQ", "Keyspace", "job_key"]`.
    pub path: Vec<String>,
    /// The node the arguments are items of: `apply`'s list, or the
    /// anonymous call's `arguments`.
    pub holder: Node<'n>,
    /// The arguments, comments aside (the value piped in first).
    pub args: Vec<Node<'n>>,
}

/// A capture of a remote function, `&Keyspace.job_key/2`, as a local
/// holds it.
#[derive(Clone, Debug)]
pub(super) struct Captured {
    pub written: String,
    pub path: Vec<String>,
    pub arity: usize,
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// The call `n` makes through `apply/3` or a captured function, when
    /// the code writes which function it is.
    pub(super) fn called<'n>(
        &self,
        n: Node<'n>,
        piped: Option<Node<'n>>,
        env: Option<usize>,
    ) -> Option<Called<'n>> {
        if n.kind() != "call" {
            return None;
        }
        let module = self.module_of(env);
        self.applied(n, piped, module)
            .or_else(|| self.captured_call(n, piped, env))
    }

    /// `apply(Mod, :fun, [a, b])`.
    fn applied<'n>(
        &self,
        n: Node<'n>,
        piped: Option<Node<'n>>,
        module: &str,
    ) -> Option<Called<'n>> {
        if !matches!(&*self.target(n), "apply" | "Kernel.apply") {
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
        let args = items(list);
        // `[a | rest]`: the count of arguments is not written.
        if args
            .iter()
            .any(|a| a.kind() == "binary_operator" && self.op(*a) == "|")
        {
            return None;
        }
        let mut path = self.module_named(target, module)?;
        path.push(name.to_string());
        Some(Called {
            written: format!("{}.{name}", self.text(target)),
            path,
            holder: list,
            args,
        })
    }

    /// `f.(a, b)` where `f` holds `&Mod.fun/2`, or `(&Mod.fun/2).(a, b)`.
    fn captured_call<'n>(
        &self,
        n: Node<'n>,
        piped: Option<Node<'n>>,
        env: Option<usize>,
    ) -> Option<Called<'n>> {
        let target = n.child_by_field_id(F.target)?;
        if target.kind() != "dot" || target.child_by_field_id(F.right).is_some() {
            return None;
        }
        let left = target.child_by_field_id(F.left)?;
        let captured = match left.kind() {
            "identifier" => {
                let e = self.envs.get(env?)?;
                e.captures.get(&self.text(left))?.clone()
            }
            "block" => {
                let [inner] = *named_children(left).as_slice() else {
                    return None;
                };
                self.capture_of(inner, self.module_of(env))?
            }
            _ => return None,
        };
        let args = call_arg_values(n, piped);
        if args.len() != captured.arity {
            return None;
        }
        Some(Called {
            written: captured.written,
            path: captured.path,
            holder: super::arguments(n)?,
            args,
        })
    }

    /// `&Keyspace.job_key/2`: the remote function it captures.
    pub(super) fn capture_of(&self, n: Node<'_>, module: &str) -> Option<Captured> {
        if n.kind() != "unary_operator" || self.op(n) != "&" {
            return None;
        }
        let slash = n.child_by_field_id(F.operand)?;
        if slash.kind() != "binary_operator" || self.op(slash) != "/" {
            return None;
        }
        let (fun, arity) = (
            slash.child_by_field_id(F.left)?,
            slash.child_by_field_id(F.right)?,
        );
        let arity: usize = self.text(arity).parse().ok()?;
        if fun.kind() != "call" || super::arguments(fun).is_some() {
            return None;
        }
        let target = fun.child_by_field_id(F.target)?;
        let (m, name) = (
            target.child_by_field_id(F.left)?,
            target.child_by_field_id(F.right)?,
        );
        if target.kind() != "dot" || name.kind() != "identifier" {
            return None;
        }
        let mut path = self.module_named(m, module)?;
        path.push(self.text(name));
        Some(Captured {
            written: self.text(target),
            path,
            arity,
        })
    }

    /// A module as a call names it: an alias, `__MODULE__`, `:eredis`.
    fn module_named(&self, m: Node<'_>, module: &str) -> Option<Vec<String>> {
        let erlang = || {
            let t = self.text(m);
            (m.kind() == "atom" && t.strip_prefix(':').is_some_and(is_plain_atom)).then(|| vec![t])
        };
        self.module_ref(m, module).or_else(erlang)
    }

    /// The head of a call made through another function, as
    /// [`Cx::call_head`] gives it for the call written directly.
    pub(super) fn called_head(&self, c: &Called<'_>) -> CallHead {
        let path: Rc<[String]> = Rc::from(c.path.clone());
        CallHead {
            do_block: false,
            builder: super::templates::is_builder_callee(&c.path.join(".")),
            codebase: Self::is_codebase(&path) || self.nested_in_own(&path),
            to_string: c.written == "Integer.to_string",
            path: Some(path),
        }
    }

    /// Where `node`, an item of `holder`, goes when `holder` holds the
    /// arguments of a call [`Cx::called`] reads: the call and the item's
    /// index among its arguments.
    pub(super) fn called_arg(
        &self,
        node: Node<'t>,
        holder: Node<'t>,
        env: Option<usize>,
    ) -> Option<(Called<'t>, usize)> {
        let call = match holder.kind() {
            "arguments" => self.parent_of(holder)?,
            "list" => {
                let args = self.parent_of(holder).filter(|a| a.kind() == "arguments")?;
                self.parent_of(args)?
            }
            _ => return None,
        };
        if call.kind() != "call" || self.is_piped(call) {
            return None;
        }
        let c = self.called(call, None, env)?;
        if c.holder.id() != holder.id() {
            return None;
        }
        let at = c.args.iter().position(|k| k.id() == node.id())?;
        Some((c, at))
    }
}

/// A list's items, comments aside.
fn items(list: Node<'_>) -> Vec<Node<'_>> {
    named_children(list)
        .into_iter()
        .filter(|k| k.kind() != "comment")
        .collect()
}

/// An atom's name that needs no quotes: `job_key`, `command!`.
fn is_plain_atom(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '?' | '!' | '@'))
}
