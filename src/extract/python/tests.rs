//! The Python extractor's cases: each form of the table and of the values
//! stated to the value-flow core, with its exact facts.

use crate::extract::extract_file;
use crate::facts::{FileFacts, Lang, ScriptSource, Value, RECEIVER};
use crate::parse::Parsers;

fn facts(src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    extract_file(&mut p, Lang::Python, 0, src.as_bytes(), "jobs")
}

/// `NAME args..` of each command, literals as written, the rest `?`.
fn commands(f: &FileFacts) -> Vec<String> {
    crate::extract::test_support::commands(f, |a| {
        a.as_str().unwrap_or_else(|| match a {
            Value::Int { value, .. } => value.to_string(),
            _ => "?".into(),
        })
    })
}

#[test]
fn typed_commands_are_read_through_the_table() {
    let src = r#"
import redis
r = redis.Redis()
r.hset("q:1", "state", "wait")
r.hset("q:1", mapping={"state": "wait", "attempts": 0})
r.zadd("q:pending", {"j1": 5})
r.hmget("q:1", "state", "payload")
r.execute_command("HDEL", "q:1", "lock")
pipe = r.pipeline()
pipe.lrem("q:active", 1, "j1").zrem("q:pending", "j1")
r.delete("q:1", *others)
"#;
    assert_eq!(
        commands(&facts(src)),
        [
            "HSET q:1 state wait",
            "HSET q:1 state wait attempts 0",
            "ZADD q:pending 5 j1",
            "HMGET q:1 state payload",
            "HDEL q:1 lock",
            "LREM q:active 1 j1",
            "ZREM q:pending j1",
            "DEL q:1 ..",
        ]
    );
}

/// `get`, `set`, `delete` are also a dict's or a set's: they count only on
/// a Redis-like receiver.
#[test]
fn generic_methods_need_a_redis_receiver() {
    let src = r#"
import redis.asyncio as redis
async def f(opts: dict, client: redis.Redis):
    opts.get("q:1")
    seen = set()
    seen.delete("q:1")
    await client.get("q:2")
    conn = redis.from_url("redis://")
    await conn.set("q:3", 1)
"#;
    assert_eq!(commands(&facts(src)), ["GET q:2", "SET q:3 1"]);
}

/// No client call counts in a file that never names Redis.
#[test]
fn client_calls_need_redis_named() {
    assert!(facts("x.hset('q:1', 'f', 1)\n").commands.is_empty());
    assert!(!Lang::Python.host().speaks(b"x.hset('q:1', 'f', 1)\n"));
    assert!(Lang::Python
        .host()
        .speaks(b"import redis\nx.hset('q:1', 'f', 1)\n"));
    assert!(!Lang::Python.host().speaks(b"import redis\nprint(1)\n"));
}

#[test]
fn inline_lua_in_triple_quoted_and_raw_strings_is_a_script() {
    let src = "import redis\nPOP = r\"\"\"\nlocal v = redis.call('LPOP', KEYS[1])\\n\nreturn v\n\"\"\"\nPUSH = 'redis.call(\"RPUSH\", KEYS[1], ARGV[1])\\nreturn 1'\n";
    let f = facts(src);
    let names: Vec<_> = f.scripts.iter().map(|s| s.name.clone().unwrap()).collect();
    assert_eq!(names, ["POP", "PUSH"]);
    // The raw string keeps its backslash; the plain one decodes `\n`.
    assert_eq!(
        f.scripts[0].text.as_deref(),
        Some("\nlocal v = redis.call('LPOP', KEYS[1])\\n\nreturn v\n")
    );
    assert_eq!(
        f.scripts[1].text.as_deref(),
        Some("redis.call(\"RPUSH\", KEYS[1], ARGV[1])\nreturn 1")
    );
    let ScriptSource::Inline(lua) = &f.scripts[1].source else {
        panic!("inline");
    };
    // The command's span is in host bytes.
    let c = &lua.commands[0];
    let at = src.find("redis.call(\"RPUSH\"").unwrap();
    assert_eq!(c.span.start as usize, at);
}

