//! A method held in a name: reading `obj.m` gives the method bound to
//! `obj` (Python's bound methods keep their object), so after
//! `hset = self.redis.hset`, a call `hset(k, f, v)` is the call
//! `self.redis.hset(k, f, v)`: a client's command, a script object's run,
//! a method of the code base. Every reader of a call asks [`Cx::callee`]
//! for the function it calls.
//!
//! Only where `obj` names the same object wherever it is written again (a
//! name, or an attribute of one: `self.redis`), and only in the scope that
//! binds the name, until it is bound again.

use tree_sitter::Node;

use super::{Cx, F};
use crate::extract::source::Source;

/// How deep an attribute chain a held method's object may be.
const MAX_CHAIN: usize = 8;

impl<'r> Cx<'_, 'r, '_> {
    /// `name = obj.m`: the name holds that method (and no other binding
    /// it had).
    pub(super) fn note_method(&mut self, name: &str, right: Node<'_>) {
        self.scope.methods.remove(name);
        let held = right.kind() == "attribute"
            && right
                .child_by_field_id(F.object)
                .is_some_and(|o| plain_object(o, 0));
        if held {
            self.scope
                .methods
                .insert(name.to_string(), right.byte_range());
        }
    }

    /// The function a call's `func` calls: the method a name holds, else
    /// `func` itself.
    pub(super) fn callee(&self, func: Node<'_>) -> Option<Node<'r>> {
        if func.kind() != "identifier" {
            return None;
        }
        let range = self.scope.methods.get(&self.text(func))?;
        let mut n = self
            .root
            .descendant_for_byte_range(range.start, range.end)?;
        for _ in 0..MAX_CHAIN {
            if n.byte_range() == *range && n.kind() == "attribute" {
                return Some(n);
            }
            n = n.parent().filter(|p| p.byte_range() == *range)?;
        }
        None
    }
}

/// A name, or an attribute of one.
fn plain_object(n: Node<'_>, depth: usize) -> bool {
    match n.kind() {
        "identifier" => true,
        "attribute" if depth < MAX_CHAIN => n
            .child_by_field_id(F.object)
            .is_some_and(|o| plain_object(o, depth + 1)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::test_support::sent;
    use crate::facts::Lang;

    #[test]
    fn a_name_holding_a_method_calls_it() {
        let src = "import redis\n\ndef put(r: redis.Redis, k):\n    hset = r.hset\n    hset(k, 'f', 'v')\n";
        assert_eq!(sent(Lang::Python, src), ["HSET $k f v"]);
        let held_attr = "import redis\n\nclass Q:\n    def __init__(self):\n        self.redis = redis.Redis()\n\n    def put(self, k):\n        hget = self.redis.hget\n        return hget(k, 'f')\n";
        assert_eq!(sent(Lang::Python, held_attr), ["HGET $k f"]);
    }

    #[test]
    fn a_name_bound_again_or_a_method_of_a_call_is_no_method_held() {
        let again = "import redis\n\ndef put(r: redis.Redis, k):\n    hset = r.hset\n    hset = print\n    hset(k, 'f', 'v')\n";
        assert_eq!(sent(Lang::Python, again), Vec::<String>::new());
        let of_call =
            "import redis\n\ndef put(k):\n    hset = redis.Redis().hset\n    hset(k, 'f', 'v')\n";
        assert_eq!(sent(Lang::Python, of_call), Vec::<String>::new());
        let with_target = "import redis\n\ndef put(r: redis.Redis, k, p):\n    hset = r.hset\n    with open(p) as hset:\n        hset(k, 'f', 'v')\n";
        assert_eq!(sent(Lang::Python, with_target), Vec::<String>::new());
    }
}
