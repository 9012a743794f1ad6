//! Every fixture, run through the binary: exact diagnostics (code, path,
//! line) in both the JSON and the human output, and the exit code.

mod common;

use common::{human_findings, json_findings, repo, run, variant};

/// Rules whose default severity is a warning (they do not fail a run).
const WARNINGS: &[&str] = &["WL001", "WL002", "WL104", "WL204"];

/// The `expected` file: one `CODE path:line` per finding, in output order,
/// optionally followed by `warning` (see [`warned`]), then `breaks=a,b` and
/// `unaffected=c,d` (the impact).
fn expected(name: &str) -> Vec<(String, Vec<(String, String)>)> {
    let path = repo().join("fixtures/variants").join(name).join("expected");
    let text = std::fs::read_to_string(path).expect("each variant has an `expected` file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.splitn(3, ' ');
            let finding = format!("{} {}", parts.next().unwrap(), parts.next().unwrap());
            // `breaks=a,b unaffected=c,d`; names may hold spaces.
            let rest = parts.next().unwrap_or("");
            let mut impact = Vec::new();
            for key in ["breaks=", "unaffected="] {
                if let Some(at) = rest.find(key) {
                    let value = &rest[at + key.len()..];
                    let end = ["breaks=", "unaffected="]
                        .iter()
                        .filter_map(|k| value.find(&format!(" {k}")))
                        .min()
                        .unwrap_or(value.len());
                    impact.push((
                        key.trim_end_matches('=').to_string(),
                        value[..end].to_string(),
                    ));
                }
            }
            (finding, impact)
        })
        .collect()
}

/// The findings an `expected` file marks `warning` (after `CODE path:line`)
/// where the rule's severity depends on the finding (WL308).
fn warned(name: &str) -> Vec<String> {
    let path = repo().join("fixtures/variants").join(name).join("expected");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let mut parts = l.split(' ');
            let finding = format!("{} {}", parts.next()?, parts.next()?);
            (parts.next() == Some("warning")).then_some(finding)
        })
        .collect()
}

fn check_variant(name: &str) {
    let want = expected(name);
    let findings: Vec<String> = want.iter().map(|w| w.0.clone()).collect();
    let fails = want
        .iter()
        .any(|w| !WARNINGS.contains(&&w.0[..5]) && !warned(name).contains(&w.0));
    let dir = variant(name);
    let root = dir.path().to_str().unwrap();

    let (code, stdout, _) = run(&["check", root, "--format", "json"], dir.path());
    assert_eq!(json_findings(&stdout), findings, "{name}: JSON\n{stdout}");
    assert_eq!(code, i32::from(fails), "{name}: exit code");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // Every finding below the line says who breaks and who does not.
    for d in doc["diagnostics"].as_array().unwrap() {
        if d["layer"] != "input" {
            assert!(
                d["impact"]["breaks"].is_array(),
                "{name}: {} has no impact",
                d["code"]
            );
            assert!(
                d["impact"]["unaffected"].is_array(),
                "{name}: {}",
                d["code"]
            );
        }
    }
    for (w, d) in want.iter().zip(doc["diagnostics"].as_array().unwrap()) {
        for (field, want) in &w.1 {
            let got: Vec<&str> = d["impact"][field.as_str()]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: {} has no impact.{field}", w.0))
                .iter()
                .map(|b| b.as_str().unwrap())
                .collect();
            assert_eq!(got.join(","), *want, "{name}: impact.{field} of {}", w.0);
        }
    }

    let (code, _, stderr) = run(&["check", root], dir.path());
    assert_eq!(human_findings(&stderr), findings, "{name}: human\n{stderr}");
    assert_eq!(code, i32::from(fails), "{name}: exit code");
}

