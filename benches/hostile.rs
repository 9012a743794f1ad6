//! Issue 16: inputs an attacker would write, each run through the whole
//! pipeline (`analyze` on a tree held in memory, then every finding through
//! the `full` report): the quadratic cases (one bad key in thousands of
//! files, a 32k-step pipe, 4k nested `format!`, one HSET with 8k unknown
//! fields, self-similar builders), and 1 MB inputs of the kinds that used
//! to take seconds (junk that makes a parser rescan or multiply its stacks,
//! minified Lua). Figures before and after: `docs/robustness.md`.
//!
//! ```sh
//! cargo bench --bench hostile
//! ```

#[path = "../tests/shapes/mod.rs"]
mod shapes;

use divan::Bencher;
use wirelint::pipeline::{analyze, ContractChoice, Options};
use wirelint::report::{CheckRun, Format, Summary};

fn main() {
    divan::main();
}

type Tree = Vec<(String, Vec<u8>)>;

fn tree(files: Vec<(String, String)>) -> Tree {
    let mut t: Tree = files
        .into_iter()
        .map(|(p, b)| (p, b.into_bytes()))
        .collect();
    t.sort();
    t
}

/// The whole run on a tree: the analysis and the `full` report.
fn check(b: Bencher, t: Tree) {
    let root = tempfile::tempdir().unwrap();
    b.bench_local(|| {
        let opts = Options {
            root: root.path().to_path_buf(),
            paths: vec![root.path().to_path_buf()],
            contract: ContractChoice::Default,
            threads: Some(1),
            max_file_bytes: 8 << 20,
            config: wirelint::config::Config::find_limited(root.path(), 8 << 20),
            settings: Default::default(),
            buffers: Vec::new(),
            prefilter: true,
            tree: Some(t.clone()),
            cache_dir: None,
            memo: None,
            speaker_prefix: None,
            session: None,
        };
        let a = analyze(&opts).unwrap();
        let diagnostics: Vec<_> = a.diagnostics.iter().collect();
        let run = CheckRun {
            analysis: &a,
            diagnostics: &diagnostics,
            summary: Summary::of(&a),
            matrix: None,
            coverage: &Default::default(),
            list_coverage: false,
            quiet: false,
            color: false,
        };
        divan::black_box(Format::Full.reporter().report(&run));
    });
}

const MIX: &str = "defmodule Q.MixProject do\nend\n";

/// N `.lua` files that all use one key of an unknown type: N findings.
#[divan::bench(args = [1000, 4000], sample_count = 3)]
fn files_sharing_one_bad_key(b: Bencher, n: usize) {
    let files = (0..n)
        .map(|i| {
            (
                format!("lib/f{i}.lua"),
                "redis.call('GET', 'emq:{q}:jobz')\n".to_string(),
            )
        })
        .collect();
    check(b, tree(files));
}

/// One Elixir expression of N `|>` steps (150,000 is 1 MB, issue 16's
/// bound).
#[divan::bench(args = [8000, 32000, 150000], sample_count = 3)]
fn long_pipe(b: Bencher, n: usize) {
    let body = format!(
        "defmodule P do\n  def f(x), do: x{}\n  def k(q), do: Redix.command(:r, [\"GET\", \"emq:{{#{{q}}}}:pending\"])\nend\n",
        " |> g()".repeat(n)
    );
    check(
        b,
        tree(vec![
            ("mix.exs".into(), MIX.into()),
            ("lib/p.ex".into(), body),
        ]),
    );
}

/// N `format!` calls nested in one another.
#[divan::bench(args = [1000, 4000], sample_count = 3)]
fn nested_format(b: Bencher, n: usize) {
    let body = format!(
        "fn k(q: &str) -> String {{ {}\"emq:{{q}}:pending\"{} }}\nfn r(c: &mut redis::Connection) {{ redis::cmd(\"GET\").arg(k(\"q\")); }}\n",
        "format!(\"{}\", ".repeat(n),
        ")".repeat(n)
    );
    check(
        b,
        tree(vec![
            ("Cargo.toml".into(), "[package]\nname = \"c\"\n".into()),
            ("src/lib.rs".into(), body),
        ]),
    );
}

/// One HSET on a contract record with N unknown fields: N findings.
#[divan::bench(args = [2000, 8000], sample_count = 3)]
fn hset_with_unknown_fields(b: Bencher, n: usize) {
    let fields: Vec<String> = (0..n).map(|i| format!("'f{i}', 1")).collect();
    let body = format!(
        "redis.call('HSET', 'emq:{{q}}:job:1', {})\n",
        fields.join(", ")
    );
    check(b, tree(vec![("s.lua".into(), body)]));
}

