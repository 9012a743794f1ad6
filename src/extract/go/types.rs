//! Types as the file shows them: which names and fields hold a Redis
//! client, a script object or a `context.Context`, by the type they are
//! declared with (its package resolved through the file's imports, so
//! `*redigo.Script` is redigo's `redis.Script`) or by the value bound to
//! them (`lctx, cancel := context.WithTimeout(ctx, d)`, `redis.NewScript(..)`).

use tree_sitter::Node;

use crate::extract::fields::GO as F;
use crate::extract::source::Source;
use crate::facts::Value;
use crate::parse::{named_children, walk};

use super::client::{CLIENT_PACKAGES, SCRIPT_TYPES};
use super::Cx;

/// The functions of the standard library's `context` whose first result
/// is a `context.Context`.
const CONTEXT_MAKERS: &[&str] = &[
    "Background",
    "TODO",
    "WithCancel",
    "WithCancelCause",
    "WithDeadline",
    "WithDeadlineCause",
    "WithTimeout",
    "WithTimeoutCause",
    "WithValue",
    "WithoutCancel",
];

/// The type `context.Context`, as the file's bindings record it.
const CONTEXT: &str = "context.Context";

/// A receiver's type without its pointer and type arguments: `*Q[T]` is
/// `Q`.
pub(super) fn bare_type(t: &str) -> String {
    let t = t.trim_start_matches('*');
    t.split('[').next().unwrap_or("").to_string()
}

impl<'s, 'p> Cx<'s, 'p> {
    /// A type as written, as (package, name): its qualifier resolved
    /// through the file's imports (`*redigo.Script` is `("redis",
    /// "Script")`), pointers and generics left out.
    fn qualified(&self, t: &str) -> Option<(String, String)> {
        let t = t.trim_start_matches('*');
        let t = t.split('[').next().unwrap_or(t);
        let (q, name) = t.split_once('.')?;
        let pkg = self.imports.get(q).map_or(q, String::as_str);
        Some((pkg.to_string(), name.to_string()))
    }

    /// Whether a declared type is a client of Redis (`*redis.Client`,
    /// `redis.Conn`, `redis.Pipeliner`, `rueidis.Client`, ...).
    pub(super) fn client_type(&self, t: &str) -> bool {
        if t.contains("Cmd") || self.script_type(t) {
            return false;
        }
        t.contains("redis.")
            || self
                .qualified(t)
                .is_some_and(|(pkg, _)| CLIENT_PACKAGES.contains(&pkg.as_str()))
    }

    /// Whether a declared type is a script object (`*redis.Script`,
    /// `*rueidis.Lua`).
    pub(super) fn script_type(&self, t: &str) -> bool {
        self.qualified(t)
            .is_some_and(|(pkg, name)| SCRIPT_TYPES.contains(&(pkg.as_str(), name.as_str())))
    }

    /// Whether a declared type is `context.Context`.
    pub(super) fn context_type(&self, t: &str) -> bool {
        t == CONTEXT
            || self
                .qualified(t)
                .is_some_and(|(pkg, name)| pkg == "context" && name == "Context")
    }

    /// `type W struct { s *redis.Script; ctx context.Context }`: the
    /// declared type of each field of the file's structs; a field of a
    /// script type holds a script.
    pub(super) fn field_types(&mut self, n: Node<'_>) {
        let mut fields = Vec::new();
        walk(n, |m| {
            if m.kind() == "field_declaration" {
                fields.push(m);
                return false;
            }
            true
        });
        for f in fields {
            let Some(ty) = f.child_by_field_id(F.ty).map(|t| self.text(t)) else {
                continue;
            };
            let script = self.script_type(&ty);
            for name in named_children(f) {
                if name.kind() == "field_identifier" {
                    let name = self.text(name);
                    if script {
                        self.field_scripts.entry(name.clone()).or_insert(None);
                    }
                    self.field_types.insert(name, ty.clone());
                }
            }
        }
    }

    /// `func (s *Store) sha() string`: `sha` is a method of `Store` (so
    /// `s.sha` without a call is a method value); a function or method
    /// whose last parameter is variadic (`args ...any`) takes the
    /// arguments from there on as one slice.
    pub(super) fn note_function(&mut self, n: Node<'_>) {
        let Some(name) = n.child_by_field_id(F.name) else {
            return;
        };
        let name = self.text(name);
        let ty = match n.child_by_field_id(F.receiver) {
            Some(recv) => match self.params(recv).pop() {
                Some((_, t)) => bare_type(&t),
                None => return,
            },
            None => String::new(),
        };
        let params = n
            .child_by_field_id(F.parameters)
            .map(|ps| self.params(ps))
            .unwrap_or_default();
        if params.last().is_some_and(|(_, t)| t.starts_with("...")) {
            self.variadic
                .insert((ty.clone(), name.clone()), params.len() - 1);
        }
        if !ty.is_empty() {
            self.methods.insert((ty, name));
        }
    }

