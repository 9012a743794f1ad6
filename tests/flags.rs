//! The flags ruff and clippy users reach for, on `payload-renamed` (WL305
//! and WL201, both at `echo_mq/lib/echo_mq/jobs.ex:10`): `--select`,
//! `--ignore`, `--statistics`, `--quiet`, `--color`, `--no-show-source`;
//! and `check --help` describing them and the concise format as printed.

mod common;

use common::{run, variant};

const JOBS: &str = "echo_mq/lib/echo_mq/jobs.ex";

/// `CODE path:line` of each concise line.
fn codes(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| {
            let mut it = l.splitn(4, ':');
            let (path, line) = (it.next().unwrap(), it.next().unwrap());
            let code = l.split('[').nth(1).unwrap().split(']').next().unwrap();
            format!("{code} {path}:{line}")
        })
        .collect()
}

#[test]
fn select_and_ignore_read_codes_and_prefixes_as_wirelint_toml_does() {
    let dir = variant("payload-renamed");
    let d = dir.path();
    let both = vec![format!("WL305 {JOBS}:10"), format!("WL201 {JOBS}:10")];
    let wl201 = vec![format!("WL201 {JOBS}:10")];
    for (args, want) in [
        (vec![], both.clone()),
        (vec!["--select", "WL2"], wl201.clone()),
        (vec!["--select", "wl201,WL3"], both.clone()),
        (vec!["--ignore", "WL305"], wl201.clone()),
        (vec!["--select", "WL3", "--ignore", "WL305"], vec![]),
        // The most specific entry decides.
        (
            vec!["--ignore", "WL3", "--select", "WL305"],
            vec![format!("WL305 {JOBS}:10")],
        ),
    ] {
        let mut all = vec!["check", ".", "--format", "concise"];
        all.extend(&args);
        let (code, stdout, stderr) = run(&all, d);
        let fails = i32::from(!want.is_empty());
        assert_eq!((code, codes(&stdout)), (fails, want), "{args:?}\n{stderr}");
    }
    // `--ignore` adds to wirelint.toml's list.
    std::fs::write(d.join("wirelint.toml"), "ignore = [\"WL201\"]\n").unwrap();
    let (code, stdout, _) = run(
        &["check", ".", "--format", "concise", "--ignore", "WL305"],
        d,
    );
    assert_eq!((code, stdout.as_str()), (0, ""));
    let (code, _, stderr) = run(&["check", ".", "--select", "WL9"], d);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: `WL9` in `--select` is no rule code or code prefix"),
        "{stderr}"
    );
}

#[test]
fn statistics_count_findings_per_rule() {
    let dir = variant("payload-renamed");
    let (code, stdout, stderr) = run(&["check", ".", "--statistics"], dir.path());
    assert_eq!(
        (code, stdout.as_str()),
        (1, "1\tWL201\tunknown-field\n1\tWL305\tscript-drift\n")
    );
    assert_eq!(
        stderr,
        "wirelint: 2 errors, 0 warnings in 8 files; exit 1: findings at or above error\n"
    );
    // The hidden `--read-stats` (what a run read) is another flag, and
    // what clap suggests for a near miss is `--statistics`.
    let (_, _, stderr) = run(&["check", ".", "--read-stats"], dir.path());
    assert!(stderr.contains("\nwirelint stats: "), "{stderr}");
    for typo in ["--stats", "--stat"] {
        let (code, _, stderr) = run(&["check", ".", typo], dir.path());
        assert_eq!(code, 2);
        assert!(
            stderr.contains("tip: a similar argument exists: '--statistics'"),
            "{stderr}"
        );
    }
}

#[test]
fn quiet_prints_the_findings_alone() {
    let dir = variant("payload-renamed");
    let d = dir.path();
    let (code, stdout, stderr) = run(&["check", ".", "--format", "concise", "-q"], d);
    assert_eq!((code, codes(&stdout).len(), stderr.as_str()), (1, 2, ""));
    let (code, stdout, stderr) = run(&["check", ".", "--quiet"], d);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.starts_with("WL305 script-drift\n"), "{stderr}");
    assert!(!stderr.contains("wirelint:"), "{stderr}");
    assert!(!stderr.contains("note:"), "{stderr}");
    // A clean run says nothing at all.
    let clean = variant("");
    let (code, stdout, stderr) = run(&["check", ".", "--quiet"], clean.path());
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
}

