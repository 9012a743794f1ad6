//! `check --matrix`: the agreement matrix, as a table and in the JSON.

mod common;

use common::{repo, run, variant};

fn table(name: &str) -> String {
    let dir = variant(name);
    let (_, stdout, _) = run(&["check", ".", "--matrix"], dir.path());
    stdout
}

#[test]
fn the_clean_fixture_agrees_everywhere() {
    insta::assert_snapshot!("matrix_echomq", table(""));
}

#[test]
fn a_prefix_change_splits_the_job_key() {
    insta::assert_snapshot!("matrix_prefix_changed", table("prefix-changed"));
}

#[test]
fn a_renamed_field_diverges_in_its_speaker() {
    insta::assert_snapshot!(
        "matrix_one_speaker_renames",
        table("one-speaker-renames-a-field")
    );
}

/// A row per ARGV slot: the Rust peer that drops the payload diverges on
/// its call's slots, the others agree.
#[test]
fn an_argv_value_dropped_diverges_in_its_speaker() {
    insta::assert_snapshot!("matrix_argv_payload_dropped", table("argv-payload-dropped"));
}

#[test]
fn the_matrix_is_in_the_json_and_fits_the_schema() {
    let dir = variant("prefix-changed");
    let (code, stdout, _) = run(&["check", ".", "--matrix", "--format", "json"], dir.path());
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        doc["matrix"]["speakers"],
        serde_json::json!(["echo_mq", "peers/rust", "peers/worker"])
    );
    let emk = doc["matrix"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["item"] == "emk:{<*>}:job:<*>")
        .expect("a row for the diverging key");
    assert_eq!(emk["cells"], serde_json::json!({"peers/rust": "diverges"}));
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("docs/wirelint-output.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&doc));
}

/// 17 crates, one more than a table shows: a line per row naming the
/// speakers that use its item, and in the JSON only those speakers. The
/// dense form was speakers × rows (4,300 crates: 680 MB of JSON).
#[test]
fn many_speakers_are_listed_by_row_not_tabled() {
    let dir = tempfile::tempdir().unwrap();
    common::crates(dir.path(), 17);
    let (code, stdout, _) = run(&["check", ".", "--matrix"], dir.path());
    assert_eq!(code, 1);
    let agree: Vec<String> = (0..17).map(|i| format!("c{i:02}")).collect();
    let state: Vec<String> = (0..16).map(|i| format!("c{i:02}")).collect();
    assert_eq!(
        stdout,
        format!(
            "17 speakers, too many for a table: each row names the speakers that use its item\n\
             field emq:{{<*>}}:job:<*> extra  ✗ c16\n\
             field emq:{{<*>}}:job:<*> state  ✓ {}\n\
             key emq:{{<*>}}:job:<*>  ✓ {}\n\
             ✓ agrees   ✗ diverges (a finding points at this use); a speaker not named does not use the item\n",
            state.join(", "),
            agree.join(", ")
        )
    );
    let (_, stdout, _) = run(&["check", ".", "--matrix", "--format", "json"], dir.path());
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["version"], 3);
    assert_eq!(doc["matrix"]["speakers"], serde_json::json!(agree));
    assert_eq!(
        doc["matrix"]["rows"][0],
        serde_json::json!({"kind": "field", "item": "emq:{<*>}:job:<*> extra", "cells": {"c16": "diverges"}})
    );
    assert_eq!(
        doc["matrix"]["rows"][1]["cells"].as_object().unwrap().len(),
        16
    );
}
