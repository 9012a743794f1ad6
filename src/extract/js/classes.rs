//! Classes and functions as values: what a constructor puts in its fields,
//! the constructions `new T(..)` that say what it is given, and a closure
//! as the value a call of it returns.
//!
//! - `constructor(private prefix: string)` sets the field `prefix` from its
//!   parameter: a definition `T..prefix` holding that parameter, which the
//!   value-flow core reads at each construction `new T('emq')` (a call fact
//!   `[T, NEW]` with every argument, a closure included, in its place);
//! - a field set from a parameter in any other method holds what the code
//!   does not show, and is not defined;
//! - `(t) => ring.toKey(name, t)` is a [`closure`]: what its body returns,
//!   its own parameters as [`CLOSURE_PARAM`]`+ i`, the enclosing function's
//!   as they are. A closure inside a closure is not followed.

use tree_sitter::Node;

use super::values::named;
use super::{Cx, Frame};
use crate::extract::source::Source;
use crate::facts::{closure, CallFact, ConstDef, Value, CLOSURE_PARAM, NEW};

impl Cx<'_, '_, '_> {
    /// `new T(a..)`: a construction of `T`, every argument in its place
    /// (none for `new T()`, which passes nothing to bind).
    pub(super) fn construction(&mut self, n: Node<'_>) {
        let Some(class) = n
            .child_by_field_id(self.f.constructor)
            .filter(|c| c.kind() == "identifier")
        else {
            return;
        };
        let args = n
            .child_by_field_id(self.f.arguments)
            .map(named)
            .unwrap_or_default();
        // Nothing to bind: no field is set from what it passes.
        if args.is_empty() {
            return;
        }
        let path = vec![self.text(class), NEW.to_string()];
        let args = args.into_iter().map(|a| self.value(a, 0)).collect();
        self.facts.calls.push(CallFact {
            path,
            args,
            receiver: None,
            span: self.span(n),
            func: self.cur_func(),
            named: Vec::new(),
            on_client: false,
        });
    }

    /// `constructor(private prefix: string)`: the field `prefix` holds the
    /// parameter.
    pub(super) fn parameter_fields(&mut self, ctor: Node<'_>) {
        let Some(class) = self.stack.last().and_then(|f| f.class.clone()) else {
            return;
        };
        for (index, _, name) in super::types::property_params(self, ctor) {
            let field = self.text(name);
            let span = self.span(name);
            self.facts.consts.push(ConstDef {
                module: format!("{}.{class}", self.module),
                name: format!(".{field}"),
                value: Value::Param {
                    index,
                    name: field,
                    span,
                },
                name_span: span,
            });
        }
    }

    /// Whether the walk is in a class's constructor.
    pub(super) fn in_constructor(&self) -> bool {
        self.cur_func()
            .and_then(|f| self.facts.functions.get(f))
            .is_some_and(|f| f.name == "constructor")
    }

    /// A function as a value: a [`closure`] of what it returns; unknown
    /// inside another closure.
    pub(super) fn closure_value(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let nested = self
            .stack
            .iter()
            .any(|f| f.given.iter().any(|(_, v)| is_closure_param(v)));
        if nested {
            return Value::unknown(self.short_label(n), span);
        }
        let params = self.params_of(n);
        let given = params
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let p = Value::Param {
                    index: CLOSURE_PARAM + i,
                    name: name.clone(),
                    span,
                };
                (i, p)
            })
            .collect();
        let arrow = n.kind() == "arrow_function";
        let class = self.stack.last().and_then(|f| f.class.clone());
        self.stack.push(Frame {
            id: n.id(),
            func: None,
            params,
            class: if arrow { class } else { None },
            container: false,
            arrow,
            scalars: Vec::new(),
            given,
            types: Vec::new(),
        });
        let body = self.returns_at(n, d + 1);
        self.stack.pop();
        closure(body, span)
    }
}

fn is_closure_param(v: &Value) -> bool {
    matches!(v, Value::Param { index, .. } if *index >= CLOSURE_PARAM && *index != crate::facts::RECEIVER)
}
