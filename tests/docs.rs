//! Docs that list what the code lists, held to the code's registries so
//! that none can go stale: the README's rule table (`checks::RULES`),
//! `docs/json-output.md`'s lists of codes and formats (`RULES`, the audit's
//! rules, `diff::KINDS`, `Format`, `DiffFormat`), the formats `--help`
//! names and the README's `--format` lines, and the shape `--help` gives
//! `--format concise` against what it prints.

mod common;

use clap::ValueEnum;
use common::{repo, run, variant};

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap()
}

fn names<T: ValueEnum>() -> Vec<String> {
    T::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .map(|p| p.get_name().to_string())
        .collect()
}

fn check_codes() -> Vec<String> {
    let codes: Vec<String> = wirelint::checks::RULES
        .iter()
        .map(|r| r.code.to_string())
        .collect();
    assert_eq!(codes, wirelint::diagnostic::RULE_CODES);
    codes
}

/// The README's table under `## Rules` is `wirelint rules`, row for row.
#[test]
fn readme_rule_table_is_the_registry() {
    let readme = read("README.md");
    let section = readme
        .split("\n## Rules\n")
        .nth(1)
        .expect("README has a Rules section");
    let table: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect();
    let mut want = vec![
        "| code | name | layer | severity | what it flags |".to_string(),
        "|---|---|---|---|---|".to_string(),
    ];
    for r in wirelint::checks::RULES {
        want.push(format!(
            "| {} | {} | {} | {} | {} |",
            r.code,
            r.name,
            r.layer.as_str(),
            r.severity.as_str(),
            r.summary
        ));
    }
    assert_eq!(
        table,
        want,
        "README.md's rule table differs from the registry; it should read:\n{}",
        want.join("\n")
    );
}

/// The words after `- LABEL: ` on its line of `docs/json-output.md`.
fn listed(doc: &str, label: &str) -> Vec<String> {
    let head = format!("- {label}: ");
    let line = doc
        .lines()
        .find(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("docs/json-output.md lists no `{head}`"));
    line[head.len()..]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn json_output_lists_every_code_and_format() {
    let doc = read("docs/json-output.md");
    assert_eq!(listed(&doc, "check"), check_codes());
    let audit: Vec<String> = wirelint::audit::rules::RULES
        .iter()
        .map(|r| r.code.to_string())
        .collect();
    assert_eq!(listed(&doc, "audit"), audit);
    let diff: Vec<String> = wirelint::views::diff::KINDS
        .iter()
        .map(|k| k.code.to_string())
        .collect();
    assert_eq!(listed(&doc, "diff"), diff);
    assert_eq!(
        listed(&doc, "check and audit"),
        names::<wirelint::report::Format>()
    );
    assert_eq!(listed(&doc, "diff"), diff, "the codes line comes first");
    let formats = doc
        .lines()
        .filter(|l| l.starts_with("- diff: "))
        .nth(1)
        .expect("a `- diff:` line of formats");
    let formats: Vec<String> = formats["- diff: ".len()..]
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!(formats, names::<wirelint::cli::DiffFormat>());
}

/// The `Possible values` of `--format` in a command's `--help`.
fn help_formats(command: &str) -> Vec<(String, String)> {
    let (code, help, _) = run(&[command, "--help"], &repo());
    assert_eq!(code, 0);
    let block = help
        .split("--format <FORMAT>")
        .nth(1)
        .expect("--help names --format");
    let mut out: Vec<(String, String)> = Vec::new();
    let lines = block
        .lines()
        .skip_while(|l| !l.contains("Possible values:"))
        .skip(1)
        .map(str::trim)
        .take_while(|l| !l.is_empty());
    for l in lines {
        match (l.strip_prefix("- "), out.last_mut()) {
            (Some(v), _) => {
                let (name, what) = v.split_once(':').unwrap();
                out.push((name.trim().to_string(), what.trim().to_string()));
            }
            // A description wrapped onto the next line.
            (None, Some(last)) => {
                last.1.push(' ');
                last.1.push_str(l);
            }
            (None, None) => panic!("`{l}` before any value"),
        }
    }
    out
}

#[test]
fn help_and_readme_name_every_format() {
    let check: Vec<String> = help_formats("check").into_iter().map(|f| f.0).collect();
    assert_eq!(check, names::<wirelint::report::Format>());
    let diff: Vec<String> = help_formats("diff").into_iter().map(|f| f.0).collect();
    assert_eq!(diff, names::<wirelint::cli::DiffFormat>());
    // The README shows one `wirelint check --format X` line per format
    // besides the default.
    let readme = read("README.md");
    let mut shown: Vec<String> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("wirelint check --format "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    shown.insert(0, "full".into());
    shown.sort();
    let mut all = names::<wirelint::report::Format>();
    all.sort();
    assert_eq!(shown, all);
}

/// `--help` says what a concise line looks like; a concise run prints it.
#[test]
fn concise_help_is_what_it_prints() {
    let help = help_formats("check");
    let concise = &help.iter().find(|f| f.0 == "concise").unwrap().1;
    assert_eq!(
        concise,
        "One line per finding on stdout: `path:line:col: severity[CODE]: message`"
    );
    let dir = variant("prefix-changed");
    let (_, stdout, _) = run(&["check", ".", "--format", "concise"], dir.path());
    assert_eq!(
        stdout,
        "peers/rust/src/keys.rs:3:27: error[WL101]: key prefix `emk:` differs from the contract's `emq:`\n"
    );
}

/// The README names the languages wirelint reads as the hosts' one list
/// does (`wirelint::extract::lang::language_names`).
#[test]
fn readme_names_every_language() {
    let readme = read("README.md").replace('\n', " ");
    let list = wirelint::extract::lang::language_list("and");
    assert!(
        readme.contains(&format!("wirelint parses {list} with tree-sitter")),
        "README.md should say: wirelint parses {list} with tree-sitter"
    );
}

/// The pre-commit hook and the editors' snippets name the file types and
/// language ids of every language wirelint reads, as the hosts' one list
/// gives them (`wirelint::extract::lang::tool_names`), and the watcher
/// glob of docs/editors.md is every extension the hosts claim.
#[test]
fn hook_and_editors_name_every_language() {
    use wirelint::extract::lang::{tool_names, HOSTS};
    let types = tool_names(|t| t.precommit).join(", ");
    let line = format!("types_or: [{types}, toml]");
    for f in [".pre-commit-hooks.yaml", "README.md"] {
        assert!(read(f).contains(&line), "{f} should say `{line}`");
    }
    let ids = tool_names(|t| t.editor);
    let quoted: Vec<String> = ids.iter().map(|i| format!("\"{i}\"")).collect();
    let editors = read("docs/editors.md");
    for form in [
        format!("documentSelector: [{}]", quoted.join(", ")),
        format!("pattern = {{ {} }}", quoted.join(", ")),
        format!("ipairs({{ {} }})", quoted.join(", ")),
    ] {
        assert!(
            editors.contains(&form),
            "docs/editors.md should hold `{form}`"
        );
    }
    let exts: Vec<&str> = HOSTS.iter().flat_map(|h| h.extensions()).copied().collect();
    let glob = format!("**/*.{{{}}}", exts.join(","));
    assert!(
        editors.contains(&glob),
        "docs/editors.md should name `{glob}`"
    );
}
