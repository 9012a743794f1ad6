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
