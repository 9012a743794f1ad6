//! A synthetic multi-runtime monorepo for benchmarks and tests:
//!
//! ```sh
//! cargo run --release --example gen-corpus -- --files 20000 --out /tmp/corpus
//! ```
//!
//! Mostly unrelated Elixir apps, Rust crates (some with Lua plugin
//! scripts), a few projects that use Redis as a cache, and several groups of
//! EchoMQ speakers (copies of `fixtures/echomq`, some with a variant of
//! `fixtures/variants` laid over). The seeded divergences are known, so the
//! generator writes the exact findings wirelint must report to
//! `OUT/expected.txt` (`CODE path:line`, sorted).
//!
//! Deterministic: the same `--seed` and `--files` give the same bytes.
//! `--kb N` sets the mean size of an unrelated file (default 15, which makes
//! 20,000 files about 300 MB).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What to generate.
#[derive(Debug, Clone)]
pub struct Spec {
    pub files: usize,
    pub out: PathBuf,
    pub seed: u64,
    /// Mean size of an unrelated file, in KiB.
    pub kb: usize,
}

/// The variants seeded, in order; `""` is the clean fixture.
const VARIANTS: &[&str] = &[
    "",
    "prefix-changed",
    "payload-renamed",
    "pending-dropped",
    "verb-renamed",
    "hash-tag-removed",
    "type-misspelled",
];

pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, xs: &'a [&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const WORDS: &[&str] = &[
    "account",
    "invoice",
    "order",
    "user",
    "session",
    "payment",
    "catalog",
    "product",
    "cart",
    "ledger",
    "entry",
    "balance",
    "report",
    "metric",
    "sample",
    "window",
    "bucket",
    "tenant",
    "region",
    "shard",
    "schedule",
    "calendar",
    "event",
    "ticket",
    "comment",
    "thread",
    "message",
    "channel",
    "member",
    "role",
    "grant",
    "policy",
    "token",
    "secret",
    "config",
    "setting",
    "profile",
    "avatar",
    "image",
    "upload",
    "chunk",
    "manifest",
    "release",
    "build",
    "artifact",
    "deploy",
    "node",
    "cluster",
    "route",
    "request",
    "response",
    "header",
    "cookie",
    "cache",
    "index",
    "search",
    "query",
    "filter",
    "sort",
    "page",
    "cursor",
    "batch",
    "stream",
    "frame",
    "packet",
    "socket",
    "client",
    "server",
    "worker",
    "task",
    "timer",
    "clock",
    "tick",
    "rate",
    "limit",
    "quota",
    "usage",
    "plan",
    "price",
    "discount",
    "coupon",
    "tax",
    "currency",
    "address",
    "country",
    "city",
    "street",
    "phone",
    "email",
    "notice",
    "alert",
    "incident",
    "probe",
    "health",
    "status",
    "state",
    "snapshot",
    "backup",
    "restore",
    "migration",
    "schema",
    "table",
    "column",
    "row",
    "record",
    "field",
    "value",
    "version",
    "revision",
    "draft",
    "document",
    "folder",
    "file",
    "path",
    "mount",
    "volume",
    "device",
    "sensor",
    "reading",
    "level",
    "score",
    "rank",
    "board",
    "game",
    "player",
    "team",
    "match",
    "round",
    "turn",
    "move",
    "tile",
    "map",
    "zone",
    "spawn",
    "item",
    "inventory",
    "craft",
    "recipe",
    "skill",
    "quest",
];

const VERBS: &[&str] = &[
    "build",
    "load",
    "fetch",
    "parse",
    "render",
    "compute",
    "merge",
    "split",
    "apply",
    "check",
    "update",
    "insert",
    "remove",
    "collect",
    "group",
    "count",
    "sum",
    "format",
    "encode",
    "decode",
    "normalize",
    "validate",
    "resolve",
    "expand",
    "prune",
    "flush",
    "sync",
    "refresh",
];

