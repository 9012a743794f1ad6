//! Silence means checked: the summary line says how many script calls are
//! not linked and how many scripts no call runs, and a run that left most
//! of its script calls (outside test code) unlinked does not end "clean"
//! but with a warning, its exit code unchanged; when nothing marks the
//! run's root as a project's (no `.git`, no `wirelint.toml`), the warning
//! says where to run from, or that the view may be partial.

mod common;

use std::path::Path;
use std::process::Command;

/// Runs `wirelint ARGS` in `cwd` with colour off and no climb past
/// `ceiling` (so that nothing above a temporary directory counts).
fn run_below(args: &[&str], cwd: &Path, ceiling: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("GIT_CEILING_DIRECTORIES", ceiling)
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const MIX: &str = "defmodule Q.MixProject do
  use Mix.Project
  def project, do: [app: :q, version: \"0.1.0\"]
end
";

const BUMP: &str = "-- KEYS[1] 'hits'
return redis.call(\"INCR\", KEYS[1])
";

/// An Elixir project at `dir/at` whose `lib/q.ex` runs `priv/bump.lua`
/// with `bump_keys` keys (linked and checked) and `unlinked` scripts
/// through `sha(..)`, which names no script of the tree (not linked).
fn project(dir: &Path, at: &str, bump_keys: usize, unlinked: &[&str]) {
    let at = |rel: &str| format!("{at}{rel}");
    write(dir, &at("mix.exs"), MIX);
    write(dir, &at("priv/bump.lua"), BUMP);
    let keys = vec!["\"q:{#{page}}:hits\""; bump_keys];
    let mut lib = format!(
        "defmodule Q do\n  @bump File.read!(\"priv/bump.lua\")\n\n  \
         def bump(conn, page), do: Redix.command(conn, [\"EVAL\", @bump, {bump_keys}, {}])\n",
        keys.join(", ")
    );
    for name in unlinked {
        lib.push_str(&format!(
            "  def {name}(conn, page), do: Redix.command(conn, [\"EVALSHA\", sha(:{name}), 1, \"q:{{#{{page}}}}:{name}\"])\n"
        ));
    }
    lib.push_str("end\n");
    write(dir, &at("lib/q.ex"), &lib);
}

/// A project root (`wirelint.toml`) with one call checked and `unlinked`
/// not linked.
fn marked(unlinked: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "wirelint.toml", "contract = false\n");
    project(dir.path(), "", 1, unlinked);
    dir
}

/// A test file that runs a script by a SHA1 no script of the tree has.
const TEST_CALL: &str =
    "defmodule QTest do\n  def a(c), do: Redix.command(c, [\"EVALSHA\", sha(:a), 0])\nend\n";

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

#[test]
fn most_calls_not_linked_end_with_a_warning_not_clean() {
    let dir = marked(&["reap", "trim"]);
    let ceiling = dir.path().parent().unwrap();
    let warning = "warning: 2 of 3 script calls outside test code not linked, so not checked";
    let (code, _, stderr) = run_below(&["check"], dir.path(), ceiling);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&stderr),
        [
            "wirelint: 1 of 3 script calls checked; 2 not linked: --coverage lists them"
                .to_string(),
            format!("wirelint: 0 errors, 0 warnings in 3 files; exit 0; {warning}"),
        ]
    );
    // Every format ends so (the machine formats' one line on stderr),
    // and the concise format says the summary too.
    for format in ["json", "sarif", "github"] {
        let (code, _, stderr) = run_below(&["check", "--format", format], dir.path(), ceiling);
        assert_eq!(code, 0, "{format}");
        assert_eq!(
            stderr,
            format!("wirelint: 0 errors, 0 warnings in 3 files; exit 0; {warning}\n"),
            "{format}"
        );
    }
    let (_, _, stderr) = run_below(&["check", "--format", "concise"], dir.path(), ceiling);
    assert_eq!(
        lines(&stderr),
        [
            "wirelint: 1 of 3 script calls checked; 2 not linked: --coverage lists them"
                .to_string(),
            format!("wirelint: 0 errors, 0 warnings in 3 files; exit 0; {warning}"),
        ]
    );
    // `--quiet`: the findings alone, as before.
    let (code, _, stderr) = run_below(&["check", "-q"], dir.path(), ceiling);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn the_warning_leaves_the_exit_code_as_the_findings_make_it() {
    // The checked call passes 2 keys to a 1-key script: WL303, an error.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "wirelint.toml", "contract = false\n");
    project(dir.path(), "", 2, &["reap", "trim"]);
    let ceiling = dir.path().parent().unwrap();
    let warning = "warning: 2 of 3 script calls outside test code not linked, so not checked";
    let (code, stdout, stderr) = run_below(&["check", "--format", "concise"], dir.path(), ceiling);
    assert_eq!(code, 1);
    assert!(stdout.contains("error[WL303]"), "{stdout}");
    assert_eq!(
        stderr.lines().last(),
        Some(format!("wirelint: 1 error, 0 warnings in 3 files; exit 1: findings at or above error; {warning}").as_str())
    );
    let (code, _, stderr) = run_below(
        &["check", "--format", "concise", "--exit-zero"],
        dir.path(),
        ceiling,
    );
    assert_eq!(code, 0);
    assert_eq!(
        stderr.lines().last(),
        Some(format!("wirelint: 1 error, 0 warnings in 3 files; exit 0: nothing at or above error; {warning}").as_str())
    );
}

#[test]
fn half_not_linked_is_no_warning_and_test_code_does_not_count() {
    let dir = marked(&["reap"]);
    // Test code that runs scripts of its own, none linked.
    write(
        dir.path(),
        "test/q_test.exs",
        "defmodule QTest do\n  def a(c), do: Redix.command(c, [\"EVALSHA\", sha(:a), 0])\n  \
         def b(c), do: Redix.command(c, [\"EVALSHA\", sha(:b), 0])\nend\n",
    );
    let ceiling = dir.path().parent().unwrap();
    let (code, _, stderr) = run_below(&["check"], dir.path(), ceiling);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&stderr),
        [
            "wirelint: 1 of 4 script calls checked; 3 not linked: --coverage lists them",
            "wirelint: 0 errors, 0 warnings in 4 files; exit 0: clean",
        ]
    );
    // Not linked in test code alone: the terse format says nothing.
    let dir = marked(&[]);
    write(dir.path(), "test/q_test.exs", TEST_CALL);
    let (_, _, stderr) = run_below(&["check", "--format", "concise"], dir.path(), ceiling);
    assert_eq!(
        stderr,
        "wirelint: 0 errors, 0 warnings in 4 files; exit 0: clean\n"
    );
}

