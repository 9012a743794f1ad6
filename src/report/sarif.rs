//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning, typed with the
//! `serde-sarif` crate (a misspelled field does not compile).
//!
//! - `tool.driver.rules[]`: every rule, with `shortDescription` (its
//!   summary), `fullDescription` (the *What it does* section of its doc),
//!   `help` (the whole doc, as text and Markdown) and
//!   `defaultConfiguration.level`.
//! - Locations are relative `uri`s with `uriBaseId` `%SRCROOT%`: the git
//!   repository's root, whatever directory is scanned (else the current
//!   directory; `crate::scope::report_prefix`), as code scanning resolves
//!   them. A span in the embedded contract uses the base
//!   `WIRELINT_EMBEDDED` instead, described in `originalUriBaseIds`; one
//!   in a contract drafted from code (`check --upstream DIR`) is named by
//!   the draft's origin, on no base.
//! - The contract side of a finding (and any agreeing speaker's code) goes
//!   in `relatedLocations`.
//! - Columns count Unicode scalar values (`columnKind`
//!   `unicodeCodePoints`); `endColumn` is exclusive, as SARIF defines it.
//! - `diff --format sarif` ([`render_diff`]) describes the change kinds
//!   (WDxxx) instead, and puts a change's base side in `relatedLocations`.
//! - Fingerprints never use lines: `partialFingerprints` holds
//!   `wirelintFact/v1`, the hash of code, path and normalized fact
//!   ([`crate::post::baseline`]).

use super::{CheckRun, Output, Reporter};
use std::collections::BTreeMap;

use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification,
    PhysicalLocation, Region, ReportingConfiguration, ReportingDescriptor, Result as SarifResult,
    ResultLevel, Run, Sarif as SarifLog, Tool, ToolComponent,
};

use super::diff::DiffRun;
use super::span_lines;
use crate::checks::{Rule, RULES};
use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::Span;
use crate::pipeline::Analysis;
use crate::post::baseline::{fingerprint, keys_with_occurrence};
use crate::views::diff::{Change, KINDS};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const SRCROOT: &str = "%SRCROOT%";
pub const EMBEDDED: &str = "WIRELINT_EMBEDDED";

