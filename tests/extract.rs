//! `wirelint extract`: the observed contract, and the round trip through
//! `--as-contract`.

mod common;

use common::{json_findings, repo, run};

/// Adopting the extracted contract of a clean fixture and checking against
/// it reports nothing.
#[test]
fn an_extracted_contract_round_trips_clean() {
    for name in [
        "echomq",
        "four-speakers",
        "queue-scripts",
        "rust-clients",
        "elixir-idioms",
    ] {
        let dir = repo().join("fixtures").join(name);
        let (code, contract, stderr) = run(
            &["extract", "--as-contract", dir.to_str().unwrap()],
            &repo(),
        );
        assert_eq!(code, 0, "{name}: {stderr}");
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("contract.toml");
        std::fs::write(&file, &contract).unwrap();
        let (code, stdout, stderr) = run(
            &[
                "check",
                dir.to_str().unwrap(),
                "--format",
                "json",
                "--contract",
                file.to_str().unwrap(),
            ],
            &repo(),
        );
        assert_eq!(
            json_findings(&stdout),
            Vec::<String>::new(),
            "{name}:\n{contract}\n{stderr}"
        );
        assert_eq!(code, 0, "{name}");
    }
}

#[test]
fn the_echomq_contract_is_extracted_as_written() {
    let (code, contract, _) = run(&["extract", "--as-contract", "fixtures/echomq"], &repo());
    assert_eq!(code, 0);
    insta::assert_snapshot!("extract_echomq_contract", contract);
}

#[test]
fn the_observed_contract_of_each_speaker() {
    let (code, text, _) = run(&["extract", "fixtures/four-speakers"], &repo());
    assert_eq!(code, 0);
    insta::assert_snapshot!("extract_four_speakers", text);
    let (_, json, _) = run(
        &["extract", "--format", "json", "fixtures/four-speakers"],
        &repo(),
    );
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let names: Vec<&str> = doc["speakers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["(shared scripts)", "tq_admin", "tq_dash", "tq_ex", "tq_rs"]
    );
    let claim = &doc["speakers"][0]["scripts"][0];
    assert_eq!(claim["name"], "claim");
    assert_eq!(claim["declared_keys"]["count"], 3);
}
