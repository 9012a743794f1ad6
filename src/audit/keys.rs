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

/// A key that is exactly one of the contract's key types: a type after
/// the queue key, or a whole template of `[keyspace.keys]`; when both
/// match, the one with more literal bytes.
pub fn known<'k>(key: &'k [u8], ks: &Keyspace) -> Option<Known<'k>> {
    let queued = ks.queue_key.then(|| queued(key, ks)).flatten();
    let whole = whole(key, ks);
    match (queued, whole) {
        (Some(q), Some(w)) => {
            let queued_lits = ks.prefix.len()
                + 2 * usize::from(ks.hash_tag)
                + ks.separator.len()
                + literal_bytes(&ks.types[q.ty].pattern);
            Some(if literal_bytes(&ks.types[w.ty].pattern) > queued_lits {
                w
            } else {
                q
            })
        }
        (q, w) => q.or(w),
    }
}

/// A key of a type that follows the queue key.
fn queued<'k>(key: &'k [u8], ks: &Keyspace) -> Option<Known<'k>> {
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
    // matches (the first such). Each separator found lies inside `rest`,
    // whatever its length (an empty one too).
    let mut from = 1;
    while from <= rest.len() {
        let Some(at) = find(&rest[from..], sep).map(|i| i + from) else {
            break;
        };
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

/// A key of a whole template (`[keyspace.keys]`), read as the checks read
/// one (`keyshape`): the template opens with a literal, and a placeholder
/// holds any bytes (none too) but `:`, `{` and `}` (a `:` inside a hash
/// tag, `{<server>}`, too).
/// The one with the most literal bytes when several match.
fn whole<'k>(key: &'k [u8], ks: &Keyspace) -> Option<Known<'k>> {
    let mut best: Option<(usize, Known)> = None;
    for (ty, t) in ks.types.iter().enumerate() {
        if !t.whole || t.lead_literal().is_empty() {
            continue;
        }
        let mut parts = Parts::default();
        if !spells(key, &t.pattern, false, &mut parts) {
            continue;
        }
        let lits = literal_bytes(&t.pattern);
        if best.is_none_or(|(n, _)| lits > n) {
            let queue = parts.queue.unwrap_or_default();
            best = Some((
                lits,
                Known {
                    ty,
                    queue,
                    id: parts.id,
                },
            ));
        }
    }
    best.map(|(_, k)| k)
}

/// What a whole template's placeholders hold: `<queue>`, and the first
/// other one.
#[derive(Default)]
struct Parts<'k> {
    queue: Option<&'k [u8]>,
    id: Option<&'k [u8]>,
}

/// Whether `bytes` spell the whole template `pattern` ([`whole`]); `tag`:
/// the byte before is the `{` of a hash tag.
fn spells<'k>(bytes: &'k [u8], pattern: &[PatTok], tag: bool, parts: &mut Parts<'k>) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return bytes.is_empty();
    };
    match first {
        PatTok::Lit(l) => bytes
            .strip_prefix(l.as_bytes())
            .is_some_and(|b| spells(b, rest, l.ends_with('{'), parts)),
        PatTok::Var(name) => {
            for end in 0..=bytes.len() {
                match end.checked_sub(1).map(|i| bytes[i]) {
                    Some(b'{' | b'}') => return false,
                    Some(b':') if !tag => return false,
                    _ => {}
                }
                let mut inner = Parts::default();
                if spells(&bytes[end..], rest, false, &mut inner) {
                    let this = Some(&bytes[..end]);
                    let queue = name == "queue";
                    parts.queue = if queue { this } else { inner.queue };
                    parts.id = if queue { inner.id } else { this };
                    return true;
                }
            }
            false
        }
    }
}

