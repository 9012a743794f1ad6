//! Python extractor: redis-py commands and scripts, Lua in strings, and the
//! definitions the value-flow core follows.
//!
//! One pass over the tree, with one context (`Cx`) that the modules below
//! add methods to:
//!
//! - `mod.rs`: the entry point [`extract`], the context and its scopes
//!   (module, class, function), the visitor, and the definitions it
//!   states: a `ConstDef` per module constant, per class attribute (also
//!   as the field `.x`) and per `self.x = ..` a method sets (`.x` in the
//!   class's module `stem.Class`); a `FunctionDef` per function, its
//!   `return` values as `returns`, a method's receiver as `RECEIVER`;
//! - `values.rs`: expressions as `Value`s: names, attributes, subscripts
//!   (a dict with literal keys looked up), calls, lists, dicts, `+`, `%`,
//!   `.format`, f-strings, `os.path.join`, file reads of `.lua` scripts;
//! - `strings.rs`: string literals decoded (prefixes, escapes, raw and
//!   triple-quoted strings, f-string holes), Lua parsed in place;
//! - `client.rs`: the table of redis-py methods every call is read
//!   through;
//! - `calls.rs`: client calls as commands and script calls, and calls of
//!   the code base.
//!
//! A script is a `Script` object (`register_script(lua)`) called with
//! `keys=` and `args=`, or an `eval`/`evalsha` command. The tree is walked
//! without recursion proportional to its depth ([`crate::parse::walk`]);
//! the few places that recurse (nested definitions, expression values)
//! stop at [`MAX_DEPTH`].

mod calls;
mod client;
pub mod kinds;
mod methods;
pub(crate) mod stdlib;
mod strings;
mod values;

pub(crate) use client::client_calls;
#[cfg(test)]
pub(crate) use client::CLIENTS;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::extract::fields::PYTHON as F;
use crate::extract::lang::Input;
use crate::extract::locals::{self, Locals, Reach, Scope, ScopeKind};
use crate::extract::source::{self, Base, OnePass, Source};
use crate::facts::{FileFacts, FunctionDef, Value};
use crate::parse::{named_children, Climb};

/// Bound on every recursion of this extractor.
const MAX_DEPTH: usize = 48;

/// The facts of one parsed Python file; `stem` names its module.
pub fn extract(input: Input<'_, '_>) -> FileFacts {
    let root = input.root;
    let module = match input.stem {
        "__init__" => "",
        stem => stem,
    };
    let mut cx = Cx {
        root,
        climb: RefCell::new(Climb::new(root)),
        base: Base::new(input.src, input.file, input.parsers),
        module: module.to_string(),
        classes: Vec::new(),
        script_fields: HashSet::new(),
        scope: Scope::default(),
        kind: ScopeKind::Top,
        imports: HashMap::new(),
        class_attrs: HashSet::new(),
        templates: strings::format_receivers(root, input.src),
    };
    cx.walk_sub(root);
    cx.base.finish()
}

/// The extraction context.
struct Cx<'s, 'r, 'p> {
    root: Node<'r>,
    climb: RefCell<Climb<'r>>,
    base: Base<'s, 'p>,
    /// The module: the file's stem (`""` for a package's `__init__`).
    module: String,
    classes: Vec<String>,
    scope: Scope,
    kind: ScopeKind,
    /// The attributes each class of the file defines in its body.
    class_attrs: HashSet<(String, String)>,
    /// The fields that hold a script or a table of scripts, by class
    /// (`self.scripts = {..: r.register_script(..)}` in one method), known
    /// in the class's methods walked after it.
    script_fields: HashSet<(String, String)>,
    /// `from a.b import c as d`: `d` → `["b", "c"]`; `import a.b as m`:
    /// `m` → `["b"]`.
    imports: HashMap<String, Vec<String>>,
    /// The names the file formats (`T.format(..)`): a string bound to one
    /// is a template of `str.format`, not text sent as it stands.
    templates: HashSet<String>,
}

