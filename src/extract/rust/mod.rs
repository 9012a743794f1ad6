//! Rust extractor: key templates, key-builder functions, constants, redis-rs /
//! deadpool-redis / fred / rustis commands, Lua scripts and script
//! invocations.
//!
//! One pass over the tree, with one context (`Cx`) that every module below
//! adds methods to:
//!
//! - `mod.rs`: the entry point [`extract`], the context and its scope, the
//!   visitor that sends each node kind to its module, shared node helpers;
//! - `items.rs`: functions, methods, `impl`/`trait` blocks, `const`/`static`
//!   and `let` (the `FunctionDef`s and `ConstDef`s);
//! - `modules.rs`: the module tree as the file states it (`mod x;`, the
//!   modules a `use` draws names from): where its client crate comes from;
//! - `paths.rs`: `use` imports, path segments, and which calls are calls of
//!   the code base (`CallFact`s);
//! - `values.rs`: expressions as `Value`s and `Template`s (`+`, `concat`,
//!   `join`, `replace`, calls);
//! - `strings.rs`: string literals, escapes, integers;
//! - `grow.rs`: local strings grown by `push_str`, `+=`, `write!`;
//! - `blocks.rs`: block expressions as values (their statements run in
//!   order over their own locals, then their tail);
//! - `structs.rs`: struct literals as records, the fields their types'
//!   constructors set, closures (a lazy cell's initialiser);
//! - `maps.rs`: maps filled with literal keys (`HashMap::new()` and
//!   `insert`, `from`, `collect`) and lookups by key;
//! - `arms.rs`: a function that ends in a `match` on a parameter, as one
//!   ordered clause per arm;
//! - `local.rs`: a command's name the file's own definitions give (a
//!   field, a method, a map, an arm), read once the file is walked;
//! - `macros.rs`: `format!`-like macros, `concat!`, `vec!`, macro arguments
//!   parsed again, calls recovered from tokens, `macro_rules!` wrappers
//!   around `include_str!`;
//! - `scripts.rs`: Lua scripts in literals and `include_str!`, their
//!   bindings and their registration tables;
//! - `client.rs`: the table of client methods (redis-rs, deadpool-redis,
//!   fred, rustis) every chain is read through;
//! - `commands.rs`: method chains as commands, pipelines and script calls;
//! - `evals.rs`: a script call in one method (fred's `eval(script, keys,
//!   args)`, rustis's `eval(CallBuilder::script(s).keys(k))`);
//! - `lua_macros.rs`: a macro's tokens as a Lua script (redis-lua's
//!   `lua!`), and the setters of its `$x` variables;
//! - `custom.rs`: commands sent by name (fred's `custom(cmd, args)`);
//! - `invocations.rs`: where a script call built in steps runs (only an
//!   invocation is a call: `inv.invoke(con)`, `pipe.invoke_script(&inv)`);
//! - `rows.rs`: field reads of a map read by HGETALL, here or (through a
//!   parameter) in a caller;
//! - `tests/`: unit tests by concern (the client table's cases are
//!   `crate::extract::clients`'s, for every language).
//!
//! The rest of wirelint reaches this extractor through the Rust host
//! language (`src/extract/lang.rs`): [`extract`] and `client_calls`.
//!
//! The tree is walked without recursion proportional to its depth: the
//! visitor runs under [`walk`], and the few places that recurse (expression
//! values, nested items, macro arguments) stop at [`MAX_DEPTH`].
//!
//! Macro arguments (`format!`, `concat!`, `vec!`) are a flat `token_tree` in
//! the grammar. They are parsed again as one expression (a tuple or an array)
//! with the token tree as the parser's only included range, so every node of
//! that second tree is in host-file coordinates.

mod arms;
mod blocks;
mod client;
mod commands;
mod custom;
mod evals;
mod grow;
mod invocations;
mod items;
pub mod kinds;
mod local;
mod lua_macros;
mod macros;
mod maps;
mod modules;
mod paths;
mod rows;
mod scripts;
pub(crate) mod stdlib;
mod strings;
mod structs;
mod values;

pub(crate) use client::client_calls;
#[cfg(test)]
pub(crate) use client::CLIENTS;
pub(crate) use modules::settle_scope;

use crate::extract::fields::RUST as F;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Parser};