/// The literal bytes of a pattern.
fn literal_bytes(pattern: &[PatTok]) -> usize {
    pattern
        .iter()
        .map(|p| match p {
            PatTok::Lit(l) => l.len(),
            PatTok::Var(_) => 0,
        })
        .sum()
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
        let lits = literal_bytes(&t.pattern);
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

/// The key of type `ty` in `queue` whose placeholder is `id` (a whole
/// template's `<queue>` is `queue`, its other placeholders `id`).
pub fn render(ks: &Keyspace, ty: usize, queue: &[u8], id: &[u8]) -> Vec<u8> {
    let t = &ks.types[ty];
    if t.whole {
        let mut out = Vec::new();
        for p in &t.pattern {
            match p {
                PatTok::Lit(l) => out.extend_from_slice(l.as_bytes()),
                PatTok::Var(v) if v == "queue" => out.extend_from_slice(queue),
                PatTok::Var(_) => out.extend_from_slice(id),
            }
        }
        return out;
    }
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

/// A key (or another name a server gives: a type) for display: UTF-8 as
/// is, control characters as every report escapes them
/// (`crate::report::escape::text`: `\u{a}`), other bytes as `\xff`, at
/// most 120 characters.
pub fn display(key: &[u8]) -> String {
    let mut out = String::new();
    for chunk in key.utf8_chunks() {
        out.push_str(&crate::report::escape::text(chunk.valid()));
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
        assert_eq!(display(b"zset\n::warning::x"), "zset\\u{a}::warning::x");
    }

    fn shipped(name: &str) -> Keyspace {
        crate::contract::shipped::named(name)
            .unwrap()
            .load(None)
            .unwrap()
            .keyspace
            .unwrap()
    }

    /// What `known` reads a key as: type, queue, id.
    fn read(ks: &Keyspace, key: &str) -> Option<(String, String, String)> {
        known(key.as_bytes(), ks).map(|k| {
            (
                ks.types[k.ty].name.clone(),
                display(k.queue),
                k.id.map(display).unwrap_or_default(),
            )
        })
    }

    fn t(ty: &str, queue: &str, id: &str) -> Option<(String, String, String)> {
        Some((ty.into(), queue.into(), id.into()))
    }

    /// Sidekiq's keyspace is whole templates only, with no prefix: each key
    /// is one of them or none (an empty separator and prefix made every
    /// key a slice out of range).
    #[test]
    fn a_keyspace_of_whole_templates_reads_each_key() {
        let ks = shipped("sidekiq");
        assert!(!ks.queue_key && ks.separator.is_empty());
        assert_eq!(read(&ks, "queues"), t("queues", "", ""));
        assert_eq!(read(&ks, "queue:default"), t("queue", "default", ""));
        assert_eq!(read(&ks, "stat:processed"), t("processed", "", ""));
        assert_eq!(
            read(&ks, "stat:processed:2024-05-01"),
            t("processed-daily", "", "2024-05-01")
        );
        assert_eq!(read(&ks, "it-abc"), t("iteration", "", "abc"));
        // Empty, as `check` reads it.
        assert_eq!(read(&ks, "queue:"), t("queue", "", ""));
        for other in ["", "q", "queue:a:b", "session:42", "queuesx", "it-{x}"] {
            assert_eq!(read(&ks, other), None, "{other}");
            assert_eq!(classify(other.as_bytes(), &ks), Class::Foreign, "{other}");
        }
        let it = ks.types.iter().position(|t| t.name == "iteration").unwrap();
        assert_eq!(render(&ks, it, b"", b"abc"), b"it-abc");
    }

    /// Whole templates beside a queue key: the one with more literal bytes
    /// wins (`rsmq:QUEUES` is the queue list, not a queue named `QUEUES`);
    /// a placeholder in a hash tag may hold `:` (asynq's servers).
    #[test]
    fn whole_templates_beside_a_queue_key() {
        let ks = shipped("rsmq");
        assert_eq!(read(&ks, "rsmq:QUEUES"), t("queues", "", ""));
        assert_eq!(read(&ks, "rsmq:jobs"), t("messages", "jobs", ""));
        assert_eq!(read(&ks, "rsmq:jobs:Q"), t("attributes", "jobs", ""));
        let ks = shipped("asynq");
        assert_eq!(read(&ks, "asynq:queues"), t("queues", "", ""));
        assert_eq!(
            read(&ks, "asynq:servers:{host:42:ab}"),
            t("server", "", "host:42:ab")
        );
        assert_eq!(
            read(&ks, "asynq:{default}:pending"),
            t("pending", "default", "")
        );
    }
}
