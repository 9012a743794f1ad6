//! The JavaScript and TypeScript extractor on small files.

use crate::facts::{FileFacts, Lang, ScriptSource, Value};
use crate::parse::Parsers;

fn facts(lang: Lang, src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    crate::extract::extract_file(&mut p, lang, 0, src.as_bytes(), "queue")
}

#[test]
fn client_commands_are_read_through_the_table() {
    let f = facts(
        Lang::TypeScript,
        "async function put(redis: Redis, id: string) {\n  await redis.hset(`emq:{q}:job:${id}`, 'state', 'waiting');\n  await client.hGetAll('emq:{q}:job:1');\n  cache.get('x');\n}\n",
    );
    let names: Vec<&str> = f.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["HSET", "HGETALL"]);
    assert_eq!(f.commands[0].args.len(), 3);
    assert_eq!(f.functions[0].name, "put");
    assert_eq!(f.commands[0].func, Some(0));
}

#[test]
fn generic_names_are_client_calls_only_in_a_file_that_names_redis() {
    let src = "async function load(client, id) {\n  await client.get(`emq:{q}:job:${id}`);\n  await client.hget('emq:{q}:job:1', 'state');\n}\n";
    let names = |f: FileFacts| -> Vec<String> { f.commands.into_iter().map(|c| c.name).collect() };
    assert_eq!(names(facts(Lang::JavaScript, src)), ["HGET"]);
    let with_redis = format!("const Redis = require('ioredis');\n{src}");
    assert_eq!(names(facts(Lang::JavaScript, &with_redis)), ["GET", "HGET"]);
    assert!(!super::client::client_calls(
        b"client.get(url); client.call(x)"
    ));
    assert!(super::client::client_calls(
        b"require('redis'); client.get(k)"
    ));
}

#[test]
fn lua_in_template_literals_is_a_script() {
    let f = facts(
        Lang::JavaScript,
        "const PUSH = `\nlocal n = redis.call('LPUSH', KEYS[1], ARGV[1])\nreturn n`;\nredis.eval(PUSH, 1, 'emq:{q}:wait', 'x');\n",
    );
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("PUSH"));
    let ScriptSource::Inline(lua) = &f.scripts[0].source else {
        panic!("inline");
    };
    assert_eq!(lua.commands[0].name, "LPUSH");
    assert_eq!(f.commands[0].name, "EVAL");
    assert!(matches!(
        f.commands[0].args[0],
        Value::ScriptRef { index: 0, .. }
    ));
}

#[test]
fn field_ids_exist_in_every_js_grammar() {
    for lang in [Lang::JavaScript, Lang::TypeScript, Lang::Tsx] {
        let f = crate::extract::fields::of(lang);
        for (name, id) in [
            ("object", f.object),
            ("property", f.property),
            ("index", f.index),
            ("function", f.function),
            ("arguments", f.arguments),
            ("name", f.name),
            ("value", f.value),
            ("left", f.left),
            ("right", f.right),
            ("body", f.body),
            ("parameters", f.parameters),
            ("parameter", f.parameter),
            ("pattern", f.pattern),
            ("key", f.key),
            ("operator", f.operator),
            ("consequence", f.consequence),
            ("alternative", f.alternative),
        ] {
            assert_ne!(id, 0, "{lang:?} has no field {name}");
        }
    }
}

