//! Field reads of a map read whole by `HGETALL`: `fields.get("payload")`,
//! `fields["payload"]`, on a local the read filled or on a parameter (a
//! read of what the function's callers pass).

use tree_sitter::Node;

use crate::facts::{FieldRead, Value, RECEIVER};
use crate::parse::named_children;

use super::{args_of, is_comment, method_of, peel_ref, Cx};

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
        // A map read whole here, or a parameter: a read of what the
        // function's callers pass (the link follows it to their replies).
        let (key, row) = match self.hash_maps.get(&name) {
            Some(key) => (key.clone(), None),
            None => match self.ident(&name, self.span(map)) {
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
            Value::Const { .. } | Value::Call { .. } => value.span(),
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
}
