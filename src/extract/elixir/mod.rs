//! Elixir extractor: key-builder functions, module attributes, command
//! lists, inline and file-backed Lua scripts, and key-like templates.
//!
//! The tree is visited with an explicit stack (never recursion over the
//! tree); expression evaluation recurses but gives up past [`MAX_DEPTH`].

mod attributes;
mod commands;
mod known;
mod paths;
mod reads;
mod scripts;
mod strings;
mod templates;

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::facts::{Command, FileFacts, FileId, FunctionDef, Seg, Span, Template, Value};
use crate::parse::{named_children, text, Parsers};
use paths::Import;
use templates::{append_value, flatten_iodata};

/// Expressions nested deeper than this evaluate to `Value::Unknown`.
const MAX_DEPTH: usize = 64;
/// A local binding heavier than this is kept as unknown (guards against
/// `a = a <> a` doubling).
const MAX_BINDING_WEIGHT: usize = 2_000;

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
        attr_strs: HashMap::new(),
        attr_lists: HashMap::new(),
        handled: HashSet::new(),
        not_calls: HashSet::new(),
        covered_end: 0,
        aliases: HashMap::new(),
        imports: HashMap::new(),
        defined: HashSet::new(),
    };
    cx.defined = cx.collect_defs(root);
    let mut stack = vec![(root, 0usize)];
    while let Some((node, scope)) = stack.pop() {
        let Some(inner) = cx.visit(node, scope) else {
            continue;
        };
        let kids = named_children(node);
        for k in kids.into_iter().rev() {
            stack.push((k, inner));
        }
    }
    cx.finish_functions();
    cx.facts
}

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
    rows: HashMap<String, Value>,
    /// Locals bound to a command head list (`cmd = ["EVALSHA", sha, 2]`),
    /// recorded as a command where they are appended to, or at the end.
    heads: HashMap<String, (Command, bool)>,
}