/// Scripts outside test code and no call outside it: how the code runs
/// them was not seen, so the run is not called clean either.
#[test]
fn a_script_no_call_runs_is_said_on_the_summary_line() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "wirelint.toml", "contract = false\n");
    write(dir.path(), "mix.exs", MIX);
    write(dir.path(), "priv/bump.lua", BUMP);
    write(
        dir.path(),
        "priv/sweep.lua",
        "-- KEYS[1] 'stale'\nreturn redis.call(\"DEL\", KEYS[1])\n",
    );
    let ceiling = dir.path().parent().unwrap();
    for format in ["full", "concise"] {
        let (code, _, stderr) = run_below(&["check", "--format", format], dir.path(), ceiling);
        assert_eq!(code, 0);
        assert_eq!(
            lines(&stderr),
            [
                "wirelint: no script call seen; 2 scripts run by no call: --coverage lists them",
                "wirelint: 0 errors, 0 warnings in 3 files; exit 0; warning: no call seen to run \
                 the 2 scripts outside test code, so their keys and arguments are not checked",
            ],
            "{format}"
        );
    }
    // A call in test code alone runs none of them either.
    write(dir.path(), "test/q_test.exs", TEST_CALL);
    let (_, _, stderr) = run_below(&["check", "--format", "concise"], dir.path(), ceiling);
    assert_eq!(
        lines(&stderr),
        [
            "wirelint: 0 of 1 script call checked; 1 not linked; 2 scripts run by no call: \
             --coverage lists them",
            "wirelint: 0 errors, 0 warnings in 4 files; exit 0; warning: no call seen to run the \
             2 scripts outside test code, so their keys and arguments are not checked",
        ]
    );
    std::fs::remove_file(dir.path().join("test/q_test.exs")).unwrap();
    // With a call of one, the other is still said.
    project(dir.path(), "", 1, &[]);
    let (_, _, stderr) = run_below(&["check", "--coverage"], dir.path(), ceiling);
    assert_eq!(
        lines(&stderr),
        [
            "coverage: (root): 1 of 1 script calls checked",
            "coverage: script `sweep` (priv/sweep.lua:1:1) is run by no speaker",
            "wirelint: 1 of 1 script call checked; 1 script run by no call",
            "wirelint: 0 errors, 0 warnings in 4 files; exit 0: clean",
        ]
    );
}

