//! Go extractor: go-redis, redigo and rueidis commands and scripts, Lua in
//! strings, and the definitions the value-flow core follows.
//!
//! One pass over the tree, with one context (`Cx`) that the modules below
//! add methods to:
//!
//! - `mod.rs`: the entry point [`extract`], the context and its scopes
//!   (package, function), the visitor, and the definitions it states: a
//!   `ConstDef` per package-level `const` and `var` (in the module named by
//!   the `package` clause, which every file of the package shares), a
//!   `FunctionDef` per function and method (a method's in `pkg.Type`, its
//!   receiver as `RECEIVER`), its first `return` value as `returns`, and a
//!   field a composite literal of a type of the package sets
//!   (`&RDB{client: c}`) as `.client` in `pkg.RDB`;
//! - `values.rs`: expressions as `Value`s: names, selectors, calls,
//!   composite literals (slices as lists, maps and structs as maps),
//!   `+`, `fmt.Sprintf`, `strings.Join`;
//! - `strings.rs`: interpreted and raw string literals decoded, `+`
//!   concatenations of them joined, Lua parsed in place with host spans;
//! - `client.rs`: the table of go-redis, redigo and rueidis methods every
//!   call is read through;
//! - `calls.rs`: client calls as commands and script calls, and calls of
//!   the code base;
//! - `types.rs`: which names and fields hold a client, a script object or
//!   a `context.Context` (by declared type through the imports, or by the
//!   value bound), so a leading context is left off the wire whatever its
//!   name.
//!
//! A script is a script object a maker of the table makes
//! (`redis.NewScript(src)`, redigo's `redis.NewScript(keyCount, src)`,
//! `rueidis.NewLuaScript(src)`) run with `Run`/`Eval`/`EvalSha` (keys as a
//! slice, args after them), `Exec` (keys and args as two slices) or
//! `Do`/`Send` (keys and args in one list), or `Eval`/`EvalSha` on a
//! client. `x, err := f()` binds `x` to the call's value (its first
//! result). The tree is walked without recursion proportional to its
//! depth ([`walk`]); the few places that recurse (closures, expression
//! values) stop at [`MAX_DEPTH`].

mod calls;
mod client;
mod files;
pub mod kinds;
mod methods;
pub(crate) mod stdlib;
mod stores;
mod strings;
mod types;
mod values;

pub(crate) use client::client_calls;
pub(crate) use client::names_client;
#[cfg(test)]
pub(crate) use client::CLIENTS;

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::extract::fields::GO as F;
use crate::extract::lang::Input;
use crate::extract::locals::{self, Names};
use crate::extract::source::{self, Base, OnePass, Source};
use crate::facts::{FileFacts, FunctionDef, Value};
use crate::parse::{named_children, walk};

/// Bound on every recursion of this extractor.
const MAX_DEPTH: usize = 48;

/// The facts of one parsed Go file; `stem` is its name without `.go`.
pub fn extract(input: Input<'_, '_>) -> FileFacts {
    let (root, test) = (input.root, input.stem.ends_with("_test"));
    let mut cx = Cx {
        base: Base::new(input.src, input.file, input.parsers),
        package: String::new(),
        imports: HashMap::new(),
        module_imports: HashSet::new(),
        globals: Scope::default(),
        scope: Scope::default(),
        receiver_type: None,
        block_decls: Vec::new(),
        verbs: false,
        field_scripts: HashMap::new(),
        field_types: HashMap::new(),
        embed_fs: HashSet::new(),
        literals_read: HashMap::new(),
        methods: HashSet::new(),
        variadic: HashMap::new(),
        stores: Vec::new(),
        range_over: None,
        pointer_maps: HashMap::new(),
    };
    if test {
        cx.base.facts.test_regions.push(cx.span(root));
    }
    cx.top(root);
    cx.base.finish()
}

