//! Lua scripts: inline, `include_str!`, wrappers, registration tables, the
//! text sent; the Rust client fixtures.

use crate::facts::{ScriptSource, Value};

use super::{at, facts, file_path, inline};

#[test]
fn inline_lua_in_raw_string_keeps_host_spans() {
    let src = "fn run(con: &mut C, k: &str, j: &str) {\n    let script = redis::Script::new(r#\"\n        redis.call('HSET', KEYS[1], 'payload', ARGV[1])\n    \"#);\n    script.key(k).key(j).arg(\"x\").invoke(con);\n}\n";
    let f = facts(src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("script"));
    assert_eq!(f.scripts[0].name_span.start, at(src, "script ="));
    let lua = inline(&f.scripts[0]);
    assert_eq!(lua.commands.len(), 1);
    let arg = &lua.commands[0].args[1];
    assert_eq!(arg.as_str().as_deref(), Some("payload"));
    let Value::Str(t) = arg else { panic!() };
    let sp = t.segs[0].span();
    assert_eq!(&src[sp.start as usize..sp.end as usize], "payload");
    assert_eq!(sp.start, at(src, "payload"));
    assert_eq!(f.script_calls.len(), 1);
    let call = &f.script_calls[0];
    assert!(matches!(call.script, Value::ScriptRef { index: 0, .. }));
    assert_eq!(call.keys.len(), 2);
    assert!(matches!(call.keys[1], Value::Param { index: 2, .. }));
    assert_eq!(call.args[0].as_str().as_deref(), Some("x"));
    assert!(!call.open_keys);
}