use crate::extract::source::{self, Budget, Source};
use crate::facts::{FileFacts, FileId, Span, Value};
use crate::parse::{named_children, text, Parsers};

use self::commands::Builder;
use self::strings::placeholders_of;

/// Bound on every recursion of this extractor (expression nesting, nested
/// items, nested macros).
const MAX_DEPTH: usize = 64;

/// Format-like macros evaluated inside one another deeper than this are
/// holes: each level parses its arguments again, all the levels below it
/// included, so 4,000 nested `format!` took 5 s and 0.7 GB at the value
/// depth bound alone.
const MAX_MACRO_NESTING: usize = 8;

/// Macro arguments are parsed again (tree-sitter reads them as tokens), so
/// nested macros parse their inner bytes once per level: 75,000 nested
/// `format!` in 1 MB took 7.7 s and 1.6 GB with the walk's depth bound
/// alone. A file's reparses may read [`REPARSE_FACTOR`] times its length
/// plus [`REPARSE_SLACK`] (1 MB of them now: 1.4 s, 370 MB; the real
/// corpus gives the same findings as with no budget); a macro past that is not checked, and says so
/// (`FileFacts::unchecked`, WL001).
const REPARSE_FACTOR: usize = 1;
const REPARSE_SLACK: usize = 256 << 10;

/// The facts of one parsed Rust file.
/// Assertion macros: the strings they compare are expectations, not keys.
const ASSERT_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "assert_matches",
    "assert_str_eq",
];

pub fn extract(root: Node<'_>, src: &[u8], file: FileId, parsers: &mut Parsers) -> FileFacts {
    let mut cx = Cx {
        climb: RefCell::new(crate::parse::Climb::new(root)),
        root,
        src,
        file,
        parsers,
        macro_parser: None,
        reparsed: 0,
        facts: FileFacts::default(),
        modules: Vec::new(),
        scope: Scope::default(),
        depth: 0,
        scripts_at: HashMap::new(),
        setters: Vec::new(),
        inner: HashSet::new(),
        unsent: Vec::new(),
        parts: Vec::new(),
        pending_let: None,
        macro_cache: HashMap::new(),
        macro_nesting: 0,
        impl_types: Vec::new(),
        self_type: None,
        cur_func: None,
        hash_maps: HashMap::new(),
        row_getters: HashMap::new(),
        uses: HashMap::new(),
        placeholders: placeholders_of(src),
        script_macros: HashMap::new(),
        call_cache: HashMap::new(),
        pending_names: Vec::new(),
        budget: Budget::of(src.len()),
    };
    cx.walk_sub(root);
    cx.settle_names();
    cx.budget.close(&mut cx.facts, file, src.len());
    cx.facts
}

/// What the enclosing function knows: its parameters, its locals' values,
/// and the builders its variables hold.
#[derive(Default)]
struct Scope {
    params: Vec<String>,
    /// The function is a method taking `self`.
    has_self: bool,
    locals: HashMap<String, Value>,
    /// Locals declared as a `String` (`String::from(x)`, `x.to_string()`,
    /// `let s: String`), whatever value they start from: what `push_str`
    /// or `+=` appends grows them (`grow.rs`).
    strings: HashSet<String>,
    builders: HashMap<String, Builder>,
}

/// Methods that change a list in ways a push does not describe.
const MUTATORS: &[&str] = &[
    "push",
    "extend",
    "extend_from_slice",
    "append",
    "insert",
    "remove",
    "pop",
    "retain",
    "clear",
    "truncate",
    "drain",
    "dedup",
    "sort",
    "reverse",
    "swap",
    "split_off",
    "resize",
];

