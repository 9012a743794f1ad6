//! The Ruby extractor's cases: each form of the table and of the values
//! stated to the value-flow core, with its exact facts.

use crate::extract::extract_file;
use crate::extract::test_support::template_text;
use crate::facts::{FileFacts, Lang, ScriptSource, Value, RECEIVER};
use crate::parse::Parsers;

pub(super) fn facts(src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    extract_file(&mut p, Lang::Ruby, 0, src.as_bytes(), "jobs")
}

/// A value as a test reads it: a literal as written, a template with its
/// holes as `{..}`, the rest `?`.
pub(super) fn show(v: &Value) -> String {
    match v {
        Value::Int { value, .. } => value.to_string(),
        Value::Str(t) => template_text(t, show, |label| format!("{{{label}}}")),
        Value::Const { path, .. } => path.join("::"),
        Value::Call { path, args, .. } => {
            let a: Vec<String> = args.iter().map(show).collect();
            format!("{}({})", path.join("."), a.join(", "))
        }
        Value::Param {
            index: RECEIVER,
            name,
            ..
        } => format!("@{name}"),
        Value::Param { name, .. } => format!("${name}"),
        Value::ScriptRef { index, .. } => format!("script#{index}"),
        Value::OneOf { alts, .. } => {
            let a: Vec<String> = alts.iter().map(show).collect();
            a.join("|")
        }
        _ => "?".into(),
    }
}

/// `NAME args..` of each command.
pub(super) fn commands(f: &FileFacts) -> Vec<String> {
    crate::extract::test_support::commands(f, show)
}

#[test]
fn typed_commands_are_read_through_the_table() {
    let src = r##"
require "redis"
r = Redis.new
r.hset("q:1", "state", "wait")
r.hset("q:1", { "state" => "wait", "attempts" => 0 })
r.hset "q:1", state: "wait"
r.mapped_hmset("q:2", "payload" => "{}")
r.zadd("q:pending", 5, "j1")
r.zadd("q:pending", [[5, "j1"], [6, "j2"]])
r.hmget("q:1", "state", "payload")
r.del("q:1", *others)
r.set("q:lock", 1, ex: 5)
"##;
    assert_eq!(
        commands(&facts(src)),
        [
            "HSET q:1 state wait",
            "HSET q:1 state wait attempts 0",
            "HSET q:1 state wait",
            "HMSET q:2 payload {}",
            "ZADD q:pending 5 j1",
            "ZADD q:pending 5 j1 6 j2",
            "HMGET q:1 state payload",
            "DEL q:1 ..",
            "SET q:lock 1 ..",
        ]
    );
}

/// redis-client's `call` names its command, as a string or a symbol; a
/// block given by `redis`, `pipelined` or `multi` holds a client.
#[test]
fn named_commands_and_block_clients() {
    let src = r##"
require "redis-client"
def work(pool)
  redis do |c|
    c.call("HSET", "q:1", "state", "wait")
    c.call(:hdel, "q:1", "lock")
    c.get("q:2")
  end
  pool.with do |conn|
    conn.pipelined do |p|
      p.call("LPUSH", "q:wait", "j1")
      p.set("q:3", "x")
    end
  end
end
"##;
    assert_eq!(
        commands(&facts(src)),
        [
            "HSET q:1 state wait",
            "HDEL q:1 lock",
            "GET q:2",
            "LPUSH q:wait j1",
            "SET q:3 x",
        ]
    );
}

/// `get`, `set`, `call` are also a hash's, a cache's or a proc's: they
/// count only on a Redis-like receiver, and only in a file that names
/// Redis.
#[test]
fn generic_methods_need_a_redis_receiver_and_a_file_that_names_redis() {
    let src = r##"
def f(opts, handler, cache, redis)
  opts.get("q:1")
  handler.call("HSET", "q:1")
  cache.set("q:2", 1)
  redis.set("q:3", 1)
end
"##;
    assert_eq!(commands(&facts(src)), ["SET q:3 1"]);
    let unnamed = "def f(r)\n  r.hset(\"q:1\", \"state\", 1)\nend\n";
    assert_eq!(commands(&facts(unnamed)), Vec::<String>::new());
}