/// `defineCommand` names the script read from a file and gives it its key
/// count; a call of the command in the file is EVALSHA with that count.
#[test]
fn defined_commands_are_evalsha_of_the_registered_script() {
    let f = facts(
        Lang::TypeScript,
        "const LUA = fs.readFileSync(path.join(__dirname, 'lua', 'push-2.lua'), 'utf8');\nclass Q {\n  constructor(r) {\n    this.r = r;\n    r.defineCommand('push', { numberOfKeys: 2, lua: LUA });\n  }\n  add(a: string, b: string) {\n    return this.r.push(a, b, 'x', () => {});\n  }\n}\n",
    );
    assert_eq!(f.scripts.len(), 1);
    let s = &f.scripts[0];
    assert_eq!(s.name.as_deref(), Some("push"));
    assert_eq!(s.declared_keys.map(|k| k.0), Some(2));
    let ScriptSource::File {
        path,
        relative_to_file,
        ..
    } = &s.source
    else {
        panic!("a file script");
    };
    assert_eq!((path.as_str(), *relative_to_file), ("lua/push-2.lua", true));
    let evalsha: Vec<_> = f.commands.iter().filter(|c| c.name == "EVALSHA").collect();
    assert_eq!(evalsha.len(), 1);
    // script, numkeys, two keys, one arg; the callback is not sent.
    assert_eq!(evalsha[0].args.len(), 5);
    assert!(!evalsha[0].open_tail);
}

/// A file read as a `Buffer` and made text by `toString()` is the file's
/// script, named by the command `defineCommand` registers it as; a
/// string's `toString()` is the string.
#[test]
fn a_buffers_to_string_is_its_text() {
    let f = facts(
        Lang::TypeScript,
        "const DIR = './lua';\nexport function make(c) {\n  c.defineCommand('enqueue', {\n    numberOfKeys: 2,\n    lua: readFileSync(`${DIR}/enqueue.lua`).toString(),\n  });\n  return c.hget('emq:{q}:job'.toString(), 'state');\n}\n",
    );
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("enqueue"));
    assert_eq!(f.scripts[0].declared_keys.map(|k| k.0), Some(2));
    let hget = f.commands.iter().find(|c| c.name == "HGET").expect("HGET");
    assert_eq!(hget.args[0].as_str().as_deref(), Some("emq:{q}:job"));
}

/// `script('load', text, (err, sha) => { this.sha = sha })`: the class's
/// field holds the SHA1 of the text.
#[test]
fn a_sha_loaded_in_a_callback_is_the_field_the_callback_sets() {
    let f = facts(
        Lang::JavaScript,
        "class W {\n  load() {\n    const s = 'return redis.call(\"GET\", KEYS[1])';\n    this.redis.script('load', s, (err, sha) => { this.getSha = sha; });\n  }\n}\n",
    );
    let field = f
        .consts
        .iter()
        .find(|c| c.name == ".getSha")
        .expect("the field");
    assert_eq!(field.module, "queue.W");
    let Value::Op { op, args, .. } = &field.value else {
        panic!("{:?}", field.value);
    };
    assert_eq!(op, &crate::facts::Op::Sha1);
    assert!(matches!(args[0], Value::ScriptRef { index: 0, .. }));
}

/// A message that names a `.lua` file is no script.
#[test]
fn a_string_naming_a_lua_file_is_no_script() {
    let f = facts(
        Lang::JavaScript,
        "throw new Error('No .lua files found!');\n",
    );
    assert!(f.scripts.is_empty());
    assert!(f.errors.is_empty());
}

#[test]
fn a_command_called_by_its_name_parameter_is_an_evalsha() {
    // ioredis gives the client a method per defined command: `client[name]`
    // with `name` the wrapper's parameter runs the script its caller names,
    // with the registered key count; a literal index or a local is no such
    // name, nor a receiver that is no client.
    let f = facts(
        Lang::TypeScript,
        "import Redis from 'ioredis';\nconst t: any = {};\nt.run = (name: string, args: any[]) => (client as any)[name](args);\nfunction f(list: any[], k: string) { return handlers[k](list) + client[2](list); }\n",
    );
    assert_eq!(f.functions[0].name, "run");
    assert_eq!(f.commands.len(), 1);
    let c = &f.commands[0];
    assert_eq!(
        (c.name.as_str(), c.func, c.open_tail),
        ("EVALSHA", Some(0), true)
    );
    assert!(matches!(&c.args[0], Value::Param { index: 0, .. }));
    assert!(
        matches!(&c.args[1], Value::Op { op: crate::facts::Op::Field(f), .. } if &**f == "numberOfKeys")
    );
    assert!(matches!(c.tail.as_slice(), [Value::Param { index: 1, .. }]));
}

