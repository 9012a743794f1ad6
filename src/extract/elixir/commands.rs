//! Redis command lists: `["HSET", key, "f", v]`, lists with `|` and `++`
//! tails, heads bound to a variable and appended to later, and `EVAL`
//! with its script inline.

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::client::client_command_arg;
use super::{call_args, Cx};
use crate::facts::{Command, Sink, Span, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// A command list: `["HSET", key, "state", s]`, `[..] ++ rest`,
    /// `["EVALSHA", sha, n | rest]`. `whole` is the list or the `++`
    /// expression, `list` the list literal holding the command name.
    /// Returns whether a command was recorded.
    pub(super) fn command(&mut self, whole: Node<'t>, list: Node<'_>, scope: usize) -> bool {
        let env = self.env_of(scope);
        let Some(c) = self.build_command(whole, list, env) else {
            return false;
        };
        self.facts.commands.push(c);
        true
    }

    /// `[..] ++ rest` or `cmd ++ keys ++ args`: records the command, and
    /// marks the pieces read so that they are not recorded again.
    pub(super) fn appended_command(&mut self, n: Node<'t>, scope: usize) {
        let Some(l) = n.child_by_field_id(F.left) else {
            return;
        };
        if l.kind() == "list" && self.command(n, l, scope) {
            self.handled.insert(l.id());
        } else if self.appended_head(n, self.env_of(scope)) {
            let mut left = Some(l);
            while let Some(x) = left {
                self.handled.insert(x.id());
                left = x.child_by_field_id(F.left);
            }
        }
    }

    /// `cmd = ["EVALSHA", sha, 2]`: remembers a command head, recorded where
    /// it is appended to (or at the end).
    pub(super) fn bind_head(&mut self, name: &str, r: Node<'t>, env: usize) {
        if r.kind() != "list" {
            return;
        }
        if let Some(c) = self.build_command(r, r, Some(env)) {
            self.handled.insert(r.id());
            if let Some(e) = self.envs.get_mut(env) {
                e.heads.insert(name.to_string(), (c, false));
            }
        }
    }

    /// `cmd ++ keys ++ args` where `cmd` holds a command head: records the
    /// command with everything appended.
    fn appended_head(&mut self, whole: Node<'t>, env: Option<usize>) -> bool {
        let mut left = whole;
        while left.kind() == "binary_operator" && self.op(left) == "++" {
            match left.child_by_field_id(F.left) {
                Some(l) => left = l,
                None => return false,
            }
        }
        if left.kind() != "identifier" {
            return false;
        }
        let name = self.text(left);
        let Some(e) = env else {
            return false;
        };
        let Some((head, _)) = self.envs.get(e).and_then(|e| e.heads.get(&name)).cloned() else {
            return false;
        };
        let Some(mut c) = self.command_from(head.name, head.name_span, whole, env) else {
            return false;
        };
        c.name_of = head.name_of;
        if let Some(h) = self.envs.get_mut(e).and_then(|e| e.heads.get_mut(&name)) {
            h.1 = true;
        }
        self.facts.commands.push(c);
        true
    }

    /// Reads a command list without recording it.
    fn build_command(
        &mut self,
        whole: Node<'t>,
        list: Node<'_>,
        env: Option<usize>,
    ) -> Option<Command> {
        let items = named_children(list);
        let first = items.first().copied()?;
        let module = self.module_of(env).to_string();
        let (name, name_span, name_of) = match self.command_name(first, &module, env) {
            Some((name, span)) => (name, span, None),
            None => {
                let v = self.defined_name(first, whole, env)?;
                (String::new(), v.span(), Some(v))
            }
        };
        if name_of.is_none() && !crate::redis::is_command(&name) {
            return None;
        }
        let name = name.to_ascii_uppercase();
        let script_ref = self.eval_script(&name, name_of.is_some(), items.get(1).copied());
        let mut c = self.command_from(name, name_span, whole, env)?;
        c.name_of = name_of;
        if let (Some(r), Some(slot)) = (script_ref, c.args.first_mut()) {
            *slot = r;
        }
        Some(c)
    }

    /// A list's head that calls, without arguments, a function of the
    /// code base the file does not show returning a literal
    /// (`Verbs.evalsha()`, an imported `evalsha()`): the name as that
    /// call, for the link to follow to the function's definition in any
    /// file: in a file that names its client, or, in a file that holds a
    /// script, in a list `whole` hands to a function of the code base (the
    /// link keeps it only where that function is proven to send it). The
    /// prefilter reads both files (`needles::command_head`,
    /// `needles::holds_scripts`).
    fn defined_name(&self, head: Node<'_>, whole: Node<'t>, env: Option<usize>) -> Option<Value> {
        if head.kind() != "call" || !call_args(head, None).is_empty() {
            return None;
        }
        let handed_on = || matches!(self.sink_of(whole, env), Sink::Call { .. });
        let speaks = self.names_client || (self.holds_scripts && handed_on());
        if !speaks {
            return None;
        }
        let v = self.value(head, env, 0);
        // A module of the project may sit under a library's name
        // (`Mix.Tasks.X`): the link looks for the definition, and a call
        // none answers names no command.
        let followed = |p: &[String]| match p {
            [one] => Self::is_codebase(p) && !one.is_empty(),
            [first, ..] => !first.starts_with(':'),
            [] => false,
        };
        match &v {
            Value::Call { path, args, .. } if args.is_empty() && followed(path) => Some(v),
            _ => None,
        }
    }

    /// The command a list expression spells under a name read from its
    /// head: the items after the head are its arguments, values appended
    /// as a whole its tail. `None` when the expression is no list.
    fn command_from(
        &self,
        name: String,
        name_span: Span,
        whole: Node<'t>,
        env: Option<usize>,
    ) -> Option<Command> {
        let Value::List {
            mut items, tail, ..
        } = self.value(whole, env, 0)
        else {
            return None;
        };
        if items.is_empty() {
            return None;
        }
        items.remove(0);
        Some(Command {
            name,
            name_span,
            name_of: None,
            args: items,
            open_tail: !tail.is_empty(),
            tail,
            span: self.span(whole),
            func: self.func_of(env),
            sink: self.sink_of(whole, env),
        })
    }

    /// `["EVAL", "<lua>", ..]`: the script written in place, recorded,
    /// as a reference to stand for the command's first argument. A name
    /// the link still has to follow (`pending`) may be `EVAL`: Lua in
    /// place is read as the script all the same.
    fn eval_script(&mut self, name: &str, pending: bool, body: Option<Node<'_>>) -> Option<Value> {
        if !pending && !matches!(name, "EVAL" | "EVAL_RO") {
            return None;
        }
        let body = body?;
        let script = self.inline_script(body, None)?;
        let index = self.push_script(None, self.span(body), script);
        Some(Value::ScriptRef {
            index,
            span: self.span(body),
        })
    }

    /// The literal name at the head of a list: a plain string, an
    /// attribute holding one (spanned at the attribute's value), or a call of a function of this file that
    /// returns either.
    fn command_name(
        &self,
        n: Node<'_>,
        module: &str,
        env: Option<usize>,
    ) -> Option<(String, Span)> {
        match n.kind() {
            "call" | "unary_operator" => match self.value(n, env, 0) {
                Value::Const { path, span } if path.len() == 1 => {
                    let s = self.attr_strs.get(&(module.to_string(), path[0].clone()))?;
                    Some((s.clone(), span))
                }
                Value::Str(t) => {
                    let name = t.as_literal().filter(|s| !s.is_empty() && s.len() <= 20)?;
                    let span = match t.segs.as_slice() {
                        [crate::facts::Seg::Lit { span, .. }] => *span,
                        _ => t.span,
                    };
                    Some((name, span))
                }
                _ => None,
            },
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
            _ => None,
        }
    }
}