fn camel(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn sentence(r: &mut Rng) -> String {
    let n = 5 + r.below(9);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(if i % 3 == 1 {
            r.pick(VERBS)
        } else {
            r.pick(WORDS)
        });
    }
    let mut out = camel(&s);
    out.push('.');
    out
}

fn ident(r: &mut Rng) -> String {
    format!("{}_{}", r.pick(VERBS), r.pick(WORDS))
}

// ---------------------------------------------------------------- Elixir

fn elixir_item(r: &mut Rng, out: &mut String) {
    let f = ident(r);
    let (a, b, w, w2) = (r.pick(WORDS), r.pick(WORDS), r.pick(WORDS), r.pick(WORDS));
    let n = r.below(1000);
    match r.below(8) {
        0 => {
            let _ = write!(
                out,
                "  @doc \"{}\"\n  def {f}({a}s, factor) when is_integer(factor) do\n    {a}s\n    |> Enum.map(fn x -> x * factor + {n} end)\n    |> Enum.filter(&(&1 > {}))\n    |> Enum.sum()\n  end\n\n",
                sentence(r),
                r.below(50)
            );
        }
        1 => {
            let _ = write!(
                out,
                "  def {f}(%{{{w}: {w}}} = {a}) do\n    case Map.get({a}, :{w2}) do\n      nil -> {{:error, :not_found}}\n      value -> {{:ok, %{{{a} | {w}: {w} ++ [value]}}}}\n    end\n  end\n\n"
            );
        }
        2 => {
            let _ = write!(
                out,
                "  defp {f}(list, acc \\\\ [])\n  defp {f}([], acc), do: Enum.reverse(acc)\n  defp {f}([head | tail], acc), do: {f}(tail, [head + {n} | acc])\n\n"
            );
        }
        3 => {
            let _ = write!(
                out,
                "  def {f}({a}) do\n    started = System.monotonic_time(:millisecond)\n    result = do_{f}({a})\n    Logger.info(\"{w} #{{inspect({a})}} took #{{System.monotonic_time(:millisecond) - started}} ms\")\n    result\n  end\n\n  defp do_{f}({a}), do: {{:ok, {a}}}\n\n"
            );
        }
        4 => {
            let _ = write!(
                out,
                "  def {f}({a}) do\n    with {{:ok, {b}}} <- fetch_{w}({a}),\n         {{:ok, checked}} <- validate_{w2}({b}) do\n      {{:ok, checked}}\n    else\n      {{:error, reason}} -> {{:error, {{:{f}, reason}}}}\n    end\n  end\n\n  defp fetch_{w}(nil), do: {{:error, :missing}}\n  defp fetch_{w}(x), do: {{:ok, x}}\n  defp validate_{w2}(x), do: {{:ok, x}}\n\n"
            );
        }
        5 => {
            let _ = write!(
                out,
                "  @impl true\n  def handle_call({{:get_{w}, key}}, _from, state) do\n    {{:reply, Map.get(state.{w}s, key), state}}\n  end\n\n  def handle_cast({{:put_{w}, key, value}}, state) do\n    {{:noreply, %{{state | {w}s: Map.put(state.{w}s, key, value)}}}}\n  end\n\n"
            );
        }
        6 => {
            let _ = write!(
                out,
                "  @{w}_kinds ~w({a} {b} {w2})a\n\n  def {f}(kind) when kind in @{w}_kinds do\n    for {a} <- 1..{}, rem({a}, 2) == 0, into: %{{}} do\n      {{{a}, kind}}\n    end\n  end\n\n",
                2 + r.below(40)
            );
        }
        _ => {
            let _ = write!(
                out,
                "  @spec {f}(map()) :: String.t()\n  def {f}(params) do\n    params\n    |> Map.take([:{a}, :{b}, :{w}])\n    |> Enum.map_join(\", \", fn {{k, v}} -> \"#{{k}}=#{{v}}\" end)\n    |> String.upcase()\n  end\n\n"
            );
        }
    }
}

