//! Every rule alone, on cases of its own (`tests/rules/README.md`).
//!
//! `tests/rules/<CODE>-<name>/<case>/` is a tiny tree. The test runs the
//! whole pipeline on it as a library, then only that rule, and compares
//! what the rule decides (code, place, message, labels, help, speaker,
//! impact, fix) with `tests/rules/<CODE>-<name>/<case>.snap`. A case is a folder
//! and nothing else: the cases are read from the disk.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use wirelint::checks::{rule, CheckContext, Rule, RULES, UNUSED_SUPPRESSION};
use wirelint::config::settings::Settings;
use wirelint::config::Config;
use wirelint::diagnostic::{Diagnostic, Label};
use wirelint::pipeline::{analyze, Analysis, ContractChoice, Options};

/// A case holding this file runs with no contract.
const NO_CONTRACT: &str = "no-contract";
/// A case holding this file runs against it instead of the embedded one.
const CONTRACT: &str = "contract.toml";

fn rules_dir() -> PathBuf {
    common::repo().join("tests/rules")
}

/// The folder of a rule's cases: `WL201-unknown-field`.
fn folder(r: &Rule) -> String {
    format!("{}-{}", r.code, r.name)
}

/// The entries of `dir` that are directories (`true`) or files, sorted.
fn entries(dir: &Path, dirs: bool) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() == dirs)
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The pipeline on a copy of the case, in a temporary directory (so that
/// nothing around it, such as this repository's `Cargo.toml`, takes part),
/// with the options `wirelint check DIR` would use.
fn analysis(case: &Path) -> (Analysis, Settings) {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(case, dir.path());
    let root = dir.path().to_path_buf();
    let contract = if root.join(NO_CONTRACT).exists() {
        ContractChoice::None
    } else if root.join(CONTRACT).exists() {
        ContractChoice::File(root.join(CONTRACT))
    } else {
        ContractChoice::Default
    };
    let config = Config::find(&root);
    let settings = config
        .clone()
        .expect("the case's wirelint.toml is valid")
        .map(|c| c.settings)
        .unwrap_or_default();
    let opts = Options {
        threads: Some(1),
        ..Options::new(root.clone(), vec![root], contract, config, settings.clone())
    };
    let a = analyze(&opts).unwrap_or_else(|e| panic!("{}: {e:?}", case.display()));
    (a, settings)
}

/// What the rule alone finds. WL002 has no pass of its own: it is what the
/// suppression step reports once every other rule ran, as `check` runs it.
fn findings(r: &'static Rule, mut a: Analysis, settings: &Settings) -> (Analysis, Vec<Diagnostic>) {
    if std::ptr::eq(r, &UNUSED_SUPPRESSION) {
        settings.apply(&mut a.diagnostics);
        wirelint::post::suppress::apply(&mut a, settings);
        let found = a.diagnostics.iter().filter(|d| d.code == r.code).cloned();
        let found = found.collect();
        return (a, found);
    }
    let found = r.check(&CheckContext::new(
        &a.model,
        a.contract.as_ref(),
        a.contract_file,
        &a.sources,
    ));
    (a, found)
}

/// `path:line:col`.
fn place(a: &Analysis, label: &Label) -> String {
    let file = a.sources.get(label.span.file);
    let at = file.line_col(label.span.start);
    format!("{}:{}:{}", file.rel, at.line, at.column)
}

/// Everything the rule decides, one finding after the other.
fn render(a: &Analysis, found: &[Diagnostic]) -> String {
    let names = |v: &[String]| match v {
        [] => "nobody".to_string(),
        _ => v.join(", "),
    };
    let mut out = String::new();
    for d in found {
        let p = &d.primary;
        out.push_str(&format!("{} {} {}\n", d.code, place(a, p), d.message));
        out.push_str(&format!("  label: {}\n", p.message));
        for l in &d.related {
            out.push_str(&format!("  related: {} {}\n", place(a, l), l.message));
        }
        if let Some(h) = &d.help {
            out.push_str(&format!("  help: {h}\n"));
        }
        if let Some(s) = &d.speaker {
            out.push_str(&format!("  speaker: {s}\n"));
        }
        if let Some(i) = &d.impact {
            out.push_str(&format!(
                "  impact: breaks {}; unaffected {}\n",
                names(&i.breaks),
                names(&i.unaffected)
            ));
        }
        if let Some(f) = &d.fix {
            let how = f.applicability.as_str();
            out.push_str(&format!("  fix ({how}): {}\n", f.message));
            for e in &f.edits {
                let end = a.sources.get(e.span.file).line_col(e.span.end);
                let at = place(a, &Label::new(e.span, ""));
                out.push_str(&format!(
                    "    {at}-{}:{} {:?}\n",
                    end.line, end.column, e.text
                ));
            }
        }
    }
    out
}

/// Runs every case of one rule; each must match its snapshot, and the rule
/// needs at least one case that finds something and one that stays silent.
fn check_rule(code: &str) {
    let r = rule(code).unwrap();
    let dir = rules_dir().join(folder(r));
    let cases = entries(&dir, true);
    let (mut positive, mut negative) = (0, 0);
    let mut failed = Vec::new();
    for case in &cases {
        let (a, settings) = analysis(&dir.join(case));
        let (a, found) = findings(r, a, &settings);
        if found.is_empty() {
            negative += 1;
        } else {
            positive += 1;
        }
        let text = render(&a, &found);
        let matched = catch_unwind(AssertUnwindSafe(|| {
            let mut s = insta::Settings::clone_current();
            s.set_snapshot_path(&dir);
            s.set_prepend_module_to_snapshot(false);
            s.set_omit_expression(true);
            s.set_input_file(dir.join(case));
            s.bind(|| insta::assert_snapshot!(case.as_str(), text));
        }));
        if matched.is_err() {
            failed.push(case.clone());
        }
    }
    assert!(
        failed.is_empty() && positive > 0 && negative > 0,
        "{code}: cases off their snapshot: {failed:?}; cases with findings: {positive}, \
         silent: {negative} (a rule needs one of each)"
    );
}

macro_rules! rule_tests {
    ($($test:ident: $code:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_rule($code);
            }
        )*

        /// A new rule needs its line above, and its folder.
        #[test]
        fn every_rule_has_a_test() {
            let codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
            assert_eq!(codes, [$($code),*]);
        }
    };
}