/// Percent-encodes a path for a URI reference (keeps `/`): the bytes of
/// the name, not its escaped display (`crate::source::name_bytes`).
pub fn uri_path(rel: &str) -> String {
    let mut out = String::new();
    for b in crate::source::name_bytes(rel) {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The section of a rule's doc under `## What it does`, as one paragraph.
pub fn what_it_does(doc: &str) -> String {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in doc.lines() {
        if line.starts_with("## ") {
            if inside {
                break;
            }
            inside = line.trim() == "## What it does";
            continue;
        }
        if inside {
            lines.push(line.trim());
        }
    }
    crate::post::baseline::normalize(&lines.join(" "))
}

fn level(s: Severity) -> ResultLevel {
    match s {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
    }
}

fn descriptor(r: &Rule) -> ReportingDescriptor {
    let doc = r.doc();
    let full = what_it_does(&doc);
    describe(r.code, r.name, r.summary, full, doc, r.severity)
}

/// A `tool.driver.rules[]` entry: a check's, an audit rule's or a diff
/// change kind's (`doc` is what `wirelint explain CODE` prints).
fn describe(
    code: &str,
    name: &str,
    summary: &str,
    full: String,
    doc: String,
    severity: Severity,
) -> ReportingDescriptor {
    ReportingDescriptor::builder()
        .id(code)
        .name(name)
        .short_description(MultiformatMessageString::builder().text(summary).build())
        .full_description(MultiformatMessageString::builder().text(full).build())
        .help(
            MultiformatMessageString::builder()
                .text(doc.clone())
                .markdown(doc)
                .build(),
        )
        .default_configuration(
            ReportingConfiguration::builder()
                .level(serde_json::json!(severity.as_str()))
                .build(),
        )
        .build()
}

/// Where a file of the analysis is: under `%SRCROOT%`, the embedded
/// contract's base, an absolute `file:` URI, or a drafted contract's name
/// on no base.
fn artifact(a: &Analysis, id: crate::facts::FileId) -> ArtifactLocation {
    let file = a.sources.get(id);
    let embedded = a.contract_file == Some(id) && a.contract.as_ref().is_some_and(|c| c.embedded);
    if embedded {
        let rel = file.rel.trim_end_matches(" (embedded)");
        ArtifactLocation::builder()
            .uri(uri_path(rel))
            .uri_base_id(EMBEDDED)
            .build()
    } else if a.contract_file == Some(id) && a.contract.as_ref().is_some_and(|c| c.drafted) {
        // A draft (`check --upstream DIR`) is in no file: its name, on no base.
        ArtifactLocation::builder().uri(uri_path(&file.rel)).build()
    } else if file.rel.starts_with('/') {
        // Outside the scanned root: an absolute `file:` URI.
        ArtifactLocation::builder()
            .uri(format!("file://{}", uri_path(&file.rel)))
            .build()
    } else {
        ArtifactLocation::builder()
            .uri(uri_path(&file.rel))
            .uri_base_id(SRCROOT)
            .build()
    }
}

/// A span as a region: lines and columns, and its bytes.
fn region(a: &Analysis, span: Span) -> Region {
    let (s, e) = span_lines(a, span);
    Region::builder()
        .start_line(s.line as i64)
        .start_column(s.column as i64)
        .end_line(e.line as i64)
        .end_column(e.column as i64)
        .byte_offset(span.start as i64)
        .byte_length((span.end - span.start) as i64)
        .build()
}

/// A finding's fix as SARIF `fixes`: one change per file, its edits as
/// replacements; a suggestion says so in its description.
fn fixes(a: &Analysis, f: &crate::diagnostic::Fix) -> Vec<serde_sarif::sarif::Fix> {
    use serde_sarif::sarif::{ArtifactChange, ArtifactContent, Replacement};
    let mut by_file: BTreeMap<crate::facts::FileId, Vec<Replacement>> = BTreeMap::new();
    for e in &f.edits {
        by_file.entry(e.span.file).or_default().push(
            Replacement::builder()
                .deleted_region(region(a, e.span))
                .inserted_content(ArtifactContent::builder().text(e.text.clone()).build())
                .build(),
        );
    }
    let changes: Vec<ArtifactChange> = by_file
        .into_iter()
        .map(|(file, replacements)| {
            ArtifactChange::builder()
                .artifact_location(artifact(a, file))
                .replacements(replacements)
                .build()
        })
        .collect();
    let text = match f.applicability {
        crate::diagnostic::Applicability::Safe => f.message.clone(),
        crate::diagnostic::Applicability::Unsafe => format!("{} (a suggestion)", f.message),
    };
    vec![serde_sarif::sarif::Fix::builder()
        .description(Message::builder().text(text).build())
        .artifact_changes(changes)
        .build()]
}

fn location(a: &Analysis, span: Span, message: Option<&str>, id: Option<i64>) -> Location {
    let artifact = artifact(a, span.file);
    let (s, e) = span_lines(a, span);
    let region = Region::builder()
        .start_line(s.line as i64)
        .start_column(s.column as i64)
        .end_line(e.line as i64)
        .end_column(e.column as i64)
        .build();
    let physical = PhysicalLocation::builder()
        .artifact_location(artifact)
        .region(region)
        .build();
    match (message, id) {
        (Some(m), Some(id)) => Location::builder()
            .id(id)
            .physical_location(physical)
            .message(Message::builder().text(m).build())
            .build(),
        _ => Location::builder().physical_location(physical).build(),
    }
}

fn result(a: &Analysis, d: &Diagnostic, fp: String, rules: &[&Rule]) -> SarifResult {
    let rule_index = rules.iter().position(|r| r.code == d.code);
    let mut text = d.message.clone();
    if let Some(sp) = &d.speaker {
        text.push_str(&format!(" [{sp}]"));
    }
    if let Some(h) = &d.help {
        text.push_str(&format!("\n\nhelp: {h}"));
    }
    // SARIF message links: `[text](id)` points at the related location
    // with that id.
    for (i, r) in d.related.iter().enumerate() {
        let escaped = r.message.replace('[', "\\[").replace(']', "\\]");
        text.push_str(&format!("\n\n[{escaped}]({})", i + 1));
    }
    let mut fps = BTreeMap::new();
    fps.insert("wirelintFact/v1".to_string(), fp);
    let related: Vec<Location> = d
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| location(a, r.span, Some(&r.message), Some(i as i64 + 1)))
        .collect();
    let base = SarifResult::builder()
        .rule_id(d.code)
        .level(level(d.severity))
        .message(Message::builder().text(text).build())
        .locations(vec![location(a, d.primary.span, None, None)])
        .partial_fingerprints(fps)
        .related_locations(related);
    let mut r = base.build();
    r.rule_index = rule_index.map(|i| i as i64);
    r.fixes = d.fix.as_ref().map(|f| fixes(a, f));
    r
}

/// `--format sarif`.
pub struct Sarif;

impl Reporter<CheckRun<'_>> for Sarif {
    fn report(&self, run: &CheckRun<'_>) -> Output {
        Output::stdout(render(run.analysis, run.diagnostics))
    }
}

