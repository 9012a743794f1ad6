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
//!
//! `getattr(obj, "m")`, the attribute named by a string written whole,
//! reads the same attribute as `obj.m`: every reader of a call's function
//! asks [`Cx::member`] for its object and name.

use tree_sitter::Node;

use super::{Cx, F};
use crate::extract::literals::method_name;
use crate::extract::source::Source;

/// How deep an attribute chain a held method's object may be.
const MAX_CHAIN: usize = 8;

impl<'r> Cx<'_, 'r, '_> {
    /// `name = obj.m`: the name holds that method (and no other binding
    /// it had).
    pub(super) fn note_method(&mut self, name: &str, right: Node<'_>) {
        self.scope.methods.remove(name);
        let held = self
            .member(right)
            .is_some_and(|(o, _, _)| plain_object(o, 0));
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
            if n.byte_range() == *range && self.member(n).is_some() {
                return Some(n);
            }
            n = n.parent().filter(|p| p.byte_range() == *range)?;
        }
        None
    }
}

impl Cx<'_, '_, '_> {
    /// The object, the node that names the attribute and its name, of an
    /// attribute read: `obj.m`, `getattr(obj, "m")`.
    pub(super) fn member<'n>(&self, func: Node<'n>) -> Option<(Node<'n>, Node<'n>, String)> {
        match func.kind() {
            "attribute" => {
                let m = func.child_by_field_id(F.attribute)?;
                Some((func.child_by_field_id(F.object)?, m, self.text(m)))
            }
            "call" => {
                let f = func.child_by_field_id(F.function)?;
                // Asked of every call a value is read from: the length
                // first, before the text is copied.
                const GETATTR: &str = "getattr";
                if f.kind() != "identifier"
                    || f.byte_range().len() != GETATTR.len()
                    || self.text(f) != GETATTR
                {
                    return None;
                }
                let args = func.child_by_field_id(F.arguments)?;
                let args: Vec<Node<'n>> = crate::parse::named_children(args)
                    .into_iter()
                    .filter(|a| a.kind() != "comment")
                    .collect();
                let [object, name] = *args.as_slice() else {
                    return None;
                };
                let text = self.literal_name(name)?;
                Some((object, name, text))
            }
            _ => None,
        }
    }

    /// `"hset"`, `'hset'`: an attribute's name written whole.
    fn literal_name(&self, n: Node<'_>) -> Option<String> {
        if n.kind() != "string" {
            return None;
        }
        method_name(&self.text(n), &['"', '\''], b"")
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

    #[test]
    fn an_attribute_named_by_getattr_is_that_attribute() {
        for call in [
            "getattr(r, 'hset')(k, 'f', 'v')",
            "getattr(r, \"hset\")(k, 'f', 'v')",
        ] {
            let src = format!("import redis\n\ndef put(r: redis.Redis, k):\n    {call}\n");
            assert_eq!(sent(Lang::Python, &src), ["HSET $k f v"], "{call}");
        }
        let held = "import redis\n\ndef put(r: redis.Redis, k):\n    hset = getattr(r, 'hset')\n    hset(k, 'f', 'v')\n";
        assert_eq!(sent(Lang::Python, held), ["HSET $k f v"]);
        // A default, or a name the code computes: not the attribute.
        for call in [
            "getattr(r, 'hset', None)(k, 'f', 'v')",
            "getattr(r, 'h' + 'set')(k, 'f', 'v')",
            "getattr(r, m)(k, 'f', 'v')",
        ] {
            let src = format!("import redis\n\ndef put(r: redis.Redis, k, m):\n    {call}\n");
            assert_eq!(sent(Lang::Python, &src), Vec::<String>::new(), "{call}");
        }
    }

    #[test]
    fn the_prefilter_reads_a_method_named_by_getattr() {
        let host = Lang::Python.host();
        for text in [
            "import redis\ngetattr(r, 'evalsha')(sha, 1, k)\n",
            "from redis import Redis\ngetattr(self, \"register_script\")(lua)\n",
        ] {
            assert!(host.speaks(text.as_bytes()), "{text}");
        }
    }
}
