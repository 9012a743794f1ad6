//! Contracts: the data that says what is below the line.
//!
//! A contract is TOML (see `rules/echomq.toml`, embedded as the default, and
//! `docs/contract.md`). Loading validates it and turns every error into a
//! [`ContractError`] that points into the file.

use std::ops::Range;

mod compile;
mod live;
pub mod shipped;

/// The embedded default contract.
pub const EMBEDDED_NAME: &str = "rules/echomq.toml";
pub const EMBEDDED_TEXT: &str = include_str!("../../rules/echomq.toml");

/// A validated contract.
#[derive(Debug, Clone)]
pub struct Contract {
    pub name: String,
    /// Where it came from: a path, or `rules/echomq.toml (embedded)`.
    pub origin: String,
    pub embedded: bool,
    /// Named by the command line or `wirelint.toml`: it applies to the tree
    /// whatever the tree holds. The embedded default, unnamed, applies only
    /// where some speaker uses its keyspace.
    pub chosen: bool,
    /// Drafted from code (`check --upstream DIR`): no file holds it, and
    /// reports name it by its origin as it is.
    pub drafted: bool,
    /// The TOML text; contract spans index into it.
    pub text: String,
    pub keyspace: Option<Keyspace>,
    /// `scripts_build_keys = true`: the family's scripts build keys from a
    /// key prefix their callers pass (BullMQ's design), so a key built in
    /// a script is no finding (WL301 still reports KEYS past the count).
    pub scripts_build_keys: bool,
    pub records: Vec<Record>,
    pub scripts: Vec<ScriptSpec>,
    pub speakers: Vec<SpeakerSpec>,
    /// `[retired]`: what `wirelint diff` lets a change remove.
    pub retired: Retired,
    /// `[ids.RECORD]`: the branded ids of gated records.
    pub ids: Vec<IdSpec>,
}

/// `[ids.job]`: the id of a record's rows is `bytes` long and starts with
/// its brand `kind`; scripts admit it only through a check whose failure
/// raises `gate`.
#[derive(Debug, Clone)]
pub struct IdSpec {
    /// The record whose `<id>` this is.
    pub record: String,
    pub bytes: u32,
    pub kind: String,
    pub gate: String,
    /// The `[ids.NAME]` table.
    pub span: Range<usize>,
}

/// `[retired]`: keys, fields and scripts that are no longer part of the
/// wire. Removing one of them is not a breaking change (`wirelint diff`).
#[derive(Debug, Clone, Default)]
pub struct Retired {
    /// Key templates as written (`emq:{<queue>}:old:<id>`).
    pub keys: Vec<(String, Range<usize>)>,
    /// (record name or key template, field).
    pub fields: Vec<(String, String, Range<usize>)>,
    pub scripts: Vec<(String, Range<usize>)>,
}

/// A key pattern's shape as wirelint compares keys: every placeholder is
/// `<*>` (`emq:{<queue>}:job:<id>` → `emq:{<*>}:job:<*>`).
pub fn pattern_shape(pattern: &str) -> String {
    match parse_pattern(pattern) {
        Ok(toks) => toks
            .iter()
            .map(|t| match t {
                PatTok::Lit(l) => l.as_str(),
                PatTok::Var(_) => "<*>",
            })
            .collect(),
        Err(_) => pattern.to_string(),
    }
}

impl Contract {
    /// The key shape of a record: a `[records]` name through its key type,
    /// or a key template as written.
    pub fn record_shape(&self, record: &str) -> Option<String> {
        if record.contains(':') {
            return Some(pattern_shape(record));
        }
        let r = by_name(&self.records, record, |r| &r.name)?;
        let ks = self.keyspace.as_ref()?;
        let t = ks.type_named(&r.type_name)?;
        Some(pattern_shape(&ks.render(t)))
    }
}

/// The item named `name` among `items` sorted by name, as every table of a
/// contract is (each is compiled from a TOML table, read in key order): a
/// binary search, so that loading a contract of many types, records or
/// fields stays linear in its size (times a logarithm).
pub(crate) fn by_name<'a, T>(
    items: &'a [T],
    name: &str,
    key: impl Fn(&T) -> &String,
) -> Option<&'a T> {
    items
        .binary_search_by(|t| key(t).as_str().cmp(name))
        .ok()
        .map(|i| &items[i])
}

/// A piece of a key pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum PatTok {
    Lit(String),
    /// `<name>`: any non-empty bytes.
    Var(String),
}

