//! The corpus generator (`examples/gen-corpus.rs`) seeds known divergences:
//! wirelint must report exactly the findings it lists in `expected.txt`,
//! with the prefilter on and off (the same JSON both ways).

mod common;

#[path = "../examples/gen-corpus.rs"]
#[allow(dead_code)]
mod gen_corpus;

use common::{json_findings, run};

#[test]
fn a_generated_corpus_gives_exactly_the_seeded_findings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("corpus");
    let spec = gen_corpus::Spec {
        files: 600,
        out: out.clone(),
        seed: 7,
        kb: 3,
    };
    let (files, _) = gen_corpus::generate(&spec).unwrap();
    assert!(files >= 600);
    let mut want: Vec<String> = std::fs::read_to_string(out.join("expected.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    want.sort();
    assert!(want.len() >= 5, "the corpus seeds divergences: {want:?}");

    let root = out.to_str().unwrap();
    let (code, on, _) = run(&["check", root, "--format", "json"], &out);
    let (_, off, _) = run(&["check", root, "--format", "json", "--no-prefilter"], &out);
    assert_eq!(code, 1);
    assert!(on == off, "the prefilter changed the output");
    let mut got = json_findings(&on);
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn the_generator_is_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for d in [&a, &b] {
        let spec = gen_corpus::Spec {
            files: 120,
            out: d.path().join("c"),
            seed: 3,
            kb: 2,
        };
        gen_corpus::generate(&spec).unwrap();
    }
    let list = |d: &std::path::Path| -> Vec<(std::path::PathBuf, Vec<u8>)> {
        common::walk(d)
            .into_iter()
            .map(|p| {
                (
                    p.strip_prefix(d).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect()
    };
    assert!(list(&a.path().join("c")) == list(&b.path().join("c")));
}
