//! Ruby extractor: redis-rb and redis-client commands and scripts, Lua in
//! strings and heredocs, and the definitions the value-flow core follows.
//!
//! One pass over the tree, with one context (`Cx`) that the modules below
//! add methods to:
//!
//! - `mod.rs`: the entry point [`extract`], the context and its scopes
//!   (namespace, class body, method), the visitor, and the definitions it
//!   states: a `ConstDef` per constant (`QUEUE = ..` in the module or
//!   class that holds it, `A::B`), per `@x = ..` a method sets (`.x` in its
//!   class); a `FunctionDef` per method (`def`, `def self.x`,
//!   `attr_reader`), its last expression and its `return`s as `returns`,
//!   an instance method's receiver as `RECEIVER`;
//! - `values.rs`: expressions as `Value`s: locals, parameters, `@x`,
//!   constants and `A::B`, a bare name as a call of the method (Ruby's
//!   meaning), hashes and arrays, `+`, `%`, `format`, `join`, `File.read`
//!   of a `.lua` file;
//! - `strings.rs`: string literals, symbols and heredocs decoded (escapes,
//!   interpolations as holes), Lua parsed in place;
//! - `client.rs`: the table of client methods every call is read through;
//! - `calls.rs`: client calls as commands and script calls, and calls of
//!   the code base.
//!
//! A block given to `redis`, `pipelined`, `multi` (or `with` on a pool)
//! holds a client in its first parameter. The tree is walked without
//! recursion proportional to its depth ([`crate::parse::walk`]); the few
//! places that recurse (nested definitions, expression values) stop at
//! [`MAX_DEPTH`].

mod calls;
mod client;
pub mod kinds;
mod send;
pub(crate) mod stdlib;
mod strings;
mod values;

pub(crate) use client::client_calls;
#[cfg(test)]
pub(crate) use client::CLIENTS;

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::Node;

use crate::extract::fields::RUBY as F;
use crate::extract::lang::Input;
use crate::extract::locals::{self, Locals, Reach, Scope, ScopeKind};
use crate::extract::source::{self, Base, OnePass, Source};
use crate::facts::{FileFacts, FunctionDef, Value, RECEIVER};
use crate::parse::{named_children, Climb};

/// Bound on every recursion of this extractor.
const MAX_DEPTH: usize = 48;
/// How many earlier statements of a class body are read for a `private`.
const MAX_SIBLINGS: usize = 4096;

/// Whether `n` is `a << x`.
fn shifts(n: Node<'_>) -> bool {
    n.kind() == "binary"
        && n.child_by_field_id(F.operator)
            .is_some_and(|o| o.kind() == "<<")
}

/// The facts of one parsed Ruby file.
pub fn extract(input: Input<'_, '_>) -> FileFacts {
    let root = input.root;
    let mut cx = Cx {
        climb: RefCell::new(Climb::new(root)),
        base: Base::new(input.src, input.file, input.parsers),
        namespace: Vec::new(),
        scope: Scope::default(),
        kind: ScopeKind::Top,
        heredocs: strings::heredoc_bodies(root),
        client_class: false,
    };
    cx.walk_sub(root);
    cx.base.finish()
}

/// The extraction context.
struct Cx<'s, 'r, 'p> {
    climb: RefCell<Climb<'r>>,
    base: Base<'s, 'p>,
    /// The modules and classes around the definitions being walked.
    namespace: Vec<String>,
    scope: Scope,
    kind: ScopeKind,
    /// Each heredoc's body, by the start of its `<<~ID`.
    heredocs: HashMap<usize, Node<'r>>,
    /// The class being walked is a client's subclass (`class Store <
    /// Redis`): its methods' receiver is a client.
    client_class: bool,
}