#[derive(Debug, Clone)]
pub struct Keyspace {
    /// The queue key `emq:{<queue>}:<type>`, its `<prefix>` in place; empty
    /// when the keyspace has no queue key (every type is a whole template).
    pub pattern: String,
    pub pattern_span: Range<usize>,
    /// Whether `key` is given: the types of `[keyspace.types]` follow it.
    pub queue_key: bool,
    /// `prefix = "bull"`: the value of `<prefix>` in the templates (the
    /// contract's default, or `wirelint.toml`'s), and where it is written.
    pub prefix_value: Option<(String, Range<usize>)>,
    /// The literal before the queue: `emq:`.
    pub prefix: String,
    /// Whether the queue sits in a `{…}` hash tag.
    pub hash_tag: bool,
    /// The literal between the queue (or its tag) and the type: `:`.
    pub separator: String,
    pub types: Vec<KeyType>,
    pub clustered: bool,
    /// `[keyspace.redis]` (optional): the Redis type of a key type's value.
    pub redis_types: Vec<RedisTypeSpec>,
    /// `[keyspace.holds]` (optional): key types whose members (a sorted
    /// set's, a set's or a list's) are the ids of another type's keys.
    pub holds: Vec<Holds>,
}

/// The Redis types a key can hold, as `TYPE` names them.
pub const REDIS_TYPES: &[&str] = &["string", "hash", "list", "set", "zset", "stream"];

/// One entry of `[keyspace.redis]`: `pending = "zset"`.
#[derive(Debug, Clone)]
pub struct RedisTypeSpec {
    pub type_name: String,
    /// One of [`REDIS_TYPES`].
    pub redis: String,
    pub span: Range<usize>,
}

/// One entry of `[keyspace.holds]`: `pending = "job"` (the members of
/// `pending` are the `<id>`s of `job` keys of the same queue).
#[derive(Debug, Clone)]
pub struct Holds {
    pub holder: String,
    pub held: String,
    pub span: Range<usize>,
}

#[derive(Debug, Clone)]
pub struct KeyType {
    pub name: String,
    /// `job:<id>` as written (a whole template, `<prefix>` in place, for a
    /// type of `[keyspace.keys]`).
    pub text: String,
    pub pattern: Vec<PatTok>,
    pub span: Range<usize>,
    /// A type of `[keyspace.keys]`: `pattern` is the whole key, not a
    /// suffix after the queue key's queue.
    pub whole: bool,
}

impl KeyType {
    /// The literal a type of the queue key starts with: `job:` for
    /// `job:<id>`; empty for a whole template.
    pub fn lead(&self) -> &str {
        match self.pattern.first() {
            Some(PatTok::Lit(s)) if !self.whole => s,
            _ => "",
        }
    }

    /// The literal the whole pattern opens with (`asynq:queues` for
    /// `asynq:queues`, `queue:` for `queue:<queue>`); empty when it opens
    /// with a placeholder.
    pub fn lead_literal(&self) -> &str {
        match self.pattern.first() {
            Some(PatTok::Lit(s)) => s,
            _ => "",
        }
    }

    /// Whether the key holds a queue (`<queue>`): a type of the queue key
    /// always does, a whole template when it names `<queue>`.
    pub fn queue_scoped(&self) -> bool {
        !self.whole
            || self
                .pattern
                .iter()
                .any(|p| matches!(p, PatTok::Var(v) if v == "queue"))
    }
}

impl Keyspace {
    /// The types that follow the queue key (`[keyspace.types]`).
    pub fn queue_types(&self) -> impl Iterator<Item = &KeyType> {
        self.types.iter().filter(|t| !t.whole)
    }

    /// The whole templates (`[keyspace.keys]`).
    pub fn whole_types(&self) -> impl Iterator<Item = &KeyType> {
        self.types.iter().filter(|t| t.whole)
    }

    /// The whole pattern of a key of type `t`, as tokens.
    pub fn full_pattern(&self, t: &KeyType) -> Vec<PatTok> {
        if t.whole {
            return t.pattern.clone();
        }
        let mut out = vec![PatTok::Lit(self.prefix.clone())];
        if self.hash_tag {
            out.push(PatTok::Lit("{".into()));
        }
        out.push(PatTok::Var("queue".into()));
        let mut sep = String::new();
        if self.hash_tag {
            sep.push('}');
        }
        sep.push_str(&self.separator);
        out.push(PatTok::Lit(sep));
        out.extend(t.pattern.iter().cloned());
        out
    }

