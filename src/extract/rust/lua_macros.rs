//! Scripts written as a macro's tokens (`client::LUA_MACROS`): the redis-lua
//! crate's `lua! { return redis.call("GET", @key) }`. The tokens between
//! the macro's delimiters are the script, its sigils (`@x`, `$x`: the
//! values sent as arguments) read as blanks, so that every other byte of
//! the script keeps its place in the host file. A `$x` is set by a method
//! of the script value named for it (`script.x(15).invoke(con)`), which
//! gives the script again.

use tree_sitter::Node;

use crate::extract::embedded::Decoded;
use crate::extract::embedded_lua;
use crate::facts::{ScriptDef, ScriptSource, Value};
use crate::parse::named_children;

use super::client::LUA_MACROS;
use super::paths::path_segments;
use super::Cx;
use crate::extract::fields::RUST as F;
use crate::extract::source::Source;

impl Cx<'_, '_, '_> {
    /// Whether a macro invocation's tokens are a Lua script: its path, as
    /// written or imported, is a row of [`LUA_MACROS`].
    pub(super) fn lua_macro(&self, n: Node<'_>) -> bool {
        let Some(m) = n.child_by_field_id(F.macro_) else {
            return false;
        };
        let path = self.resolve_path(path_segments(&self.text(m)));
        matches!(path.as_slice(), [krate, name]
            if LUA_MACROS.iter().any(|(k, m)| k == krate && m == name))
    }

    /// The script a Lua macro's tokens hold: an index into the file's
    /// scripts, bound to the name it is assigned to.
    pub(super) fn macro_script(&mut self, n: Node<'_>) -> Option<usize> {
        if let Some(i) = self.scripts_at.get(&n.start_byte()) {
            return Some(*i);
        }
        let tt = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "token_tree")?;
        let (s, e) = (tt.start_byte() + 1, tt.end_byte().saturating_sub(1));
        if e <= s || e > self.src.len() {
            return None;
        }
        let mut decoded = Decoded::default();
        let mut from = s;
        let sigils = self.sigils(tt);
        for &at in &sigils {
            decoded.raw(self.src, from, at);
            decoded.escape(b" ", at, at + 1);
            from = at + 1;
        }
        decoded.raw(self.src, from, e);
        let lua = embedded_lua(self.parsers, &decoded, self.file)?;
        let (name, name_span, local) = match self.binding_name(n) {
            Some((name, span, local)) => (Some(name), span, local),
            None => (None, self.span(n), false),
        };
        let index = self.facts.scripts.len();
        self.facts.scripts.push(ScriptDef {
            name,
            name_span,
            source: ScriptSource::Inline(std::sync::Arc::new(lua)),
            text: None,
            declared_keys: None,
            local,
        });
        self.scripts_at.insert(n.start_byte(), index);
        for &at in &sigils {
            if self.src.get(at) == Some(&b'$') {
                let name = ident_at(self.src, at + 1);
                if !name.is_empty() && !self.setters.iter().any(|(i, s)| *i == index && *s == name)
                {
                    self.setters.push((index, name));
                }
            }
        }
        self.register(index, n);
        Some(index)
    }

    /// Where the sigils of a token tree are: an `@` or a `$` token right
    /// before a name, at any depth (never inside a string literal, which
    /// is one token).
    fn sigils(&self, tt: Node<'_>) -> Vec<usize> {
        let mut out = Vec::new();
        let mut steps = 0usize;
        crate::parse::walk(tt, |x| {
            steps += 1;
            if steps > 100_000 {
                return false;
            }
            if matches!(x.kind(), "@" | "$") {
                let next = x.next_sibling();
                if next.is_some_and(|n| n.kind() == "identifier" && n.start_byte() == x.end_byte())
                {
                    out.push(x.start_byte());
                }
            }
            x.kind() == "token_tree"
        });
        out
    }

    /// `script.x(v)` on a Lua macro's script with a `$x`: the script, one
    /// of its variables set. `None` where the method sets no variable of
    /// the script its receiver holds.
    pub(super) fn setter(&mut self, recv: Node<'_>, method: &str, d: usize) -> Option<Value> {
        if !self.setters.iter().any(|(_, s)| s == method) {
            return None;
        }
        match self.value(recv, d) {
            v @ Value::ScriptRef { index, .. }
                if self.setters.iter().any(|(i, s)| *i == index && s == method) =>
            {
                Some(v)
            }
            _ => None,
        }
    }
}

/// The identifier that starts at `at` (ASCII letters, digits, `_`).
fn ident_at(src: &[u8], at: usize) -> String {
    let rest = src.get(at..).unwrap_or_default();
    let len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    String::from_utf8_lossy(&rest[..len]).into_owned()
}