pub fn render(a: &Analysis, diagnostics: &[&Diagnostic]) -> String {
    render_with_rules(a, diagnostics, RULES)
}

/// As [`render`], describing `rules` (`wirelint audit` has its own).
pub fn render_with_rules(a: &Analysis, diagnostics: &[&Diagnostic], rules: &[&Rule]) -> String {
    let keys = keys_with_occurrence(&a.sources, diagnostics);
    let kept = kept(diagnostics.iter().map(|d| d.severity));
    let results: Vec<SarifResult> = diagnostics
        .iter()
        .zip(keys)
        .enumerate()
        .filter(|(i, _)| kept.as_ref().is_none_or(|k| k.contains(i)))
        .map(|(_, (d, (k, n)))| result(a, d, fingerprint(&k, n), rules))
        .collect();
    let left_out = diagnostics.len() - results.len();
    let descriptors = rules.iter().map(|r| descriptor(r)).collect();
    log(
        descriptors,
        results,
        a.contract.as_ref().is_some_and(|c| c.embedded),
        left_out,
        Vec::new(),
    )
}

/// GitHub code scanning rejects a run of more than 25,000 results (and
/// shows 5,000): past that, the results kept are the errors first, then the
/// warnings, each in output order. `None` when all are kept.
const MAX_RESULTS: usize = 25_000;

fn kept(severities: impl Iterator<Item = Severity>) -> Option<std::collections::BTreeSet<usize>> {
    let severities: Vec<Severity> = severities.collect();
    if severities.len() <= MAX_RESULTS {
        return None;
    }
    let mut order: Vec<usize> = (0..severities.len()).collect();
    order.sort_by_key(|&i| (severities[i] != Severity::Error, i));
    Some(order.into_iter().take(MAX_RESULTS).collect())
}

/// The SARIF log of one run: the driver with its rules, the base URIs
/// (`WIRELINT_EMBEDDED` when a location may use it), the results, and the
/// warnings of the run (`notes`, and how many results were left out).
fn log(
    rules: Vec<ReportingDescriptor>,
    results: Vec<SarifResult>,
    embedded: bool,
    left_out: usize,
    mut notes: Vec<String>,
) -> String {
    let mut bases = BTreeMap::new();
    bases.insert(
        SRCROOT.to_string(),
        ArtifactLocation::builder()
            .description(
                Message::builder()
                    .text("the root of the git repository that holds the scanned directory, else the current directory")
                    .build(),
            )
            .build(),
    );
    if embedded {
        bases.insert(
            EMBEDDED.to_string(),
            ArtifactLocation::builder()
                .description(
                    Message::builder()
                        .text("contracts embedded in the wirelint binary (its own repository)")
                        .build(),
                )
                .build(),
        );
    }
    let driver = ToolComponent::builder()
        .name("wirelint")
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .rules(rules)
        .build();
    let count = results.len();
    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .original_uri_base_ids(bases)
        .column_kind(serde_json::json!("unicodeCodePoints"))
        .results(results)
        .build();
    if left_out > 0 {
        notes.push(format!(
            "{left_out} more findings were left out: GitHub code scanning rejects a run of more than {MAX_RESULTS} results (`--format json` gives every one)"
        ));
    }
    if !notes.is_empty() {
        let notes: Vec<Notification> = notes
            .into_iter()
            .map(|text| {
                Notification::builder()
                    .level(serde_json::json!("warning"))
                    .message(Message::builder().text(text).build())
                    .build()
            })
            .collect();
        run.invocations = Some(vec![Invocation::builder()
            .execution_successful(true)
            .tool_execution_notifications(notes)
            .build()]);
    }
    let log = SarifLog::builder()
        .schema(SCHEMA)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    let s = super::pretty(&log, count);
    super::drop_later(log, count);
    s
}