    /// `emq:{<queue>}:job:<id>`.
    pub fn render(&self, t: &KeyType) -> String {
        if t.whole {
            return t.text.clone();
        }
        let mut s = self.prefix.clone();
        if self.hash_tag {
            s.push_str("{<queue>}");
        } else {
            s.push_str("<queue>");
        }
        s.push_str(&self.separator);
        s.push_str(&t.text);
        s
    }

    pub fn type_named(&self, name: &str) -> Option<&KeyType> {
        by_name(&self.types, name, |t| &t.name)
    }

    /// The Redis type `[keyspace.redis]` states for a key type.
    pub fn redis_type_of(&self, type_name: &str) -> Option<&RedisTypeSpec> {
        by_name(&self.redis_types, type_name, |r| &r.type_name)
    }
}

#[derive(Debug, Clone)]
pub struct Record {
    pub name: String,
    /// The key type the record lives at.
    pub type_name: String,
    pub fields: Vec<(String, Range<usize>)>,
    /// The field whose value names the holder a row waits in (`state`:
    /// `pending`), when the contract says so: `wirelint audit` asks the
    /// holders only of a row that waits in one (WA302).
    pub state: Option<String>,
    /// `always = [...]`: the fields every row has from its creation (BullMQ's
    /// job: `name`, `data`, `opts`, ...; the others come with its life);
    /// `None`: every field is.
    pub always: Option<Vec<String>>,
    /// The `[records.NAME]` table.
    pub span: Range<usize>,
    /// The `fields = [...]` array.
    pub fields_span: Range<usize>,
}

impl Record {
    /// Whether every row of the record has field `f` from its creation (a
    /// row without it is WA202's, a creating write without it WL202's). A
    /// field template (`<id>:rc`, a field per item) never is.
    pub fn always_written(&self, f: &str) -> bool {
        match &self.always {
            Some(list) => list.iter().any(|a| a == f),
            None => !f.contains('<') && self.fields.iter().any(|(n, _)| n == f),
        }
    }

    /// Whether `f` is a field of the record: one of its names, or a match
    /// of one of its field templates (`<id>:rc`: a field per message).
    pub fn has_field(&self, f: &str) -> bool {
        self.fields.iter().any(|(n, _)| {
            n == f
                || n.contains('<') && parse_pattern(n).is_ok_and(|toks| literal_matches(&toks, f))
        })
    }
}

/// Whether the literal `s` is a match of the pattern: each placeholder
/// stands for one or more bytes that hold no `:`.
pub fn literal_matches(toks: &[PatTok], s: &str) -> bool {
    match toks.split_first() {
        None => s.is_empty(),
        Some((PatTok::Lit(l), rest)) => s
            .strip_prefix(l.as_str())
            .is_some_and(|r| literal_matches(rest, r)),
        Some((PatTok::Var(_), rest)) => s
            .char_indices()
            .skip(1)
            .map(|(i, _)| i)
            .chain(std::iter::once(s.len()))
            .take_while(|&i| !s[..i].contains(':'))
            .any(|i| literal_matches(rest, &s[i..])),
    }
}

#[derive(Debug, Clone)]
pub struct ScriptSpec {
    pub name: String,
    pub name_span: Range<usize>,
    /// Roles of KEYS[1..], each a key type name (or a free role name).
    pub keys: Vec<(String, Range<usize>)>,
    pub keys_span: Range<usize>,
    pub argv: Vec<(String, Range<usize>)>,
    /// The record this script creates whole (its write must set every
    /// field).
    pub creates: Option<String>,
    /// KEYS slots (1-based) the upstream's script declares and never
    /// touches (BullMQ's `addStandardJob` keeps `KEYS[2]` for its callers):
    /// callers still pass them, and WL302 does not ask the script to use
    /// them.
    pub unused: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct SpeakerSpec {
    pub name: String,
    /// A directory relative to the scanned root.
    pub path: String,
    pub canonical: bool,
}

/// A contract that cannot be used. Rendered by miette with a label in the
/// TOML.
#[derive(Debug, Clone)]
pub struct ContractError {
    pub origin: String,
    pub text: String,
    pub message: String,
    pub span: Option<Range<usize>>,
    pub label: String,
    pub help: Option<String>,
}

impl std::fmt::Display for ContractError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `wirelint.toml` is the settings, not a contract.
        let what = if self.origin.ends_with("wirelint.toml") {
            "invalid settings"
        } else {
            "invalid contract"
        };
        write!(f, "{what} {}: {}", self.origin, self.message)
    }
}