pub fn elixir_file(r: &mut Rng, app: &str, module: &str, target: usize) -> String {
    let mut s = String::with_capacity(target + 1024);
    let _ = write!(
        s,
        "defmodule {}.{} do\n  @moduledoc \"\"\"\n  {}\n  {}\n  \"\"\"\n\n  require Logger\n  alias {}.{}\n\n  @default_{} {}\n\n",
        camel(app),
        camel(module),
        sentence(r),
        sentence(r),
        camel(app),
        camel(r.pick(WORDS)),
        r.pick(WORDS),
        r.below(10_000)
    );
    if r.chance(40) {
        let _ = write!(
            s,
            "  defstruct [:{}, :{}, {}: nil, {}: []]\n\n",
            r.pick(WORDS),
            r.pick(WORDS),
            r.pick(WORDS),
            r.pick(WORDS)
        );
    }
    while s.len() < target {
        elixir_item(r, &mut s);
    }
    s.push_str("end\n");
    s
}

// ------------------------------------------------------------------ Rust

fn rust_item(r: &mut Rng, out: &mut String) {
    let f = ident(r);
    let (a, w, w2) = (r.pick(WORDS), r.pick(WORDS), r.pick(WORDS));
    let ty = camel(w);
    let n = r.below(1000);
    match r.below(8) {
        0 => {
            let _ = write!(
                out,
                "/// {}\npub fn {f}({a}s: &[u64], factor: u64) -> u64 {{\n    {a}s.iter()\n        .map(|x| x * factor + {n})\n        .filter(|x| *x > {})\n        .sum()\n}}\n\n",
                sentence(r),
                r.below(50)
            );
        }
        1 => {
            let _ = write!(
                out,
                "#[derive(Debug, Clone, PartialEq)]\npub struct {ty}{n} {{\n    pub {w}_id: u64,\n    pub {w2}_text: String,\n    {a}s: Vec<u32>,\n}}\n\nimpl {ty}{n} {{\n    pub fn new({w}_id: u64, {w2}_text: impl Into<String>) -> Self {{\n        Self {{ {w}_id, {w2}_text: {w2}_text.into(), {a}s: Vec::new() }}\n    }}\n\n    pub fn {f}(&mut self, x: u32) -> usize {{\n        self.{a}s.push(x);\n        self.{a}s.len()\n    }}\n}}\n\n"
            );
        }
        2 => {
            let _ = write!(
                out,
                "#[derive(Debug, Clone, Copy, PartialEq, Eq)]\npub enum {ty}Kind{n} {{\n    Small,\n    Large(u32),\n    Named {{ id: u64 }},\n}}\n\npub fn {f}(k: {ty}Kind{n}) -> &'static str {{\n    match k {{\n        {ty}Kind{n}::Small => \"{w}\",\n        {ty}Kind{n}::Large(n) if n > {n} => \"{w2}\",\n        {ty}Kind{n}::Large(_) => \"{a}\",\n        {ty}Kind{n}::Named {{ .. }} => \"named\",\n    }}\n}}\n\n"
            );
        }
        3 => {
            let _ = write!(
                out,
                "pub fn {f}(input: &str) -> Result<u64, String> {{\n    let trimmed = input.trim();\n    if trimmed.is_empty() {{\n        return Err(format!(\"empty {w} in {{}}\", input.len()));\n    }}\n    trimmed\n        .parse::<u64>()\n        .map_err(|e| format!(\"invalid {w2} {{trimmed}} ({{e}})\"))\n}}\n\n"
            );
        }
        4 => {
            let _ = write!(
                out,
                "impl std::fmt::Display for {ty}View{n} {{\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {{\n        write!(f, \"{w}({{}}) {{}}\", self.0, self.1)\n    }}\n}}\n\npub struct {ty}View{n}(pub u64, pub String);\n\n"
            );
        }
        5 => {
            let _ = write!(
                out,
                "pub fn {f}(items: &[(String, u64)]) -> HashMap<String, u64> {{\n    let mut by_{w}: HashMap<String, u64> = HashMap::new();\n    for (k, v) in items {{\n        *by_{w}.entry(k.clone()).or_insert(0) += v;\n    }}\n    by_{w}.retain(|_, v| *v >= {n});\n    by_{w}\n}}\n\n"
            );
        }
        6 => {
            let _ = write!(
                out,
                "pub async fn {f}(rx: &mut Vec<u64>) -> Option<u64> {{\n    let mut best = None;\n    while let Some(x) = rx.pop() {{\n        best = match best {{\n            None => Some(x),\n            Some(b) if x > b => Some(x),\n            keep => keep,\n        }};\n    }}\n    best\n}}\n\n"
            );
        }
        _ => {
            let _ = write!(
                out,
                "#[cfg(test)]\nmod {f}_tests {{\n    use super::*;\n\n    #[test]\n    fn {w}_round_trips() {{\n        let v: Vec<u64> = (0..{}).collect();\n        assert_eq!(v.len(), {});\n        assert!(v.iter().all(|x| *x < {}));\n    }}\n}}\n\n",
                n + 1,
                n + 1,
                n + 2
            );
        }
    }
}