/// What names are bound to in the scope being walked.
#[derive(Default, Clone)]
struct Scope {
    /// Parameters, the receiver's name in a method, locals.
    names: Names,
    /// The declared type of a parameter or a `var`, as written.
    types: HashMap<String, String>,
    /// Names bound to a Redis client, a connection or a pipeline.
    clients: HashSet<String>,
    /// Names bound to a script (`redis.NewScript(..)`, `*redis.Script`):
    /// redigo's key count when its `NewScript` gave one.
    scripts: HashMap<String, Option<Value>>,
    /// Names bound to a method value (`hset := rdb.HSet`): the bytes of
    /// the selector, which a call of the name calls (`methods.rs`).
    held: HashMap<String, std::ops::Range<usize>>,
}

/// The extraction context.
struct Cx<'s, 'p> {
    base: Base<'s, 'p>,
    /// The package the `package` clause names: the module of the file's
    /// definitions.
    package: String,
    /// Import names (an alias, or the path's last element) → the package.
    imports: HashMap<String, String>,
    /// The import names of packages of modules (the code base's, or a
    /// library's), not of the standard library nor a client's.
    module_imports: HashSet<String>,
    /// What package-level names hold.
    globals: Scope,
    scope: Scope,
    /// The type of the method being walked.
    receiver_type: Option<String>,
    /// The names each block being walked declares, innermost last.
    block_decls: Vec<HashSet<String>>,
    /// The literal being read is a `fmt.Sprintf` format: its verbs are
    /// holes (`%d` in a Lua loop), `%%` a percent sign.
    verbs: bool,
    /// Struct fields of the file's types that hold a script: typed
    /// `*redis.Script`, or set to `redis.NewScript(..)` (with redigo's key
    /// count).
    field_scripts: HashMap<String, Option<Value>>,
    /// The declared type of each field of the file's structs, by name.
    field_types: HashMap<String, String>,
    /// Package-level `embed.FS` variables a `//go:embed` fills.
    embed_fs: HashSet<String>,
    /// Function literals called where they stand, walked once: what each
    /// returns, by its start byte.
    literals_read: HashMap<usize, Value>,
    /// The methods the file declares, as (type, name).
    methods: HashSet<(String, String)>,
    /// The variadic functions (type empty) and methods the file declares,
    /// as (type, name), with their parameters before the variadic one.
    variadic: HashMap<(String, String), usize>,
    /// What the function being walked stores through its parameters.
    stores: Vec<stores::Store>,
    /// The `range` over a map parameter being walked.
    range_over: Option<stores::RangeOver>,
    /// Locals of the function being walked bound to a map literal of
    /// pointers to package-level variables: its entries.
    pointer_maps: HashMap<String, Vec<(Value, String, crate::facts::Span)>>,
}

/// Either of two values.
fn one_of(old: Value, v: Value) -> Value {
    let span = v.span();
    let mut alts = match old {
        Value::OneOf { alts, .. } => alts,
        o => vec![o],
    };
    if alts.len() < 8 && !alts.contains(&v) {
        alts.push(v);
    }
    Value::OneOf { alts, span }
}

source::one_pass!(Cx<'s, 'p>, MAX_DEPTH);

impl<'s, 'p> Cx<'s, 'p> {
    /// The module of the definitions being walked: the package, or
    /// `pkg.Type` in a method of `Type`.
    fn def_module(&self) -> String {
        match &self.receiver_type {
            Some(t) => format!("{}.{t}", self.package),
            None => self.package.clone(),
        }
    }

    /// The file's top level: the package and imports first, then the
    /// package's `const`s and `var`s (a function may use one declared
    /// after it), then the functions and methods.
    fn top(&mut self, root: Node<'_>) {
        let items = named_children(root);
        for c in &items {
            match c.kind() {
                "package_clause" => {
                    if let Some(id) = named_children(*c).first() {
                        self.package = self.text(*id);
                    }
                }
                "import_declaration" => self.imports(*c),
                "type_declaration" => self.field_types(*c),
                "function_declaration" | "method_declaration" => self.note_function(*c),
                _ => {}
            }
        }
        for c in &items {
            if matches!(c.kind(), "const_declaration" | "var_declaration") {
                self.declaration(*c);
            }
        }
        for c in &items {
            match c.kind() {
                "function_declaration" | "method_declaration" => self.function(*c),
                "const_declaration" | "var_declaration" | "package_clause" => {}
                "import_declaration" | "comment" | "type_declaration" => {}
                _ => self.walk_sub(*c),
            }
        }
    }

