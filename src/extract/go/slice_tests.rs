//! Go slices built by statements, read as the keys they hold.

use super::tests::{commands, facts, script_calls};

/// `make([]string, 0, n)` is an empty slice: the keys `append` fills it
/// with are the keys passed.
#[test]
fn a_made_slice_holds_what_is_appended() {
    let src = "package jobs

import \"github.com/redis/go-redis/v9\"

var a = redis.NewScript(`return redis.call('GET', KEYS[1])`)

func f(ctx context.Context, c *redis.Client, u string) {
	keys := make([]string, 0, 2)
	keys = append(keys, \"q:1\")
	keys = append(keys, u)
	a.Run(ctx, c, keys)
	ks := make([]string, 1)
	a.Run(ctx, c, ks)
}
";
    let f = facts(src);
    assert_eq!(script_calls(&f), ["a [q:1 $u] []", "a [ ..] []"]);
}

/// `f(xs...)` passes the slice itself as the variadic parameter: a listed
/// slice gives its items, to a client's `Do` (the command's name among
/// them), to a script's arguments and to `append`; one not listed leaves
/// the tail open, as before.
#[test]
fn a_spread_slice_passes_its_items() {
    let src = "package jobs

import \"github.com/redis/go-redis/v9\"

var a = redis.NewScript(`return redis.call('GET', KEYS[1])`)

func f(ctx context.Context, c *redis.Client, u string, more []interface{}) {
	args := []interface{}{\"HSET\", \"q:1\", \"state\"}
	args = append(args, []interface{}{u}...)
	c.Do(ctx, args...)
	c.Do(ctx, []interface{}{\"HDEL\", \"q:2\", \"f\"}...)
	c.Do(ctx, more...)
	argv := []interface{}{u, \"x\"}
	a.Run(ctx, c, []string{\"q:1\"}, argv...)
	a.Run(ctx, c, []string{\"q:1\"}, more...)
}
";
    let f = facts(src);
    assert_eq!(commands(&f), ["HSET q:1 state $u", "HDEL q:2 f"]);
    assert_eq!(script_calls(&f), ["a [q:1] [$u x]", "a [q:1] [ ..]"]);
}

/// go-redis's `redis.NewCmd(ctx, "HSET", ..)` (and its typed kin) is read
/// where it is built, its context no wire argument; radix's `Cmd` keeps its
/// destination out.
#[test]
fn a_command_built_by_the_client_package_is_read_where_it_is_built() {
    let src = "package jobs

import \"github.com/redis/go-redis/v9\"

func f(ctx context.Context, c *redis.Client, u string) {
	cmd := redis.NewCmd(ctx, \"HSET\", \"q:1\", \"state\", u)
	_ = c.Process(ctx, cmd)
	_ = redis.NewStringCmd(\"HGET\", \"q:1\", \"state\")
}
";
    assert_eq!(
        commands(&facts(src)),
        ["HSET q:1 state $u", "HGET q:1 state"]
    );
}

/// A spread slice of more than 256 listed items keeps every value: the
/// items past the 256th are its tail, never dropped.
#[test]
fn a_long_spread_slice_keeps_its_items_past_the_cap() {
    let items: Vec<String> = (0..300).map(|i| format!("\"a{i}\"")).collect();
    let src = format!(
        "package jobs

import \"github.com/redis/go-redis/v9\"

var a = redis.NewScript(`return redis.call('GET', KEYS[1])`)

func f(ctx context.Context, c *redis.Client) {{
	argv := []interface{{}}{{{}}}
	a.Run(ctx, c, []string{{\"q:1\"}}, argv...)
}}
",
        items.join(", ")
    );
    let f = facts(&src);
    let [call] = f.script_calls.as_slice() else {
        panic!("one script call: {:?}", f.script_calls);
    };
    assert_eq!((call.args.len(), call.open_args), (256, true));
}
