//! Hostile trees that were quadratic, each a function of its size: shared
//! by `tests/hostile.rs` (a small size, exact findings) and
//! `benches/hostile.rs` (large sizes, time). Each returns the tree's files
//! as (path, text).
#![allow(dead_code)]

pub type Files = Vec<(String, String)>;

pub const MIX: &str = "defmodule Q.MixProject do\nend\n";
pub const CARGO: &str = "[package]\nname = \"c\"\n";

fn elixir(path: &str, body: String) -> Files {
    vec![("mix.exs".into(), MIX.into()), (path.into(), body)]
}

fn rust(body: String) -> Files {
    vec![
        ("Cargo.toml".into(), CARGO.into()),
        ("src/lib.rs".into(), body),
    ]
}

/// A key of `n` concatenated Lua parts: WL103 on line 1 of `s.lua`.
pub fn long_concatenation(n: usize) -> Files {
    let parts = vec!["ARGV[1]"; n].join(" .. ");
    let body = format!("redis.call('GET', 'emq:{{' .. {parts} .. '}}:jobz')\n");
    vec![("s.lua".into(), body)]
}

/// A script literal under `n` chained `.key(..)` calls, the first key
/// bad: WL103 on line 3 of `src/lib.rs`.
pub fn long_key_chain(n: usize) -> Files {
    rust(format!(
        "pub fn f(c: &mut redis::Connection) {{\n    let _: () = redis::Script::new(\"return redis.call('GET', KEYS[1])\")\n        .key(\"emq:{{q}}:jobz\"){}\n        .invoke(c).unwrap();\n}}\n",
        ".key(\"emq:{q}:pending\")".repeat(n)
    ))
}

/// `n` Elixir command lists nested in one another: `n` WL103 on line 2 of
/// `lib/n.ex`.
pub fn nested_lists(n: usize) -> Files {
    elixir(
        "lib/n.ex",
        format!(
            "defmodule N do\n  def f(c), do: Redix.pipeline(c, {}[]{})\nend\n",
            "[[\"GET\", \"emq:{q}:jobz\"], ".repeat(n),
            "]".repeat(n)
        ),
    )
}

/// `n` nested Elixir `if`s, a command in each: WL103 on lines 3 to n + 2
/// of `lib/i.ex`.
pub fn nested_ifs(n: usize) -> Files {
    elixir(
        "lib/i.ex",
        format!(
            "defmodule I do\n  def f(c) do\n{}{}  end\nend\n",
            "if c do Redix.command(c, [\"GET\", \"emq:{q}:jobz\"])\n".repeat(n),
            "end\n".repeat(n)
        ),
    )
}

/// `n` Rust pushes of a bad key in nested `if`s: `n` WL103 on line 1 of
/// `src/lib.rs`.
pub fn nested_pushes(n: usize) -> Files {
    rust(format!(
        "pub fn f(c: &mut redis::Connection) {{ let mut v = Vec::new(); {}{} redis::cmd(\"DEL\").arg(v).query::<()>(c).unwrap(); }}\n",
        "if true { v.push(\"emq:{q}:jobz\"); ".repeat(n),
        "}".repeat(n)
    ))
}

/// `n` scripts in module attributes, each run by its own function with a
/// bad key: WL103 on lines 3, 5, ... of `lib/s.ex`.
pub fn scripts_each_run(n: usize) -> Files {
    let mut body = String::from("defmodule S do\n");
    for i in 0..n {
        body.push_str(&format!(
            "  @s{i} \"return redis.call('GET', KEYS[1])\"\n  def f{i}(c), do: Redix.command(c, [\"EVAL\", @s{i}, 1, \"emq:{{q}}:jobz\"])\n"
        ));
    }
    body.push_str("end\n");
    elixir("lib/s.ex", body)
}

/// `n` suppressions, each of the WL103 on its next line: no finding.
pub fn suppressions(n: usize) -> Files {
    let body = (0..n)
        .map(|i| {
            format!("-- wirelint: allow(WL103) case {i}\nredis.call('GET', 'emq:{{q}}:jobz')\n")
        })
        .collect();
    vec![("s.lua".into(), body)]
}

/// `2n` keys written in Lua, and `2n` read in Elixir of which `n` nothing
/// writes: WL104 on lines 3, 5, ... of `lib/r.ex`.
pub fn orphan_reads(n: usize) -> Files {
    let lua = (0..n)
        .map(|i| format!("redis.call('HSET', 'r{i}:{{q}}:x', 'a', 1)\nredis.call('SET', 'r{i}:{{q}}:w:' .. ARGV[1], 1)\n"))
        .collect();
    let reads: String = (0..n)
        .map(|i| format!("    Redix.command(c, [\"GET\", \"r{i}:{{q}}:y\"])\n    Redix.command(c, [\"GET\", \"r{i}:{{q}}:w:#{{id}}\"])\n"))
        .collect();
    let mut files = elixir(
        "lib/r.ex",
        format!("defmodule R do\n  def r(c, id) do\n{reads}  end\nend\n"),
    );
    files.push(("s.lua".into(), lua));
    files
}

/// `n` modules that each define `k`, each called by its module's name:
/// WL103 on lines 2, 5, ... of `lib/a.ex`.
pub fn same_named_builders(n: usize) -> Files {
    let mut body: String = (0..n)
        .map(|i| format!("defmodule M{i} do\n  def k(q), do: \"emq:{{#{{q}}}}:t{i}\"\nend\n"))
        .collect();
    body.push_str("defmodule Run do\n");
    for i in 0..n {
        body.push_str(&format!(
            "  def r{i}(c), do: Redix.command(c, [\"GET\", M{i}.k(1)])\n"
        ));
    }
    body.push_str("end\n");
    elixir("lib/a.ex", body)
}