rule_tests! {
    wl001_parse_error: "WL001",
    wl002_unused_suppression: "WL002",
    wl101_key_prefix: "WL101",
    wl102_key_hash_tag: "WL102",
    wl103_key_type: "WL103",
    wl104_key_orphan: "WL104",
    wl105_key_data_type: "WL105",
    wl201_unknown_field: "WL201",
    wl202_missing_field: "WL202",
    wl203_field_never_written: "WL203",
    wl204_field_never_read: "WL204",
    wl301_keys_undeclared: "WL301",
    wl302_keys_missing: "WL302",
    wl303_keys_arity: "WL303",
    wl304_keys_order: "WL304",
    wl305_script_drift: "WL305",
    wl306_cross_slot: "WL306",
    wl307_keys_declaration_conflict: "WL307",
    wl308_argv_arity: "WL308",
    wl309_argv_value: "WL309",
    wl310_id_gate_missing: "WL310",
    wl311_id_shape: "WL311",
    wl312_keys_role_conflict: "WL312",
}

/// Every folder is a rule's, and every snapshot has its case (a renamed or
/// deleted case leaves none behind).
#[test]
fn folders_and_snapshots_match() {
    let known: Vec<String> = RULES.iter().map(|r| folder(r)).collect();
    for f in entries(&rules_dir(), true) {
        assert!(known.contains(&f), "tests/rules/{f} names no rule");
        let dir = rules_dir().join(&f);
        let cases = entries(&dir, true);
        for snap in entries(&dir, false) {
            let Some(case) = snap.strip_suffix(".snap") else {
                continue;
            };
            assert!(
                cases.iter().any(|c| c == case),
                "tests/rules/{f}/{snap} has no case folder"
            );
        }
    }
}