#[test]
fn named_scripts_in_consts_statics_and_macros() {
    let src = r##"
const MOVE: &str = "local k = KEYS[1]\nredis.call('LPUSH', k, ARGV[1])";
static ENQUEUE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/enqueue.lua")));
static RETRY: OnceLock<Script> = OnceLock::new();
lazy_static! {
    static ref REMOVE: Script = Script::new(include_str!("remove.lua"));
    static ref ACK: redis::Script = redis::Script::new(r#"return redis.call('DEL', KEYS[1])"#);
}
fn go(con: &mut C, q: &str, keys: &[String]) {
    ENQUEUE.key(keys::wait(q)).key(format!("emq:{{{}}}:jobs", q)).arg(1).invoke_async(con).await?;
    let mut inv = REMOVE.prepare_invoke();
    for k in keys { inv.key(k); }
    inv.arg("a").invoke_async(con).await?;
    Script::new("return redis.call('GET', KEYS[1])").key(&keys).invoke(con)?;
    redis::cmd("EVAL").arg("return redis.call('TYPE', KEYS[1])").arg(1).arg(q).query(con)?;
    client.evalsha::<(), _, _, _>(SHA, vec!["emq:{a}:x", q], vec![1]).await?;
    client.eval::<(), _, _, _>(LUA, keys, ()).await?;
}
"##;
    let f = facts(src);
    let names: Vec<Option<&str>> = f.scripts.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(
        names,
        vec![
            Some("MOVE"),
            Some("ENQUEUE"),
            Some("REMOVE"),
            Some("ACK"),
            None,
            None
        ]
    );
    let ScriptSource::File {
        path,
        relative_to_file,
        span,
    } = &f.scripts[1].source
    else {
        panic!()
    };
    assert_eq!(path, "../lua/enqueue.lua");
    assert!(relative_to_file);
    assert_eq!(span.start, at(src, "../lua/enqueue.lua"));
    assert_eq!(f.scripts[1].name_span.start, at(src, "ENQUEUE"));
    assert_eq!(f.scripts[3].name_span.start, at(src, "ACK"));
    assert_eq!(inline(&f.scripts[0]).commands[0].name, "LPUSH");
    assert_eq!(inline(&f.scripts[5]).commands[0].name, "TYPE");
    let calls = &f.script_calls;
    assert_eq!(calls.len(), 5);
    assert!(
        matches!(&calls[0].script, Value::Const { path, .. } if path == &vec!["ENQUEUE".to_string()])
    );
    assert_eq!(calls[0].keys.len(), 2);
    assert_eq!(calls[0].keys[1].describe(), "emq:{<q>}:jobs");
    assert!(matches!(calls[0].args[0], Value::Int { value: 1, .. }));
    assert!(!calls[0].open_keys);
    assert!(calls[1].open_keys);
    assert_eq!(calls[1].args[0].as_str().as_deref(), Some("a"));
    assert!(matches!(calls[2].script, Value::ScriptRef { index: 4, .. }));
    assert!(calls[2].open_keys);
    assert_eq!(calls[3].keys.len(), 2);
    assert_eq!(calls[3].keys[0].as_str().as_deref(), Some("emq:{a}:x"));
    assert!(calls[4].open_keys);
    assert_eq!(f.commands[0].name, "EVAL");
}

#[test]
fn scripts_registered_with_their_key_counts() {
    let src = r#"
const SCRIPTS: &[(&str, usize, &str)] = &[
    ("moveToActive", 11, include_str!("../lua/moveToActive-11.lua")),
    ("retryJob", 0x3, include_str!(concat!("../lua/", "retryJob-3.lua"))),
];
static ALL: LazyLock<Vec<LuaScript>> = LazyLock::new(|| vec![
    LuaScript { name: "addJob", num_keys: 8, body: include_str!("../lua/addJob-8.lua") },
    LuaScript::new("pause", 5, Script::new(include_str!("../lua/pause-5.lua"))),
]);
lazy_static! {
    static ref EXTRA: Vec<(&'static str, i32, &'static str)> = vec![("drain", 4, include_str!("../lua/drain-4.lua"))];
}
fn plain() -> (i32, Script) { (2, Script::new("return redis.call('GET', KEYS[1])")) }
"#;
    let f = facts(src);
    let got: Vec<(Option<&str>, &str, Option<u32>)> = f
        .scripts
        .iter()
        .map(|d| {
            let path = match &d.source {
                ScriptSource::File { path, .. } => path.as_str(),
                ScriptSource::Inline(_) => "<inline>",
            };
            (d.name.as_deref(), path, d.declared_keys.map(|k| k.0))
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (Some("moveToActive"), "../lua/moveToActive-11.lua", Some(11)),
            (Some("retryJob"), "../lua/retryJob-3.lua", Some(3)),
            // The `LazyLock`'s initialiser is evaluated as the static's
            // value, the call before the walk meets the literal.
            (Some("pause"), "../lua/pause-5.lua", Some(5)),
            (Some("addJob"), "../lua/addJob-8.lua", Some(8)),
            (Some("drain"), "../lua/drain-4.lua", Some(4)),
            (None, "<inline>", Some(2)),
        ]
    );
    let (n, sp) = f.scripts[0].declared_keys.unwrap();
    assert_eq!((n, sp.start, sp.len()), (11, at(src, "11,"), 2));
    assert_eq!(f.scripts[0].name_span.start, at(src, "moveToActive\""));
    assert_eq!(f.scripts[0].name_span.len(), "moveToActive".len() as u32);
    let (_, span) = file_path(&f.scripts[1]);
    assert_eq!(span.start, at(src, "../lua/\""));
    assert_eq!(span.end, at(src, "retryJob-3.lua") + 14);
    assert_eq!(f.scripts[3].declared_keys.unwrap().1.start, at(src, "8,"));
    assert_eq!(
        f.scripts[4].declared_keys.unwrap().1.start,
        at(src, "4, include")
    );
    assert_eq!(f.scripts[4].name_span.start, at(src, "drain"));
}

#[test]
fn macro_rules_wrappers_around_include_str() {
    let src = r#"
macro_rules! script {
    ($file:expr) => {
        include_str!(concat!("../scripts/", $file))
    };
}
macro_rules! lua { ($name:literal) => { include_str!(concat!("../lua/", $name, ".lua")) }; }
static ENQUEUE: &str = script!("enqueue.lua");
lazy_static! { static ref ACK: Script = Script::new(lua!("ack")); }
fn go(con: &mut C) { Script::new(script!("move-2.lua")).key("emq:{q}:a").invoke(con); }
"#;
    let f = facts(src);
    let got: Vec<(Option<&str>, &str, u32)> = f
        .scripts
        .iter()
        .map(|d| {
            let (p, sp) = file_path(d);
            (d.name.as_deref(), p, sp.start)
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                Some("ENQUEUE"),
                "../scripts/enqueue.lua",
                at(src, "enqueue.lua")
            ),
            (Some("ACK"), "../lua/ack.lua", at(src, "ack\"")),
            (None, "../scripts/move-2.lua", at(src, "move-2.lua")),
        ]
    );
    assert!(matches!(
        f.script_calls[0].script,
        Value::ScriptRef { index: 2, .. }
    ));
}