source::one_pass!(Cx<'s, '_, 'p>, MAX_DEPTH);
locals::in_place!(Cx<'_, '_, '_>, reach);

/// What an ancestor says of how often a node runs: a function's, a
/// class's or the module's body, or a branch or a loop.
fn reach(p: Node<'_>) -> Reach {
    match p.kind() {
        "function_definition" | "class_definition" | "module" => Reach::Body,
        "if_statement"
        | "elif_clause"
        | "else_clause"
        | "for_statement"
        | "while_statement"
        | "try_statement"
        | "except_clause"
        | "match_statement"
        | "case_clause"
        | "conditional_expression"
        | "boolean_operator"
        | "lambda" => Reach::Branch,
        _ => Reach::Through,
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The module of the definitions being walked: `stem`, or
    /// `stem.Class` inside a class.
    fn def_module(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        if !self.module.is_empty() {
            parts.push(&self.module);
        }
        parts.extend(self.classes.last().map(String::as_str));
        parts.join(".")
    }

    fn visit(&mut self, n: Node<'_>) -> bool {
        match n.kind() {
            "comment" => false,
            "function_definition" => {
                self.function(n);
                false
            }
            "class_definition" => {
                self.class(n);
                false
            }
            "import_statement" | "import_from_statement" => {
                self.import(n);
                false
            }
            "assignment" => {
                self.assignment(n);
                true
            }
            "augmented_assignment" => {
                self.forget_target(n.child_by_field_id(F.left));
                true
            }
            "for_statement" => {
                self.forget_target(n.child_by_field_id(F.left));
                true
            }
            "with_item" => {
                self.with_item(n);
                true
            }
            "return_statement" => {
                let v = named_children(n)
                    .into_iter()
                    .next()
                    .map(|e| self.value(e, 0));
                self.base.returned(v);
                true
            }
            // What is compared or asserted is never sent.
            "comparison_operator" | "assert_statement" => {
                self.base.built_until = self.base.built_until.max(n.end_byte());
                true
            }
            "string" | "concatenated_string" | "binary_operator" => {
                self.built(n);
                true
            }
            "call" => {
                if self.is_format(n) {
                    self.built(n);
                }
                self.call(n);
                true
            }
            "subscript" => {
                self.row_read(n);
                true
            }
            _ => true,
        }
    }

    /// `"..".format(..)`: a string built.
    fn is_format(&self, n: Node<'_>) -> bool {
        let Some(f) = n
            .child_by_field_id(F.function)
            .filter(|f| f.kind() == "attribute")
        else {
            return false;
        };
        f.child_by_field_id(F.attribute)
            .is_some_and(|a| self.text(a) == "format")
            && f.child_by_field_id(F.object)
                .is_some_and(|o| matches!(o.kind(), "string" | "concatenated_string"))
    }

    /// `import a.b as m`, `from a.b import c as d`: the names they bind.
    fn import(&mut self, n: Node<'_>) {
        let from = n
            .child_by_field_id(F.module_name)
            .map(|m| self.text(m).rsplit('.').next().unwrap_or("").to_string());
        let Some(field) = std::num::NonZeroU16::new(F.name) else {
            return;
        };
        let mut cursor = n.walk();
        let names: Vec<Node<'_>> = n.children_by_field_id(field, &mut cursor).collect();
        for name in names {
            let (full, alias) = match name.kind() {
                "aliased_import" => {
                    let full = name.child_by_field_id(F.name).map(|x| self.text(x));
                    let alias = name.child_by_field_id(F.alias).map(|x| self.text(x));
                    (full.unwrap_or_default(), alias)
                }
                _ => (self.text(name), None),
            };
            let last = full.rsplit('.').next().unwrap_or("").to_string();
            let path = match &from {
                Some(m) if !m.is_empty() => vec![m.clone(), last.clone()],
                _ => vec![last.clone()],
            };
            // `import a.b` binds `a`, which names no definition here.
            if alias.is_none() && from.is_none() && full.contains('.') {
                continue;
            }
            self.imports.insert(alias.unwrap_or(last), path);
        }
    }

    /// `a, b = ..`, `x += ..`, `for x in ..`: what the names held is gone.
    fn forget_target(&mut self, target: Option<Node<'_>>) {
        let Some(t) = target else { return };
        for m in locals::target_names(t, &["identifier"]) {
            let name = self.text(m);
            self.scope.names.locals.remove(&name);
            self.scope.clients.remove(&name);
            self.scope.methods.remove(&name);
        }
    }

    /// `with open(p) as f`, `async with r.pipeline() as pipe`.
    fn with_item(&mut self, n: Node<'_>) {
        let Some(v) = n.child_by_field_id(F.value) else {
            return;
        };
        if v.kind() != "as_pattern" {
            return;
        }
        let (Some(expr), Some(alias)) = (
            named_children(v).into_iter().next(),
            v.child_by_field_id(F.alias),
        ) else {
            return;
        };
        let Some(name) = named_children(alias)
            .into_iter()
            .find(|c| c.kind() == "identifier")
        else {
            return;
        };
        let name = self.text(name);
        self.scope.methods.remove(&name);
        if self.is_client_expr(expr) {
            self.scope.clients.insert(name.clone());
        }
        let value = self.value(expr, 0);
        self.scope.names.locals.insert(name, value);
    }

    /// `x = ..`, `self.x = ..`, `d["k"] = ..` at any scope.
    fn assignment(&mut self, n: Node<'_>) {
        let (Some(left), Some(right)) = (n.child_by_field_id(F.left), n.child_by_field_id(F.right))
        else {
            return;
        };
        match left.kind() {
            "identifier" => {
                let name = self.text(left);
                let local = self.kind == ScopeKind::Function;
                self.base.binding = Some((name.clone(), self.span(left), local));
                let v = self.value(right, 0);
                self.base.binding = None;
                self.note_kinds(&name, right, &v);
                self.note_row(&name, right);
                self.note_method(&name, right);
                match self.kind {
                    ScopeKind::Top => {
                        self.define(&name, v.clone(), left);
                        self.scope.names.locals.insert(name, v);
                    }
                    ScopeKind::Class => {
                        if let Some(c) = self.classes.last() {
                            self.class_attrs.insert((c.clone(), name.clone()));
                        }
                        self.define(&name, v.clone(), left);
                        self.define(&format!(".{name}"), v.clone(), left);
                        // The class body is a scope of its own: the rest of
                        // it reads the name bare (its methods do not).
                        self.scope.names.locals.insert(name, v);
                    }
                    ScopeKind::Function => self.bind_local(name, v, n),
                }
            }
            "attribute" => {
                let Some(field) = self.self_field(left) else {
                    self.forget_target(Some(left));
                    return;
                };
                let attr = left.child_by_field_id(F.attribute).unwrap_or(left);
                self.base.binding = Some((field.clone(), self.span(attr), true));
                let v = self.value(right, 0);
                self.base.binding = None;
                let key = format!("self.{field}");
                self.note_kinds(&key, right, &v);
                // `None` is what a lazily set field holds before it is
                // set: a call of it runs what it is set to.
                if !matches!(v, Value::Unknown { .. } | Value::Param { .. }) {
                    self.define(&format!(".{field}"), v.clone(), attr);
                }
                self.bind_local(key, v, n);
            }
            "subscript" => self.item_assignment(left, right),
            _ => self.forget_target(Some(left)),
        }
    }

    /// `d["k"] = v` on a local dict: the dict holds `v` under `k`; a
    /// script stored under a name (`commands[name] = register_script(..)`)
    /// makes the dict a table of scripts.
    fn item_assignment(&mut self, left: Node<'_>, right: Node<'_>) {
        let (Some(base), Some(key)) = (
            left.child_by_field_id(F.value),
            left.child_by_field_id(F.subscript),
        ) else {
            return;
        };
        let name = self.local_name(base);
        let set = self.assign_item(name, key, right, left);
        let script = self.is_register(right)
            || (right.kind() == "identifier" && self.scope.scripts.contains(&self.text(right)));
        if let Some(name) = set.filter(|_| script) {
            self.note_script(name);
        }
    }

    /// `name` holds a script, or a table of them; a field of the receiver
    /// does so in every method of its class.
    fn note_script(&mut self, name: String) {
        if let (Some(f), Some(c)) = (name.strip_prefix("self."), self.classes.last()) {
            self.script_fields.insert((c.clone(), f.to_string()));
        }
        self.scope.scripts.insert(name);
    }

    /// The name a local or a field of the receiver is kept under: `x`,
    /// `self.x` (or `getattr(self, "x")`).
    fn local_name(&self, n: Node<'_>) -> Option<String> {
        match n.kind() {
            "identifier" => Some(self.text(n)),
            "attribute" | "call" => self.self_field(n).map(|f| format!("self.{f}")),
            _ => None,
        }
    }

    /// `self.x` in a method: `x`.
    fn self_field(&self, n: Node<'_>) -> Option<String> {
        let (obj, _, field) = self.member(n)?;
        let recv = self.scope.names.receiver.as_deref()?;
        (obj.kind() == "identifier" && self.text(obj) == recv).then_some(field)
    }

    /// Whether a name now holds a client or a script.
    fn note_kinds(&mut self, name: &str, right: Node<'_>, v: &Value) {
        if self.is_client_expr(right) {
            self.scope.clients.insert(name.to_string());
        }
        if self.is_register(right)
            || self.is_script_table(right)
            || matches!(v, Value::ScriptRef { .. })
        {
            self.note_script(name.to_string());
        }
    }

    /// A definition in the module being walked.
    fn define(&mut self, name: &str, value: Value, at: Node<'_>) {
        let (module, span) = (self.def_module(), self.span(at));
        crate::extract::define(&mut self.base.facts, module, name, value, span);
    }

    /// `class C(Base): body`: its attributes and methods in `stem.C`.
    fn class(&mut self, n: Node<'_>) {
        let Some((name, _, body)) = self.name_and_body(n, F.name, F.body) else {
            return;
        };
        if name.starts_with("Test") {
            self.base.facts.test_regions.push(self.span(n));
        }
        self.bases(n, &name);
        let saved = std::mem::take(&mut self.scope);
        let kind = std::mem::replace(&mut self.kind, ScopeKind::Class);
        self.classes.push(name);
        self.walk_sub(body);
        self.classes.pop();
        self.kind = kind;
        self.scope = saved;
    }

    /// `class A(B, m.C, metaclass=M)`: `A`'s bases, `B` and `m.C` (a name
    /// as its import names it); keyword arguments name none.
    fn bases(&mut self, n: Node<'_>, class: &str) {
        let Some(list) = n.child_by_field_id(F.superclasses) else {
            return;
        };
        for b in named_children(list) {
            let base = match b.kind() {
                "identifier" => {
                    let name = self.text(b);
                    self.imports.get(&name).cloned().unwrap_or(vec![name])
                }
                "attribute" => self.text(b).split('.').map(str::to_string).collect(),
                _ => continue,
            };
            self.base.facts.bases.push(crate::facts::TypeBase {
                class: class.to_string(),
                base,
            });
        }
    }

    /// `def f(a, b=1): body`: a `FunctionDef` whose `returns` are the
    /// values its `return`s give.
    fn function(&mut self, n: Node<'_>) {
        let Some((name, name_node, body)) = self.name_and_body(n, F.name, F.body) else {
            return;
        };
        if name.starts_with("test_") {
            self.base.facts.test_regions.push(self.span(n));
        }
        let is_method = self.kind == ScopeKind::Class && !self.is_static(n);
        let mut scope = Scope::default();
        let mut params = Vec::new();
        let mut default_values = Vec::new();
        if let Some(ps) = n.child_by_field_id(F.parameters) {
            for (i, p) in named_children(ps).into_iter().enumerate() {
                let Some((pname, default, annotation)) = self.param(p) else {
                    continue;
                };
                if i == 0 && is_method {
                    scope.names.receiver = Some(pname);
                    // The fields the class's methods before it filled with
                    // scripts.
                    let class = self.classes.last();
                    for (c, f) in &self.script_fields {
                        if Some(c) == class {
                            scope.scripts.insert(format!("self.{f}"));
                        }
                    }
                    continue;
                }
                if annotation.is_some_and(|t| t.contains("Redis") || t.contains("Pipeline")) {
                    scope.clients.insert(pname.clone());
                }
                scope.names.params.push(pname.clone());
                params.push(pname);
                default_values.push(default.map(|d| self.value(d, 0)));
            }
        }
        let span = self.span(n);
        let def = FunctionDef::declared(self.def_module(), name, self.span(name_node), span)
            .with_params(params, default_values);
        let saved = std::mem::replace(&mut self.scope, scope);
        let kind = std::mem::replace(&mut self.kind, ScopeKind::Function);
        self.walk_function(def, span, Some(body), |_| None);
        self.kind = kind;
        self.scope = saved;
    }

    /// `@staticmethod` before a method.
    fn is_static(&self, n: Node<'_>) -> bool {
        let Some(p) = self.climb.borrow_mut().parent(n) else {
            return false;
        };
        p.kind() == "decorated_definition"
            && named_children(p)
                .iter()
                .any(|d| d.kind() == "decorator" && self.text(*d).contains("staticmethod"))
    }

    /// A parameter: its name, its default's node, its annotation's text.
    /// `*args` (typed or not) is one too: it takes the positions from its
    /// own on, so the ones after it are not bound by position.
    fn param<'t>(&self, p: Node<'t>) -> Option<(String, Option<Node<'t>>, Option<String>)> {
        let splat = |c: Node<'t>| -> Option<Node<'t>> {
            named_children(c)
                .into_iter()
                .find(|c| c.kind() == "identifier")
        };
        match p.kind() {
            "identifier" => Some((self.text(p), None, None)),
            "list_splat_pattern" => Some((self.text(splat(p)?), None, None)),
            "typed_parameter" => {
                let id = named_children(p).into_iter().find_map(|c| match c.kind() {
                    "identifier" => Some(c),
                    "list_splat_pattern" => splat(c),
                    _ => None,
                })?;
                let ty = p.child_by_field_id(F.ty).map(|t| self.text(t));
                Some((self.text(id), None, ty))
            }
            "default_parameter" | "typed_default_parameter" => {
                let name = p.child_by_field_id(F.name)?;
                let ty = p.child_by_field_id(F.ty).map(|t| self.text(t));
                Some((self.text(name), p.child_by_field_id(F.value), ty))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod splat_tests;
#[cfg(test)]
mod tests;