source::one_pass!(Cx<'s, '_, 'p>, MAX_DEPTH);
locals::in_place!(Cx<'_, '_, '_>, reach);

/// What an ancestor says of how often a node runs: a method's, a class's
/// or the program's body, or a branch, a loop or a block.
fn reach(p: Node<'_>) -> Reach {
    match p.kind() {
        "method" | "singleton_method" | "class" | "module" | "program" => Reach::Body,
        "if" | "unless" | "elsif" | "else" | "if_modifier" | "unless_modifier" | "while"
        | "until" | "while_modifier" | "until_modifier" | "for" | "case" | "when" | "rescue"
        | "ensure" | "conditional" | "block" | "do_block" | "lambda" => Reach::Branch,
        "binary"
            if p.child_by_field_id(F.operator)
                .is_some_and(|o| matches!(o.kind(), "&&" | "||" | "and" | "or")) =>
        {
            Reach::Branch
        }
        _ => Reach::Through,
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The module of the definitions being walked: `A::B`.
    fn def_module(&self) -> String {
        self.namespace.join("::")
    }

    fn visit(&mut self, n: Node<'_>) -> bool {
        match n.kind() {
            "comment" | "heredoc_body" => false,
            "method" | "singleton_method" => {
                self.method(n);
                false
            }
            "module" | "class" | "singleton_class" => {
                self.namespace_body(n);
                false
            }
            "assignment" | "operator_assignment" => {
                self.assignment(n);
                true
            }
            "block" | "do_block" => {
                self.block_params(n);
                true
            }
            "for" => {
                self.forget_target(n.child_by_field_id(F.pattern));
                true
            }
            "return" => {
                let v = named_children(n)
                    .into_iter()
                    .next()
                    .and_then(|a| named_children(a).into_iter().next())
                    .map(|e| self.value(e, 0));
                self.base.returned(v);
                true
            }
            "binary" if shifts(n) => {
                self.shifted(n);
                true
            }
            "string" | "chained_string" | "heredoc_beginning" | "binary" => {
                self.built(n);
                true
            }
            "call" => {
                self.call(n);
                true
            }
            "element_reference" => {
                self.row_read(n);
                true
            }
            _ => true,
        }
    }

    /// `a << x << y` (outermost): `x` then `y` appended to `a`.
    fn shifted(&mut self, n: Node<'_>) {
        if self.climb.borrow_mut().parent(n).is_some_and(shifts) {
            return;
        }
        let mut items = Vec::new();
        let mut at = n;
        while shifts(at) {
            let (Some(l), Some(r)) = (at.child_by_field_id(F.left), at.child_by_field_id(F.right))
            else {
                return;
            };
            items.push(r);
            at = l;
        }
        items.reverse();
        match items.as_slice() {
            [one] => self.changed_in_place(at, "<<", &[*one]),
            _ => self.changed_in_place(at, "push", &items),
        }
    }

    /// `a, b = ..`, `for x in ..`, a block's parameters: what the names
    /// held is gone, and each is a local from there on (Ruby reads a name
    /// assigned before as a local, not a call of a method so named).
    fn forget_target(&mut self, target: Option<Node<'_>>) {
        let Some(t) = target else { return };
        for m in locals::target_names(t, &["identifier", "instance_variable"]) {
            let (name, span) = (self.text(m), self.span(m));
            self.scope.clients.remove(&name);
            self.scope.rows.remove(&name);
            self.scope
                .names
                .locals
                .insert(name.clone(), Value::unknown(name, span));
        }
    }

    /// `do |conn| .. end` of a call that gives its block a client.
    fn block_params(&mut self, n: Node<'_>) {
        let params = n.child_by_field_id(F.parameters);
        self.forget_target(params);
        let Some(first) = params.and_then(|p| named_children(p).into_iter().next()) else {
            return;
        };
        if first.kind() != "identifier" {
            return;
        }
        let gives_client = self
            .climb
            .borrow_mut()
            .parent(n)
            .is_some_and(|call| call.kind() == "call" && self.gives_client(call));
        if gives_client {
            let name = self.text(first);
            self.scope.clients.insert(name);
        }
    }

    /// `x = ..`, `@x = ..`, `X = ..`, `x ||= ..` at any scope.
    fn assignment(&mut self, n: Node<'_>) {
        let (Some(left), Some(right)) = (n.child_by_field_id(F.left), n.child_by_field_id(F.right))
        else {
            return;
        };
        let or_assign = n
            .child_by_field_id(F.operator)
            .is_none_or(|o| o.kind() == "||=");
        if n.kind() == "operator_assignment" && !or_assign {
            return self.forget_target(Some(left));
        }
        match left.kind() {
            "identifier" | "instance_variable" | "constant" => {
                let name = self.text(left);
                let local = self.kind == ScopeKind::Function;
                self.base.binding = Some((
                    name.trim_start_matches('@').to_string(),
                    self.span(left),
                    local,
                ));
                let v = self.value(right, 0);
                self.base.binding = None;
                self.note_kinds(&name, right);
                self.note_row(&name, right);
                match left.kind() {
                    "constant" => {
                        self.define(&name, v.clone(), left);
                        self.scope.names.locals.insert(name, v);
                    }
                    "instance_variable" if self.kind == ScopeKind::Function => {
                        if !matches!(v, Value::Unknown { .. } | Value::Param { .. }) {
                            self.define(&format!(".{}", &name[1..]), v.clone(), left);
                        }
                        self.bind_local(name, v, n);
                    }
                    _ if self.kind == ScopeKind::Function => self.bind_local(name, v, n),
                    _ => {
                        self.scope.names.locals.insert(name, v);
                    }
                }
            }
            "element_reference" => self.item_assignment(left, right),
            _ => self.forget_target(Some(left)),
        }
    }

    /// `h["k"] = v` on a local hash: the hash holds `v` under `k`.
    fn item_assignment(&mut self, left: Node<'_>, right: Node<'_>) {
        let (Some(base), Some(key)) = (
            left.child_by_field_id(F.object),
            named_children(left).into_iter().nth(1),
        ) else {
            return;
        };
        let name = self.local_name(base);
        self.assign_item(name, key, right, left);
    }

    /// The name a local or a field of the receiver is kept under: `x`, `@x`.
    fn local_name(&self, n: Node<'_>) -> Option<String> {
        match n.kind() {
            "identifier" | "instance_variable" => Some(self.text(n)),
            _ => None,
        }
    }

    /// Whether a name now holds a client.
    fn note_kinds(&mut self, name: &str, right: Node<'_>) {
        if self.is_client_expr(right) {
            self.scope.clients.insert(name.to_string());
        } else {
            self.scope.clients.remove(name);
        }
    }

    /// A definition in the module being walked.
    fn define(&mut self, name: &str, value: Value, at: Node<'_>) {
        let (module, span) = (self.def_module(), self.span(at));
        crate::extract::define(&mut self.base.facts, module, name, value, span);
    }

    /// `module A::B`, `class C < D`, `class << self`: the body's
    /// definitions in `A::B`, `A::B::C`.
    fn namespace_body(&mut self, n: Node<'_>) {
        let Some(body) = n.child_by_field_id(F.body) else {
            return;
        };
        let name = n.child_by_field_id(F.name).map(|m| self.text(m));
        if let Some(name) = &name {
            if name.ends_with("Test") || name.ends_with("Spec") {
                self.base.facts.test_regions.push(self.span(n));
            }
        }
        // `class A < B`: `A`'s base, `B` (a constant path).
        let base = n
            .child_by_field_id(F.superclass)
            .and_then(|s| s.named_child(0));
        let client_class = match n.kind() {
            "class" => base.is_some_and(|b| values::is_client_class(&self.short_text(b))),
            _ => self.client_class,
        };
        let outer_client = std::mem::replace(&mut self.client_class, client_class);
        if let (Some(class), Some(base)) = (&name, base) {
            let class = class.rsplit("::").next().unwrap_or(class).to_string();
            let base = self.text(base);
            let base: Vec<String> = base.split("::").map(str::to_string).collect();
            if base
                .iter()
                .all(|s| !s.is_empty() && !s.contains(char::is_whitespace))
            {
                let fact = crate::facts::TypeBase { class, base };
                self.base.facts.bases.push(fact);
            }
        }
        let saved = std::mem::take(&mut self.scope);
        let kind = std::mem::replace(&mut self.kind, ScopeKind::Class);
        let pushed = name.is_some();
        self.namespace.extend(name);
        self.walk_sub(body);
        if pushed {
            self.namespace.pop();
        }
        self.client_class = outer_client;
        self.kind = kind;
        self.scope = saved;
    }

    /// `def f(a, b = 1) .. end`, `def self.f`, `def f = expr`: a
    /// `FunctionDef` whose `returns` are its last expression and its
    /// `return`s.
    fn method(&mut self, n: Node<'_>) {
        let Some(name_node) = n.child_by_field_id(F.name) else {
            return;
        };
        let name = self.text(name_node);
        if name.starts_with("test_") {
            self.base.facts.test_regions.push(self.span(n));
        }
        let mut scope = Scope::default();
        if n.kind() == "method" && self.kind != ScopeKind::Top {
            scope.names.receiver = Some("self".into());
        }
        let mut params = Vec::new();
        let mut default_values = Vec::new();
        for p in n
            .child_by_field_id(F.parameters)
            .map(named_children)
            .unwrap_or_default()
        {
            let (pname, default) = match p.kind() {
                "identifier" => (self.text(p), None),
                // `x = 1`; `key:`, `key: 1`, which a call passes by name
                // only (after the positional ones).
                "optional_parameter" | "keyword_parameter" => match p.child_by_field_id(F.name) {
                    Some(x) => (self.text(x), p.child_by_field_id(F.value)),
                    None => continue,
                },
                // Splats and blocks are not positional.
                _ => continue,
            };
            scope.names.params.push(pname.clone());
            params.push(pname);
            default_values.push(default.map(|d| self.value(d, 0)));
        }
        let def = self.declared(name, name_node, n);
        let def = def.with_params(params, default_values);
        let saved = std::mem::replace(&mut self.scope, scope);
        let kind = std::mem::replace(&mut self.kind, ScopeKind::Function);
        let body = n.child_by_field_id(F.body);
        // What `initialize` gives is dropped: `new` gives the object.
        let constructor = def.name == "initialize";
        let tail = |cx: &mut Self| {
            body.filter(|_| !constructor)
                .and_then(|b| cx.tail_value(b, 0))
        };
        self.walk_function(def, self.span(n), body, tail);
        self.kind = kind;
        self.scope = saved;
    }

    /// The method `name` declared at `n` (its name at `name_node`) in the
    /// module being walked, public as its class declares it.
    fn declared(&self, name: String, name_node: Node<'_>, n: Node<'_>) -> FunctionDef {
        let (name_span, span) = (self.span(name_node), self.span(n));
        let mut def = FunctionDef::declared(self.def_module(), name, name_span, span);
        def.public = self.kind == ScopeKind::Class && self.declared_public(n);
        def
    }

    /// Whether a method in a class or module body is public: not an
    /// argument of `private`/`protected` (`private def f`), nor after a
    /// bare `private`/`protected` with no `public` since.
    fn declared_public(&self, n: Node<'_>) -> bool {
        let hiding = |w: &str| matches!(w, "private" | "protected");
        let Some(parent) = n.parent() else {
            return true;
        };
        if parent.kind() == "argument_list" {
            let call = parent.parent();
            let method = call
                .and_then(|c| c.child_by_field_id(F.method))
                .map(|m| self.text(m));
            return !method.is_some_and(|m| hiding(&m));
        }
        let mut cur = n.prev_named_sibling();
        for _ in 0..MAX_SIBLINGS {
            let Some(c) = cur else {
                return true;
            };
            if c.kind() == "identifier" {
                match self.text(c).as_str() {
                    "public" => return true,
                    w if hiding(w) => return false,
                    _ => {}
                }
            }
            cur = c.prev_named_sibling();
        }
        false
    }

    /// `attr_reader :a, :b` in a class: methods returning the receiver's
    /// fields.
    fn attr_readers(&mut self, args: &[Node<'_>]) {
        for a in args {
            if a.kind() != "simple_symbol" {
                continue;
            }
            let name = self.text(*a).trim_start_matches(':').to_string();
            let span = self.span(*a);
            let mut def = self.declared(name.clone(), *a, *a);
            def.returns = Value::Param {
                index: RECEIVER,
                name,
                span,
            };
            self.base.facts.functions.push(def);
        }
    }
}

#[cfg(test)]
mod splat_tests;
#[cfg(test)]
mod tests;
