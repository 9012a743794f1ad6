//! Elixir extractor: key-builder functions, module attributes, command
//! lists, inline and file-backed Lua scripts, and key-like templates.
//!
//! The tree is visited with an explicit stack (never recursion over the
//! tree); expression evaluation recurses but gives up past [`MAX_DEPTH`].

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::extract::{embedded_lua, is_key_candidate, push_lit};
use crate::facts::{
    Command, ConstDef, FileFacts, FileId, FunctionDef, LuaFacts, ScriptDef, ScriptSource, Seg,
    Span, Template, Value,
};
use crate::parse::{named_children, text, Parsers};

/// Expressions nested deeper than this evaluate to `Value::Unknown`.
const MAX_DEPTH: usize = 64;
/// A template grows no longer than this; the rest becomes one hole.
const MAX_SEGS: usize = 512;
/// A local binding heavier than this is kept as unknown (guards against
/// `a = a <> a` doubling).
const MAX_BINDING_WEIGHT: usize = 2_000;

/// Attributes that are documentation or compiler directives, not constants.
const RESERVED_ATTRS: &[&str] = &[
    "moduledoc",
    "doc",
    "typedoc",
    "spec",
    "type",
    "typep",
    "opaque",
    "impl",
    "callback",
    "macrocallback",
    "optional_callbacks",
    "behaviour",
    "derive",
    "enforce_keys",
    "compile",
    "deprecated",
    "since",
    "dialyzer",
    "external_resource",
    "on_load",
    "on_definition",
    "before_compile",
    "after_compile",
    "after_verify",
    "vsn",
    "fallback_to_any",
    "nifs",
];

/// Calls that never return a key (control flow and special forms).
const SPECIAL_FORMS: &[&str] = &[
    "if",
    "unless",
    "case",
    "cond",
    "with",
    "for",
    "try",
    "receive",
    "quote",
    "unquote",
    "raise",
    "reraise",
    "throw",
    "fn",
    "def",
    "defp",
    "defmodule",
    "defmacro",
    "defmacrop",
];

