//! Inputs whose work was quadratic in their size keep their exact findings:
//! a long key prefix in the contract, a Lua name grown step by step. Their
//! time is measured in `benches/hostile.rs` (`long_prefix`,
//! `lua_name_grown_step_by_step`).

use super::*;

/// A contract in the tree whose prefix is 20 KB of `a:` (the prefilter's
/// automaton for it took 40 s to build): a key with that prefix and a type
/// the contract does not know is found, one with a known type is clean.
#[test]
fn a_twenty_kilobyte_prefix_keeps_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prefix = "a:".repeat(10_000);
    let contract = format!(
        "name = \"long\"\n[keyspace]\nkey = \"{prefix}{{<queue>}}:<type>\"\n[keyspace.types]\njob = \"job:<id>\"\n"
    );
    write(d, "long.toml", contract.as_bytes());
    write(d, "wirelint.toml", b"contract = \"long.toml\"\n");
    let lua = format!(
        "redis.call('GET', '{prefix}{{q}}:jobz')\nredis.call('GET', '{prefix}{{q}}:job:1')\n"
    );
    write(d, "s.lua", lua.as_bytes());
    let (code, findings, _) = check_json(d, &[".", "--no-cache"]);
    assert_eq!((code, findings), (1, strs(&["WL103 s.lua:1"])));
}

/// A Lua name grown by `k = k .. KEYS[2]` (each step copied the whole
/// value: 100,000 steps took over a minute) is a hole once it holds more
/// than 256 parts: no finding from it. A name grown 200 steps is read
/// whole, and its bad key type found.
#[test]
fn a_lua_name_grown_past_the_bound_is_a_hole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let grown = |name: &str, n: usize| {
        format!(
            "local {name} = 'emq:{{'\n{}redis.call('GET', {name} .. '}}:jobz')\n",
            format!("{name} = {name} .. KEYS[2]\n").repeat(n)
        )
    };
    let text = format!("{}{}", grown("k", 1_000), grown("j", 200));
    write(d, "s.lua", text.as_bytes());
    write(d, "wirelint.toml", b"ignore = [\"WL310\"]\n");
    let (code, findings, _) = check_json(d, &[".", "--no-cache"]);
    assert_eq!((code, findings), (1, strs(&["WL103 s.lua:1204"])));
}

/// A script of 5,000 `KEYS[n]` references and one of 5,000 `HSET` lines
/// (each took minutes at 100,000 and 160,000): every line is read, so the
/// bad key type after the references and the unknown field on the last
/// `HSET` line are found, and nothing else. Their time: `one_megabyte`
/// (`keys-references`, `hset-lines`) in `benches/hostile.rs`.
#[test]
fn many_keys_references_and_hset_lines_keep_their_findings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut keys: String = (1..=5_000)
        .map(|n| format!("redis.call('GET', KEYS[{n}])\n"))
        .collect();
    keys.push_str("redis.call('GET', 'emq:{q}:jobz')\n");
    write(d, "keys.lua", keys.as_bytes());
    let mut hset = "redis.call('HSET', 'emq:{q}:job:1', 'state', 'pending')\n".repeat(5_000);
    hset.push_str("redis.call('HSET', 'emq:{q}:job:1', 'stat', 'pending')\n");
    write(d, "hset.lua", hset.as_bytes());
    write(d, "wirelint.toml", b"ignore = [\"WL310\"]\n");
    let (code, findings, _) = check_json(d, &[".", "--no-cache"]);
    assert_eq!(
        (code, findings),
        (1, strs(&["WL201 hset.lua:5001", "WL103 keys.lua:5001"]))
    );
}
