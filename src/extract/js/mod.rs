//! JavaScript and TypeScript extractor (`.js`, `.mjs`, `.cjs`, `.jsx`,
//! `.ts`, `.mts`, `.cts`, `.tsx`): one reading of the three grammars, which
//! share their node kinds (TypeScript's adds types, which are passed over).
//!
//! Two walks over the tree, each iterative with a stack of the functions
//! and classes it is in (the tree's depth is never the stack's):
//!
//! - the first (`mod.rs`) finds every function (a declaration, a method, an
//!   arrow or function expression bound to a name) and what each scope
//!   binds (`const`/`let`/`var`, assignments), and the scripts (`scripts.rs`:
//!   Lua in strings and template literals, `.lua` files read at start-up);
//! - the second states the definitions to the value-flow core
//!   (`FunctionDef`s with what each returns, `ConstDef`s for module
//!   constants and for the fields a class's methods set on `this`) and
//!   reads every call (`calls.rs`: client commands through the table of
//!   `client.rs`, script calls, scripts registered with `defineCommand` or
//!   loaded with `SCRIPT LOAD`, and calls of the code base).
//!
//! `values.rs` reads an expression as a `Value`: strings and template
//! literals as templates (interpolations as values), `+` as concatenation,
//! objects as maps, arrays as lists, `this.f` as the receiver's field, a
//! local as what it was bound to.

mod calls;
mod classes;
mod client;
mod invoke;
pub mod kinds;
mod member;
mod scripts;
pub(crate) mod stdlib;
mod types;
mod values;

pub(crate) use client::client_calls;
#[cfg(test)]
pub(crate) use client::CLIENTS;

use std::collections::HashMap;

use tree_sitter::Node;

use crate::extract::fields::Fields;
use crate::extract::lang::Input;
use crate::extract::source::{Budget, Source};
use crate::facts::{FileFacts, FileId, Lang, Span, Value};
use crate::parse::Parsers;

/// Bound on every recursion of this extractor (expression nesting, locals
/// followed into locals).
const MAX_DEPTH: usize = 48;

/// Values a name bound several times may be, at most.
const MAX_BINDINGS: usize = 4;

/// The facts of one parsed JavaScript or TypeScript file.
pub fn extract(input: Input<'_, '_>, lang: Lang) -> FileFacts {
    let (root, src) = (input.root, input.src);
    let mut cx = Cx {
        src,
        root,
        climb: std::cell::RefCell::new(crate::parse::Climb::new(root)),
        following: Vec::new(),
        fuel: 0,
        budget: Budget::of(src.len()),
        file: input.file,
        parsers: input.parsers,
        f: crate::extract::fields::of(lang),
        facts: FileFacts::default(),
        module: input.stem.to_string(),
        stack: Vec::new(),
        scopes: HashMap::new(),
        funcs: HashMap::new(),
        scripts_at: HashMap::new(),
        commands: HashMap::new(),
        loaded: HashMap::new(),
        pending: Vec::new(),
        names_redis: crate::extract::needles::names_client(src),
        not_reads: Default::default(),
        classes: HashMap::new(),
        namespaces: namespaces(root, src, crate::extract::fields::of(lang)),
    };
    cx.traverse(root, Pass::Bindings);
    let pending = std::mem::take(&mut cx.pending);
    cx.registrations(pending);
    cx.traverse(root, Pass::Facts);
    cx.budget.close(&mut cx.facts, cx.file, src.len());
    cx.facts
}