/// The shape of a monorepo copied without `.git`: a TypeScript package at
/// the top holds the scripts (`src/commands/reap-1.lua`), and the Elixir
/// port in `elixir/` runs them by name.
fn monorepo_without_git() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{\"name\": \"q\"}\n");
    write(
        dir.path(),
        "src/commands/reap-1.lua",
        "return redis.call(\"INCR\", KEYS[1])\n",
    );
    write(
        dir.path(),
        "src/commands/trim-1.lua",
        "return redis.call(\"INCRBY\", KEYS[1], 2)\n",
    );
    project(dir.path(), "elixir/", 1, &["reap", "trim"]);
    dir
}

#[test]
fn a_folder_nothing_marks_names_the_folder_to_run_from() {
    let dir = monorepo_without_git();
    let top = dir.path();
    let ceiling = top.parent().unwrap();
    let warning = "warning: 2 of 3 script calls outside test code not linked, so not checked";
    // From the top, the Elixir port's calls are linked to the scripts.
    let (code, _, stderr) = run_below(&["check", "--no-contract"], top, ceiling);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&stderr),
        [
            "wirelint: 3 of 3 script calls checked",
            "wirelint: 0 errors, 0 warnings in 5 files; exit 0: clean",
        ]
    );
    // From `elixir/` (the port's own project), or below it, or naming it
    // from the top: the scripts are out of reach, and the closing line
    // names the folder of the other speaker's `package.json`.
    for (cwd, args, files, dir_shown) in [
        ("elixir", vec!["check", "--no-contract"], "3 files", ".."),
        (
            "elixir/lib",
            vec!["check", "--no-contract"],
            "1 file",
            "../..",
        ),
        ("", vec!["check", "--no-contract", "elixir"], "3 files", "."),
    ] {
        let (code, _, stderr) = run_below(&args, &top.join(cwd), ceiling);
        assert_eq!(code, 0, "{cwd}");
        assert_eq!(
            stderr.lines().last().unwrap(),
            format!(
                "wirelint: 0 errors, 0 warnings in {files}; exit 0; {warning}; no .git or \
                 wirelint.toml marks the project root: `wirelint check {dir_shown}` reads the \
                 whole project ({dir_shown} holds package.json)"
            ),
            "{cwd}"
        );
    }
}

#[test]
fn a_folder_nothing_marks_and_no_speaker_above_may_be_a_partial_view() {
    let dir = monorepo_without_git();
    std::fs::remove_file(dir.path().join("package.json")).unwrap();
    let elixir = dir.path().join("elixir");
    let (code, _, stderr) = run_below(
        &["check", "--no-contract"],
        &elixir,
        dir.path().parent().unwrap(),
    );
    assert_eq!(code, 0);
    assert_eq!(
        lines(&stderr),
        [
            "wirelint: 1 of 3 script calls checked; 2 not linked: --coverage lists them",
            "wirelint: 0 errors, 0 warnings in 3 files; exit 0; warning: 2 of 3 script calls \
             outside test code not linked, so not checked; no .git or wirelint.toml marks the \
             project root, so this view may be partial",
        ]
    );
    // A `.git` above marks the root: the run reads the whole tree (the
    // five files), and links.
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let (_, _, stderr) = run_below(
        &["check", "--no-contract"],
        &elixir,
        dir.path().parent().unwrap(),
    );
    assert_eq!(
        stderr.lines().last(),
        Some("wirelint: 0 errors, 0 warnings in 5 files; exit 0: clean"),
        "{stderr}"
    );
}
