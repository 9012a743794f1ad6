//! The tables of a keyspace that only live data needs (`wirelint audit`):
//! `[keyspace.redis]`, each key type's Redis type, and `[keyspace.holds]`,
//! the key types whose members name rows of another type.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::Spanned;

use super::{
    by_name, suggest, Holds, KeyType, Keyspace, PatTok, Record, RedisTypeSpec, REDIS_TYPES,
};

type CompileError = (String, Range<usize>, Option<String>);

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
pub(super) fn compile_redis_types(
    raw: BTreeMap<String, Spanned<String>>,
    types: &[KeyType],
) -> Result<Vec<RedisTypeSpec>, CompileError> {
    let mut out = Vec::new();
    for (tname, r) in raw {
        let span = r.span();
        if by_name(types, &tname, |t| &t.name).is_none() {
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
pub(super) fn compile_holds(
    raw: BTreeMap<String, Spanned<String>>,
    types: &[KeyType],
    redis_types: &[RedisTypeSpec],
) -> Result<Vec<Holds>, CompileError> {
    let mut out = Vec::new();
    for (holder, h) in raw {
        let span = h.span();
        if by_name(types, &holder, |t| &t.name).is_none() {
            return Err(undefined_type("holds", &holder, span, types));
        }
        let held = h.into_inner();
        let Some(t) = by_name(types, &held, |t| &t.name) else {
            return Err(undefined_type("holds", &held, span, types));
        };
        let vars = t
            .pattern
            .iter()
            .filter(|p| matches!(p, PatTok::Var(v) if !(t.whole && v == "queue")))
            .count();
        if vars != 1 {
            return Err((
                format!("`{holder}` holds `{held}`, whose key `{}` has {vars} placeholders; a member names one key only with exactly one", t.text),
                span,
                None,
            ));
        }
        if let Some(r) = by_name(redis_types, &holder, |r| &r.type_name) {
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
pub(super) fn check_record_types(ks: &Keyspace, records: &[Record]) -> Result<(), CompileError> {
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