/// The names a file imports a module's exports under: `import * as ns
/// from "m"`, and `const ns = require("m")` at the top level. An import
/// names the constant its module exports, whichever module that is, as a
/// named import does: the value-flow core finds the definition by name.
fn namespaces(
    root: Node<'_>,
    src: &[u8],
    f: &crate::extract::fields::Fields,
) -> std::collections::HashSet<String> {
    let text = |n: Node<'_>| String::from_utf8_lossy(&src[n.byte_range()]).into_owned();
    let mut out = std::collections::HashSet::new();
    for st in crate::parse::named_children(root).into_iter().take(4096) {
        match st.kind() {
            "import_statement" => {
                for c in crate::parse::named_children(st) {
                    if c.kind() != "import_clause" {
                        continue;
                    }
                    for ns in crate::parse::named_children(c) {
                        if ns.kind() == "namespace_import" {
                            if let Some(id) = crate::parse::named_children(ns).into_iter().next() {
                                out.insert(text(id));
                            }
                        }
                    }
                }
            }
            "lexical_declaration" | "variable_declaration" => {
                for d in crate::parse::named_children(st) {
                    let (Some(name), Some(value)) =
                        (d.child_by_field_id(f.name), d.child_by_field_id(f.value))
                    else {
                        continue;
                    };
                    let required = value.kind() == "call_expression"
                        && value
                            .child_by_field_id(f.function)
                            .is_some_and(|f| text(f) == "require");
                    if name.kind() == "identifier" && required {
                        out.insert(text(name));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Functions, bindings and scripts.
    Bindings,
    /// Definitions and calls.
    Facts,
}

/// A function or class the walk is in.
#[derive(Clone)]
struct Frame {
    /// The node's id (its scope's key).
    id: usize,
    /// The `FunctionDef` of a named function; `None` for an anonymous one
    /// (a callback) and for a class body or the program.
    func: Option<usize>,
    params: Vec<String>,
    /// The class a method or class body is in.
    class: Option<String>,
    /// A class body or the program: not a function scope.
    container: bool,
    /// An arrow function: its `this` is the enclosing function's.
    arrow: bool,
    /// Parameters whose declared type is one value (`id: string`).
    scalars: Vec<String>,
    /// Parameters whose value the call they are passed to gives (the reply
    /// of `script("load", text, (err, sha) => ..)`).
    given: Vec<(usize, Value)>,
    /// Parameters whose declared type is a class (`keys: Keys`).
    types: Vec<(String, String)>,
}

/// A command `defineCommand` or `defineScript` gives the client.
#[derive(Clone, Debug)]
struct Registered {
    /// The script: one of this file's, or a value the link follows (an
    /// imported constant, a file read).
    script: Value,
    /// Whether `transformArguments` decides what is sent.
    transforms: bool,
    /// The key count it was registered with, where the script is not this
    /// file's (a script of this file is given it).
    keys: Option<(u32, Span)>,
}

struct Cx<'s, 't, 'p> {
    src: &'s [u8],
    root: Node<'t>,
    /// Parents, for the climbs from functions, strings and bindings to
    /// what holds them (`Node::parent` descends from the root each time).
    climb: std::cell::RefCell<crate::parse::Climb<'t>>,
    /// Bindings being followed (a name bound to itself stops).
    following: Vec<NodeRef>,
    /// What the value being read may still read ([`values`]).
    fuel: usize,
    /// What is left of the file's value budget ([`Budget`]).
    budget: Budget,
    file: FileId,
    parsers: &'p mut Parsers,
    f: &'static Fields,
    facts: FileFacts,
    /// The file's stem: the module of its top-level definitions.
    module: String,
    stack: Vec<Frame>,
    /// Per scope (a function's or the program's node id), the expressions
    /// each name is bound to, in source order.
    scopes: HashMap<usize, HashMap<String, Vec<NodeRef>>>,
    /// Function nodes by id: their `FunctionDef` index.
    funcs: HashMap<usize, usize>,
    /// Scripts by the expression that holds them.
    scripts_at: HashMap<NodeRef, usize>,
    /// Commands `defineCommand` or `defineScript` gives the client in this
    /// file, by name.
    commands: HashMap<String, Registered>,
    /// Registrations the first walk found (`calls::Pending`).
    pending: Vec<calls::Pending>,
    /// Script loads: the start byte of a `script("load", ..)` callback →
    /// the script text's value.
    loaded: HashMap<usize, Value>,
    /// The file names Redis: a method of a generic name (`get`, `call`)
    /// is a client call only in such a file (`client::client_calls`).
    names_redis: bool,
    /// Names a module's exports are imported under (`import * as ns`,
    /// `const ns = require(..)` at the top level): `ns.x` is its export `x`.
    namespaces: std::collections::HashSet<String>,
    /// Member expressions that are called or assigned to, not read (node
    /// ids, marked as the walk enters their parent).
    not_reads: std::collections::HashSet<usize>,
    /// This file's classes ([`types`]).
    classes: HashMap<String, types::Class>,
}

/// A node kept across the walk: its byte range, found again from the root
/// when it is needed (`Node` borrows the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct NodeRef {
    start: usize,
    end: usize,
    kind: u16,
}

impl NodeRef {
    fn of(n: Node<'_>) -> NodeRef {
        NodeRef {
            start: n.start_byte(),
            end: n.end_byte(),
            kind: n.kind_id(),
        }
    }
}

/// The kinds that are functions.
fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function"
            | "method_definition"
    )
}

fn is_class(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration" | "class" | "abstract_class_declaration"
    )
}