pub fn extract(root: Node<'_>, src: &[u8], file: FileId, parsers: &mut Parsers) -> FileFacts {
    let mut cx = Cx {
        src,
        file,
        parsers,
        facts: FileFacts::default(),
        scopes: vec![Scope {
            module: String::new(),
            env: None,
        }],
        envs: Vec::new(),
        pending: Vec::new(),
        clauses: HashMap::new(),
        attr_strs: HashMap::new(),
        handled: HashSet::new(),
        covered_end: 0,
    };
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

/// A function clause's parameters and the local bindings seen so far.
#[derive(Default)]
struct Env {
    params: Vec<String>,
    /// Where the body starts: matches before it are parameter patterns.
    body_start: usize,
    locals: HashMap<String, Value>,
}

/// A function clause whose return value is computed once its body is read.
struct Pending<'t> {
    module: String,
    name: String,
    params: Vec<String>,
    name_span: Span,
    clause: usize,
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
    /// Nodes already read as part of a larger command (`[..] ++ rest`).
    handled: HashSet<usize>,
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
                    _ => {}
                }
                if self.is_builder(n) {
                    self.template(n, env);
                }
            }
            "unary_operator" if self.attribute_def(n, scope) => return None,
            "binary_operator" => {
                let op = self.op(n);
                match op.as_str() {
                    "=" => self.binding(n, env),
                    "++" => {
                        if let Some(l) = n.child_by_field_name("left") {
                            if l.kind() == "list" && self.command(n, Some(l), scope) {
                                self.handled.insert(l.id());
                            }
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
        self.scopes.push(Scope { module, env: None });
        self.scopes.len() - 1
    }

    /// `def name(params) when guard, do: body` or `... do body end`.
    fn def(&mut self, n: Node<'t>, scope: usize) -> usize {
        let Some(args) = arguments(n) else {
            return scope;
        };
        let args_kids = named_children(args);
        let Some(mut head) = args_kids.first().copied() else {
            return scope;
        };
        if head.kind() == "binary_operator" && self.op(head) == "when" {
            match head.child_by_field_name("left") {
                Some(l) => head = l,
                None => return scope,
            }
        }
        let (name_node, param_nodes) = match head.kind() {
            "identifier" => (head, Vec::new()),
            "call" => {
                let Some(t) = head.child_by_field_name("target") else {
                    return scope;
                };
                if t.kind() != "identifier" {
                    return scope;
                }
                let ps = arguments(head).map(named_children).unwrap_or_default();
                (t, ps)
            }
            _ => return scope,
        };
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
        self.envs.push(Env {
            params: params.clone(),
            body_start: body.map_or(usize::MAX, |b| b.start_byte()),
            locals: HashMap::new(),
        });
        let env = self.envs.len() - 1;
        self.scopes.push(Scope {
            module: module.clone(),
            env: Some(env),
        });
        let inner = self.scopes.len() - 1;
        if let Some(body) = body {
            let key = (module.clone(), name.clone(), params.len());
            let counter = self.clauses.entry(key).or_insert(0);
            let clause = *counter;
            *counter += 1;
            self.pending.push(Pending {
                module,
                name,
                params,
                name_span: self.span(name_node),
                clause,
                body,
                env,
            });
        }
        inner
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

    /// Computes the return value of every clause, with all its bindings.
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
            if matches!(
                returns,
                Value::Str(_) | Value::Call { .. } | Value::Const { .. } | Value::Param { .. }
            ) {
                self.facts.functions.push(FunctionDef {
                    module: p.module,
                    name: p.name,
                    params: p.params,
                    returns,
                    name_span: p.name_span,
                    clause: p.clause,
                });
            }
        }
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
        if l.kind() != "identifier"
            || self
                .envs
                .get(env)
                .is_none_or(|e| n.start_byte() < e.body_start)
        {
            return;
        }
        let name = self.text(l);
        if name.starts_with('_') {
            return;
        }
        let mut v = self.value(r, Some(env), 0);
        if weight(&v) > MAX_BINDING_WEIGHT {
            v = Value::unknown(self.text(r), self.span(r));
        }
        if let Some(e) = self.envs.get_mut(env) {
            e.locals.insert(name, v);
        }
    }

    /// `@name value` (a definition). Returns true when the value was read
    /// as a script and must not be visited further.
    fn attribute_def(&mut self, n: Node<'_>, scope: usize) -> bool {
        if self.op(n) != "@" {
            return false;
        }
        let Some(call) = n.child_by_field_name("operand") else {
            return false;
        };
        if call.kind() != "call" {
            return false;
        }
        let (Some(target), Some(args)) = (call.child_by_field_name("target"), arguments(call))
        else {
            return false;
        };
        if target.kind() != "identifier" {
            return false;
        }
        let args = named_children(args);
        let [value_node] = args.as_slice() else {
            return false;
        };
        let value_node = *value_node;
        let name = self.text(target);
        if RESERVED_ATTRS.contains(&name.as_str()) {
            return false;
        }
        let module = self.module(scope);
        let name_span = self.span(target);
        // An inline Lua script.
        if is_string_node(value_node) && self.looks_like_lua(value_node) {
            let lua = self.inline_lua(value_node);
            self.facts.scripts.push(ScriptDef {
                name: Some(name),
                name_span,
                source: ScriptSource::Inline(Box::new(lua)),
            });
            return true;
        }
        // A script read from a file at compile time.
        if let Some((path, span)) = self.file_read(value_node) {
            self.facts.scripts.push(ScriptDef {
                name: Some(name),
                name_span,
                source: ScriptSource::File {
                    path,
                    relative_to_file: false,
                    span,
                },
            });
            return true;
        }
        let value = self.value(value_node, None, 0);
        let keep = match &value {
            Value::Str(t) => {
                if let Some(s) = t.as_literal() {
                    self.attr_strs
                        .insert((module.clone(), format!("@{name}")), s);
                }
                true
            }
            Value::Int { .. } | Value::Atom { .. } | Value::List { .. } => true,
            _ => false,
        };
        if keep {
            self.facts.consts.push(ConstDef {
                module,
                name: format!("@{name}"),
                value,
                name_span,
            });
        }
        false
    }

    /// Whether a string node's text is Lua for Redis.
    fn looks_like_lua(&self, n: Node<'_>) -> bool {
        let t = self.text(n);
        t.contains("redis.call") || t.contains("redis.pcall") || t.contains("KEYS[")
    }

    /// Parses the Lua inside a host string, in place.
    fn inline_lua(&mut self, n: Node<'_>) -> LuaFacts {
        let ranges: Vec<(usize, usize)> = named_children(n)
            .into_iter()
            .filter(|c| matches!(c.kind(), "quoted_content" | "escape_sequence"))
            .map(|c| (c.start_byte(), c.end_byte()))
            .collect();
        embedded_lua(self.parsers, self.src, self.file, &ranges).unwrap_or_else(|| LuaFacts {
            span: Span::new(self.file, n.start_byte(), n.end_byte()),
            ..LuaFacts::default()
        })
    }

    /// `File.read!("priv/x.lua")` or `"priv/x.lua" |> File.read!()`: the
    /// literal path and its span.
    fn file_read(&self, n: Node<'_>) -> Option<(String, Span)> {
        let (call, piped) = if n.kind() == "binary_operator" && self.op(n) == "|>" {
            (
                n.child_by_field_name("right")?,
                n.child_by_field_name("left"),
            )
        } else {
            (n, None)
        };
        if call.kind() != "call" {
            return None;
        }
        let target = self.text(call.child_by_field_name("target")?);
        if target != "File.read!" && target != "File.read" {
            return None;
        }
        let path_node = match piped {
            Some(p) => p,
            None => *named_children(arguments(call)?).first()?,
        };
        let Value::Str(t) = self.value(path_node, None, 0) else {
            return None;
        };
        let path = t.as_literal()?;
        Some((path, t.span))
    }

    /// Whether a node starts a string-building expression.
    fn is_builder(&self, n: Node<'_>) -> bool {
        if n.start_byte() < self.covered_end {
            return false;
        }
        match n.kind() {
            "string" | "charlist" | "bitstring" => true,
            "sigil" => matches!(self.sigil_name(n).as_str(), "s" | "S"),
            "binary_operator" => match self.op(n).as_str() {
                "<>" => true,
                "|>" => n
                    .child_by_field_name("right")
                    .is_some_and(|r| r.kind() == "call" && self.is_builder_call(r)),
                _ => false,
            },
            "call" => self.is_builder_call(n),
            _ => false,
        }
    }

    fn is_builder_call(&self, n: Node<'_>) -> bool {
        let target = n
            .child_by_field_name("target")
            .map(|t| self.text(t))
            .unwrap_or_default();
        matches!(
            target.as_str(),
            "IO.iodata_to_binary"
                | ":erlang.iolist_to_binary"
                | "IO.chardata_to_string"
                | "Enum.join"
        )
    }

    /// Records a maximal string-building expression when it looks like a key.
    fn template(&mut self, n: Node<'_>, env: Option<usize>) {
        self.covered_end = self.covered_end.max(n.end_byte());
        if let Value::Str(t) = self.value(n, env, 0) {
            let t = t.normalized();
            if is_key_candidate(&t) {
                self.facts.templates.push(t);
            }
        }
    }

    /// A command list: `["HSET", key, "state", s]`, `[..] ++ rest`,
    /// `["EVALSHA", sha, n | rest]`. `whole` is the list or the `++`
    /// expression, `list` the list literal holding the command name.
    /// Returns whether a command was recorded.
    fn command(&mut self, whole: Node<'_>, list: Option<Node<'_>>, scope: usize) -> bool {
        let Some(list) = list else {
            return false;
        };
        let items = named_children(list);
        let Some(first) = items.first().copied() else {
            return false;
        };
        let module = self.module(scope);
        let Some((name, name_span)) = self.command_name(first, &module) else {
            return false;
        };
        if !crate::redis::is_command(&name) {
            return false;
        }
        let env = self.env_of(scope);
        let name = name.to_ascii_uppercase();
        let mut script_ref = None;
        if matches!(name.as_str(), "EVAL" | "EVAL_RO") {
            if let Some(body) = items.get(1).copied() {
                if is_string_node(body) && self.looks_like_lua(body) {
                    let lua = self.inline_lua(body);
                    self.facts.scripts.push(ScriptDef {
                        name: None,
                        name_span: self.span(body),
                        source: ScriptSource::Inline(Box::new(lua)),
                    });
                    script_ref = Some(Value::ScriptRef {
                        index: self.facts.scripts.len() - 1,
                        span: self.span(body),
                    });
                }
            }
        }
        let Value::List {
            mut items, tail, ..
        } = self.value(whole, env, 0)
        else {
            return false;
        };
        if items.is_empty() {
            return false;
        }
        items.remove(0);
        if let (Some(r), Some(slot)) = (script_ref, items.first_mut()) {
            *slot = r;
        }
        self.facts.commands.push(Command {
            name,
            name_span,
            args: items,
            open_tail: !tail.is_empty(),
            span: self.span(whole),
        });
        true
    }

    /// The literal name at the head of a list: a plain string, or an
    /// attribute holding one.
    fn command_name(&self, n: Node<'_>, module: &str) -> Option<(String, Span)> {
        match n.kind() {
            "string" | "charlist" => {
                let kids = named_children(n);
                if kids.iter().any(|k| k.kind() != "quoted_content") || kids.len() != 1 {
                    return None;
                }
                let c = kids[0];
                let name = self.text(c);
                if name.is_empty() || name.len() > 20 {
                    return None;
                }
                Some((name, self.span(c)))
            }
            "unary_operator" => {
                let name = self.attr_ref(n)?;
                let s = self.attr_strs.get(&(module.to_string(), name))?;
                Some((s.clone(), self.span(n)))
            }
            _ => None,
        }
    }

    /// `@name` used as a value: `Some("@name")`.
    fn attr_ref(&self, n: Node<'_>) -> Option<String> {
        if n.kind() != "unary_operator" || self.op(n) != "@" {
            return None;
        }
        let operand = n.child_by_field_name("operand")?;
        let ident = match operand.kind() {
            "identifier" => operand,
            "call" if arguments(operand).is_none() => operand.child_by_field_name("target")?,
            _ => return None,
        };
        if ident.kind() != "identifier" {
            return None;
        }
        Some(format!("@{}", self.text(ident)))
    }

    fn sigil_name(&self, n: Node<'_>) -> String {
        named_children(n)
            .into_iter()
            .find(|c| c.kind() == "sigil_name")
            .map(|c| self.text(c))
            .unwrap_or_default()
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
                    tail.push(self.value(r, env, depth + 1));
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
            "++" => {
                let mut items = Vec::new();
                let mut tail = Vec::new();
                for (i, side) in [l, r].into_iter().enumerate() {
                    match self.value(side, env, depth + 1) {
                        Value::List {
                            items: its,
                            tail: t,
                            ..
                        } if tail.is_empty() => {
                            items.extend(its);
                            tail.extend(t);
                        }
                        other if i == 0 => return Value::unknown(self.text(n), other.span()),
                        other => tail.push(other),
                    }
                }
                Value::List { items, tail, span }
            }
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

    /// `~w(state attempts payload)`: a list of words (atoms with `a`).
    fn word_list(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let kids = named_children(n);
        if kids
            .iter()
            .any(|k| matches!(k.kind(), "interpolation" | "escape_sequence"))
        {
            return Value::unknown(self.text(n), span);
        }
        let atoms = kids
            .iter()
            .any(|k| k.kind() == "sigil_modifiers" && self.text(*k).contains('a'));
        let mut items = Vec::new();
        for k in kids.iter().filter(|k| k.kind() == "quoted_content") {
            let base = k.start_byte();
            let body = self.text(*k);
            for word in body.split_whitespace() {
                let start = word.as_ptr() as usize - body.as_ptr() as usize;
                // `body` is lossy; after an invalid byte its offsets run
                // ahead of the bytes, so keep the span inside the node.
                let end_k = k.end_byte();
                let wspan = Span::new(
                    self.file,
                    (base + start).min(end_k),
                    (base + start + word.len()).min(end_k),
                );
                items.push(if atoms {
                    Value::Atom {
                        name: word.to_string(),
                        span: wspan,
                    }
                } else {
                    Value::Str(Template::lit(word, wspan))
                });
            }
        }
        Value::List {
            items,
            tail: Vec::new(),
            span,
        }
    }

    /// `<<"emq:{", q::binary, "}:", t::binary>>`: binary segments as a
    /// template; segments of other types become holes.
    fn bitstring(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let mut segs = Vec::new();
        for k in named_children(n) {
            match k.kind() {
                "comment" => {}
                "binary_operator" if self.op(k) == "::" => {
                    let ty = k
                        .child_by_field_name("right")
                        .map(|r| self.text(r))
                        .unwrap_or_default();
                    let textual = ["binary", "bytes", "bitstring", "bits", "utf8"]
                        .iter()
                        .any(|t| ty.starts_with(t));
                    match k.child_by_field_name("left") {
                        Some(l) if textual => interpolate(&mut segs, self.value(l, env, depth + 1)),
                        _ => segs.push(Seg::Hole {
                            label: self.text(k),
                            span: self.span(k),
                        }),
                    }
                }
                _ => flatten_iodata(&mut segs, self.value(k, env, depth + 1)),
            }
        }
        Value::Str(Template { segs, span })
    }

    /// `a <> b <> c` flattened into one template, iteratively.
    fn concat(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Value {
        let span = self.span(n);
        let mut stack = vec![n];
        let mut segs = Vec::new();
        while let Some(node) = stack.pop() {
            if node.kind() == "binary_operator" && self.op(node) == "<>" {
                if let (Some(l), Some(r)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) {
                    stack.push(r);
                    stack.push(l);
                    continue;
                }
            }
            append_value(&mut segs, self.value(node, env, depth + 1));
        }
        Value::Str(Template { segs, span })
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
        let Some(path) = self.call_path(target) else {
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
        if path.len() == 1 && SPECIAL_FORMS.contains(&path[0].as_str()) {
            return unknown();
        }
        let args = arg_nodes
            .into_iter()
            .map(|a| self.value(a, env, depth + 1))
            .collect();
        Value::Call { path, args, span }
    }

    /// `base` → `["base"]`, `Keys.wait` → `["Keys", "wait"]`,
    /// `EchoMQ.Keyspace.queue_key` → `["EchoMQ", "Keyspace", "queue_key"]`.
    fn call_path(&self, target: Node<'_>) -> Option<Vec<String>> {
        match target.kind() {
            "identifier" => Some(vec![self.text(target)]),
            "dot" => {
                let left = target.child_by_field_name("left")?;
                let right = target.child_by_field_name("right")?;
                if right.kind() != "identifier" {
                    return None;
                }
                let mut path: Vec<String> = match left.kind() {
                    "alias" => self
                        .text(left)
                        .split('.')
                        .map(|s| s.trim().to_string())
                        .collect(),
                    "atom" | "identifier" => vec![self.text(left)],
                    _ => return None,
                };
                path.push(self.text(right));
                Some(path)
            }
            _ => None,
        }
    }

    /// A string, charlist or `~s`/`~S` sigil as a template: literal runs
    /// decoded (heredocs dedented), interpolations as values or holes.
    fn string(&self, n: Node<'_>, env: Option<usize>, depth: usize) -> Template {
        let span = self.span(n);
        let start = n
            .child_by_field_name("quoted_start")
            .map(|s| self.text(s))
            .unwrap_or_default();
        let heredoc = start == "\"\"\"" || start == "'''";
        let raw = n.kind() == "sigil" && self.sigil_name(n) == "S";
        let indent = if heredoc {
            n.child_by_field_name("quoted_end")
                .map(|e| self.closing_indent(e.start_byte()))
                .unwrap_or(0)
        } else {
            0
        };
        let mut segs = Vec::new();
        let mut lit = String::new();
        let mut lit_span: Option<Span> = None;
        // In a heredoc: the first newline is dropped, and each line loses
        // the closing delimiter's indentation.
        let mut skip_first_newline = heredoc;
        let mut at_line_start = false;
        let mut to_strip = 0usize;
        for k in named_children(n) {
            match k.kind() {
                "quoted_content" | "escape_sequence" => {
                    let t = self.text(k);
                    let piece = if k.kind() == "escape_sequence" && !raw {
                        decode_escape(&t)
                    } else {
                        t
                    };
                    for c in piece.chars() {
                        if skip_first_newline {
                            skip_first_newline = false;
                            if c == '\n' {
                                at_line_start = true;
                                to_strip = indent;
                                continue;
                            }
                        }
                        if at_line_start
                            && to_strip > 0
                            && (c == ' ' || c == '\t')
                            && k.kind() == "quoted_content"
                        {
                            to_strip -= 1;
                            continue;
                        }
                        at_line_start = false;
                        lit.push(c);
                        if heredoc && c == '\n' && k.kind() == "quoted_content" {
                            at_line_start = true;
                            to_strip = indent;
                        }
                    }
                    let s = self.span(k);
                    lit_span = Some(lit_span.map_or(s, |l| l.join(s)));
                }
                "interpolation" => {
                    skip_first_newline = false;
                    at_line_start = false;
                    if let Some(s) = lit_span.take() {
                        push_lit(&mut segs, &lit, s);
                    }
                    lit.clear();
                    let inner: Vec<Node<'_>> = named_children(k)
                        .into_iter()
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    match inner.last() {
                        Some(e) if inner.len() == 1 => {
                            interpolate(&mut segs, self.value(*e, env, depth + 1))
                        }
                        _ => segs.push(Seg::Hole {
                            label: self.text(k),
                            span: self.span(k),
                        }),
                    }
                }
                _ => {}
            }
        }
        if let Some(s) = lit_span {
            push_lit(&mut segs, &lit, s);
        }
        if segs.is_empty() {
            let at = n
                .child_by_field_name("quoted_start")
                .map(|s| s.end_byte())
                .unwrap_or(n.start_byte());
            segs.push(Seg::Lit {
                text: String::new(),
                span: Span::new(self.file, at, at),
            });
        }
        Template { segs, span }
    }

    /// Spaces and tabs between the line start and `at`.
    fn closing_indent(&self, at: usize) -> usize {
        let mut i = at.min(self.src.len());
        let mut count = 0;
        while i > 0 {
            match self.src.get(i - 1) {
                Some(b' ') | Some(b'\t') => {
                    count += 1;
                    i -= 1;
                }
                _ => break,
            }
        }
        count
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

/// Appends a value to a template: strings are spliced in, unknowns become
/// holes, the rest stays as values for the link step.
fn append_value(segs: &mut Vec<Seg>, v: Value) {
    if segs.len() >= MAX_SEGS {
        if !matches!(segs.last(), Some(Seg::Hole { label, .. }) if label == "..") {
            segs.push(Seg::Hole {
                label: "..".into(),
                span: v.span(),
            });
        }
        return;
    }
    match v {
        Value::Str(t) => {
            let room = MAX_SEGS.saturating_sub(segs.len());
            let n = t.segs.len();
            let span = t.span;
            segs.extend(t.segs.into_iter().take(room));
            if n > room {
                segs.push(Seg::Hole {
                    label: "..".into(),
                    span,
                });
            }
        }
        Value::Unknown { label, span } => segs.push(Seg::Hole { label, span }),
        other => segs.push(Seg::Value(Box::new(other))),
    }
}

/// An interpolated value: atoms and integers are sent as their text.
fn interpolate(segs: &mut Vec<Seg>, v: Value) {
    match v {
        Value::Atom { name, span } => push_lit(segs, &name, span),
        Value::Int { value, span } => push_lit(segs, &value.to_string(), span),
        Value::List { span, .. } | Value::Map { span, .. } => segs.push(Seg::Hole {
            label: "_".into(),
            span,
        }),
        other => append_value(segs, other),
    }
}

/// Flattens iodata (nested lists of binaries) into a template, iteratively.
fn flatten_iodata(segs: &mut Vec<Seg>, v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::List { items, tail, .. } => {
                for t in tail.into_iter().rev() {
                    stack.push(t);
                }
                for i in items.into_iter().rev() {
                    stack.push(i);
                }
            }
            Value::Int { value, span } if (0..=255).contains(&value) => {
                // A byte in iodata.
                let c = char::from(value as u8);
                push_lit(segs, &c.to_string(), span);
            }
            other => append_value(segs, other),
        }
    }
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

/// Decodes one Elixir escape sequence (`\n`, `\"`, `\x41`, `\u{1F600}`).
fn decode_escape(raw: &str) -> String {
    let Some(body) = raw.strip_prefix('\\') else {
        return raw.to_string();
    };
    let mut chars = body.chars();
    let Some(c) = chars.next() else {
        return "\\".to_string();
    };
    let rest: String = chars.collect();
    let simple = match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'd' => Some('\u{7f}'),
        'e' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        's' => Some(' '),
        'v' => Some('\u{b}'),
        '0' => Some('\0'),
        _ => None,
    };
    if let Some(s) = simple {
        return format!("{s}{rest}");
    }
    match c {
        // A line continuation.
        '\n' => rest,
        'x' => {
            let hex = rest.trim_start_matches('{').trim_end_matches('}');
            u32::from_str_radix(hex, 16)
                .ok()
                .and_then(char::from_u32)
                .map(|c| c.to_string())
                .unwrap_or_else(|| raw.to_string())
        }
        'u' => {
            let hex = rest.trim_start_matches('{').trim_end_matches('}');
            u32::from_str_radix(hex, 16)
                .ok()
                .and_then(char::from_u32)
                .map(|c| c.to_string())
                .unwrap_or_else(|| raw.to_string())
        }
        other => format!("{other}{rest}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Lang;

    fn facts(src: &str) -> FileFacts {
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(Lang::Elixir, src.as_bytes()).unwrap();
        extract(tree.root_node(), src.as_bytes(), 0, &mut p)
    }

    fn at(src: &str, needle: &str) -> u32 {
        src.find(needle).expect("needle") as u32
    }

    fn templates(f: &FileFacts) -> Vec<String> {
        f.templates.iter().map(|t| t.to_string()).collect()
    }

    fn str_of(v: &Value) -> &Template {
        match v {
            Value::Str(t) => t,
            other => panic!("a string expected, got {other:?}"),
        }
    }

    #[test]
    fn queue_key_from_the_seed() {
        let src = "defmodule EchoMQ.Keyspace do\n  \
                   def queue_key(queue, type) when is_binary(queue) and is_binary(type),\n    \
                   do: IO.iodata_to_binary([\"emq:{\", queue, \"}:\", type])\nend\n";
        let f = facts(src);
        assert_eq!(f.functions.len(), 1);
        let fun = &f.functions[0];
        assert_eq!(fun.module, "EchoMQ.Keyspace");
        assert_eq!(fun.name, "queue_key");
        assert_eq!(fun.params, vec!["queue", "type"]);
        assert_eq!(fun.clause, 0);
        assert_eq!(fun.name_span.start, at(src, "queue_key("));
        let t = str_of(&fun.returns);
        assert_eq!(t.to_string(), "emq:{<queue>}:<type>");
        assert!(
            matches!(&t.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. }))
        );
        assert!(
            matches!(&t.segs[3], Seg::Value(v) if matches!(**v, Value::Param { index: 1, .. }))
        );
        let Seg::Lit { text, span } = &t.segs[0] else {
            panic!()
        };
        assert_eq!(text, "emq:{");
        assert_eq!(span.start, at(src, "emq:{"));
        assert_eq!(span.len(), 5);
        assert_eq!(templates(&f), vec!["emq:{<queue>}:<type>"]);
    }

    #[test]
    fn interpolation_and_concatenation_are_flattened() {
        let src = r##"defmodule A do
  @prefix "emq:"
  def a(queue, type), do: "emq:{#{queue}}:#{type}"
  def b(queue, type), do: "emq:{" <> queue <> "}:" <> type
  def c(ctx), do: "#{@prefix}{#{base(ctx)}}:wait:#{Keys.wait(ctx)}"
  defp d(x), do: Enum.join(["emq", x, "pending"], ":")
end
"##;
        let f = facts(src);
        let got: Vec<(String, String)> = f
            .functions
            .iter()
            .map(|d| (d.name.clone(), d.returns.describe()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a".into(), "emq:{<queue>}:<type>".into()),
                ("b".into(), "emq:{<queue>}:<type>".into()),
                ("c".into(), "<@prefix>{<base>}:wait:<wait>".into()),
                ("d".into(), "emq:<x>:pending".into()),
            ]
        );
        let c = str_of(&f.functions[2].returns);
        assert!(
            matches!(&c.segs[0], Seg::Value(v) if matches!(&**v, Value::Const { path, .. } if path == &vec!["@prefix".to_string()]))
        );
        assert!(
            matches!(&c.segs[4], Seg::Value(v) if matches!(&**v, Value::Call { path, args, .. } if path == &vec!["Keys".to_string(), "wait".to_string()] && matches!(args[0], Value::Param { index: 0, .. })))
        );
        // The separator keeps the span of its own string.
        let d = str_of(&f.functions[3].returns);
        assert_eq!(d.segs[1].span().start, at(src, ":\")"));
        // Only maximal expressions are templates.
        assert_eq!(
            templates(&f),
            vec![
                "emq:",
                "emq:{<queue>}:<type>",
                "emq:{<queue>}:<type>",
                "<@prefix>{<base>}:wait:<wait>",
                "emq:<x>:pending"
            ]
        );
        assert_eq!(f.consts.len(), 1);
        assert_eq!(f.consts[0].name, "@prefix");
        assert_eq!(f.consts[0].value.as_str().as_deref(), Some("emq:"));
        assert_eq!(f.consts[0].name_span.start, at(src, "prefix \""));
    }

    #[test]
    fn escapes_are_decoded_with_content_spans() {
        let src = "x = \"a\\\"b\\n\\#{c}:d\"\ny = ~S\"raw\\n:#{x}\"\n";
        let f = facts(src);
        let texts: Vec<String> = f
            .templates
            .iter()
            .map(|t| t.as_literal().unwrap_or_default())
            .collect();
        assert_eq!(texts, vec!["raw\\n:#{x}".to_string()]);
        // The first has a newline, so it is not a key; read it directly.
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(Lang::Elixir, src.as_bytes()).unwrap();
        let mut cx_facts = None;
        crate::parse::walk(tree.root_node(), |n| {
            if n.kind() == "string" && cx_facts.is_none() {
                cx_facts = Some((n.start_byte(), n.end_byte()));
            }
            true
        });
        let (s, e) = cx_facts.unwrap();
        let piece = &src[s..e];
        let sub = facts(&format!("{piece}\n"));
        assert!(sub.templates.is_empty());
        assert_eq!(decode_escape("\\\""), "\"");
        assert_eq!(decode_escape("\\#"), "#");
        assert_eq!(decode_escape("\\x41"), "A");
        assert_eq!(decode_escape("\\u{1F600}"), "\u{1F600}");
    }

    #[test]
    fn literal_string_has_one_decoded_lit() {
        let src = "def k, do: \"emq:\\\"q\\\":wait\"\n";
        let f = facts(src);
        let t = str_of(&f.functions[0].returns);
        assert_eq!(t.segs.len(), 1);
        let Seg::Lit { text, span } = &t.segs[0] else {
            panic!()
        };
        assert_eq!(text, "emq:\"q\":wait");
        assert_eq!(span.start, at(src, "emq:"));
        assert_eq!(span.end as usize, src.rfind('"').unwrap());
    }

    #[test]
    fn bindings_are_substituted_in_commands() {
        let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace
  def enqueue(conn, q, id, p) do
    key = Keyspace.queue_key(q, "job:" <> id)
    s = "pending"
    Redix.command(conn, ["HSET", key, "state", s, "attempts", "0", "payload", p])
  end
end
"##;
        let f = facts(src);
        assert_eq!(f.commands.len(), 1);
        let c = &f.commands[0];
        assert_eq!(c.name, "HSET");
        assert_eq!(c.name_span.start, at(src, "HSET"));
        assert!(!c.open_tail);
        let Value::Call { path, args, .. } = &c.args[0] else {
            panic!("{:?}", c.args[0])
        };
        assert_eq!(path, &vec!["Keyspace".to_string(), "queue_key".to_string()]);
        assert!(matches!(args[0], Value::Param { index: 1, .. }));
        assert_eq!(args[1].describe(), "job:<id>");
        let fields: Vec<Option<String>> = c
            .args
            .iter()
            .skip(1)
            .step_by(2)
            .map(|a| a.as_str())
            .collect();
        assert_eq!(
            fields,
            vec![
                Some("state".into()),
                Some("attempts".into()),
                Some("payload".into())
            ]
        );
        assert_eq!(c.args[1].span().start, at(src, "\"state\""));
        assert_eq!(str_of(&c.args[1]).segs[0].span().start, at(src, "state\""));
        assert_eq!(c.args[2].as_str().as_deref(), Some("pending"));
        assert!(matches!(c.args[6], Value::Param { index: 3, .. }));
        // enqueue returns the command call: a Call, so a candidate.
        assert_eq!(f.functions.len(), 1);
    }

    #[test]
    fn pipelines_pipes_tails_and_maps() {
        let src = r##"defmodule W do
  @hset "HSET"
  def run(conn, sha, rest, k, s) do
    Redix.pipeline(conn, [[@hset, k, "state", :active], ["ZADD", k, 0, "x"] ++ rest])
    conn |> Redix.command(["EVALSHA", sha, 2, k | rest])
    Redix.command(conn, ["hmget", k] ++ ["state", "payload"])
    Redix.command(conn, ["HSET", k, %{"state" => s, "payload" => "p"}])
  end
end
"##;
        let f = facts(src);
        let names: Vec<&str> = f.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["HSET", "ZADD", "EVALSHA", "HMGET", "HSET"]);
        let hset = &f.commands[0];
        assert_eq!(hset.name_span.start, at(src, "@hset, k"));
        assert!(matches!(&hset.args[2], Value::Atom { name, .. } if name == "active"));
        assert!(f.commands[1].open_tail);
        assert_eq!(f.commands[1].args.len(), 3);
        let ev = &f.commands[2];
        assert!(ev.open_tail);
        assert!(matches!(ev.args[0], Value::Param { index: 1, .. }));
        assert!(matches!(ev.args[1], Value::Int { value: 2, .. }));
        assert!(matches!(ev.args[2], Value::Param { index: 3, .. }));
        let hmget = &f.commands[3];
        assert!(!hmget.open_tail);
        let fields: Vec<String> = hmget.args.iter().filter_map(|a| a.as_str()).collect();
        assert_eq!(fields, vec!["state", "payload"]);
        let Value::Map { pairs, .. } = &f.commands[4].args[1] else {
            panic!("map expected")
        };
        let keys: Vec<String> = pairs.iter().filter_map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["state", "payload"]);
        assert!(matches!(pairs[0].1, Value::Param { index: 4, .. }));
        assert_eq!(f.consts.len(), 1);
    }

    #[test]
    fn heredoc_script_has_lua_facts_in_host_bytes() {
        let src = r##"defmodule EchoMQ.Jobs do
  @enqueue """
  redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """
  @claim File.read!("priv/lua/claim.lua")
  @moduledoc "Jobs: redis.call docs"
end
"##;
        let f = facts(src);
        assert!(f.consts.is_empty());
        assert_eq!(f.scripts.len(), 2);
        let s = &f.scripts[0];
        assert_eq!(s.name.as_deref(), Some("enqueue"));
        assert_eq!(s.name_span.start, at(src, "enqueue \"\"\""));
        let ScriptSource::Inline(lua) = &s.source else {
            panic!("inline expected")
        };
        assert_eq!(lua.commands.len(), 2);
        let hset = &lua.commands[0];
        assert_eq!(hset.name, "HSET");
        let payload = &hset.args[5];
        assert_eq!(payload.as_str().as_deref(), Some("payload"));
        let sp = payload.span();
        assert_eq!(sp.start, at(src, "'payload'"));
        assert_eq!(&src[sp.start as usize..sp.end as usize], "'payload'");
        let c = &f.scripts[1];
        assert_eq!(c.name.as_deref(), Some("claim"));
        let ScriptSource::File {
            path,
            relative_to_file,
            span,
        } = &c.source
        else {
            panic!("file expected")
        };
        assert_eq!(path, "priv/lua/claim.lua");
        assert!(!relative_to_file);
        assert_eq!(span.start, at(src, "\"priv/"));
    }

    #[test]
    fn inline_eval_script_becomes_a_script_ref() {
        let src = "def go(conn, k), do: Redix.command(conn, [\"EVAL\", \"\"\"\n  return redis.call('GET', KEYS[1])\n  \"\"\", 1, k])\n";
        let f = facts(src);
        assert_eq!(f.scripts.len(), 1);
        assert_eq!(f.scripts[0].name, None);
        let c = &f.commands[0];
        assert_eq!(c.name, "EVAL");
        assert!(matches!(c.args[0], Value::ScriptRef { index: 0, .. }));
        assert!(matches!(c.args[1], Value::Int { value: 1, .. }));
    }

    #[test]
    fn multi_clause_and_nested_modules() {
        let src = r##"defmodule EchoMQ do
  defmodule Keys do
    def key(:wait, q), do: "emq:{#{q}}:wait"
    def key(:active, q), do: "emq:{#{q}}:active"
    def key(other, _q), do: other
    def count, do: 3
  end
end
"##;
        let f = facts(src);
        let got: Vec<(String, usize, Vec<String>, String)> = f
            .functions
            .iter()
            .map(|d| {
                (
                    d.module.clone(),
                    d.clause,
                    d.params.clone(),
                    d.returns.describe(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "EchoMQ.Keys".into(),
                    0,
                    vec!["_".into(), "q".into()],
                    "emq:{<q>}:wait".into()
                ),
                (
                    "EchoMQ.Keys".into(),
                    1,
                    vec!["_".into(), "q".into()],
                    "emq:{<q>}:active".into()
                ),
                (
                    "EchoMQ.Keys".into(),
                    2,
                    vec!["other".into(), "_q".into()],
                    "other".into()
                ),
            ]
        );
    }

    #[test]
    fn heredoc_text_is_dedented() {
        let src = "def k do\n  \"\"\"\n    emq:\n    x\n    \"\"\"\nend\n";
        let f = facts(src);
        assert_eq!(
            f.functions[0].returns.as_str().as_deref(),
            Some("emq:\nx\n")
        );
    }

    #[test]
    fn negatives() {
        let src = r##"defmodule N do
  require Logger
  def a(reason), do: Logger.error("failed: #{reason}")
  def b, do: ["a", "b"]
  def c, do: ["get it", 1]
end
"##;
        let f = facts(src);
        assert!(f.templates.is_empty(), "{:?}", templates(&f));
        assert!(f.commands.is_empty());
    }

    #[test]
    fn error_nodes_are_read_and_nothing_panics() {
        let src = "defmodule A do\n  def k(q), do: \"emq:{\" <> q <> \"}:wait\"\n  def (( [\"HSET\", \"emq:x\", \"state\"\n";
        let f = facts(src);
        assert!(templates(&f).iter().any(|t| t == "emq:{<q>}:wait"));
        for junk in [
            "\"#{",
            "~S\"\"\"\n",
            "@",
            "[|]",
            "\"\\x{zz}\"",
            "<<\"a\">>",
            "\"\\u{110000}\"",
        ] {
            let _ = facts(junk);
        }
        let deep = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
        let _ = facts(&deep);
        let blow = (0..60).map(|_| "a = a <> a\n").collect::<String>();
        let _ = facts(&format!("def f(a) do\n{blow}a\nend\n"));
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use crate::facts::Lang;

    fn facts(src: &str) -> FileFacts {
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(Lang::Elixir, src.as_bytes()).unwrap();
        extract(tree.root_node(), src.as_bytes(), 0, &mut p)
    }

    #[test]
    fn bitstrings_pipes_and_pattern_params() {
        let src = r##"defmodule K do
  def a(q, t), do: <<"emq:{", q::binary, "}:", t::binary, 0::8>>
  def b(%{queue: q} = ctx, id), do: [ctx.prefix, q, id] |> Enum.join(":")
  def c(ctx = %{}), do: "emq:" <> ctx
  def d(conn, sha, k) do
    Redix.command(conn, ["EVALSHA", sha, _num_keys = 2, k, "2"])
  end
end
"##;
        let f = facts(src);
        let got: Vec<String> = f.functions.iter().map(|d| d.returns.describe()).collect();
        assert_eq!(got[0], "emq:{<q>}:<t><8>");
        assert_eq!(got[1], "<prefix>:<q>:<id>");
        assert_eq!(f.functions[1].params, vec!["ctx", "id"]);
        let b = match &f.functions[1].returns {
            Value::Str(t) => t,
            other => panic!("{other:?}"),
        };
        assert!(
            matches!(&b.segs[4], Seg::Value(v) if matches!(**v, Value::Param { index: 1, .. }))
        );
        // A parameter pattern `ctx = %{}` is not a local binding.
        let c = match &f.functions[2].returns {
            Value::Str(t) => t,
            other => panic!("{other:?}"),
        };
        assert!(
            matches!(&c.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. }))
        );
        let ev = &f.commands[0];
        assert_eq!(ev.name, "EVALSHA");
        assert!(matches!(ev.args[1], Value::Int { value: 2, .. }));
        assert!(matches!(ev.args[2], Value::Param { index: 2, .. }));
        assert_eq!(ev.args[3].as_str().as_deref(), Some("2"));
        let ts: Vec<String> = f.templates.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            ts,
            vec!["emq:{<q>}:<t><8>", "<prefix>:<q>:<id>", "emq:<ctx>"]
        );
    }

    #[test]
    fn word_lists_are_lists_of_strings() {
        let src = "defmodule W do\n  @fields ~w(state  attempts payload)\n  def f(c, k), do: Redix.command(c, [\"HMGET\", k | ~w(state payload)a])\nend\n";
        let f = facts(src);
        let Value::List { items, .. } = &f.consts[0].value else {
            panic!("{:?}", f.consts[0].value)
        };
        let words: Vec<String> = items.iter().filter_map(|i| i.as_str()).collect();
        assert_eq!(words, vec!["state", "attempts", "payload"]);
        assert_eq!(
            items[1].span().start as usize,
            src.find("attempts").unwrap()
        );
        assert_eq!(items[1].span().len(), 8);
        let c = &f.commands[0];
        assert!(c.open_tail);
        assert_eq!(c.args.len(), 1);
    }

    /// Every prefix of a realistic file parses to some tree (often with
    /// errors); none of them may panic the extractor.
    #[test]
    fn truncated_inputs_never_panic() {
        let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace, as: Keys
  @enqueue ~S"""
  redis.call('HSET', KEYS[1], 'state', 'pending', 'payload', ARGV[2])
  """
  @fields ~w(state attempts payload)
  def enqueue(conn, queue, id, p) do
    row = Keys.queue_key(queue, "job:#{id}")
    Redix.pipeline(conn, [["EVALSHA", @enqueue, "1", row, p | []], ["HMGET", row | @fields]])
  end
  defp wait_key(%{queue: q}), do: <<"emq:{", q::binary, "}:wait">> <> "\u{1F600}é"
end
"##;
        let mut p = Parsers::new().unwrap();
        for end in 0..=src.len() {
            let bytes = &src.as_bytes()[..end];
            let tree = p.parse(Lang::Elixir, bytes).unwrap();
            let _ = extract(tree.root_node(), bytes, 0, &mut p);
        }
    }
}
