//! Commands from method chains and typed methods, calls of the code base,
//! field reads after HGETALL.

use crate::facts::Value;

use super::{at, command_lines, facts, lit_args, path_of, tpls};

#[test]
fn redis_rs_command_chains() {
    let src = r#"
async fn save(con: &mut C, q: &str, s: &str) -> R {
    let key = keys::job(q, "1");
    redis::cmd("hset").arg(&key).arg("state").arg(s).query_async(con).await?;
    deadpool_redis::redis::cmd("HMGET").arg(&key).arg(&["payload", "attempts"]).query_async(con).await?;
    redis::pipe().atomic().cmd("HSET").arg(&key).arg("state").arg("active").ignore()
        .cmd("ZADD").arg(format!("emq:{{{}}}:active", q)).arg(0).arg(vec!["a", "b"]).query_async(con).await?;
    let mut c = redis::cmd("EVALSHA");
    c.arg(sha).arg(2);
    c.arg(&key);
    for k in extra { c.arg(k); }
    Ok(())
}
"#;
    let f = facts(src);
    let names: Vec<&str> = f.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["HSET", "HMGET", "HSET", "ZADD", "EVALSHA"]);
    let hset = &f.commands[0];
    assert_eq!(hset.name_span.start, at(src, "hset\""));
    assert_eq!(lit_args(hset), vec!["<job>", "state", "<s>"]);
    assert!(
        matches!(&hset.args[0], Value::Call { path, .. } if path == &vec!["keys".to_string(), "job".into()])
    );
    assert_eq!(hset.args[1].span().start, at(src, "\"state\""));
    assert_eq!(
        lit_args(&f.commands[1]),
        vec!["<job>", "payload", "attempts"]
    );
    assert_eq!(lit_args(&f.commands[2]), vec!["<job>", "state", "active"]);
    assert_eq!(f.commands[3].args[0].describe(), "emq:{<q>}:active");
    assert_eq!(lit_args(&f.commands[3])[1..], ["<0>", "a", "b"]);
    let eval = &f.commands[4];
    assert_eq!(lit_args(eval), vec!["<sha>", "<2>", "<job>"]);
    assert!(eval.open_tail);
    assert!(!f.commands[0].open_tail);
    assert_eq!(tpls(&f), vec!["emq:{<q>}:active"]);
}

/// `Cmd::new()` (or `Cmd::default()`) is a command named by its first
/// `.arg(..)`, in a chain or on a variable that holds it; what follows are
/// its arguments.
#[test]
fn an_empty_command_is_named_by_its_first_argument() {
    let src = r#"
fn save(con: &mut C, key: &str) -> R {
    redis::Cmd::new().arg("HSET").arg(key).arg("state").arg("done").query(con)?;
    let mut c = redis::Cmd::default();
    c.arg("ZADD").arg("emq:{q}:done");
    c.arg(0).arg(key);
    c.query(con)?;
    let mut d = Cmd::new();
    d.arg(key);
    Ok(())
}
"#;
    let f = facts(src);
    let names: Vec<&str> = f.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["HSET", "ZADD"]);
    assert_eq!(f.commands[0].name_span.start, at(src, "HSET"));
    assert_eq!(lit_args(&f.commands[0]), vec!["<key>", "state", "done"]);
    assert_eq!(
        lit_args(&f.commands[1]),
        vec!["emq:{q}:done", "<0>", "<key>"]
    );
}