impl std::error::Error for ContractError {}

impl miette::Diagnostic for ContractError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("wirelint::contract"))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn std::fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.span
            .as_ref()
            .map(|_| &self.text as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.span.clone()?;
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(
                Some(self.label.clone()),
                span.start..span.end.max(span.start),
            ),
        )))
    }
}

impl Contract {
    /// The embedded EchoMQ contract.
    pub fn embedded() -> Contract {
        let mut c = Contract::parse(EMBEDDED_TEXT, &format!("{EMBEDDED_NAME} (embedded)"))
            .expect("the embedded contract is valid (tested)");
        c.embedded = true;
        c
    }

    /// Parses and validates a contract. `origin` names it in messages.
    pub fn parse(text: &str, origin: &str) -> Result<Contract, Box<ContractError>> {
        Contract::parse_with(text, origin, None)
    }

    /// Parses and validates a contract, with `prefix` (`wirelint.toml`'s)
    /// as the value of `<prefix>` in place of the contract's default.
    pub fn parse_with(
        text: &str,
        origin: &str,
        prefix: Option<&str>,
    ) -> Result<Contract, Box<ContractError>> {
        let err =
            |message: String, span: Option<Range<usize>>, label: &str, help: Option<String>| {
                Box::new(ContractError {
                    origin: origin.to_string(),
                    text: text.to_string(),
                    message,
                    span,
                    label: label.to_string(),
                    help,
                })
            };
        let raw: compile::RawContract = toml::from_str(text).map_err(|e| {
            // A file with nothing in it (blank, or only comments) says so,
            // rather than "missing field `name`".
            if toml::from_str::<toml::Table>(text).is_ok_and(|t| t.is_empty()) {
                let span = (!text.trim().is_empty()).then(|| 0..text.trim_end().len());
                return err(
                    "the contract is empty".into(),
                    span,
                    "no keys here",
                    Some("a contract needs at least `name = \"...\"` and a [keyspace], [records] or [scripts]; see rules/echomq.toml".into()),
                );
            }
            let (message, help) = describe_toml_error(e.message());
            err(message, e.span(), "here", help)
        })?;
        compile::compile(raw, text, origin, prefix)
            .map_err(|(message, span, help)| err(message, Some(span), "here", help))
    }
}

/// `job:<id>` → `[Lit("job:"), Var("id")]`.
pub fn parse_pattern(text: &str) -> Result<Vec<PatTok>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('<') {
            Some(0) => {
                let close = rest.find('>').ok_or("a `<` is not closed by `>`")?;
                let name = &rest[1..close];
                if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    return Err(format!("`<{name}>` is not a placeholder name"));
                }
                if matches!(out.last(), Some(PatTok::Var(_))) {
                    return Err("two placeholders in a row cannot be told apart".into());
                }
                out.push(PatTok::Var(name.to_string()));
                rest = &rest[close + 1..];
            }
            Some(i) => {
                out.push(PatTok::Lit(rest[..i].to_string()));
                rest = &rest[i..];
            }
            None => {
                out.push(PatTok::Lit(rest.to_string()));
                rest = "";
            }
        }
    }
    if out
        .iter()
        .any(|t| matches!(t, PatTok::Lit(l) if l.contains('>')))
    {
        return Err("a `>` has no opening `<`".into());
    }
    Ok(out)
}