/// Lua in a heredoc is parsed in place and named by its constant; `eval`
/// and `evalsha` with `keys:`/`argv:` or positional arrays are script
/// calls, and `script(:load, LUA)` gives the script.
#[test]
fn heredoc_scripts_and_their_calls() {
    let src = r##"
class Queue
  ENQUEUE = <<~LUA
    redis.call("HSET", KEYS[1], "state", ARGV[1])
  LUA

  def initialize(redis)
    @redis = redis
    @sha = redis.script(:load, ENQUEUE)
  end

  def push(id)
    @redis.evalsha(@sha, keys: ["q:#{id}"], argv: ["wait"])
    @redis.eval(ENQUEUE, ["q:#{id}"], ["wait", 1])
  end
end
"##;
    let f = facts(src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("ENQUEUE"));
    let ScriptSource::Inline(lua) = &f.scripts[0].source else {
        panic!("inline");
    };
    let at = lua.commands[0].span.start as usize;
    assert_eq!(&src[at..at + 10], "redis.call");
    let calls = script_calls(&f);
    assert_eq!(
        calls,
        ["@sha [q:{$id}] [wait]", "ENQUEUE [q:{$id}] [wait, 1]",]
    );
    let sha: Vec<String> = f
        .consts
        .iter()
        .filter(|c| c.name == ".sha")
        .map(|c| format!("{} {}", c.module, show(&c.value)))
        .collect();
    assert_eq!(sha, ["Queue ENQUEUE"]);
}

/// Constants, `A::B`, methods returning a value (bare names are calls),
/// `@x` set in `initialize`, and interpolation build keys the value-flow
/// core follows.
#[test]
fn values_for_the_flow_core() {
    let src = r##"
require "redis"
module Emq
  PREFIX = "emq"
  module Keys
    def self.queue(name) = "#{PREFIX}:{#{name}}"
    def self.state
      "state"
    end
  end

  class Worker
    attr_reader :queue

    def initialize(queue)
      @queue = queue
    end

    def key
      Keys.queue(@queue) + ":wait"
    end

    def run(redis)
      redis.hset(key, Keys.state, Emq::Keys::FIELD)
      redis.lpush(queue, format("%s:%d", PREFIX, 1))
    end
  end
end
"##;
    let f = facts(src);
    assert_eq!(
        commands(&f),
        [
            "HSET key() Keys.state() Emq::Keys::FIELD",
            "LPUSH queue() {PREFIX}:1"
        ]
    );
    let funcs: Vec<String> = f
        .functions
        .iter()
        .map(|d| {
            format!(
                "{} {}({}) = {}",
                d.module,
                d.name,
                d.params.join(", "),
                show(&d.returns)
            )
        })
        .collect();
    assert_eq!(
        funcs,
        [
            "Emq::Keys queue(name) = {PREFIX}:{{$name}}",
            "Emq::Keys state() = state",
            "Emq::Worker queue() = @queue",
            "Emq::Worker initialize(queue) = ?",
            "Emq::Worker key() = {Keys.queue(@queue)}:wait",
            // What a method of another value returns is that value's.
            "Emq::Worker run(redis) = ?",
        ]
    );
    let consts: Vec<String> = f
        .consts
        .iter()
        .map(|c| format!("{} {} = {}", c.module, c.name, show(&c.value)))
        .collect();
    // A field set from a parameter holds what each caller passes: no
    // definition of its own (as in the other extractors).
    assert_eq!(consts, ["Emq PREFIX = emq"]);
}

/// A hash read whole by `hgetall` and then indexed is a field read.
#[test]
fn rows_read_whole() {
    let src = r##"
def load(redis, id)
  row = redis.hgetall("q:#{id}")
  row["payload"]
end
"##;
    let f = facts(src);
    let reads: Vec<String> = f
        .field_reads
        .iter()
        .map(|r| format!("{} {}", show(&r.key), show(&r.field)))
        .collect();
    assert_eq!(reads, ["q:{$id} payload"]);
}

