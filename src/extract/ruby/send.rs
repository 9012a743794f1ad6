//! A method called by name: `recv.public_send(:hset, k, f, v)` (or `send`,
//! `__send__`) calls `recv`'s method `hset` with `k, f, v` (and the block),
//! as `recv.hset(k, f, v)` does, and so does `recv.method(:hset).call(k,
//! f, v)` (`method` gives the method bound to `recv`). So where the name is
//! written as a symbol or a plain string, every reader of a call reads the
//! call it makes ([`Cx::called`]); a name the code computes stays a
//! dispatch for the link (`calls.rs`, `Op::Dispatch`).

use tree_sitter::Node;

use super::calls::Argv;
use super::{Cx, F};
use crate::extract::literals::method_name;
use crate::extract::source::Source;

/// The methods that call the method their first argument names.
const SENDS: &[&str] = &["send", "public_send", "__send__"];

/// What a call calls: the node that names the method (for spans), the
/// method's name, its receiver, and its arguments.
pub(super) struct Called<'t> {
    pub(super) name_node: Node<'t>,
    pub(super) method: String,
    pub(super) receiver: Option<Node<'t>>,
    pub(super) argv: Argv<'t>,
}

impl Cx<'_, '_, '_> {
    /// The method a call calls and its arguments, read through `send`;
    /// `None` for a call without a method.
    pub(super) fn called<'t>(&self, n: Node<'t>) -> Option<Called<'t>> {
        let m = n.child_by_field_id(F.method)?;
        let method = self.text(m);
        let mut argv = self.arguments(n);
        let receiver = n.child_by_field_id(F.receiver);
        if SENDS.contains(&method.as_str()) {
            if let Some(name) = argv.pos.first().and_then(|a| self.literal_name(*a)) {
                let name_node = argv.pos.remove(0);
                return Some(Called {
                    name_node,
                    method: name,
                    receiver,
                    argv,
                });
            }
        }
        if let Some((name_node, name, receiver)) = receiver
            .filter(|_| method == "call")
            .and_then(|r| self.method_object(r))
        {
            return Some(Called {
                name_node,
                method: name,
                receiver,
                argv,
            });
        }
        Some(Called {
            name_node: m,
            method,
            receiver,
            argv,
        })
    }

    /// `recv.method(:hset)`: the method object's name (its node and text)
    /// and receiver.
    fn method_object<'t>(&self, r: Node<'t>) -> Option<(Node<'t>, String, Option<Node<'t>>)> {
        if r.kind() != "call" || r.child_by_field_id(F.block).is_some() {
            return None;
        }
        let m = r.child_by_field_id(F.method)?;
        if self.text(m) != "method" {
            return None;
        }
        let argv = self.arguments(r);
        let [a] = argv.pos.as_slice() else {
            return None;
        };
        let name = self.literal_name(*a)?;
        Some((*a, name, r.child_by_field_id(F.receiver)))
    }

    /// `:hset`, `"hset"`, `'hset'`: a method's name, written whole.
    fn literal_name(&self, a: Node<'_>) -> Option<String> {
        match a.kind() {
            "simple_symbol" => method_name(&self.text(a), &[':'], b"?!"),
            "string" => method_name(&self.text(a), &['"', '\''], b"?!"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::test_support::sent;
    use crate::facts::Lang;

    #[test]
    fn a_method_named_by_a_literal_is_called() {
        for call in [
            "redis.hset(k, 'f', 'v')",
            "redis.public_send(:hset, k, 'f', 'v')",
            "redis.send('hset', k, 'f', 'v')",
            "redis.__send__ :hset, k, 'f', 'v'",
            "redis.method(:hset).call(k, 'f', 'v')",
            "redis.method('hset').call k, 'f', 'v'",
        ] {
            let src = format!("require 'redis'\n\ndef put(redis, k)\n  {call}\nend\n");
            assert_eq!(sent(Lang::Ruby, &src), ["HSET $k f v"], "{call}");
        }
    }

    #[test]
    fn a_name_the_code_computes_is_no_command() {
        let src =
            "require 'redis'\n\ndef put(redis, k, op)\n  redis.public_send(op, k, 'f', 'v')\nend\n";
        assert_eq!(sent(Lang::Ruby, src), Vec::<String>::new());
    }
}