/// Rewrites serde/toml messages into wirelint's words, with a "did you
/// mean" for unknown keys.
pub fn describe_toml_error(msg: &str) -> (String, Option<String>) {
    let msg = msg.trim();
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        if let Some((field, expected)) = rest.split_once('`') {
            let options: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
            let help = suggest(field, options.iter().copied()).or_else(|| {
                (!options.is_empty()).then(|| {
                    format!(
                        "expected one of {}",
                        options
                            .iter()
                            .map(|o| format!("`{o}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
            });
            return (format!("unknown key `{field}`"), help);
        }
    }
    (msg.to_string(), None)
}

/// The candidates within a small edit distance of `word`, with their
/// distances.
fn near<'a, 'w>(
    word: &'w str,
    candidates: impl Iterator<Item = &'a str> + 'w,
) -> impl Iterator<Item = (usize, &'a str)> + 'w {
    // The distance is at least the difference in length, so most
    // candidates are ruled out without computing it; names longer than
    // [`MAX_SUGGESTED`] are never suggested (the distance is quadratic in
    // the length).
    let bound = move |c: &str| (c.len().max(word.len()) / 3).max(1);
    candidates
        .filter(move |c| {
            word.len() <= MAX_SUGGESTED
                && c.len() <= MAX_SUGGESTED
                && c.len().abs_diff(word.len()) <= bound(c)
        })
        .map(move |c| (edit_distance(word, c), c))
        .filter(move |(d, c)| *d <= bound(c))
}

/// The longest name a suggestion compares (bytes).
const MAX_SUGGESTED: usize = 256;

/// "did you mean `x`?" for the closest candidate within a small edit
/// distance.
pub fn suggest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let best = near(word, candidates).min()?;
    Some(format!("did you mean `{}`?", best.1))
}

/// The one candidate closest to `word` within a small edit distance (as
/// [`suggest`] reads it), or `None` when none is near or two tie: a fix
/// that is certain.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut near: Vec<(usize, &str)> = near(word, candidates).collect();
    near.sort();
    near.dedup();
    match near.as_slice() {
        [(_, only)] => Some(only),
        [(d, best), (next, _), ..] if d < next => Some(best),
        _ => None,
    }
}

/// Edit distance over chars (optimal string alignment: insertions,
/// deletions, substitutions and adjacent transpositions each cost one).
pub fn edit_distance(a: &str, b: &str) -> usize {
    if a.is_ascii() && b.is_ascii() {
        return osa(a.as_bytes(), b.as_bytes());
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    osa(&a, &b)
}

/// [`edit_distance`] over any symbols, three rows at a time (on the stack
/// for names of up to 63 symbols: each finding of a hostile write of
/// 87,000 fields computes a few).
fn osa<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    const STACK: usize = 64;
    let w = b.len() + 1;
    let mut heap = Vec::new();
    let mut stack = [0usize; 3 * STACK];
    let rows: &mut [usize] = if w <= STACK {
        &mut stack[..3 * w]
    } else {
        heap.resize(3 * w, 0);
        &mut heap
    };
    let (mut two, mut one, mut cur) = (0, w, 2 * w);
    for (j, cell) in rows[one..one + w].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[cur] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (rows[one + j] + 1)
                .min(rows[cur + j - 1] + 1)
                .min(rows[one + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(rows[two + j - 2] + 1);
            }
            rows[cur + j] = v;
        }
        (two, one, cur) = (one, cur, two);
    }
    rows[one + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Suggestions compare names of a near length only, and never huge ones.
    #[test]
    fn edit_distance_is_optimal_string_alignment() {
        let long = "a".repeat(100);
        let long_b = format!("{}b", "a".repeat(99));
        for (a, b, d) in [
            ("payload", "payloda", 1),
            ("", "abc", 3),
            ("abc", "", 3),
            ("kitten", "sitting", 3),
            ("ca", "abc", 3),
            ("état", "etat", 1),
            ("état", "éatt", 1),
            ("état", "tat", 1),
            (long.as_str(), long_b.as_str(), 1),
            (long.as_str(), "", 100),
        ] {
            assert_eq!(edit_distance(a, b), d, "{a} {b}");
            assert_eq!(edit_distance(b, a), d, "{b} {a}");
        }
    }

    #[test]
    fn suggestions_skip_far_lengths_and_huge_names() {
        assert_eq!(
            suggest("payloda", ["payload", "p"].into_iter()).as_deref(),
            Some("did you mean `payload`?")
        );
        assert_eq!(
            closest("stat", ["state", "statestatestate"].into_iter()),
            Some("state")
        );
        let huge = "s".repeat(MAX_SUGGESTED + 1);
        let near_huge = format!("{huge}x");
        assert_eq!(closest(&huge, [near_huge.as_str()].into_iter()), None);
    }

    #[test]
    fn embedded_contract_loads() {
        let c = Contract::embedded();
        assert_eq!(c.name, "echomq");
        let ks = c.keyspace.as_ref().unwrap();
        assert_eq!(ks.prefix, "emq:");
        assert!(ks.hash_tag);
        assert_eq!(ks.separator, ":");
        let job = ks.type_named("job").unwrap();
        assert_eq!(ks.render(job), "emq:{<queue>}:job:<id>");
        assert_eq!(c.records[0].fields.len(), 3);
        let enqueue = &c.scripts[0];
        assert_eq!(
            enqueue
                .keys
                .iter()
                .map(|k| k.0.as_str())
                .collect::<Vec<_>>(),
            ["job", "pending"]
        );
        assert_eq!(enqueue.creates.as_deref(), Some("job"));
    }

    #[test]
    fn closest_is_the_one_nearest_or_none() {
        let fields = ["state", "stage", "attempts", "payload"];
        assert_eq!(closest("payloud", fields.into_iter()), Some("payload"));
        assert_eq!(closest("statee", fields.into_iter()), Some("state"));
        // As near to `state` as to `stage`: no certain fix.
        assert_eq!(closest("stape", fields.into_iter()), None);
        assert_eq!(closest("data", fields.into_iter()), None);
    }

    #[test]
    fn unknown_key_suggests_the_right_one() {
        let text = "name = \"x\"\n[scripts.a]\nkyes = [\"job\"]\n";
        let e = Contract::parse(text, "c.toml").unwrap_err();
        assert_eq!(e.message, "unknown key `kyes`");
        assert_eq!(e.help.as_deref(), Some("did you mean `keys`?"));
        assert_eq!(&text[e.span.clone().unwrap()], "kyes");
    }

    #[test]
    fn errors_point_into_the_file() {
        let text = "name = \"x\"\n[keyspace]\nkey = \"emq:{<queue>:<type>\"\n[keyspace.types]\njob = \"job\"\n";
        let e = Contract::parse(text, "c.toml").unwrap_err();
        assert!(e.message.contains("hash tag"), "{}", e.message);
        assert_eq!(&text[e.span.clone().unwrap()], "\"emq:{<queue>:<type>\"");

        let e = Contract::parse("name = 3\n", "c.toml").unwrap_err();
        assert_eq!(&"name = 3\n"[e.span.clone().unwrap()], "3");

        let e = Contract::parse("name = \"x\"\n", "c.toml").unwrap_err();
        assert!(e.message.contains("empty"), "{}", e.message);

        let text = "name = \"x\"\n[records.job]\ntype = \"jbo\"\nfields = [\"a\"]\n[keyspace]\nkey = \"p:<queue>:<type>\"\ntypes = { job = \"job\" }\n";
        let e = Contract::parse(text, "c.toml").unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean `job`?"));
    }

    #[test]
    fn ids_name_a_record_and_a_brand_that_fits() {
        let base =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/echomq.toml"))
                .unwrap();
        // The embedded contract gates job ids; each case below replaces that.
        let c = Contract::parse(&base, "echomq.toml").unwrap();
        assert_eq!((c.ids[0].record.as_str(), c.ids[0].bytes), ("job", 14));
        let base = &base[..base.find("\n[ids.job]").unwrap()];
        let ok = format!("{base}\n[ids.job]\nbytes = 14\nkind = \"JOB\"\ngate = \"EMQKIND\"\n");
        let c = Contract::parse(&ok, "c.toml").unwrap();
        let id = &c.ids[0];
        assert_eq!(
            (
                id.record.as_str(),
                id.bytes,
                id.kind.as_str(),
                id.gate.as_str()
            ),
            ("job", 14, "JOB", "EMQKIND")
        );
        let text = format!("{base}\n[ids.jobs]\nbytes = 14\nkind = \"JOB\"\ngate = \"EMQKIND\"\n");
        let e = Contract::parse(&text, "c.toml").unwrap_err();
        assert_eq!(
            e.message,
            "ids of record `jobs`, which [records] does not define"
        );
        assert_eq!(e.help.as_deref(), Some("did you mean `job`?"));
        let text = format!("{base}\n[ids.job]\nbytes = 2\nkind = \"JOB\"\ngate = \"EMQKIND\"\n");
        let e = Contract::parse(&text, "c.toml").unwrap_err();
        assert_eq!(&text[e.span.clone().unwrap()], "\"JOB\"");
    }

    #[test]
    fn a_keyspace_without_hash_tag() {
        let text = "name = \"bull\"\n[keyspace]\nkey = \"bull:<queue>:<type>\"\n[keyspace.types]\nwait = \"wait\"\n";
        let c = Contract::parse(text, "b.toml").unwrap();
        let ks = c.keyspace.unwrap();
        assert_eq!(
            (ks.prefix.as_str(), ks.hash_tag, ks.clustered),
            ("bull:", false, false)
        );
    }
}