/// Escapes are decoded in double-quoted strings and kept in single-quoted
/// ones (but `\'`), adjacent literals are one, and an interpolation is the
/// value it holds.
#[test]
fn strings_are_read_as_ruby_reads_them() {
    let src = r##"
require "redis"
def f(redis, q)
  redis.hget("a:\x41\u{42}\t", 'b:\n\'')
  redis.hget("q:#{q}:" "wait", :state)
end
"##;
    assert_eq!(
        commands(&facts(src)),
        ["HGET a:AB\t b:\\n'", "HGET q:{$q}:wait state"]
    );
}

/// A heredoc that quotes `KEYS[n]` in a message, and does not parse as
/// Lua, is no script; a script with a syntax error that calls Redis is one
/// (and its error is reported).
#[test]
fn messages_that_quote_keys_are_no_scripts() {
    let src = r##"
MSG = <<~TXT
  attempt to compare nil with number
     5: local k = KEYS[5]
TXT
BROKEN = <<~LUA
  redis.call("HSET", KEYS[1], "state", )
LUA
"##;
    let f = facts(src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("BROKEN"));
}

/// A block's parameters and the targets of `a, b = ..` are locals: a
/// name read after them is no call of a method so named (which the name
/// pass would then look for in every file of the code base).
#[test]
fn block_parameters_are_locals() {
    let src = r##"
require "redis"
def clear
  redis.keys("q:*").each { |key| redis.del "q:#{key}" }
  a, b = pick
  redis.get(a)
  redis.get(other)
end
"##;
    assert_eq!(
        commands(&facts(src)),
        ["DEL q:{key}", "GET ?", "GET other()"]
    );
}

/// A subclass of a client is a client: in its methods `self.x(..)` and a
/// bare `x(..)` send `x`, unless the class defines `x` itself; a class of
/// another base does not.
#[test]
fn a_clients_subclass_sends_on_itself() {
    let src = r##"
require "redis"
class Store < Redis
  def put(id)
    hset("st:#{id}", "state", "new")
    self.sadd("st:all", id)
    get("st:#{id}")
  end

  def get(id)
    super("st:#{id}:raw")
  end
end
class Cache < Hash
  def put(id)
    hset("c:#{id}", "state", "new")
  end
end
"##;
    assert_eq!(
        commands(&facts(src)),
        ["HSET st:{$id} state new", "SADD st:all $id"]
    );
}

/// `ERB.new(text).result(binding)` is the template's text: a script file
/// read through ERB is that file's script.
#[test]
fn an_erb_template_gives_its_text() {
    let src = r##"
require "redis"
def run(redis, name)
  lua = ERB.new(File.read(File.join(__dir__, "lua/#{name}.lua"))).result(binding)
  redis.eval(lua, keys: ["q:1"])
end
"##;
    let f = facts(src);
    assert_eq!(f.script_calls.len(), 1);
    let shown = format!("{:?}", f.script_calls[0].script);
    assert!(shown.starts_with("Op { op: Read"), "{shown}");
}

/// A redis-prescription script object run with the client first and the
/// keys and arguments by keyword is a script call of the receiver; a
/// `call` of another shape is not (a proc given no client, or no keyword).
#[test]
fn a_script_object_run_with_a_client_and_keywords() {
    let src = r##"
class Gate
  SCRIPT = RedisPrescription.new(File.read("#{__dir__}/gate.lua"))

  def pass?(redis, id)
    SCRIPT.call(redis, keys: ["g:#{id}"], argv: [1])
    SCRIPT.call(redis, argv: [2])
    HANDLER.call(id, keys: ["g:#{id}"])
    SCRIPT.call(redis)
  end
end
"##;
    let f = facts(src);
    let calls = script_calls(&f);
    assert_eq!(calls, ["SCRIPT [g:{$id}] [1]", "SCRIPT [] [2]"]);
}

/// Each script call as `SCRIPT [keys] [args]`.
fn script_calls(f: &FileFacts) -> Vec<String> {
    f.script_calls
        .iter()
        .map(|c| {
            let k: Vec<String> = c.keys.iter().map(show).collect();
            let a: Vec<String> = c.args.iter().map(show).collect();
            format!("{} [{}] [{}]", show(&c.script), k.join(", "), a.join(", "))
        })
        .collect()
}
