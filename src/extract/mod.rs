//! Extractors: the only code that knows a programming language.
//!
//! Each extractor takes one parsed file and returns [`FileFacts`] in the
//! language-neutral model of `crate::facts`. Lua embedded in Elixir or Rust
//! strings is parsed from the string's decoded text (see [`embedded_lua`]) and read by the same
//! Lua extractor as `.lua` files. What the rest of wirelint asks of a
//! language (fact needles, comment syntax, where Lua sits, the extractor
//! to run) it asks `lang.host()` ([`lang::Host`]).
//!
//! How a language states its values, so that the link follows them with
//! no code of its own (`crate::link::flow`):
//!
//! - a constant, static, lazily set cell or module attribute is a
//!   `ConstDef` holding its value; a function or clause a `FunctionDef`
//!   (its `returns`, its parameters as `Value::Param`, a method's receiver
//!   and its fields as `RECEIVER`, its type the last segment of `module`;
//!   clauses chosen by literal arguments carry `patterns`, tried in order
//!   when `ordered`; defaults in `default_values`);
//! - a record is a `Value::Map` from field names, a field read an
//!   `Op::Field` of its base, and a field a type's constructors set a
//!   `ConstDef` named `.f` in the type's module; a construction `new
//!   T(..)` a call fact `[T, NEW]`;
//! - a method called on a value whose declared type is known is a call
//!   qualified by the type that defines it (`[T, m]`), an unknown type
//!   leaving the bare name; a function as a value is an `Op::Closure` (its
//!   own parameters `CLOSURE_PARAM + i`), a call of a value an
//!   `Op::Apply`, `apply(mod, fun, args)` an `Op::Dispatch`;
//! - a lookup by key is an `Op::Lookup`; a value a library serializes for a
//!   script is `facts::encoded(format, x)`, from an `ENCODERS` table; a
//!   script's SHA1 an `Op::Sha1`; the reply of a whole-hash read a
//!   `facts::hash_reply`, and a field taken from it a `FieldRead`;
//! - a module's import of another is an `Import`, a function that is
//!   another under another name (`defdelegate`) an `FnAlias`, and a command
//!   whose name a function of another file gives carries that call in
//!   `Command::name_of`.

pub(crate) mod clients;
pub mod elixir;
pub mod embedded;
pub mod encode;
pub(crate) mod fields;
pub(crate) mod formats;
pub mod go;
pub mod js;
pub mod kinds;
pub mod lang;
pub(crate) mod library;
pub(crate) mod literals;
pub(crate) mod locals;
pub mod lua;
pub mod needles;
pub mod parts;
pub mod python;
pub mod ruby;
pub mod rust;
pub(crate) mod sends;
pub(crate) mod source;
#[cfg(test)]
mod test_support;

use crate::facts::{FileFacts, FileId, Lang, LuaFacts, Seg, Span, Template};
use crate::parse::{error_ranges, Parsers};
use embedded::Decoded;

/// Extracts the facts of one file. `stem` is the file name without its
/// extension (a `.lua` file's script name).
pub fn extract_file(
    parsers: &mut Parsers,
    lang: Lang,
    file: FileId,
    src: &[u8],
    stem: &str,
) -> FileFacts {
    extract_file_from(parsers, lang, file, src, stem, None, false).0
}

/// [`extract_file`] of a text that was `old` a moment ago (an editor's
/// buffer, parsed incrementally: [`Parsers::parse_bounded_from`]); with
/// `keep_tree`, also returns the text and its tree, for the next version,
/// when the whole text was parsed (else no copy of the text is made).
pub fn extract_file_from(
    parsers: &mut Parsers,
    lang: Lang,
    file: FileId,
    src: &[u8],
    stem: &str,
    old: Option<&crate::parse::OldTree>,
    keep_tree: bool,
) -> (FileFacts, Option<crate::parse::OldTree>) {
    let readable = readable(lang, src);
    let src = &*readable;
    let parsed = parsers.parse_bounded_from(lang, src, old);
    let unchecked =
        (parsed.checked < src.len()).then(|| Span::new(file, parsed.checked, src.len()));
    let Some(tree) = parsed.tree else {
        let facts = FileFacts {
            unchecked,
            ..FileFacts::default()
        };
        return (facts, None);
    };
    let facts = facts_of(parsers, lang, file, src, stem, &tree, unchecked);
    let whole = keep_tree && unchecked.is_none() && !facts.was_cut();
    let kept = whole.then(|| crate::parse::OldTree {
        lang,
        text: src.to_vec(),
        tree,
    });
    (facts, kept)
}