#[test]
fn typed_commands_redis_rs_and_fred() {
    let src = r#"
async fn f(con: &mut C, client: &Client, key: &str, map: HashMap<String, String>) {
    let _: () = con.hset(key, "state", "wait").await?;
    con.hset_nx(key, "lock", 1).await?;
    con.hset_multiple(key, &[("state", s), ("attempts", a)]).await?;
    let v: Option<String> = con.hget(key, "payload").await?;
    con.hmget(key, &["a", "b"]).await?;
    con.hincr(key, "attempts", 1).await?;
    con.hdel(key, &["x", "y"]).await?;
    con.hgetall(key).await?;
    con.hexists(key, "z").await?;
    con.get(key).await?;
    con.set(key, 5).await?;
    client.hset::<(), _, _>(key, [("state", s), ("data", d)]).await?;
    client.hget::<String, _, _>(key, "data").await?;
    let m = map.get("payload");
    let n = self.cache.get("payload");
    let z = pool.get().await?;
}
"#;
    let f = facts(src);
    let got: Vec<(String, Vec<String>)> = f
        .commands
        .iter()
        .map(|c| (c.name.clone(), lit_args(c)[1..].to_vec()))
        .collect();
    let want: Vec<(&str, Vec<&str>)> = vec![
        ("HSET", vec!["state", "wait"]),
        ("HSETNX", vec!["lock", "<1>"]),
        ("HSET", vec!["state", "<s>", "attempts", "<a>"]),
        ("HGET", vec!["payload"]),
        ("HMGET", vec!["a", "b"]),
        ("HINCRBY", vec!["attempts", "<1>"]),
        ("HDEL", vec!["x", "y"]),
        ("HGETALL", vec![]),
        ("HEXISTS", vec!["z"]),
        ("GET", vec![]),
        ("SET", vec!["<5>"]),
        ("HSET", vec!["state", "<s>", "data", "<d>"]),
        ("HGET", vec!["data"]),
    ];
    let want: Vec<(String, Vec<String>)> = want
        .into_iter()
        .map(|(n, a)| (n.to_string(), a.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(got, want);
    assert!(matches!(
        &f.commands[0].args[0],
        Value::Param { index: 2, .. }
    ));
    assert_eq!(f.commands[3].name_span.start, at(src, "hget(key"));
}

#[test]
fn hashmap_get_is_not_a_command() {
    let f = facts(
        "fn f(map: &HashMap<String, String>) { let v = map.get(\"payload\"); map.insert(1, 2); }\n",
    );
    assert!(f.commands.is_empty());
}

#[test]
fn calls_inside_json_are_recovered_from_tokens() {
    let src = r#"
fn f(con: &mut C, q: &str) -> serde_json::Value {
    json!({ "state": con.hget(q, "state")?, "rows": [con.hget(q, "payload")?], "n": m.len() })
}
"#;
    let f = facts(src);
    let got = command_lines(&f);
    assert_eq!(
        got,
        vec!["HGET [\"<q>\", \"state\"]", "HGET [\"<q>\", \"payload\"]"]
    );
    let at = src.find("\"payload\")").unwrap() as u32 + 1;
    let field = &f.commands[1].args[1];
    assert_eq!(field.span().start, at - 1);
}

#[test]
fn loops_and_opaque_slices_fill_tails() {
    let src = r#"
fn run(con: &mut C, sha: &str, keys: &[String], args: Vec<String>) {
    let mut c = redis::cmd("EVALSHA");
    c.arg(sha).arg(keys.len());
    for k in keys.iter() { c.arg(k); }
    c.arg(&args);
    c.query(con);
    redis::cmd("DEL").arg(&keys).query(con);
    let mut inv = SCRIPT.prepare_invoke();
    for k in keys { inv.key(k); }
    inv.invoke(con);
    SCRIPT.key(&keys).arg(1).invoke(con);
    client.evalsha::<(), _, _, _>(SHA, keys, args).await?;
}
"#;
    let f = facts(src);
    let param = |v: &Value| match v {
        Value::Param { index, name, .. } => format!("{index}{name}"),
        other => format!("{other:?}"),
    };
    let eval = &f.commands[0];
    assert_eq!(eval.name, "EVALSHA");
    assert!(eval.open_tail);
    assert_eq!(
        eval.tail.iter().map(param).collect::<Vec<_>>(),
        vec!["2keys", "3args"]
    );
    assert_eq!(eval.tail[0].span().start, at(src, "keys.iter()"));
    let del = &f.commands[1];
    assert!(del.open_tail && del.args.is_empty());
    assert_eq!(
        del.tail.iter().map(param).collect::<Vec<_>>(),
        vec!["2keys"]
    );
    assert_eq!(f.script_calls.len(), 3);
    for c in &f.script_calls {
        assert!(c.open_keys);
        assert_eq!(c.keys_from.as_ref().map(param).as_deref(), Some("2keys"));
        assert_eq!(c.func, Some(0));
    }
    assert_eq!(
        f.script_calls[0].keys_from.as_ref().unwrap().span().start,
        at(src, "keys { inv")
    );
}

#[test]
fn calls_to_the_code_base() {
    let src = r#"
use crate::scripts::execute;
use crate::{keys, lua::{self, run as go}};
use redis::cmd;
impl Queue {
    fn add(&self, con: &mut C, q: &str, id: &str) -> R {
        let keys = vec![keys::job(q, id), self.keys.wait()];
        execute(con, "moveToActive", &keys, &[id]);
        scripts::execute(con, "x", &keys, &[]);
        self.run(con, q);
        go(1);
        lua::load("a");
        LuaScript::execute(&self.s, con, keys, vec!["a"]);
        self.script.execute(con, vec![keys::pending(q)], ["b", "c"]);
        let n = keys.len() + q.to_string().len();
        let v: Vec<String> = keys.iter().map(|k| k.clone()).collect();
        let t = Some(String::from("x"));
        let f = |x: u8| x;
        f(1);
        cmd("GET").arg(q).query(con)?;
        Ok(Kind::Job(id))
    }
}
"#;
    let f = facts(src);
    let got: Vec<String> = f.calls.iter().map(path_of).collect();
    assert_eq!(
        got,
        vec![
            "keys::job",
            "wait",
            "scripts::execute",
            "scripts::execute",
            "self::run",
            "lua::run",
            "lua::load",
            "LuaScript::execute",
            "execute",
            "keys::pending",
        ]
    );
    let exec = &f.calls[2];
    assert_eq!(exec.func, Some(0));
    assert_eq!(exec.span.start, at(src, "execute(con, \"move"));
    assert!(matches!(exec.args[0], Value::Param { index: 0, .. }));
    assert_eq!(exec.args[1].as_str().as_deref(), Some("moveToActive"));
    let Value::List { items, .. } = &exec.args[2] else {
        panic!("{:?}", exec.args[2])
    };
    assert_eq!(items.len(), 2);
    assert!(
        matches!(&items[0], Value::Call { path, .. } if path == &vec!["keys".to_string(), "job".into()])
    );
    let Value::List { items, .. } = &exec.args[3] else {
        panic!()
    };
    assert!(matches!(items[0], Value::Param { index: 2, .. }));
    assert_eq!(f.calls[4].args.len(), 2);
    let ufcs = &f.calls[7];
    assert_eq!(ufcs.args.len(), 4);
    assert!(matches!(ufcs.args[2], Value::List { .. }));
    let m = &f.calls[8];
    assert_eq!(m.args.len(), 3);
    let Value::List { items, .. } = &m.args[2] else {
        panic!()
    };
    assert_eq!(items[1].as_str().as_deref(), Some("c"));
}

#[test]
fn field_reads_after_hgetall() {
    let src = r#"
async fn load(con: &mut C, q: &str, id: &str) -> R {
    let key = keys::job(q, id);
    let fields: HashMap<String, String> = con.hgetall(&key).await?;
    let p = fields.get("payload").cloned();
    let s = &fields["state"];
    let mut row: HashMap<String, String> = redis::cmd("HGETALL").arg(keys::job(q, id)).query_async(con).await?;
    let a = row.remove("attempts");
    let other: HashMap<&str, &str> = HashMap::new();
    let x = other.get("payload");
    let cfg = load_config();
    let y = cfg["payload"];
    let fields = 3;
    let z = fields.get("payload");
    Ok(())
}
fn fred(client: &Client) { let m: HashMap<String, String> = client.hgetall("emq:{q}:job:1").await?; m.get("data"); }
"#;
    let f = facts(src);
    let got: Vec<(String, String, u32, Option<usize>)> = f
        .field_reads
        .iter()
        .map(|r| {
            (
                r.key.describe(),
                r.field.as_str().unwrap(),
                r.span.start,
                r.func,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "job".into(),
                "payload".into(),
                at(src, "payload\").cl"),
                Some(0)
            ),
            ("job".into(), "state".into(), at(src, "state\"]"), Some(0)),
            (
                "job".into(),
                "attempts".into(),
                at(src, "attempts\")"),
                Some(0)
            ),
            (
                "emq:{q}:job:1".into(),
                "data".into(),
                at(src, "data\")"),
                Some(1)
            ),
        ]
    );
    assert_eq!(f.field_reads[0].span.len(), "payload".len() as u32);
    assert!(f.commands.iter().all(|c| c.name == "HGETALL"));
}

/// Macro tokens are parsed again inside a function body (so that they
/// parse without an error), keeping every offset in the file; a token tree
/// too near the start of the file for the body's opening is parsed bare.
/// Both find the same command, at its bytes.
#[test]
fn calls_inside_assert_macros_keep_their_offsets() {
    for src in [
        "m!(con.hget(k, \"state\"));\n",
        "fn t(con: &mut C, k: &str) {\n    assert_eq!(con.hget(k, \"state\").unwrap(), 1);\n}\n",
    ] {
        let f = facts(src);
        let got = command_lines(&f);
        assert_eq!(got, vec!["HGET [\"<k>\", \"state\"]"], "{src}");
        assert_eq!(f.commands[0].name_span.start, at(src, "hget("), "{src}");
        assert_eq!(
            f.commands[0].args[1].span().start,
            at(src, "\"state\""),
            "{src}"
        );
        assert!(f.errors.is_empty(), "{src}");
    }
}

#[test]
fn an_invocation_split_into_statements_is_one_call_once_run() {
    let src = r#"
fn run(con: &mut C, scripts: &Scripts, q: &str) -> R {
    let mut inv = scripts.enqueue.key(format!("emq:{{{}}}:a", q));
    inv.key("emq:b");
    inv.arg(q);
    inv.invoke(con)
}
fn built(scripts: &Scripts) {
    let mut inv = scripts.enqueue.key("emq:never");
    inv.arg(1);
}
fn returned(scripts: &Scripts) -> ScriptInvocation {
    let mut inv = scripts.reap.key("emq:r");
    inv
}
fn again(con: &mut C, s: &Scripts) -> R {
    let mut inv = s.first.key("emq:one");
    let mut inv = s.second.key("emq:two");
    inv.invoke_async(con).await
}
"#;
    let f = facts(src);
    let calls: Vec<String> = f
        .script_calls
        .iter()
        .map(|c| {
            let keys: Vec<String> = c.keys.iter().map(Value::describe).collect();
            let args: Vec<String> = c.args.iter().map(Value::describe).collect();
            format!(
                "{} keys [{}] args [{}]{}",
                c.script.describe(),
                keys.join(", "),
                args.join(", "),
                if c.returned { " returned" } else { "" }
            )
        })
        .collect();
    assert_eq!(
        calls,
        vec![
            ".enqueue keys [emq:{<q>}:a, emq:b] args [q]",
            ".second keys [emq:two] args []",
        ]
    );
    assert_eq!(
        f.script_calls[0].span.start,
        at(src, "scripts.enqueue.key(format")
    );
}

/// A map filled by `HGETALL` and handed to another function is the reply
/// of that read there; a field taken from a parameter is a read of what
/// the callers pass.
#[test]
fn a_reply_passed_on_and_a_parameter_read() {
    let src = r#"
async fn from_id(con: &mut C, keys: &Keys, id: &str) -> R {
    let fields: HashMap<String, String> = redis::cmd("HGETALL").arg(keys.job(id)).query_async(con).await?;
    Job::decode(id, &fields)
}
fn decode(id: &str, fields: &HashMap<String, String>) -> Job {
    let a = fields.get("state").cloned();
    let b = id.get("x");
    let c = self.get("y");
    Job { a }
}
"#;
    let f = facts(src);
    let call = f
        .calls
        .iter()
        .find(|c| c.path.ends_with(&["decode".to_string()]))
        .unwrap();
    let (command, _) =
        crate::facts::hash_reply_parts(&call.args[1]).unwrap_or_else(|| panic!("{:?}", call.args));
    assert_eq!(command.as_str().as_deref(), Some("HGETALL"));
    assert_eq!(
        crate::extract::reads_by_param(&f),
        vec![("state".to_string(), Some(1)), ("x".to_string(), Some(0))]
    );
}

/// A local closure that reads the field its parameter names is a getter:
/// each call of it with a literal is a read of that field, at the literal.
#[test]
fn a_closure_that_reads_a_field_is_a_getter() {
    let src = r#"
fn decode(id: &str, map: &HashMap<String, String>) -> Job {
    let get = |key: &str| -> R<&String> { map.get(key).ok_or_else(|| missing(key)) };
    let both = |a, b| (map.get(a), map.get(b));
    let data = get("data")?;
    let x = both("p", "q");
    let get = 3;
    let y = get("late");
    Job { data }
}
"#;
    let f = facts(src);
    assert_eq!(
        crate::extract::reads_by_param(&f),
        vec![("data".to_string(), Some(1))]
    );
    assert_eq!(f.field_reads[0].span.start, at(src, "data\")?"));
}

/// fred's `custom(cmd, args)` sends the command its `CustomCommand` names
/// (held in a variable or written in place), the items of the list its
/// arguments; a command the code does not name, or a receiver that is no
/// client, sends nothing.
#[test]
fn a_custom_command_sends_the_command_it_names() {
    let src = r#"
impl Lock {
    const RELEASE: &'static str = "return redis.call('del', KEYS[1])";
    async fn release(&self, client: &RedisClient) {
        let args: Vec<RedisValue> = vec![Self::RELEASE.into(), 1_i64.into(), self.key.clone().into()];
        let cmd = CustomCommand::new_static("EVAL", None, false);
        let _: i64 = client.custom(cmd, args).await?;
        let _: () = self.client.custom(CustomCommand::new("PEXPIRE", None, false), vec![self.key.clone(), 500.to_string()]).await?;
        let _: () = client.custom(self.cmd(), vec!["x"]).await?;
        let _: () = builder.custom(CustomCommand::new("DEL", None, false), vec!["x"]);
    }
}
"#;
    let f = facts(src);
    assert_eq!(
        command_lines(&f),
        vec![
            r#"EVAL ["<RELEASE>", "<1>", "<key>"]"#,
            r#"PEXPIRE ["<key>", "<500>"]"#,
        ]
    );
}
