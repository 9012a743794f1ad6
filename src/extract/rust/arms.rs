//! A function whose value is a `match` on one of its parameters
//! (`fn lookup(name: &str) -> &str { match name { "a" => .., _ => .. } }`)
//! is a function of clauses, one per arm, each with the arm's literal as
//! its pattern for that parameter, tried in order (`FunctionDef::ordered`):
//! a call with a literal runs the first arm that takes it, as the link
//! already chooses clauses by pattern (`FunctionDef::accepts`).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::facts::{FunctionDef, Value};
use crate::parse::named_children;

use super::strings::parse_int;
use super::{is_comment, method_of, Cx};

/// Arms read as clauses, at most; a longer `match` stays one value.
const MAX_ARMS: usize = 64;

/// Methods that give the scrutinee's own text: `name.as_str()`.
const SAME_TEXT: &[&str] = &["as_str", "as_ref", "borrow", "deref"];

/// One clause: the patterns per parameter, and the arm's value.
pub(super) type Clause = (Vec<Option<Value>>, Value);

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The clauses of a function body that ends in a `match` on a
    /// parameter whose every arm is a literal, an or-pattern of literals,
    /// `_` or a binding, without a guard; `None` for any other body. Read
    /// in the function's scope.
    pub(super) fn match_clauses(&mut self, body: Node<'_>) -> Option<Vec<Clause>> {
        let last = named_children(body)
            .into_iter()
            .rev()
            .find(|c| !is_comment(*c))?;
        // A `match` at the end of a block is a statement without its `;`.
        let last = match last.kind() {
            "expression_statement" if !self.text(last).trim_end().ends_with(';') => {
                named_children(last).into_iter().next()?
            }
            _ => last,
        };
        if last.kind() != "match_expression" {
            return None;
        }
        let param = self.scrutinee_param(last.child_by_field_id(F.value)?)?;
        let arity = self.scope.params.len();
        let block = last.child_by_field_id(F.body)?;
        let arms: Vec<Node<'_>> = named_children(block)
            .into_iter()
            .filter(|a| a.kind() == "match_arm")
            .collect();
        if arms.is_empty() || arms.len() > MAX_ARMS {
            return None;
        }
        let mut out = Vec::new();
        for arm in arms {
            let pat = arm.child_by_field_id(F.pattern)?;
            if pat.child_by_field_id(F.condition).is_some() {
                return None;
            }
            let value = arm.child_by_field_id(F.value)?;
            let v = self.value(value, 0);
            for lit in self.arm_literals(pat)? {
                let mut patterns = vec![None; arity];
                patterns[param] = lit;
                out.push((patterns, v.clone()));
            }
        }
        Some(out)
    }

    /// The parameter a `match` is on: `name`, `name.as_str()`, `&*name`.
    fn scrutinee_param(&self, n: Node<'_>) -> Option<usize> {
        let mut cur = n;
        for _ in 0..8 {
            match cur.kind() {
                "reference_expression" | "parenthesized_expression" | "unary_expression" => {
                    cur = named_children(cur).into_iter().find(|c| !is_comment(*c))?;
                }
                "call_expression" => {
                    let (m, recv) = method_of(cur, self.src)?;
                    if !SAME_TEXT.contains(&m.as_str()) {
                        return None;
                    }
                    cur = recv;
                }
                "identifier" => {
                    let name = self.text(cur);
                    return self.scope.params.iter().position(|p| *p == name);
                }
                _ => return None,
            }
        }
        None
    }

    /// What one arm's pattern takes: each literal of it (`"a" | "b"`), or
    /// `None` for anything (`_`, a binding); `None` overall for any other
    /// pattern.
    fn arm_literals(&self, pat: Node<'_>) -> Option<Vec<Option<Value>>> {
        let inner: Vec<Node<'_>> = named_children(pat)
            .into_iter()
            .filter(|c| !is_comment(*c))
            .collect();
        let Some(&first) = inner.first() else {
            // `_`
            return (self.text(pat).trim() == "_").then(|| vec![None]);
        };
        let mut out = Vec::new();
        let mut stack = vec![first];
        while let Some(p) = stack.pop() {
            match p.kind() {
                "or_pattern" => stack.extend(named_children(p).into_iter().rev()),
                "string_literal" | "raw_string_literal" => {
                    out.push(Some(Value::Str(self.literal_template(p))));
                }
                "integer_literal" => out.push(Some(Value::Int {
                    value: parse_int(&self.text(p))?,
                    span: self.span(p),
                })),
                // A constant's name is matched by its value, which the
                // link alone may know.
                "identifier" if super::is_screaming(&self.text(p)) => return None,
                "identifier" => out.push(None),
                _ => return None,
            }
            if out.len() > MAX_ARMS {
                return None;
            }
        }
        Some(out)
    }

    /// The function at `index` as its clauses: the first in its place, the
    /// others after it, every one tried in order.
    pub(super) fn set_clauses(&mut self, index: usize, clauses: Vec<Clause>) {
        let Some(base) = self.facts.functions.get(index).cloned() else {
            return;
        };
        for (k, (patterns, returns)) in clauses.into_iter().enumerate() {
            let def = FunctionDef {
                clause: k,
                patterns,
                returns,
                ordered: true,
                ..base.clone()
            };
            if k == 0 {
                self.facts.functions[index] = def;
            } else {
                self.facts.functions.push(def);
            }
        }
    }
}
