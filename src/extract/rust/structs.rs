//! Records: each field a struct literal (`Scripts { enqueue: s, .. }`,
//! `Self { .. }`) sets is a definition of that field in the type's module
//! (a `ConstDef` named `.field`): what a field holds is what the type's
//! constructors put there (`crate::link::flow`).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::facts::{ConstDef, Value};
use crate::parse::named_children;

use super::paths::path_segments;
use super::{is_comment, Cx};

/// Fields of one literal read, at most.
const MAX_FIELDS: usize = 64;

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The type a struct literal builds, by its last path segment (`Self`
    /// is the `impl`'s type).
    fn literal_type(&self, n: Node<'_>) -> Option<String> {
        let name = n.child_by_field_id(F.name)?;
        let name = match name.kind() {
            "generic_type" => name.child_by_field_id(F.ty).unwrap_or(name),
            _ => name,
        };
        let ty = path_segments(&self.text(name)).pop()?;
        if ty == "Self" {
            return self
                .impl_types
                .last()
                .cloned()
                .or_else(|| self.self_type.clone());
        }
        Some(ty)
    }

    /// The fields a struct literal sets, in source order, with the nodes of
    /// their values.
    fn literal_fields<'t>(&self, n: Node<'t>) -> Vec<(String, Node<'t>)> {
        let Some(body) = n.child_by_field_id(F.body) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for f in named_children(body).into_iter().filter(|c| !is_comment(*c)) {
            if out.len() >= MAX_FIELDS {
                break;
            }
            match f.kind() {
                "field_initializer" => {
                    if let (Some(name), Some(value)) =
                        (f.child_by_field_id(F.field), f.child_by_field_id(F.value))
                    {
                        out.push((self.text(name), value));
                    }
                }
                "shorthand_field_initializer" => {
                    if let Some(id) = named_children(f).into_iter().next() {
                        out.push((self.text(id), id));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// A struct literal met by the walk: each field it sets to a value that
    /// may name a script is a definition of that field of its type.
    pub(super) fn struct_literal(&mut self, n: Node<'_>) {
        let Some(ty) = self.literal_type(n) else {
            return;
        };
        let mut module = self.modules.clone();
        module.push(ty);
        let module = module.join("::");
        for (name, value) in self.literal_fields(n) {
            let v = self.value(value, 0);
            // What a field holds: a script, a constant, a call whose result
            // the link follows, a string (a key part, a script's name), or
            // a map filled with literal keys (a registry).
            if !matches!(
                v,
                Value::ScriptRef { .. }
                    | Value::Const { .. }
                    | Value::Call { .. }
                    | Value::Op { .. }
                    | Value::Str(_)
                    | Value::Map { .. }
            ) {
                continue;
            }
            let name_span = self.span(value);
            self.facts.consts.push(ConstDef {
                module: module.clone(),
                name: format!(".{name}"),
                value: v,
                name_span,
            });
        }
    }

    /// The script an invocation built as a struct literal runs: the value
    /// of the field its type keeps the script in ([`super::client::INVOCATION`]).
    pub(super) fn invocation_script(&mut self, n: Node<'_>) -> Option<Value> {
        let n = super::peel_ref(n);
        let (ty, field) = super::client::INVOCATION;
        if n.kind() != "struct_expression" || self.literal_type(n)? != ty {
            return None;
        }
        let (_, value) = self
            .literal_fields(n)
            .into_iter()
            .find(|(f, _)| f == field)?;
        Some(self.value(value, 0))
    }

    /// The type a receiver is made as, when its expression names it: a
    /// struct literal (`Values { .. }`) or a constructor (`Values::new()`,
    /// `Values::default()`, `Self::new()`).
    pub(super) fn constructed_type(&self, recv: Node<'_>) -> Option<String> {
        let recv = super::peel_ref(recv);
        let ty = match recv.kind() {
            "struct_expression" => return self.literal_type(recv),
            "call_expression" => {
                let f = super::callee(recv).filter(|f| f.kind() == "scoped_identifier")?;
                let mut path = path_segments(&self.text(f));
                let ctor = path.pop()?;
                if !matches!(ctor.as_str(), "new" | "default") {
                    return None;
                }
                path.pop()?
            }
            _ => return None,
        };
        if ty == "Self" {
            return self
                .impl_types
                .last()
                .cloned()
                .or_else(|| self.self_type.clone());
        }
        ty.chars()
            .next()
            .is_some_and(|c| c.is_ascii_uppercase())
            .then_some(ty)
    }

    /// `|| body` / `move || { ..; body }`: what the closure returns.
    pub(super) fn closure_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(body) = n.child_by_field_id(F.body) else {
            return Value::unknown(self.label(n), span);
        };
        if body.kind() != "block" {
            return self.value(body, d);
        }
        let last = named_children(body)
            .into_iter()
            .rev()
            .find(|c| !is_comment(*c));
        match last {
            Some(e) if !e.kind().ends_with("_statement") && e.kind() != "let_declaration" => {
                self.value(e, d)
            }
            _ => Value::unknown(self.label(n), span),
        }
    }
}
