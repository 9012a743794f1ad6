//! A live key's bytes against the contract's keyspace: which key type it
//! is (with its queue and its `<id>`), or how it misses, as a template that
//! groups it with keys like it.
//!
//! Keys are bytes (Redis keys are binary-safe); nothing here allocates on
//! the path of a key that matches, which is nearly every key of a healthy
//! keyspace.

use crate::checks::keyshape::{self, KeyVerdict};
use crate::contract::{Keyspace, PatTok};
use crate::facts::{Span, Template};

/// A key of a contract key type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known<'k> {
    /// Index into `Keyspace::types`.
    pub ty: usize,
    pub queue: &'k [u8],
    /// The bytes of the type pattern's placeholder when it has exactly one
    /// (`42` in `job:42`).
    pub id: Option<&'k [u8]>,
}

/// How a key of (nearly) our namespace misses the contract.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Miss {
    /// A near miss of the prefix (`emk:` for `emq:`).
    Prefix { found: String },
    /// The queue is not in the hash tag, or the braces are misplaced.
    HashTag { why: String },
    /// Under the prefix, but of no contract key type.
    Type { found: String },
}

/// What one key is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class<'k> {
    Known(Known<'k>),
    /// A miss and the template that groups it (`emk:{<queue>}:job:<id>`).
    Miss(Miss, String),
    /// Outside the keyspace: not ours to judge.
    Foreign,
}

/// Reads one key.
pub fn classify<'k>(key: &'k [u8], ks: &Keyspace) -> Class<'k> {
    if let Some(k) = known(key, ks) {
        return Class::Known(k);
    }
    // Only keys that start like ours (or like a near miss) go further.
    let Ok(text) = std::str::from_utf8(key) else {
        return Class::Foreign;
    };
    let t = Template::lit(text, Span::new(0, 0, text.len()));
    let miss = match keyshape::analyze(&t, ks) {
        KeyVerdict::Prefix { found, .. } => Miss::Prefix { found },
        KeyVerdict::HashTag { why, .. } => Miss::HashTag { why: why.into() },
        KeyVerdict::Type { found, .. } => Miss::Type { found },
        // `emq:{q}`, a base key with nothing after it.
        KeyVerdict::Fine => Miss::Type {
            found: String::new(),
        },
        KeyVerdict::Skip => return Class::Foreign,
    };
    let template = template_of(text, &miss, ks);
    Class::Miss(miss, template)
}

/// A key that is exactly one of the contract's key types.
pub fn known<'k>(key: &'k [u8], ks: &Keyspace) -> Option<Known<'k>> {
    let rest = key.strip_prefix(ks.prefix.as_bytes())?;
    let sep = ks.separator.as_bytes();
    if ks.hash_tag {
        let inner = rest.strip_prefix(b"{")?;
        let close = inner.iter().position(|b| *b == b'}')?;
        if close == 0 {
            return None;
        }
        let tail = inner[close + 1..].strip_prefix(sep)?;
        return typed(tail, ks).map(|(ty, id)| Known {
            ty,
            queue: &inner[..close],
            id,
        });
    }
    // No hash tag: the queue runs to a separator after which a type
    // matches (the first such).
    let mut from = 1;
    while let Some(at) = find(&rest[from.min(rest.len())..], sep).map(|i| i + from) {
        if let Some((ty, id)) = typed(&rest[at + sep.len()..], ks) {
            return Some(Known {
                ty,
                queue: &rest[..at],
                id,
            });
        }
        from = at + 1;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

/// The key type a type suffix is, preferring the one with the most literal
/// bytes when several match; with the placeholder's bytes.
fn typed<'k>(tail: &'k [u8], ks: &Keyspace) -> Option<(usize, Option<&'k [u8]>)> {
    let mut best: Option<(usize, usize, Option<&[u8]>)> = None;
    for (i, t) in ks.types.iter().enumerate() {
        let mut id = None;
        // A whole template (`[keyspace.keys]`) is no type suffix.
        if t.whole || !matches(tail, &t.pattern, &mut id) {
            continue;
        }
        let lits: usize = t
            .pattern
            .iter()
            .map(|p| match p {
                PatTok::Lit(l) => l.len(),
                PatTok::Var(_) => 0,
            })
            .sum();
        if best.is_none_or(|(_, n, _)| lits > n) {
            best = Some((i, lits, id));
        }
    }
    best.map(|(i, _, id)| (i, id))
}