#[test]
fn destructured_names_and_concatenated_arrays_are_followed() {
    let f = facts(
        Lang::TypeScript,
        "function run(name: string) {\n  const entry = scripts.get(name);\n  const { sha, n: count } = entry;\n  const keys = ['a', 'b'];\n  return go(sha, count, keys.concat([name, 'x']));\n}\n",
    );
    let call = f.calls.iter().find(|c| c.path == ["go"]).unwrap();
    let field = |v: &Value| match v {
        Value::Op {
            op: crate::facts::Op::Field(f),
            args,
            ..
        } => (format!(".{f}"), args[0].clone()),
        _ => panic!("{v:?}"),
    };
    let (sha, of) = field(&call.args[0]);
    assert_eq!(sha, ".sha");
    assert!(matches!(of, Value::Call { path, .. } if path == ["get"]));
    assert_eq!(field(&call.args[1]).0, ".n");
    let Value::List { items, tail, .. } = &call.args[2] else {
        panic!("{:?}", call.args[2]);
    };
    assert_eq!((items.len(), tail.len()), (2, 1));
    assert!(matches!(&tail[0], Value::List { items, .. } if items.len() == 2));
}

#[test]
fn an_array_pushed_to_is_more_than_its_literal() {
    let f = facts(
        Lang::TypeScript,
        "function args(a: string) {\n  const keys = ['k1', 'k2'];\n  keys.push(a);\n  return keys;\n}\n",
    );
    let Value::OneOf { alts, .. } = &f.functions[0].returns else {
        panic!("{:?}", f.functions[0].returns);
    };
    assert!(matches!(&alts[0], Value::List { items, .. } if items.len() == 2));
    assert!(matches!(&alts[1], Value::Call { path, .. } if path == &["push"]));
}

#[test]
fn a_reply_passed_on_and_a_parameter_read() {
    let src = "async function load(client, key) {\n  const row = await client.hgetall(key);\n  return decode(row as unknown as Raw, key);\n}\nfunction decode(raw, key) {\n  raw.seen = 1;\n  raw.touch();\n  return [raw.state, raw['payload'], key.length, this.x];\n}\n";
    let f = facts(Lang::TypeScript, src);
    // Written (`raw.seen = ..`) and called (`raw.touch()`) is no read.
    let reads = [
        ("state", Some(0)),
        ("payload", Some(0)),
        ("length", Some(1)),
    ];
    crate::extract::test_support::assert_reply_passed_on(&f, &reads);
}

#[test]
fn a_method_on_a_value_of_a_declared_class_is_that_classs_method() {
    let f = facts(
        Lang::TypeScript,
        "class Base {\n  toKey(t: string) { return t; }\n}\nclass Keys extends Base {}\nclass Feeder {\n  other: Keys;\n  constructor(private keys: Keys, private remote: Remote) {}\n  push(k: Keys, u) {\n    const n = new Keys();\n    this.keys.toKey('a');\n    this.remote.toKey('b');\n    k.toKey('c');\n    n.toKey('d');\n    u.toKey('e');\n    this.other.toKey('f');\n  }\n}\n",
    );
    let paths: Vec<String> = f.calls.iter().map(|c| c.path.join(".")).collect();
    assert_eq!(
        paths,
        [
            "Base.toKey",
            "Remote.toKey",
            "Base.toKey",
            "Base.toKey",
            "toKey",
            "Base.toKey"
        ]
    );
}