#[test]
fn script_text_is_what_is_sent() {
    let src = "const A: &str = \"local k = KEYS[1]\\n\\\n        redis.call('DEL', k)\\t-- \\u{e9}\\\"\";\n\
                   const B: &str = r#\"return redis.call('GET', KEYS[1]) -- \\n \"x\"\n  \"#;\n";
    let f = facts(src);
    assert_eq!(
        f.scripts[0].text.as_deref(),
        Some("local k = KEYS[1]\nredis.call('DEL', k)\t-- é\"")
    );
    assert_eq!(
        f.scripts[1].text.as_deref(),
        Some("return redis.call('GET', KEYS[1]) -- \\n \"x\"\n  ")
    );
    assert_eq!(inline(&f.scripts[0]).commands[0].name, "DEL");
}

#[test]
fn rust_client_fixtures_yield_their_facts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rust-clients/");
    let read = |p: &str| std::fs::read_to_string(format!("{dir}{p}")).unwrap();
    // deadpool: a wrapper macro, a registration count, a wrapper fn with a loop tail.
    let src = read("deadpool/src/scripts.rs");
    let f = facts(&src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("enqueue"));
    assert_eq!(f.scripts[0].declared_keys.map(|k| k.0), Some(2));
    assert_eq!(file_path(&f.scripts[0]).0, "../lua/enqueue-2.lua");
    let exec = f
        .functions
        .iter()
        .position(|d| d.name == "execute")
        .unwrap();
    assert_eq!(f.functions[exec].module, "LuaScript");
    let eval = &f.commands[0];
    assert_eq!((eval.name.as_str(), eval.func), ("EVAL", Some(exec)));
    assert!(eval.open_tail);
    let tail: Vec<String> = eval.tail.iter().map(|v| v.describe()).collect();
    assert_eq!(tail, vec!["keys", "args"]);
    let src = read("deadpool/src/jobs.rs");
    let f = facts(&src);
    let call = f.calls.iter().find(|c| c.path == ["execute"]).unwrap();
    let Value::List { items, .. } = &call.args[1] else {
        panic!("{:?}", call.args[1])
    };
    assert_eq!(items.len(), 2);
    // fred: field reads after hgetall, none from the labels map.
    let src = read("fred/src/lib.rs");
    let f = facts(&src);
    let reads: Vec<String> = f
        .field_reads
        .iter()
        .map(|r| r.field.as_str().unwrap())
        .collect();
    assert_eq!(reads, vec!["payload"]);
    // redis-sync: keys added in a loop over a visible array.
    let src = read("redis-sync/src/jobs.rs");
    let f = facts(&src);
    let Some(Value::List { items, .. }) = &f.script_calls[0].keys_from else {
        panic!("{:?}", f.script_calls[0].keys_from)
    };
    assert_eq!(items.len(), 2);
    assert_eq!(f.field_reads.len(), 2);
}

