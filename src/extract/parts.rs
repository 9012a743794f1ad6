//! A host string read piece by piece, the same for every host language:
//! pieces of literal text and holes, each with its host byte span, kept
//! twice at once: as a key template's segments ([`Seg`]) and as the
//! decoded text Lua in the string is parsed from ([`Decoded`]). Each
//! extractor decodes its own escapes and hands the pieces here; a text
//! that holds Lua for Redis becomes a script ([`inline_script`]).

use std::collections::HashMap;

use crate::extract::embedded::Decoded;
use crate::extract::embedded_lua;
use crate::facts::{FileId, ScriptDef, ScriptSource, Seg, Span, Template, Value};
use crate::parse::Parsers;

/// A string being read: its decoded text and its template's segments.
pub struct Parts {
    pub decoded: Decoded,
    pub segs: Vec<Seg>,
    /// Whether a literal piece that touches the last one joins it (one
    /// segment for `"a\nb"`), or stays a segment of its own.
    join: bool,
}

impl Default for Parts {
    fn default() -> Parts {
        Parts {
            decoded: Decoded::default(),
            segs: Vec::new(),
            join: true,
        }
    }
}

impl Parts {
    /// Parts whose literal pieces stay segments of their own.
    pub fn apart() -> Parts {
        Parts {
            join: false,
            ..Parts::default()
        }
    }

    /// A literal piece of the template (none when empty).
    pub fn lit(&mut self, text: &str, span: Span) {
        if text.is_empty() {
            return;
        }
        if let Some(Seg::Lit { text: t, span: s }) = self.segs.last_mut() {
            if self.join && s.end == span.start {
                t.push_str(text);
                s.end = span.end;
                return;
            }
        }
        self.segs.push(Seg::Lit {
            text: text.to_string(),
            span,
        });
    }

    /// Host bytes `s..e` of `src`, as they are.
    pub fn raw(&mut self, src: &[u8], file: FileId, s: usize, e: usize) {
        if s >= e {
            return;
        }
        self.decoded.raw(src, s, e);
        let text = String::from_utf8_lossy(&src[s..e]);
        self.lit(&text, Span::new(file, s, e));
    }

    /// The escape at host `s..e`, standing for `bytes`.
    pub fn escape(&mut self, bytes: &[u8], file: FileId, s: usize, e: usize) {
        self.decoded.escape(bytes, s, e);
        self.lit(&String::from_utf8_lossy(bytes), Span::new(file, s, e));
    }

    /// An interpolation at host `s..e` holding `v`: a hole of the text,
    /// the value's pieces in the template ([`segs_of`]).
    pub fn interpolation(&mut self, label: String, s: usize, e: usize, v: Value) {
        self.decoded.hole(label, s, e);
        self.segs.extend(segs_of(v));
    }

    /// The template of the string at `span`, and its decoded text.
    pub fn finish(self, span: Span) -> (Template, Decoded) {
        let t = Template {
            segs: self.segs,
            span,
        };
        (t, self.decoded)
    }
}

/// The template pieces a value stands for inside a string: a string's
/// own, an integer's digits, a name or call to resolve, else a hole.
pub fn segs_of(v: Value) -> Vec<Seg> {
    match v {
        Value::Str(t) => t.segs,
        Value::Int { value, span } => vec![Seg::Lit {
            text: value.to_string(),
            span,
        }],
        v @ (Value::Const { .. }
        | Value::Call { .. }
        | Value::Op { .. }
        | Value::Param { .. }
        | Value::OneOf { .. }) => {
            vec![Seg::Value(Box::new(v))]
        }
        other => vec![Seg::Hole {
            label: other.describe(),
            span: other.span(),
        }],
    }
}

/// Whether a string's decoded text is Lua for Redis (a `.lua` path, or a
/// message naming one, is not).
pub fn looks_lua(t: &[u8]) -> bool {
    let has = |n: &[u8]| memchr::memmem::find(t, n).is_some();
    calls_redis(t) || has(b"KEYS[")
}

/// Whether a text calls Redis (not only reads `KEYS`): `redis.call`,
/// `redis.pcall`, or Valkey's `server.call`, `server.pcall`.
fn calls_redis(t: &[u8]) -> bool {
    let has = |n: &[u8]| memchr::memmem::find(t, n).is_some();
    has(b"redis.call")
        || has(b"redis.pcall")
        || global(t, b"server.call")
        || global(t, b"server.pcall")
}

/// Whether `t` holds `name` as a global's: not the end of a longer name
/// (Erlang's `:gen_server.call`, `my_server.call`).
fn global(t: &[u8], name: &[u8]) -> bool {
    memchr::memmem::find_iter(t, name).any(|at| {
        at == 0
            || !matches!(t[at - 1], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b':' | b'.')
    })
}

/// Where a script in a string sits: the string's first byte (a script is
/// made once per string) and span, and the binding it is assigned to
/// (name, span, whether local), if any; and what the host asks of a text
/// beyond [`looks_lua`] ([`Asks`]).
pub struct ScriptSite {
    pub start: usize,
    pub span: Span,
    pub binding: Option<(String, Span, bool)>,
    pub asks: Asks,
}

