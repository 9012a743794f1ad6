//! From the TOML as read to a validated [`Contract`]: every error points at
//! its bytes in the file (a message, a span, and a did-you-mean).

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{
    by_name, live, parse_pattern, suggest, Contract, IdSpec, KeyType, Keyspace, PatTok, Record,
    Retired, ScriptSpec, SpeakerSpec,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContract {
    name: Spanned<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    keyspace: Option<Spanned<RawKeyspace>>,
    #[serde(default)]
    scripts_build_keys: bool,
    #[serde(default)]
    records: BTreeMap<String, Spanned<RawRecord>>,
    #[serde(default)]
    scripts: BTreeMap<String, Spanned<RawScript>>,
    #[serde(default)]
    speakers: BTreeMap<String, Spanned<RawSpeaker>>,
    #[serde(default)]
    retired: Option<RawRetired>,
    #[serde(default)]
    ids: BTreeMap<String, Spanned<RawId>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawId {
    bytes: Spanned<u32>,
    kind: Spanned<String>,
    gate: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRetired {
    #[serde(default)]
    keys: Vec<Spanned<String>>,
    #[serde(default)]
    fields: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    scripts: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawKeyspace {
    #[serde(default)]
    key: Option<Spanned<String>>,
    #[serde(default)]
    prefix: Option<Spanned<String>>,
    #[serde(default)]
    keys: BTreeMap<String, Spanned<String>>,
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
pub(super) struct RawRecord {
    #[serde(rename = "type")]
    type_name: Spanned<String>,
    fields: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    state: Option<Spanned<String>>,
    #[serde(default)]
    always: Option<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScript {
    #[serde(default)]
    keys: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    argv: Vec<Spanned<String>>,
    #[serde(default)]
    creates: Option<Spanned<String>>,
    #[serde(default)]
    unused: Vec<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSpeaker {
    path: Spanned<String>,
    #[serde(default)]
    canonical: bool,
}

type CompileError = (String, Range<usize>, Option<String>);

pub(super) fn compile(
    raw: RawContract,
    text: &str,
    origin: &str,
    prefix: Option<&str>,
) -> Result<Contract, CompileError> {
    let name = raw.name.get_ref().trim().to_string();
    if name.is_empty() {
        return Err((
            "the contract has an empty name".into(),
            raw.name.span(),
            None,
        ));
    }
    let keyspace = match raw.keyspace {
        Some(ks) => Some(compile_keyspace(ks, prefix)?),
        None => None,
    };
    let records = raw
        .records
        .into_iter()
        .map(|(rname, rec)| compile_record(rname, rec, keyspace.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(ks) = &keyspace {
        live::check_record_types(ks, &records)?;
    }
    let scripts = raw
        .scripts
        .into_iter()
        .map(|(sname, sc)| compile_script(sname, sc, &records))
        .collect::<Result<Vec<_>, _>>()?;
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
    let ids = raw
        .ids
        .into_iter()
        .map(|(rname, id)| compile_id(rname, id, &records))
        .collect::<Result<Vec<_>, _>>()?;
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
        chosen: false,
        drafted: false,
        text: text.to_string(),
        keyspace,
        scripts_build_keys: raw.scripts_build_keys,
        records,
        scripts,
        speakers,
        retired,
        ids,
    })
}

/// `[ids.NAME]`: a record of `[records]`, a length that can hold the brand,
/// a brand and a gate.
fn compile_id(
    rname: String,
    id: Spanned<RawId>,
    records: &[Record],
) -> Result<IdSpec, CompileError> {
    let span = id.span();
    let id = id.into_inner();
    if by_name(records, &rname, |r| &r.name).is_none() {
        return Err((
            format!("ids of record `{rname}`, which [records] does not define"),
            span,
            suggest(&rname, records.iter().map(|r| r.name.as_str())),
        ));
    }
    let kind = id.kind.get_ref().clone();
    if kind.is_empty() || kind.len() as u32 > *id.bytes.get_ref() {
        return Err((
            format!(
                "the brand `{kind}` cannot start an id of {} bytes",
                id.bytes.get_ref()
            ),
            id.kind.span(),
            None,
        ));
    }
    if id.gate.get_ref().trim().is_empty() {
        return Err(("the gate's error is empty".into(), id.gate.span(), None));
    }
    Ok(IdSpec {
        record: rname,
        bytes: *id.bytes.get_ref(),
        kind,
        gate: id.gate.into_inner(),
        span,
    })
}

/// `[records.NAME]`: at a type the keyspace defines, with fields, each
/// named once.
fn compile_record(
    rname: String,
    rec: Spanned<RawRecord>,
    keyspace: Option<&Keyspace>,
) -> Result<Record, CompileError> {
    let span = rec.span();
    let rec = rec.into_inner();
    let tname = rec.type_name.get_ref().clone();
    if let Some(ks) = keyspace {
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
    let mut seen = std::collections::HashSet::with_capacity(fields.len());
    for (f, s) in &fields {
        if f.is_empty() {
            return Err(("a field name is empty".into(), s.clone(), None));
        }
        if !seen.insert(f.as_str()) {
            return Err((format!("field `{f}` is listed twice"), s.clone(), None));
        }
    }
    let state = match rec.state {
        Some(st) if !fields.iter().any(|(f, _)| f == st.get_ref()) => {
            return Err((
                format!(
                    "the state of record `{rname}` is field `{}`, which its fields do not list",
                    st.get_ref()
                ),
                st.span(),
                suggest(st.get_ref(), fields.iter().map(|(f, _)| f.as_str())),
            ))
        }
        st => st.map(Spanned::into_inner),
    };
    let mut always = None;
    if let Some(list) = rec.always {
        let mut names = Vec::with_capacity(list.len());
        for f in list {
            if !fields.iter().any(|(n, _)| n == f.get_ref()) {
                return Err((
                    format!(
                        "record `{rname}` is always written with field `{}`, which its fields do not list",
                        f.get_ref()
                    ),
                    f.span(),
                    suggest(f.get_ref(), fields.iter().map(|(n, _)| n.as_str())),
                ));
            }
            names.push(f.into_inner());
        }
        always = Some(names);
    }
    Ok(Record {
        name: rname,
        type_name: tname,
        fields,
        state,
        always,
        span,
        fields_span,
    })
}

/// `[scripts.NAME]`: its KEYS roles and ARGV, and the record it creates,
/// which must be defined.
fn compile_script(
    sname: String,
    sc: Spanned<RawScript>,
    records: &[Record],
) -> Result<ScriptSpec, CompileError> {
    let name_span = sc.span();
    let sc = sc.into_inner();
    let keys_span = sc
        .keys
        .as_ref()
        .map(|k| k.span())
        .unwrap_or(name_span.clone());
    let creates = match sc.creates {
        Some(c) => {
            if by_name(records, c.get_ref(), |r| &r.name).is_none() {
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
    let keys: Vec<(String, Range<usize>)> = sc
        .keys
        .map(Spanned::into_inner)
        .unwrap_or_default()
        .into_iter()
        .map(|k| (k.get_ref().clone(), k.span()))
        .collect();
    let mut unused = Vec::new();
    for n in sc.unused {
        match u32::try_from(*n.get_ref()) {
            Ok(v) if v >= 1 && v as usize <= keys.len() => unused.push(v),
            _ => {
                return Err((
                    format!(
                        "script `{sname}` lists `{}` as an unused KEYS slot; it declares KEYS[1] to KEYS[{}]",
                        n.get_ref(),
                        keys.len()
                    ),
                    n.span(),
                    None,
                ))
            }
        }
    }
    Ok(ScriptSpec {
        name: sname,
        name_span,
        keys,
        keys_span,
        argv: sc
            .argv
            .into_iter()
            .map(|a| (a.get_ref().clone(), a.span()))
            .collect(),
        creates,
        unused,
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
        } else if by_name(records, &rec, |r| &r.name).is_none() {
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

/// The value of `<prefix>`: `wirelint.toml`'s, else the contract's
/// `prefix`; an error when a template names `<prefix>` and neither gives
/// it, or when `prefix` is given and no template names it.
fn prefix_of(
    ks: &RawKeyspace,
    span: &Range<usize>,
    over: Option<&str>,
) -> Result<Option<(String, Range<usize>)>, CompileError> {
    let used = ks
        .key
        .iter()
        .chain(ks.keys.values())
        .find(|t| t.get_ref().contains(PREFIX));
    match (&ks.prefix, used) {
        (Some(p), None) => Err((
            "`prefix` is set, but no key template names `<prefix>`".into(),
            p.span(),
            Some(
                "write `<prefix>` where the prefix goes, e.g. key = \"<prefix>:<queue>:<type>\""
                    .into(),
            ),
        )),
        (None, Some(t)) if over.is_none() => Err((
            "a key template names `<prefix>`, but [keyspace] gives it no default".into(),
            t.span(),
            Some(
                "add `prefix = \"...\"` to [keyspace] (wirelint.toml's `prefix` overrides it)"
                    .into(),
            ),
        )),
        (p, _) => {
            let at = p.as_ref().map(|p| p.span()).unwrap_or(span.clone());
            let value = over
                .map(str::to_string)
                .or_else(|| p.as_ref().map(|p| p.get_ref().clone()));
            Ok(value.map(|v| (v, at)))
        }
    }
}

/// `<prefix>` in a key template, replaced by its value before the template
/// is read.
const PREFIX: &str = "<prefix>";

fn compile_keyspace(
    ks: Spanned<RawKeyspace>,
    over: Option<&str>,
) -> Result<Keyspace, CompileError> {
    let span = ks.span();
    let ks = ks.into_inner();
    let prefix_value = prefix_of(&ks, &span, over)?;
    let fill = |t: &str| match &prefix_value {
        Some((p, _)) => t.replace(PREFIX, p),
        None => t.to_string(),
    };
    if let Some((p, at)) = &prefix_value {
        if let Some(m) = unmatchable(p).or_else(|| {
            p.contains(['<', '>'])
                .then(|| "it holds a placeholder".to_string())
        }) {
            return Err((
                format!("the prefix `{p}` cannot match any key: {m}"),
                at.clone(),
                None,
            ));
        }
    }
    let mut out = match &ks.key {
        Some(key) => queue_key(&fill(key.get_ref()), key.span(), ks.types)?,
        None => {
            if let Some((name, t)) = ks.types.iter().next() {
                return Err((
                    format!("key type `{name}` follows the queue key, but [keyspace] has no `key`"),
                    t.span(),
                    Some("add key = \"<prefix>{<queue>}:<type>\", or write the whole key in [keyspace.keys]".into()),
                ));
            }
            Keyspace {
                pattern: String::new(),
                pattern_span: span.clone(),
                queue_key: false,
                prefix_value: None,
                prefix: String::new(),
                hash_tag: false,
                separator: String::new(),
                types: Vec::new(),
                clustered: false,
                redis_types: Vec::new(),
                holds: Vec::new(),
            }
        }
    };
    for (tname, t) in ks.keys {
        let tspan = t.span();
        if out.types.iter().any(|k| k.name == tname) {
            return Err((
                format!("key type `{tname}` is defined in [keyspace.types] and [keyspace.keys]"),
                tspan,
                None,
            ));
        }
        let text = fill(t.get_ref());
        let pattern = key_type_pattern(&tname, &text, &tspan)?;
        if !pattern.iter().any(|p| matches!(p, PatTok::Lit(_))) {
            return Err((
                format!("key `{tname}` has no literal bytes, so it would match every key"),
                tspan,
                None,
            ));
        }
        out.types.push(KeyType {
            name: tname,
            text,
            pattern,
            span: tspan,
            whole: true,
        });
    }
    out.types.sort_by(|a, b| a.name.cmp(&b.name));
    if out.types.is_empty() {
        return Err((
            "the keyspace declares no types".into(),
            out.pattern_span.clone(),
            Some("add [keyspace.types], e.g. job = \"job:<id>\", or [keyspace.keys], e.g. queues = \"asynq:queues\"".into()),
        ));
    }
    out.prefix_value = prefix_value;
    out.clustered = ks.clustered.unwrap_or(out.hash_tag);
    out.redis_types = live::compile_redis_types(ks.redis, &out.types)?;
    out.holds = live::compile_holds(ks.holds, &out.types, &out.redis_types)?;
    Ok(out)
}

/// A key type's pattern, read and checked.
fn key_type_pattern(
    tname: &str,
    text: &str,
    tspan: &Range<usize>,
) -> Result<Vec<PatTok>, CompileError> {
    let pattern = parse_pattern(text)
        .map_err(|m| (format!("key type `{tname}`: {m}"), tspan.clone(), None))?;
    if pattern.is_empty() {
        return Err((format!("key type `{tname}` is empty"), tspan.clone(), None));
    }
    if let Some(m) = unmatchable(text) {
        return Err((
            format!("key type `{tname}` cannot match any key: {m}"),
            tspan.clone(),
            None,
        ));
    }
    Ok(pattern)
}

/// `key = "emq:{<queue>}:<type>"` (its `<prefix>` in place) and the types
/// that follow it.
fn queue_key(
    pattern: &str,
    span: Range<usize>,
    raw_types: BTreeMap<String, Spanned<String>>,
) -> Result<Keyspace, CompileError> {
    let pattern = pattern.to_string();
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
    for (tname, t) in raw_types {
        let tspan = t.span();
        let text = t.into_inner();
        let pattern = key_type_pattern(&tname, &text, &tspan)?;
        types.push(KeyType {
            name: tname,
            text,
            pattern,
            span: tspan,
            whole: false,
        });
    }
    if types.is_empty() {
        return Err((
            "the keyspace declares no types".into(),
            span,
            Some("add [keyspace.types], e.g. job = \"job:<id>\"".into()),
        ));
    }
    Ok(Keyspace {
        pattern: pattern.clone(),
        pattern_span: span,
        queue_key: true,
        prefix_value: None,
        prefix,
        hash_tag,
        separator: separator.to_string(),
        types,
        clustered: hash_tag,
        redis_types: Vec::new(),
        holds: Vec::new(),
    })
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
