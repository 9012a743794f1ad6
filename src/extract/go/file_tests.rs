//! The Go extractor's files, embeds and values that reach a script from
//! elsewhere: `//go:embed`, `os.ReadFile`, a script another package
//! exports, a SHA loaded and passed through a method value.

use super::tests::{commands, facts, script_calls, show};
use crate::facts::{FileFacts, ScriptSource};

/// The `.lua` file each script comes from, as (name, path, relative to
/// the file, declared keys).
fn file_scripts(f: &FileFacts) -> Vec<(String, String, bool, Option<u32>)> {
    f.scripts
        .iter()
        .filter_map(|s| match &s.source {
            ScriptSource::File {
                path,
                relative_to_file,
                ..
            } => Some((
                s.name.clone().unwrap_or_default(),
                path.clone(),
                *relative_to_file,
                s.declared_keys.map(|k| k.0),
            )),
            ScriptSource::Inline(_) => None,
        })
        .collect()
}

/// `//go:embed path` above a package-level `string` or `[]byte` makes it
/// the file's script (the path relative to the package's directory);
/// above an `embed.FS`, `fs.ReadFile(fsys, p)` and `fsys.ReadFile(p)` read
/// from it; a directive above another declaration, a file that is no
/// `.lua` file, or a path computed at run time is no script.
#[test]
fn embedded_files_are_the_scripts_they_hold() {
    let src = "package lock

import (
	\"context\"
	\"embed\"
	_ \"embed\"
	\"io/fs\"

	\"github.com/redis/go-redis/v9\"
)

var (
	//go:embed script/lua/lock.lua
	luaLock string

	// luaRefresh extends a lock.
	//go:embed script/lua/refresh.lua
	luaRefresh []byte

	//go:embed README.md
	readme string

	other string
)

//go:embed scripts
var scripts embed.FS

func run(ctx context.Context, rdb *redis.Client, name string) {
	rdb.Eval(ctx, luaLock, []string{\"l:1\"}, \"v\")
	rdb.Eval(ctx, string(luaRefresh), []string{\"l:1\"})
	src, _ := fs.ReadFile(scripts, \"scripts/unlock.lua\")
	rdb.Eval(ctx, string(src), []string{\"l:1\"})
	body, err := scripts.ReadFile(\"scripts/queue/push.lua\")
	rdb.Eval(ctx, string(body), []string{\"q:1\"})
	any, _ := fs.ReadFile(scripts, \"scripts/\"+name)
	rdb.Eval(ctx, string(any), []string{\"q:1\"})
}
";
    let f = facts(src);
    assert_eq!(
        file_scripts(&f),
        [
            ("luaLock".into(), "script/lua/lock.lua".into(), true, None),
            (
                "luaRefresh".into(),
                "script/lua/refresh.lua".into(),
                true,
                None
            ),
            ("src".into(), "scripts/unlock.lua".into(), true, None),
            ("body".into(), "scripts/queue/push.lua".into(), true, None),
        ]
    );
    let consts: Vec<String> = f
        .consts
        .iter()
        .map(|c| format!("{} = {}", c.name, show(&c.value)))
        .collect();
    assert_eq!(consts, ["luaLock = script#0", "luaRefresh = script#1"]);
    assert_eq!(
        script_calls(&f),
        [
            "luaLock [l:1] [v]",
            "luaRefresh [l:1] []",
            "script#2 [l:1] []",
            "script#3 [q:1] []",
            "#read(scripts/{$name}) [q:1] []",
        ]
    );
}

/// `os.ReadFile` and `ioutil.ReadFile` read the file their path names
/// (relative to the reading file when a directory computed at run time
/// comes first); a package-level `var` set by a function literal called
/// where it stands is what the literal returns; redigo's literal key
/// count is the script's registration.
#[test]
fn files_read_and_literals_called_in_place() {
    let src = "package scripts

import (
	\"io/ioutil\"
	\"log\"
	\"os\"

	redigo \"github.com/gomodule/redigo/redis\"
	\"github.com/example/app/config\"
)

var POP = func() *redigo.Script {
	b, err := ioutil.ReadFile(config.LuaPath + \"/pop.lua\")
	if err != nil {
		log.Fatal(err)
	}
	return redigo.NewScript(1, string(b))
}()

var push = func() string {
	b, _ := os.ReadFile(\"lua/push.lua\")
	return string(b)
}()

var notLua = func() string {
	b, _ := os.ReadFile(\"lua/push.txt\")
	return string(b)
}()
";
    let f = facts(src);
    assert_eq!(
        file_scripts(&f),
        [
            ("b".into(), "pop.lua".into(), true, Some(1)),
            ("b".into(), "lua/push.lua".into(), false, None),
        ]
    );
    let consts: Vec<String> = f
        .consts
        .iter()
        .map(|c| format!("{} = {}", c.name, show(&c.value)))
        .collect();
    assert_eq!(
        consts,
        [
            "POP = script#0",
            "push = script#1",
            "notLua = os.ReadFile(lua/push.txt)"
        ]
    );
}

/// A script object another package of a module exports runs where the
/// row's shape holds (the client passed first, after a context): the link
/// follows the name to its definition. A name of the standard library, or
/// a call whose first argument is no client, is no run.
#[test]
fn a_script_another_package_exports_is_run_by_the_rows_shape() {
    let src = "package worker

import (
	\"context\"
	\"sync\"

	\"github.com/example/app/lua\"
	\"github.com/example/app/jobs\"
	redigo \"github.com/gomodule/redigo/redis\"
	\"github.com/redis/go-redis/v9\"
)

func f(ctx context.Context, conn redigo.Conn, rdb *redis.Client, key string) {
	lua.KeepAlive.Do(conn, key, 30)
	jobs.Enqueue.Run(ctx, rdb, []string{key}, 1)
	jobs.Runner.Do(key, 30)
	sync.Pool.Do(conn, key)
}
";
    let f = facts(src);
    assert_eq!(commands(&f), ["EVALSHA lua.KeepAlive ? $key 30"]);
    assert_eq!(script_calls(&f), ["jobs.Enqueue [$key] [1]"]);
}

/// A comment between a composite literal's elements is none of them.
#[test]
fn comments_in_a_slice_literal_are_no_elements() {
    let src = "package broker

import \"github.com/redis/go-redis/v9\"

var expire = redis.NewScript(`return redis.call('ZRANGE', KEYS[2], 0, ARGV[1])`)

func f(ctx context.Context, rdb *redis.Client, ch string) {
	expire.Run(ctx, rdb,
		[]string{
			\"h:\" + ch, // KEYS[1]: the hash
			\"z:\" + ch, // KEYS[2]: the zset
		},
		/* the batch */ 10,
	)
}
";
    assert_eq!(script_calls(&facts(src)), ["expire [h:{$ch} z:{$ch}] [10]"]);
}

/// `ScriptLoad(ctx, src)` is `SCRIPT LOAD src`, and its reply (through
/// `.Result()`) the SHA1 of `src`; a parameter of a function type called
/// is a call of what the caller passes, and a method named without a call
/// (`s.incr`) is the method as a value; a variadic method of the file
/// receives the arguments from its variadic parameter on as one slice.
#[test]
fn a_loaded_sha_reaches_evalsha_through_a_method_value() {
    let src = "package limiter

import (
	\"context\"

	libredis \"github.com/redis/go-redis/v9\"
)

const incrLua = `return redis.call('INCR', KEYS[1])`

type Store struct {
	client  libredis.UniversalClient
	incrSHA string
}

func (s *Store) load(ctx context.Context) error {
	sha, err := s.client.ScriptLoad(ctx, incrLua).Result()
	if err != nil {
		return err
	}
	s.incrSHA = sha
	return nil
}

func (s *Store) incr() string {
	return s.incrSHA
}

func (s *Store) eval(ctx context.Context, sha func() string, keys []string, args ...any) error {
	return s.client.EvalSha(ctx, sha(), keys, args...).Err()
}

func (s *Store) Hit(ctx context.Context, key string) error {
	return s.eval(ctx, s.incr, []string{key}, 1, \"ms\")
}
";
    let f = facts(src);
    assert_eq!(commands(&f), ["SCRIPT LOAD incrLua"]);
    let consts: Vec<String> = f
        .consts
        .iter()
        .map(|c| format!("{} {} = {}", c.module, c.name, show(&c.value)))
        .collect();
    assert_eq!(
        consts,
        [
            "limiter incrLua = script#0",
            "limiter.Store .incrSHA = #sha1(incrLua)"
        ]
    );
    assert_eq!(script_calls(&f), ["#apply.sha($sha) [ ..] [ ..]"]);
    // The variadic parameter receives the arguments from it on as a slice.
    let hit = f.calls.iter().find(|c| c.path == ["self", "eval"]).unwrap();
    let args: Vec<String> = hit.args.iter().map(show).collect();
    assert_eq!(args, ["$ctx", "#fn(Store.incr())", "[$key]", "[1, ms]"]);
}