    /// `import ("context"; r "github.com/redis/go-redis/v9")`.
    fn imports(&mut self, n: Node<'_>) {
        let mut specs = Vec::new();
        walk(n, |m| {
            if m.kind() == "import_spec" {
                specs.push(m);
                return false;
            }
            true
        });
        for s in specs {
            let Some(path) = s.child_by_field_id(F.path) else {
                continue;
            };
            let path = self.text(path);
            let path = path.trim_matches(|c| c == '"' || c == '`');
            let mut segs = path.rsplit('/');
            let mut last = segs.next().unwrap_or("");
            // `github.com/redis/go-redis/v9`: the package is `redis`.
            if last.len() > 1
                && last.starts_with('v')
                && last[1..].bytes().all(|b| b.is_ascii_digit())
            {
                last = segs.next().unwrap_or(last);
            }
            let pkg = last.trim_start_matches("go-").to_string();
            let name = s
                .child_by_field_id(F.name)
                .map(|a| self.text(a))
                .unwrap_or_else(|| pkg.clone());
            // A module's path starts with a domain; the standard library's
            // does not.
            let module = path.split('/').next().is_some_and(|d| d.contains('.'));
            if module && !client::CLIENT_PACKAGES.contains(&pkg.as_str()) {
                self.module_imports.insert(name.clone());
            }
            self.imports.insert(name, pkg);
        }
    }

    fn visit(&mut self, n: Node<'_>) -> bool {
        match n.kind() {
            "comment" => false,
            "func_literal" => {
                if !self.literals_read.contains_key(&n.start_byte()) {
                    self.closure(n);
                }
                false
            }
            "block" | "expression_case" | "default_case" | "type_case" | "communication_case" => {
                self.block(n);
                false
            }
            "short_var_declaration" | "assignment_statement" => {
                self.assignment(n);
                true
            }
            "const_declaration" | "var_declaration" => {
                self.declaration(n);
                true
            }
            "for_statement" => !self.range_over_param(n),
            "range_clause" => {
                self.forget(n.child_by_field_id(F.left));
                true
            }
            "return_statement" => {
                let first = named_children(n)
                    .into_iter()
                    .next()
                    .and_then(|l| named_children(l).into_iter().next());
                let v = first.map(|e| self.value(e, 0));
                if let (Some(v), Some(r)) = (v, self.base.returns.last_mut()) {
                    if r.len() < 8 {
                        r.push(v);
                    }
                }
                true
            }
            "call_expression" => {
                self.call(n);
                true
            }
            "composite_literal" => {
                self.constructor(n);
                true
            }
            _ => true,
        }
    }

    /// A block (or a case of a `switch`): its statements in its own
    /// scope. A name it declares is gone after it (an outer one it shadows
    /// holds its old value again); a name of an outer scope it assigns
    /// holds either value after it (the block may not have run), unless the
    /// name held nothing known before (`var s *redis.Script` then set in
    /// each branch).
    fn block(&mut self, n: Node<'_>) {
        if self.base.depth > MAX_DEPTH {
            return;
        }
        let before = self.scope.names.locals.clone();
        self.block_decls.push(HashSet::new());
        self.base.depth += 1;
        let stmts = named_children(n);
        for c in &stmts {
            walk(*c, |m| self.visit(m));
        }
        self.base.depth -= 1;
        // A block that ends in `return` never reaches what follows it.
        let last = match stmts.last() {
            Some(l) if l.kind() == "statement_list" => named_children(*l).last().copied(),
            l => l.copied(),
        };
        if last.is_some_and(|s| s.kind() == "return_statement") {
            self.block_decls.pop();
            self.scope.names.locals = before;
            return;
        }
        let inner = self.block_decls.pop().unwrap_or_default();
        let after = std::mem::take(&mut self.scope.names.locals);
        let mut out = HashMap::new();
        for (k, v) in after {
            if inner.contains(&k) {
                if let Some(old) = before.get(&k) {
                    out.insert(k, old.clone());
                }
                continue;
            }
            let merged = match before.get(&k) {
                Some(old) if *old != v => one_of(old.clone(), v),
                _ => v,
            };
            out.insert(k, merged);
        }
        self.scope.names.locals = out;
    }

