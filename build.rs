//! Gives the binary an identity for its facts cache
//! (`src/pipeline/cache.rs`): a hash of every file under `src/` and of
//! `Cargo.lock` (the grammars' versions), so that any change to what
//! extraction does starts a new cache instead of reading stale facts.
//!
//! Also sets `cfg(wirelint_corpus)` when `WIRELINT_CORPUS` (the pinned
//! real corpus, `tests/realcode/README.md`) is set at build time: the
//! tests that read the corpus are `#[ignore]`d without it, so that the
//! test summary counts them as not run.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo::rustc-check-cfg=cfg(wirelint_corpus)");
    println!("cargo:rerun-if-env-changed=WIRELINT_CORPUS");
    if std::env::var_os("WIRELINT_CORPUS").is_some_and(|v| !v.is_empty()) {
        println!("cargo:rustc-cfg=wirelint_corpus");
    }
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    paths.push(PathBuf::from("Cargo.lock"));
    paths.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for p in &paths {
        p.hash(&mut h);
        std::fs::read(p).unwrap_or_default().hash(&mut h);
    }
    println!(
        "cargo:rustc-env=WIRELINT_BUILD_ID={}-{:016x}",
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default(),
        h.finish()
    );
}