/// Whether `bytes` spell `pattern`: a placeholder is one or more bytes; in
/// the middle of a pattern it holds no `:`, `{` or `}`. `id` gets the
/// first placeholder's bytes.
fn matches<'k>(bytes: &'k [u8], pattern: &[PatTok], id: &mut Option<&'k [u8]>) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return bytes.is_empty();
    };
    match first {
        PatTok::Lit(l) => bytes
            .strip_prefix(l.as_bytes())
            .is_some_and(|b| matches(b, rest, id)),
        PatTok::Var(_) if rest.is_empty() => {
            if bytes.is_empty() {
                return false;
            }
            id.get_or_insert(bytes);
            true
        }
        PatTok::Var(_) => {
            for end in 1..=bytes.len() {
                if matches!(bytes[end - 1], b':' | b'{' | b'}') {
                    return false;
                }
                let mut inner = None;
                if matches(&bytes[end..], rest, &mut inner) {
                    id.get_or_insert(&bytes[..end]);
                    return true;
                }
            }
            false
        }
    }
}

/// The key of type `ty` in `queue` whose placeholder is `id`.
pub fn render(ks: &Keyspace, ty: usize, queue: &[u8], id: &[u8]) -> Vec<u8> {
    let mut out = ks.prefix.as_bytes().to_vec();
    if ks.hash_tag {
        out.push(b'{');
    }
    out.extend_from_slice(queue);
    if ks.hash_tag {
        out.push(b'}');
    }
    out.extend_from_slice(ks.separator.as_bytes());
    for p in &ks.types[ty].pattern {
        match p {
            PatTok::Lit(l) => out.extend_from_slice(l.as_bytes()),
            PatTok::Var(_) => out.extend_from_slice(id),
        }
    }
    out
}

/// The template that groups a missing key with keys like it: the queue
/// becomes `<queue>`, a tail that is a contract type its pattern, and every
/// other segment that is not a plain word `<id>`.
fn template_of(key: &str, miss: &Miss, ks: &Keyspace) -> String {
    let (lead, rest) = match miss {
        Miss::Prefix { found } => (found.as_str(), &key[found.len().min(key.len())..]),
        _ => (ks.prefix.as_str(), &key[ks.prefix.len().min(key.len())..]),
    };
    let sep = ks.separator.as_str();
    let (queue, tail) = match rest.strip_prefix('{') {
        Some(inner) => match inner.find('}') {
            Some(close) => (
                "{<queue>}",
                Some(&inner[close + 1..]).filter(|t| !t.is_empty()),
            ),
            None => ("{<queue>", None),
        },
        None => match rest.find(sep) {
            Some(at) => ("<queue>", Some(&rest[at..])),
            None => ("<queue>", None),
        },
    };
    let mut out = format!("{lead}{queue}");
    if let Some(tail) = tail {
        match tail.strip_prefix(sep) {
            Some(t) => {
                out.push_str(sep);
                out.push_str(&type_template(t, ks));
            }
            None => out.push_str(&words(tail)),
        }
    }
    out
}

/// A type suffix as its contract pattern when it is one, else as words.
fn type_template(tail: &str, ks: &Keyspace) -> String {
    match typed(tail.as_bytes(), ks) {
        Some((ty, _)) => ks.types[ty].text.clone(),
        None => words(tail),
    }
}

/// `jobs:17:x9` → `jobs:<id>:<id>`: plain words stay, the rest are ids.
fn words(text: &str) -> String {
    let word = |s: &str| {
        !s.is_empty()
            && s.len() <= 32
            && s.chars()
                .all(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '-' | '{' | '}'))
    };
    text.split(':')
        .map(|s| if s.is_empty() || word(s) { s } else { "<id>" })
        .collect::<Vec<_>>()
        .join(":")
}