    /// A name declared in the block being walked.
    fn declare(&mut self, name: &str) {
        if let Some(d) = self.block_decls.last_mut() {
            d.insert(name.to_string());
        }
    }

    /// Binds a local: the new value replaces the old (a block that may
    /// not run merges them when it ends).
    fn bind_local(&mut self, name: String, v: Value) {
        self.scope.names.locals.insert(name, v);
    }

    /// What the names of an assignment's left side held is gone.
    fn forget(&mut self, target: Option<Node<'_>>) {
        let Some(t) = target else { return };
        for m in locals::target_names(t, &["identifier"]) {
            let name = self.text(m);
            self.scope.names.locals.remove(&name);
            self.scope.clients.remove(&name);
            self.scope.scripts.remove(&name);
            self.scope.held.remove(&name);
        }
    }

    /// `x := v`, `x, y = a, b`, `r.f = v`: names bound one to one; `x, err
    /// := f()`, a call that returns several values, binds its first name
    /// to the call's value (what a function's `returns` states: its first
    /// result) and the others to what is not followed.
    fn assignment(&mut self, n: Node<'_>) {
        let (Some(left), Some(right)) = (n.child_by_field_id(F.left), n.child_by_field_id(F.right))
        else {
            return;
        };
        let op = n
            .child_by_field_id(F.operator)
            .map(|o| self.text(o))
            .unwrap_or_else(|| ":=".into());
        let (ls, rs) = (named_children(left), named_children(right));
        let declares = n.kind() == "short_var_declaration";
        let several = ls.len() > 1 && rs.len() == 1 && rs[0].kind() == "call_expression";
        if !matches!(op.as_str(), "=" | ":=") || (ls.len() != rs.len() && !several) {
            if declares {
                for l in &ls {
                    let name = self.text(*l);
                    self.declare(&name);
                }
            }
            return self.forget(Some(left));
        }
        if several {
            for l in &ls[1..] {
                if declares {
                    let name = self.text(*l);
                    self.declare(&name);
                }
                self.forget(Some(*l));
            }
        }
        for (l, r) in ls.into_iter().zip(rs) {
            match l.kind() {
                "identifier" => self.bind_name(l, r, declares),
                "selector_expression" => self.field_assignment(l, r),
                _ if self.pointer_store(l, r) => {}
                _ => self.forget(Some(l)),
            }
        }
    }

    /// `x := v` or `x = v` in a function: `x` holds `v` now.
    fn bind_name(&mut self, l: Node<'_>, r: Node<'_>, declares: bool) {
        let name = self.text(l);
        if name == "_" {
            return;
        }
        self.base.binding = Some((name.clone(), self.span(l), true));
        let v = self.value(r, 0);
        self.base.binding = None;
        self.note_kinds(&name, r, false);
        self.note_method(&name, r);
        let pointers = match r.kind() {
            "composite_literal" => self.pointer_entries(r),
            _ => Vec::new(),
        };
        if pointers.is_empty() {
            self.pointer_maps.remove(&name);
        } else {
            self.pointer_maps.insert(name.clone(), pointers);
        }
        if declares {
            self.declare(&name);
        }
        self.bind_local(name, v);
    }

