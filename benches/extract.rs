//! Per-language throughput: parse + extract, and the prefilter scan, on
//! generated unrelated code and on the EchoMQ fixture files.
//!
//! ```sh
//! cargo bench --bench extract
//! ```

use divan::counter::BytesCount;
use divan::Bencher;
use wirelint::contract::Contract;
use wirelint::facts::Lang;
use wirelint::parse::Parsers;
use wirelint::pipeline::prefilter::Prefilter;

#[path = "../examples/gen-corpus.rs"]
#[allow(dead_code)]
mod gen_corpus;

fn main() {
    divan::main();
}

fn fixture(rel: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/echomq")
        .join(rel);
    std::fs::read(p).unwrap()
}

/// A fixture file repeated to about 256 KiB (each copy stays valid code).
fn sample(lang: Lang) -> Vec<u8> {
    let parts: &[&str] = match lang {
        Lang::Elixir => &[
            "echo_mq/lib/echo_mq/jobs.ex",
            "echo_mq/lib/echo_mq/keyspace.ex",
        ],
        Lang::Rust => &[
            "peers/rust/src/jobs.rs",
            "peers/rust/src/keys.rs",
            "peers/worker/src/main.rs",
        ],
        Lang::Lua => &["peers/worker/lua/enqueue.lua"],
        Lang::Python => &[
            "../python-clients/sync/emq_sync/jobs.py",
            "../python-clients/aio/emq_aio/worker.py",
        ],
        Lang::JavaScript => &["../js-clients/rsmq-like/lib/worker.js"],
        Lang::TypeScript | Lang::Tsx => &[
            "../js-clients/ioredis-ts/src/queue.ts",
            "../js-clients/ioredis-ts/src/keys.ts",
        ],
        Lang::Go => &[
            "../go-clients/worker/jobs.go",
            "../go-clients/legacy/store.go",
        ],
        Lang::Ruby => &[
            "../ruby-clients/worker/lib/emq/jobs.rb",
            "../ruby-clients/legacy/lib/store.rb",
        ],
    };
    let mut out = Vec::new();
    while out.len() < 256 * 1024 {
        for p in parts {
            out.extend(fixture(p));
            out.push(b'\n');
        }
    }
    out
}

const LANGS: &[Lang] = &[
    Lang::Elixir,
    Lang::Rust,
    Lang::Lua,
    Lang::Python,
    Lang::JavaScript,
    Lang::TypeScript,
    Lang::Go,
    Lang::Ruby,
];

#[divan::bench(args = LANGS)]
fn extract(b: Bencher, lang: Lang) {
    let src = sample(lang);
    let mut parsers = Parsers::new().unwrap();
    b.counter(BytesCount::of_slice(&src)).bench_local(|| {
        wirelint::extract::extract_file(&mut parsers, lang, 0, divan::black_box(&src), "enqueue")
    });
}

/// Generated unrelated code of about 256 KiB (what the prefilter mostly
/// sees, and passes over).
fn unrelated(lang: Lang) -> Vec<u8> {
    let mut r = gen_corpus::Rng(42);
    let n = 256 * 1024;
    match lang {
        Lang::Elixir => gen_corpus::elixir_file(&mut r, "app", "mod", n),
        Lang::Rust => gen_corpus::rust_file(&mut r, n),
        Lang::Lua => gen_corpus::lua_file(&mut r, n),
        Lang::Python => python_file(n),
        // No generator writes JavaScript, Go or Ruby: its fixture, repeated.
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::Go | Lang::Ruby => {
            String::from_utf8_lossy(&sample(lang)).into_owned()
        }
    }
    .into_bytes()
}

/// Plain Python functions and classes of about `n` bytes.
fn python_file(n: usize) -> String {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < n {
        out.push_str(&format!(
            "class Model{i}:\n    size = {i}\n\n    def area(self, other):\n        return self.size * other + {i}\n\n\ndef helper_{i}(items):\n    return [x for x in items if x > {i}]\n\n\n"
        ));
        i += 1;
    }
    out
}

#[divan::bench(args = LANGS)]
fn extract_unrelated(b: Bencher, lang: Lang) {
    let src = unrelated(lang);
    let mut parsers = Parsers::new().unwrap();
    b.counter(BytesCount::of_slice(&src)).bench_local(|| {
        wirelint::extract::extract_file(&mut parsers, lang, 0, divan::black_box(&src), "x")
    });
}

#[divan::bench(args = LANGS)]
fn prefilter(b: Bencher, lang: Lang) {
    let src = unrelated(lang);
    let pf = Prefilter::new(Some(&Contract::embedded()));
    b.counter(BytesCount::of_slice(&src))
        .bench_local(|| pf.scan(lang, "x", divan::black_box(&src)));
}
