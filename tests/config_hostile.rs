//! `wirelint.toml` from a hostile repository: a symbolic link to a file
//! outside it, and a file above its git root; and contracts large enough
//! to show a loader that is not linear.

mod common;

use std::path::Path;

use common::{copy_tree, repo, run};

/// `fixtures/echomq` in `<tmp>/outer/repo`, a git repository, with one
/// file whose key type is misspelt (WL103, line 2).
fn nested() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path().join("outer/repo");
    std::fs::create_dir_all(&r).unwrap();
    copy_tree(&repo().join("fixtures/echomq"), &r);
    // These cases are about the configuration they write themselves.
    std::fs::remove_file(r.join("wirelint.toml")).unwrap();
    std::fs::create_dir(r.join(".git")).unwrap();
    std::fs::write(
        r.join("peers/rust/src/extra.rs"),
        "pub fn k(q: &str) -> String {\n    format!(\"emq:{{{}}}:pendng\", q)\n}\n",
    )
    .unwrap();
    (tmp, r)
}

const FOUND: &str = "peers/rust/src/extra.rs:2:22: error[WL103]: key type `pendng` is not in the contract (it knows `job:<id>`, `pending`)\n";

/// A `wirelint.toml` above the repository's git root, which would ignore
/// WL103, does not apply to it.
#[test]
fn a_config_above_the_git_root_does_not_apply() {
    let (tmp, r) = nested();
    std::fs::write(
        tmp.path().join("outer/wirelint.toml"),
        "ignore = [\"WL103\"]\n",
    )
    .unwrap();
    let (code, out, err) = run(&["check", ".", "--format", "concise"], &r);
    assert_eq!((code, out.as_str()), (1, FOUND), "{err}");
    // Inside the repository it applies.
    std::fs::write(r.join("wirelint.toml"), "ignore = [\"WL103\"]\n").unwrap();
    let (code, out, err) = run(&["check", ".", "--format", "concise"], &r);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

/// An in-tree `wirelint.toml` that links to a file outside the repository
/// is refused in every format; the file's bytes are never read nor shown.
/// A link to a file inside the repository is followed.
#[cfg(unix)]
#[test]
fn a_config_linking_out_of_the_repository_is_refused() {
    let (tmp, r) = nested();
    let secret = tmp.path().join("outer/secret.toml");
    std::fs::write(&secret, "TOKEN = \"hunter2-secret\"\n").unwrap();
    std::os::unix::fs::symlink(&secret, r.join("wirelint.toml")).unwrap();
    for format in [
        "full",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "github",
        "gitlab",
    ] {
        let (code, out, err) = run(&["check", ".", "--format", format], &r);
        assert_eq!(code, 2, "{format}");
        let all = flat(&format!("{out}{err}"));
        assert!(!all.contains("hunter2"), "{format}: {all}");
        assert!(!all.contains("TOKEN"), "{format}: {all}");
        assert!(
            all.contains("it is a symbolic link to a file outside the repository; it is not read"),
            "{format}: {all}"
        );
    }
    std::fs::remove_file(r.join("wirelint.toml")).unwrap();
    std::fs::write(r.join("real.toml"), "ignore = [\"WL103\"]\n").unwrap();
    std::os::unix::fs::symlink(r.join("real.toml"), r.join("wirelint.toml")).unwrap();
    let (code, out, err) = run(&["check", ".", "--format", "concise"], &r);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

/// Text with the full format's line wrapping undone.
fn flat(s: &str) -> String {
    s.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

fn contract(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const HEAD: &str = "name = \"big\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n";

/// 50,000 fields in a record, 20,000 `[keyspace.redis]` entries, 20,000
/// types with a record each: each loads, and a field listed twice among
/// 50,000 is still found. (That loading is linear is measured, not
/// tested: docs/robustness.md.)
#[test]
fn large_contracts_load() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fields: Vec<String> = (0..50_000).map(|i| format!("\"f{i}\"")).collect();
    let types: String = (0..20_000)
        .map(|i| format!("t{i} = \"t{i}:<id>\"\n"))
        .collect();
    let redis: String = (0..20_000).map(|i| format!("t{i} = \"hash\"\n")).collect();
    let records: String = (0..20_000)
        .map(|i| format!("[records.r{i}]\ntype = \"t{i}\"\nfields = [\"a\"]\n"))
        .collect();
    let cases = [
        contract(
            d,
            "fields.toml",
            &format!("{HEAD}[keyspace.types]\njob = \"job:<id>\"\n[records.job]\ntype = \"job\"\nfields = [{}]\n", fields.join(",")),
        ),
        contract(d, "redis.toml", &format!("{HEAD}[keyspace.types]\n{types}[keyspace.redis]\n{redis}")),
        contract(d, "records.toml", &format!("{HEAD}[keyspace.types]\n{types}{records}")),
    ];
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    for c in &cases {
        let (code, _, err) = run(&["check", ".", "--contract", c, "--no-cache"], &empty);
        assert_eq!(code, 0, "{c}: {err}");
    }
    let twice = contract(
        d,
        "twice.toml",
        &format!("{HEAD}[keyspace.types]\njob = \"job:<id>\"\n[records.job]\ntype = \"job\"\nfields = [{}, \"f49999\"]\n", fields.join(",")),
    );
    let (code, _, err) = run(
        &["check", ".", "--contract", &twice, "--format", "json"],
        &empty,
    );
    assert_eq!(code, 2);
    assert!(
        flat(&err).contains("field `f49999` is listed twice"),
        "{err}"
    );
}