    /// `r.f = v` in a method of `T`: `T`'s field `.f` holds `v`.
    fn field_assignment(&mut self, l: Node<'_>, r: Node<'_>) {
        let (Some(obj), Some(field)) =
            (l.child_by_field_id(F.operand), l.child_by_field_id(F.field))
        else {
            return;
        };
        let is_recv = obj.kind() == "identifier"
            && self.scope.names.receiver.as_deref() == Some(self.text(obj).as_str());
        if !is_recv {
            return;
        }
        let name = self.text(field);
        if let Some(count) = self.new_script(r) {
            self.field_scripts.insert(name.clone(), count);
        }
        self.base.binding = Some((name.clone(), self.span(field), false));
        let v = self.value(r, 0);
        self.base.binding = None;
        if !matches!(v, Value::Unknown { .. } | Value::Param { .. }) {
            let module = self.def_module();
            self.define(module, &format!(".{name}"), v, field);
        }
    }

    /// `const`/`var` declarations: each spec's names bound to its values
    /// one to one; at the package level, definitions.
    fn declaration(&mut self, n: Node<'_>) {
        let mut specs = Vec::new();
        walk(n, |m| {
            if matches!(m.kind(), "const_spec" | "var_spec") {
                specs.push(m);
                return false;
            }
            true
        });
        let package_level = self.base.cur_func.is_none() && self.base.returns.is_empty();
        for s in specs {
            let names: Vec<Node<'_>> = named_children(s)
                .into_iter()
                .filter(|c| c.kind() == "identifier")
                .collect();
            let ty = s.child_by_field_id(F.ty).map(|t| self.text(t));
            let values = s
                .child_by_field_id(F.value)
                .map(named_children)
                .unwrap_or_default();
            for (i, name_node) in names.iter().enumerate() {
                let name = self.text(*name_node);
                if !package_level {
                    self.declare(&name);
                }
                if let Some(t) = &ty {
                    self.note_type(&name, t, package_level);
                    if package_level && values.is_empty() {
                        let embeds = self.embed_patterns(s);
                        if !embeds.is_empty() {
                            self.embedded_var(*name_node, t, embeds);
                        }
                    }
                }
                let Some(r) = values.get(i).filter(|_| values.len() == names.len()) else {
                    continue;
                };
                self.base.binding = Some((name.clone(), self.span(*name_node), !package_level));
                let v = self.value(*r, 0);
                self.base.binding = None;
                self.note_kinds(&name, *r, package_level);
                if package_level {
                    let module = self.package.clone();
                    self.define(module, &name, v, *name_node);
                } else {
                    self.bind_local(name, v);
                }
            }
        }
    }

    /// A definition.
    fn define(&mut self, module: String, name: &str, value: Value, at: Node<'_>) {
        let span = self.span(at);
        crate::extract::define(&mut self.base.facts, module, name, value, span);
    }

