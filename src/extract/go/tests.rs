//! The Go extractor's cases: each form of the table and of the values
//! stated to the value-flow core, with its exact facts.

use crate::extract::extract_file;
use crate::extract::test_support::template_text;
use crate::facts::{FileFacts, Lang, ScriptSource, Value, RECEIVER};
use crate::parse::Parsers;

pub(super) fn facts(src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    extract_file(&mut p, Lang::Go, 0, src.as_bytes(), "jobs")
}

/// A value as text: literals as written, a template's holes `{..}`.
pub(super) fn show(v: &Value) -> String {
    if let Some(s) = v.as_str() {
        return s;
    }
    match v {
        Value::Int { value, .. } => value.to_string(),
        Value::Const { path, .. } => path.join("."),
        Value::Param { index, name, .. } if *index == RECEIVER => format!("self.{name}"),
        Value::Param { name, .. } => format!("${name}"),
        Value::Call { args, .. } | Value::Op { args, .. } => {
            let name = match v {
                Value::Call { path, .. } => path.join("."),
                Value::Op {
                    op: crate::facts::Op::Apply(m),
                    ..
                } => format!("#apply.{}", m.join(".")),
                _ => v.callee_name().unwrap_or_default(),
            };
            format!(
                "{name}({})",
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        Value::Str(t) => template_text(t, show, |_| "{?}".into()),
        Value::ScriptRef { index, .. } => format!("script#{index}"),
        Value::List { items, tail, .. } => {
            let mut s: Vec<String> = items.iter().map(show).collect();
            if !tail.is_empty() {
                s.push("..".into());
            }
            format!("[{}]", s.join(", "))
        }
        _ => "?".into(),
    }
}

/// `NAME args..` of each command.
pub(super) fn commands(f: &FileFacts) -> Vec<String> {
    crate::extract::test_support::commands(f, show)
}

/// `script keys | args` of each script call.
pub(super) fn script_calls(f: &FileFacts) -> Vec<String> {
    f.script_calls
        .iter()
        .map(|c| {
            let keys: Vec<String> = c.keys.iter().map(show).collect();
            let args: Vec<String> = c.args.iter().map(show).collect();
            format!(
                "{} [{}{}] [{}{}]",
                show(&c.script),
                keys.join(" "),
                if c.open_keys { " .." } else { "" },
                args.join(" "),
                if c.open_args { " .." } else { "" },
            )
        })
        .collect()
}

#[test]
fn go_redis_commands_are_read_through_the_table() {
    let src = r#"package jobs

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func push(ctx context.Context, rdb *redis.Client, id string) {
	rdb.HSet(ctx, "q:1", "state", "wait", "attempts", 0)
	rdb.HSet(ctx, "q:1", map[string]interface{}{"state": "wait"})
	rdb.HMGet(ctx, "q:1", "state", "payload")
	rdb.ZAdd(ctx, "q:pending", redis.Z{Score: 5, Member: id})
	pipe := rdb.Pipeline()
	pipe.LRem(ctx, "q:active", 1, id)
	rdb.Del(ctx, keys...)
	cache.Get("q:1")
}
"#;
    assert_eq!(
        commands(&facts(src)),
        [
            "HSET q:1 state wait attempts 0",
            "HSET q:1 state wait",
            "HMGET q:1 state payload",
            "ZADD q:pending 5 $id",
            "LREM q:active 1 $id",
            "DEL ..",
        ]
    );
}

#[test]
fn redigo_do_names_its_command() {
    let src = r#"package jobs

import "github.com/gomodule/redigo/redis"

func push(c redis.Conn, id string) {
	c.Do("HSET", "q:"+id, "state", "wait")
	c.Send("LPUSH", "q:wait", id)
	c.Do("NOT A COMMAND", "x")
	other.Do("HSET", "x", "y", "z")
}
"#;
    assert_eq!(
        commands(&facts(src)),
        ["HSET q:{$id} state wait", "LPUSH q:wait $id"]
    );
}

#[test]
fn scripts_in_strings_are_parsed_in_place_and_run() {
    let src = "package jobs

import \"github.com/redis/go-redis/v9\"

var enqueueCmd = redis.NewScript(`
redis.call(\"HSET\", KEYS[1], \"state\", ARGV[1])
return 1`)

var header = \"local k = KEYS[1]\\n\" +
	\"return redis.call('GET', k)\"

func (r *RDB) enqueue(ctx context.Context, id string) error {
	keys := []string{\"q:\" + id}
	return enqueueCmd.Run(ctx, r.client, keys, \"wait\").Err()
}

func (r *RDB) run(ctx context.Context, script *redis.Script, keys []string, args ...interface{}) error {
	return script.Run(ctx, r.client, keys, args...).Err()
}

func (r *RDB) eval(ctx context.Context) {
	r.client.Eval(ctx, \"return redis.call('GET', KEYS[1])\", []string{\"q:x\"}, 1)
	job.Run(ctx, r.client, []string{\"q:x\"})
	task.Run(ctx, 3)
}
";
    let f = facts(src);
    let names: Vec<Option<String>> = f.scripts.iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        names,
        [Some("enqueueCmd".into()), Some("header".into()), None]
    );
    let ScriptSource::Inline(lua) = &f.scripts[1].source else {
        panic!("inline");
    };
    // The concatenation is one script, its spans in the host's bytes.
    let call = &lua.commands[0];
    let at = &src[call.span.start as usize..call.span.end as usize];
    assert_eq!(at, "redis.call('GET', k)");
    assert_eq!(
        script_calls(&f),
        [
            "enqueueCmd [q:{$id}] [wait]",
            "$script [ ..] [ ..]",
            "script#2 [q:x] [1]",
            // `job`, which no line of this file declares, is a variable of
            // another file of the package, run as a script where the call
            // has the row's shape (a client, then a list of keys);
            // `task.Run(ctx, 3)` has not.
            "job [q:x] []",
        ]
    );
}

#[test]
fn redigo_scripts_split_keys_by_their_count() {
    let src = "package jobs

import \"github.com/gomodule/redigo/redis\"

var fetch = redis.NewScript(2, `return redis.call('RPOPLPUSH', KEYS[1], KEYS[2])`)

func f(conn redis.Conn) {
	fetch.Do(conn, \"q:wait\", \"q:active\", \"x\")
}
";
    assert_eq!(script_calls(&facts(src)), ["fetch [q:wait q:active] [x]"]);
}

#[test]
fn values_are_stated_to_the_flow_core() {
    let src = r#"package base

import (
	"fmt"
	"strings"
)

const Prefix = "emq:"

var sep = ":"

func QueueKey(q string) string {
	return fmt.Sprintf("%s{%s}:%d%%", Prefix, q, 3)
}

func JobKey(q, id string) string {
	return strings.Join([]string{Prefix, q, id}, sep)
}

func NewStore(c *redis.Client) *Store {
	return &Store{client: c, ns: "emq"}
}

func (s *Store) key(id string) string {
	return s.ns + ":" + id
}
"#;
    let f = facts(src);
    let consts: Vec<String> = f
        .consts
        .iter()
        .map(|c| format!("{} {} = {}", c.module, c.name, show(&c.value)))
        .collect();
    assert_eq!(
        consts,
        ["base Prefix = emq:", "base sep = :", "base.Store .ns = emq"]
    );
    let funcs: Vec<String> = f
        .functions
        .iter()
        .map(|d| {
            format!(
                "{}.{}({}) = {}",
                d.module,
                d.name,
                d.params.join(","),
                show(&d.returns)
            )
        })
        .collect();
    assert_eq!(
        funcs,
        [
            "base.QueueKey(q) = {Prefix}{{$q}}:3%",
            "base.JobKey(q,id) = {Prefix}{sep}{$q}{sep}{$id}",
            "base.NewStore(c) = ?",
            "base.Store.key(id) = {self.ns}:{$id}",
        ]
    );
}

#[test]
fn a_file_that_names_no_redis_yields_no_command() {
    let src = "package web\n\nfunc f(c *Client) { c.Do(\"GET\", \"x\"); conn.Get(\"k\") }\n";
    let f = facts(src);
    assert!(f.commands.is_empty() && f.script_calls.is_empty());
    assert!(!Lang::Go.host().speaks(src.as_bytes()));
}

/// Go's blocks: a name a block declares is gone after it; one it assigns
/// holds either value; `var s *redis.Script` set in both branches is one
/// of the two scripts; `append` grows a listed slice.
#[test]
fn blocks_scope_their_names_and_branches_merge() {
    let src = "package jobs

import \"github.com/redis/go-redis/v9\"

var a = redis.NewScript(`return redis.call('GET', KEYS[1])`)
var b = redis.NewScript(`return redis.call('DEL', KEYS[1])`)

func f(ctx context.Context, c *redis.Client, force bool, u string) {
	if force {
		keys := []string{\"q:1\"}
		a.Run(ctx, c, keys)
	} else {
		keys := []string{\"q:2\", \"q:3\"}
		b.Run(ctx, c, keys)
	}
	keys := []string{\"q:4\"}
	if u != \"\" {
		keys = append(keys, u)
		a.Run(ctx, c, keys)
	}
	a.Run(ctx, c, keys)
	ks := []string{\"q:6\"}
	if u == \"x\" {
		ks = append(ks, u)
		return
	}
	a.Run(ctx, c, ks)
	var s *redis.Script
	if force {
		s = a
	} else {
		s = b
	}
	s.Run(ctx, c, []string{\"q:5\"})
}
";
    let f = facts(src);
    assert_eq!(
        script_calls(&f),
        [
            "a [q:1] []",
            "b [q:2 q:3] []",
            "a [q:4 $u] []",
            "a [ ..] []",
            "a [q:6] []",
            "? [q:5] []",
        ]
    );
    let Value::OneOf { alts, .. } = &f.script_calls[5].script else {
        panic!("one of two scripts");
    };
    let alts: Vec<String> = alts.iter().map(show).collect();
    assert_eq!(alts, ["a", "b"]);
}

/// A script kept as a `fmt.Sprintf` format: its verbs are names of
/// unknown value to Lua (no syntax error), `%%` a percent sign; a script
/// held by a struct field (typed, or set by a constructor) is run through
/// the field; a script whose key count the file does not show is run as
/// the `EVALSHA` redigo sends, its count the script's own.
#[test]
fn sprintf_scripts_and_script_fields() {
    let src = "package work

import (
	\"fmt\"

	\"github.com/gomodule/redigo/redis\"
)

var fetchLua = fmt.Sprintf(`for i=1,#KEYS,%d do redis.call('LLEN', KEYS[i]) end
return string.format('%%d', 1)`, 2)

type Worker struct {
	fetch *redis.Script
}

type Pool struct{ requeue *redis.Script }

func NewPool() *Pool {
	return &Pool{requeue: redis.NewScript(1, `return redis.call('RPOP', KEYS[1])`)}
}

func (w *Worker) Fetch(conn redis.Conn, args []interface{}) {
	w.fetch.Do(conn, args...)
}

func (p *Pool) Requeue(conn redis.Conn) {
	p.requeue.Do(conn, \"q:dead\")
}
";
    let f = facts(src);
    assert_eq!(f.scripts.len(), 2);
    let ScriptSource::Inline(lua) = &f.scripts[0].source else {
        panic!("inline");
    };
    assert!(lua.errors.is_empty(), "{:?}", lua.errors);
    assert_eq!(script_calls(&f), ["self.requeue [q:dead] []"]);
    // A typed field's count is the script's own: what redigo sends.
    assert_eq!(commands(&f), ["EVALSHA self.fetch ? .."]);
}

/// go-redis v8 on passes a `context.Context` first, whatever its name: a
/// parameter or a field of that type, a call of the `context` package or
/// a name bound to one (`lctx, cancel := context.WithTimeout(..)`), or,
/// for a script run, the list of keys one place later than the row puts
/// it; v6's `Eval(script, keys, ..)` has none.
#[test]
fn a_context_first_is_no_wire_argument() {
    let src = "package lock

import (
	\"context\"
	\"time\"

	\"github.com/redis/go-redis/v9\"
)

const lockLua = `return redis.call('SET', KEYS[1], ARGV[1], 'NX')`

type Locker struct {
	client redis.Cmdable
	base   context.Context
}

func (l *Locker) Lock(parent context.Context, c Ctx, key, val string) {
	lctx, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	l.client.Eval(lctx, lockLua, []string{key}, val)
	l.client.Eval(parent, lockLua, []string{key}, val)
	l.client.Eval(context.Background(), lockLua, []string{key}, val)
	l.client.Eval(l.base, lockLua, []string{key}, val)
	l.client.Eval(c, lockLua, []string{key}, val)
	l.client.Eval(lockLua, []string{key}, val)
	l.client.SetNX(lctx, key, val, 0)
	l.client.SetNX(c, key, val, 0)
}
";
    let f = facts(src);
    assert_eq!(
        script_calls(&f),
        [
            "lockLua [$key] [$val]",
            "lockLua [$key] [$val]",
            "lockLua [$key] [$val]",
            "lockLua [$key] [$val]",
            "lockLua [$key] [$val]",
            "lockLua [$key] [$val]",
        ]
    );
    // A command's row has no shape to tell a context by: `c` stays.
    assert_eq!(commands(&f), ["SETNX $key $val 0", "SETNX $c $key $val 0"]);
}

/// rueidis: `NewLuaScript(src, opts..)` makes a script object (in a
/// struct field its constructor sets, or a local chosen in branches), and
/// `Exec(ctx, client, keys, args)` runs it with two lists.
#[test]
fn rueidis_scripts_run_with_two_lists() {
    let src = "package broker

import (
	\"context\"

	\"github.com/redis/rueidis\"
)

const addSource = `redis.call('XADD', KEYS[1], '*', 'd', ARGV[1])`
const listSource = `redis.call('RPUSH', KEYS[1], ARGV[1])`

type Broker struct {
	client     rueidis.Client
	addScript  *rueidis.Lua
	listScript *rueidis.Lua
	readOnly   *rueidis.Lua
}

func New(c rueidis.Client) *Broker {
	return &Broker{
		client:     c,
		addScript:  rueidis.NewLuaScript(addSource, rueidis.WithLoadSHA1(true)),
		listScript: rueidis.NewLuaScript(listSource),
	}
}

func (b *Broker) Add(ctx context.Context, ch, data string, lists bool) {
	b.addScript.Exec(ctx, b.client, []string{\"s:\" + ch}, []string{data})
	var script *rueidis.Lua
	if lists {
		script = b.listScript
	} else {
		script = b.addScript
	}
	script.Exec(context.Background(), b.client, []string{\"s:\" + ch}, []string{data, \"1\"})
	b.readOnly.Exec(ctx, b.client, nil, nil)
}
";
    let f = facts(src);
    assert_eq!(
        script_calls(&f),
        [
            "self.addScript [s:{$ch}] [$data]",
            "? [s:{$ch}] [$data 1]",
            "self.readOnly [] []",
        ]
    );
    let consts: Vec<String> = f
        .consts
        .iter()
        .filter(|c| c.name.ends_with("Script"))
        .map(|c| format!("{} {} = {}", c.module, c.name, show(&c.value)))
        .collect();
    assert_eq!(
        consts,
        [
            "broker.Broker .addScript = addSource",
            "broker.Broker .listScript = listSource"
        ]
    );
}

/// A script object's type is known through an aliased import
/// (`redigo "github.com/gomodule/redigo/redis"`), in a field or a `var`;
/// its key count unknown here, each run is the `EVALSHA` redigo sends.
#[test]
fn script_types_resolve_through_the_import_alias() {
    let src = "package worker

import redigo \"github.com/gomodule/redigo/redis\"

type Set struct {
	pop *redigo.Script
}

var confirm *redigo.Script

func (s *Set) Pop(conn redigo.Conn, list string) {
	s.pop.Do(conn, list, 30)
	confirm.Send(conn, list)
}
";
    assert_eq!(
        commands(&facts(src)),
        ["EVALSHA self.pop ? $list 30", "EVALSHA confirm ? $list"]
    );
}

/// radix's import names its client although no client word is in it: a
/// script object's `Cmd` runs its script (v4: a list of keys, then the
/// args). The same code importing another package calls no client.
#[test]
fn a_radix_script_runs_where_the_file_imports_radix() {
    let src = "package q\n\nimport \"github.com/mediocregopher/radix/v4\"\n\nconst lua = \"return KEYS[1]\"\n\nvar get = radix.NewEvalScript(lua)\n\nfunc Get(ctx context.Context, c radix.Client, k string) error {\n\tvar out string\n\treturn c.Do(ctx, get.Cmd(&out, []string{k}, \"a\"))\n}\n";
    assert_eq!(script_calls(&facts(src)), ["get [$k] [a]"]);
    let other = src.replace("mediocregopher/radix/v4", "example.com/radix/v4");
    assert_eq!(script_calls(&facts(&other)), Vec::<String>::new());
}

/// radix's package functions send the command their second argument names
/// (the first is where the reply goes), inside the client's `Do` or not; a
/// variable named like the package is not it.
#[test]
fn radix_cmd_sends_the_command_it_names() {
    let src = "package q\n\nimport \"github.com/mediocregopher/radix/v4\"\n\nfunc Set(ctx context.Context, c radix.Client, k string) error {\n\tvar out string\n\t_ = radix.FlatCmd(nil, \"HGET\", k, \"f\")\n\treturn c.Do(ctx, radix.Cmd(&out, \"HSET\", k, \"state\", \"done\"))\n}\n\nfunc Other(radix Shell, k string) {\n\tradix.Cmd(nil, \"HDEL\", k, \"f\")\n}\n";
    assert_eq!(commands(&facts(src)), ["HGET $k f", "HSET $k state done"]);
}
