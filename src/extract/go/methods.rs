//! A method value held in a variable: reading `rdb.HSet` binds the method
//! to its receiver (Go's method values), so after `hset := rdb.HSet`, a
//! call `hset(ctx, k, f, v)` is the call `rdb.HSet(ctx, k, f, v)`: a
//! client's command, a script's run, a method of the code base. Every
//! reader of a call asks [`Cx::function_of`] for the function it calls.
//!
//! Only where the receiver is a variable or a field of one (not a
//! package: `fmt.Sprintf` is a function, read as one already), and only
//! in the scope that binds the name, until it is bound again.

use tree_sitter::Node;

use super::{Cx, F};
use crate::extract::source::Source;

/// How deep a held method's receiver chain, and the climb to the root,
/// may go.
const MAX_CHAIN: usize = 8;
const MAX_CLIMB: usize = 4096;

impl Cx<'_, '_> {
    /// `name := x.M`: the name holds that method value (and no other
    /// binding it had).
    pub(super) fn note_method(&mut self, name: &str, right: Node<'_>) {
        self.scope.held.remove(name);
        let held = right.kind() == "selector_expression"
            && right
                .child_by_field_id(F.operand)
                .is_some_and(|o| self.plain_operand(o, 0));
        if held {
            self.scope.held.insert(name.to_string(), right.byte_range());
        }
    }

    /// A variable, or a field of one: not a package.
    fn plain_operand(&self, n: Node<'_>, depth: usize) -> bool {
        match n.kind() {
            "identifier" => !self.imports.contains_key(&self.text(n)),
            "selector_expression" if depth < MAX_CHAIN => n
                .child_by_field_id(F.operand)
                .is_some_and(|o| self.plain_operand(o, depth + 1)),
            _ => false,
        }
    }

    /// The function a call calls: the method value a variable holds, else
    /// what is written.
    pub(super) fn function_of<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        let func = call.child_by_field_id(F.function)?;
        if func.kind() != "identifier" {
            return Some(func);
        }
        let Some(range) = self.scope.held.get(&self.text(func)) else {
            return Some(func);
        };
        Some(held_at(call, range).unwrap_or(func))
    }
}

/// The selector at `range` in the tree of `at`.
fn held_at<'t>(at: Node<'t>, range: &std::ops::Range<usize>) -> Option<Node<'t>> {
    let mut root = at;
    for _ in 0..MAX_CLIMB {
        match root.parent() {
            Some(p) => root = p,
            None => break,
        }
    }
    let mut n = root.descendant_for_byte_range(range.start, range.end)?;
    for _ in 0..MAX_CHAIN {
        if n.byte_range() == *range && n.kind() == "selector_expression" {
            return Some(n);
        }
        n = n.parent().filter(|p| p.byte_range() == *range)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::extract::test_support::sent;
    use crate::facts::Lang;

    const HEAD: &str =
        "package q\n\nimport (\n\t\"context\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\n";

    #[test]
    fn a_variable_holding_a_method_value_calls_it() {
        let src = format!("{HEAD}func put(ctx context.Context, rdb *redis.Client, k string) {{\n\thset := rdb.HSet\n\thset(ctx, k, \"f\", \"v\")\n}}\n");
        assert_eq!(sent(Lang::Go, &src), ["HSET $k f v"]);
    }

    #[test]
    fn a_variable_bound_again_holds_no_method() {
        let src = format!("{HEAD}func put(ctx context.Context, rdb *redis.Client, k string) {{\n\thset := rdb.HSet\n\thset = other\n\thset(ctx, k, \"f\", \"v\")\n}}\n");
        assert_eq!(sent(Lang::Go, &src), Vec::<String>::new());
    }
}
