//! Evaluation: aliases and wrappers of `redis.call`, strings built by the
//! library, and the ARGV reads every caller must supply.

use super::extract_chunk;
use crate::facts::{Command, LuaFacts, Span, Value};
use crate::parse::Parsers;

fn facts(src: &str) -> LuaFacts {
    let mut p = Parsers::new().unwrap();
    let tree = p.parse(crate::facts::Lang::Lua, src.as_bytes()).unwrap();
    extract_chunk(tree.root_node(), src.as_bytes(), 0)
}

fn at(src: &str, needle: &str) -> u32 {
    src.find(needle).expect("needle") as u32
}

/// A command as `HSET <KEYS[1]> state pending`.
fn show(c: &Command) -> String {
    let mut out = c.name.clone();
    for a in &c.args {
        out.push(' ');
        out.push_str(&a.describe());
    }
    if c.open_tail {
        out.push_str(" …");
    }
    out
}

fn shown(f: &LuaFacts) -> Vec<String> {
    f.commands.iter().map(show).collect()
}

fn required(f: &LuaFacts) -> Vec<u32> {
    f.argv.required.iter().map(|r| r.0).collect()
}

#[test]
fn aliases_of_redis_call_are_redis_call() {
    let src = "local rcall = redis.call\n\
               local r = redis\n\
               local function touch(k)\n  rcall('HSET', k, 'seen', '1')\nend\n\
               rcall('HSET', KEYS[1], 'data', ARGV[1])\n\
               r.pcall('HGET', KEYS[1], 'state')\n\
               touch(KEYS[2])\n";
    let f = facts(src);
    assert_eq!(
        shown(&f),
        vec![
            "HSET KEYS[1] data ARGV[1]",
            "HGET KEYS[1] state",
            "HSET KEYS[2] seen 1",
        ]
    );
    // The upvalue's call runs at `touch(KEYS[2])`: the command is there,
    // its key at the call site, the field where the body names it.
    let touch = &f.commands[2];
    assert_eq!(touch.span.start, at(src, "touch(KEYS[2])"));
    assert_eq!(touch.args[0].span().start, at(src, "KEYS[2]"));
    assert_eq!(touch.args[1].span().start, at(src, "'seen'"));
}

#[test]
fn wrappers_forward_their_arguments() {
    let src = "local function hset(key, ...)\n  return redis.call('HSET', key, ...)\nend\n\
               local function put(key, a, b)\n  redis.call('HSET', key, unpack({a, b}))\nend\n\
               local function send(cmd, ...) return redis.call(cmd, ...) end\n\
               hset(KEYS[1], 'payload', ARGV[2], 'attempts', 0)\n\
               put(KEYS[1], 'state', 'pending')\n\
               send('ZADD', KEYS[2], 0, ARGV[1])\n\
               local fields = {'state', 'done'}\n\
               redis.call('HSET', KEYS[1], unpack(fields))\n\
               redis.call('HSET', KEYS[1], unpack(ARGV))\n\
               redis.call('HSET', KEYS[1], unpack({'a', 1, 'b', 2}, 3, 4))\n\
               redis.call('HSET', KEYS[1], unpack({'a', 1}, 1, 4))\n";
    let f = facts(src);
    assert_eq!(
        shown(&f),
        vec![
            "HSET KEYS[1] payload ARGV[2] attempts 0",
            "HSET KEYS[1] state pending",
            "ZADD KEYS[2] 0 ARGV[1]",
            "HSET KEYS[1] state done",
            "HSET KEYS[1] …",
            "HSET KEYS[1] b 2",
            "HSET KEYS[1] a 1 …",
        ]
    );
    let hset = &f.commands[0];
    assert_eq!(hset.span.start, at(src, "hset(KEYS[1]"));
    assert_eq!(hset.args[1].span().start, at(src, "'payload'"));
    assert_eq!(hset.name_span.start, at(src, "HSET', key, ..."));
    assert_eq!(f.commands[2].name_span.start, at(src, "ZADD"));
}

#[test]
fn strings_are_built_and_functions_return_them() {
    let src = "local a, b = KEYS[1], 'emq:'\n\
               local function job_key(id) return b .. '{' .. ARGV[1] .. '}:job:' .. id end\n\
               redis.call('HGET', job_key(ARGV[2]), 'state')\n\
               redis.call('GET', table.concat({b, 'x', ARGV[3]}, ':'))\n\
               redis.call('GET', string.format('%s:%s', b, 'y'))\n\
               redis.call('LPUSH', a, ARGV[2])\n";
    let f = facts(src);
    assert_eq!(
        shown(&f),
        vec![
            "HGET emq:{<ARGV[1]>}:job:<ARGV[2]> state",
            "GET emq::x:<ARGV[3]>",
            "GET emq::y",
            "LPUSH KEYS[1] ARGV[2]",
        ]
    );
    let aliases: Vec<(u32, &str)> = f
        .aliases
        .iter()
        .map(|d| (d.index, d.role.as_str()))
        .collect();
    assert_eq!(aliases, vec![(1, "a")]);
}