pub fn rust_file(r: &mut Rng, target: usize) -> String {
    let mut s = String::with_capacity(target + 1024);
    let _ = write!(
        s,
        "//! {}\n//! {}\n\nuse std::collections::HashMap;\n\n",
        sentence(r),
        sentence(r)
    );
    while s.len() < target {
        rust_item(r, &mut s);
    }
    s.push_str("pub fn _touch(_: HashMap<u8, u8>) {}\n");
    s
}

// ------------------------------------------------------------------- Lua

fn lua_item(r: &mut Rng, out: &mut String) {
    let f = ident(r);
    let (a, w) = (r.pick(WORDS), r.pick(WORDS));
    let n = r.below(1000);
    match r.below(4) {
        0 => {
            let _ = write!(
                out,
                "-- {}\nfunction M.{f}({a}s, factor)\n  local total = 0\n  for i = 1, #{a}s do\n    total = total + {a}s[i] * factor\n  end\n  return total + {n}\nend\n\n",
                sentence(r)
            );
        }
        1 => {
            let _ = write!(
                out,
                "local function {f}(self, {w})\n  if not {w} then\n    return nil, \"missing {w}\"\n  end\n  self.{a} = (self.{a} or 0) + {n}\n  return self:{a}_changed({w})\nend\nM.{f} = {f}\n\n"
            );
        }
        2 => {
            let _ = write!(
                out,
                "M.{w}_table = {{\n  {a} = {n},\n  name = \"{w}\",\n  tags = {{ \"{a}\", \"{w}\" }},\n  enabled = {},\n}}\n\n",
                if r.chance(50) { "true" } else { "false" }
            );
        }
        _ => {
            let _ = write!(
                out,
                "function M.{f}(s)\n  local parts = {{}}\n  for word in string.gmatch(s, \"%S+\") do\n    parts[#parts + 1] = string.upper(word)\n  end\n  return table.concat(parts, \" \")\nend\n\n"
            );
        }
    }
}

pub fn lua_file(r: &mut Rng, target: usize) -> String {
    let mut s = String::with_capacity(target + 512);
    let _ = write!(
        s,
        "-- {}\nlocal M = {{}}\nlocal {} = require(\"{}\")\n\n",
        sentence(r),
        r.pick(WORDS),
        r.pick(WORDS)
    );
    while s.len() < target {
        lua_item(r, &mut s);
    }
    s.push_str("return M\n");
    s
}

// --------------------------------------------------------------- writing

fn write(root: &Path, rel: &str, text: &str) -> std::io::Result<()> {
    let p = root.join(rel);
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d)?;
    }
    std::fs::write(p, text)
}