/// A field name with its numbers and long hex ids as placeholders
/// (`x:17` → `x:<n>`), so that fields named after ids group together.
pub fn field_template(field: &[u8]) -> String {
    display(field)
        .split(':')
        .map(|s| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                "<n>".to_string()
            } else if s.len() >= 16 && s.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') {
                "<id>".to_string()
            } else {
                s.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(":")
}

/// A key for display: UTF-8 as is, other bytes and control characters
/// escaped (`\x00`), at most 120 characters.
pub fn display(key: &[u8]) -> String {
    let mut out = String::new();
    for chunk in key.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                out.push_str(&c.escape_default().to_string());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    if out.chars().count() > 120 {
        out = out.chars().take(119).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Contract;

    fn ks() -> Keyspace {
        Contract::embedded().keyspace.unwrap()
    }

    fn class(key: &str) -> String {
        let ks = ks();
        match classify(key.as_bytes(), &ks) {
            Class::Known(k) => format!(
                "{} q={} id={}",
                ks.types[k.ty].name,
                display(k.queue),
                k.id.map(display).unwrap_or_default()
            ),
            Class::Miss(m, t) => format!("{m:?} {t}"),
            Class::Foreign => "foreign".into(),
        }
    }

    #[test]
    fn contract_keys_are_known() {
        assert_eq!(class("emq:{orders}:job:42"), "job q=orders id=42");
        assert_eq!(class("emq:{orders}:job:a:b"), "job q=orders id=a:b");
        assert_eq!(class("emq:{a:b}:pending"), "pending q=a:b id=");
    }

    #[test]
    fn misses_are_grouped_by_template() {
        assert_eq!(
            class("emk:{orders}:job:42"),
            "Prefix { found: \"emk:\" } emk:{<queue>}:job:<id>"
        );
        assert_eq!(
            class("emq:orders:job:42"),
            "HashTag { why: \"the queue is not wrapped in the hash tag `{…}`\" } emq:<queue>:job:<id>"
        );
        assert_eq!(
            class("emq:{orders}:jobs:42"),
            "Type { found: \"jobs:\" } emq:{<queue>}:jobs:<id>"
        );
        assert_eq!(class("emq:{orders}"), "Type { found: \"\" } emq:{<queue>}");
    }

    #[test]
    fn foreign_keys_are_left_alone() {
        assert_eq!(class("session:abc"), "foreign");
        assert_eq!(class("bull:q:wait"), "foreign");
        let ks = ks();
        assert_eq!(classify(b"\xff\xfe:x", &ks), Class::Foreign);
    }

    #[test]
    fn a_held_key_is_rendered_from_its_queue_and_id() {
        let ks = ks();
        let job = ks.types.iter().position(|t| t.name == "job").unwrap();
        assert_eq!(render(&ks, job, b"q", b"7"), b"emq:{q}:job:7");
    }

    #[test]
    fn a_keyspace_without_hash_tag() {
        let text = "name = \"b\"\n[keyspace]\nkey = \"b:<queue>:<type>\"\n[keyspace.types]\nwait = \"wait\"\njob = \"<id>\"\n";
        let ks = Contract::parse(text, "b.toml").unwrap().keyspace.unwrap();
        let k = known(b"b:my:q:wait", &ks).unwrap();
        assert_eq!((k.queue, ks.types[k.ty].name.as_str()), (&b"my"[..], "job"));
        let k = known(b"b:q:wait", &ks).unwrap();
        assert_eq!((k.queue, ks.types[k.ty].name.as_str()), (&b"q"[..], "wait"));
    }

    #[test]
    fn field_names_group_by_template() {
        assert_eq!(field_template(b"x:17"), "x:<n>");
        assert_eq!(field_template(b"data2"), "data2");
        assert_eq!(
            field_template(b"r:3f2a9c1e-0b7d-4e55-9a1f-2c8d7e6b5a40"),
            "r:<id>"
        );
    }

    #[test]
    fn keys_display_escaped() {
        assert_eq!(display(b"a\x00\xffb"), "a\\u{0}\\xffb");
    }
}
