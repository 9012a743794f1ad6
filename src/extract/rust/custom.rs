//! Commands sent by name: fred's `client.custom(cmd, args)` (and
//! `custom_raw`) sends the command its `CustomCommand` names
//! (`CustomCommand::new_static("EVAL", ..)`, `CustomCommand::new(..)`, held
//! in a variable or written in place), the items of `args` its arguments:
//! `vec![SCRIPT.into(), 1.into(), key.into(), ..]` is an EVAL of `SCRIPT`
//! with one key.

use tree_sitter::Node;

use super::client::{CLIENTS, CUSTOM_COMMAND};
use super::Cx;
use crate::extract::clients::{Args, Method};
use crate::extract::source::Source;
use crate::facts::{Span, Value};

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `recv.custom(cmd, args)` at `call`, as its row says: the command
    /// `cmd` names, `args` spread. Nothing where the name is not shown.
    pub(super) fn named_command(
        &mut self,
        spec: &Method,
        recv: Node<'_>,
        args: &[Node<'_>],
        call: Node<'_>,
    ) {
        let [cmd, rest @ ..] = args else {
            return;
        };
        if !CLIENTS.admits(spec.receiver, &self.text(recv)) {
            return;
        }
        let Some((name, name_span)) = self.command_named(*cmd) else {
            return;
        };
        let (items, tail) = self.command_args(Args::Spread, rest);
        let i = self.new_command(&name, name_span, self.span(call));
        let c = &mut self.facts.commands[i];
        c.args = items;
        c.open_tail = !tail.is_empty();
        c.tail = tail;
    }

    /// The command a value names: a literal, or a construction of the
    /// client's command type whose first argument is one.
    fn command_named(&mut self, n: Node<'_>) -> Option<(String, Span)> {
        let v = match self.value(n, 0) {
            Value::Call { path, args, .. }
                if path.len() >= 2
                    && path[path.len() - 2] == CUSTOM_COMMAND.0
                    && CUSTOM_COMMAND.1.contains(&path[path.len() - 1].as_str()) =>
            {
                args.into_iter().next()?
            }
            v => v,
        };
        let name = v.as_str()?;
        let plain =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        plain.then(|| (name, v.span()))
    }
}
