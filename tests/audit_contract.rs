//! The contract's optional `[keyspace.redis]` and `[keyspace.holds]` tables
//! (read by `wirelint audit`): loaded, and every error points into the file.

use wirelint::contract::Contract;

const BASE: &str = "name = \"x\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n[keyspace.types]\njob = \"job:<id>\"\npending = \"pending\"\nlog = \"log:<id>:<n>\"\n[records.job]\ntype = \"job\"\nfields = [\"state\"]\n";

fn parse(extra: &str) -> Result<Contract, (String, String, Option<String>)> {
    let text = format!("{BASE}{extra}");
    Contract::parse(&text, "c.toml").map_err(|e| {
        let at = e
            .span
            .clone()
            .map(|s| text[s].to_string())
            .unwrap_or_default();
        (e.message.clone(), at, e.help.clone())
    })
}

#[test]
fn the_embedded_contract_states_redis_types_and_holders() {
    let c = Contract::embedded();
    let ks = c.keyspace.as_ref().unwrap();
    let types: Vec<(&str, &str)> = ks
        .redis_types
        .iter()
        .map(|r| (r.type_name.as_str(), r.redis.as_str()))
        .collect();
    assert_eq!(types, [("job", "hash"), ("pending", "zset")]);
    assert_eq!(ks.holds.len(), 1);
    assert_eq!(
        (ks.holds[0].holder.as_str(), ks.holds[0].held.as_str()),
        ("pending", "job")
    );
    assert_eq!(&c.text[ks.holds[0].span.clone()], "\"job\"");
}

#[test]
fn both_tables_are_optional() {
    let c = parse("").unwrap();
    let ks = c.keyspace.unwrap();
    assert!(ks.redis_types.is_empty() && ks.holds.is_empty());
}

#[test]
fn a_redis_type_must_be_one_redis_knows() {
    let e = parse("[keyspace.redis]\npending = \"sortedset\"\n").unwrap_err();
    assert_eq!(e.0, "key type `pending`: `sortedset` is not a Redis type");
    assert_eq!(e.1, "\"sortedset\"");
    assert_eq!(
        e.2.as_deref(),
        Some("a Redis type is one of string, hash, list, set, zset, stream")
    );
    let e = parse("[keyspace.redis]\npending = \"zsets\"\n").unwrap_err();
    assert_eq!(e.2.as_deref(), Some("did you mean `zset`?"));
}

#[test]
fn a_redis_type_names_a_defined_key_type() {
    let e = parse("[keyspace.redis]\npendng = \"zset\"\n").unwrap_err();
    assert_eq!(
        e.0,
        "[keyspace.redis] names key type `pendng`, which [keyspace.types] does not define"
    );
    assert_eq!(e.1, "\"zset\"");
    assert_eq!(e.2.as_deref(), Some("did you mean `pending`?"));
}

#[test]
fn a_record_key_is_a_hash() {
    let e = parse("[keyspace.redis]\njob = \"string\"\n").unwrap_err();
    assert_eq!(
        e.0,
        "record `job` lives at key type `job`, so its keys are hashes, but [keyspace.redis] says string"
    );
    assert_eq!(e.1, "\"string\"");
    assert_eq!(e.2.as_deref(), Some("write job = \"hash\""));
}

#[test]
fn holders_are_checked() {
    let e = parse("[keyspace.holds]\npending = \"jobs\"\n").unwrap_err();
    assert_eq!(
        e.0,
        "[keyspace.holds] names key type `jobs`, which [keyspace.types] does not define"
    );
    assert_eq!(e.2.as_deref(), Some("did you mean `job`?"));
    let e = parse("[keyspace.holds]\npending = \"log\"\n").unwrap_err();
    assert_eq!(
        e.0,
        "`pending` holds `log`, whose key `log:<id>:<n>` has 2 placeholders; a member names one key only with exactly one"
    );
    assert_eq!(e.1, "\"log\"");
    let e = parse("[keyspace.redis]\npending = \"hash\"\n[keyspace.holds]\npending = \"job\"\n")
        .unwrap_err();
    assert_eq!(
        e.0,
        "`pending` holds members, but [keyspace.redis] makes it a hash"
    );
    assert_eq!(e.2.as_deref(), Some("a holder is a list, a set or a zset"));
    let ok = parse("[keyspace.redis]\npending = \"list\"\n[keyspace.holds]\npending = \"job\"\n");
    assert!(ok.is_ok());
}

#[test]
fn an_unknown_key_in_the_keyspace_suggests_the_new_tables() {
    let e = parse("[keyspace.hold]\npending = \"job\"\n").unwrap_err();
    assert_eq!(e.0, "unknown key `hold`");
    assert_eq!(e.2.as_deref(), Some("did you mean `holds`?"));
}

/// `[records.X] state`: one of the record's fields (the embedded contract
/// names `state`), else an error at the value with a "did you mean".
#[test]
fn a_record_state_is_one_of_its_fields() {
    assert_eq!(
        Contract::embedded().records[0].state.as_deref(),
        Some("state")
    );
    assert_eq!(
        parse("state = \"state\"\n").unwrap().records[0]
            .state
            .as_deref(),
        Some("state")
    );
    assert_eq!(
        parse("state = \"stat\"\n").unwrap_err(),
        (
            "the state of record `job` is field `stat`, which its fields do not list".into(),
            "\"stat\"".into(),
            Some("did you mean `state`?".into())
        )
    );
}

/// `[records.X] always`: fields of the record, each an error at the value
/// with a "did you mean" otherwise; without it every field is always
/// written.
#[test]
fn a_records_always_fields_are_among_its_fields() {
    let c = parse("always = []\n").unwrap();
    assert!(!c.records[0].always_written("state"));
    assert!(parse("always = [\"state\"]\n").unwrap().records[0].always_written("state"));
    assert!(Contract::embedded().records[0].always_written("attempts"));
    assert_eq!(
        parse("always = [\"stat\"]\n").unwrap_err(),
        (
            "record `job` is always written with field `stat`, which its fields do not list".into(),
            "\"stat\"".into(),
            Some("did you mean `state`?".into())
        )
    );
}
