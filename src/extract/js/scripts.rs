//! Scripts: Lua in strings and template literals (parsed in place, spans in
//! host bytes), `.lua` files read at start-up (`fs.readFileSync(path.join(
//! __dirname, "x.lua"))`), the binding each is held in, and the name and key
//! count `defineCommand(name, {numberOfKeys, lua})` or node-redis's
//! `defineScript({NUMBER_OF_KEYS, SCRIPT})` registers it under.

use tree_sitter::Node;

use super::stdlib::LIBRARY;
use super::values::{first_named, named};
use super::{is_function, Cx, NodeRef, Registered};
use crate::extract::embedded::Decoded;
use crate::extract::embedded_lua;
use crate::extract::library::Flow;
use crate::extract::parts::{looks_lua, Parts};
use crate::extract::source::Source;
use crate::facts::{ScriptDef, ScriptSource, Span, Value};

/// Whether a node is `a + b`.
fn is_plus(cx: &Cx<'_, '_, '_>, n: Node<'_>) -> bool {
    n.kind() == "binary_expression"
        && n.child_by_field_id(cx.f.operator)
            .is_some_and(|o| o.kind() == "+")
}

/// How far up from a script its binding is looked for.
const MAX_BINDING_CLIMB: usize = 6;

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// A string or template literal that holds Lua for Redis.
    pub(super) fn script_literal(&mut self, n: Node<'_>) {
        if self.parent_of(n).is_some_and(|p| is_plus(self, p)) {
            return; // read with the whole concatenation
        }
        let (_, dec) = self.string(n, 0);
        self.script_text(n, dec);
    }

    /// `"local x = redis.call(..)\n" + "return x"`: the concatenation of
    /// string literals, read as one text (the outermost `+`).
    pub(super) fn script_concat(&mut self, n: Node<'_>) {
        if !is_plus(self, n) || self.parent_of(n).is_some_and(|p| is_plus(self, p)) {
            return;
        }
        let mut leaves = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            if leaves.len() > 4096 {
                return;
            }
            if is_plus(self, x) {
                let (Some(l), Some(r)) = (
                    x.child_by_field_id(self.f.left),
                    x.child_by_field_id(self.f.right),
                ) else {
                    return;
                };
                stack.push(r);
                stack.push(l);
            } else if matches!(x.kind(), "string" | "template_string") {
                leaves.push(x);
            } else {
                return; // not all literal: no script text
            }
        }
        let mut parts = Parts::apart();
        for l in leaves {
            self.string_into(l, 0, &mut parts);
        }
        self.script_text(n, parts.decoded);
    }

    fn script_text(&mut self, n: Node<'_>, dec: Decoded) {
        if !looks_lua(&dec.text) {
            return;
        }
        let Some(lua) = embedded_lua(self.parsers, &dec, self.file) else {
            return;
        };
        let (name, name_span, local) = self.binding_of(n);
        let text = dec
            .holes
            .is_empty()
            .then(|| String::from_utf8_lossy(&dec.text).into_owned());
        self.add_script(
            n,
            ScriptDef {
                name,
                name_span: name_span.unwrap_or(self.span(n)),
                source: ScriptSource::Inline(std::sync::Arc::new(lua)),
                text: text.map(Into::into),
                declared_keys: None,
                local,
            },
        );
    }

    fn add_script(&mut self, n: Node<'_>, def: ScriptDef) {
        let i = self.facts.scripts.len();
        self.facts.scripts.push(def);
        self.scripts_at.insert(NodeRef::of(n), i);
    }

    /// `fs.readFileSync(path.join(__dirname, "lua", "x.lua"), "utf8")`,
    /// `readFileSync(`${__dirname}/x.lua`)`: a script file, found by its
    /// path (relative to the file when the path starts at `__dirname`,
    /// else to the project).
    pub(super) fn script_call(&mut self, n: Node<'_>) {
        let Some((func, args)) = self.invocation(n) else {
            return;
        };
        let callee = self.written(func);
        let path: Vec<&str> = callee.split('.').collect();
        if LIBRARY.function(&path, args.len()) != Some(Flow::Read) {
            return;
        }
        let Some(&arg) = args.first() else {
            return;
        };
        let mut pieces = Vec::new();
        let mut dirname = false;
        self.path_pieces(arg, &mut pieces, &mut dirname, 0);
        let path = pieces.join("/").replace("//", "/");
        if !path.ends_with(".lua") {
            return;
        }
        let path = path.trim_start_matches("./").to_string();
        let stem = path
            .rsplit('/')
            .next()
            .unwrap_or(&path)
            .trim_end_matches(".lua");
        let (name, name_span, local) = self.binding_of(n);
        let name = name.or_else(|| Some(crate::extract::script_name_from_stem(stem)));
        self.add_script(
            n,
            ScriptDef {
                name,
                name_span: name_span.unwrap_or(self.span(arg)),
                source: ScriptSource::File {
                    path,
                    relative_to_file: dirname,
                    span: self.span(arg),
                },
                text: None,
                declared_keys: None,
                local,
            },
        );
    }

    /// The literal pieces of a path expression (`path.join`, `+`, a template
    /// literal), and whether it starts at `__dirname`.
    fn path_pieces(&mut self, n: Node<'_>, out: &mut Vec<String>, dirname: &mut bool, d: usize) {
        if d > 8 {
            return;
        }
        match n.kind() {
            "identifier" if self.text(n) == "__dirname" => *dirname = true,
            "string" | "template_string" => {
                for c in named(n) {
                    match c.kind() {
                        "string_fragment" => out.push(self.text(c)),
                        "template_substitution"
                            if first_named(c).is_some_and(|x| self.text(x) == "__dirname") =>
                        {
                            *dirname = true;
                        }
                        _ => {}
                    }
                }
            }
            "binary_expression" => {
                for f in [self.f.left, self.f.right] {
                    if let Some(x) = n.child_by_field_id(f) {
                        self.path_pieces(x, out, dirname, d + 1);
                    }
                }
            }
            "call_expression" => {
                let Some((func, args)) = self.invocation(n) else {
                    return;
                };
                let callee = self.written(func);
                if !(callee.ends_with("join") || callee.ends_with("resolve")) {
                    return;
                }
                for a in args {
                    self.path_pieces(a, out, dirname, d + 1);
                }
            }
            _ => {}
        }
    }

    /// The name a script is bound to (a variable, a field, a property), its
    /// span, and whether the binding is a function's local.
    fn binding_of(&self, n: Node<'_>) -> (Option<String>, Option<Span>, bool) {
        let local = self.stack.iter().any(|f| !f.container);
        let mut cur = n;
        for _ in 0..MAX_BINDING_CLIMB {
            let Some(p) = self.parent_of(cur) else { break };
            let name = match p.kind() {
                "variable_declarator" => p.child_by_field_id(self.f.name),
                "assignment_expression" => p
                    .child_by_field_id(self.f.left)
                    .map(|l| l.child_by_field_id(self.f.property).unwrap_or(l)),
                "pair" => p.child_by_field_id(self.f.key),
                "public_field_definition" | "field_definition" => p
                    .child_by_field_id(self.f.name)
                    .or_else(|| p.child_by_field_id(self.f.property)),
                k if is_function(k) || k == "arguments" || k == "statement_block" => None,
                _ => {
                    cur = p;
                    continue;
                }
            };
            return match name {
                Some(x) if matches!(x.kind(), "identifier" | "property_identifier") => {
                    let is_local = local && p.kind() == "variable_declarator";
                    (Some(self.text(x)), Some(self.span(x)), is_local)
                }
                _ => (None, None, false),
            };
        }
        (None, None, false)
    }

    /// `defineCommand(name, {numberOfKeys, lua})`: the script gets the
    /// command's name and key count, and calls of `client.name(..)` in
    /// this file run it.
    pub(super) fn define_command(&mut self, name: Node<'_>, opts: Node<'_>) {
        let Some(cmd) = self.plain_string(name) else {
            // A name the code computes (a loader's, over a folder of
            // scripts): which methods it gives is the link's to tell.
            self.facts.registered.push(crate::facts::Registration {
                command: String::new(),
                script: Value::unknown(self.label(name), self.span(name)),
                keys: None,
                transforms: false,
            });
            return;
        };
        self.register(cmd, opts, &["lua"], &["numberOfKeys"], false);
    }

    /// `name: defineScript({NUMBER_OF_KEYS, SCRIPT, transformArguments})`
    /// (node-redis): the property names the command.
    pub(super) fn define_script(&mut self, call: Node<'_>, opts: Node<'_>) {
        let Some(pair) = self.parent_of(call).filter(|p| p.kind() == "pair") else {
            return;
        };
        let Some(key) = pair.child_by_field_id(self.f.key) else {
            return;
        };
        let cmd = self.text(key).trim_matches(['"', '\'']).to_string();
        let transforms = named(opts).iter().any(|c| {
            let k = c
                .child_by_field_id(self.f.key)
                .or_else(|| c.child_by_field_id(self.f.name));
            k.is_some_and(|k| self.text(k) == "transformArguments")
        });
        self.register(cmd, opts, &["SCRIPT"], &["NUMBER_OF_KEYS"], transforms);
    }

    fn register(
        &mut self,
        cmd: String,
        opts: Node<'_>,
        body: &[&str],
        count: &[&str],
        transforms: bool,
    ) {
        if opts.kind() != "object" {
            return;
        }
        let mut script = None;
        let mut keys = None;
        for c in named(opts) {
            let (k, v) = match c.kind() {
                "pair" => (
                    c.child_by_field_id(self.f.key),
                    c.child_by_field_id(self.f.value),
                ),
                "shorthand_property_identifier" => (Some(c), Some(c)),
                _ => continue,
            };
            let (Some(k), Some(v)) = (k, v) else { continue };
            let k = self.text(k);
            if body.contains(&k.as_str()) {
                script = Some(self.value(v, 0));
            } else if count.contains(&k.as_str()) {
                if let Value::Int { value, span } = self.value(v, 0) {
                    keys = u32::try_from(value).ok().map(|n| (n, span));
                }
            }
        }
        let (script, keys) = match script {
            Some(Value::ScriptRef { index, .. }) => {
                let def = &mut self.facts.scripts[index];
                def.name = Some(cmd.clone());
                def.local = false;
                def.declared_keys = keys;
                let span = def.name_span;
                (Value::ScriptRef { index, span }, None)
            }
            // A script this file does not hold (an imported constant, a
            // file read): the link follows the value; the call passes the
            // registered key count.
            Some(v) if !matches!(v, Value::Param { .. } | Value::Unknown { .. }) => (v, keys),
            _ => return,
        };
        // The speaker's other files call it as a client method too.
        let keys_at = match (&script, keys) {
            (Value::ScriptRef { index, .. }, None) => self.facts.scripts[*index].declared_keys,
            (_, k) => k,
        };
        self.facts.registered.push(crate::facts::Registration {
            command: cmd.clone(),
            script: script.clone(),
            keys: keys_at,
            transforms,
        });
        self.commands.insert(
            cmd,
            Registered {
                script,
                transforms,
                keys,
            },
        );
    }
}
