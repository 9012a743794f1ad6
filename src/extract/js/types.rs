//! Declared types, as far as they name a class: a method called on a value
//! whose type is a class `T` runs `T`'s method, so its path is qualified by
//! the class that defines it (`[T, m]`, as the value-flow core reads a
//! method of a type: the definitions of module `file.T`).
//!
//! A value's type is known from TypeScript's annotations: a field's (a
//! class field `keys: Keys`, a constructor parameter property
//! `constructor(private keys: Keys)`) and a parameter's (`k: Keys`); a
//! local bound once to `new T(..)` is a `T` in either language. A class of
//! this file that does not define the method runs its base's (`extends`),
//! followed up the chain of this file's classes; a class of another file
//! names the method of that class. A type that is no class name (a
//! primitive, a union, an array) or a class of this file whose chain does
//! not define the method leaves the call as it was.

use std::collections::HashMap;

use crate::extract::source::Source;

use tree_sitter::Node;

use super::values::named;
use super::{Cx, NodeRef};

/// Classes followed up an `extends` chain, at most.
const MAX_BASES: usize = 8;

/// What this file says of one class.
#[derive(Default)]
pub(super) struct Class {
    /// The class it `extends`, when that is a name.
    base: Option<String>,
    methods: Vec<String>,
    /// Fields with a declared class type: name → type.
    fields: HashMap<String, String>,
}

impl<'t> Cx<'_, 't, '_> {
    /// Reads a class declaration: its base, methods and typed fields.
    pub(super) fn read_class(&mut self, n: Node<'_>) {
        let Some(name) = n.child_by_field_id(self.f.name).map(|c| self.text(c)) else {
            return;
        };
        let mut class = Class::default();
        for c in named(n) {
            if c.kind() != "class_heritage" {
                continue;
            }
            for h in named(c) {
                let base = match h.kind() {
                    "extends_clause" => h
                        .child_by_field_id(self.f.value)
                        .or_else(|| h.named_child(0)),
                    "implements_clause" => None,
                    _ => Some(h),
                };
                if let Some(b) = base.filter(|b| b.kind() == "identifier") {
                    class.base = Some(self.text(b));
                }
            }
        }
        let Some(body) = n.child_by_field_id(self.f.body) else {
            return;
        };
        for m in named(body) {
            match m.kind() {
                "method_definition" => {
                    let Some(mname) = m.child_by_field_id(self.f.name) else {
                        continue;
                    };
                    let mname = self.text(mname);
                    if mname == "constructor" {
                        self.parameter_properties(m, &mut class.fields);
                    }
                    class.methods.push(mname);
                }
                "public_field_definition" | "field_definition" => {
                    let fname = m
                        .child_by_field_id(self.f.name)
                        .or_else(|| m.child_by_field_id(self.f.property));
                    if let (Some(f), Some(t)) = (fname, self.declared_type(m)) {
                        class.fields.insert(self.text(f), t);
                    }
                }
                _ => {}
            }
        }
        self.classes.entry(name).or_insert(class);
    }

    /// `constructor(private keys: Keys)`: a parameter with an
    /// accessibility or `readonly` modifier is a field of the class.
    fn parameter_properties(&self, ctor: Node<'_>, fields: &mut HashMap<String, String>) {
        for (_, p, name) in property_params(self, ctor) {
            if let Some(t) = self.declared_type(p) {
                fields.insert(self.text(name), t);
            }
        }
    }

    /// The class a node's type annotation names: `T` or `T<..>`.
    pub(super) fn declared_type(&self, n: Node<'_>) -> Option<String> {
        let t = n.child_by_field_id(self.f.ty)?;
        let t = if t.kind() == "type_annotation" {
            t.named_child(0)?
        } else {
            t
        };
        let t = match t.kind() {
            "generic_type" => t.child_by_field_id(self.f.name)?,
            _ => t,
        };
        (t.kind() == "type_identifier").then(|| self.text(t))
    }

    /// The parameters of `n` with a declared class type: name → type.
    pub(super) fn typed_params(&self, n: Node<'_>) -> Vec<(String, String)> {
        let Some(list) = n.child_by_field_id(self.f.parameters) else {
            return Vec::new();
        };
        named(list)
            .into_iter()
            .filter_map(|p| Some((self.param_name(p)?, self.declared_type(p)?)))
            .collect()
    }

    /// The path of `recv.name(..)` when `recv`'s type is a class: `[T,
    /// name]` with `T` the class that defines the method; `None` where the
    /// type is not known (the call stays as it was).
    pub(super) fn method_path(&self, recv: Node<'_>, name: &str) -> Option<Vec<String>> {
        let ty = match recv.kind() {
            "this" => self.cur_class()?.to_string(),
            _ => self.type_of(recv)?,
        };
        let mut cls = ty;
        for _ in 0..MAX_BASES {
            let Some(c) = self.classes.get(&cls) else {
                // A class of another file: its own method, or one the
                // value-flow core finds as for a bare name.
                return (recv.kind() != "this").then(|| vec![cls, name.to_string()]);
            };
            if c.methods.iter().any(|m| m == name) {
                return Some(vec![cls, name.to_string()]);
            }
            cls = c.base.clone()?;
        }
        None
    }

    /// The declared class of a receiver: `this.f`'s field type, a
    /// parameter's type, or a local bound once to `new T(..)`.
    fn type_of(&self, recv: Node<'_>) -> Option<String> {
        match recv.kind() {
            "member_expression" => {
                let o = recv.child_by_field_id(self.f.object)?;
                let p = recv.child_by_field_id(self.f.property)?;
                if o.kind() != "this" {
                    return None;
                }
                let class = self.classes.get(self.cur_class()?)?;
                class.fields.get(&self.text(p)).cloned()
            }
            "identifier" => {
                let name = self.text(recv);
                for f in self.stack.iter().rev() {
                    if let Some((_, t)) = f.types.iter().find(|(p, _)| *p == name) {
                        return Some(t.clone());
                    }
                    if f.params.contains(&name) {
                        return None;
                    }
                    if let Some(bound) = self.scopes.get(&f.id).and_then(|s| s.get(&name)) {
                        return self.constructed(bound);
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// The class of a local bound once, to `new T(..)`.
    fn constructed(&self, bound: &[NodeRef]) -> Option<String> {
        let [one] = bound else {
            return None;
        };
        let v = self.find(*one)?;
        if v.kind() != "new_expression" {
            return None;
        }
        let c = v.child_by_field_id(self.f.constructor)?;
        (c.kind() == "identifier").then(|| self.text(c))
    }
}

/// A constructor's parameter properties (an accessibility or `readonly`
/// modifier makes the parameter a field): each with its position among
/// the parameters, its node and its name's.
pub(super) fn property_params<'n>(
    cx: &Cx<'_, '_, '_>,
    ctor: Node<'n>,
) -> Vec<(usize, Node<'n>, Node<'n>)> {
    let Some(list) = ctor.child_by_field_id(cx.f.parameters) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (index, p) in named(list).into_iter().enumerate() {
        let mut c = p.walk();
        let property = p
            .children(&mut c)
            .any(|m| matches!(m.kind(), "accessibility_modifier" | "readonly"));
        let name = p
            .child_by_field_id(cx.f.pattern)
            .filter(|x| x.kind() == "identifier");
        if let (true, Some(name)) = (property, name) {
            out.push((index, p, name));
        }
    }
    out
}