/// One HSET of N fields on a key outside the contract: WL204 compared
/// every field with every other, looking for a rival name.
#[divan::bench(args = [2000, 8000], sample_count = 3)]
fn hset_outside_the_contract(b: Bencher, n: usize) {
    let fields: Vec<String> = (0..n).map(|i| format!("'f{i}', 1")).collect();
    let body = format!("redis.call('HSET', 'other:1', {})\n", fields.join(", "));
    check(b, tree(vec![("s.lua".into(), body)]));
}

/// A builder matching over N arms, each a `format!`: every `format!`
/// was a parser run on its tokens.
#[divan::bench(args = [3000, 30000], sample_count = 3)]
fn many_format_macros(b: Bencher, n: usize) {
    let arms: String = (0..n)
        .map(|i| format!("{i} => format!(\"emq:{{{{{{q}}}}}}:t{i}\"), "))
        .collect();
    let body = format!(
        "pub fn k(q: &str, i: u32) -> String {{ match i {{ {arms}_ => String::new() }} }}\n\
         pub fn r(c: &mut redis::Connection) {{ redis::cmd(\"GET\").arg(k(\"q\", 1)).query::<()>(c).unwrap(); }}\n"
    );
    check(
        b,
        tree(vec![
            ("Cargo.toml".into(), "[package]\nname = \"c\"\n".into()),
            ("src/lib.rs".into(), body),
        ]),
    );
}

/// The shapes of `tests/shapes` (each was quadratic; `tests/hostile.rs`
/// keeps their findings), at sizes where that showed.
#[divan::bench(args = [
    "long-concatenation",
    "long-key-chain",
    "nested-lists",
    "nested-ifs",
    "nested-pushes",
    "scripts-each-run",
    "suppressions",
    "orphan-reads",
    "same-named-builders",
], sample_count = 3)]
fn quadratic_shapes(b: Bencher, kind: &str) {
    let files = match kind {
        "long-concatenation" => shapes::long_concatenation(20_000),
        "long-key-chain" => shapes::long_key_chain(8_000),
        "nested-lists" => shapes::nested_lists(3_000),
        "nested-ifs" => shapes::nested_ifs(3_000),
        "nested-pushes" => shapes::nested_pushes(3_000),
        "scripts-each-run" => shapes::scripts_each_run(6_000),
        "suppressions" => shapes::suppressions(15_000),
        "orphan-reads" => shapes::orphan_reads(5_000),
        _ => shapes::same_named_builders(8_000),
    };
    check(b, tree(files));
}

/// N builders whose names are prefixes of one another (`k`, `k_k`,
/// `k_k_k`, ...), each calling the one before: the prefilter's name search
/// went round once per builder, comparing long names each time.
#[divan::bench(args = [500, 2000], sample_count = 3)]
fn self_similar_builders(b: Bencher, n: usize) {
    let name = |i: usize| format!("k{}", "_k".repeat(i));
    let mut body = String::from("defmodule S do\n  def k(q), do: \"emq:{#{q}}:jobz\"\n");
    for i in 1..n {
        body.push_str(&format!(
            "  def {}(q), do: \"#{{{}(q)}}\"\n",
            name(i),
            name(i - 1)
        ));
    }
    body.push_str(&format!(
        "  def run(c, q), do: Redix.command(c, [\"GET\", {}(q)])\nend\n",
        name(n - 1)
    ));
    check(
        b,
        tree(vec![
            ("mix.exs".into(), MIX.into()),
            ("lib/s.ex".into(), body),
        ]),
    );
}

const MB: usize = 1 << 20;

fn repeat_to(unit: &str, head: &str, size: usize) -> String {
    let mut s = String::with_capacity(size + unit.len());
    s.push_str(head);
    while s.len() < size {
        s.push_str(unit);
    }
    s
}