/// The extraction context: the file, the facts found so far, and what the
/// walk knows at the current node. Every module of this folder adds methods
/// to it.
struct Cx<'s, 'r, 'p> {
    /// Parents, for the climbs from a node to what holds it
    /// ([`crate::parse::Climb`]).
    climb: RefCell<crate::parse::Climb<'r>>,
    /// The file's tree: its items, for a name a command is given by.
    root: Node<'r>,
    src: &'s [u8],
    file: FileId,
    parsers: &'p mut Parsers,
    macro_parser: Option<Parser>,
    /// Bytes of macro arguments parsed again so far ([`REPARSE_FACTOR`]).
    reparsed: usize,
    facts: FileFacts,
    modules: Vec<String>,
    scope: Scope,
    depth: usize,
    /// What is left of the file's value budget ([`Budget`]).
    budget: Budget,
    /// Scripts already recorded, by the start byte of their literal.
    scripts_at: HashMap<usize, usize>,
    /// The setters a Lua macro's script has, by script index: its `$x`
    /// variables, each set by a method of its name (`script.x(v)`).
    setters: Vec<(usize, String)>,
    /// Inner nodes of chains already handled at their top (`+` chains,
    /// method chains). Kept because `Node::parent` costs the tree's depth.
    inner: HashSet<NodeKey>,
    /// Byte ranges whose strings are never sent: assertions and the sides
    /// of `==`/`!=` (a test's expected key is not a key on the wire).
    unsent: Vec<(usize, usize)>,
    /// Byte ranges that append to a string grown elsewhere (`grow.rs`):
    /// what they append is part of that string, not a key of its own.
    parts: Vec<(usize, usize)>,
    /// The `let` whose value is being walked: (value node, variable).
    pending_let: Option<(NodeKey, String)>,
    /// Values of format-like macros already evaluated, by node: a `let`
    /// value is both walked and evaluated.
    macro_cache: HashMap<NodeKey, Value>,
    /// Macros being evaluated inside one another, each parsed again
    /// ([`MAX_MACRO_NESTING`]).
    macro_nesting: usize,
    /// The `impl`/`trait` types around the current item, innermost last.
    impl_types: Vec<String>,
    /// The type `Self` names in the function being walked.
    self_type: Option<String>,
    /// The enclosing function: an index into `facts.functions`.
    cur_func: Option<usize>,
    /// `use` imports of the file: alias → full path (without `crate`).
    uses: HashMap<String, Vec<String>>,
    /// Maps read from Redis by `HGETALL`, by variable: the key read.
    hash_maps: HashMap<String, Value>,
    /// Local closures that read one field of a map, by name: the map, where
    /// the closure names it, and the parameter that names the field
    /// (`rows.rs`).
    row_getters: HashMap<String, (String, Span, usize)>,
    /// `macro_rules!` wrappers around `include_str!(concat!(a, $x, b))`:
    /// name → (literal text before the argument, literal text after).
    script_macros: HashMap<String, (String, String)>,
    /// Values of calls already evaluated, by node.
    call_cache: HashMap<NodeKey, Value>,
    /// Commands whose name a definition of the file gives (`local.rs`).
    pending_names: Vec<local::Pending>,
    /// Placeholders replaced somewhere in the file (`.replace("{queue}", ..)`):
    /// literals holding them are not keys by themselves.
    placeholders: Vec<String>,
}

/// A node's identity that stays valid across the macro trees parsed again
/// (node ids are addresses, reused once a tree is dropped): its byte range
/// and kind.
type NodeKey = (usize, usize, u16);

fn node_key(n: Node<'_>) -> NodeKey {
    (n.start_byte(), n.end_byte(), n.kind_id())
}

