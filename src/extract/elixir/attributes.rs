//! Module attributes: `@name value` definitions (constants, inline and
//! file-backed scripts) and `@name` used as a value.

use tree_sitter::Node;

use super::known::RESERVED_ATTRS;
use super::{arguments, is_string_node, Cx};
use crate::facts::{ConstDef, ScriptDef, ScriptSource, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `@name value` (a definition). Returns true when the value was read
    /// as a script and must not be visited further.
    pub(super) fn attribute_def(&mut self, n: Node<'_>, scope: usize) -> bool {
        if self.op(n) != "@" {
            return false;
        }
        let Some(call) = n.child_by_field_name("operand") else {
            return false;
        };
        if call.kind() != "call" {
            return false;
        }
        let (Some(target), Some(args)) = (call.child_by_field_name("target"), arguments(call))
        else {
            return false;
        };
        if target.kind() != "identifier" {
            return false;
        }
        let args = named_children(args);
        let [value_node] = args.as_slice() else {
            return false;
        };
        let value_node = *value_node;
        let name = self.text(target);
        if RESERVED_ATTRS.contains(&name.as_str()) {
            return false;
        }
        let module = self.module(scope);
        let name_span = self.span(target);
        let env = self.env_of(scope);
        // An inline Lua script.
        if is_string_node(value_node) && self.looks_like_lua(value_node) {
            let lua = self.inline_lua(value_node);
            let text = self.value(value_node, env, 0).as_str();
            self.facts.scripts.push(ScriptDef {
                name: Some(name),
                name_span,
                source: ScriptSource::Inline(Box::new(lua)),
                text,
                declared_keys: None,
            });
            return true;
        }
        // A script read from a file at compile time.
        if let Some((path, relative_to_file, span)) = self.file_read(value_node, env) {
            self.facts.scripts.push(ScriptDef {
                name: Some(name),
                name_span,
                source: ScriptSource::File {
                    path,
                    relative_to_file,
                    span,
                },
                text: None,
                declared_keys: None,
            });
            return true;
        }
        let value = self.value(value_node, env, 0);
        let keep = match &value {
            Value::Str(t) => {
                if let Some(s) = t.as_literal() {
                    self.attr_strs
                        .insert((module.clone(), format!("@{name}")), s);
                }
                true
            }
            Value::List { .. } => {
                self.attr_lists
                    .insert((module.clone(), format!("@{name}")), value.clone());
                true
            }
            // `@enqueue_sha Script.sha("enqueue")`: a call of the code base
            // (the link may read its string argument as a script name).
            Value::Int { .. } | Value::Atom { .. } | Value::Call { .. } => true,
            _ => false,
        };
        if keep {
            self.facts.consts.push(ConstDef {
                module,
                name: format!("@{name}"),
                value,
                name_span,
            });
        }
        false
    }

    /// `@name` used as a value: `Some("@name")`.
    pub(super) fn attr_ref(&self, n: Node<'_>) -> Option<String> {
        if n.kind() != "unary_operator" || self.op(n) != "@" {
            return None;
        }
        let operand = n.child_by_field_name("operand")?;
        let ident = match operand.kind() {
            "identifier" => operand,
            "call" if arguments(operand).is_none() => operand.child_by_field_name("target")?,
            _ => return None,
        };
        if ident.kind() != "identifier" {
            return None;
        }
        Some(format!("@{}", self.text(ident)))
    }
}
