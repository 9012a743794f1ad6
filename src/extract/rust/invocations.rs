//! Script calls run by a call around them: redis-rs's
//! `pipe.invoke_script(&inv)` adds the script call `inv` builds to a
//! pipeline, which sends it when it runs. The invocation is the call: a
//! chain built in the argument (`pipe.invoke_script(script.key(k))`) or a
//! builder held in a variable (`let inv = script.key(k);`) runs there.

use tree_sitter::Node;

use super::commands::Target;
use super::{node_key, peel_ref, Cx};

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `.invoke_script(arg)` at `call`: the script call `arg` builds runs
    /// at `call`.
    pub(super) fn invoke_argument(&mut self, call: Node<'_>, arg: Node<'_>) {
        let arg = peel_ref(arg);
        let at = self.span(call);
        match arg.kind() {
            "identifier" => {
                let name = self.text(arg);
                if let Some(b) = self.scope.builders.get_mut(&name) {
                    if let Target::Invoke(_) = b.target {
                        b.pending = false;
                    }
                }
            }
            "call_expression" => {
                // Read here, as run here: the walk passes it by.
                self.inner.insert(node_key(arg));
                self.read_chain(arg, Some(at));
            }
            _ => {}
        }
    }
}