fn is_screaming(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn is_comment(n: Node<'_>) -> bool {
    n.kind().ends_with("comment") || n.kind() == "attribute_item"
}

fn args_of(call: Node<'_>) -> Vec<Node<'_>> {
    call.child_by_field_id(F.arguments)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| !is_comment(*c))
        .collect()
}

impl Source for Cx<'_, '_, '_> {
    fn source(&self) -> (&[u8], FileId) {
        (self.src, self.file)
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// The ancestors of `n`, nearest first, at most `max`, by the file's
    /// [`crate::parse::Climb`] (each found as the climb reaches it).
    fn ancestors<'a, 'n>(
        &'a self,
        n: Node<'n>,
        max: usize,
    ) -> impl Iterator<Item = Node<'n>> + use<'a, 'n, 's, 'r, 'p>
    where
        'r: 'n,
    {
        let first = self.climb.borrow_mut().parent(n);
        std::iter::successors(first, move |p| self.climb.borrow_mut().parent(*p)).take(max)
    }

    /// Whether `n` runs exactly once where its function runs: no loop,
    /// branch or closure between it and the function body.
    fn straight_line(&self, n: Node<'_>) -> bool {
        for p in self.ancestors(n, 256) {
            match p.kind() {
                "function_item" => return true,
                "for_expression" | "while_expression" | "loop_expression"
                | "closure_expression" | "if_expression" | "match_expression" | "else_clause"
                | "match_arm" => return false,
                _ => {}
            }
        }
        false
    }

    fn module(&self) -> String {
        self.modules.join("::")
    }

    /// Walks a subtree with the visitor, one level deeper.
    fn walk_sub(&mut self, n: Node<'_>) {
        source::walk_sub(self, n, MAX_DEPTH, |cx| &mut cx.depth, Self::visit);
    }

    /// An item marked as test code by the attributes just before it
    /// (`#[cfg(test)]`, `#[test]`, `#[tokio::test]`).
    fn note_test_region(&mut self, n: Node<'_>) {
        let mut prev = n.prev_named_sibling();
        for _ in 0..64 {
            let Some(a) = prev.filter(|a| a.kind() == "attribute_item") else {
                return;
            };
            let t = self.text(a);
            let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
            if t == "#[cfg(test)]" || t == "#[test]" || t.ends_with("::test]") {
                self.facts.test_regions.push(self.span(n));
                return;
            }
            prev = a.prev_named_sibling();
        }
    }

    /// The visitor: sends each node kind to the module that reads it, and
    /// returns whether to descend.
    fn visit(&mut self, n: Node<'_>) -> bool {
        if self.budget.is_out() {
            return false;
        }
        match n.kind() {
            "line_comment" | "block_comment" | "attribute_item" | "inner_attribute_item" => false,
            "mod_item" => {
                self.note_test_region(n);
                self.mod_item(n);
                false
            }
            "function_item" | "function_signature_item" => {
                self.note_test_region(n);
                self.function(n);
                false
            }
            "impl_item" | "trait_item" => {
                self.impl_item(n);
                false
            }
            "macro_definition" => {
                self.macro_definition(n);
                false
            }
            "const_item" | "static_item" => {
                self.const_item(n);
                true
            }
            "let_declaration" => {
                self.let_decl(n);
                false
            }
            "use_declaration" => {
                self.use_declaration(n);
                false
            }
            "string_literal" | "raw_string_literal" => {
                self.literal(n);
                false
            }
            "token_tree" => {
                self.include_in_tokens(n);
                true
            }
            "macro_invocation" => {
                if self.string_write(n, &self.macro_name(n)) {
                    return false;
                }
                if ASSERT_MACROS.contains(&self.macro_name(n).as_str()) {
                    self.unsent.push((n.start_byte(), n.end_byte()));
                }
                self.macro_invocation(n)
            }
            "binary_expression" => {
                if matches!(self.operator(n).as_str(), "==" | "!=") {
                    self.unsent.push((n.start_byte(), n.end_byte()));
                }
                self.plus_chain(n)
            }
            "index_expression" => {
                self.index_read(n);
                true
            }
            "struct_expression" => {
                self.struct_literal(n);
                true
            }
            "call_expression" => self.call(n),
            "assignment_expression" | "compound_assignment_expr" => {
                if self.string_add_assign(n) {
                    return true;
                }
                self.list_reassigned(n);
                true
            }
            _ => true,
        }
    }

    /// A call met by the walk: a field read, a call of the code base, the
    /// top of a method chain (commands, script calls), a key built by
    /// `.replace(..)` or `.join(..)`. Returns whether to descend.
    fn call(&mut self, n: Node<'_>) -> bool {
        if self.string_push(n) {
            return true;
        }
        self.vec_push(n);
        self.map_insert(n);
        self.field_read(n);
        self.getter_call(n);
        self.call_fact(n);
        if self.inner.contains(&node_key(n)) {
            return true;
        }
        self.chain_statement(n);
        self.builder_handed_on(n);
        if method_of(n, self.src).is_some_and(|(m, _)| m == "replace") {
            let v = self.value(n, 0);
            self.push_template(v);
            return true;
        }
        if self.is_join(n) {
            let v = self.value(n, 0);
            self.push_template(v);
            return false;
        }
        true
    }

    /// `keys.push(k)` on a local list: in straight-line code, the list
    /// grows by `k`; in a loop, a branch or a closure, or after any other
    /// change (`extend`, `insert`, `&mut keys` handed on), what it holds
    /// is no longer known (an unknown part in its tail).
    fn vec_push(&mut self, n: Node<'_>) {
        let Some((method, recv)) = method_of(n, self.src) else {
            self.vec_handed_on(n);
            return;
        };
        let recv = peel_ref(recv);
        if recv.kind() != "identifier" {
            return;
        }
        let name = self.text(recv);
        if !matches!(self.scope.locals.get(&name), Some(Value::List { .. })) {
            return;
        }
        let args = args_of(n);
        let straight = args.len() == 1 && self.straight_line(n);
        let v = match method.as_str() {
            "push" if straight => Some(vec![self.value(args[0], 0)]),
            // `keys.extend([a, b])`, `keys.extend(vec![..])`, `keys.append(&mut other)`.
            "extend" | "extend_from_slice" | "append" if straight => {
                match self.value(peel_ref(args[0]), 0) {
                    Value::List { items, tail, .. } if tail.is_empty() => Some(items),
                    _ => None,
                }
            }
            m if MUTATORS.contains(&m) => None,
            _ => return,
        };
        if let Some(Value::List { items, tail, span }) = self.scope.locals.get_mut(&name) {
            match v {
                Some(v) if tail.is_empty() && items.len() + v.len() <= 64 => items.extend(v),
                _ if tail.is_empty() => tail.push(Value::unknown(name.clone(), *span)),
                _ => {}
            }
        }
    }

    /// `keys = other`: a local list assigned again is no longer known.
    fn list_reassigned(&mut self, n: Node<'_>) {
        let Some(left) = n.child_by_field_id(F.left) else {
            return;
        };
        let name = self.text(left);
        self.forget_list(&name);
    }

    /// A local list whose items are no longer all known: an unknown part in
    /// its tail.
    fn forget_list(&mut self, name: &str) {
        if let Some(Value::List { tail, span, .. }) = self.scope.locals.get_mut(name) {
            if tail.is_empty() {
                tail.push(Value::unknown(name, *span));
            }
        }
    }

    /// `fill(&mut keys)`: a list handed on mutably is no longer known.
    fn vec_handed_on(&mut self, n: Node<'_>) {
        for a in args_of(n) {
            if a.kind() != "reference_expression" || !self.text(a).starts_with("&mut") {
                continue;
            }
            let Some(inner) = a.child_by_field_id(F.value) else {
                continue;
            };
            let name = self.text(inner);
            self.forget_list(&name);
        }
    }

    fn push_template(&mut self, v: Value) {
        if let Value::Str(t) = v {
            let (start, end) = (t.span.start as usize, t.span.end as usize);
            let inside = |r: &[(usize, usize)]| r.iter().any(|&(s, e)| s <= start && end <= e);
            if inside(&self.unsent) || inside(&self.parts) {
                return;
            }
            crate::extract::push_template(&mut self.facts, Value::Str(t));
        }
    }

    fn operator(&self, n: Node<'_>) -> String {
        n.child_by_field_id(F.operator)
            .map(|o| self.text(o))
            .unwrap_or_default()
    }
}

/// `&x`, `&mut x` → `x`.
fn peel_ref(n: Node<'_>) -> Node<'_> {
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        match cur.kind() {
            "reference_expression" => match cur.child_by_field_id(F.value) {
                Some(v) => cur = v,
                None => break,
            },
            "parenthesized_expression" => match named_children(cur).into_iter().next() {
                Some(v) => cur = v,
                None => break,
            },
            _ => break,
        }
    }
    cur
}

/// The function a call expression calls, without its turbofish
/// (`f::<T>(..)` → `f`).
fn callee(call: Node<'_>) -> Option<Node<'_>> {
    let func = call.child_by_field_id(F.function)?;
    if func.kind() == "generic_function" {
        return func.child_by_field_id(F.function);
    }
    Some(func)
}

/// `recv.method(..)` → `(method, recv)`.
fn method_of<'t>(n: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)> {
    if n.kind() != "call_expression" {
        return None;
    }
    let func = callee(n)?;
    if func.kind() != "field_expression" {
        return None;
    }
    let field = func.child_by_field_id(F.field)?;
    Some((
        text(field, src).into_owned(),
        func.child_by_field_id(F.value)?,
    ))
}

#[cfg(test)]
mod tests;
