//! Lua scripts: literals that look like Lua (parsed in place), files read
//! with `include_str!` (or a `macro_rules!` wrapper around it), the binding
//! each is held in, and registration tables that give a script its name and
//! key count (`("moveToActive", 11, include_str!(..))`).

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::Node;

use crate::extract::embedded::Decoded;
use crate::extract::embedded_lua;
use crate::facts::{ScriptDef, ScriptSource, Span};
use crate::parse::{children, named_children};

use super::paths::path_segments;
use super::strings::parse_int;
use super::{is_comment, peel_ref, Cx};

pub(super) fn looks_lua(t: &str) -> bool {
    crate::extract::parts::looks_lua(t.as_bytes())
}

/// How far up from a script literal its binding is looked for.
const MAX_BINDING_CLIMB: usize = 512;

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// `include_str!("x.lua")` among a token tree's tokens (a real macro
    /// invocation's token tree, or tokens inside another macro).
    pub(super) fn include_in_tokens(&mut self, tt: Node<'_>) {
        let kids = children(tt);
        for w in kids.windows(3) {
            if w[0].kind() == "identifier" && self.text(w[1]) == "!" && w[2].kind() == "token_tree"
            {
                let name = self.text(w[0]);
                if name != "include_str" && !self.script_macros.contains_key(&name) {
                    continue;
                }
                if let Some((key, path, span)) = self.path_in_tokens(w[2], &name) {
                    let index = self.file_script(key, path, span);
                    self.register_tokens(index, tt);
                }
            }
        }
    }

    /// The script path an `include_str!(..)` or a wrapper macro's token tree
    /// names: `"x.lua"`, `concat!("../lua/", "x.lua")`, or a wrapper's
    /// argument inside its own `concat!`. Returns the literal that keys the
    /// script, the path and the span of its text. A path that does not end
    /// in `.lua` (a README, a template) names no script.
    fn path_in_tokens<'t>(&self, tt: Node<'t>, mac: &str) -> Option<(Node<'t>, String, Span)> {
        self.any_path_in_tokens(tt, mac)
            .filter(|(_, path, _)| path.ends_with(".lua"))
    }

    fn any_path_in_tokens<'t>(&self, tt: Node<'t>, mac: &str) -> Option<(Node<'t>, String, Span)> {
        let kids = children(tt);
        let lit = kids
            .iter()
            .find(|c| matches!(c.kind(), "string_literal" | "raw_string_literal"))
            .copied();
        let content = |lit: Node<'_>| {
            let t = self.literal_template(lit);
            let span = t.segs.first().map(|s| s.span()).unwrap_or(t.span);
            (t.as_literal().unwrap_or_default(), span)
        };
        if mac != "include_str" {
            let (before, after) = self.script_macros.get(mac)?.clone();
            let lit = lit?;
            let (text, span) = content(lit);
            return Some((lit, format!("{before}{text}{after}"), span));
        }
        if let Some(lit) = lit {
            let (text, span) = content(lit);
            return Some((lit, text, span));
        }
        // `include_str!(concat!("../lua/", "x.lua"))`
        let at = kids.windows(3).position(|w| {
            self.text(w[0]) == "concat" && self.text(w[1]) == "!" && w[2].kind() == "token_tree"
        })?;
        let lits: Vec<Node<'t>> = children(kids[at + 2])
            .into_iter()
            .filter(|c| matches!(c.kind(), "string_literal" | "raw_string_literal"))
            .collect();
        let (first, last) = (*lits.first()?, *lits.last()?);
        let path: String = lits.iter().map(|l| content(*l).0).collect();
        let span = content(first).1.join(content(last).1);
        Some((first, path, span))
    }

    /// The binding a script literal is held in: `const`, `static`, `let`,
    /// or `static ref NAME` inside `lazy_static!`; and whether it is a local
    /// (`let`).
    pub(super) fn binding_name(&self, n: Node<'_>) -> Option<(String, Span, bool)> {
        for p in self.ancestors(n, MAX_BINDING_CLIMB) {
            match p.kind() {
                "const_item" | "static_item" => {
                    let name = p.child_by_field_id(F.name)?;
                    return Some((self.text(name), self.span(name), false));
                }
                "let_declaration" => {
                    let pat = p.child_by_field_id(F.pattern)?;
                    let name = self.pattern_name(pat)?;
                    let span = if pat.kind() == "identifier" {
                        self.span(pat)
                    } else {
                        named_children(pat)
                            .into_iter()
                            .find(|c| c.kind() == "identifier")
                            .map(|c| self.span(c))
                            .unwrap_or_else(|| self.span(pat))
                    };
                    return Some((name, span, true));
                }
                "token_tree" if p.parent().is_some_and(|m| m.kind() == "macro_invocation") => {
                    if let Some((name, span)) = self.static_ref_name(p, n.start_byte()) {
                        return Some((name, span, false));
                    }
                }
                "function_item" | "source_file" | "mod_item" | "impl_item" | "declaration_list" => {
                    return None
                }
                _ => {}
            }
        }
        None
    }

    /// The last `static ref NAME` / `static NAME` before `before` in a token tree.
    fn static_ref_name(&self, tt: Node<'_>, before: usize) -> Option<(String, Span)> {
        let mut found = None;
        let mut prev = String::new();
        for c in children(tt) {
            if c.start_byte() >= before {
                break;
            }
            let t = self.text(c);
            if c.kind() == "identifier"
                && (prev == "ref" || prev == "static")
                && t != "ref"
                && t != "mut"
            {
                found = Some((t.clone(), self.span(c)));
            }
            prev = t;
        }
        found
    }

    /// Records a Lua literal as a script (once); returns its index.
    pub(super) fn inline_script(&mut self, n: Node<'_>) -> Option<usize> {
        if let Some(i) = self.scripts_at.get(&n.start_byte()) {
            return Some(*i);
        }
        if !looks_lua(&self.text(n)) {
            return None;
        }
        // The text Rust compiles the literal to (escapes and `\`-newline
        // continuations decoded), each character mapped to its host bytes.
        let (units, _) = self.literal_units(n);
        let mut decoded = Decoded::default();
        for u in &units {
            let raw = u.e - u.s == u.ch.len_utf8()
                && self
                    .src
                    .get(u.s..u.e)
                    .is_some_and(|b| b.starts_with(u.ch.encode_utf8(&mut [0; 4]).as_bytes()));
            if raw {
                decoded.raw(self.src, u.s, u.e);
            } else {
                decoded.escape(u.ch.encode_utf8(&mut [0; 4]).as_bytes(), u.s, u.e);
            }
        }
        let lua = embedded_lua(self.parsers, &decoded, self.file)?;
        let (name, name_span, local) = match self.binding_name(n) {
            Some((name, span, local)) => (Some(name), span, local),
            None => (None, self.span(n), false),
        };
        let index = self.facts.scripts.len();
        let text = self.literal_template(n).as_literal();
        self.facts.scripts.push(ScriptDef {
            name,
            name_span,
            source: ScriptSource::Inline(std::sync::Arc::new(lua)),
            text: text.map(Into::into),
            declared_keys: None,
            local,
        });
        self.scripts_at.insert(n.start_byte(), index);
        self.register(index, n);
        Some(index)
    }

    /// Records a script read from a file (`include_str!`), keyed by the
    /// literal naming it.
    fn file_script(&mut self, key: Node<'_>, path: String, span: Span) -> usize {
        if let Some(i) = self.scripts_at.get(&key.start_byte()) {
            return *i;
        }
        let (name, name_span, local) = match self.binding_name(key) {
            Some((name, span, local)) => (Some(name), span, local),
            None => (None, span, false),
        };
        let index = self.facts.scripts.len();
        self.facts.scripts.push(ScriptDef {
            name,
            name_span,
            source: ScriptSource::File {
                path,
                relative_to_file: true,
                span,
            },
            text: None,
            declared_keys: None,
            local,
        });
        self.scripts_at.insert(key.start_byte(), index);
        index
    }

    /// A script registered next to its name and key count:
    /// `("moveToActive", 11, include_str!(..))`,
    /// `LuaScript { name: "x", num_keys: 2, body: include_str!(..) }`.
    pub(super) fn register(&mut self, index: usize, expr: Node<'_>) {
        let mut cur = expr;
        for _ in 0..8 {
            let Some(p) = cur.parent() else {
                return;
            };
            match p.kind() {
                "reference_expression" | "parenthesized_expression" => cur = p,
                "arguments" => {
                    let Some(call) = p.parent() else {
                        return;
                    };
                    let f = call
                        .child_by_field_id(F.function)
                        .map(|f| self.text(f))
                        .unwrap_or_default();
                    let segs = path_segments(&f);
                    let is_script = segs.len() >= 2
                        && segs[segs.len() - 2] == "Script"
                        && matches!(segs[segs.len() - 1].as_str(), "new" | "from_lua");
                    if is_script {
                        cur = call;
                    } else {
                        return self.register_siblings(index, p, cur);
                    }
                }
                "tuple_expression" | "array_expression" => {
                    return self.register_siblings(index, p, cur)
                }
                "field_initializer" => {
                    if let Some(list) = p.parent() {
                        self.register_fields(index, list);
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    fn set_registration(
        &mut self,
        index: usize,
        name: Option<(String, Span)>,
        keys: Option<Node<'_>>,
    ) {
        let count = keys.and_then(|k| {
            let n = parse_int(&self.text(k))?;
            Some((u32::try_from(n).ok()?, self.span(k)))
        });
        let Some(def) = self.facts.scripts.get_mut(index) else {
            return;
        };
        if let Some(c) = count {
            def.declared_keys = Some(c);
        }
        if let Some((name, span)) = name {
            def.name = Some(name);
            def.name_span = span;
        }
    }

    fn lit_name(&self, lit: Node<'_>) -> Option<(String, Span)> {
        let t = self.literal_template(lit);
        let text = t.as_literal()?;
        if text.is_empty() || text.chars().any(|c| c.is_whitespace()) {
            return None;
        }
        Some((text, t.segs.first().map(|s| s.span()).unwrap_or(t.span)))
    }

    fn register_siblings(&mut self, index: usize, list: Node<'_>, skip: Node<'_>) {
        let mut names = Vec::new();
        let mut counts = Vec::new();
        for c in named_children(list) {
            if c == skip || is_comment(c) {
                continue;
            }
            match c.kind() {
                "string_literal" | "raw_string_literal" => names.push(c),
                "integer_literal" => counts.push(c),
                _ => {}
            }
        }
        let name = match names.as_slice() {
            [one] => self.lit_name(*one),
            _ => None,
        };
        let count = match counts.as_slice() {
            [one] => Some(*one),
            _ => None,
        };
        self.set_registration(index, name, count);
    }

    fn register_fields(&mut self, index: usize, list: Node<'_>) {
        let mut name = None;
        let mut counts = Vec::new();
        for f in named_children(list) {
            if f.kind() != "field_initializer" {
                continue;
            }
            let (Some(field), Some(value)) =
                (f.child_by_field_id(F.field), f.child_by_field_id(F.value))
            else {
                continue;
            };
            let field = self.text(field).to_ascii_lowercase();
            match value.kind() {
                "integer_literal" if field.contains("key") => counts.push(value),
                "string_literal" | "raw_string_literal" if field.ends_with("name") => {
                    name = self.lit_name(value)
                }
                _ => {}
            }
        }
        let count = match counts.as_slice() {
            [one] => Some(*one),
            _ => None,
        };
        self.set_registration(index, name, count);
    }

    /// The same, inside a macro's tokens (`lazy_static!`, `vec!` that did
    /// not parse): `( "x" , 2 , include_str ! (..) )` or
    /// `{ name : "x" , num_keys : 2 , .. }`.
    fn register_tokens(&mut self, index: usize, tt: Node<'_>) {
        let kids = children(tt);
        let mut names = Vec::new();
        let mut named = None;
        let mut counts = Vec::new();
        let mut keyed = Vec::new();
        for (i, c) in kids.iter().enumerate() {
            let label = (i >= 2 && self.text(kids[i - 1]) == ":")
                .then(|| self.text(kids[i - 2]).to_ascii_lowercase());
            match (c.kind(), label) {
                ("integer_literal", None) => counts.push(*c),
                ("integer_literal", Some(l)) if l.contains("key") => keyed.push(*c),
                ("string_literal" | "raw_string_literal", None) => names.push(*c),
                ("string_literal" | "raw_string_literal", Some(l)) if l.ends_with("name") => {
                    named = Some(*c)
                }
                _ => {}
            }
        }
        let name = match (named, names.as_slice()) {
            (Some(n), _) => self.lit_name(n),
            (None, [one]) => self.lit_name(*one),
            _ => None,
        };
        let count = match (keyed.as_slice(), counts.as_slice()) {
            ([one], _) => Some(*one),
            ([], [one]) => Some(*one),
            _ => None,
        };
        self.set_registration(index, name, count);
    }

    /// The script an expression holds, when it is a literal or
    /// `include_str!` (through `&`).
    pub(super) fn script_of(&mut self, n: Node<'_>) -> Option<usize> {
        let n = peel_ref(n);
        match n.kind() {
            "string_literal" | "raw_string_literal" => self.inline_script(n),
            "macro_invocation" => {
                if self.lua_macro(n) {
                    return self.macro_script(n);
                }
                let mac = self.macro_name(n);
                if mac != "include_str" && !self.script_macros.contains_key(&mac) {
                    return None;
                }
                let tt = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "token_tree")?;
                let (key, path, span) = self.path_in_tokens(tt, &mac)?;
                let index = self.file_script(key, path, span);
                self.register(index, n);
                Some(index)
            }
            // A local bound to a script earlier in this function.
            "identifier" => {
                let name = self.text(n);
                let from = self
                    .cur_func
                    .map(|f| self.facts.functions[f].name_span.start)?;
                self.facts.scripts.iter().rposition(|s| {
                    s.local
                        && s.name.as_deref() == Some(name.as_str())
                        && s.name_span.start >= from
                        && (s.name_span.end as usize) <= n.start_byte()
                })
            }
            _ => None,
        }
    }
}
