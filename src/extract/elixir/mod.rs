//! Elixir extractor: key-builder functions, module attributes, command
//! lists, inline and file-backed Lua scripts, and key-like templates.
//!
//! The tree is visited with an explicit stack (never recursion over the
//! tree); expression evaluation recurses but gives up past
//! `values::MAX_DEPTH`.
//!
//! This file holds the entry point, the context ([`Cx`]: scopes, function
//! environments, what was already read) and the visit that dispatches each
//! node. One concern a module, each adding methods to [`Cx`]:
//!
//! - `items`: `defmodule` scopes, `def`/`defp` clauses, local bindings,
//!   return values;
//! - `paths`: `alias`/`import`, module paths, callees, calls of the code
//!   base;
//! - `attributes`: `@name value` definitions and `@name` references;
//! - `delegates`: `defdelegate` as the function it names;
//! - `constants`: functions that return a constant (a literal or an
//!   attribute), which a call in the file is, by the clause it runs;
//! - `values`: expressions as `Value`s (literals, lists and tails, maps,
//!   calls);
//! - `templates`: string building (`<>`, iodata, bitstrings,
//!   `Enum.join`) and the key-like templates recorded;
//! - `strings`: strings, charlists, sigils, heredocs, escapes;
//! - `library`: library calls the wire depends on (a script's SHA1,
//!   lookups by a literal key, `then/2`);
//! - `patterns`: variables bound by map and `{:ok, sha}` patterns, and a
//!   GenServer's state in its callbacks;
//! - `commands`: Redis command lists (`["HSET", k | rest]`, heads bound
//!   to a variable, inline `EVAL`);
//! - `scripts`: Lua in strings, `File.read!` script paths;
//! - `reads`: hash fields read from an `HGETALL` reply;
//! - `known`: names of Kernel forms, reserved attributes and library
//!   modules.

mod attributes;
mod called;
mod client;
#[cfg(test)]
pub(crate) use client::CLIENTS;
mod commands;
mod constants;
mod delegates;
mod items;
pub mod kinds;
mod known;
mod library;
mod paths;
mod patterns;
mod reads;
mod scripts;
pub(crate) mod stdlib;
mod strings;
mod templates;
mod values;

use crate::extract::fields::ELIXIR as F;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use tree_sitter::Node;

use crate::extract::source::{Budget, Source};
use crate::facts::{Command, FileFacts, FileId, Span, Value};
use crate::parse::{named_children, text, Parsers};
use paths::Import;

pub fn extract(root: Node<'_>, src: &[u8], file: FileId, parsers: &mut Parsers) -> FileFacts {
    let mut cx = Cx {
        src,
        file,
        parsers,
        facts: FileFacts::default(),
        scopes: vec![Scope {
            module: String::new(),
            env: Some(0),
        }],
        envs: vec![Env::default()],
        pending: Vec::new(),
        clauses: HashMap::new(),
        defaults: HashMap::new(),
        attr_strs: HashMap::new(),
        attr_lits: HashMap::new(),
        attr_paths: HashMap::new(),
        attr_lists: HashMap::new(),
        handled: HashSet::new(),
        not_calls: HashSet::new(),
        covered_end: 0,
        heads: RefCell::new(HashMap::new()),
        pipe_steps: RefCell::new(HashMap::new()),
        overlay: RefCell::new(Vec::new()),
        climb: RefCell::new(crate::parse::Climb::new(root)),
        aliases: HashMap::new(),
        imports: HashMap::new(),
        defined: HashSet::new(),
        own_modules: HashSet::new(),
        names_client: crate::extract::needles::names_elixir_client(src),
        holds_scripts: crate::extract::needles::holds_scripts(src),
        constant_fns: HashMap::new(),
        clause_returns: HashSet::new(),
        budget: Budget::of(src.len()),
    };
    cx.defined = cx.collect_defs(root);
    cx.own_modules = cx.defined.iter().map(|(m, _)| m.clone()).collect();
    cx.constant_fns = cx.collect_constant_fns(root);
    let mut stack = vec![(root, 0usize)];
    while let Some((node, scope)) = stack.pop() {
        if cx.budget.is_out() {
            break;
        }
        let Some(inner) = cx.visit(node, scope) else {
            continue;
        };
        let kids = named_children(node);
        for k in kids.into_iter().rev() {
            stack.push((k, inner));
        }
    }
    cx.finish_functions();
    for f in &mut cx.facts.functions {
        let key = (f.module.clone(), f.name.clone(), f.params.len());
        if let Some((count, values)) = cx.defaults.get(&key) {
            f.defaults = *count;
            f.default_values = values.clone();
        }
    }
    cx.budget.close(&mut cx.facts, file, src.len());
    cx.facts
}

/// A clause's parameter patterns and the constant it returns.
type ConstantClause = (Vec<Option<Value>>, Option<Value>);

