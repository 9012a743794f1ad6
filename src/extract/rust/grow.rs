//! Strings that grow: a local `String` built by `push_str`, `push`, `+=`
//! or `write!`/`writeln!` is one template, the parts appended in the order
//! the code runs them. In straight-line code each part is known; a part
//! appended in a loop, a branch or a closure is a hole (the string holds
//! something there, the code does not say what).
//!
//! The grown string is the key, so its first piece (`String::from("emq:{")`)
//! and the pieces appended are never keys of their own.

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::facts::{Seg, Span, Template, Value};
use crate::parse::children;

use super::values::append_value;
use super::{args_of, method_of, peel_ref, Cx};

/// A grown string is kept exact up to this many parts; past it, one hole.
const MAX_PARTS: usize = 64;

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `key.push_str(x)`, `key.push(c)` on a local string. Returns whether
    /// the call was one.
    pub(super) fn string_push(&mut self, n: Node<'_>) -> bool {
        let Some((method, recv)) = method_of(n, self.src) else {
            return false;
        };
        if !matches!(method.as_str(), "push_str" | "push") {
            return false;
        }
        let recv = peel_ref(recv);
        let args = args_of(n);
        let ([arg], "identifier") = (args.as_slice(), recv.kind()) else {
            return false;
        };
        let name = self.text(recv);
        if !self.is_string_local(&name) {
            return false;
        }
        let part = self.value(*arg, 0);
        self.grow(&name, part, n);
        true
    }

    /// `key += x` on a local string. Returns whether it was one.
    pub(super) fn string_add_assign(&mut self, n: Node<'_>) -> bool {
        if n.kind() != "compound_assignment_expr" || self.operator(n) != "+=" {
            return false;
        }
        let (Some(left), Some(right)) = (n.child_by_field_id(F.left), n.child_by_field_id(F.right))
        else {
            return false;
        };
        let name = self.text(left);
        if left.kind() != "identifier" || !self.is_string_local(&name) {
            return false;
        }
        let part = self.value(right, 0);
        self.grow(&name, part, n);
        true
    }

    /// `write!(key, "{}:x", a)` / `writeln!(&mut key, ..)` on a local
    /// string. Returns whether it was one.
    pub(super) fn string_write(&mut self, n: Node<'_>, mac: &str) -> bool {
        if !matches!(mac, "write" | "writeln") {
            return false;
        }
        let Some(tt) = children(n).into_iter().find(|c| c.kind() == "token_tree") else {
            return false;
        };
        // The target: the tokens before the first comma, `key` or `&mut key`.
        let mut target = None;
        for t in children(tt).into_iter().skip(1) {
            match (t.kind(), self.text(t).as_str()) {
                (_, ",") => break,
                (_, "&" | "mut") => {}
                ("identifier", _) if target.is_none() => target = Some(self.text(t)),
                _ => return false,
            }
        }
        let Some(name) = target.filter(|t| self.is_string_local(t)) else {
            return false;
        };
        let part = self.written(n, mac);
        self.grow(&name, part, n);
        true
    }

    /// What `write!(key, ..)` / `writeln!(key, ..)` appends: its format,
    /// and a newline for `writeln!`.
    pub(super) fn written(&mut self, n: Node<'_>, mac: &str) -> Value {
        let part = self.macro_value(n, 0);
        if mac != "writeln" {
            return part;
        }
        let span = self.span(n);
        let mut segs = Vec::new();
        append_value(&mut segs, part);
        segs.push(Seg::Lit {
            text: "\n".into(),
            span: Span::new(span.file, span.end as usize, span.end as usize),
        });
        Value::Str(Template { segs, span })
    }

    /// Whether the local `name` is a string the code grows: a template
    /// already, or a `String` that starts from a value the link follows
    /// (`String::from(prefix())`), which becomes a template of that value.
    pub(super) fn is_string_local(&mut self, name: &str) -> bool {
        let Some(v) = self.scope.locals.get_mut(name) else {
            return false;
        };
        match v {
            Value::Str(_) => true,
            Value::Call { .. } | Value::Op { .. } | Value::Const { .. } | Value::Param { .. }
                if self.scope.strings.contains(name) =>
            {
                let span = v.span();
                let mut segs = Vec::new();
                append_value(&mut segs, v.clone());
                *v = Value::Str(Template { segs, span });
                true
            }
            _ => false,
        }
    }

    /// Whether a `let` declares a `String`: its type says so, or its value
    /// is made by `String::from`, `String::new`, `.to_string()`,
    /// `.to_owned()`.
    pub(super) fn makes_string(&self, decl: Node<'_>, value: Node<'_>) -> bool {
        if decl
            .child_by_field_id(F.ty)
            .is_some_and(|t| self.text(t) == "String")
        {
            return true;
        }
        if let Some((method, _)) = method_of(value, self.src) {
            return matches!(method.as_str(), "to_string" | "to_owned")
                && args_of(value).is_empty();
        }
        value.kind() == "call_expression"
            && value
                .child_by_field_id(F.function)
                .is_some_and(|f| matches!(self.text(f).as_str(), "String::from" | "String::new"))
    }

    /// Appends `part` to the local string `name`, where `at` runs: the part
    /// itself in straight-line code, else a hole. The template the file
    /// lists for the string is the grown one.
    fn grow(&mut self, name: &str, part: Value, at: Node<'_>) {
        let (start, end) = (at.start_byte(), at.end_byte());
        // What the statement appends is a part, not a key of its own.
        self.parts.push((start, end));
        let straight = self.straight_line(at);
        let hole_span = self.span(at);
        let Some(Value::Str(t)) = self.scope.locals.get_mut(name) else {
            return;
        };
        let before = t.clone();
        if straight && t.segs.len() < MAX_PARTS {
            append_value(&mut t.segs, part);
        } else if !matches!(t.segs.last(), Some(Seg::Hole { .. })) {
            t.segs.push(Seg::Hole {
                label: name.to_string(),
                span: hole_span,
            });
        }
        let grown = t.clone();
        // The string's earlier state is no key: the grown one stands for it.
        let within = |s: Span| s.start >= before.span.start && s.end <= before.span.end;
        self.facts
            .templates
            .retain(|x| !(within(x.span) || x.span == grown.span));
        self.push_template(Value::Str(grown));
    }
}

/// `String::new()`, `String::with_capacity(n)`: an empty string that the
/// statements after it may grow.
pub(super) fn empty_string(path: &[&str], span: Span) -> Option<Value> {
    matches!(
        path,
        ["String", "new"] | ["String", "with_capacity"] | ["String", "default"]
    )
    .then(|| {
        Value::Str(Template {
            segs: Vec::new(),
            span,
        })
    })
}
