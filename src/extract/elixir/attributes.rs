//! Module attributes: `@name value` definitions (constants, inline and
//! file-backed scripts) and `@name` used as a value.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::known::RESERVED_ATTRS;
use super::{arguments, Cx};
use crate::facts::{ConstDef, Span, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `@name value` (a definition). Returns true when the value was read
    /// as a script and must not be visited further.
    pub(super) fn attribute_def(&mut self, n: Node<'_>, scope: usize) -> bool {
        let Some((target, value_node)) = self.attribute_parts(n) else {
            return false;
        };
        let name = self.text(target);
        // A typespec (`@spec run(conn(), String.t()) :: ...`) names types,
        // not calls: nothing in it is visited.
        if matches!(
            name.as_str(),
            "spec" | "type" | "typep" | "opaque" | "callback" | "macrocallback"
        ) {
            return true;
        }
        if RESERVED_ATTRS.contains(&name.as_str()) {
            return false;
        }
        let name_span = self.span(target);
        // An inline Lua script, or one read from a file at compile time.
        if let Some(script) = self.script_in(value_node, self.env_of(scope)) {
            self.push_script(Some(name), name_span, script);
            return true;
        }
        if self.registry_scripts(value_node, scope) {
            return true;
        }
        // `@path Path.join(__DIR__, "enqueue.lua")`: a path that
        // `File.read!(@path)` may read.
        if value_node.kind() == "call" {
            if let Some((path, relative, _)) = self.script_path(value_node, self.env_of(scope), 0) {
                let key = (self.module(scope), format!("@{name}"));
                self.attr_paths.insert(key, (path, relative));
            }
        }
        self.const_attribute(format!("@{name}"), name_span, value_node, scope);
        false
    }

    /// `@scripts %{enqueue: Prep.script("""lua"""), ack: "lua"}`: a
    /// registry by name. Each entry whose value is a script (itself, or
    /// the first argument of a call) is recorded under its key, which is
    /// the name callers look it up by (`@scripts[:enqueue]`).
    fn registry_scripts(&mut self, value_node: Node<'_>, scope: usize) -> bool {
        if value_node.kind() != "map" {
            return false;
        }
        let mut pairs: Vec<(Node<'_>, Node<'_>)> = Vec::new();
        for content in named_children(value_node) {
            for part in named_children(content) {
                match part.kind() {
                    "keywords" => pairs.extend(named_children(part).into_iter().filter_map(|p| {
                        Some((p.child_by_field_id(F.key)?, p.child_by_field_id(F.value)?))
                    })),
                    "binary_operator" if self.op(part) == "=>" => {
                        if let (Some(k), Some(v)) = (
                            part.child_by_field_id(F.left),
                            part.child_by_field_id(F.right),
                        ) {
                            pairs.push((k, v));
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut found = false;
        for (key, value) in pairs {
            let name = self
                .text(key)
                .trim()
                .trim_end_matches(':')
                .trim_start_matches(':')
                .trim_matches('"')
                .to_string();
            if name.is_empty() {
                continue;
            }
            // `{body, 2}`: the body and the key count it is registered with.
            let (body, count) = match value.kind() {
                "call" => (
                    arguments(value).and_then(|a| named_children(a).into_iter().next()),
                    None,
                ),
                "tuple" => {
                    let kids = named_children(value);
                    let count = kids.get(1).filter(|k| k.kind() == "integer").and_then(|k| {
                        let n: u32 = self.text(*k).replace('_', "").parse().ok()?;
                        Some((n, self.span(*k)))
                    });
                    (kids.first().copied(), count)
                }
                _ => (Some(value), None),
            };
            let Some(body) = body else {
                continue;
            };
            if let Some(script) = self.script_in(body, self.env_of(scope)) {
                let i = self.push_script(Some(name), self.span(key), script);
                self.facts.scripts[i].declared_keys = count;
                found = true;
            }
        }
        found
    }

    /// `@name value`: the name node and the value node.
    fn attribute_parts<'n>(&self, n: Node<'n>) -> Option<(Node<'n>, Node<'n>)> {
        if self.op(n) != "@" {
            return None;
        }
        let call = n
            .child_by_field_id(F.operand)
            .filter(|c| c.kind() == "call")?;
        let (Some(target), Some(args)) = (call.child_by_field_id(F.target), arguments(call)) else {
            return None;
        };
        if target.kind() != "identifier" {
            return None;
        }
        match named_children(args).as_slice() {
            [value_node] => Some((target, *value_node)),
            _ => None,
        }
    }

    /// `@prefix "emq:"`, `@fields ~w(..)`, `@n 3`, `@sha Script.sha("x")`:
    /// a constant. Literal strings and lists are also kept for the command
    /// lists of the module (`[@hset, k | @fields]`).
    fn const_attribute(
        &mut self,
        name: String,
        name_span: Span,
        value_node: Node<'_>,
        scope: usize,
    ) {
        let module = self.module(scope);
        let value = self.value(value_node, self.env_of(scope), 0);
        let keep = match &value {
            Value::Str(t) => {
                if let Some(s) = t.as_literal() {
                    self.attr_strs.insert((module.clone(), name.clone()), s);
                    self.attr_lits
                        .insert((module.clone(), name.clone()), value.clone());
                }
                true
            }
            Value::Int { .. } | Value::Atom { .. } => {
                self.attr_lits
                    .insert((module.clone(), name.clone()), value.clone());
                true
            }
            Value::List { .. } => {
                self.attr_lists
                    .insert((module.clone(), name.clone()), value.clone());
                true
            }
            // `@enqueue_sha Script.sha("enqueue")`: a call of the code base
            // (the link may read its string argument as a script name).
            Value::Call { .. } | Value::Op { .. } => true,
            // `@scripts %{enqueue: @enqueue}`, `@scripts [enqueue: ..]`: a
            // registry looked up by name.
            Value::Map { .. } => {
                self.attr_lists
                    .insert((module.clone(), name.clone()), value.clone());
                true
            }
            Value::OneOf { .. } => true,
            // `@enqueue_sha_value @enqueue_sha`: the other attribute's
            // value, wherever the module reads it.
            Value::Const { path, .. } => {
                if let [other] = path.as_slice() {
                    let from = (module.clone(), other.clone());
                    let to = (module.clone(), name.clone());
                    if let Some(s) = self.attr_strs.get(&from).cloned() {
                        self.attr_strs.insert(to.clone(), s);
                    }
                    if let Some(v) = self.attr_lits.get(&from).cloned() {
                        self.attr_lits.insert(to.clone(), v);
                    }
                    if let Some(l) = self.attr_lists.get(&from).cloned() {
                        self.attr_lists.insert(to.clone(), l);
                    }
                    if let Some(p) = self.attr_paths.get(&from).cloned() {
                        self.attr_paths.insert(to, p);
                    }
                }
                true
            }
            _ => false,
        };
        if keep {
            self.facts.consts.push(ConstDef {
                module,
                name,
                value,
                name_span,
            });
        }
    }

    /// `@name` used as a value, in the module of `env`: the literal it was
    /// set from, else the constant `@name`.
    pub(super) fn attr_value(&self, name: String, span: Span, env: Option<usize>) -> Value {
        let key = (self.module_of(env).to_string(), name);
        match self.attr_lits.get(&key) {
            Some(v) => v.clone(),
            None => Value::Const {
                path: vec![key.1],
                span,
            },
        }
    }

    /// Whether `n` is the value an attribute is set from (`@name n`).
    pub(super) fn is_attribute_value(&self, n: Node<'t>) -> bool {
        self.parent_of(n)
            .filter(|a| a.kind() == "arguments")
            .and_then(|a| self.parent_of(a))
            .filter(|c| c.kind() == "call")
            .and_then(|c| self.parent_of(c))
            .is_some_and(|u| u.kind() == "unary_operator" && self.op(u) == "@")
    }

    /// `@name` used as a value: `Some("@name")`.
    pub(super) fn attr_ref(&self, n: Node<'_>) -> Option<String> {
        if n.kind() != "unary_operator" || self.op(n) != "@" {
            return None;
        }
        let operand = n.child_by_field_id(F.operand)?;
        let ident = match operand.kind() {
            "identifier" => operand,
            "call" if arguments(operand).is_none() => operand.child_by_field_id(F.target)?,
            _ => return None,
        };
        if ident.kind() != "identifier" {
            return None;
        }
        Some(format!("@{}", self.text(ident)))
    }
}