#[test]
fn a_variable_set_in_both_arms_holds_either() {
    let src = "local key\n\
               if ARGV[1] == '' then key = KEYS[1] .. ':a' else key = KEYS[1] .. ':b' end\n\
               local cmd = ARGV[2] == 'l' and 'LPUSH' or 'RPUSH'\n\
               redis.call(cmd, key, 'x')\n";
    let f = facts(src);
    assert_eq!(
        shown(&f),
        vec![
            "LPUSH <KEYS[1]>:a | <KEYS[1]>:b x",
            "RPUSH <KEYS[1]>:a | <KEYS[1]>:b x"
        ]
    );
}

#[test]
fn recursion_and_depth_are_bounded() {
    let f = facts("local function f(x) redis.call('GET', x) return f(x) end\nf(KEYS[1])\n");
    assert_eq!(shown(&f), vec!["GET KEYS[1]"]);
    let deep = format!(
        "{}redis.call('GET', KEYS[1]){}",
        "do ".repeat(300),
        " end".repeat(300)
    );
    // Past the depth bound the call is read as written.
    assert_eq!(shown(&facts(&deep)), vec!["GET KEYS[1]"]);
}

#[test]
fn a_function_nobody_calls_runs_with_unknown_parameters() {
    let f = facts("local function g(k) redis.call('HSET', k, 'state', 'x') end\n");
    assert_eq!(shown(&f), vec!["HSET k state x"]);
    assert!(matches!(f.commands[0].args[0], Value::Unknown { .. }));
}

#[test]
fn required_reads_follow_the_paths_that_run() {
    let src = "local rcall = redis.call\n\
               local id = ARGV[1]\n\
               local n = tonumber(ARGV[3]) or 0\n\
               local opt = ARGV[7] or 'x'\n\
               if ARGV[2] == \"\" then redis.call('DEL', ARGV[8]) end\n\
               rcall('HSET', KEYS[1], 'id', id, 'n', n + 1)\n\
               local function f(a) return tonumber(ARGV[5]) end\n\
               if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end\n\
               redis.call('SET', KEYS[2], ARGV[6])\n";
    let f = facts(src);
    // `ARGV[8]` is behind a test of the caller's `ARGV[2]`; `ARGV[6]` is
    // after a return on Redis state, which the normal path gets past.
    assert_eq!(required(&f), vec![1, 6]);
    assert_eq!(f.argv.required[0].1.start, at(src, "id, 'n'"));
}

#[test]
fn a_return_chosen_by_the_caller_makes_the_rest_optional() {
    let f = facts("if ARGV[1] == '' then return 0 end\nredis.call('GET', ARGV[2])\n");
    assert!(required(&f).is_empty());
    let f = facts("if #ARGV < 3 then return 0 end\nredis.call('GET', ARGV[3])\n");
    assert!(required(&f).is_empty());
    // A return of an error reply is no way out.
    let f = facts("if ARGV[1] == '' then return {err = 'x'} end\nredis.call('GET', ARGV[2])\n");
    assert_eq!(required(&f), vec![2]);
    let gate =
        "if string.sub(ARGV[1], 1, 3) ~= 'JOB' then return redis.error_reply('EMQKIND') end\n";
    let f = facts(&format!(
        "{gate}redis.call('HSET', KEYS[1], 'payload', ARGV[2])\n"
    ));
    assert_eq!(required(&f), vec![1, 2]);
    // A lock held, a value read: Redis state, the normal path reads on.
    let f = facts(
        "local owner = redis.call('GET', KEYS[2])\n\
         if owner then return 0 end\n\
         local t = redis.call('TIME')\n\
         if tonumber(t[1]) > 5 then redis.call('SET', KEYS[1], ARGV[3]) end\n",
    );
    assert_eq!(required(&f), vec![3]);
}

#[test]
fn required_reads_through_wrappers_and_defaults() {
    let src = "local function set(k, v) return redis.call('SET', k, v) end\n\
               set(KEYS[1], ARGV[1])\n\
               local x = ARGV[2]\n\
               if x == nil then x = '0' end\n\
               set(KEYS[2], x)\n\
               local y = ARGV[4] or 'd'\n\
               set(KEYS[3], y .. ':' .. ARGV[5])\n";
    let f = facts(src);
    assert_eq!(required(&f), vec![1, 5]);
    let read: Vec<Span> = f.argv.required.iter().map(|r| r.1).collect();
    assert_eq!(read[0].start, at(src, "ARGV[1]"));
}

#[test]
fn calls_of_functions_defined_elsewhere_are_recorded() {
    let src =
        "local rcall = redis.call\nstore(KEYS[1], 'x', 'a', ARGV[1])\nrcall('GET', KEYS[1])\n\
               local n = tonumber(ARGV[2])\n";
    let f = facts(src);
    let names: Vec<&str> = f.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["store"]);
    assert_eq!(f.calls[0].args.len(), 4);
    assert_eq!(f.calls[0].span.start, at(src, "store("));
}

