//! Contracts: the data that says what is below the line.
//!
//! A contract is TOML (see `rules/echomq.toml`, embedded as the default, and
//! `docs/contract.md`). Loading validates it and turns every error into a
//! [`ContractError`] that points into the file.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

/// The embedded default contract.
pub const EMBEDDED_NAME: &str = "rules/echomq.toml";
pub const EMBEDDED_TEXT: &str = include_str!("../rules/echomq.toml");

/// A validated contract.
#[derive(Debug, Clone)]
pub struct Contract {
    pub name: String,
    /// Where it came from: a path, or `rules/echomq.toml (embedded)`.
    pub origin: String,
    pub embedded: bool,
    /// The TOML text; contract spans index into it.
    pub text: String,
    pub keyspace: Option<Keyspace>,
    pub records: Vec<Record>,
    pub scripts: Vec<ScriptSpec>,
    pub speakers: Vec<SpeakerSpec>,
    /// `[retired]`: what `wirelint diff` lets a change remove.
    pub retired: Retired,
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
        let r = self.records.iter().find(|r| r.name == record)?;
        let ks = self.keyspace.as_ref()?;
        let t = ks.type_named(&r.type_name)?;
        Some(pattern_shape(&ks.render(t)))
    }
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
    /// `emq:{<queue>}:<type>` as written.
    pub pattern: String,
    pub pattern_span: Range<usize>,
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
    /// `job:<id>` as written.
    pub text: String,
    pub pattern: Vec<PatTok>,
    pub span: Range<usize>,
}

impl KeyType {
    /// The literal the type starts with: `job:` for `job:<id>`.
    pub fn lead(&self) -> &str {
        match self.pattern.first() {
            Some(PatTok::Lit(s)) => s,
            _ => "",
        }
    }
}

impl Keyspace {
    /// The whole pattern of a key of type `t`, as tokens.
    pub fn full_pattern(&self, t: &KeyType) -> Vec<PatTok> {
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
        self.types.iter().find(|t| t.name == name)
    }

    /// The Redis type `[keyspace.redis]` states for a key type.
    pub fn redis_type_of(&self, type_name: &str) -> Option<&RedisTypeSpec> {
        self.redis_types.iter().find(|r| r.type_name == type_name)
    }
}

#[derive(Debug, Clone)]
pub struct Record {
    pub name: String,
    /// The key type the record lives at.
    pub type_name: String,
    pub fields: Vec<(String, Range<usize>)>,
    /// The `[records.NAME]` table.
    pub span: Range<usize>,
    /// The `fields = [...]` array.
    pub fields_span: Range<usize>,
}