/// Node kinds that are comments.
pub(crate) const COMMENT_KINDS: &[&str] = &["comment", "html_comment"];

impl Source for Cx<'_, '_, '_> {
    fn source(&self) -> (&[u8], FileId) {
        (self.src, self.file)
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `n`'s parent, by the file's [`crate::parse::Climb`].
    fn parent_of<'n>(&self, n: Node<'n>) -> Option<Node<'n>>
    where
        't: 'n,
    {
        self.climb.borrow_mut().parent(n)
    }

    /// Walks the tree without recursion, keeping the frame stack.
    fn traverse(&mut self, root: Node<'_>, pass: Pass) {
        self.stack.clear();
        self.stack.push(Frame {
            id: root.id(),
            func: None,
            params: Vec::new(),
            class: None,
            container: true,
            arrow: false,
            scalars: Vec::new(),
            given: Vec::new(),
            types: Vec::new(),
        });
        let mut cursor = root.walk();
        let mut entered: Vec<bool> = Vec::new();
        loop {
            if self.budget.is_out() {
                return;
            }
            let n = cursor.node();
            let pushed = self.enter(n, pass);
            entered.push(pushed);
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if entered.pop() == Some(true) {
                    self.stack.pop();
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    /// Visits one node on the way down; true when it pushed a frame.
    fn enter(&mut self, n: Node<'_>, pass: Pass) -> bool {
        let kind = n.kind();
        if is_function(kind) {
            let frame = self.function_frame(n, pass);
            self.stack.push(frame);
            return true;
        }
        if is_class(kind) {
            if pass == Pass::Bindings {
                self.read_class(n);
            }
            let class = n.child_by_field_id(self.f.name).map(|c| self.text(c));
            self.stack.push(Frame {
                id: n.id(),
                func: None,
                params: Vec::new(),
                class,
                container: true,
                arrow: false,
                scalars: Vec::new(),
                given: Vec::new(),
                types: Vec::new(),
            });
            return true;
        }
        match pass {
            Pass::Bindings => self.bind(n),
            Pass::Facts => self.fact(n),
        }
        false
    }

    /// The frame of a function: its `FunctionDef` when it has a name (made
    /// in the first pass, its `returns` in the second).
    fn function_frame(&mut self, n: Node<'_>, pass: Pass) -> Frame {
        let params = self.params_of(n);
        let class = self.stack.last().and_then(|f| f.class.clone());
        let in_class = n.kind() == "method_definition"
            || self
                .parent_of(n)
                .is_some_and(|p| p.kind().ends_with("field_definition"));
        let func = match pass {
            Pass::Bindings => self.define_function(n, &params, class.as_deref(), in_class),
            Pass::Facts => {
                let i = self.funcs.get(&n.id()).copied();
                if let Some(i) = i {
                    let frame = self.frame_of(n, i, &params, class.clone(), in_class);
                    self.stack.push(frame);
                    if in_class && self.facts.functions[i].name == "constructor" {
                        self.parameter_fields(n);
                    }
                    let returns = self.returns_of(n);
                    self.stack.pop();
                    self.facts.functions[i].returns = returns;
                }
                i
            }
        };
        let given = self.loaded.get(&n.start_byte()).map(|text| {
            let sha = crate::facts::sha1(text.clone(), self.span(n));
            vec![(1, sha)]
        });
        // A local function without parameters (`const run = () => ..` in a
        // function) has only the enclosing call's values: its calls are
        // that function's, as a callback's are.
        let thunk = params.is_empty()
            && self
                .parent_of(n)
                .is_some_and(|p| p.kind() == "variable_declarator")
            && self.stack.iter().any(|f| !f.container && f.func.is_some());
        Frame {
            id: n.id(),
            func: if thunk { None } else { func },
            params,
            class: if in_class { class } else { None },
            container: false,
            arrow: n.kind() == "arrow_function",
            scalars: self.scalars_of(n),
            given: given.unwrap_or_default(),
            types: self.typed_params(n),
        }
    }

    fn frame_of(
        &self,
        n: Node<'_>,
        func: usize,
        params: &[String],
        class: Option<String>,
        in_class: bool,
    ) -> Frame {
        Frame {
            id: n.id(),
            func: Some(func),
            params: params.to_vec(),
            class: if in_class { class } else { None },
            container: false,
            arrow: n.kind() == "arrow_function",
            scalars: self.scalars_of(n),
            given: Vec::new(),
            types: self.typed_params(n),
        }
    }

    /// The names of a function's parameters, in order (a destructured one
    /// is `_`).
    fn params_of(&self, n: Node<'_>) -> Vec<String> {
        if let Some(p) = n.child_by_field_id(self.f.parameter) {
            return vec![self.text(p)];
        }
        let Some(list) = n.child_by_field_id(self.f.parameters) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut c = list.walk();
        for p in list.named_children(&mut c) {
            if COMMENT_KINDS.contains(&p.kind()) {
                continue;
            }
            out.push(self.param_name(p).unwrap_or_else(|| "_".into()));
        }
        out
    }

    /// The parameters of the function the walk is in whose declared type
    /// is one value, never an array (`id: string`): TypeScript's types.
    pub(super) fn scalar_param(&self, name: &str) -> bool {
        let Some(f) = self
            .stack
            .iter()
            .rev()
            .find(|f| !f.container && f.func.is_some())
        else {
            return false;
        };
        f.scalars.iter().any(|s| s == name)
    }

    /// The parameters of `n` typed as one string, number or boolean.
    fn scalars_of(&self, n: Node<'_>) -> Vec<String> {
        let Some(list) = n.child_by_field_id(self.f.parameters) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut c = list.walk();
        for p in list.named_children(&mut c) {
            let ty = p
                .child_by_field_id(self.f.ty)
                .and_then(|t| t.named_child(0))
                .map(|t| self.text(t));
            if matches!(ty.as_deref(), Some("string" | "number" | "boolean")) {
                if let Some(name) = self.param_name(p) {
                    out.push(name);
                }
            }
        }
        out
    }

    fn param_name(&self, p: Node<'_>) -> Option<String> {
        match p.kind() {
            "identifier" => Some(self.text(p)),
            "required_parameter" | "optional_parameter" => {
                self.param_name(p.child_by_field_id(self.f.pattern)?)
            }
            "assignment_pattern" => self.param_name(p.child_by_field_id(self.f.left)?),
            _ => None,
        }
    }

    /// The name a function is known by: its own, a method's, or the
    /// variable, field or property it is bound to.
    fn function_name<'n>(&self, n: Node<'n>) -> Option<(String, Node<'n>)>
    where
        't: 'n,
    {
        if let Some(name) = n.child_by_field_id(self.f.name) {
            return Some((self.text(name), name));
        }
        let p = self.parent_of(n)?;
        let name = match p.kind() {
            "variable_declarator" | "public_field_definition" | "field_definition" => p
                .child_by_field_id(self.f.name)
                .or_else(|| p.child_by_field_id(self.f.property))?,
            "pair" => p.child_by_field_id(self.f.key)?,
            // `obj.m = (..) => ..`: the method a call `obj.m(..)` runs.
            "assignment_expression" if p.child_by_field_id(self.f.right) == Some(n) => p
                .child_by_field_id(self.f.left)
                .filter(|l| l.kind() == "member_expression")?
                .child_by_field_id(self.f.property)?,
            _ => return None,
        };
        matches!(name.kind(), "identifier" | "property_identifier").then(|| (self.text(name), name))
    }

    fn define_function(
        &mut self,
        n: Node<'_>,
        params: &[String],
        class: Option<&str>,
        in_class: bool,
    ) -> Option<usize> {
        let (name, name_node) = self.function_name(n)?;
        let module = match (class, in_class) {
            (Some(c), true) => format!("{}.{c}", self.module),
            _ => self.module.clone(),
        };
        let (name_span, span) = (self.span(name_node), self.span(n));
        let def = crate::facts::FunctionDef::declared(module, name, name_span, span);
        let i = self.facts.functions.len();
        self.facts
            .functions
            .push(def.with_params(params.to_vec(), Vec::new()));
        self.funcs.insert(n.id(), i);
        Some(i)
    }

    /// What a function returns: its expression body, or the values of its
    /// `return` statements (not those of the functions inside it).
    fn returns_of(&mut self, n: Node<'_>) -> Value {
        self.returns_at(n, 0)
    }

    /// What `n` returns, read `d` values deep (0 starts a value's fuel).
    fn returns_at(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let Some(body) = n.child_by_field_id(self.f.body) else {
            return Value::unknown("", span);
        };
        if body.kind() != "statement_block" {
            return self.value(body, d);
        }
        let mut found = Vec::new();
        let mut stack = vec![body];
        let mut steps = 0usize;
        while let Some(x) = stack.pop() {
            steps += 1;
            if steps > 100_000 || found.len() > MAX_BINDINGS {
                return Value::unknown("", span);
            }
            if x.kind() == "return_statement" {
                match x.named_child(0) {
                    Some(e) if !COMMENT_KINDS.contains(&e.kind()) => found.push(e),
                    _ => return Value::unknown("", span),
                }
                continue;
            }
            if is_function(x.kind()) || is_class(x.kind()) {
                continue;
            }
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
        }
        found.sort_by_key(|e| e.start_byte());
        let mut alts: Vec<Value> = found.into_iter().map(|e| self.value(e, d)).collect();
        match alts.len() {
            0 => Value::unknown("", span),
            1 => alts.remove(0),
            _ => Value::OneOf { alts, span },
        }
    }

    /// First pass: what a scope binds, and the scripts.
    fn bind(&mut self, n: Node<'_>) {
        match n.kind() {
            "variable_declarator" => {
                if let (Some(name), Some(v)) = (
                    n.child_by_field_id(self.f.name),
                    n.child_by_field_id(self.f.value),
                ) {
                    if name.kind() == "identifier" {
                        let name = self.text(name);
                        self.bind_name(name, v);
                    } else if name.kind() == "object_pattern" {
                        self.bind_pattern(name);
                    }
                }
            }
            "assignment_expression" => {
                if let (Some(l), Some(v)) = (
                    n.child_by_field_id(self.f.left),
                    n.child_by_field_id(self.f.right),
                ) {
                    if l.kind() == "identifier" {
                        let name = self.text(l);
                        self.bind_name(name, v);
                    }
                }
            }
            "string" | "template_string" => self.script_literal(n),
            "binary_expression" => self.script_concat(n),
            "call_expression" => {
                self.mutation(n);
                self.script_call(n);
                let mut pending = std::mem::take(&mut self.pending);
                self.pending_registration(n, &mut pending);
                self.pending = pending;
            }
            _ => {}
        }
    }

    /// `const { a, b: c } = v`: each name bound to its property of `v`
    /// (the pattern's entry, read by `values::destructured`).
    fn bind_pattern(&mut self, pattern: Node<'_>) {
        for c in values::named(pattern) {
            let name = match c.kind() {
                "shorthand_property_identifier_pattern" => Some(c),
                "pair_pattern" => c
                    .child_by_field_id(self.f.value)
                    .filter(|v| v.kind() == "identifier"),
                _ => None,
            };
            if let Some(name) = name {
                let name = self.text(name);
                self.bind_name(name, c);
            }
        }
    }

    /// Binds `name` in the innermost function scope (or the program's).
    fn bind_name(&mut self, name: String, v: Node<'_>) {
        let scope = self
            .stack
            .iter()
            .rev()
            .find(|f| !f.container || f.class.is_none())
            .map_or(0, |f| f.id);
        let list = self
            .scopes
            .entry(scope)
            .or_default()
            .entry(name)
            .or_default();
        if list.len() <= MAX_BINDINGS {
            list.push(NodeRef::of(v));
        }
    }

    /// `keys.push(x)` (or `unshift`, `splice`): the array a name holds is
    /// more than what it was bound to, so the call is one more value the
    /// name may hold, in the scope that binds it.
    fn mutation(&mut self, n: Node<'_>) {
        let Some(func) = self
            .invocation(n)
            .map(|(f, _)| f)
            .filter(|f| f.kind() == "member_expression")
        else {
            return;
        };
        let (Some(o), Some(p)) = (
            func.child_by_field_id(self.f.object),
            func.child_by_field_id(self.f.property),
        ) else {
            return;
        };
        if o.kind() != "identifier"
            || !matches!(self.text(p).as_str(), "push" | "unshift" | "splice")
        {
            return;
        }
        let name = self.text(o);
        let scope = self.stack.iter().rev().find_map(|f| {
            self.scopes
                .get(&f.id)
                .is_some_and(|s| s.contains_key(&name))
                .then_some(f.id)
        });
        let Some(list) = scope
            .and_then(|s| self.scopes.get_mut(&s))
            .and_then(|s| s.get_mut(&name))
        else {
            return;
        };
        if list.len() <= MAX_BINDINGS {
            list.push(NodeRef::of(n));
        }
    }

    /// The script an expression holds, when it is one the first pass found.
    fn script_at(&self, n: Node<'_>) -> Option<usize> {
        self.scripts_at.get(&NodeRef::of(n)).copied()
    }

    /// The innermost named function the walk is in.
    fn cur_func(&self) -> Option<usize> {
        self.stack.iter().rev().find_map(|f| f.func)
    }

    /// The class whose method the walk is in.
    fn cur_class(&self) -> Option<&str> {
        let f = self.stack.iter().rev().find(|f| !f.container && !f.arrow)?;
        f.class.as_deref()
    }
}

/// The top-level definitions a file states: a `ConstDef` per module
/// constant, in the file's module.
fn top_level_const(cx: &mut Cx<'_, '_, '_>, n: Node<'_>) {
    if cx.stack.len() != 1 {
        return;
    }
    let (Some(name), Some(v)) = (
        n.child_by_field_id(cx.f.name),
        n.child_by_field_id(cx.f.value),
    ) else {
        return;
    };
    if name.kind() != "identifier" || is_function(v.kind()) {
        return;
    }
    let value = cx.value(v, 0);
    cx.facts.consts.push(crate::facts::ConstDef {
        module: cx.module.clone(),
        name: cx.text(name),
        value,
        name_span: cx.span(name),
    });
}

#[cfg(test)]
mod spread_tests;
#[cfg(test)]
mod tests;