/// `diff --format sarif`: one result per change, at its work-tree side
/// (a removal at the base file's path and line), the base side in
/// `relatedLocations`; the rules are the change kinds (`crate::views::diff::KINDS`)
/// with their `explain` text as help; fingerprints as `check`'s, never on
/// lines ([`super::diff::change_keys`]).
pub fn render_diff(run: &DiffRun) -> String {
    let rules: Vec<ReportingDescriptor> = KINDS
        .iter()
        .map(|k| {
            let full = format!("`wirelint diff --against REF`: {}.", k.summary);
            describe(k.code, k.name, k.summary, full, k.doc(), k.severity)
        })
        .collect();
    let keys = super::diff::change_keys(run);
    let kept = kept(run.changes.iter().map(|c| c.kind().severity));
    // A change with no location (WD001: a file not read) is a warning of
    // the run.
    let notes: Vec<String> = run
        .changes
        .iter()
        .filter(|c| super::diff::primary(run, c).is_none())
        .map(|c| format!("{} {}: {}", c.code, c.kind().name, c.message))
        .collect();
    let results: Vec<SarifResult> = run
        .changes
        .iter()
        .zip(keys)
        .enumerate()
        .filter(|(i, _)| kept.as_ref().is_none_or(|k| k.contains(i)))
        .filter_map(|(_, (c, (k, n)))| diff_result(run, c, fingerprint(&k, n)))
        .collect();
    let left_out = match &kept {
        Some(k) => run.changes.len() - k.len(),
        None => 0,
    };
    let embedded = [run.head, run.base]
        .iter()
        .any(|a| a.contract.as_ref().is_some_and(|c| c.embedded));
    log(rules, results, embedded, left_out, notes)
}

fn diff_result(run: &DiffRun, c: &Change, fp: String) -> Option<SarifResult> {
    let k = c.kind();
    let (a, span) = super::diff::primary(run, c)?;
    let mut text = format!("{} [{}]", c.message, c.speaker);
    if let Some(h) = super::diff::help(c) {
        text.push_str(&format!("\n\nhelp: {h}"));
    }
    let mut related = Vec::new();
    if let (Some(_), Some(b)) = (c.head, c.base) {
        let at = format!(
            "at {} ({})",
            run.against,
            &run.commit[..run.commit.len().min(12)]
        );
        let was = match &c.before {
            Some(w) => format!("{at}: was {w}"),
            None => at,
        };
        text.push_str(&format!(
            "\n\n[{}](1)",
            was.replace('[', "\\[").replace(']', "\\]")
        ));
        related.push(location(run.base, b, Some(&was), Some(1)));
    }
    let mut fps = BTreeMap::new();
    fps.insert("wirelintFact/v1".to_string(), fp);
    let mut r = SarifResult::builder()
        .rule_id(k.code)
        .level(level(k.severity))
        .message(Message::builder().text(text).build())
        .locations(vec![location(a, span, None, None)])
        .partial_fingerprints(fps)
        .related_locations(related)
        .build();
    r.rule_index = KINDS
        .iter()
        .position(|x| x.code == k.code)
        .map(|i| i as i64);
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past 25,000 results (`check`'s findings or `diff`'s changes), the
    /// errors are kept first, then the warnings, in output order.
    #[test]
    fn results_past_the_cap_keep_errors_first() {
        let few = [Severity::Warning; 3];
        assert_eq!(kept(few.into_iter()), None);
        let mut many = vec![Severity::Warning; MAX_RESULTS];
        many.push(Severity::Error);
        many.push(Severity::Error);
        let k = kept(many.into_iter()).unwrap();
        assert_eq!(k.len(), MAX_RESULTS);
        assert!(k.contains(&MAX_RESULTS) && k.contains(&(MAX_RESULTS + 1)));
        assert!(k.contains(&0) && !k.contains(&(MAX_RESULTS - 1)));
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri_path("a b/c%.ex"), "a%20b/c%25.ex");
        assert_eq!(uri_path("lib/é.ex"), "lib/%C3%A9.ex");
    }

    #[test]
    fn what_it_does_is_the_first_section() {
        let doc = "# WL1 x\n\n## What it does\nFlags a\nthing.\n\n## Why\nno\n";
        assert_eq!(what_it_does(doc), "Flags a thing.");
    }
}
