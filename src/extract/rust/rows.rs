//! Field reads of a map read whole by `HGETALL`: `fields.get("payload")`,
//! `fields["payload"]`, on a local the read filled or on a parameter (a
//! read of what the function's callers pass).

use tree_sitter::Node;

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use crate::facts::{FieldRead, Span, Value, RECEIVER};
use crate::parse::named_children;

use super::{args_of, is_comment, method_of, peel_ref, Cx};

/// The nodes of a closure's body searched for the read it makes, at most.
const MAX_GETTER_NODES: usize = 256;

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `fields.get("payload")`, `fields.remove("payload")` on a map read by
    /// `HGETALL`.
    pub(super) fn field_read(&mut self, n: Node<'_>) {
        let Some((method, recv)) = method_of(n, self.src) else {
            return;
        };
        if !matches!(
            method.as_str(),
            "get" | "remove" | "get_mut" | "contains_key" | "get_key_value" | "entry"
        ) {
            return;
        }
        let args = args_of(n);
        if let Some(a) = args.first() {
            self.push_field_read(recv, *a);
        }
    }

    /// `fields["payload"]` on a map read by `HGETALL`.
    pub(super) fn index_read(&mut self, n: Node<'_>) {
        let kids: Vec<Node<'_>> = named_children(n)
            .into_iter()
            .filter(|c| !is_comment(*c))
            .collect();
        if let [map, index] = kids.as_slice() {
            self.push_field_read(*map, *index);
        }
    }

    fn push_field_read(&mut self, map: Node<'_>, field: Node<'_>) {
        let map = peel_ref(map);
        if map.kind() != "identifier" {
            return;
        }
        let name = self.text(map);
        self.push_named_read(&name, self.span(map), field);
    }

    /// A field read of the map `name` (written at `at`).
    fn push_named_read(&mut self, name: &str, at: Span, field: Node<'_>) {
        // A map read whole here, or a parameter: a read of what the
        // function's callers pass (the link follows it to their replies).
        let (key, row) = match self.hash_maps.get(name) {
            Some(key) => (key.clone(), None),
            None => match self.ident(name, at) {
                p @ Value::Param { index, .. } if index != RECEIVER => {
                    (Value::unknown("row", p.span()), Some(p))
                }
                _ => return,
            },
        };
        let field = peel_ref(field);
        let value = match field.kind() {
            "string_literal" | "raw_string_literal" => Value::Str(self.literal_template(field)),
            // A name the link follows to its value: a constant, a call.
            "identifier" | "scoped_identifier" | "call_expression" | "field_expression" => {
                self.value(field, 0)
            }
            // `*NAME` of a lazily initialised cell.
            "unary_expression" if self.text(field).starts_with('*') => self.value(field, 0),
            _ => return,
        };
        let span = match &value {
            Value::Str(t) => t.segs.first().map(|s| s.span()).unwrap_or(t.span),
            Value::Const { .. } | Value::Call { .. } | Value::Op { .. } => value.span(),
            _ => return,
        };
        self.facts.field_reads.push(FieldRead {
            key,
            field: value,
            span,
            func: self.cur_func,
            command: None,
            row,
        });
    }

    /// `let get = |k: &str| map.get(k)`: a closure that reads the field its
    /// parameter names from a map of the function is remembered, so that
    /// `get("data")` is a read of `data` (a function runs its body with
    /// its arguments). Any other binding of the name forgets it.
    pub(super) fn note_getter(&mut self, name: &str, value: Node<'_>) {
        self.row_getters.remove(name);
        if value.kind() != "closure_expression" {
            return;
        }
        let (Some(ps), Some(body)) = (
            value.child_by_field_id(F.parameters),
            value.child_by_field_id(F.body),
        ) else {
            return;
        };
        let params: Vec<String> = named_children(ps)
            .into_iter()
            .filter_map(|p| match p.kind() {
                "identifier" => Some(self.text(p)),
                "parameter" => p.child_by_field_id(F.pattern).map(|x| self.text(x)),
                _ => None,
            })
            .collect();
        let mut found = None;
        let mut stack = vec![body];
        let mut budget = MAX_GETTER_NODES;
        while let Some(n) = stack.pop() {
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => return,
            };
            let read = match n.kind() {
                "call_expression" => method_of(n, self.src)
                    .filter(|(m, _)| m == "get")
                    .and_then(|(_, recv)| Some((recv, *args_of(n).first()?))),
                _ => None,
            };
            if let Some((map, arg)) = read {
                let (map, arg) = (peel_ref(map), peel_ref(arg));
                let index = params.iter().position(|p| *p == self.text(arg));
                if let (Some(i), "identifier", "identifier") = (index, map.kind(), arg.kind()) {
                    let this = (self.text(map), self.span(map), i);
                    // Two reads in one closure: which one a call makes is
                    // not shown.
                    if found.replace(this).is_some() {
                        return;
                    }
                }
            }
            stack.extend(named_children(n));
        }
        if let Some(g) = found {
            self.row_getters.insert(name.to_string(), g);
        }
    }

    /// `get("data")` of a closure [`note_getter`](Self::note_getter) kept.
    pub(super) fn getter_call(&mut self, n: Node<'_>) {
        let Some(f) = n.child_by_field_id(F.function) else {
            return;
        };
        if f.kind() != "identifier" {
            return;
        }
        let Some((map, at, i)) = self.row_getters.get(&self.text(f)).cloned() else {
            return;
        };
        if let Some(arg) = args_of(n).get(i) {
            if matches!(
                peel_ref(*arg).kind(),
                "string_literal" | "raw_string_literal"
            ) {
                self.push_named_read(&map, at, *arg);
            }
        }
    }
}
