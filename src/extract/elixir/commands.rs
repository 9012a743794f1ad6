//! Redis command lists: `["HSET", key, "f", v]`, lists with `|` and `++`
//! tails, heads bound to a variable and appended to later, and `EVAL`
//! with its script inline.

use tree_sitter::Node;

use super::Cx;
use crate::facts::{Command, Span, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// A command list: `["HSET", key, "state", s]`, `[..] ++ rest`,
    /// `["EVALSHA", sha, n | rest]`. `whole` is the list or the `++`
    /// expression, `list` the list literal holding the command name.
    /// Returns whether a command was recorded.
    pub(super) fn command(&mut self, whole: Node<'_>, list: Node<'_>, scope: usize) -> bool {
        let env = self.env_of(scope);
        let Some(c) = self.build_command(whole, list, env) else {
            return false;
        };
        self.facts.commands.push(c);
        true
    }

    /// `[..] ++ rest` or `cmd ++ keys ++ args`: records the command, and
    /// marks the pieces read so that they are not recorded again.
    pub(super) fn appended_command(&mut self, n: Node<'_>, scope: usize) {
        let Some(l) = n.child_by_field_name("left") else {
            return;
        };
        if l.kind() == "list" && self.command(n, l, scope) {
            self.handled.insert(l.id());
        } else if self.appended_head(n, self.env_of(scope)) {
            let mut left = Some(l);
            while let Some(x) = left {
                self.handled.insert(x.id());
                left = x.child_by_field_name("left");
            }
        }
    }

    /// `cmd = ["EVALSHA", sha, 2]`: remembers a command head, recorded where
    /// it is appended to (or at the end).
    pub(super) fn bind_head(&mut self, name: &str, r: Node<'_>, env: usize) {
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
    fn appended_head(&mut self, whole: Node<'_>, env: Option<usize>) -> bool {
        let mut left = whole;
        while left.kind() == "binary_operator" && self.op(left) == "++" {
            match left.child_by_field_name("left") {
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
        let Some(c) = self.command_from(head.name, head.name_span, whole, env) else {
            return false;
        };
        if let Some(h) = self.envs.get_mut(e).and_then(|e| e.heads.get_mut(&name)) {
            h.1 = true;
        }
        self.facts.commands.push(c);
        true
    }

    /// Reads a command list without recording it.
    fn build_command(
        &mut self,
        whole: Node<'_>,
        list: Node<'_>,
        env: Option<usize>,
    ) -> Option<Command> {
        let items = named_children(list);
        let first = items.first().copied()?;
        let module = self.module_of(env).to_string();
        let (name, name_span) = self.command_name(first, &module)?;
        if !crate::redis::is_command(&name) {
            return None;
        }
        let name = name.to_ascii_uppercase();
        let script_ref = self.eval_script(&name, items.get(1).copied());
        let mut c = self.command_from(name, name_span, whole, env)?;
        if let (Some(r), Some(slot)) = (script_ref, c.args.first_mut()) {
            *slot = r;
        }
        Some(c)
    }

    /// The command a list expression spells under a name read from its
    /// head: the items after the head are its arguments, values appended
    /// as a whole its tail. `None` when the expression is no list.
    fn command_from(
        &self,
        name: String,
        name_span: Span,
        whole: Node<'_>,
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
            args: items,
            open_tail: !tail.is_empty(),
            tail,
            span: self.span(whole),
            func: self.func_of(env),
        })
    }

    /// `["EVAL", "<lua>", ..]`: the script written in place, recorded,
    /// as a reference to stand for the command's first argument.
    fn eval_script(&mut self, name: &str, body: Option<Node<'_>>) -> Option<Value> {
        if !matches!(name, "EVAL" | "EVAL_RO") {
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
}
