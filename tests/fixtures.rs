//! Every fixture, run through the binary: exact diagnostics (code, path,
//! line) in both the JSON and the human output, and the exit code.

mod common;

use common::{human_findings, json_findings, repo, run, variant};

fn expected(name: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(repo().join("fixtures/variants").join(name).join("expected"))
            .expect("each variant has an `expected` file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

fn check_variant(name: &str) {
    let want = expected(name);
    let dir = variant(name);
    let root = dir.path().to_str().unwrap();

    let (code, stdout, _) = run(&["check", root, "--format", "json"], dir.path());
    assert_eq!(
        json_findings(&stdout),
        want,
        "{name}: JSON findings\n{stdout}"
    );
    assert_eq!(
        code,
        if want.is_empty() { 0 } else { 1 },
        "{name}: exit code"
    );

    let (code, _, stderr) = run(&["check", root], dir.path());
    assert_eq!(
        human_findings(&stderr),
        want,
        "{name}: human findings\n{stderr}"
    );
    assert_eq!(
        code,
        if want.is_empty() { 0 } else { 1 },
        "{name}: exit code"
    );
}

#[test]
fn the_echomq_fixture_is_clean() {
    let (code, _, stderr) = run(&["check", "fixtures/echomq"], &repo());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "wirelint: 0 errors, 0 warnings in 8 files; exit 0: clean"
    );
}

/// Every clean fixture repository checks clean, with no notes.
#[test]
fn every_clean_fixture_is_clean() {
    for name in common::clean_fixtures() {
        let dir = repo().join("fixtures").join(&name);
        let (code, stdout, _) = run(
            &["check", dir.to_str().unwrap(), "--format", "json"],
            &repo(),
        );
        assert_eq!(json_findings(&stdout), Vec::<String>::new(), "{name}");
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["notes"], serde_json::json!([]), "{name}");
        assert_eq!(code, 0, "{name}");
    }
}

#[test]
fn prefix_changed_in_one_runtime() {
    check_variant("prefix-changed");
}

#[test]
fn payload_renamed_in_one_enqueue() {
    check_variant("payload-renamed");
}

#[test]
fn pending_set_dropped_from_the_keys() {
    check_variant("pending-dropped");
}

#[test]
fn an_l4_verb_renamed_is_silent() {
    check_variant("verb-renamed");
}

#[test]
fn hash_tag_removed() {
    check_variant("hash-tag-removed");
}

#[test]
fn type_suffix_misspelled() {
    check_variant("type-misspelled");
}

// The Elixir idioms fixture (fixtures/elixir-idioms): each divergence made
// through one idiom, reported once.

#[test]
fn idioms_prefix_in_an_attribute_used_by_interpolation_and_concat() {
    check_variant("idioms-prefix-attribute");
}

#[test]
fn idioms_type_misspelled_in_one_clause_of_a_helper() {
    check_variant("idioms-type-multi-clause");
}

#[test]
fn idioms_field_renamed_in_a_literal_map_passed_to_hset() {
    check_variant("idioms-map-field-renamed");
}

#[test]
fn idioms_atom_field_misspelled_in_a_word_list_attribute() {
    check_variant("idioms-atom-field-renamed");
}

#[test]
fn idioms_hash_tag_dropped_from_an_interpolation() {
    check_variant("idioms-hash-tag-dropped");
}

#[test]
fn idioms_verb_renamed_is_silent() {
    check_variant("idioms-verb-renamed");
}

// Two Elixir speakers holding enqueue: a priv/ file and an indented ~S heredoc.

#[test]
fn scripts_peer_heredoc_differs_by_one_line() {
    check_variant("scripts-peer-drift");
}

#[test]
fn scripts_peer_heredoc_closing_delimiter_moved() {
    check_variant("scripts-peer-indent");
}

/// Every variant directory has a test above.
#[test]
fn every_variant_is_tested() {
    let src = include_str!("fixtures.rs");
    for e in std::fs::read_dir(repo().join("fixtures/variants")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            src.contains(&format!("check_variant(\"{name}\")")),
            "variant {name} has no test"
        );
    }
}

/// The JSON output of every variant validates against the documented
/// schema (docs/wirelint-output.schema.json).
#[test]
fn json_output_matches_the_documented_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("docs/wirelint-output.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let mut names: Vec<String> = std::fs::read_dir(repo().join("fixtures/variants"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.push(String::new());
    for name in names {
        let dir = variant(&name);
        let (_, stdout, _) = run(
            &["check", dir.path().to_str().unwrap(), "--format", "json"],
            dir.path(),
        );
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}
