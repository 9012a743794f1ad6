//! A call read through `Function.prototype`'s own ways of running a
//! function: `f.call(t, a, b)`, `f.apply(t, [a, b])` and `f.bind(t)(a, b)`
//! run `f` with `this` bound to `t` and the arguments `a, b` (`bind`'s
//! own arguments after `t` come first). So each is read as the call
//! `f(a, b)`, by every reader of a call (`calls.rs`, `values.rs`,
//! `scripts.rs`), and a client's method run that way is its command.
//!
//! Only where `this` is positively the object the function was read from
//! (`r.m.call(r, ..)`), or none (`null`, `undefined`; `this` for a bare
//! name): a client's own method named `call` (ioredis's
//! `redis.call("get", key)`) takes a command's name there, so it is left
//! as it is written.

use tree_sitter::Node;

use super::values::named;
use super::Cx;
use crate::extract::source::Source;

/// How far `f.call.call(..)` or `f.bind(t).bind(t)(..)` is unwrapped.
const MAX_LAYERS: usize = 4;

impl<'t> Cx<'_, 't, '_> {
    /// The method a local name holds bound to its object
    /// (`const hset = redis.hset.bind(redis)`): calling the name calls the
    /// method on that object. `None` for a name bound more than once, or
    /// to anything else (a method read without `bind` loses its object).
    pub(super) fn local_method(&self, ident: Node<'_>) -> Option<Node<'t>> {
        if ident.kind() != "identifier" {
            return None;
        }
        let name = self.text(ident);
        for frame in self.stack.iter().rev() {
            if frame.params.contains(&name) {
                return None;
            }
            let Some(bound) = self.scopes.get(&frame.id).and_then(|s| s.get(&name)) else {
                continue;
            };
            let [r] = bound.as_slice() else {
                return None;
            };
            let x = self.find(*r)?;
            let inner = x.child_by_field_id(self.f.function)?;
            let (f, how) = self.prototype_member(inner)?;
            let bound: Vec<Node<'t>> = x
                .child_by_field_id(self.f.arguments)
                .map(named)
                .unwrap_or_default();
            let own = matches!(bound.as_slice(), [this] if self.binds_own_this(f, *this));
            return (how == "bind" && f.kind() == "member_expression" && own).then_some(f);
        }
        None
    }

    /// Whether a call may run its function through `call`, `apply` or
    /// `bind` (a cheap look before [`Cx::invocation`]).
    pub(super) fn through_prototype(&self, n: Node<'_>) -> bool {
        let Some(func) = n.child_by_field_id(self.f.function) else {
            return false;
        };
        let member = match func.kind() {
            "call_expression" => func.child_by_field_id(self.f.function),
            _ => Some(func),
        };
        member.is_some_and(|m| self.prototype_member(m).is_some())
    }

    /// The function a call runs and the arguments it gets, read through
    /// `call`, `apply` and `bind`; `None` for a call without a function.
    pub(super) fn invocation<'n>(&self, n: Node<'n>) -> Option<(Node<'n>, Vec<Node<'n>>)> {
        let mut func = n.child_by_field_id(self.f.function)?;
        let mut args: Vec<Node<'n>> = n
            .child_by_field_id(self.f.arguments)
            .map(named)
            .unwrap_or_default();
        for _ in 0..MAX_LAYERS {
            match self.unwrapped(func, &args) {
                Some((f, a)) => (func, args) = (f, a),
                None => break,
            }
        }
        Some((func, args))
    }