/// A function clause whose return value is computed once its body is read.
struct Pending<'t> {
    /// Its `FunctionDef` in `FileFacts::functions`.
    func: usize,
    body: Node<'t>,
    env: usize,
}

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
    /// String-literal attributes by (module, `@name`), for command heads.
    attr_strs: HashMap<(String, String), String>,
    /// List-literal attributes by (module, `@name`), spliced into command
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
    /// End of the last maximal string-building expression: nodes before it
    /// are pieces of a template already recorded.
    covered_end: usize,
}

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    fn span(&self, n: Node<'_>) -> Span {
        Span::new(self.file, n.start_byte(), n.end_byte())
    }

    fn text(&self, n: Node<'_>) -> String {
        text(n, self.src).into_owned()
    }

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
            "call" => {
                let target = n
                    .child_by_field_name("target")
                    .map(|t| self.text(t))
                    .unwrap_or_default();
                match target.as_str() {
                    "defmodule" => return Some(self.defmodule(n, scope)),
                    "def" | "defp" => return Some(self.def(n, scope)),
                    "alias" => {
                        self.alias(n, scope);
                        return None;
                    }
                    "import" => {
                        self.import(n, scope);
                        return None;
                    }
                    "case" => self.case_rows(n, env),
                    _ => {}
                }
                if !self.not_calls.contains(&n.id()) {
                    self.call_fact(n, None, self.span(n), env);
                    self.field_read_call(n, None, env);
                }
                if self.is_builder(n) {
                    self.template(n, env);
                }
            }
            "unary_operator" if self.op(n) == "@" => {
                if let Some(o) = n.child_by_field_name("operand") {
                    self.not_calls.insert(o.id());
                }
                if self.attribute_def(n, scope) {
                    return None;
                }
            }
            "access_call" => self.field_read_access(n, env),
            "binary_operator" => {
                let op = self.op(n);
                match op.as_str() {
                    "=" => self.binding(n, env),
                    "++" if !self.handled.contains(&n.id()) => {
                        if let Some(l) = n.child_by_field_name("left") {
                            if l.kind() == "list" && self.command(n, Some(l), scope) {
                                self.handled.insert(l.id());
                            } else if self.appended_head(n, env) {
                                let mut left = n.child_by_field_name("left");
                                while let Some(x) = left {
                                    self.handled.insert(x.id());
                                    left = x.child_by_field_name("left");
                                }
                            }
                        }
                    }
                    "|>" => {
                        if let Some(r) = n
                            .child_by_field_name("right")
                            .filter(|r| r.kind() == "call")
                        {
                            self.not_calls.insert(r.id());
                            let l = n.child_by_field_name("left");
                            self.call_fact(r, l, self.span(n), env);
                            self.field_read_call(r, l, env);
                        }
                    }
                    _ => {}
                }
                if self.is_builder(n) {
                    self.template(n, env);
                }
            }
            "list" if !self.handled.contains(&n.id()) => {
                self.command(n, Some(n), scope);
            }
            "string" | "sigil" | "charlist" | "bitstring" if self.is_builder(n) => {
                self.template(n, env)
            }
            _ => {}
        }
        Some(scope)
    }

    fn op(&self, n: Node<'_>) -> String {
        n.child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or_default()
    }

    /// `defmodule A.B do ... end`: a new scope for its body.
    fn defmodule(&mut self, n: Node<'_>, scope: usize) -> usize {
        let name = arguments(n)
            .and_then(|a| named_children(a).into_iter().next())
            .filter(|a| a.kind() == "alias")
            .map(|a| self.text(a));
        let Some(name) = name else {
            return scope;
        };
        let parent = self.module(scope);
        let module = if parent.is_empty() {
            name
        } else {
            format!("{parent}.{name}")
        };
        self.envs.push(Env {
            module: module.clone(),
            ..Env::default()
        });
        self.scopes.push(Scope {
            module,
            env: Some(self.envs.len() - 1),
        });
        self.scopes.len() - 1
    }

    /// The name node and parameter nodes of a `def`/`defp` head.
    fn def_head(&self, n: Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>, Node<'t>)> {
        let args = arguments(n)?;
        let mut head = named_children(args).first().copied()?;
        if head.kind() == "binary_operator" && self.op(head) == "when" {
            head = head.child_by_field_name("left")?;
        }
        match head.kind() {
            "identifier" => Some((head, Vec::new(), head)),
            "call" => {
                let t = head.child_by_field_name("target")?;
                if t.kind() != "identifier" {
                    return None;
                }
                let ps = arguments(head).map(named_children).unwrap_or_default();
                Some((t, ps, head))
            }
            _ => None,
        }
    }

    /// Every function defined in the file, by module (for `import`s).
    fn collect_defs(&self, root: Node<'t>) -> HashSet<(String, String)> {
        let mut out = HashSet::new();
        let mut stack = vec![(root, String::new())];
        while let Some((n, module)) = stack.pop() {
            let mut inner = module.clone();
            if n.kind() == "call" {
                let target = n
                    .child_by_field_name("target")
                    .map(|t| self.text(t))
                    .unwrap_or_default();
                match target.as_str() {
                    "defmodule" => {
                        if let Some(a) = arguments(n)
                            .and_then(|a| named_children(a).into_iter().next())
                            .filter(|a| a.kind() == "alias")
                        {
                            let name = self.text(a);
                            inner = if module.is_empty() {
                                name
                            } else {
                                format!("{module}.{name}")
                            };
                        }
                    }
                    "def" | "defp" | "defmacro" | "defmacrop" | "defdelegate" => {
                        if let Some((name, _, _)) = self.def_head(n) {
                            out.insert((module.clone(), self.text(name)));
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            for k in named_children(n) {
                stack.push((k, inner.clone()));
            }
        }
        out
    }

    /// `def name(params) when guard, do: body` or `... do body end`.
    fn def(&mut self, n: Node<'t>, scope: usize) -> usize {
        let Some((name_node, param_nodes, head)) = self.def_head(n) else {
            return scope;
        };
        self.not_calls.insert(head.id());
        let args_kids = arguments(n).map(named_children).unwrap_or_default();
        let params: Vec<String> = param_nodes.iter().map(|p| self.param_name(*p)).collect();
        let module = self.module(scope);
        let name = self.text(name_node);

        let body = n
            .named_children(&mut n.walk())
            .find(|c| c.kind() == "do_block")
            .or_else(|| {
                args_kids
                    .iter()
                    .filter(|k| k.kind() == "keywords")
                    .flat_map(|k| named_children(*k))
                    .find(|p| {
                        p.child_by_field_name("key")
                            .is_some_and(|k| self.text(k).trim().trim_end_matches(':') == "do")
                    })
                    .and_then(|p| p.child_by_field_name("value"))
            });
        let func = body.map(|body| {
            let key = (module.clone(), name.clone(), params.len());
            let counter = self.clauses.entry(key).or_insert(0);
            let clause = *counter;
            *counter += 1;
            let name_span = self.span(name_node);
            self.facts.functions.push(FunctionDef {
                module: module.clone(),
                name: name.clone(),
                params: params.clone(),
                returns: Value::unknown(self.text(body), self.span(body)),
                name_span,
                clause,
            });
            self.facts.functions.len() - 1
        });
        self.envs.push(Env {
            module: module.clone(),
            func,
            params,
            body_start: body.map_or(usize::MAX, |b| b.start_byte()),
            ..Env::default()
        });
        let env = self.envs.len() - 1;
        self.scopes.push(Scope {
            module,
            env: Some(env),
        });
        if let (Some(body), Some(func)) = (body, func) {
            self.pending.push(Pending { func, body, env });
        }
        self.scopes.len() - 1
    }

    /// A parameter's variable name, or `_` for a pattern.
    fn param_name(&self, p: Node<'_>) -> String {
        match p.kind() {
            "identifier" => self.text(p),
            "binary_operator" => {
                let op = self.op(p);
                let (l, r) = (
                    p.child_by_field_name("left"),
                    p.child_by_field_name("right"),
                );
                match op.as_str() {
                    // `queue \\ "default"`
                    "\\\\" => l.map(|l| self.param_name(l)).unwrap_or_else(|| "_".into()),
                    // `%{q: q} = ctx` or `ctx = %{...}`
                    "=" => [r, l]
                        .into_iter()
                        .flatten()
                        .find(|x| x.kind() == "identifier")
                        .map(|x| self.text(x))
                        .unwrap_or_else(|| "_".into()),
                    _ => "_".into(),
                }
            }
            _ => "_".into(),
        }
    }

    /// Computes the return value of every clause, with all its bindings;
    /// records command heads never appended to.
    fn finish_functions(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let last = if p.body.kind() == "do_block" {
                named_children(p.body)
                    .into_iter()
                    .rev()
                    .find(|c| !c.kind().ends_with("_block") && c.kind() != "comment")
            } else {
                Some(p.body)
            };
            let Some(last) = last else {
                continue;
            };
            let returns = self.value(last, Some(p.env), 0);
            let returns = match returns {
                Value::Str(_)
                | Value::Call { .. }
                | Value::Const { .. }
                | Value::Param { .. }
                | Value::Atom { .. } => returns,
                other => Value::unknown(self.text(last), other.span()),
            };
            if let Some(f) = self.facts.functions.get_mut(p.func) {
                f.returns = returns;
            }
        }
        let mut heads: Vec<Command> = Vec::new();
        for e in &mut self.envs {
            for (_, (c, used)) in e.heads.drain() {
                if !used {
                    heads.push(c);
                }
            }
        }
        heads.sort_by_key(|c| c.span.start);
        self.facts.commands.extend(heads);
    }

    /// `var = expr` inside a function: remembers the bound value.
    fn binding(&mut self, n: Node<'_>, env: Option<usize>) {
        let Some(env) = env else {
            return;
        };
        let (Some(l), Some(r)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            return;
        };
        if self
            .envs
            .get(env)
            .is_none_or(|e| n.start_byte() < e.body_start)
        {
            return;
        }
        // `{:ok, row} = Redix.command(conn, ["HGETALL", k])`, `row = ...`.
        if let Some(var) = self.ok_var(l) {
            let key = self.hgetall_source(r, Some(env), 0);
            if let Some(e) = self.envs.get_mut(env) {
                match key {
                    Some(k) => {
                        e.rows.insert(var, k);
                    }
                    None => {
                        e.rows.remove(&var);
                    }
                }
            }
        }
        // `%{"payload" => p} = row`.
        if l.kind() == "map" {
            if let Some(key) = self.hgetall_source(r, Some(env), 0) {
                self.map_pattern_reads(l, key, Some(env));
            }
        }
        if l.kind() != "identifier" {
            return;
        }
        let name = self.text(l);
        if name.starts_with('_') {
            return;
        }
        // `cmd = ["EVALSHA", sha, 2]`: a command head, appended to later.
        if r.kind() == "list" {
            if let Some(c) = self.build_command(r, r, Some(env)) {
                self.handled.insert(r.id());
                if let Some(e) = self.envs.get_mut(env) {
                    e.heads.insert(name.clone(), (c, false));
                }
            }
        }
        let mut v = self.value(r, Some(env), 0);
        if weight(&v) > MAX_BINDING_WEIGHT {
            v = Value::unknown(self.text(r), self.span(r));
        }
        if let Some(e) = self.envs.get_mut(env) {
            e.locals.insert(name, v);
        }
    }

    fn func_of(&self, env: Option<usize>) -> Option<usize> {
        env.and_then(|e| self.envs.get(e)).and_then(|e| e.func)
    }

    fn module_of(&self, env: Option<usize>) -> &str {
        env.and_then(|e| self.envs.get(e))
            .map(|e| e.module.as_str())
            .unwrap_or("")
    }

    /// What an expression sends.
    fn value(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        if depth > MAX_DEPTH {
            return Value::unknown(self.text(n), span);
        }
        match n.kind() {
            "string" | "charlist" => Value::Str(self.string(n, env, depth)),
            "sigil" => match self.sigil_name(n).as_str() {
                "s" | "S" => Value::Str(self.string(n, env, depth)),
                "w" | "W" => self.word_list(n),
                _ => Value::unknown(self.text(n), span),
            },
            "integer" => match parse_int(&self.text(n)) {
                Some(value) => Value::Int { value, span },
                None => Value::unknown(self.text(n), span),
            },
            "char" => match self
                .text(n)
                .strip_prefix('?')
                .and_then(|c| c.chars().next())
            {
                Some(c) if self.text(n).chars().count() == 2 => Value::Int {
                    value: c as i64,
                    span,
                },
                _ => Value::unknown(self.text(n), span),
            },
            "atom" => {
                let t = self.text(n);
                Value::Atom {
                    name: t.strip_prefix(':').unwrap_or(&t).to_string(),
                    span,
                }
            }
            "quoted_atom" => {
                let t = self.string(n, env, depth);
                match t.as_literal() {
                    Some(name) => Value::Atom { name, span },
                    None => Value::unknown(self.text(n), span),
                }
            }
            "boolean" | "nil" => Value::Atom {
                name: self.text(n),
                span,
            },
            "identifier" => self.ident(n, env),
            "unary_operator" => match self.attr_ref(n) {
                Some(name) => Value::Const {
                    path: vec![name],
                    span,
                },
                None => Value::unknown(self.text(n), span),
            },
            "block" => match named_children(n)
                .into_iter()
                .rev()
                .find(|c| c.kind() != "comment")
            {
                Some(last) => self.value(last, env, depth + 1),
                None => Value::unknown(self.text(n), span),
            },
            "list" => {
                let (items, tail) = self.list(n, env, depth);
                Value::List { items, tail, span }
            }
            "map" => self.map(n, env, depth),
            "bitstring" => self.bitstring(n, env, depth),
            "binary_operator" => self.binary(n, env, depth),
            "call" => self.call(n, None, env, depth),
            _ => Value::unknown(self.text(n), span),
        }
    }

    fn ident(&self, n: Node<'_>, env: Option<usize>) -> Value {
        let span = self.span(n);
        let name = self.text(n);
        if let Some(e) = env.and_then(|i| self.envs.get(i)) {
            if let Some(v) = e.locals.get(&name) {
                return v.clone();
            }
            if name != "_" {
                if let Some(index) = e.params.iter().position(|p| *p == name) {
                    return Value::Param { index, name, span };
                }
            }
        }
        Value::unknown(name, span)
    }

    /// A list's items and its `| tail`.
    fn list(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> (Vec<Value>, Vec<Value>) {
        let mut items = Vec::new();
        let mut tail = Vec::new();
        let kids = named_children(n);
        let last = kids.len().saturating_sub(1);
        for (i, k) in kids.into_iter().enumerate() {
            if k.kind() == "comment" {
                continue;
            }
            if i == last && k.kind() == "binary_operator" && self.op(k) == "|" {
                if let Some(l) = k.child_by_field_name("left") {
                    items.push(self.value(l, env, depth + 1));
                }
                if let Some(r) = k.child_by_field_name("right") {
                    // `[a | [b, c]]` is `[a, b, c]`; `[a | keys ++ args]`
                    // has the tail `[keys, args]`.
                    match self.appended(r, env, depth + 1) {
                        Value::List {
                            items: more,
                            tail: rest,
                            ..
                        } => {
                            items.extend(more);
                            tail.extend(rest);
                        }
                        other => tail.push(other),
                    }
                }
                continue;
            }
            items.push(self.value(k, env, depth + 1));
        }
        (items, tail)
    }

    fn map(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let Some(content) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "map_content")
        else {
            if named_children(n).iter().any(|c| c.kind() == "struct") {
                return Value::unknown(self.text(n), span);
            }
            return Value::Map {
                pairs: Vec::new(),
                span,
            };
        };
        let mut pairs = Vec::new();
        for entry in named_children(content) {
            match entry.kind() {
                "binary_operator" if self.op(entry) == "=>" => {
                    if let (Some(k), Some(v)) = (
                        entry.child_by_field_name("left"),
                        entry.child_by_field_name("right"),
                    ) {
                        pairs.push((self.value(k, env, depth + 1), self.value(v, env, depth + 1)));
                    }
                }
                "keywords" => {
                    for pair in named_children(entry) {
                        if let (Some(k), Some(v)) = (
                            pair.child_by_field_name("key"),
                            pair.child_by_field_name("value"),
                        ) {
                            pairs.push((self.keyword_atom(k), self.value(v, env, depth + 1)));
                        }
                    }
                }
                // `%{map | k => v}` updates: not a literal.
                _ => return Value::unknown(self.text(n), span),
            }
        }
        Value::Map { pairs, span }
    }

    /// `state: ` as the atom `state`.
    fn keyword_atom(&self, k: Node<'_>) -> Value {
        let t = self.text(k);
        let name = t
            .trim_end()
            .trim_end_matches(':')
            .trim_matches('"')
            .to_string();
        Value::Atom {
            name,
            span: self.span(k),
        }
    }

    fn binary(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let op = self.op(n);
        let (Some(l), Some(r)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            return Value::unknown(self.text(n), span);
        };
        match op.as_str() {
            "<>" => self.concat(n, env, depth),
            "++" => self.appended(n, env, depth),
            "|>" => {
                if r.kind() == "call" {
                    self.call(r, Some(l), env, depth)
                } else {
                    Value::unknown(self.text(n), span)
                }
            }
            // A match returns its right side.
            "=" => self.value(r, env, depth + 1),
            _ => Value::unknown(self.text(n), span),
        }
    }

    /// A list expression as items the code shows and the values appended as
    /// a whole: `[a] ++ keys ++ args` gives items `[a]`, tail `[keys,
    /// args]`. Lists (and list attributes) before the first opaque operand
    /// are spliced in.
    fn appended(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        if depth > MAX_DEPTH {
            return Value::unknown(self.text(n), span);
        }
        let mut operands = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            if x.kind() == "binary_operator" && self.op(x) == "++" {
                if let (Some(l), Some(r)) = (
                    x.child_by_field_name("left"),
                    x.child_by_field_name("right"),
                ) {
                    stack.push(r);
                    stack.push(l);
                    continue;
                }
            }
            operands.push(x);
        }
        if operands.len() == 1 && n.kind() != "binary_operator" {
            return self.list_value(n, env, depth);
        }
        let mut items = Vec::new();
        let mut tail = Vec::new();
        for o in operands {
            match self.list_value(o, env, depth + 1) {
                Value::List {
                    items: its,
                    tail: t,
                    ..
                } if tail.is_empty() => {
                    items.extend(its);
                    tail.extend(t);
                }
                other => tail.push(other),
            }
        }
        Value::List { items, tail, span }
    }

    /// A value, with a list attribute of this module spliced in.
    fn list_value(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        match self.value(n, env, depth) {
            Value::Const { path, span } => {
                let module = self.module_of(env).to_string();
                match path
                    .first()
                    .and_then(|p| self.attr_lists.get(&(module, p.clone())))
                {
                    Some(v) => v.clone(),
                    None => Value::Const { path, span },
                }
            }
            other => other,
        }
    }

    /// A call; `piped` is the value piped into it as first argument.
    fn call(
        &self,
        n: Node<'_>,
        piped: Option<Node<'_>>,
        env: Option<usize>,
        depth: usize,
    ) -> Value {
        let span = self.span(n);
        let unknown = || Value::unknown(self.text(n), span);
        let Some(target) = n.child_by_field_name("target") else {
            return unknown();
        };
        if named_children(n).iter().any(|c| c.kind() == "do_block") {
            return unknown();
        }
        let Some(path) = self.callee(target, self.module_of(env)) else {
            return unknown();
        };
        let mut arg_nodes: Vec<Node<'_>> = piped.into_iter().collect();
        if let Some(args) = arguments(n) {
            arg_nodes.extend(
                named_children(args)
                    .into_iter()
                    .filter(|c| c.kind() != "comment"),
            );
        }
        let joined = path.join(".");
        match joined.as_str() {
            "IO.iodata_to_binary" | ":erlang.iolist_to_binary" | "IO.chardata_to_string" => {
                let [arg] = arg_nodes.as_slice() else {
                    return unknown();
                };
                let v = self.value(*arg, env, depth + 1);
                let mut segs = Vec::new();
                flatten_iodata(&mut segs, v);
                return Value::Str(Template { segs, span });
            }
            "Enum.join" => {
                let Some(list) = arg_nodes.first() else {
                    return unknown();
                };
                let Value::List { items, tail, .. } = self.value(*list, env, depth + 1) else {
                    return unknown();
                };
                let sep = match arg_nodes.get(1) {
                    Some(s) => match self.value(*s, env, depth + 1) {
                        Value::Str(t) => Some(t),
                        _ => return unknown(),
                    },
                    None => None,
                };
                let mut segs = Vec::new();
                for (i, item) in items.into_iter().enumerate() {
                    if i > 0 {
                        if let Some(sep) = &sep {
                            segs.extend(sep.segs.iter().cloned());
                        }
                    }
                    append_value(&mut segs, item);
                }
                for t in tail {
                    segs.push(Seg::Hole {
                        label: "..".into(),
                        span: t.span(),
                    });
                }
                return Value::Str(Template { segs, span });
            }
            _ => {}
        }
        let args: Vec<Value> = arg_nodes
            .into_iter()
            .map(|a| self.value(a, env, depth + 1))
            .collect();
        if path == ["length"] {
            // `length(keys)` of a list the code shows is its count.
            return match args.as_slice() {
                [Value::List { items, tail, .. }] if tail.is_empty() => Value::Int {
                    value: items.len() as i64,
                    span,
                },
                _ => Value::Call { path, args, span },
            };
        }
        if !Self::is_codebase(&path) {
            return unknown();
        }
        Value::Call { path, args, span }
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

fn is_string_node(n: Node<'_>) -> bool {
    matches!(n.kind(), "string" | "sigil" | "charlist")
}

/// A rough size of a value, computed without recursion.
fn weight(v: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total += 1;
        match v {
            Value::Str(t) => {
                for s in &t.segs {
                    total += 1;
                    if let Seg::Value(inner) = s {
                        stack.push(inner);
                    }
                }
            }
            Value::List { items, tail, .. } => stack.extend(items.iter().chain(tail.iter())),
            Value::Map { pairs, .. } => {
                for (k, x) in pairs {
                    stack.push(k);
                    stack.push(x);
                }
            }
            Value::Call { args, .. } => stack.extend(args.iter()),
            _ => {}
        }
        if total > MAX_BINDING_WEIGHT * 4 {
            break;
        }
    }
    total
}

/// `1_000`, `0x1F`, `0b101`, `0o17`.
fn parse_int(t: &str) -> Option<i64> {
    let t: String = t.chars().filter(|c| *c != '_').collect();
    if let Some(h) = t.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()
    } else if let Some(b) = t.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()
    } else if let Some(o) = t.strip_prefix("0o") {
        i64::from_str_radix(o, 8).ok()
    } else {
        t.parse().ok()
    }
}

#[cfg(test)]
mod idiom_tests;
#[cfg(test)]
mod tests;