#[test]
fn registered_scripts_run_with_keys_and_args() {
    let src = r#"
import redis
class Queue:
    def __init__(self, r):
        self.redis = r
        self.push = r.register_script("return redis.call('RPUSH', KEYS[1], ARGV[1])")

    def add(self, job):
        return self.push(keys=["q:wait"], args=[job], client=self.redis)

    def lazy(self):
        if not self._pop:
            self._pop = self.redis.register_script("return redis.call('LPOP', KEYS[1])")
        return self._pop(["q:wait"])

def run(scripts, k):
    return scripts["move"](keys=[k, "q:done"], args=[])
"#;
    let f = facts(src);
    assert_eq!(f.script_calls.len(), 3);
    // `self.push` is the field the constructor set.
    assert!(matches!(
        &f.script_calls[0].script,
        Value::Param { index: RECEIVER, name, .. } if name == "push"
    ));
    let field = f.consts.iter().find(|c| c.name == ".push").unwrap();
    assert_eq!(field.module, "jobs.Queue");
    assert!(matches!(field.value, Value::ScriptRef { index: 0, .. }));
    // Set in the method, then called positionally: the script itself.
    assert!(matches!(
        f.script_calls[1].script,
        Value::ScriptRef { index: 1, .. }
    ));
    assert_eq!(
        f.script_calls[1].keys[0].as_str().as_deref(),
        Some("q:wait")
    );
    // A table looked up by name.
    let Value::Op { op, args, .. } = &f.script_calls[2].script else {
        panic!("a lookup");
    };
    assert_eq!(op, &crate::facts::Op::Lookup);
    assert_eq!(args[1].as_str().as_deref(), Some("move"));
    assert_eq!(f.script_calls[2].keys.len(), 2);
    assert!(f.script_calls[2].args.is_empty() && !f.script_calls[2].open_args);
}

/// `keys=` is what makes a call of an unknown callable a script run: a
/// task's `apply(args=..)` is none, nor is a function of the file.
#[test]
fn calls_with_args_alone_are_no_script_runs() {
    let src = r#"
import redis
def promise(args): pass
res = task.apply_async(args=(1,))
p = promise(args=(2,))
def run(keys, args): pass
run(keys=[1], args=[2])
"#;
    assert!(facts(src).script_calls.is_empty());
}

#[test]
fn eval_and_evalsha_are_commands_as_written() {
    let src = r#"
import redis
r = redis.Redis()
r.eval(LUA, 2, "q:a", "q:b", 10)
r.evalsha(sha, 1, *keys_and_args)
"#;
    assert_eq!(
        commands(&facts(src)),
        ["EVAL ? 2 q:a q:b 10", "EVALSHA ? 1 .."]
    );
}

#[test]
fn lua_files_read_at_start_up_are_scripts_by_path() {
    let src = r#"
import os, pkgutil
from importlib import resources
HERE = os.path.dirname(__file__)
ENQUEUE = open(os.path.join(HERE, "lua", "enqueue-2.lua")).read()
with open(os.path.join(HERE, "retry.lua")) as f:
    RETRY = f.read()
CLAIM = pkgutil.get_data(__name__, "scripts/claim.lua").decode()
ACK = resources.files("pkg").joinpath("ack.lua").read_text()
README = open("README.md").read()
"#;
    let f = facts(src);
    let got = crate::extract::test_support::file_scripts(&f);
    assert_eq!(
        got,
        [
            ("ENQUEUE".into(), "lua/enqueue-2.lua".into(), true),
            ("RETRY".into(), "retry.lua".into(), true),
            ("CLAIM".into(), "scripts/claim.lua".into(), true),
            ("ACK".into(), "ack.lua".into(), true),
        ]
    );
}