#[test]
fn color_and_source_lines_are_chosen_on_the_command_line() {
    let dir = variant("payload-renamed");
    let d = dir.path();
    // `run` sets NO_COLOR; `--color always` wins over it, as over a pipe.
    let (_, _, stderr) = run(&["check", ".", "--color", "always"], d);
    assert!(stderr.contains("\u{1b}["), "{stderr}");
    let (_, _, stderr) = run(&["check", ".", "--color", "never"], d);
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    let (code, _, stderr) = run(&["check", ".", "--no-show-source"], d);
    assert_eq!(code, 1);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines[0], format!("{JOBS}:10:3: error[WL305]: this copy of `enqueue` differs from the one in `peers/worker`: sha1 a4eb5d308064 vs 1abdf3e91b75, first at line 4"));
    assert!(
        lines[1].starts_with("  help: send the same bytes"),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with(&format!("{JOBS}:10:69: error[WL201]: ")),
        "{stderr}"
    );
    assert!(!stderr.contains("╭─["), "{stderr}");
    let (_, _, stderr) = run(&["check", ".", "--no-show-source", "--show-source"], d);
    assert!(stderr.contains(&format!("╭─[{JOBS}:10:3]")), "{stderr}");
}

/// `check --help` says what the concise format prints, and names the new
/// flags; the README's line for the concise format is the binary's.
#[test]
fn help_describes_the_output_as_printed() {
    let (code, help, _) = run(&["check", "--help"], &common::repo());
    assert_eq!(code, 0);
    assert!(
        help.contains(
            "concise:    One line per finding on stdout: `path:line:col: severity[CODE]: message`"
        ),
        "{help}"
    );
    assert!(help.contains("the whole project above them"), "{help}");
    for flag in [
        "--select <CODES>",
        "--ignore <CODES>",
        "--statistics",
        "-q, --quiet",
        "--color <WHEN>",
        "--no-show-source",
        "--show-source",
        "--watch",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    let dir = variant("payload-renamed");
    let (_, stdout, _) = run(&["check", ".", "--format", "concise"], dir.path());
    let first = stdout.lines().next().unwrap();
    assert!(first.contains(": error[WL305]: "), "{first}");
    let readme = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    assert!(readme.contains("# path:line:col: error[CODE]: message, one per line"));
    for flag in [
        "--select",
        "--ignore",
        "--statistics",
        "--quiet",
        "--color",
        "--no-show-source",
        "--watch",
    ] {
        assert!(
            readme.contains(&format!("wirelint check {flag}")),
            "README: {flag}"
        );
    }
}

/// Notes on test code (BullMQ's own script fixtures with includes that do
/// not resolve) come as one line in the human formats; `--coverage` and the
/// JSON keep each.
#[test]
fn notes_on_test_code_are_one_line() {
    let dir = variant("");
    let d = dir.path();
    let fixtures = d.join("tests/fixtures/scripts");
    std::fs::create_dir_all(&fixtures).unwrap();
    for name in ["a", "b"] {
        std::fs::write(
            fixtures.join(format!("{name}.lua")),
            "--- @include \"includes/missing\"\nreturn redis.call('GET', KEYS[1])\n",
        )
        .unwrap();
    }
    let (_, _, stderr) = run(&["check", "."], d);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(
        notes,
        ["note: .: 2 notes on test code (the first on tests/fixtures/scripts/a.lua) not shown: --coverage shows them"],
        "{stderr}"
    );
    let (_, _, stderr) = run(&["check", ".", "--coverage"], d);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(notes.len(), 2, "{stderr}");
    assert!(
        notes[0].starts_with("note: tests/fixtures/scripts/a.lua: cannot resolve"),
        "{stderr}"
    );
    let (_, json, _) = run(&["check", ".", "--format", "json"], d);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["notes"].as_array().map(Vec::len), Some(2));
}