fn size(r: &mut Rng, mean: usize) -> usize {
    // Mostly around the mean, a few large files.
    let base = mean / 4 + r.below(mean * 3 / 2 + 1);
    if r.chance(3) {
        base * 4
    } else {
        base
    }
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn copy_tree(from: &Path, to: &Path, written: &mut usize) -> std::io::Result<()> {
    for e in std::fs::read_dir(from)? {
        let p = e?.path();
        let dest = to.join(p.file_name().unwrap_or_default());
        if p.is_dir() {
            copy_tree(&p, &dest, written)?;
        } else {
            std::fs::create_dir_all(to)?;
            std::fs::copy(&p, &dest)?;
            *written += 1;
        }
    }
    Ok(())
}

/// A Rust crate that uses Redis as a cache: it marks its speaker but holds
/// no key of the contract.
fn cache_crate(r: &mut Rng, dir: &str) -> Vec<(String, String)> {
    let w = r.pick(WORDS);
    vec![
        (
            format!("{dir}/Cargo.toml"),
            format!("[package]\nname = \"{w}-cache\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nredis = \"0.27\"\n"),
        ),
        (
            format!("{dir}/src/cache.rs"),
            format!("//! A read-through cache of {w}s.\n\nuse redis::Commands;\n\npub fn get_{w}(con: &mut redis::Connection, id: u64) -> redis::RedisResult<Option<String>> {{\n    con.get(format!(\"cache:{w}:{{id}}\"))\n}}\n\npub fn put_{w}(con: &mut redis::Connection, id: u64, v: &str) -> redis::RedisResult<()> {{\n    redis::cmd(\"SETEX\").arg(format!(\"cache:{w}:{{id}}\")).arg(300).arg(v).query(con)\n}}\n"),
        ),
    ]
}

/// An Elixir app that uses Redix for sessions.
fn session_app(r: &mut Rng, dir: &str, app: &str) -> Vec<(String, String)> {
    let w = r.pick(WORDS);
    vec![
        (
            format!("{dir}/mix.exs"),
            format!("defmodule {}.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :{app}, version: \"0.1.0\", deps: [{{:redix, \"~> 1.5\"}}]]\n  end\nend\n", camel(app)),
        ),
        (
            format!("{dir}/lib/{app}/store.ex"),
            format!("defmodule {}.Store do\n  @moduledoc \"Sessions in Redis.\"\n\n  def get(conn, id), do: Redix.command(conn, [\"GET\", \"{w}:\" <> id])\n  def put(conn, id, v), do: Redix.command(conn, [\"SET\", \"{w}:\" <> id, v, \"EX\", 600])\nend\n", camel(app)),
        ),
    ]
}

/// Generates the corpus; returns (files written, bytes written).
pub fn generate(spec: &Spec) -> std::io::Result<(usize, u64)> {
    let root = &spec.out;
    std::fs::create_dir_all(root)?;
    if std::fs::read_dir(root)?.next().is_some() {
        return Err(std::io::Error::other(format!(
            "{} is not empty",
            root.display()
        )));
    }
    let mut r = Rng(spec.seed.max(1) ^ 0x9E37_79B9_7F4A_7C15);
    let mut files = 0usize;
    let mut bytes = 0u64;
    let mut expected: Vec<String> = Vec::new();
    let mean = spec.kb.max(1) * 1024;

    // Speaker groups: every variant at least once, more for big corpora.
    let groups = VARIANTS.len() + spec.files / 4000;
    for g in 0..groups {
        let variant = VARIANTS[g % VARIANTS.len()];
        let dir = format!("services/queue_{g:02}");
        let dest = root.join(&dir);
        copy_tree(&fixtures().join("echomq"), &dest, &mut files)?;
        if !variant.is_empty() {
            let mut n = 0;
            copy_tree(
                &fixtures().join("variants").join(variant).join("tree"),
                &dest,
                &mut n,
            )?;
            let exp = std::fs::read_to_string(
                fixtures().join("variants").join(variant).join("expected"),
            )?;
            for line in exp.lines().filter(|l| !l.trim().is_empty()) {
                // `CODE path:line`, then perhaps the impact lists: keep the
                // first two words.
                let mut words = line.split_whitespace();
                let (code, at) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                expected.push(format!("{code} {dir}/{at}"));
            }
        }
        // Each speaker also holds ordinary code.
        for k in 0..(3 + r.below(6)) {
            let t = size(&mut r, mean);
            let text = elixir_file(&mut r, "echo_mq", &format!("support{k}"), t);
            bytes += text.len() as u64;
            write(
                root,
                &format!("{dir}/echo_mq/lib/echo_mq/support{k}.ex"),
                &text,
            )?;
            files += 1;
            let t = size(&mut r, mean);
            let text = rust_file(&mut r, t);
            bytes += text.len() as u64;
            write(root, &format!("{dir}/peers/rust/src/util{k}.rs"), &text)?;
            files += 1;
        }
    }

    // Unrelated projects until the file count is reached.
    let mut project = 0usize;
    while files < spec.files {
        project += 1;
        let name = format!("{}_{project}", r.pick(WORDS));
        let roll = r.below(100);
        let mut extra: Vec<(String, String)> = Vec::new();
        let (dir, n) = if roll < 3 {
            let dir = format!("crates/{name}");
            extra = cache_crate(&mut r, &dir);
            (dir, 5 + r.below(20))
        } else if roll < 5 {
            let dir = format!("apps/{name}");
            extra = session_app(&mut r, &dir, &name);
            (dir, 5 + r.below(20))
        } else if roll < 50 {
            (format!("apps/{name}"), 10 + r.below(60))
        } else {
            (format!("crates/{name}"), 8 + r.below(50))
        };
        let elixir = dir.starts_with("apps/");
        if extra.is_empty() {
            if elixir {
                extra.push((
                    format!("{dir}/mix.exs"),
                    format!("defmodule {}.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :{name}, version: \"0.1.0\", elixir: \"~> 1.15\"]\n  end\nend\n", camel(&name)),
                ));
            } else {
                extra.push((
                    format!("{dir}/Cargo.toml"),
                    format!(
                        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"
                    ),
                ));
            }
        }
        for (rel, text) in extra {
            bytes += text.len() as u64;
            write(root, &rel, &text)?;
            files += 1;
        }
        for k in 0..n {
            if files >= spec.files {
                break;
            }
            let t = size(&mut r, mean);
            let module = format!("{}_{k}", r.pick(WORDS));
            let (rel, text) = if elixir {
                (
                    format!("{dir}/lib/{name}/{module}.ex"),
                    elixir_file(&mut r, &name, &module, t),
                )
            } else if r.chance(25) {
                (format!("{dir}/scripts/{module}.lua"), lua_file(&mut r, t))
            } else {
                (format!("{dir}/src/{module}.rs"), rust_file(&mut r, t))
            };
            bytes += text.len() as u64;
            write(root, &rel, &text)?;
            files += 1;
        }
    }

    expected.sort();
    let mut text = expected.join("\n");
    text.push('\n');
    std::fs::write(root.join("expected.txt"), text)?;
    Ok((files, bytes))
}

#[allow(dead_code)]
fn main() {
    let mut spec = Spec {
        files: 20_000,
        out: PathBuf::from("corpus"),
        seed: 1,
        kb: 15,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_default();
        match a.as_str() {
            "--files" => spec.files = val().parse().expect("--files N"),
            "--out" => spec.out = PathBuf::from(val()),
            "--seed" => spec.seed = val().parse().expect("--seed N"),
            "--kb" => spec.kb = val().parse().expect("--kb N"),
            other => {
                eprintln!(
                    "usage: gen-corpus --files N --out DIR [--seed N] [--kb N]; unknown `{other}`"
                );
                std::process::exit(2);
            }
        }
    }
    match generate(&spec) {
        Ok((files, bytes)) => eprintln!(
            "gen-corpus: {files} files, {:.1} MB of generated code in {}; expected findings in expected.txt",
            bytes as f64 / 1e6,
            spec.out.display()
        ),
        Err(e) => {
            eprintln!("gen-corpus: {e}");
            std::process::exit(1);
        }
    }
}