/// Key templates: f-strings, `%`, `.format` and `+`, with the names they
/// hold left for the link.
#[test]
fn strings_built_four_ways_are_templates() {
    let src = r#"
import redis
PREFIX = "emq"
def keys(q, i):
    a = f"{PREFIX}:{{{q}}}:job:{i}"
    b = "%s:{%s}:pending" % (PREFIX, q)
    c = "{}:{{{}}}:lock:{id}".format(PREFIX, q, id=i)
    d = PREFIX + ":{" + q + "}:meta"
    return a
"#;
    let f = facts(src);
    let shown: Vec<String> = f.templates.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        shown,
        [
            "<PREFIX>:{<q>}:job:<i>",
            "<PREFIX>:{<q>}:pending",
            "<PREFIX>:{<q>}:lock:<i>",
            "<PREFIX>:{<q>}:meta",
        ]
    );
    let keys = f.functions.iter().find(|d| d.name == "keys").unwrap();
    assert_eq!(keys.params, ["q", "i"]);
    assert!(matches!(keys.returns, Value::Str(_)));
    let prefix = f.consts.iter().find(|c| c.name == "PREFIX").unwrap();
    assert_eq!(prefix.value.as_str().as_deref(), Some("emq"));
}

/// A class attribute read through `self` is the class's definition; a
/// dict with literal keys looked up by a literal is the value it holds.
#[test]
fn class_attributes_and_dicts_are_followed() {
    let src = r#"
class Keys:
    PREFIX = "emq"
    NAMES = {"wait": "w", "done": "d"}
    def wait(self, q):
        return self.PREFIX + ":" + q + ":" + self.NAMES["wait"]
"#;
    let f = facts(src);
    let wait = f.functions.iter().find(|d| d.name == "wait").unwrap();
    assert_eq!(wait.module, "jobs.Keys");
    let Value::Str(t) = &wait.returns else {
        panic!("a template")
    };
    // `NAMES["wait"]`: a lookup the link reads in the class's dict.
    assert_eq!(t.to_string(), "<PREFIX>:<q>:<wait>");
    assert!(f
        .consts
        .iter()
        .any(|c| c.name == ".PREFIX" && c.module == "jobs.Keys"));
}

/// Fields read from a whole hash after `HGETALL`.
#[test]
fn rows_read_whole_give_field_reads() {
    let src = r#"
import redis
async def load(r, k):
    row = await r.hgetall(k)
    return row.get("payload"), row[b"state"], row.get(name)
"#;
    let f = facts(src);
    let fields: Vec<String> = f
        .field_reads
        .iter()
        .filter_map(|r| r.field.as_str())
        .collect();
    assert_eq!(fields, ["payload", "state"]);
}

/// A value serialized for a script to decode is that encoding of the
/// value: `msgpack.packb([..])` (however the module is imported) and
/// `json.dumps([..])`.
#[test]
fn values_packed_for_a_script_are_their_encoding() {
    let src = r#"
import json
import msgpack as mp
import redis

def add(r, script, prefix, job_id):
    return script(keys=["q:wait"], args=[mp.packb([prefix, job_id], use_bin_type=True), json.dumps([job_id])], client=r)
"#;
    let f = facts(src);
    let args = &f.script_calls[0].args;
    let formats: Vec<String> = args
        .iter()
        .map(|a| {
            let (format, inner) = crate::facts::serial_of(&crate::facts::Op::Encode, a).unwrap();
            let Value::List { items, .. } = inner else {
                panic!("a list is encoded");
            };
            format!("{format} {}", items.len())
        })
        .collect();
    assert_eq!(formats, vec!["msgpack 2", "json 1"]);
}

#[test]
fn a_mapped_list_is_as_long_as_the_list_mapped() {
    let f = facts("def keys_of(roles):\n    return list(map(str.upper, roles))\n\ndef names():\n    return list(['a', 'b'])\n");
    let Value::Op { op, args, .. } = &f.functions[0].returns else {
        panic!("{:?}", f.functions[0].returns);
    };
    assert_eq!(op, &crate::facts::Op::Mapped);
    assert!(matches!(args.as_slice(), [Value::Param { index: 0, .. }]));
    assert!(matches!(&f.functions[1].returns, Value::List { items, .. } if items.len() == 2));
}

