//! String-building expressions as templates: `<>`, iodata, bitstrings,
//! interpolated values, and the key-like templates recorded as facts.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::Cx;
use crate::extract::{is_key_candidate, push_lit};
use crate::facts::{Seg, Template, Value};
use crate::parse::named_children;

/// A template grows no longer than this; the rest becomes one hole.
const MAX_SEGS: usize = 512;

/// Calls that build one string from their arguments.
const BUILDER_CALLS: &[&str] = &[
    "IO.iodata_to_binary",
    ":erlang.iolist_to_binary",
    "IO.chardata_to_string",
    "Enum.join",
];

/// Whether a callee (`IO.iodata_to_binary`) builds a string.
pub(super) fn is_builder_callee(callee: &str) -> bool {
    BUILDER_CALLS.contains(&callee)
}

/// Appends a value to a template: strings are spliced in, unknowns become
/// holes, the rest stays as values for the link step.
fn append_value(segs: &mut Vec<Seg>, v: Value) {
    if segs.len() >= MAX_SEGS {
        if !matches!(segs.last(), Some(Seg::Hole { label, .. }) if label == "..") {
            segs.push(Seg::Hole {
                label: "..".into(),
                span: v.span(),
            });
        }
        return;
    }
    match v {
        Value::Str(t) => {
            let room = MAX_SEGS.saturating_sub(segs.len());
            let n = t.segs.len();
            let span = t.span;
            segs.extend(t.segs.into_iter().take(room));
            if n > room {
                segs.push(Seg::Hole {
                    label: "..".into(),
                    span,
                });
            }
        }
        Value::Unknown { label, span } => segs.push(Seg::Hole { label, span }),
        other => segs.push(Seg::Value(Box::new(other))),
    }
}

/// An interpolated value: atoms and integers are sent as their text.
pub(super) fn interpolate(segs: &mut Vec<Seg>, v: Value) {
    match v {
        Value::Atom { name, span } => push_lit(segs, &name, span),
        Value::Int { value, span } => push_lit(segs, &value.to_string(), span),
        Value::List { span, .. } | Value::Map { span, .. } => segs.push(Seg::Hole {
            label: "_".into(),
            span,
        }),
        other => append_value(segs, other),
    }
}