#[test]
fn the_echomq_fixture_is_clean() {
    let (code, _, stderr) = run(&["check", "fixtures/echomq"], &repo());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "wirelint: 3 of 3 script calls checked\nwirelint: 0 errors, 0 warnings in 8 files; exit 0: clean"
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

/// The separator after the namespace slips (`emq-` for `emq:`): the rest of
/// the key is the keyspace's, so the prefix is a divergence.
#[test]
fn prefix_separator_changed_in_one_runtime() {
    check_variant("prefix-separator-changed");
}

/// The namespace written with a Cyrillic `е`: it reads as `emq:` and sends
/// other bytes.
#[test]
fn prefix_written_in_lookalike_letters() {
    check_variant("prefix-lookalike-letter");
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

#[test]
fn a_field_read_that_nobody_writes() {
    check_variant("field-read-nobody-writes");
}

#[test]
fn a_key_read_that_nobody_writes() {
    check_variant("key-read-nobody-writes");
}

#[test]
fn one_speaker_renames_a_field() {
    check_variant("one-speaker-renames-a-field");
}

#[test]
fn rust_clients_fred_state_renamed() {
    check_variant("fred-state-renamed");
}

/// fred's client crate is imported in a prelude module and reaches the
/// queue's jobs through `use crate::prelude::*` in their parent and
/// `use super::*` in theirs: the renamed field is found there; a stand-in
/// whose own `hset` has no client in scope stays silent.
#[test]
fn rust_clients_fred_through_module_scope() {
    check_variant("fred-prelude-module");
}

#[test]
fn rust_clients_deadpool_prefix_changed() {
    check_variant("deadpool-prefix-changed");
}

// The Python clients (fixtures/python-clients): redis-py and
// redis.asyncio peers of the EchoMQ wire.

/// The asyncio peer writes `status` where the record has `state`.
#[test]
fn python_clients_state_renamed() {
    check_variant("python-state-renamed");
}

/// The redis-py peer passes a third key to `enqueue`, which takes two.
#[test]
fn python_clients_extra_key() {
    check_variant("python-extra-key");
}

/// The asyncio peer spells the job key's prefix `emqx:` in a `.format`
/// template.
#[test]
fn python_clients_prefix_changed() {
    check_variant("python-prefix-changed");
}

// The Go clients (fixtures/go-clients): a go-redis and a redigo module
// of the EchoMQ wire.

/// The go-redis module's pipeline writes `status` where the record has
/// `state`.
#[test]
fn go_clients_state_renamed() {
    check_variant("go-state-renamed");
}

/// The go-redis module passes a third key to `enqueue`, which takes two.
#[test]
fn go_clients_extra_key() {
    check_variant("go-extra-key");
}

/// The redigo module spells the prefix `emqx` in the constant its key
/// builder concatenates.
#[test]
fn go_clients_prefix_changed() {
    check_variant("go-prefix-changed");
}

// The Ruby clients (fixtures/ruby-clients): a redis-rb and a
// redis-client project of the EchoMQ wire.

/// The redis-rb project's pipeline writes `status` where the record has
/// `state`.
#[test]
fn ruby_clients_state_renamed() {
    check_variant("ruby-state-renamed");
}

/// The redis-rb project passes a third key to `enqueue`, which takes two.
#[test]
fn ruby_clients_extra_key() {
    check_variant("ruby-extra-key");
}

/// The redis-client project spells the prefix `emqx` in the constant its
/// key builder formats.
#[test]
fn ruby_clients_prefix_changed() {
    check_variant("ruby-prefix-changed");
}

#[test]
fn rust_clients_async_hash_tag_removed() {
    check_variant("async-hash-tag-removed");
}

#[test]
fn rust_clients_sync_pending_dropped() {
    check_variant("sync-pending-dropped");
}

#[test]
fn rust_clients_sync_type_misspelled() {
    check_variant("sync-type-misspelled");
}

/// Verbs renamed above the line, a log line with a colon and braces, and
/// `get("payload")` on maps that never came from Redis: all silent.
#[test]
fn rust_clients_verbs_renamed_are_silent() {
    check_variant("rust-verbs-renamed");
}

#[test]
fn elixir_flow_a_genserver_callback_passes_an_extra_key() {
    // The script is known only through the state `init/1` keeps: the SHA
    // `SCRIPT LOAD` gave, read back as `state.sha`.
    check_variant("elixir-flow-extra-key");
}

#[test]
fn scripts_an_elixir_caller_inserts_a_key() {
    check_variant("elixir-extra-key");
}

#[test]
fn scripts_a_rust_caller_swaps_two_keys() {
    check_variant("rust-keys-swapped");
}

#[test]
fn scripts_a_counter_key_where_a_list_belongs() {
    check_variant("counter-for-list");
}

#[test]
fn scripts_a_peer_copy_differs_by_one_line() {
    check_variant("peer-copy-drift");
}

#[test]
fn scripts_a_header_disagrees_with_the_file_name() {
    check_variant("header-vs-file-name");
}

#[test]
fn scripts_one_key_lacks_the_hash_tag() {
    check_variant("missing-hash-tag");
}

#[test]
fn fred_reads_a_renamed_field_after_hgetall() {
    check_variant("fred-read-renamed");
}

#[test]
fn redis_rs_reads_a_renamed_field_after_hgetall() {
    check_variant("sync-read-renamed");
}

#[test]
fn elixir_wrapper_caller_adds_a_key() {
    check_variant("idioms-extra-key");
}

#[test]
fn elixir_wrapper_caller_swaps_keys() {
    check_variant("idioms-keys-swapped");
}

#[test]
fn elixir_reads_a_renamed_field_after_hgetall() {
    check_variant("idioms-read-field-renamed");
}

/// A change in the canonical speaker breaks everyone who did not follow it.
#[test]
fn the_canonical_speaker_renames_a_field() {
    check_variant("canonical-renames-a-field");
}

/// The Rust peer drops the payload from its `enqueue` call: `ARGV[2]` is
/// nil inside the script, which hands it to Redis.
#[test]
fn rust_peer_drops_an_argv_value() {
    check_variant("argv-payload-dropped");
}

/// The canonical speaker passes a third ARGV value `enqueue` never reads
/// (a warning).
#[test]
fn elixir_passes_an_argv_value_nobody_reads() {
    check_variant("elixir-extra-argv");
}

/// The canonical speaker and the Rust peer share a `retry` script that
/// reads its delay with `tonumber`; the peer passes `"now"`, which is nil
/// there.
#[test]
fn rust_peer_passes_a_word_where_the_script_reads_a_number() {
    check_variant("argv-retry-not-a-number");
}

/// The worker's copy of `enqueue` writes the row without first checking
/// the id's `JOB` brand (and so also drifts from the other copies).
#[test]
fn worker_enqueue_without_the_id_gate() {
    check_variant("id-gate-missing");
}

/// The worker mints its own ids as `job-<n>`: not the 14-byte `JOB` ids
/// the gate admits.
#[test]
fn worker_mints_ids_of_the_wrong_brand() {
    check_variant("id-shape");
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

// The Lua-evaluated fixture (fixtures/lua-evaluated): scripts that write
// through `local rcall = redis.call` and local wrappers, shared by an
// Elixir and a Rust caller.

#[test]
fn a_field_renamed_in_a_wrapper_call_is_read_by_nobody() {
    check_variant("lua-wrapper-field-renamed");
}

#[test]
fn a_field_renamed_in_an_included_function_is_read_by_nobody() {
    // `storeJob` is defined in `includes/store.lua` and writes through the
    // including script's `rcall`: its write is the script's, at the call.
    check_variant("lua-include-field-renamed");
}

#[test]
fn an_argv_dropped_after_a_return_on_redis_state_is_still_required() {
    check_variant("lua-argv-dropped-after-state-return");
}

#[test]
fn a_row_keyed_by_a_packed_prefix_is_the_hosts_record() {
    // `park.lua` builds the row key from the prefix its Elixir and Rust
    // callers pack in ARGV[1] (`Msgpax.pack!`, `rmp_serde::to_vec`): its
    // write lands on the job row, where the Rust peer reads a field no
    // one writes; the key is built in the script (WL301).
    check_variant("lua-packed-field-renamed");
}

// Values followed through definitions (fixtures/coverage/rust-flow).

#[test]
fn flow_a_script_in_a_field_set_by_a_constructor_loses_a_key() {
    check_variant("flow-field-script-key-dropped");
}

#[test]
fn flow_an_invocation_built_by_a_helper_loses_its_arg() {
    // The helper only builds the invocation: the finding is at the caller
    // that runs it, not at `prepare_invoke()`.
    check_variant("flow-returned-invocation-arg-dropped");
}

#[test]
fn flow_an_invocation_split_into_statements_loses_a_key() {
    // The keys a block pushes into a `Vec`, passed to an invocation built
    // over statements: one of the script's two is gone.
    check_variant("flow-split-invocation-key-dropped");
}

#[test]
fn js_node_redis_renames_a_field_in_an_object_passed_to_hset() {
    check_variant("js-state-renamed");
}

#[test]
fn js_ioredis_defined_command_called_without_a_key() {
    check_variant("js-registered-key-dropped");
}

#[test]
fn ts_backend_through_an_adapter_interface_leaves_a_key_out() {
    // `finishTask-3.lua` takes keys then ARGV in one array: with a key
    // left out, the id moves into KEYS[3] and ARGV[2] is nil.
    check_variant("ts-adapter-key-dropped");
}

#[test]
fn python_keys_mapped_by_a_helper_leave_one_out() {
    // `self.getKeys(["item"])` returns `list(map(keyOf, roles))`: one key,
    // where `restock-2.lua` declares two.
    check_variant("python-keymap-key-dropped");
}

#[test]
fn js_evalsha_of_a_sha_loaded_in_a_callback_passes_an_unknown_key() {
    check_variant("js-callback-extra-key");
}

#[test]
fn js_prefix_changed_in_a_module_constant() {
    check_variant("js-prefix-changed");
}