impl Record {
    pub fn has_field(&self, f: &str) -> bool {
        self.fields.iter().any(|(n, _)| n == f)
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
        write!(f, "invalid contract {}: {}", self.origin, self.message)
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContract {
    name: Spanned<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    keyspace: Option<Spanned<RawKeyspace>>,
    #[serde(default)]
    records: BTreeMap<String, Spanned<RawRecord>>,
    #[serde(default)]
    scripts: BTreeMap<String, Spanned<RawScript>>,
    #[serde(default)]
    speakers: BTreeMap<String, Spanned<RawSpeaker>>,
    #[serde(default)]
    retired: Option<RawRetired>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRetired {
    #[serde(default)]
    keys: Vec<Spanned<String>>,
    #[serde(default)]
    fields: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    scripts: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKeyspace {
    key: Spanned<String>,
    #[serde(default)]
    clustered: Option<bool>,
    #[serde(default)]
    types: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    redis: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    holds: BTreeMap<String, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    #[serde(rename = "type")]
    type_name: Spanned<String>,
    fields: Spanned<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScript {
    #[serde(default)]
    keys: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    argv: Vec<Spanned<String>>,
    #[serde(default)]
    creates: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpeaker {
    path: Spanned<String>,
    #[serde(default)]
    canonical: bool,
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
        let raw: RawContract = toml::from_str(text).map_err(|e| {
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
        compile(raw, text, origin)
            .map_err(|(message, span, help)| err(message, Some(span), "here", help))
    }
}

type CompileError = (String, Range<usize>, Option<String>);

fn compile(raw: RawContract, text: &str, origin: &str) -> Result<Contract, CompileError> {
    let name = raw.name.get_ref().trim().to_string();
    if name.is_empty() {
        return Err((
            "the contract has an empty name".into(),
            raw.name.span(),
            None,
        ));
    }
    let keyspace = match raw.keyspace {
        Some(ks) => Some(compile_keyspace(ks)?),
        None => None,
    };
    let mut records = Vec::new();
    for (rname, rec) in raw.records {
        let span = rec.span();
        let rec = rec.into_inner();
        let tname = rec.type_name.get_ref().clone();
        if let Some(ks) = &keyspace {
            if ks.type_named(&tname).is_none() {
                return Err((
                    format!("record `{rname}` lives at type `{tname}`, which [keyspace.types] does not define"),
                    rec.type_name.span(),
                    suggest(&tname, ks.types.iter().map(|t| t.name.as_str())),
                ));
            }
        }
        let fields_span = rec.fields.span();
        let fields: Vec<(String, Range<usize>)> = rec
            .fields
            .into_inner()
            .into_iter()
            .map(|f| (f.get_ref().clone(), f.span()))
            .collect();
        if fields.is_empty() {
            return Err((format!("record `{rname}` has no fields"), fields_span, None));
        }
        for (i, (f, s)) in fields.iter().enumerate() {
            if f.is_empty() {
                return Err(("a field name is empty".into(), s.clone(), None));
            }
            if fields[..i].iter().any(|(g, _)| g == f) {
                return Err((format!("field `{f}` is listed twice"), s.clone(), None));
            }
        }
        records.push(Record {
            name: rname,
            type_name: tname,
            fields,
            span,
            fields_span,
        });
    }
    if let Some(ks) = &keyspace {
        check_record_types(ks, &records)?;
    }
    let mut scripts = Vec::new();
    for (sname, sc) in raw.scripts {
        let name_span = sc.span();
        let sc = sc.into_inner();
        let keys_span = sc
            .keys
            .as_ref()
            .map(|k| k.span())
            .unwrap_or(name_span.clone());
        let creates = match sc.creates {
            Some(c) => {
                if !records.iter().any(|r| &r.name == c.get_ref()) {
                    return Err((
                        format!(
                            "script `{sname}` creates record `{}`, which is not defined",
                            c.get_ref()
                        ),
                        c.span(),
                        suggest(c.get_ref(), records.iter().map(|r| r.name.as_str())),
                    ));
                }
                Some(c.into_inner())
            }
            None => None,
        };
        scripts.push(ScriptSpec {
            name: sname,
            name_span,
            keys: sc
                .keys
                .map(Spanned::into_inner)
                .unwrap_or_default()
                .into_iter()
                .map(|k| (k.get_ref().clone(), k.span()))
                .collect(),
            keys_span,
            argv: sc
                .argv
                .into_iter()
                .map(|a| (a.get_ref().clone(), a.span()))
                .collect(),
            creates,
        });
    }
    let speakers = raw
        .speakers
        .into_iter()
        .map(|(n, s)| {
            let s = s.into_inner();
            SpeakerSpec {
                name: n,
                path: s.path.get_ref().trim_end_matches('/').to_string(),
                canonical: s.canonical,
            }
        })
        .collect();
    let retired = compile_retired(raw.retired, &records)?;
    if keyspace.is_none() && records.is_empty() && scripts.is_empty() {
        return Err((
            "the contract is empty: it declares no [keyspace], [records] or [scripts]".into(),
            0..text.len().min(1),
            Some("see rules/echomq.toml for a complete example".into()),
        ));
    }
    Ok(Contract {
        name,
        origin: origin.to_string(),
        embedded: false,
        text: text.to_string(),
        keyspace,
        records,
        scripts,
        speakers,
        retired,
    })
}

fn compile_retired(raw: Option<RawRetired>, records: &[Record]) -> Result<Retired, CompileError> {
    let Some(raw) = raw else {
        return Ok(Retired::default());
    };
    let mut out = Retired::default();
    for k in raw.keys {
        let span = k.span();
        let text = k.into_inner();
        let toks = parse_pattern(&text)
            .map_err(|m| (format!("retired key `{text}`: {m}"), span.clone(), None))?;
        if toks.is_empty() || !text.contains(':') {
            return Err((
                format!("retired key `{text}` is not a key template"),
                span,
                Some("write the whole key, e.g. \"emq:{<queue>}:old:<id>\"".into()),
            ));
        }
        out.keys.push((text, span));
    }
    for (rec, fields) in raw.fields {
        let span = fields.span();
        if rec.contains(':') {
            parse_pattern(&rec).map_err(|m| {
                (
                    format!("retired fields of `{rec}`: {m}"),
                    span.clone(),
                    None,
                )
            })?;
        } else if !records.iter().any(|r| r.name == rec) {
            return Err((
                format!("retired fields of record `{rec}`, which [records] does not define"),
                span,
                suggest(&rec, records.iter().map(|r| r.name.as_str())).or_else(|| {
                    Some("name a record of [records], or write its key template".into())
                }),
            ));
        }
        for f in fields.into_inner() {
            let fspan = f.span();
            if f.get_ref().is_empty() {
                return Err(("a retired field name is empty".into(), fspan, None));
            }
            out.fields.push((rec.clone(), f.into_inner(), fspan));
        }
    }
    for s in raw.scripts {
        if s.get_ref().trim().is_empty() {
            return Err(("a retired script name is empty".into(), s.span(), None));
        }
        out.scripts.push((s.get_ref().clone(), s.span()));
    }
    Ok(out)
}

fn compile_keyspace(ks: Spanned<RawKeyspace>) -> Result<Keyspace, CompileError> {
    let ks = ks.into_inner();
    let pattern = ks.key.get_ref().clone();
    let span = ks.key.span();
    let shape_help = Some(
        "write the key as `<prefix>{<queue>}<separator><type>` (with a hash tag) or `<prefix><queue><separator><type>`, e.g. \"emq:{<queue>}:<type>\"".to_string(),
    );
    let bad = |m: &str| {
        (
            format!("the key pattern `{pattern}` {m}"),
            span.clone(),
            shape_help.clone(),
        )
    };
    let q = pattern
        .find("<queue>")
        .ok_or_else(|| bad("has no <queue>"))?;
    if !pattern.ends_with("<type>") {
        return Err(bad("must end with <type>"));
    }
    let before = &pattern[..q];
    let (prefix, hash_tag) = match before.strip_suffix('{') {
        Some(p) => (p.to_string(), true),
        None => (before.to_string(), false),
    };
    let after_q = &pattern[q + "<queue>".len()..pattern.len() - "<type>".len()];
    let separator = if hash_tag {
        after_q
            .strip_prefix('}')
            .ok_or_else(|| bad("opens a hash tag `{` that does not close right after <queue>"))?
    } else {
        after_q
    };
    if prefix.contains(['<', '>', '{', '}']) || separator.contains(['<', '>', '{', '}']) {
        return Err(bad("has a placeholder or brace out of place"));
    }
    if separator.is_empty() {
        return Err(bad("needs a separator between the queue and <type>"));
    }
    if let Some(m) = unmatchable(&prefix).or_else(|| unmatchable(separator)) {
        return Err(bad(&format!("cannot match any key: {m}")));
    }
    let mut types = Vec::new();
    for (tname, t) in ks.types {
        let tspan = t.span();
        let text = t.into_inner();
        let pattern = parse_pattern(&text)
            .map_err(|m| (format!("key type `{tname}`: {m}"), tspan.clone(), None))?;
        if pattern.is_empty() {
            return Err((format!("key type `{tname}` is empty"), tspan, None));
        }
        if let Some(m) = unmatchable(&text) {
            return Err((
                format!("key type `{tname}` cannot match any key: {m}"),
                tspan,
                None,
            ));
        }
        types.push(KeyType {
            name: tname,
            text,
            pattern,
            span: tspan,
        });
    }
    if types.is_empty() {
        return Err((
            "the keyspace declares no types".into(),
            span,
            Some("add [keyspace.types], e.g. job = \"job:<id>\"".into()),
        ));
    }
    let redis_types = compile_redis_types(ks.redis, &types)?;
    let holds = compile_holds(ks.holds, &types, &redis_types)?;
    Ok(Keyspace {
        pattern: pattern.clone(),
        pattern_span: span,
        prefix,
        hash_tag,
        separator: separator.to_string(),
        types,
        clustered: ks.clustered.unwrap_or(hash_tag),
        redis_types,
        holds,
    })
}

/// The error for a name that `[keyspace.types]` does not define.
fn undefined_type(table: &str, name: &str, span: Range<usize>, types: &[KeyType]) -> CompileError {
    (
        format!(
            "[keyspace.{table}] names key type `{name}`, which [keyspace.types] does not define"
        ),
        span,
        suggest(name, types.iter().map(|t| t.name.as_str())),
    )
}

/// `[keyspace.redis]`: every key a defined type, every value a Redis type.
fn compile_redis_types(
    raw: BTreeMap<String, Spanned<String>>,
    types: &[KeyType],
) -> Result<Vec<RedisTypeSpec>, CompileError> {
    let mut out = Vec::new();
    for (tname, r) in raw {
        let span = r.span();
        if !types.iter().any(|t| t.name == tname) {
            return Err(undefined_type("redis", &tname, span, types));
        }
        let redis = r.into_inner();
        if !REDIS_TYPES.contains(&redis.as_str()) {
            let help = suggest(&redis, REDIS_TYPES.iter().copied())
                .unwrap_or_else(|| format!("a Redis type is one of {}", REDIS_TYPES.join(", ")));
            return Err((
                format!("key type `{tname}`: `{redis}` is not a Redis type"),
                span,
                Some(help),
            ));
        }
        out.push(RedisTypeSpec {
            type_name: tname,
            redis,
            span,
        });
    }
    Ok(out)
}

/// `[keyspace.holds]`: a holder is a defined list, set or sorted set; what
/// it holds is a defined type with exactly one placeholder (the member).
fn compile_holds(
    raw: BTreeMap<String, Spanned<String>>,
    types: &[KeyType],
    redis_types: &[RedisTypeSpec],
) -> Result<Vec<Holds>, CompileError> {
    let mut out = Vec::new();
    for (holder, h) in raw {
        let span = h.span();
        if !types.iter().any(|t| t.name == holder) {
            return Err(undefined_type("holds", &holder, span, types));
        }
        let held = h.into_inner();
        let Some(t) = types.iter().find(|t| t.name == held) else {
            return Err(undefined_type("holds", &held, span, types));
        };
        let vars = t
            .pattern
            .iter()
            .filter(|p| matches!(p, PatTok::Var(_)))
            .count();
        if vars != 1 {
            return Err((
                format!("`{holder}` holds `{held}`, whose key `{}` has {vars} placeholders; a member names one key only with exactly one", t.text),
                span,
                None,
            ));
        }
        if let Some(r) = redis_types.iter().find(|r| r.type_name == holder) {
            if !matches!(r.redis.as_str(), "list" | "set" | "zset") {
                return Err((
                    format!(
                        "`{holder}` holds members, but [keyspace.redis] makes it a {}",
                        r.redis
                    ),
                    span,
                    Some("a holder is a list, a set or a zset".into()),
                ));
            }
        }
        out.push(Holds { holder, held, span });
    }
    Ok(out)
}

/// A record lives in a hash: `[keyspace.redis]` may not say otherwise.
fn check_record_types(ks: &Keyspace, records: &[Record]) -> Result<(), CompileError> {
    for r in records {
        if let Some(spec) = ks.redis_type_of(&r.type_name).filter(|s| s.redis != "hash") {
            return Err((
                format!(
                    "record `{}` lives at key type `{}`, so its keys are hashes, but [keyspace.redis] says {}",
                    r.name, r.type_name, spec.redis
                ),
                spec.span.clone(),
                Some(format!("write {} = \"hash\"", r.type_name)),
            ));
        }
    }
    Ok(())
}

/// Why a literal piece of a key pattern can match no key wirelint reads:
/// keys in code are read only when their literal bytes hold no white space
/// (see `extract::is_key_candidate`) and no control characters.
fn unmatchable(lit: &str) -> Option<String> {
    let c = lit.chars().find(|c| c.is_whitespace() || c.is_control())?;
    Some(format!(
        "it holds {:?}, and keys with white space or control characters are never read as keys",
        c
    ))
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

/// "did you mean `x`?" for the closest candidate within a small edit
/// distance.
pub fn suggest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let best = candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= (c.len().max(word.len()) / 3).max(1))
        .min()?;
    Some(format!("did you mean `{}`?", best.1))
}

/// Edit distance over chars (optimal string alignment: insertions,
/// deletions, substitutions and adjacent transpositions each cost one).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

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