/// `include_str!("x.lua")` is the script that file holds wherever it is
/// written: an argument of a command built with `cmd` is an `EVAL` of it.
#[test]
fn an_included_file_is_its_script_as_an_argument_too() {
    let src = "fn drop(con: &mut C, k: &str) {\n    redis::cmd(\"EVAL\").arg(include_str!(\"drop.lua\")).arg(1).arg(k).query(con)\n}\n";
    let f = facts(src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(file_path(&f.scripts[0]).0, "drop.lua");
    let eval = f.commands.iter().find(|c| c.name == "EVAL").unwrap();
    assert!(matches!(eval.args[0], Value::ScriptRef { index: 0, .. }));
    // A file that is no script stays what it was.
    let f = facts("fn q(con: &mut C) {\n    redis::cmd(\"EVAL\").arg(include_str!(\"q.sql\")).arg(0).query(con)\n}\n");
    assert!(f.scripts.is_empty());
    let eval = f.commands.iter().find(|c| c.name == "EVAL").unwrap();
    assert!(matches!(eval.args[0], Value::Unknown { .. }));
}

/// A row of `client::LUA_MACROS`: the redis-lua crate's `lua!` and
/// `lua_s!` hold a script as tokens, their sigils (`@x`, `$x`) read as
/// blanks, every other byte at its place in the host file. A macro of the
/// same name from another crate is none.
#[test]
fn the_tokens_of_a_lua_macro_are_its_script() {
    let src = "use redis_lua::{lua, lua_s};\n\
fn go(con: &mut C, id: &str) {\n\
    let script = lua!(return redis.call(\"HGET\", KEYS[1], @id));\n\
    let v: String = script.key(\"emq:{q}:job\").invoke(con).unwrap();\n\
    let n: u32 = redis::Script::new(redis_lua::lua_s!(return ARGV[1])).arg(3).invoke(con).unwrap();\n\
}\n";
    let f = facts(src);
    assert_eq!(f.scripts.len(), 2, "{:?}", f.scripts);
    assert_eq!(f.scripts[0].name.as_deref(), Some("script"));
    let lua = inline(&f.scripts[0]);
    assert_eq!(lua.commands.len(), 1);
    assert_eq!(lua.commands[0].name, "HGET");
    assert_eq!(lua.commands[0].name_span.start, at(src, "HGET"));
    assert!(matches!(
        lua.commands[0].args[0],
        Value::Keys { index: Some(1), .. }
    ));
    assert_eq!(f.script_calls.len(), 2);
    assert!(matches!(
        f.script_calls[0].script,
        Value::ScriptRef { index: 0, .. }
    ));
    assert_eq!(f.script_calls[0].keys.len(), 1);
    assert!(matches!(
        f.script_calls[1].script,
        Value::ScriptRef { index: 1, .. }
    ));
    assert_eq!(f.script_calls[1].args.len(), 1);
    let other =
        "use mlua::lua;\nfn f() { let t = lua!(return 1); let u = other::lua_s!(return 2); }\n";
    assert!(facts(other).scripts.is_empty());
}

/// A Lua macro's `$x` is set by a method named for it, which gives the
/// script again (through `clone`): the chain invokes that script. A method
/// of another name, or of a script without that variable, is no setter:
/// those invocations run a script wirelint does not know.
#[test]
fn a_lua_macros_setters_give_its_script() {
    let src = "use redis_lua::lua;\n\
fn go(con: &mut C) {\n\
    let s = lua!(return $a * $b);\n\
    let t = lua!(return 1);\n\
    let x: u32 = s.clone().a(15).b(2).invoke(con).unwrap();\n\
    let y: u32 = t.a(15).invoke(con).unwrap();\n\
    let z: u32 = s.c(1).invoke(con).unwrap();\n\
}\n";
    let f = facts(src);
    assert_eq!(f.scripts.len(), 2, "{:?}", f.scripts);
    let linked: Vec<Option<usize>> = f
        .script_calls
        .iter()
        .map(|c| match c.script {
            Value::ScriptRef { index, .. } => Some(index),
            _ => None,
        })
        .collect();
    assert_eq!(linked, vec![Some(0), None, None], "{:?}", f.script_calls);
    assert_eq!(f.script_calls[0].span.start, at(src, "s.clone()"));
}