/// What a host asks of a string's text, beyond [`looks_lua`], before it
/// holds a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asks {
    /// Nothing more.
    Looks,
    /// Text that does not parse as Lua is a script only where it calls
    /// Redis: text that only quotes `KEYS[n]` (an error message, a
    /// listing) is none.
    Parses,
    /// A format's text before its verbs are filled (`fmt.Sprintf`): a
    /// script only where it parses as it stands, its verbs as names; a verb
    /// where Lua needs a statement is code still to come, and the text as
    /// written is no script (nor a syntax error).
    Template,
}

/// The script in a string whose decoded text is `decoded` and template
/// `t`, parsed in place and added to `scripts` (once per string: `made`
/// maps a string's first byte to its script); its index.
pub fn inline_script(
    parsers: &mut Parsers,
    scripts: &mut Vec<ScriptDef>,
    made: &mut HashMap<usize, usize>,
    site: ScriptSite,
    decoded: &Decoded,
    t: &Template,
) -> Option<usize> {
    if let Some(i) = made.get(&site.start) {
        return Some(*i);
    }
    let lua = embedded_lua(parsers, decoded, site.span.file)?;
    let fails = !lua.errors.is_empty();
    match site.asks {
        Asks::Parses if fails && !calls_redis(&decoded.text) => return None,
        Asks::Template if fails => return None,
        _ => {}
    }
    let (name, name_span, local) = match site.binding {
        Some((name, span, local)) => (Some(name), span, local),
        None => (None, site.span, false),
    };
    let index = scripts.len();
    scripts.push(ScriptDef {
        name,
        name_span,
        source: ScriptSource::Inline(std::sync::Arc::new(lua)),
        text: t.as_literal().map(Into::into),
        declared_keys: None,
        local,
    });
    made.insert(site.start, index);
    Some(index)
}

/// The value of a string whose first byte is `start` and whose `parts`
/// are read: the script it is when its text looks like Lua for Redis
/// ([`inline_script`], named by `binding`, `asks` as the host reads
/// Lua), else its template.
pub fn string_value(
    parsers: &mut Parsers,
    scripts: &mut Vec<ScriptDef>,
    made: &mut HashMap<usize, usize>,
    binding: Option<&(String, Span, bool)>,
    (start, span): (usize, Span),
    parts: Parts,
    asks: Asks,
) -> Value {
    let (template, decoded) = parts.finish(span);
    if looks_lua(&decoded.text) {
        let site = ScriptSite {
            start,
            span,
            binding: binding.cloned(),
            asks,
        };
        if let Some(index) = inline_script(parsers, scripts, made, site, &decoded, &template) {
            return Value::ScriptRef { index, span };
        }
    }
    Value::Str(template)
}

/// A list's items joined into one string with `sep` between them, as a
/// language's library joins a list whose every item the code shows
/// (Python's `":".join([a, b])`, JavaScript's `[a, b].join(":")`): the
/// template of the items with the separator's text between them.
pub fn joined(items: Vec<Value>, sep: &str, sep_span: Span, span: Span) -> Value {
    let mut segs = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 && !sep.is_empty() {
            segs.push(Seg::Lit {
                text: sep.to_string(),
                span: sep_span,
            });
        }
        segs.extend(segs_of(item));
    }
    Value::Str(Template { segs, span })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Valkey's `server.call` is Lua for Redis where `server` is a name
    /// of its own, not the end of a longer one.
    #[test]
    fn server_call_is_lua_only_as_a_global() {
        assert!(looks_lua(b"return server.call('GET', 'k')"));
        assert!(looks_lua(b"x = 1\nserver.pcall('DEL', 'k')"));
        assert!(!looks_lua(
            b"exited in: :gen_server.call(:does_not_exist, :hello)"
        ));
        assert!(!looks_lua(b"my_server.call(1)"));
    }

    #[test]
    fn touching_pieces_join_unless_kept_apart() {
        let src = b"a\\nb";
        let fill = |p: &mut Parts| {
            p.raw(src, 0, 0, 1);
            p.escape(b"\n", 0, 1, 3);
            p.raw(src, 0, 3, 4);
        };
        let mut joined = Parts::default();
        fill(&mut joined);
        let mut apart = Parts::apart();
        fill(&mut apart);
        let (t, d) = joined.finish(Span::new(0, 0, 4));
        assert_eq!(t.segs.len(), 1);
        assert_eq!(t.as_literal().as_deref(), Some("a\nb"));
        assert_eq!(d.text, b"a\nb");
        assert_eq!(apart.finish(Span::new(0, 0, 4)).0.segs.len(), 3);
    }

    #[test]
    fn an_interpolation_is_a_hole_of_the_text() {
        let mut p = Parts::default();
        p.raw(b"k:{x}", 0, 0, 2);
        let v = Value::Int {
            value: 7,
            span: Span::new(0, 2, 5),
        };
        p.interpolation("{x}".into(), 2, 5, v);
        let (t, d) = p.finish(Span::new(0, 0, 5));
        assert_eq!(t.as_literal().as_deref(), Some("k:7"));
        assert_eq!((d.text.as_slice(), d.holes.len()), (&b"k:"[..], 1));
    }
}