/// How many trailing parameters of a function have a default, and each
/// parameter's default (`None` for one without).
type Defaults = (usize, Vec<Option<Value>>);

/// Where a node sits: its module and, inside a function, its environment.
struct Scope {
    module: String,
    env: Option<usize>,
}

/// A function clause's (or a module body's) parameters and the local
/// bindings seen so far.
#[derive(Default)]
struct Env {
    /// The enclosing module.
    module: String,
    /// The function clause: an index into `FileFacts::functions`.
    func: Option<usize>,
    params: Vec<String>,
    /// Where the body starts: matches before it are parameter patterns.
    body_start: usize,
    locals: HashMap<String, Value>,
    /// Locals holding the reply of an `HGETALL` (or a map made from it), with
    /// the key it read.
    rows: HashMap<String, reads::Row>,
    /// Locals bound to a command head list (`cmd = ["EVALSHA", sha, 2]`),
    /// recorded as a command where they are appended to, or at the end.
    heads: HashMap<String, (Command, bool)>,
    /// Locals bound to a capture of a remote function (`f = &Mod.fun/2`),
    /// which `f.(a, b)` calls.
    captures: HashMap<String, called::Captured>,
}

/// A function clause whose return value is computed once its body is read.
struct Pending<'t> {
    /// Its `FunctionDef` in `FileFacts::functions`.
    func: usize,
    body: Node<'t>,
    env: usize,
}

/// What the extractor knows while it walks one file.
struct Cx<'s, 't, 'p> {
    src: &'s [u8],
    file: FileId,
    parsers: &'p mut Parsers,
    facts: FileFacts,
    scopes: Vec<Scope>,
    envs: Vec<Env>,
    pending: Vec<Pending<'t>>,
    /// Clause counters by (module, name, arity).
    clauses: HashMap<(String, String, usize), usize>,
    /// Parameters with defaults, by (module, name, arity).
    /// and their values (`None` for a parameter without).
    defaults: HashMap<(String, String, usize), Defaults>,
    /// String-literal attributes by (module, `@name`), for command heads.
    attr_strs: HashMap<(String, String), String>,
    /// Attributes set from a literal (a string, a number, an atom) by
    /// (module, `@name`): the literal, spanned where the attribute sets
    /// it. A use of the attribute is that value (findings on it point at
    /// the attribute's value, the use as where it is used).
    attr_lits: HashMap<(String, String), Value>,
    /// Path attributes by (module, `@name`): `@path Path.join(__DIR__,
    /// "x.lua")` as (path, relative to this file), for `File.read!(@path)`.
    attr_paths: HashMap<(String, String), (String, bool)>,
    /// List- and map-literal attributes by (module, `@name`), spliced into command
    /// tails (`["HMGET", k | @fields]`).
    attr_lists: HashMap<(String, String), Value>,
    /// Nodes already read as part of a larger command (`[..] ++ rest`).
    handled: HashSet<usize>,
    /// Call nodes that are not calls to record (function heads, piped
    /// calls recorded with their pipe, attribute definitions).
    not_calls: HashSet<usize>,
    /// `alias A.B` / `alias A.B, as: C` by module: short name → full path.
    aliases: HashMap<String, HashMap<String, Vec<String>>>,
    /// `import A.B [, only: [f: 1]]` by module.
    imports: HashMap<String, Vec<Import>>,
    /// Functions defined in this file: (module, name).
    defined: HashSet<(String, String)>,
    /// The modules of `defined`.
    own_modules: HashSet<String>,
    /// Whether the file names its client (`needles::names_elixir_client`).
    names_client: bool,
    /// Whether the file holds a script (`needles::holds_scripts`).
    holds_scripts: bool,
    /// What each clause of a function of this file returns when that is
    /// a constant (a literal or an attribute), with the literal each
    /// parameter requires; `None` for a clause that returns anything else.
    /// By (module, name, arity).
    constant_fns: HashMap<(String, String, usize), Vec<ConstantClause>>,
    /// The nodes a function clause returns (its body's last expression).
    clause_returns: HashSet<usize>,
    /// What is left of the file's value budget ([`Budget`]).
    budget: Budget,
    /// End of the last maximal string-building expression: nodes before it
    /// are pieces of a template already recorded.
    covered_end: usize,
    /// Call heads by (call node, environment): every step of a pipe is
    /// evaluated again as the piped value of the steps after it (4 times
    /// each), and resolving its callee was a third of the work (150,000
    /// steps). Cleared when an `alias` or `import` is read.
    heads: RefCell<HashMap<(usize, Option<usize>), CallHead>>,
    /// Each `|>` node's step count from the head of its chain
    /// ([`Cx::pipe_step`]), found once per chain.
    pipe_steps: RefCell<HashMap<usize, u32>>,
    /// Names bound while a function value is applied (`then(x, fn v ->
    /// ..)`), innermost last.
    overlay: RefCell<Vec<(String, Value)>>,
    /// Parents, for the climbs from commands and strings to what holds
    /// them ([`crate::parse::Climb`]).
    climb: RefCell<crate::parse::Climb<'t>>,
}