/// 1 MB files of the kinds that make a parser slow, each after a real
/// finding: Lua junk that makes the block-string scanner rescan to the end
/// at every token, Elixir and Rust junk that multiplies the parser's stack
/// versions, valid minified Lua (the slowest valid code measured), a
/// script of one `KEYS[n]` per line up to n = 30,000 and one of an `HSET`
/// per line (linear in the references and the commands).
#[divan::bench(args = ["lua-rescan", "elixir-stacks", "rust-stacks", "minified-lua", "keys-references", "hset-lines"], sample_count = 3)]
fn one_megabyte(b: Bencher, kind: &str) {
    let (path, text) = match kind {
        "lua-rescan" => (
            "junk.lua",
            repeat_to("a + ", "redis.call('GET', 'emq:{q}:jobz')\n", MB),
        ),
        "elixir-stacks" => (
            "lib/junk.ex",
            repeat_to(
                "a + ",
                "defmodule J do\n  def k(q), do: \"emq:{#{q}}:jobz\"\nend\n",
                MB,
            ),
        ),
        "rust-stacks" => (
            "src/junk.rs",
            repeat_to(
                "a, ",
                "fn k(q: &str) -> String { format!(\"emq:{{{q}}}:jobz\") }\n",
                MB,
            ),
        ),
        "keys-references" => (
            "keys.lua",
            (1..=30_000)
                .map(|n| format!("redis.call('GET', KEYS[{n}])\n"))
                .collect(),
        ),
        "hset-lines" => (
            "hset.lua",
            repeat_to(
                "redis.call('HSET', KEYS[1], 'f', 'v')\n",
                "redis.call('GET', 'emq:{q}:jobz')\n",
                MB,
            ),
        ),
        _ => (
            "min.lua",
            repeat_to(
                "local a=redis.call('HGET',KEYS[1],'state');if a=='x' then redis.call('ZADD',KEYS[2],0,ARGV[1]) end;local t={1,2,{3,'y'}};",
                "redis.call('GET','emq:{'..ARGV[1]..'}:jobz');",
                MB,
            ),
        ),
    };
    check(b, tree(vec![(path.into(), text)]));
}

/// Contracts of the sizes a tree under review can name: 50,000 fields in a
/// record, 100,000 `[keyspace.redis]` entries, 100,000 types each with a
/// record. Loading is linear (`docs/robustness.md`).
#[divan::bench(args = ["fields", "redis", "records"], sample_count = 3)]
fn large_contract(b: Bencher, kind: &str) {
    let head = "name = \"big\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n[keyspace.types]\n";
    let types: String = (0..100_000)
        .map(|i| format!("t{i} = \"t{i}:<id>\"\n"))
        .collect();
    let text = match kind {
        "fields" => {
            let fields: Vec<String> = (0..50_000).map(|i| format!("\"f{i}\"")).collect();
            format!(
                "{head}job = \"job:<id>\"\n[records.job]\ntype = \"job\"\nfields = [{}]\n",
                fields.join(",")
            )
        }
        "redis" => {
            let redis: String = (0..100_000).map(|i| format!("t{i} = \"hash\"\n")).collect();
            format!("{head}{types}[keyspace.redis]\n{redis}")
        }
        _ => {
            let records: String = (0..100_000)
                .map(|i| format!("[records.r{i}]\ntype = \"t{i}\"\nfields = [\"a\"]\n"))
                .collect();
            format!("{head}{types}{records}")
        }
    };
    b.bench_local(|| wirelint::contract::Contract::parse(&text, "big.toml").unwrap());
}

/// A contract whose key prefix is 20 KB of `a:` (or of `é`): the
/// prefilter's automaton for it (a DFA's build was quadratic in a
/// periodic needle: 40 s).
#[divan::bench(args = ["colons", "accents"], sample_count = 3)]
fn long_prefix(b: Bencher, kind: &str) {
    let prefix = match kind {
        "colons" => "a:".repeat(10_000),
        _ => "é".repeat(10_000),
    };
    let text = format!(
        "name = \"long\"\n[keyspace]\nkey = \"{prefix}:{{<queue>}}:<type>\"\n[keyspace.types]\njob = \"job:<id>\"\n"
    );
    let contract = wirelint::contract::Contract::parse(&text, "long.toml").unwrap();
    b.bench_local(|| wirelint::pipeline::prefilter::Prefilter::new(Some(&contract)));
}

/// A Lua name grown by `k = k .. KEYS[2]`, N steps: each step copied the
/// whole value (100,000 steps: over a minute).
#[divan::bench(args = [10_000, 100_000], sample_count = 3)]
fn lua_name_grown_step_by_step(b: Bencher, n: usize) {
    let body = format!(
        "local k = 'emq:{{'\n{}redis.call('GET', k .. '}}:jobz')\n",
        "k = k .. KEYS[2]\n".repeat(n)
    );
    check(b, tree(vec![("s.lua".into(), body)]));
}
