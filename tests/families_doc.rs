//! `docs/families.md` lists, per run of a family contract on the real
//! corpus, every finding recorded in `tests/realcode/families/` with its
//! reason: the page is those files, so it cannot drift from what the
//! corpus test holds (that test needs `WIRELINT_CORPUS`; this one does
//! not).

use std::path::{Path, PathBuf};

const BEGIN: &str = "<!-- families:begin (tests/families_doc.rs writes nothing: it compares) -->";
const END: &str = "<!-- families:end -->";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One file's section: its heading, its opening comment, its findings.
fn section(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a family run file");
    let directive = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
            .map(|v| v.trim().to_string())
    };
    let repo = directive("repo").expect("# repo:").replacen('+', "/", 1);
    let contract = directive("contract").expect("# contract:");
    let at = directive("path").expect("# path:");
    let mut out = format!("### {repo} (`{at}`) against `{contract}`\n\n");
    let about: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with('#') && !l.starts_with("# repo:"))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    if !about.is_empty() {
        out.push_str(&about.join(" "));
        out.push_str("\n\n");
    }
    let rows: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_once("  ").unwrap_or((l, "")))
        .collect();
    if directive("incompatible").is_some() {
        out.push_str(
            "Knowingly incompatible: the run must report findings, not listed one by one.\n",
        );
    } else if rows.is_empty() {
        out.push_str("Silent: no finding.\n");
    } else {
        out.push_str("| code | where | read by hand |\n|---|---|---|\n");
        for (finding, reason) in rows {
            let (code, at) = finding.trim().split_once(' ').unwrap_or((finding, ""));
            let reason = reason.trim().replace('|', "\\|");
            out.push_str(&format!("| {code} | `{at}` | {reason} |\n"));
        }
    }
    out
}

fn generated() -> String {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/realcode/families"))
        .expect("tests/realcode/families")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let sections: Vec<String> = files.iter().map(|f| section(f)).collect();
    sections.join("\n")
}

#[test]
fn the_families_page_lists_every_recorded_finding() {
    let doc = std::fs::read_to_string(root().join("docs/families.md")).expect("docs/families.md");
    let (_, rest) = doc.split_once(BEGIN).expect("the begin marker");
    let (block, _) = rest.split_once(END).expect("the end marker");
    let want = generated();
    assert!(
        block.trim() == want.trim(),
        "docs/families.md is not what tests/realcode/families/ says; between the markers it should read:\n{want}"
    );
}