/// Flattens iodata (nested lists of binaries) into a template, iteratively.
fn flatten_iodata(segs: &mut Vec<Seg>, v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::List { items, tail, .. } => {
                for t in tail.into_iter().rev() {
                    stack.push(t);
                }
                for i in items.into_iter().rev() {
                    stack.push(i);
                }
            }
            Value::Int { value, span } if (0..=255).contains(&value) => {
                // A byte in iodata.
                let c = char::from(value as u8);
                push_lit(segs, &c.to_string(), span);
            }
            other => append_value(segs, other),
        }
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// Whether a node starts a string-building expression.
    pub(super) fn is_builder(&self, n: Node<'_>) -> bool {
        if n.start_byte() < self.covered_end {
            return false;
        }
        match n.kind() {
            "string" | "charlist" | "bitstring" => true,
            "sigil" => matches!(self.sigil_name(n).as_str(), "s" | "S"),
            "binary_operator" => match self.op(n) {
                "<>" => true,
                "|>" => n
                    .child_by_field_id(F.right)
                    .is_some_and(|r| r.kind() == "call" && self.is_builder_call(r)),
                _ => false,
            },
            "call" => self.is_builder_call(n),
            _ => false,
        }
    }

    /// A call to a string builder, by its target as written; `then/2`
    /// whose function's body is one (`then(fn v -> Enum.join(v) end)`).
    fn is_builder_call(&self, n: Node<'_>) -> bool {
        let mut call = n;
        // `then` inside `then`: followed a few deep.
        for _ in 0..8 {
            // `apply(IO, :iodata_to_binary, [x])` builds as
            // `IO.iodata_to_binary(x)` does (only the name as written is
            // read, so the module the call sits in does not matter).
            let target = match self.called(call, None, None) {
                Some(a) => a.written.into(),
                None => self.target(call),
            };
            if !matches!(target.as_ref(), "then" | "Kernel.then") {
                return is_builder_callee(&target);
            }
            let fun = super::call_arg_values(call, None).pop();
            match fun.and_then(|f| self.one_param_fn(f)) {
                Some((_, body)) if body.kind() == "call" => call = body,
                _ => return false,
            }
        }
        false
    }

    /// The segments a builder call (`IO.iodata_to_binary(x)`,
    /// `Enum.join(list, sep)`) makes of its arguments; `None` when the code
    /// does not show them.
    pub(super) fn built(
        &self,
        callee: &str,
        args: &[Node<'_>],
        env: Option<usize>,
        depth: usize,
    ) -> Option<Vec<Seg>> {
        if callee == "Enum.join" {
            return self.enum_join(args, env, depth);
        }
        let [arg] = args else {
            return None;
        };
        let mut segs = Vec::new();
        flatten_iodata(&mut segs, self.value(*arg, env, depth + 1));
        Some(segs)
    }

    /// `Enum.join(list, sep)`: the items with the separator between them;
    /// values appended to the list as a whole become holes.
    fn enum_join(&self, args: &[Node<'_>], env: Option<usize>, depth: usize) -> Option<Vec<Seg>> {
        let Value::List { items, tail, .. } = self.value(*args.first()?, env, depth + 1) else {
            return None;
        };
        // A separator the link resolves (a call, a constant, a parameter)
        // stands between the items as that value.
        let sep = match args.get(1) {
            Some(s) => match self.value(*s, env, depth + 1) {
                Value::Str(t) => t.segs,
                v @ (Value::Call { .. }
                | Value::Op { .. }
                | Value::Const { .. }
                | Value::Param { .. }) => {
                    vec![Seg::Value(Box::new(v))]
                }
                _ => return None,
            },
            None => Vec::new(),
        };
        let mut segs = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                segs.extend(sep.iter().cloned());
            }
            append_value(&mut segs, item);
        }
        for t in tail {
            segs.push(Seg::Hole {
                label: "..".into(),
                span: t.span(),
            });
        }
        Some(segs)
    }

    /// Records a maximal string-building expression when it looks like a key.
    pub(super) fn template(&mut self, n: Node<'t>, env: Option<usize>) {
        self.covered_end = self.covered_end.max(n.end_byte());
        if self.compared(n) {
            // `assert key == "emq:{q}:job:1"`: a string compared is never
            // put on the wire.
            return;
        }
        if let Value::Str(t) = self.value(n, env, 0) {
            let t = t.normalized();
            // A literal a function returns, or an attribute is set from,
            // is a constant: a key where a use holds it (the use's value
            // is the literal); a function that builds from its parameters
            // is a key builder, its template a key here.
            let constant = t.as_literal().is_some()
                && (self.clause_returns.contains(&n.id()) || self.is_attribute_value(n));
            if is_key_candidate(&t) && !constant {
                self.facts.templates.push(t);
            }
        }
    }

    /// `<<"emq:{", q::binary, "}:", t::binary>>`: binary segments as a
    /// template; segments of other types become holes.
    pub(super) fn bitstring(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let mut segs = Vec::new();
        for k in named_children(n) {
            match k.kind() {
                "comment" => {}
                "binary_operator" if self.op(k) == "::" => {
                    let ty = k
                        .child_by_field_id(F.right)
                        .map(|r| self.text(r))
                        .unwrap_or_default();
                    let textual = ["binary", "bytes", "bitstring", "bits", "utf8"]
                        .iter()
                        .any(|t| ty.starts_with(t));
                    match k.child_by_field_id(F.left) {
                        Some(l) if textual => interpolate(&mut segs, self.value(l, env, depth + 1)),
                        _ => segs.push(Seg::Hole {
                            label: self.text(k),
                            span: self.span(k),
                        }),
                    }
                }
                _ => flatten_iodata(&mut segs, self.value(k, env, depth + 1)),
            }
        }
        Value::Str(Template { segs, span })
    }

    /// `a <> b <> c` flattened into one template, iteratively.
    pub(super) fn concat(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let mut segs = Vec::new();
        for operand in self.operands(n, "<>") {
            append_value(&mut segs, self.value(operand, env, depth + 1));
        }
        Value::Str(Template {
            segs,
            span: self.span(n),
        })
    }
}
