//! Ruby's splat and arrays changed in place: `*a` of an array the code
//! shows is its items where it stands; of any other value an open tail.

use super::tests::{commands, facts, show};

/// Script calls as `script [keys] [argv]`, `..` for an open sequence.
fn script_calls(src: &str) -> Vec<String> {
    facts(src)
        .script_calls
        .iter()
        .map(|c| {
            let seq = |items: &[crate::facts::Value], open: bool| {
                let mut s: Vec<String> = items.iter().map(show).collect();
                if open {
                    s.push("..".into());
                }
                s.join(", ")
            };
            format!(
                "{} [{}] [{}]",
                show(&c.script),
                seq(&c.keys, c.open_keys),
                seq(&c.args, c.open_args)
            )
        })
        .collect()
}

#[test]
fn a_splat_of_an_array_is_its_items_in_place() {
    let src = r##"
require "redis-client"
def work(conn, id, rest)
  args = ["HSET", "q:#{id}", "state", "done"]
  conn.call(*args)
  fields = ["state", "done"]
  conn.call("HSET", "q:#{id}", *fields, "attempts", 0)
  conn.call("DEL", *rest)
  conn.call(*rest)
  key = format(*["q:%s", id])
  conn.call("GET", key)
end
"##;
    assert_eq!(
        commands(&facts(src)),
        [
            "HSET q:{$id} state done",
            "HSET q:{$id} state done attempts 0",
            "DEL ..",
            "GET q:{$id}",
        ]
    );
}

#[test]
fn script_calls_read_splats_as_ruby_spreads_them() {
    let src = r##"
require "redis"
class Jobs
  LUA = "return redis.call('GET', KEYS[1])"
  def run(redis, id, more)
    extra = ["b", id]
    redis.eval(LUA, keys: ["q:#{id}"], argv: [*extra, "c"])
    call = [LUA, ["q:#{id}"], ["x"]]
    redis.eval(*call)
    redis.eval(LUA, ["q:#{id}"], *more)
    redis.eval(LUA, keys: [*more, "q"])
    redis.eval(LUA, { keys: ["k"], argv: ["a"] })
  end
end
"##;
    assert_eq!(
        script_calls(src),
        [
            "LUA [q:{$id}] [b, $id, c]",
            "LUA [q:{$id}] [x]",
            "LUA [q:{$id}] [..]",
            "LUA [..] []",
            "LUA [k] [a]",
        ]
    );
}

/// An array a method changes in place is what it holds after: appends in
/// straight-line code are its new items, any other change leaves it
/// unknown (a splat of it an open tail, never the items it had).
#[test]
fn arrays_changed_in_place() {
    let src = r##"
require "redis-client"
def work(conn, id, cond)
  args = ["HSET", "q:#{id}"]
  args << "state" << "done"
  args.push("attempts", 0)
  conn.call(*args)
  keys = ["q:a", "q:b"]
  keys.pop
  conn.call("DEL", *keys)
  more = ["q:c"]
  more << "q:d" if cond
  conn.call("DEL", *more)
end
"##;
    assert_eq!(
        commands(&facts(src)),
        ["HSET q:{$id} state done attempts 0", "DEL ..", "DEL .."]
    );
}
