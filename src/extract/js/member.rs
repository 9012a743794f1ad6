//! A member read by its name: `recv.m` and `recv["m"]` (a string, or a
//! template without substitutions, written whole) read the same member, so
//! a call of either is the call of the method `m` on `recv`, for every
//! reader of a call (`calls.rs`, `values.rs`). A subscript the code
//! computes (`recv[name]`) is no member name: `calls.rs` reads it as a
//! command a caller names.

use tree_sitter::Node;

use super::Cx;
use crate::extract::literals::method_name;
use crate::extract::source::Source;

/// How many members of a chain [`Cx::written`] reads.
const MAX_CHAIN: usize = 16;

impl Cx<'_, '_, '_> {
    /// The object, the member's name and the node that names it, of a
    /// member read: `recv.m`, `recv["m"]`.
    pub(super) fn member<'n>(&self, func: Node<'n>) -> Option<(Node<'n>, String, Node<'n>)> {
        let object = func.child_by_field_id(self.f.object)?;
        match func.kind() {
            "member_expression" => {
                let p = func.child_by_field_id(self.f.property)?;
                Some((object, self.text(p), p))
            }
            "subscript_expression" => {
                let index = func.child_by_field_id(self.f.index)?;
                Some((object, self.literal_name(index)?, index))
            }
            _ => None,
        }
    }

    /// A callee as written, its members read by a literal subscript
    /// written as members: `fs["readFileSync"]` is `fs.readFileSync`.
    pub(super) fn written(&self, func: Node<'_>) -> String {
        // No subscript: the text as it is.
        let bytes = self.source().0.get(func.byte_range()).unwrap_or_default();
        if memchr::memchr(b'[', bytes).is_none() {
            return self.text(func);
        }
        let mut names = Vec::new();
        let mut at = func;
        for _ in 0..MAX_CHAIN {
            match self.member(at) {
                Some((object, name, _)) => {
                    names.push(name);
                    at = object;
                }
                None => break,
            }
        }
        let mut out = self.text(at);
        for name in names.iter().rev() {
            out.push('.');
            out.push_str(name);
        }
        out
    }

    /// `"hset"`, `'hset'`, `` `hset` ``: a member's name written whole.
    fn literal_name(&self, n: Node<'_>) -> Option<String> {
        if !matches!(n.kind(), "string" | "template_string") {
            return None;
        }
        method_name(&self.text(n), &['"', '\'', '`'], b"$")
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::test_support::sent;
    use crate::facts::Lang;

    #[test]
    fn a_method_read_by_a_literal_subscript_is_called() {
        for call in [
            "redis.hset(k, 'f', 'v')",
            "redis['hset'](k, 'f', 'v')",
            "redis[\"hset\"](k, 'f', 'v')",
            "redis[`hset`](k, 'f', 'v')",
        ] {
            let src = format!(
                "const Redis = require('ioredis');\nconst redis = new Redis();\nfunction put(k) {{\n  return {call};\n}}\n"
            );
            assert_eq!(sent(Lang::JavaScript, &src), ["HSET $k f v"], "{call}");
        }
    }

    #[test]
    fn the_prefilter_reads_a_method_named_by_a_subscript() {
        let host = Lang::JavaScript.host();
        for text in [
            "const redis = require('ioredis');\nredis['evalsha'](sha, 1, k);\n",
            "const client = connect();\nclient[\"hset\"](k, 'f', 'v');\n",
            "conn[`defineCommand`]('claim', { numberOfKeys: 1, lua });\n",
            "conn['script']('load', lua);\n",
        ] {
            assert!(host.speaks(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn a_computed_subscript_names_no_method() {
        let src = "const Redis = require('ioredis');\nconst redis = new Redis();\nfunction put(k) {\n  const m = 'h' + 'set';\n  return redis[m + ''](k, 'f', 'v');\n}\n";
        assert_eq!(sent(Lang::JavaScript, src), Vec::<String>::new());
    }
}