/// The facts of a parsed file.
fn facts_of(
    parsers: &mut Parsers,
    lang: Lang,
    file: FileId,
    src: &[u8],
    stem: &str,
    tree: &tree_sitter::Tree,
    unchecked: Option<Span>,
) -> FileFacts {
    let root = tree.root_node();
    let mut facts = lang.host().extract(root, src, file, parsers, stem);
    if facts.errors.is_empty() {
        for (s, e) in error_ranges(root, 16) {
            facts.errors.push(Span::new(file, s, e));
        }
    }
    // The parse's cut first; else a region the extractor could not check
    // (Rust macro arguments past their reparse budget).
    facts.unchecked = unchecked.or(facts.unchecked);
    if memchr::memmem::find(src, crate::facts::SUPPRESSION_MARK).is_some() {
        let kinds = lang.host().comment_kinds();
        crate::parse::walk(root, |n| {
            if kinds.contains(&n.kind()) {
                facts
                    .comments
                    .push(Span::new(file, n.start_byte(), n.end_byte()));
                return false;
            }
            true
        });
    }
    facts
}

/// What `name` is inside a function: its receiver (`self`, a Go method's
/// receiver) as [`crate::facts::RECEIVER`], or its `index`th parameter;
/// `None` when it is neither.
pub(crate) fn param_value(
    receiver: Option<&str>,
    params: &[String],
    name: &str,
    span: Span,
) -> Option<crate::facts::Value> {
    use crate::facts::Value;
    if receiver == Some(name) {
        return Some(Value::Param {
            index: crate::facts::RECEIVER,
            name: "self".into(),
            span,
        });
    }
    let index = params.iter().position(|p| p == name)?;
    Some(Value::Param {
        index,
        name: name.to_string(),
        span,
    })
}

/// The text a file of `lang` is parsed from: lone `\r`s as line ends
/// ([`normalize_lone_cr`]) and what its preprocessor rewrites
/// ([`lang::Host::preprocess`]), with the same length, so every
/// byte offset stays valid.
pub fn readable(lang: Lang, src: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let normalized = normalize_lone_cr(src);
    let text = normalized.as_deref().unwrap_or(src);
    match (lang.host().preprocess(text), normalized) {
        (Some(rendered), _) => rendered.into(),
        (None, Some(normalized)) => normalized.into(),
        (None, None) => src.into(),
    }
}

/// The grammars end lines (and so `//` and `#` comments) only at `\n`; a
/// file with classic-Mac line ends (a lone `\r`) would parse as one long
/// line. Such a file is parsed from a copy with each lone `\r` turned into
/// `\n`: the same length, so every byte offset stays valid, and reporters
/// still count lines in the original bytes. `None` when there is no lone
/// `\r`.
pub fn normalize_lone_cr(src: &[u8]) -> Option<Vec<u8>> {
    let lone = |i: usize| src.get(i + 1) != Some(&b'\n');
    memchr::memchr_iter(b'\r', src).find(|&i| lone(i))?;
    let mut out = src.to_vec();
    for i in memchr::memchr_iter(b'\r', src).filter(|&i| lone(i)) {
        out[i] = b'\n';
    }
    Some(out)
}

/// Parses Lua embedded in a host string from its decoded text
/// ([`embedded::Decoded`]) and extracts its facts, in host coordinates.
/// `None` when there is no text.
pub fn embedded_lua(parsers: &mut Parsers, decoded: &Decoded, file: FileId) -> Option<LuaFacts> {
    if decoded.is_empty() {
        return None;
    }
    let parsed = parsers.parse_bounded(Lang::Lua, &decoded.text);
    let unchecked = (parsed.checked < decoded.text.len())
        .then(|| decoded.span(file, parsed.checked, decoded.text.len()));
    let mut facts = match parsed.tree {
        Some(tree) => lua::extract_embedded(tree.root_node(), decoded, file),
        None => LuaFacts {
            span: decoded.span(file, 0, decoded.text.len()),
            ..LuaFacts::default()
        },
    };
    facts.unchecked = unchecked;
    Some(facts)
}

