//! Lua scripts: Lua in host strings parsed in place, and script files read
//! at compile time (`File.read!` of a path expression).

use crate::extract::fields::ELIXIR as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use super::strings::decode_escape;
use super::{arguments, is_string_node, Cx};
use crate::extract::embedded::Decoded;
use crate::extract::embedded_lua;
use crate::facts::{LuaFacts, ScriptDef, ScriptSource, Span, Value};
use crate::parse::named_children;

/// A script's source and the text Elixir sends (for Lua in a string).
type Script = (ScriptSource, Option<String>);

impl<'s, 't, 'p> Cx<'s, 't, 'p> {
    /// Records a script definition; returns its index in
    /// `FileFacts::scripts`.
    pub(super) fn push_script(
        &mut self,
        name: Option<String>,
        name_span: Span,
        (source, text): Script,
    ) -> usize {
        self.facts.scripts.push(ScriptDef {
            name,
            name_span,
            source,
            text: text.map(Into::into),
            declared_keys: None,
            local: false,
        });
        self.facts.scripts.len() - 1
    }

    /// The script an expression holds: Lua in a string, or a file read at
    /// compile time.
    pub(super) fn script_in(&mut self, n: Node<'_>, env: Option<usize>) -> Option<Script> {
        if let Some(inline) = self.inline_script(n, env) {
            return Some(inline);
        }
        let (path, relative_to_file, span) = self.file_read(n, env)?;
        // A file that is not Lua (a template, a Python helper) is no script.
        if !path.ends_with(".lua") {
            return None;
        }
        let source = ScriptSource::File {
            path,
            relative_to_file,
            span,
        };
        Some((source, None))
    }

    /// Lua for Redis in a string: parsed in place, with the text Elixir
    /// sends.
    pub(super) fn inline_script(&mut self, n: Node<'_>, env: Option<usize>) -> Option<Script> {
        if !is_string_node(n) || !self.looks_like_lua(n) {
            return None;
        }
        let lua = self.inline_lua(n);
        let text = self.value(n, env, 0).as_str();
        Some((ScriptSource::Inline(std::sync::Arc::new(lua)), text))
    }

    /// Whether a string node's text is Lua for Redis.
    fn looks_like_lua(&self, n: Node<'_>) -> bool {
        crate::extract::parts::looks_lua(self.text(n).as_bytes())
    }

    /// Parses the Lua inside a host string from the text Elixir sends:
    /// escapes decoded (kept in a `~S` sigil), interpolations as holes.
    fn inline_lua(&mut self, n: Node<'_>) -> LuaFacts {
        let raw = n.kind() == "sigil" && self.sigil_name(n) == "S";
        let mut decoded = Decoded::default();
        for k in named_children(n) {
            let (s, e) = (k.start_byte(), k.end_byte());
            match k.kind() {
                "quoted_content" => decoded.raw(self.src, s, e),
                "escape_sequence" if raw => decoded.raw(self.src, s, e),
                "escape_sequence" => decoded.escape(decode_escape(&self.text(k)).as_bytes(), s, e),
                "interpolation" => decoded.hole(self.text(k), s, e),
                _ => {}
            }
        }
        embedded_lua(self.parsers, &decoded, self.file).unwrap_or_else(|| LuaFacts {
            span: Span::new(self.file, n.start_byte(), n.end_byte()),
            ..LuaFacts::default()
        })
    }

    /// `File.read!("priv/x.lua")` or `"priv/x.lua" |> File.read!()`: the
    /// path, whether it is relative to this file (`__DIR__`) rather than to
    /// the project root, and its span. The path may be a string attribute,
    /// `Path.join(__DIR__, "x.lua")`, `Path.expand("x.lua", __DIR__)`,
    /// `Path.join(:code.priv_dir(:app), "x.lua")` or
    /// `Application.app_dir(:app, "priv/x.lua")`.
    fn file_read(&self, n: Node<'_>, env: Option<usize>) -> Option<(String, bool, Span)> {
        let (call, piped) = if n.kind() == "binary_operator" && self.op(n) == "|>" {
            (n.child_by_field_id(F.right)?, n.child_by_field_id(F.left))
        } else {
            (n, None)
        };
        if call.kind() != "call" {
            return None;
        }
        let target = self.text(call.child_by_field_id(F.target)?);
        if target != "File.read!" && target != "File.read" {
            return None;
        }
        let path_node = match piped {
            Some(p) => p,
            None => *named_children(arguments(call)?).first()?,
        };
        self.script_path(path_node, env, 0)
    }

    /// A path expression as (path, relative to this file, span).
    pub(super) fn script_path(
        &self,
        n: Node<'_>,
        env: Option<usize>,
        depth: usize,
    ) -> Option<(String, bool, Span)> {
        if depth > 8 {
            return None;
        }
        let span = self.span(n);
        match n.kind() {
            "identifier" if self.text(n) == "__DIR__" => Some((String::new(), true, span)),
            "unary_operator" => {
                let name = self.attr_ref(n)?;
                let key = (self.module_of(env).to_string(), name);
                if let Some((p, relative)) = self.attr_paths.get(&key) {
                    return Some((p.clone(), *relative, span));
                }
                let s = self.attr_strs.get(&key)?;
                Some((s.clone(), false, span))
            }
            "call" => {
                let target = self.text(n.child_by_field_id(F.target)?);
                let args: Vec<Node<'_>> = arguments(n).map(named_children).unwrap_or_default();
                let parts: Vec<Node<'_>> = match (target.as_str(), args.as_slice()) {
                    (":code.priv_dir", [_]) => return Some(("priv".into(), false, span)),
                    ("Application.app_dir", [_]) => return Some((String::new(), false, span)),
                    ("Application.app_dir", [_, p]) => vec![*p],
                    ("Path.join", [l]) if l.kind() == "list" => named_children(*l),
                    ("Path.join", [_, _]) => args.clone(),
                    ("Path.expand", [rel, base]) => vec![*base, *rel],
                    ("Path.expand", [p]) => vec![*p],
                    _ => return None,
                };
                let mut path = String::new();
                let mut relative = false;
                for (i, p) in parts.into_iter().enumerate() {
                    let (piece, rel, _) = self.script_path(p, env, depth + 1)?;
                    if rel {
                        if i > 0 {
                            return None;
                        }
                        relative = true;
                    }
                    if piece.is_empty() {
                        continue;
                    }
                    if !path.is_empty() && !path.ends_with('/') {
                        path.push('/');
                    }
                    path.push_str(&piece);
                }
                Some((path, relative, span))
            }
            _ => match self.value(n, env, depth) {
                Value::Str(t) => t.as_literal().map(|p| (p, false, t.span)),
                _ => None,
            },
        }
    }
}