#[test]
fn deep_expressions_and_calls_stay_on_the_stack() {
    let parens = format!(
        "redis.call('GET', {}KEYS[1]{})\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(shown(&facts(&parens)).len(), 1);
    let calls = format!(
        "local function f(x) return x end\nredis.call('GET', {}KEYS[1]{})\n",
        "f(".repeat(2000),
        ")".repeat(2000)
    );
    assert_eq!(shown(&facts(&calls)).len(), 1);
    let concat = format!("redis.call('GET', 'a'{})\n", " .. 'b'".repeat(20000));
    assert_eq!(shown(&facts(&concat)).len(), 1);
}

#[test]
fn a_top_level_function_is_summarized_with_its_parameters() {
    let src = "local rcall = redis.call\nlocal function put(key, v)\n  redis.call('HSET', key, 'body', v)\n  rcall('DEL', key .. ':lock')\nend\nlocal function store(jobKey, ...)\n  put(jobKey, 'x')\n  emit(jobKey, ...)\nend\nfunction quiet() end\nlocal bound = function(k) rcall('GET', k) end\n";
    let f = facts(src);
    assert_eq!(f.redis_names, ["rcall"]);
    // One that sends nothing is kept (a call of it is seen, and sends
    // nothing); `local f = function` is a function like `local function f`.
    let names: Vec<&str> = f.functions.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["put", "store", "quiet", "bound"]);
    assert!(f.functions[2].commands.is_empty());
    let bound: Vec<String> = f.functions[3].commands.iter().map(show).collect();
    assert_eq!(bound, ["GET k"]);
    let put = &f.functions[0];
    let cmds: Vec<String> = put.commands.iter().map(show).collect();
    assert_eq!(cmds, ["HSET key body v", "DEL <key>:lock"]);
    // A command in the function spans itself, not a caller.
    assert_eq!(put.commands[0].span.start, at(src, "redis.call('HSET'"));
    let store = &f.functions[1];
    let cmds: Vec<String> = store.commands.iter().map(show).collect();
    assert_eq!(cmds, ["HSET jobKey body x", "DEL <jobKey>:lock"]);
    // Spans at the call of `put`, the outermost call inside `store`.
    assert_eq!(store.commands[0].span.start, at(src, "put(jobKey"));
    assert_eq!(store.calls.len(), 1);
    assert_eq!(store.calls[0].name, "emit");
    assert!(store.calls[0].open);
    assert!(matches!(
        store.calls[0].args[0],
        Value::Param { index: 0, .. }
    ));
}

#[test]
fn items_of_a_decoded_argument_are_what_the_caller_packed() {
    let src = "local args = cmsgpack.unpack(ARGV[1])\n\
               local opts = cjson.decode(ARGV[2])\n\
               local row = args[1] .. args[2]\n\
               redis.call('HSET', row, 'kind', args[3], 'lane', opts[1])\n\
               redis.call('HGET', row, args.name)\n\
               redis.call('GET', cmsgpack.unpack(KEYS[1])[1])\n";
    let f = facts(src);
    assert_eq!(
        shown(&f),
        vec![
            "HSET <ARGV[1][1]><ARGV[1][2]> kind ARGV[1][3] lane ARGV[2][1]",
            "HGET <ARGV[1][1]><ARGV[1][2]> name",
            "GET KEYS[1][1]",
        ]
    );
    // An item is the lookup of its position in the decoding, in the
    // format the script decodes.
    let Value::Op { op, args, .. } = &f.commands[0].args[2] else {
        panic!("an item is a lookup");
    };
    assert_eq!(op, &crate::facts::Op::Lookup);
    let (format, inner) = crate::facts::serial_of(&crate::facts::Op::Decode, &args[0]).unwrap();
    assert_eq!(format, "msgpack");
    assert!(matches!(inner, Value::Argv { index: Some(1), .. }));
    assert_eq!(f.commands[0].args[2].span().start, at(src, "args[3]"));
}

/// A table the script adds to holds more than its constructor shows:
/// `unpack` of it may spread more (the command's fields are not all seen).
#[test]
fn a_table_grown_by_insert_or_index_spreads_more_than_it_shows() {
    let src = "local extra = {}\n\
               if ARGV[2] then\n  table.insert(extra, 'tz')\n  table.insert(extra, ARGV[2])\nend\n\
               redis.call('HSET', KEYS[1], 'name', ARGV[1], unpack(extra))\n\
               local more = {'a', 1}\n\
               more[#more + 1] = 'b'\n\
               redis.call('HSET', KEYS[2], unpack(more))\n\
               local fixed = {'c', 2}\n\
               redis.call('HSET', KEYS[3], unpack(fixed))\n";
    let f = facts(src);
    assert_eq!(
        shown(&f),
        vec![
            "HSET KEYS[1] name ARGV[1] …",
            "HSET KEYS[2] a 1 …",
            "HSET KEYS[3] c 2",
        ]
    );
}