#[test]
fn a_reply_passed_on_and_a_parameter_read() {
    let src = "import redis\n\ndef fetch(r, key):\n    fields = r.hgetall(key)\n    return decode(fields, key)\n\ndef decode(fields, key):\n    return [fields.get(\"state\"), fields[\"payload\"], key.get(\"x\")]\n";
    let f = facts(src);
    let reads = [("state", Some(0)), ("payload", Some(0)), ("x", Some(1))];
    crate::extract::test_support::assert_reply_passed_on(&f, &reads);
}

/// The path a function's value reads, where it is a read for the link
/// (`facts::Op::Read`), as its template shows it.
fn read_path(f: &FileFacts, name: &str) -> Option<String> {
    let def = f.functions.iter().find(|d| d.name == name)?;
    match &def.returns {
        Value::Op {
            op: crate::facts::Op::Read,
            args,
            ..
        } => match args.as_slice() {
            [Value::Str(t)] => Some(t.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A file read whose path is a parameter as it stands (`open(path)`,
/// `Path(p)`) is a read the link fills in, as `f"{path}"` is; a `.read()`
/// of anything else (a file object passed in) is none.
#[test]
fn a_read_of_a_path_parameter_is_left_for_the_link() {
    let src = r#"
from pathlib import Path
def opened(path):
    return open(path).read()
def text_of(p):
    return Path(p).read_text()
def built(name):
    return open(f"lua/{name}").read()
def drained(fh):
    return fh.read()
"#;
    let f = facts(src);
    let got: Vec<Option<String>> = ["opened", "text_of", "built", "drained"]
        .iter()
        .map(|n| read_path(&f, n))
        .collect();
    assert_eq!(
        got,
        [
            Some("<path>".into()),
            Some("<p>".into()),
            Some("lua/<name>".into()),
            None
        ]
    );
}

/// A class body is a scope: a name bound in it is read bare by the rest
/// of it (`f"{LUA_DIR}/x.lua"`), not by its methods.
#[test]
fn a_class_body_reads_its_own_names() {
    let src = r#"
class Store:
    LUA_DIR = "lua"
    BUMP = f"{LUA_DIR}/bump.lua"
    def path(self):
        return f"{LUA_DIR}/trim.lua"
"#;
    let f = facts(src);
    let bump = f.consts.iter().find(|c| c.name == "BUMP").unwrap();
    assert_eq!(bump.value.as_str().as_deref(), Some("lua/bump.lua"));
    let path = f.functions.iter().find(|d| d.name == "path").unwrap();
    assert_eq!(path.returns.describe(), "<LUA_DIR>/trim.lua");
}

/// `*args` (typed or not) holds a position: the parameters after it are
/// bound by name alone, never by the positions it takes.
#[test]
fn a_star_parameter_keeps_its_position() {
    let src = r#"
def hit(item, *ids: str, cost: int = 1):
    return cost
def tag(name, *rest, by=1):
    return by
"#;
    let f = facts(src);
    let params = |n: &str| {
        f.functions
            .iter()
            .find(|d| d.name == n)
            .unwrap()
            .params
            .clone()
    };
    assert_eq!(params("hit"), ["item", "ids", "cost"]);
    assert_eq!(params("tag"), ["name", "rest", "by"]);
}

/// A template of `str.format` is no script as it stands, nor is a piece it
/// is filled with that does not parse as Lua (`key="KEYS[1]"`); a script
/// the file never formats is one.
#[test]
fn a_format_template_and_its_pieces_are_no_scripts() {
    let src = r#"
import redis
TEMPLATE = """
if {condition} redis.call('zscore', {key}, ARGV[1]) then
    redis.call('zadd', {key}, 0, ARGV[1])
end
"""
NOUPDATE = TEMPLATE.format(key="KEYS[1]", condition="not")
INLINE = """if {c} redis.call('get', KEYS[1]) then return 1 end""".format(c="not")
PLAIN = "return redis.call('get', KEYS[1])"
"#;
    let names: Vec<Option<String>> = facts(src).scripts.iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, [Some("PLAIN".to_string())]);
}
