//! What a long-lived process keeps between runs (`pipeline::session`: the
//! file list, the name pass's names, the link's call sites; and the facts
//! cache's memo) never changes what a run finds: after each edit, a run
//! with them finds exactly what a fresh run finds.

use std::path::Path;
use std::sync::Arc;

use wirelint::pipeline::cache::Memo;
use wirelint::pipeline::session::Session;
use wirelint::pipeline::{analyze, ContractChoice, Options, DEFAULT_MAX_FILE_BYTES};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Each finding as `code path:line message`.
fn findings(root: &Path, kept: Option<(&Arc<Memo>, &Arc<Session>)>, cache: &Path) -> Vec<String> {
    let opts = Options {
        paths: vec![root.to_path_buf()],
        root: root.to_path_buf(),
        contract: ContractChoice::Default,
        threads: Some(2),
        max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        config: wirelint::config::Config::find_limited(root, DEFAULT_MAX_FILE_BYTES),
        settings: Default::default(),
        buffers: Vec::new(),
        prefilter: true,
        tree: None,
        cache_dir: kept.map(|_| cache.to_path_buf()),
        memo: kept.map(|(m, _)| m.clone()),
        speaker_prefix: None,
        session: kept.map(|(_, s)| s.clone()),
    };
    let a = analyze(&opts).unwrap();
    a.diagnostics
        .iter()
        .map(|d| {
            let f = a.sources.get(d.primary.span.file);
            let line = f.line_col(d.primary.span.start).line;
            format!("{} {}:{line} {}", d.code, f.rel, d.message)
        })
        .collect()
}

const KEYS_PLAIN: &str =
    "defmodule Q.Keys do\n  def job(q, id), do: \"#{Q.Base.base(q)}:job:#{id}\"\nend\n";
const KEYS_KIND: &str =
    "defmodule Q.Keys do\n  def job(q, id), do: \"#{Q.Base.base(q)}:#{Q.Kind.kind()}:#{id}\"\nend\n";

/// An edit that makes a file reachable only through a name (`kind.ex`,
/// once `keys.ex` looks `kind` up), its undo, and an edit that changes no
/// name (a comment): after each, the kept run finds what a fresh one does,
/// and the edits do change the findings.
#[test]
fn after_each_edit_a_kept_run_finds_what_a_fresh_run_finds() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "q/mix.exs", "defmodule Q.MixProject do\nend\n");
    write(
        root,
        "q/lib/store.ex",
        "defmodule Q.Store do\n  def save(c, q, id), do: Redix.command(c, [\"HSET\", Q.Keys.job(q, id), \"state\", \"x\"])\nend\n",
    );
    write(root, "q/lib/keys.ex", KEYS_PLAIN);
    write(
        root,
        "q/lib/kind.ex",
        "defmodule Q.Kind do\n  def kind, do: \"row\"\nend\n",
    );
    write(
        root,
        "q/lib/base.ex",
        "defmodule Q.Base do\n  def base(q), do: \"emq:{#{q}}\"\nend\n",
    );
    let memo = Arc::new(Memo::default());
    let session = Arc::new(Session::default());
    let kept = || findings(root, Some((&memo, &session)), cache.path());
    let fresh = || findings(root, None, cache.path());

    let before = fresh();
    assert_eq!(kept(), before);
    assert!(!before.iter().any(|f| f.contains("kind.ex")), "{before:#?}");

    write(root, "q/lib/keys.ex", KEYS_KIND);
    let reached = fresh();
    assert_eq!(kept(), reached);
    assert!(
        reached.iter().any(|f| f.contains("q/lib/kind.ex:2")),
        "{reached:#?}"
    );

    write(root, "q/lib/keys.ex", &format!("{KEYS_KIND}# a comment\n"));
    assert_eq!(kept(), reached);
    assert_eq!(fresh(), reached);

    write(root, "q/lib/keys.ex", KEYS_PLAIN);
    assert_eq!(kept(), before);
    assert_eq!(fresh(), before);
}
