//! Whether a script call runs: only an invocation is a call. A script call
//! built and bound to a variable (`let mut inv = S.prepare_invoke();
//! inv.key(k);`) is a call once a statement runs it (`inv.invoke(con)`),
//! or redis-rs's `pipe.invoke_script(&inv)` adds it to a pipeline (which
//! sends it when it runs; a chain built in the argument,
//! `pipe.invoke_script(&S.key(k))`, is a call there). Prepared and never
//! run, it is none; returned, it runs where the callers run the result
//! (`commands.rs`); handed to another function, as that function says.
//! A call built over statements is placed where its chain begins.

use tree_sitter::Node;

use super::commands::Target;
use super::{args_of, node_key, peel_ref, Cx};
use crate::extract::source::Source;
use crate::facts::Span;

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `.invoke_script(arg)` (`name` the method's name in `call`): the
    /// script call `arg` builds runs there, from the method's name on (a
    /// pipeline may run several).
    pub(super) fn invoke_argument(&mut self, name: Node<'_>, call: Node<'_>, arg: Node<'_>) {
        let arg = peel_ref(arg);
        if arg.kind() == "identifier" {
            let name = self.text(arg);
            if self.scope.builders.contains_key(&name) {
                return self.run_builder(&name);
            }
        }
        // Read here, as run here: the walk passes it by. A chain of script
        // methods, or any other value (`build(q)`, `self.inv`, a
        // parameter): the invocation it comes to.
        self.inner.insert(node_key(arg));
        let at = Span::new(self.file, name.start_byte(), call.end_byte());
        self.read_chain(arg, Some(at));
    }

    /// The script call a variable holds runs: a call (at the chain that
    /// began it, where the keys and args it is built from start).
    pub(super) fn run_builder(&mut self, var: &str) {
        if let Some(b) = self.scope.builders.get_mut(var) {
            if let Target::Invoke(_) = b.target {
                b.pending = false;
            }
        }
    }

    /// A call that hands on a variable holding a script call its chain
    /// shows (`run(&inv, con)`): it may run there, as the function it is
    /// handed to says; the call stays where it was built.
    pub(super) fn builder_handed_on(&mut self, call: Node<'_>) {
        for a in args_of(call) {
            let a = peel_ref(a);
            if a.kind() != "identifier" {
                continue;
            }
            let name = self.text(a);
            let Some(b) = self.scope.builders.get_mut(&name) else {
                continue;
            };
            if let (Target::Invoke(_), true, true) = (b.target, b.pending, b.shown) {
                b.pending = false;
            }
        }
    }
}