/// The `.lua` file a path the code reads names: the literal end of the
/// path after the last part computed at run time (a leading `/` left off),
/// and whether it is relative to the reading file's directory (something,
/// its directory, comes before it); `None` unless it names a `.lua` file.
pub(crate) fn lua_file_of(path: &crate::facts::Value) -> Option<(String, bool)> {
    let crate::facts::Value::Str(t) = path else {
        return None;
    };
    let last_hole = t.segs.iter().rposition(|s| !matches!(s, Seg::Lit { .. }));
    let tail: String = t.segs[last_hole.map_or(0, |i| i + 1)..]
        .iter()
        .filter_map(|s| match s {
            Seg::Lit { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let rel = tail.trim_start_matches('/');
    let name = rel.rsplit('/').next()?;
    // After a part computed at run time, the literal end names a file only
    // from a `/` on: `#{name}.erb.lua` ends a name the code computes.
    let whole_name = last_hole.is_none() || tail.contains('/');
    let fits = whole_name
        && name.ends_with(".lua")
        && name.len() > 4
        && !(rel.starts_with("..") && last_hole.is_none());
    fits.then(|| (rel.to_string(), last_hole.is_some()))
}

/// A `.lua` file the code reads: its path (`rel`), whether that is
/// relative to the reading file, and the span of the path's value.
pub(crate) struct LuaFile {
    pub rel: String,
    pub relative_to_file: bool,
    pub span: Span,
}

impl LuaFile {
    /// The `.lua` file a path names, as [`lua_file_of`] reads it.
    pub(crate) fn of(path: &crate::facts::Value) -> Option<LuaFile> {
        let (rel, relative_to_file) = lua_file_of(path)?;
        Some(LuaFile {
            rel,
            relative_to_file,
            span: path.span(),
        })
    }
}

/// The script a `.lua` file read at `at` is: the one already made for that
/// read (`scripts_at`, by the read's first byte), else a new `ScriptDef` in
/// `facts` named by the binding being read, or by the file's stem.
pub(crate) fn file_script(
    facts: &mut crate::facts::FileFacts,
    scripts_at: &mut std::collections::HashMap<usize, usize>,
    binding: Option<&(String, Span, bool)>,
    file: LuaFile,
    at: Span,
) -> crate::facts::Value {
    use crate::facts::{ScriptDef, ScriptSource, Value};
    if let Some(i) = scripts_at.get(&(at.start as usize)) {
        return Value::ScriptRef {
            index: *i,
            span: at,
        };
    }
    let LuaFile {
        rel,
        relative_to_file,
        span,
    } = file;
    let stem = rel
        .rsplit('/')
        .next()
        .unwrap_or(&rel)
        .trim_end_matches(".lua");
    let (name, name_span, local) = match binding.cloned() {
        Some(b) => b,
        None => (script_name_from_stem(stem), span, false),
    };
    let index = facts.scripts.len();
    facts.scripts.push(ScriptDef {
        name: Some(name),
        name_span,
        source: ScriptSource::File {
            path: rel,
            relative_to_file,
            span,
        },
        text: None,
        declared_keys: None,
        local,
    });
    scripts_at.insert(at.start as usize, index);
    Value::ScriptRef { index, span: at }
}

/// `moveToActive-11` → `moveToActive`: the script name without a trailing
/// key-count suffix.
pub fn script_name_from_stem(stem: &str) -> String {
    match stem.rsplit_once('-') {
        Some((base, n))
            if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            base.to_string()
        }
        _ => stem.to_string(),
    }
}

/// Appends a literal piece to a template's segments (skipping empty ones).
pub fn push_lit(segs: &mut Vec<Seg>, text: &str, span: Span) {
    if text.is_empty() {
        return;
    }
    segs.push(Seg::Lit {
        text: text.to_string(),
        span,
    });
}

/// A maximal string-building expression's value, kept in `facts` as a
/// template when it may be a key ([`is_key_candidate`]).
pub(crate) fn push_template(facts: &mut FileFacts, v: crate::facts::Value) {
    if let crate::facts::Value::Str(t) = v {
        let t = t.normalized();
        if is_key_candidate(&t) {
            facts.templates.push(t);
        }
    }
}

/// A definition of `name` in `module`, named at `name_span`: a `ConstDef`
/// in `facts`, unless nothing is known of its value.
pub(crate) fn define(
    facts: &mut FileFacts,
    module: String,
    name: &str,
    value: crate::facts::Value,
    name_span: Span,
) {
    if matches!(value, crate::facts::Value::Unknown { .. }) {
        return;
    }
    facts.consts.push(crate::facts::ConstDef {
        module,
        name: name.to_string(),
        value,
        name_span,
    });
}

/// Whether a string-building expression may be a key and is worth keeping as
/// a template fact: no white space in its literal bytes, and a `:` in one of
/// them. Log lines and messages fail the first test; plain words the second.
pub fn is_key_candidate(t: &Template) -> bool {
    let mut has_colon = false;
    let mut lit_len = 0usize;
    for s in &t.segs {
        if let Seg::Lit { text, .. } = s {
            if text.chars().any(|c| c.is_whitespace()) {
                return false;
            }
            has_colon |= text.contains(':');
            lit_len += text.len();
        }
    }
    has_colon && lit_len >= 2
}

/// Each field read of `f`, with the parameter its row is when it is one
/// (the extractors' cases of reads handed across functions).
#[cfg(test)]
pub(crate) fn reads_by_param(f: &crate::facts::FileFacts) -> Vec<(String, Option<usize>)> {
    f.field_reads
        .iter()
        .map(|r| {
            let index = match &r.row {
                Some(crate::facts::Value::Param { index, .. }) => Some(*index),
                _ => None,
            };
            (r.field.as_str().unwrap_or_default(), index)
        })
        .collect()
}

/// Asserts that the text between `begin` and `end` in `doc` (a path from
/// the crate's root) is `want`, printing what it should read when not: the
/// docs' generated sections. With `WIRELINT_BLESS=1` in the environment,
/// writes `want` there instead.
#[cfg(test)]
pub(crate) fn assert_generated(doc: &str, begin: &str, end: &str, want: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).expect(doc);
    if std::env::var_os("WIRELINT_BLESS").is_some() {
        if let Some((head, rest)) = text.split_once(begin) {
            if let Some((_, tail)) = rest.split_once(end) {
                let blessed = format!("{head}{begin}{want}{end}{tail}");
                std::fs::write(&path, blessed).expect(doc);
                return;
            }
        }
    }
    let got = text
        .split_once(begin)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(table, _)| table);
    assert!(
        got == Some(want),
        "{doc} is out of date: between its markers it should read\n\n{begin}{want}{end}\n"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_cr_becomes_lf_and_crlf_stays() {
        assert_eq!(normalize_lone_cr(b"a\r\nb\n"), None);
        assert_eq!(
            normalize_lone_cr(b"a\r\nb\rc\r").as_deref(),
            Some(&b"a\r\nb\nc\n"[..])
        );
    }

    #[test]
    fn stems_lose_their_key_count() {
        assert_eq!(script_name_from_stem("moveToActive-11"), "moveToActive");
        assert_eq!(script_name_from_stem("enqueue"), "enqueue");
        assert_eq!(script_name_from_stem("retry-job"), "retry-job");
        assert_eq!(script_name_from_stem("-3"), "-3");
    }

    /// A path of literal parts and holes, `None` a hole.
    fn path(parts: &[Option<&str>]) -> crate::facts::Value {
        let span = crate::facts::Span::default();
        let segs = parts
            .iter()
            .map(|p| match p {
                Some(t) => Seg::Lit {
                    text: t.to_string(),
                    span,
                },
                None => Seg::Hole {
                    label: "dir".into(),
                    span,
                },
            })
            .collect();
        crate::facts::Value::Str(crate::facts::Template { segs, span })
    }

    #[test]
    fn a_lua_file_is_named_from_a_slash_after_the_last_hole() {
        let of = |p: &[Option<&str>]| lua_file_of(&path(p));
        assert_eq!(of(&[Some("lua/a.lua")]), Some(("lua/a.lua".into(), false)));
        assert_eq!(
            of(&[None, Some("/scripts/a.lua")]),
            Some(("scripts/a.lua".into(), true))
        );
        // The end of a name the code computes names no file.
        assert_eq!(of(&[None, Some("/scripts/"), None, Some(".erb.lua")]), None);
        assert_eq!(of(&[None, Some(".lua")]), None);
        assert_eq!(of(&[Some("README.md")]), None);
    }
}
