//! Redis command lists: `["HSET", key, "f", v]`, lists with `|` and `++`
//! tails, heads bound to a variable and appended to later, and `EVAL`
//! with its script inline.

use tree_sitter::Node;

use super::{is_string_node, Cx};
use crate::facts::{Command, ScriptDef, ScriptSource, Span, Value};
use crate::parse::named_children;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// A command list: `["HSET", key, "state", s]`, `[..] ++ rest`,
    /// `["EVALSHA", sha, n | rest]`. `whole` is the list or the `++`
    /// expression, `list` the list literal holding the command name.
    /// Returns whether a command was recorded.
    pub(super) fn command(
        &mut self,
        whole: Node<'_>,
        list: Option<Node<'_>>,
        scope: usize,
    ) -> bool {
        let Some(list) = list else {
            return false;
        };
        let env = self.env_of(scope);
        match self.build_command(whole, list, env) {
            Some(c) => {
                self.facts.commands.push(c);
                true
            }
            None => false,
        }
    }

    /// `cmd ++ keys ++ args` where `cmd` holds a command head: records the
    /// command with everything appended.
    pub(super) fn appended_head(&mut self, whole: Node<'_>, env: Option<usize>) -> bool {
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
        if let Some(h) = self.envs.get_mut(e).and_then(|e| e.heads.get_mut(&name)) {
            h.1 = true;
        }
        self.facts.commands.push(Command {
            args: items,
            open_tail: !tail.is_empty(),
            tail,
            span: self.span(whole),
            func: self.func_of(env),
            ..head
        });
        true
    }

    /// Reads a command list without recording it.
    pub(super) fn build_command(
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
        let mut script_ref = None;
        if matches!(name.as_str(), "EVAL" | "EVAL_RO") {
            if let Some(body) = items.get(1).copied() {
                if is_string_node(body) && self.looks_like_lua(body) {
                    let lua = self.inline_lua(body);
                    let text = self.value(body, None, 0).as_str();
                    self.facts.scripts.push(ScriptDef {
                        name: None,
                        name_span: self.span(body),
                        source: ScriptSource::Inline(Box::new(lua)),
                        text,
                        declared_keys: None,
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
            return None;
        };
        if items.is_empty() {
            return None;
        }
        items.remove(0);
        if let (Some(r), Some(slot)) = (script_ref, items.first_mut()) {
            *slot = r;
        }
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