    /// `T{f: v}` or `&T{f: v}` for a type `T` of this package: a field its
    /// constructors set, stated as `.f` in `pkg.T`.
    fn constructor(&mut self, n: Node<'_>) {
        let (Some(ty), Some(body)) = (n.child_by_field_id(F.ty), n.child_by_field_id(F.body))
        else {
            return;
        };
        if ty.kind() != "type_identifier" || self.base.cur_func.is_none() {
            return;
        }
        let module = format!("{}.{}", self.package, self.text(ty));
        for el in named_children(body) {
            if el.kind() != "keyed_element" {
                continue;
            }
            let (Some(k), Some(v)) = (el.child_by_field_id(F.key), el.child_by_field_id(F.value))
            else {
                continue;
            };
            let key = self.text(k);
            if !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                continue;
            }
            let expr = named_children(v).into_iter().next().unwrap_or(v);
            if let Some(count) = self.new_script(expr) {
                self.field_scripts.insert(key.clone(), count);
            }
            let value = self.value(expr, 0);
            if !matches!(value, Value::Param { .. }) {
                self.define(module.clone(), &format!(".{key}"), value, k);
            }
        }
    }

    /// A function or a method: a `FunctionDef` whose `returns` are the
    /// values its `return`s give first.
    fn function(&mut self, n: Node<'_>) {
        let Some((name, name_node, body)) = self.name_and_body(n, F.name, F.body) else {
            return;
        };
        let mut scope = Scope::default();
        let mut receiver_type = None;
        let mut variadic = false;
        if let Some(recv) = n.child_by_field_id(F.receiver) {
            for (pname, ty) in self.params(recv) {
                receiver_type = Some(types::bare_type(&ty));
                scope.names.receiver = pname;
            }
        }
        if let Some(ps) = n.child_by_field_id(F.parameters) {
            for (pname, ty) in self.params(ps) {
                let pname = pname.unwrap_or_else(|| "_".into());
                variadic = ty.starts_with("...");
                if self.client_type(&ty) {
                    scope.clients.insert(pname.clone());
                }
                if self.script_type(&ty) {
                    scope.scripts.insert(pname.clone(), None);
                }
                scope.types.insert(pname.clone(), ty);
                scope.names.params.push(pname);
            }
        }
        let saved_type = std::mem::replace(&mut self.receiver_type, receiver_type);
        let (name_span, span) = (self.span(name_node), self.span(n));
        // A variadic function's last parameter is an empty list when a
        // call leaves it out.
        let mut default_values: Vec<Option<Value>> = Vec::new();
        if variadic {
            default_values = vec![None; scope.names.params.len()];
            if let Some(last) = default_values.last_mut() {
                *last = Some(Value::List {
                    items: Vec::new(),
                    tail: Vec::new(),
                    span: name_span,
                });
            }
        }
        let def = FunctionDef::declared(self.def_module(), name, name_span, span)
            .with_params(scope.names.params.clone(), default_values);
        let saved = std::mem::replace(&mut self.scope, scope);
        let stores = std::mem::take(&mut self.stores);
        let pointer_maps = std::mem::take(&mut self.pointer_maps);
        // At most eight `return` values are kept (`visit`), so all of them
        // are its value.
        let index = self.walk_function(def, span, Some(body), |_| None);
        if !self.stores.is_empty() {
            let def = self.base.facts.functions[index].clone();
            self.store_functions(&def);
        }
        self.stores = stores;
        self.pointer_maps = pointer_maps;
        self.scope = saved;
        self.receiver_type = saved_type;
    }

    /// `func(p redis.Pipeliner) error { .. }`: its body read in the
    /// enclosing scope, its parameters as locals of unknown value (a
    /// pipeline by its type), its `return`s its own.
    fn closure(&mut self, n: Node<'_>) {
        let Some(body) = n.child_by_field_id(F.body) else {
            return;
        };
        let saved = self.scope.clone();
        if let Some(ps) = n.child_by_field_id(F.parameters) {
            for (pname, ty) in self.params(ps) {
                let Some(pname) = pname else { continue };
                self.scope.names.params.retain(|p| p != &pname);
                self.scope
                    .names
                    .locals
                    .insert(pname.clone(), Value::unknown(pname.clone(), self.span(n)));
                if self.client_type(&ty) {
                    self.scope.clients.insert(pname.clone());
                }
            }
        }
        self.base.returns.push(Vec::new());
        self.walk_sub(body);
        self.base.returns.pop();
        self.scope = saved;
    }

    /// A parameter list's names (`None` for an unnamed one) with their
    /// types as written; `a, b string` gives both.
    fn params(&self, list: Node<'_>) -> Vec<(Option<String>, String)> {
        let mut out = Vec::new();
        for p in named_children(list) {
            if !matches!(
                p.kind(),
                "parameter_declaration" | "variadic_parameter_declaration"
            ) {
                continue;
            }
            let mut ty = p
                .child_by_field_id(F.ty)
                .map(|t| self.text(t))
                .unwrap_or_default();
            if p.kind() == "variadic_parameter_declaration" && !ty.starts_with("...") {
                ty.insert_str(0, "...");
            }
            let names: Vec<String> = named_children(p)
                .into_iter()
                .filter(|c| c.kind() == "identifier")
                .map(|c| self.text(c))
                .collect();
            if names.is_empty() {
                out.push((None, ty.clone()));
            }
            for name in names {
                out.push((Some(name), ty.clone()));
            }
        }
        out
    }
}

#[cfg(test)]
mod file_tests;
#[cfg(test)]
mod slice_tests;
#[cfg(test)]
mod tests;