    /// One layer: `f.call(t, ..)`, `f.apply(t, [..])`, or a call of
    /// `f.bind(t, ..)`.
    fn unwrapped<'n>(
        &self,
        func: Node<'n>,
        args: &[Node<'n>],
    ) -> Option<(Node<'n>, Vec<Node<'n>>)> {
        if func.kind() == "call_expression" {
            let inner = func.child_by_field_id(self.f.function)?;
            let (f, how) = self.prototype_member(inner)?;
            let bound: Vec<Node<'n>> = func
                .child_by_field_id(self.f.arguments)
                .map(named)
                .unwrap_or_default();
            let (this, first) = bound.split_first()?;
            if how != "bind" || !self.binds_own_this(f, *this) {
                return None;
            }
            return Some((f, first.iter().chain(args).copied().collect()));
        }
        let (f, how) = self.prototype_member(func)?;
        let (this, rest) = args.split_first()?;
        if !self.binds_own_this(f, *this) {
            return None;
        }
        match (how, rest) {
            ("call", _) => Some((f, rest.to_vec())),
            ("apply", []) => Some((f, Vec::new())),
            ("apply", [list]) if list.kind() == "array" => {
                let items = named(*list);
                let spread = items.iter().any(|i| i.kind() == "spread_element");
                (!spread).then_some((f, items))
            }
            _ => None,
        }
    }

    /// `f.call`, `f.apply` or `f.bind`: the function `f` and which.
    fn prototype_member<'n>(&self, func: Node<'n>) -> Option<(Node<'n>, &'static str)> {
        if func.kind() != "member_expression" {
            return None;
        }
        let f = func.child_by_field_id(self.f.object)?;
        let prop = func.child_by_field_id(self.f.property)?;
        let how = match self.text(prop).as_str() {
            "call" => "call",
            "apply" => "apply",
            "bind" => "bind",
            _ => return None,
        };
        matches!(f.kind(), "member_expression" | "identifier").then_some((f, how))
    }

    /// Whether `this` is the object `f` is read from (`r` of `r.m`), or no
    /// object at all.
    fn binds_own_this(&self, f: Node<'_>, this: Node<'_>) -> bool {
        if matches!(this.kind(), "null" | "undefined") {
            return true;
        }
        match f.kind() {
            "identifier" => this.kind() == "this",
            _ => f
                .child_by_field_id(self.f.object)
                .is_some_and(|o| self.text(o) == self.text(this)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::test_support::sent;
    use crate::facts::Lang;

    const HEAD: &str = "const Redis = require('ioredis');\nconst redis = new Redis();\n";

    fn js(body: &str) -> Vec<String> {
        sent(Lang::JavaScript, &format!("{HEAD}{body}\n"))
    }

    #[test]
    fn call_apply_and_bind_run_the_method_they_name() {
        for body in [
            "redis.hset('k', 'f', 'v');",
            "redis.hset.call(redis, 'k', 'f', 'v');",
            "redis.hset.apply(redis, ['k', 'f', 'v']);",
            "redis.hset.bind(redis)('k', 'f', 'v');",
            "redis.hset.bind(redis, 'k')('f', 'v');",
            "redis.hset.call.call(redis.hset, redis, 'k', 'f', 'v');",
        ] {
            assert_eq!(js(body), ["HSET k f v"], "{body}");
        }
    }

    #[test]
    fn a_name_holding_a_bound_method_calls_it() {
        let body = "function put() {\n  const hset = redis.hset.bind(redis);\n  return hset('k', 'f', 'v');\n}";
        assert_eq!(js(body), ["HSET k f v"]);
        // Read without `bind`, the method has no object: no command.
        assert_eq!(js(&body.replace(".bind(redis)", "")), Vec::<String>::new());
    }

    #[test]
    fn another_this_or_a_method_named_call_is_left_as_written() {
        // ioredis's own `call`: the command is its first argument.
        assert_eq!(js("redis.call('hset', 'k', 'f', 'v');"), ["HSET k f v"]);
        // `this` is another object: nothing says which client runs it.
        assert_eq!(
            js("redis.hset.call(other, 'k', 'f', 'v');"),
            Vec::<String>::new()
        );
        // A spread in `apply`'s list is not read as its elements.
        assert_eq!(
            js("redis.hset.apply(redis, [...xs]);"),
            Vec::<String>::new()
        );
    }
}
