//! The prefilter never changes results: every fixture, every variant, the
//! fixture with unrelated projects around it, and (when `WIRELINT_CORPUS`
//! names it) every repository of the real corpus give byte-identical JSON
//! (and exit codes) with the prefilter on and off (`--no-prefilter`).

mod common;

use std::path::Path;

use common::{repo, run, variant};

/// Runs both ways on `root` and requires the same output.
fn same_both_ways(root: &Path, what: &str) -> String {
    let r = root.to_str().unwrap();
    let (code_on, out_on, _) = run(&["check", r, "--format", "json"], root);
    let (code_off, out_off, _) = run(&["check", r, "--format", "json", "--no-prefilter"], root);
    assert_eq!(out_on, out_off, "{what}: JSON differs with the prefilter");
    assert_eq!(code_on, code_off, "{what}: exit code differs");
    let (_, _, err_on) = run(&["check", r], root);
    let (_, _, err_off) = run(&["check", r, "--no-prefilter"], root);
    assert_eq!(err_on, err_off, "{what}: human report differs");
    out_on
}

fn variants() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("fixtures/variants"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_fixture_is_the_same_with_and_without_the_prefilter() {
    for name in common::clean_fixtures() {
        same_both_ways(&repo().join("fixtures").join(&name), &name);
    }
    for name in variants() {
        let dir = variant(&name);
        same_both_ways(dir.path(), &name);
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Unrelated projects full of things extractors pick up (URLs with colons,
/// HTTP `GET` lists, `client.get`, a syntax error, unrelated Lua), a silent
/// file inside a speaker, and a silent script reached only through
/// `include_str!` from another speaker.
fn lay_out_neighbours(root: &Path) {
    write(
        root,
        "apps/web/mix.exs",
        "defmodule Web.MixProject do\nend\n",
    );
    write(
        root,
        "apps/web/lib/web.ex",
        "defmodule Web do\n  @base \"http://example.com:8080/api\"\n  def fetch(url), do: request([\"GET\", url <> \":80\"])\n  def key(id), do: \"session:#{id}\"\n  def broken(, do: :ok\nend\n",
    );
    write(
        root,
        "crates/http/Cargo.toml",
        "[package]\nname = \"http\"\n",
    );
    write(
        root,
        "crates/http/src/lib.rs",
        "pub fn go(client: &Client, id: u32) {\n    let url = format!(\"https://x.io:443/{id}\");\n    client.get(url);\n    con.set(\"cache:x\", 1);\n}\nfn broken( {\n",
    );
    write(
        root,
        "tools/nvim/init.lua",
        "local M = {}\nfunction M.setup(opts) vim.g.x = opts.x end\nreturn M\n",
    );
    write(
        root,
        "peers/rust/src/names.rs",
        "//! Plain names.\npub const QUEUE: &str = \"default\";\npub fn label(q: &str) -> String { format!(\"queue {q}\") }\n",
    );
    write(root, "shared/lua/ack.lua", "-- acknowledges\nreturn 1\n");
    write(
        root,
        "peers/worker/src/ack.rs",
        "pub const ENQUEUE: &str = include_str!(\"../../../shared/lua/ack.lua\");\n",
    );
}

#[test]
fn unrelated_neighbours_change_nothing() {
    // The neighbours name paths of the EchoMQ fixture.
    let echomq = variants()
        .into_iter()
        .filter(|n| common::variant_base(n) == "echomq");
    for name in std::iter::once(String::new()).chain(echomq) {
        let dir = variant(&name);
        lay_out_neighbours(dir.path());
        let out = same_both_ways(dir.path(), &format!("neighbours + {name:?}"));
        // The silent script reached through include_str! is read: as an
        // `enqueue` it misses both keys.
        assert!(
            out.contains("shared/lua/ack.lua"),
            "{name}: the include_str! target was not read\n{out}"
        );
        // The syntax errors sit in projects that do not speak the protocol.
        assert!(!out.contains("\"WL001\""), "{name}\n{out}");
    }
}

/// A marked speaker whose key is built across files with no marker of their
/// own, reached only through names: `job` (a key builder), `base`, the
/// `@prefix` attribute, `kind` (a key part looked up next to `base`), and a
/// file that uses `base` without being
/// referenced. Findings land in those files, the same both ways; a syntax
/// error in an unrelated file of the speaker stays silent both ways.
#[test]
fn files_reached_only_through_names_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "apps/q/mix.exs", "defmodule Q.MixProject do\nend\n");
    write(
        root,
        "apps/q/lib/store.ex",
        "defmodule Q.Store do\n  def save(c, q, id), do: Redix.command(c, [\"HSET\", Q.Keys.job(q, id), \"state\", \"x\"])\nend\n",
    );
    write(
        root,
        "apps/q/lib/keys.ex",
        "defmodule Q.Keys do\n  def job(q, id), do: \"#{Q.Base.base(q)}:#{Q.Kind.kind()}:#{id}\"\nend\n",
    );
    // No marker: reached through `kind`, which a template that also uses
    // `base` (a carrier of the prefix) looks up.
    write(
        root,
        "apps/q/lib/kind.ex",
        "defmodule Q.Kind do\n  def kind, do: \"row\"\nend\n",
    );
    write(
        root,
        "apps/q/lib/base.ex",
        "defmodule Q.Base do\n  def base(q), do: \"#{@prefix}{#{q}}\"\nend\n",
    );
    write(
        root,
        "apps/q/lib/prefix.ex",
        "defmodule Q.Prefix do\n  @prefix \"emq:\"\nend\n",
    );
    write(
        root,
        "apps/q/lib/more.ex",
        "defmodule Q.More do\n  def other(q), do: \"#{Q.Base.base(q)}:zzz\"\nend\n",
    );
    write(
        root,
        "apps/q/lib/util.ex",
        "defmodule Q.Util do\n  def add(a, b), do: a + b\n  def broken(, do: :ok\nend\n",
    );
    let out = same_both_ways(root, "names");
    // The type `row` comes from kind.ex; more.ex builds `zzz`.
    for file in ["apps/q/lib/kind.ex", "apps/q/lib/more.ex"] {
        assert!(out.contains(file), "no finding in {file}\n{out}");
    }
    assert!(!out.contains("\"WL001\""), "{out}");
}

/// The agreement matrix is the same with and without the prefilter, with
/// unrelated neighbours around the fixture.
#[test]
fn the_matrix_is_the_same_with_and_without_the_prefilter() {
    for name in ["", "prefix-changed", "payload-renamed"] {
        let dir = variant(name);
        lay_out_neighbours(dir.path());
        let r = dir.path().to_str().unwrap();
        let (_, on, _) = run(&["check", r, "--matrix", "--format", "json"], dir.path());
        let (_, off, _) = run(
            &["check", r, "--matrix", "--format", "json", "--no-prefilter"],
            dir.path(),
        );
        assert_eq!(on, off, "{name:?}");
        assert!(on.contains("\"matrix\""));
    }
}

/// A speaker whose keys have no hash tag, with no contract, using Redix
/// (whose name holds no `redis`): its command lists are read both ways.
#[test]
fn redix_speakers_without_a_contract_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "apps/producer/mix.exs",
        "defmodule Producer.MixProject do\nend\n",
    );
    write(
        root,
        "apps/consumer/mix.exs",
        "defmodule Consumer.MixProject do\nend\n",
    );
    write(
        root,
        "apps/producer/lib/tasks.ex",
        "defmodule Producer.Tasks do\n  def put(conn, id, payload) do\n    Redix.command(conn, [\"HSET\", \"tq:task:#{id}\", \"state\", \"queued\", \"payload\", payload])\n  end\nend\n",
    );
    write(
        root,
        "apps/consumer/lib/worker.ex",
        "defmodule Consumer.Worker do\n  def finish(conn, id) do\n    Redix.command(conn, [\"HSET\", \"tq:task:#{id}\", \"status\", \"done\"])\n  end\n\n  def status(conn, id) do\n    Redix.pipeline(conn, [\n      [\"HGET\", \"tq:task:#{id}\", \"status\"],\n      [\"HGET\", \"tq:task:#{id}\", \"progress\"]\n    ])\n  end\nend\n",
    );
    for extra in [&["--no-contract"][..], &[]] {
        let r = root.to_str().unwrap();
        let args: Vec<&str> = ["check", r, "--format", "concise"]
            .into_iter()
            .chain(extra.iter().copied())
            .collect();
        let (code_on, on, _) = run(&args, root);
        let off_args: Vec<&str> = args.iter().copied().chain(["--no-prefilter"]).collect();
        let (code_off, off, _) = run(&off_args, root);
        assert_eq!(on, off, "{extra:?}");
        assert_eq!(code_on, code_off, "{extra:?}");
        let found: Vec<&str> = on
            .lines()
            .map(|l| l.split(": ").next().unwrap_or(""))
            .collect();
        assert_eq!(
            found,
            ["apps/consumer/lib/worker.ex:9:34"],
            "{extra:?}\n{on}"
        );
        assert!(on.contains("error[WL203]: field `progress`"), "{on}");
    }
}