/// What a call's value needs from its head: whether it has a `do` block,
/// and its callee ([`Cx::callee`]).
#[derive(Clone)]
struct CallHead {
    do_block: bool,
    path: Option<Rc<[String]>>,
    /// The callee builds a string (`templates::is_builder_callee`).
    builder: bool,
    /// The callee is a function of the code base ([`Cx::is_codebase`]).
    codebase: bool,
    /// `to_string(..)` or `Integer.to_string(..)` as written.
    to_string: bool,
}

impl Source for Cx<'_, '_, '_> {
    fn source(&self) -> (&[u8], FileId) {
        (self.src, self.file)
    }
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    fn module(&self, scope: usize) -> String {
        self.scopes
            .get(scope)
            .map(|s| s.module.clone())
            .unwrap_or_default()
    }

    fn env_of(&self, scope: usize) -> Option<usize> {
        self.scopes.get(scope).and_then(|s| s.env)
    }

    /// Handles one node; returns the scope for its children, or `None` not
    /// to descend.
    fn visit(&mut self, n: Node<'t>, scope: usize) -> Option<usize> {
        let env = self.env_of(scope);
        match n.kind() {
            "call" => return self.visit_call(n, scope),
            "unary_operator" if self.op(n) == "@" => {
                if let Some(o) = n.child_by_field_id(F.operand) {
                    self.not_calls.insert(o.id());
                }
                if self.attribute_def(n, scope) {
                    return None;
                }
            }
            // `&Mod.fun/2` names a function: `Mod.fun` in it is no call.
            "unary_operator" if self.op(n) == "&" => {
                let named = n
                    .child_by_field_id(F.operand)
                    .filter(|o| o.kind() == "binary_operator" && self.op(*o) == "/")
                    .and_then(|o| o.child_by_field_id(F.left))
                    .filter(|f| f.kind() == "call" && arguments(*f).is_none());
                if let Some(f) = named {
                    self.not_calls.insert(f.id());
                }
            }
            "access_call" => self.field_read_access(n, env),
            "binary_operator" => self.visit_operator(n, scope),
            "list" if !self.handled.contains(&n.id()) => {
                self.command(n, n, scope);
            }
            "string" | "sigil" | "charlist" | "bitstring" if self.is_builder(n) => {
                self.template(n, env)
            }
            _ => {}
        }
        Some(scope)
    }

    /// A call: `defmodule` and `def` open a scope, `alias` and `import` are
    /// read whole; any other call is recorded (unless it is a function head
    /// or piped) and may build a template.
    fn visit_call(&mut self, n: Node<'t>, scope: usize) -> Option<usize> {
        let env = self.env_of(scope);
        match &*self.target(n) {
            "defmodule" => return Some(self.defmodule(n, scope)),
            "def" | "defp" => return Some(self.def(n, scope)),
            "defdelegate" => {
                self.defdelegate(n, scope);
                return None;
            }
            "alias" => {
                self.alias(n, scope);
                return None;
            }
            "import" => {
                self.import(n, scope);
                return None;
            }
            "case" => {
                self.case_rows(n, env);
                self.case_bindings(n, env);
            }
            _ => {}
        }
        if !self.not_calls.contains(&n.id()) {
            self.record_call(n, None, self.span(n), env);
        }
        if self.is_builder(n) {
            self.template(n, env);
        }
        Some(scope)
    }

    /// `=` binds, `++` may complete a command list, `|>` pipes into a call;
    /// any operator may build a template.
    fn visit_operator(&mut self, n: Node<'t>, scope: usize) {
        let env = self.env_of(scope);
        match self.op(n) {
            "=" => self.binding(n, env),
            // `with {:ok, sha} <- load(conn)`: a clause that matches binds as
            // `=` does (in `for`, `<-` binds each element instead).
            "<-" if self.in_with(n) => self.binding(n, env),
            "++" if !self.handled.contains(&n.id()) => self.appended_command(n, scope),
            "|>" => {
                if let Some(r) = n.child_by_field_id(F.right).filter(|r| r.kind() == "call") {
                    self.not_calls.insert(r.id());
                    let l = n.child_by_field_id(F.left);
                    self.record_call(r, l, self.span(n), env);
                }
            }
            _ => {}
        }
        if self.is_builder(n) {
            self.template(n, env);
        }
    }

    /// Whether an operator is a clause of a `with`.
    fn in_with(&self, n: Node<'t>) -> bool {
        self.parent_of(n)
            .filter(|a| a.kind() == "arguments")
            .and_then(|a| self.parent_of(a))
            .is_some_and(|c| c.kind() == "call" && self.target(c) == "with")
    }

    /// A call as a call of the code base and as a field read. `piped` is the
    /// value piped into it; `span` the call (with its pipe).
    fn record_call(
        &mut self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        span: Span,
        env: Option<usize>,
    ) {
        self.call_fact(n, piped, span, env);
        self.client_send(n, piped, span, env);
        self.field_read_call(n, piped, env);
        self.then_rows(n, piped, env);
    }

    /// The value given to keyword `name` among a call's arguments (`as:`,
    /// `only:`, `do:`).
    fn keyword_arg<'n>(&self, args: &[Node<'n>], name: &str) -> Option<Node<'n>> {
        args.iter()
            .filter(|k| k.kind() == "keywords")
            .flat_map(|k| named_children(*k))
            .find(|p| {
                p.child_by_field_id(F.key)
                    .is_some_and(|k| self.keyword_name(k) == name)
            })
            .and_then(|p| p.child_by_field_id(F.value))
    }

    /// A keyword as a name: `as: ` is `as`.
    fn keyword_name(&self, k: Node<'_>) -> String {
        self.text(k).trim().trim_end_matches(':').to_string()
    }

    /// The operands of a chain of one operator (`a <> b <> c`), left to
    /// right, read without recursion; `n` alone when it is no such chain.
    fn operands<'n>(&self, n: Node<'n>, op: &str) -> Vec<Node<'n>> {
        let mut operands = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            if x.kind() == "binary_operator" && self.op(x) == op {
                if let Some((l, r)) = sides(x) {
                    stack.push(r);
                    stack.push(l);
                    continue;
                }
            }
            operands.push(x);
        }
        operands
    }

    /// A call's target as written (`Map.get`, `def`).
    fn target(&self, n: Node<'_>) -> Cow<'s, str> {
        n.child_by_field_id(F.target)
            .map(|t| text(t, self.src))
            .unwrap_or_default()
    }

    /// An operator as written (`|>`, `=`): a slice of the source, as every
    /// operator is ASCII (this runs for every operator node, several times).
    fn op(&self, n: Node<'_>) -> &'s str {
        n.child_by_field_id(F.operator)
            .and_then(|o| self.src.get(o.byte_range()))
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }

    fn func_of(&self, env: Option<usize>) -> Option<usize> {
        env.and_then(|e| self.envs.get(e)).and_then(|e| e.func)
    }

    fn module_of(&self, env: Option<usize>) -> &str {
        env.and_then(|e| self.envs.get(e))
            .map(|e| e.module.as_str())
            .unwrap_or("")
    }
}

/// A call's `arguments` child (not a field in this grammar).
fn arguments(n: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = n.walk();
    let found = n
        .named_children(&mut cursor)
        .find(|c| c.kind() == "arguments");
    found
}

/// A call's argument nodes, after the value piped into it if any.
fn call_args<'n>(n: Node<'n>, piped: Option<Node<'n>>) -> Vec<Node<'n>> {
    let mut args: Vec<Node<'n>> = piped.into_iter().collect();
    if let Some(a) = arguments(n) {
        args.extend(named_children(a));
    }
    args
}

/// [`call_args`] without comments.
fn call_arg_values<'n>(n: Node<'n>, piped: Option<Node<'n>>) -> Vec<Node<'n>> {
    let mut args: Vec<Node<'n>> = piped.into_iter().collect();
    if let Some(a) = arguments(n) {
        let mut cursor = a.walk();
        args.extend(
            a.named_children(&mut cursor)
                .filter(|c| c.kind() != "comment"),
        );
    }
    args
}

/// A call's `do ... end` block.
fn do_block(n: Node<'_>) -> Option<Node<'_>> {
    named_children(n)
        .into_iter()
        .find(|c| c.kind() == "do_block")
}

/// A binary operator's (or a dot's) left and right sides.
fn sides(n: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    Some((n.child_by_field_id(F.left)?, n.child_by_field_id(F.right)?))
}

/// The first pattern of each clause of a `do` block (`{:ok, row} -> ..`).
fn clause_patterns(block: Node<'_>) -> Vec<Node<'_>> {
    named_children(block)
        .into_iter()
        .filter(|c| c.kind() == "stab_clause")
        .filter_map(|c| {
            c.child_by_field_id(F.left)
                .and_then(|a| named_children(a).into_iter().next())
        })
        .collect()
}

/// A string, charlist or sigil: a node that may hold Lua.
fn is_string_node(n: Node<'_>) -> bool {
    matches!(n.kind(), "string" | "sigil" | "charlist")
}

#[cfg(test)]
mod flow_tests;
#[cfg(test)]
mod idiom_tests;
#[cfg(test)]
mod tests;