/// Operators that compare or match a value: a command on either side is
/// never sent.
const COMPARISONS: &[&str] = &[
    "==", "!=", "===", "!==", "=~", "in", "not in", "<", ">", "<=", ">=",
];

/// Nodes a command list passes through unchanged on its way to a consumer.
const CARRIERS: &[&str] = &[
    "list",
    "tuple",
    "map",
    "map_content",
    "keywords",
    "pair",
    "block",
];

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// `n`'s parent, by the file's [`crate::parse::Climb`].
    pub(super) fn parent_of(&self, n: Node<'t>) -> Option<Node<'t>> {
        self.climb.borrow_mut().parent(n)
    }

    /// Whether a call is the right side of a `|>` (its first argument piped).
    pub(super) fn is_piped(&self, call: Node<'t>) -> bool {
        self.parent_of(call).is_some_and(|p| {
            p.kind() == "binary_operator"
                && p.child_by_field_id(F.right).map(|r| r.id()) == Some(call.id())
                && p.child_by_field_id(F.operator)
                    .is_some_and(|o| o.kind() == "|>")
        })
    }

    /// Whether a value is (inside lists and tuples) one side of a
    /// comparison or a match pattern: what tests assert, never sent.
    pub(super) fn compared(&self, n: Node<'t>) -> bool {
        let mut node = n;
        for _ in 0..64 {
            let Some(parent) = self.parent_of(node) else {
                return false;
            };
            match parent.kind() {
                k if CARRIERS.contains(&k) => node = parent,
                "binary_operator" => {
                    let op = self.op(parent);
                    return COMPARISONS.contains(&op)
                        || (op == "=" && parent.child_by_field_id(F.left) == Some(node));
                }
                _ => return false,
            }
        }
        false
    }

    /// Where a command list goes: up through the lists, tuples and `++`
    /// holding it to the first call that takes it. A Redis client sends
    /// it; a function of the code base may (the link step proves it); a
    /// library call passes it on; a comparison or a match never sends it;
    /// a variable, an attribute or a function's result holds it.
    pub(super) fn sink_of(&self, whole: Node<'t>, env: Option<usize>) -> Sink {
        let module = self.module_of(env);
        let mut node = whole;
        // The climb is bounded: a command nested deeper than this is held.
        for _ in 0..64 {
            let Some(parent) = self.parent_of(node) else {
                return Sink::Held;
            };
            if let Some((a, at)) = self.called_arg(node, parent, env) {
                let arity = a.args.len();
                match self.path_sink(a.path, at, arity) {
                    Some(sink) => return sink,
                    // A library call passes it on: its result carries it.
                    None => {
                        node = match parent.kind() {
                            "arguments" => self.parent_of(parent).unwrap_or(parent),
                            _ => parent,
                        };
                        continue;
                    }
                }
            }
            match parent.kind() {
                k if CARRIERS.contains(&k) => node = parent,
                "binary_operator" => {
                    let op = self.op(parent);
                    let left = parent.child_by_field_id(F.left);
                    match op {
                        o if COMPARISONS.contains(&o) => return Sink::Unsent,
                        "=" if left == Some(node) => return Sink::Unsent,
                        "=" => return Sink::Held,
                        "|>" if left == Some(node) => {
                            let right = parent.child_by_field_id(F.right);
                            match right.filter(|r| r.kind() == "call") {
                                Some(call) => match self.call_sink(call, 0, true, module) {
                                    Some(sink) => return sink,
                                    None => node = parent,
                                },
                                None => node = parent,
                            }
                        }
                        _ => node = parent,
                    }
                }
                "arguments" => {
                    let Some(call) = self.parent_of(parent).filter(|c| c.kind() == "call") else {
                        return Sink::Held;
                    };
                    let piped = self.is_piped(call);
                    let index = crate::parse::named_children(parent)
                        .into_iter()
                        .filter(|k| k.kind() != "comment")
                        .position(|k| k.id() == node.id())
                        .unwrap_or(0)
                        + usize::from(piped);
                    match self.call_sink(call, index, piped, module) {
                        Some(sink) => return sink,
                        None => node = call,
                    }
                }
                "unary_operator" if self.op(parent) == "@" => return Sink::Held,
                _ => return Sink::Held,
            }
        }
        Sink::Held
    }

    /// What a call does with its argument `index`: `None` when it is a
    /// library call that passes it on (its result carries the command).
    fn call_sink(&self, call: Node<'_>, index: usize, piped: bool, module: &str) -> Option<Sink> {
        let target = call.child_by_field_id(F.target)?;
        let path = self.callee(target, module)?;
        let arity = call_args(call, None)
            .into_iter()
            .filter(|k| k.kind() != "comment")
            .count()
            + usize::from(piped);
        self.path_sink(path, index, arity)
    }

    /// What a call of `path` with `arity` arguments does with its argument
    /// `index` ([`Cx::call_sink`]).
    fn path_sink(&self, path: Vec<String>, index: usize, arity: usize) -> Option<Sink> {
        if let Some(at) = client_command_arg(&path) {
            return Some(if at == index {
                Sink::Client
            } else {
                Sink::Unsent
            });
        }
        if !Self::is_codebase(&path) {
            return None;
        }
        Some(Sink::Call {
            path,
            arg: index,
            arity,
        })
    }
}