/// On the real corpus (`WIRELINT_CORPUS`: one directory per repository),
/// every repository gives the same JSON and exit code with and without the
/// prefilter, with the default contract and with none. Ignored unless
/// `WIRELINT_CORPUS` is set as the tests are built (`build.rs`).
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn the_real_corpus_is_the_same_with_and_without_the_prefilter() {
    let corpus = std::env::var_os("WIRELINT_CORPUS")
        .filter(|v| !v.is_empty())
        .expect("WIRELINT_CORPUS names the real corpus (tests/realcode/README.md)");
    let mut repos: Vec<std::path::PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    assert!(!repos.is_empty(), "no repository under {corpus:?}");
    for repo in &repos {
        for extra in [&[][..], &["--no-contract"]] {
            let args: Vec<&str> = ["check", ".", "--format", "json"]
                .into_iter()
                .chain(extra.iter().copied())
                .collect();
            let (code_on, on, err) = run(&args, repo);
            let off_args: Vec<&str> = args.iter().copied().chain(["--no-prefilter"]).collect();
            let (code_off, off, _) = run(&off_args, repo);
            assert!(on.starts_with('{'), "{repo:?}: {err}");
            assert_eq!(code_on, code_off, "{repo:?} {extra:?}: exit code differs");
            assert!(
                on == off,
                "{repo:?} {extra:?}: JSON differs with the prefilter"
            );
        }
        eprintln!("{}: the same both ways", repo.display());
    }
}