#[test]
fn a_constructor_parameter_is_a_field_and_a_closure_is_a_value() {
    let f = facts(
        Lang::TypeScript,
        "class Names {\n  constructor(private prefix: string, other: string) {}\n}\nclass Depot {\n  constructor(rowOf: (id: string) => string) {\n    this.rows = { rowOf };\n  }\n  static open(depot: string) {\n    const names = new Names('dp', depot);\n    return new Depot((id: string) => `${depot}:${id}`);\n  }\n  set(p: string) {\n    this.later = p;\n  }\n}\n",
    );
    let fields: Vec<String> = f
        .consts
        .iter()
        .map(|c| format!("{}{} {}", c.module, c.name, c.value.describe()))
        .collect();
    // `this.later = p` outside the constructor holds what no construction
    // passes: not a definition.
    assert_eq!(
        fields,
        ["queue.Names.prefix prefix", "queue.Depot.rows map"]
    );
    let news: Vec<String> = f.calls.iter().map(|c| c.path.join(".")).collect();
    assert_eq!(news, ["Names.#new", "Depot.#new"]);
    let Some(body) = crate::facts::closure_body(&f.calls[1].args[0]) else {
        panic!("{:?}", f.calls[1].args);
    };
    let Value::Str(t) = body else {
        panic!("{body:?}");
    };
    let params: Vec<usize> = t
        .segs
        .iter()
        .filter_map(|s| match s {
            crate::facts::Seg::Value(v) => match v.as_ref() {
                Value::Param { index, .. } => Some(*index),
                _ => None,
            },
            _ => None,
        })
        .collect();
    // `depot` is `open`'s first parameter; `id` the closure's own.
    assert_eq!(params, [0, crate::facts::CLOSURE_PARAM]);
}

/// A script `defineCommand` registers from another module (`import * as
/// scripts`, `require`) is the constant that module exports, as a named
/// import is: the call is EVALSHA of that constant with the registered key
/// count.
#[test]
fn a_command_registered_from_another_module_runs_its_export() {
    for src in [
        "import * as scripts from './scripts';\nfunction setup(redis) { redis.defineCommand('delif', { lua: scripts.delif, numberOfKeys: 1 }); }\nfunction release(redis, k) { return redis.delif(k, 'id'); }\n",
        "const scripts = require('./scripts');\nfunction setup(redis) { redis.defineCommand('delif', { lua: scripts.delif, numberOfKeys: 1 }); }\nfunction release(redis, k) { return redis.delif(k, 'id'); }\n",
        "import { delif } from './scripts';\nfunction setup(redis) { redis.defineCommand('delif', { lua: delif, numberOfKeys: 1 }); }\nfunction release(redis, k) { return redis.delif(k, 'id'); }\n",
    ] {
        let f = facts(Lang::TypeScript, src);
        let evalsha: Vec<_> = f.commands.iter().filter(|c| c.name == "EVALSHA").collect();
        assert_eq!(evalsha.len(), 1, "{src}");
        let c = evalsha[0];
        assert!(
            matches!(&c.args[0], Value::Const { path, .. } if path == &["delif"]),
            "{src}: {:?}",
            c.args[0]
        );
        assert!(matches!(&c.args[1], Value::Int { value: 1, .. }), "{src}");
        // `k` is a parameter, which may be an array ioredis spreads.
        assert_eq!((c.args.len(), c.tail.len()), (2, 2), "{src}");
    }
}

/// Node's `createHash("sha1").update(text).digest("hex")` is the SHA1 of
/// the text, the name `EVALSHA` runs it by; another algorithm is not.
#[test]
fn a_sha1_digest_of_node_crypto_is_the_sha_of_its_text() {
    let f = facts(
        Lang::JavaScript,
        "const crypto = require('crypto');\nconst LUA = 'return redis.call(\"GET\", KEYS[1])';\nconst SHA = crypto.createHash('sha1').update(LUA, 'utf8').digest('hex');\nconst MD5 = crypto.createHash('md5').update(LUA).digest('hex');\n",
    );
    let value = |name: &str| &f.consts.iter().find(|c| c.name == name).expect(name).value;
    let Value::Op { op, args, .. } = value("SHA") else {
        panic!("{:?}", value("SHA"));
    };
    assert_eq!(op, &crate::facts::Op::Sha1);
    assert!(
        matches!(args[0], Value::ScriptRef { index: 0, .. }),
        "{args:?}"
    );
    assert!(!matches!(
        value("MD5"),
        Value::Op {
            op: crate::facts::Op::Sha1,
            ..
        }
    ));
}
