//! Items: functions and methods (with their parameters and returned value),
//! `impl`/`trait` blocks (whose type names their methods), `const`/`static`
//! items and `let` bindings.

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::facts::{hash_reply, ConstDef, FunctionDef, Template, Value};
use crate::parse::named_children;

use super::paths::path_segments;
use super::{is_comment, node_key, Cx, Scope, MAX_DEPTH};

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `mod keys { .. }`: walks the body inside the module's path.
    pub(super) fn mod_item(&mut self, n: Node<'_>) {
        let (Some(name), Some(body)) = (n.child_by_field_id(F.name), n.child_by_field_id(F.body))
        else {
            return self.module_file(n);
        };
        self.modules.push(self.text(name));
        self.walk_sub(body);
        self.modules.pop();
    }

    pub(super) fn function(&mut self, n: Node<'_>) {
        let Some(name) = n.child_by_field_id(F.name) else {
            return;
        };
        let mut params = Vec::new();
        let mut has_self = false;
        if let Some(ps) = n.child_by_field_id(F.parameters) {
            for p in named_children(ps) {
                has_self |= p.kind() == "self_parameter";
                if p.kind() != "parameter" {
                    continue;
                }
                let pat = p.child_by_field_id(F.pattern);
                // `self: &Self`, `self: Arc<Self>`: the receiver, typed.
                if pat.is_some_and(|x| x.kind() == "self") {
                    has_self = true;
                    continue;
                }
                params.push(
                    pat.map(|x| self.pattern_name(x).unwrap_or_else(|| self.text(x)))
                        .unwrap_or_default(),
                );
            }
        }
        if self.depth > MAX_DEPTH {
            return;
        }
        // Methods live in their type: `Keys::wait` is told apart from a
        // free `wait`.
        let mut module = self.modules.clone();
        module.extend(self.impl_types.last().cloned());
        let index = self.facts.functions.len();
        self.facts.functions.push(FunctionDef {
            module: module.join("::"),
            name: self.text(name),
            params: params.clone(),
            returns: Value::unknown(self.text(name), self.span(name)),
            name_span: self.span(name),
            clause: 0,
            defaults: 0,
            patterns: Vec::new(),
            default_values: Vec::new(),
            ordered: false,
            // `pub`, not `pub(crate)`: code outside the tree may call it.
            public: named_children(n)
                .into_iter()
                .any(|c| c.kind() == "visibility_modifier" && self.text(c) == "pub"),
        });
        let saved = std::mem::replace(
            &mut self.scope,
            Scope {
                params,
                has_self,
                ..Scope::default()
            },
        );
        let saved_maps = std::mem::take(&mut self.hash_maps);
        let saved_getters = std::mem::take(&mut self.row_getters);
        let saved_func = self.cur_func.replace(index);
        let saved_self = std::mem::replace(&mut self.self_type, self.impl_types.last().cloned());
        // Items nested in the body are not methods of the outer impl.
        let saved_impls = std::mem::take(&mut self.impl_types);
        let mut returns = None;
        let mut clauses = None;
        if let Some(body) = n.child_by_field_id(F.body) {
            self.walk_sub(body);
            self.returns_builder(body);
            returns = self.tail_value(body);
            clauses = self.match_clauses(body);
        }
        self.impl_types = saved_impls;
        self.cur_func = saved_func;
        self.self_type = saved_self;
        self.hash_maps = saved_maps;
        self.row_getters = saved_getters;
        self.scope = saved;
        if let Some(clauses) = clauses {
            self.set_clauses(index, clauses);
            return;
        }
        if let Some(returns) = returns {
            if matches!(
                returns,
                Value::Str(_)
                    | Value::Call { .. }
                    | Value::Op { .. }
                    | Value::Const { .. }
                    | Value::Param { .. }
                    | Value::ScriptRef { .. }
            ) {
                self.facts.functions[index].returns = returns;
            }
        }
    }

    /// `impl Keys { .. }`, `impl<T> Trait for Keys<T> { .. }`, `trait T { .. }`:
    /// walks the body with the type's name.
    pub(super) fn impl_item(&mut self, n: Node<'_>) {
        let ty = n
            .child_by_field_id(F.ty)
            .or_else(|| n.child_by_field_id(F.name))
            .map(|t| {
                let t = match t.kind() {
                    "generic_type" => t.child_by_field_id(F.ty).unwrap_or(t),
                    _ => t,
                };
                path_segments(&self.text(t)).pop().unwrap_or_default()
            })
            .unwrap_or_default();
        let Some(body) = n.child_by_field_id(F.body) else {
            return;
        };
        self.impl_types.push(ty);
        self.walk_sub(body);
        self.impl_types.pop();
    }

    /// The value of a block's tail expression or final `return`.
    pub(super) fn tail_value(&mut self, block: Node<'_>) -> Option<Value> {
        let last = named_children(block)
            .into_iter()
            .rev()
            .find(|c| !is_comment(*c))?;
        let expr = match last.kind() {
            "expression_statement" => {
                let inner = named_children(last).into_iter().next()?;
                if inner.kind() != "return_expression" {
                    // `{ .. }` or `if ..` without `;`: the body's value.
                    return super::blocks::tail_expression(last).map(|e| self.value(e, 0));
                }
                named_children(inner).into_iter().next()?
            }
            "return_expression" => named_children(last).into_iter().next()?,
            k if k.ends_with("_item") || k == "let_declaration" || k == "empty_statement" => {
                return None
            }
            _ => last,
        };
        Some(self.value(expr, 0))
    }

    pub(super) fn pattern_name(&self, p: Node<'_>) -> Option<String> {
        match p.kind() {
            "identifier" => Some(self.text(p)),
            "mut_pattern" | "ref_pattern" => named_children(p)
                .into_iter()
                .find(|c| c.kind() == "identifier")
                .map(|c| self.text(c)),
            _ => None,
        }
    }

    pub(super) fn const_item(&mut self, n: Node<'_>) {
        let (Some(name), Some(value)) = (n.child_by_field_id(F.name), n.child_by_field_id(F.value))
        else {
            return;
        };
        let v = self.value(value, 0);
        self.facts.consts.push(ConstDef {
            module: self.module(),
            name: self.text(name),
            value: v,
            name_span: self.span(name),
        });
    }

    pub(super) fn let_decl(&mut self, n: Node<'_>) {
        let Some(value) = n.child_by_field_id(F.value) else {
            return;
        };
        let mut inner = value;
        while matches!(inner.kind(), "try_expression" | "await_expression") {
            match named_children(inner).into_iter().next() {
                Some(i) => inner = i,
                None => break,
            }
        }
        let pattern = n
            .child_by_field_id(F.pattern)
            .and_then(|p| self.pattern_name(p));
        let saved = std::mem::replace(
            &mut self.pending_let,
            pattern.clone().map(|p| (node_key(inner), p)),
        );
        let before = self.facts.commands.len();
        self.walk_sub(value);
        self.pending_let = saved;
        let mut reply = None;
        if let Some(name) = &pattern {
            let read = self.facts.commands[before..]
                .iter()
                .find(|c| {
                    c.name == "HGETALL"
                        && c.span.start as usize >= value.start_byte()
                        && c.span.end as usize <= value.end_byte()
                })
                .and_then(|c| Some((c.args.first()?.clone(), c.span)));
            match &read {
                Some((key, _)) => {
                    self.hash_maps.insert(name.clone(), key.clone());
                }
                None => {
                    self.hash_maps.remove(name);
                }
            }
            reply = read.map(|(key, span)| {
                hash_reply(Value::Str(Template::lit("HGETALL", span)), key, span)
            });
        }
        if let Some(alt) = n.child_by_field_id(F.alternative) {
            self.walk_sub(alt);
        }
        // A map filled by `HGETALL` holds the reply, as the functions it is
        // passed to receive it.
        let v = self.value(value, 0);
        let v = reply.unwrap_or(v);
        if let Some(name) = n
            .child_by_field_id(F.pattern)
            .and_then(|p| self.pattern_name(p))
        {
            self.note_getter(&name, inner);
            if self.makes_string(n, inner) {
                self.scope.strings.insert(name.clone());
            } else {
                self.scope.strings.remove(&name);
            }
            self.scope.locals.insert(name, v);
        }
    }
}
