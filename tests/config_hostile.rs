//! `wirelint.toml` from a hostile repository: a symbolic link to a file
//! outside it, and a file above its git root; contracts large enough to
//! show a loader that is not linear; and files named as the shipped
//! contracts are, which never stand in for them.

mod common;

use std::path::Path;

use common::{copy_tree, repo, run, FORMATS};

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
    for &format in FORMATS {
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

/// A contract of the tree that would silence the WL103 of [`nested`]: its
/// keyspace knows `pendng`.
const PERMISSIVE: &str = "name = \"permissive\"\n[keyspace]\nkey = \"emq:{<queue>}:<type>\"\n[keyspace.types]\njob = \"job:<id>\"\npending = \"pending\"\npendng = \"pendng\"\n";

/// `--contract echomq`, as CI pins it, is the shipped contract whatever
/// the tree holds under that name (a file the pull request adds, or a
/// directory); a file is named as a path (`./echomq`); an unknown bare
/// name is an error that lists the shipped names, in `check` and `audit`.
#[test]
fn a_shipped_contract_name_is_never_a_file_of_the_tree() {
    let (_tmp, r) = nested();
    std::fs::write(r.join("echomq"), PERMISSIVE).unwrap();
    let concise = ["--format", "concise"];
    let check = |contract: &str| {
        run(
            &[&["check", ".", "--contract", contract][..], &concise].concat(),
            &r,
        )
    };
    let (code, out, err) = check("echomq");
    assert_eq!((code, out.as_str()), (1, FOUND), "{err}");
    // Written as a path, the file is the contract.
    let (code, out, err) = check("./echomq");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    // A directory of the name is no obstacle either.
    std::fs::remove_file(r.join("echomq")).unwrap();
    std::fs::create_dir(r.join("echomq")).unwrap();
    let (code, out, err) = check("echomq");
    assert_eq!((code, out.as_str()), (1, FOUND), "{err}");
    // An unknown bare name, even one a file has: no contract, exit 2.
    std::fs::write(r.join("mine"), PERMISSIVE).unwrap();
    for (name, near) in [("echomp", " (did you mean `echomq`?)"), ("mine", "")] {
        let (code, out, err) = check(name);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert_eq!(
            err,
            format!("error: no shipped contract is named `{name}`{near}: the shipped contracts are echomq, bullmq, rsmq, sidekiq, asynq, and a contract file is written as a path (./{name}, or a name ending in .toml)\n")
        );
        let (code, _, audit_err) = run(
            &[
                "audit",
                "--contract",
                name,
                "--url",
                "redis://127.0.0.1:1/0",
            ],
            &r,
        );
        assert_eq!((code, audit_err), (2, err));
    }
}

/// `contract = "NAME"` in `wirelint.toml` follows the same rule: the name
/// is the shipped contract beside a file of that name, `./NAME` the file,
/// and an unknown name an error that points at it.
#[test]
fn a_config_names_a_shipped_contract_as_the_command_line_does() {
    let (_tmp, r) = nested();
    std::fs::write(r.join("echomq"), PERMISSIVE).unwrap();
    let concise = ["check", ".", "--format", "concise"];
    std::fs::write(r.join("wirelint.toml"), "contract = \"echomq\"\n").unwrap();
    let (code, out, err) = run(&concise, &r);
    assert_eq!((code, out.as_str()), (1, FOUND), "{err}");
    std::fs::write(r.join("wirelint.toml"), "contract = \"./echomq\"\n").unwrap();
    let (code, out, err) = run(&concise, &r);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    std::fs::write(r.join("wirelint.toml"), "contract = \"echomp\"\n").unwrap();
    let (code, out, err) = run(&["check", ".", "--format", "json"], &r);
    assert_eq!(code, 2, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let path = r.join("wirelint.toml").display().to_string();
    assert_eq!(
        doc["error"],
        serde_json::json!({
            "kind": "contract",
            "message": format!("invalid settings {path}: no shipped contract is named `echomp`"),
            "path": path,
            "line": 1,
            "column": 12,
            "help": "did you mean `echomq`? The shipped contracts are echomq, bullmq, rsmq, sidekiq, asynq, and a contract file is written as a path (\"./echomp\", or a name ending in .toml)",
        })
    );
}