    /// A call of a variadic function of the file (`self.eval(ctx, k, a,
    /// b)` of `eval(ctx, k string, args ...any)`): the arguments from its
    /// variadic parameter on, as the one slice it receives; a call that
    /// passes a slice there (`xs...`) is left as it is.
    pub(super) fn pack_variadic(
        &self,
        path: &[String],
        mut args: Vec<Value>,
        span: crate::facts::Span,
    ) -> Vec<Value> {
        let key = match path {
            [s, m] if s == "self" => match &self.receiver_type {
                Some(t) => (t.clone(), m.clone()),
                None => return args,
            },
            [f] => (String::new(), f.clone()),
            _ => return args,
        };
        match self.variadic.get(&key) {
            Some(&fixed) if args.len() >= fixed => {
                let items = args.split_off(fixed);
                args.push(Value::List {
                    items,
                    tail: Vec::new(),
                    span,
                });
                args
            }
            _ => args,
        }
    }

    /// The type an expression evidently has: a `context.Context` made by
    /// the `context` package, a name's declared or inferred type, a
    /// composite literal's type.
    pub(super) fn type_of_expr(&self, n: Node<'_>) -> Option<String> {
        match n.kind() {
            "identifier" => {
                let t = self.text(n);
                match self.scope.types.get(&t) {
                    Some(ty) => Some(ty.clone()),
                    None if !self.scope.names.is_bound(&t) => self.globals.types.get(&t).cloned(),
                    None => None,
                }
            }
            "composite_literal" => n.child_by_field_id(F.ty).map(|t| self.text(t)),
            "call_expression" if self.makes_context(n) => Some(CONTEXT.to_string()),
            "parenthesized_expression" => named_children(n)
                .first()
                .and_then(|e| self.type_of_expr(*e)),
            _ => None,
        }
    }

    /// `context.WithTimeout(ctx, d)`, `context.Background()`, and a
    /// `Context()` method without arguments (`r.Context()` of an
    /// `http.Request`): calls whose first result is a `context.Context`.
    fn makes_context(&self, n: Node<'_>) -> bool {
        let Some(func) = self.function_of(n) else {
            return false;
        };
        if let Some(p) = self.callee_path(func) {
            if p.len() == 2 && p[0] == "context" && CONTEXT_MAKERS.contains(&p[1].as_str()) {
                return true;
            }
        }
        func.kind() == "selector_expression"
            && func
                .child_by_field_id(F.field)
                .is_some_and(|f| self.text(f) == "Context")
            && self.arg_nodes(n).is_empty()
    }

    /// Whether an expression is a `context.Context`: by its type (a
    /// parameter, a `var`, a field of the file's structs, a name bound to
    /// a call of the `context` package), by its value, or named `ctx`.
    pub(super) fn is_context(&self, n: Node<'_>) -> bool {
        match n.kind() {
            "identifier" if self.text(n) == "ctx" => true,
            "selector_expression" => n.child_by_field_id(F.field).is_some_and(|f| {
                let f = self.text(f);
                f == "ctx"
                    || self
                        .field_types
                        .get(&f)
                        .is_some_and(|t| self.context_type(t))
            }),
            _ => self.type_of_expr(n).is_some_and(|t| self.context_type(&t)),
        }
    }

    /// Whether an expression is a list: a slice literal, or a name typed
    /// or bound as one.
    pub(super) fn is_list(&self, n: Node<'_>) -> bool {
        if n.kind() == "identifier" {
            let t = self.text(n);
            if matches!(self.scope.names.locals.get(&t), Some(Value::List { .. })) {
                return true;
            }
        }
        self.type_of_expr(n).is_some_and(|t| t.starts_with("[]"))
    }

    /// A name declared with a type: a client or a script by its type.
    pub(super) fn note_type(&mut self, name: &str, t: &str, package_level: bool) {
        let (client, script) = (self.client_type(t), self.script_type(t));
        let scope = if package_level {
            &mut self.globals
        } else {
            &mut self.scope
        };
        scope.types.insert(name.to_string(), t.to_string());
        if client {
            scope.clients.insert(name.to_string());
        }
        if script {
            scope.scripts.insert(name.to_string(), None);
        }
    }

    /// Whether a name now holds a client or a script, and the type its
    /// value gives it (a `:=` declares the name anew).
    pub(super) fn note_kinds(&mut self, name: &str, right: Node<'_>, package_level: bool) {
        let client = self.is_client_expr(right);
        let script = match self.new_script(right) {
            Some(count) => Some(count),
            None => self.script_of(right),
        };
        let ty = self.type_of_expr(right);
        let typed_script = {
            let scope = if package_level {
                &self.globals
            } else {
                &self.scope
            };
            scope.types.get(name).is_some_and(|t| self.script_type(t))
        };
        let scope = if package_level {
            &mut self.globals
        } else {
            &mut self.scope
        };
        scope.clients.remove(name);
        scope.scripts.remove(name);
        if let Some(t) = ty {
            scope.types.insert(name.to_string(), t);
        }
        if typed_script {
            scope.scripts.insert(name.to_string(), None);
        }
        if client {
            scope.clients.insert(name.to_string());
        }
        if let Some(count) = script {
            scope.scripts.insert(name.to_string(), count);
        }
    }
}
