//! Where a run starts: the analysis root is the project above the paths
//! given (the nearest `wirelint.toml` or `.git`), and the paths only choose
//! what is reported; reported paths open from where the command ran
//! (`scope::root`, docs/ci.md *Paths*).

mod common;

use std::path::Path;

use common::{git, run, sarif_first_location};

const ADD_JOB: &str = "-- KEYS[1] job row
-- KEYS[2] pending set
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
";

/// A project of one speaker under `dir` (`elixir`, `other`) that runs the
/// shared `src/commands/addJob-2.lua` with `numkeys` keys.
fn speaker(repo: &Path, dir: &str, numkeys: usize) {
    let lib = repo.join(dir).join("lib/q");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        repo.join(dir).join("mix.exs"),
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    )
    .unwrap();
    let keys = ["job", "pending", "pending"][..numkeys].join(", ");
    std::fs::write(
        lib.join("scripts.ex"),
        format!(
            "defmodule Q.Scripts do
  @add_job File.read!(Path.join(__DIR__, \"../../../src/commands/addJob-2.lua\"))

  def add_job(conn, queue, id, payload) do
    job = \"emq:{{#{{queue}}}}:job:#{{id}}\"
    pending = \"emq:{{#{{queue}}}}:pending\"
    Redix.command(conn, [\"EVAL\", @add_job, {numkeys}, {keys}, id, payload])
  end
end
"
        ),
    )
    .unwrap();
}

/// The shape of a monorepo whose Elixir port runs the scripts of the
/// repository's `src/commands/`: `elixir/` passes 3 keys to a 2-key
/// script (WL303 at `elixir/lib/q/scripts.ex:7`), `other/` passes 1
/// (WL303 at `other/lib/q/scripts.ex:7`), `rust/` holds no speaker.
fn monorepo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    std::fs::create_dir_all(repo.join("src/commands")).unwrap();
    std::fs::create_dir_all(repo.join("rust")).unwrap();
    std::fs::write(repo.join("src/commands/addJob-2.lua"), ADD_JOB).unwrap();
    std::fs::write(repo.join("rust/README"), "no code yet\n").unwrap();
    speaker(repo, "elixir", 3);
    speaker(repo, "other", 1);
    git(repo, &["init", "-q", "-b", "main"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "base"]);
    dir
}

/// `path:line: CODE` of each concise line.
fn concise(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| {
            let (at, rest) = l.split_once(": ").unwrap();
            let at = at.rsplit_once(':').unwrap().0;
            let code = rest.split('[').nth(1).unwrap().split(']').next().unwrap();
            format!("{at}: {code}")
        })
        .collect()
}

#[test]
fn a_subfolder_is_checked_against_the_whole_repository() {
    let dir = monorepo();
    let elixir = dir.path().join("elixir");
    // The script lives in ../src/commands: linked, so the call is checked.
    let (code, stdout, stderr) = run(&["check", "--format", "concise"], &elixir);
    assert_eq!(
        (code, concise(&stdout)),
        (1, vec!["lib/q/scripts.ex:7: WL303".to_string()]),
        "{stderr}"
    );
    // Coverage counts the speakers of the paths given: not `other/`'s
    // call, which the run checks too.
    let (_, _, stderr) = run(&["check", "--coverage"], &elixir);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("coverage") || l.contains("script calls"))
        .collect();
    assert_eq!(
        said,
        ["coverage: elixir: 1 of 1 script calls checked"],
        "{stderr}"
    );
    // From the top, the paths choose what is reported.
    for (path, want) in [
        ("elixir", vec!["elixir/lib/q/scripts.ex:7: WL303"]),
        ("other", vec!["other/lib/q/scripts.ex:7: WL303"]),
        ("rust", vec![]),
        (
            ".",
            vec![
                "elixir/lib/q/scripts.ex:7: WL303",
                "other/lib/q/scripts.ex:7: WL303",
            ],
        ),
    ] {
        let (code, stdout, _) = run(&["check", path, "--format", "concise"], dir.path());
        let want: Vec<String> = want.into_iter().map(String::from).collect();
        let fails = i32::from(!want.is_empty());
        assert_eq!((code, concise(&stdout)), (fails, want), "{path}");
    }
}

#[test]
fn a_nearer_wirelint_toml_is_the_root() {
    let dir = monorepo();
    // `elixir/` as a project of its own: the run reads it alone (its
    // script file and `other/` are out of reach).
    std::fs::write(dir.path().join("elixir/wirelint.toml"), "").unwrap();
    let (code, stdout, stderr) = run(
        &["check", "--format", "concise"],
        &dir.path().join("elixir/lib"),
    );
    assert_eq!(
        (code, concise(&stdout)),
        (1, vec!["q/scripts.ex:7: WL303".to_string()]),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(" in 2 files; exit 1: findings at or above error\n"),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["check"], &dir.path().join("elixir/lib"));
    assert!(!stderr.contains("addJob-2.lua:1:1]"), "{stderr}");
}

#[test]
fn a_change_to_a_script_a_subfolder_runs_is_reported_there() {
    let dir = monorepo();
    let script = dir.path().join("src/commands/addJob-2.lua");
    std::fs::write(
        &script,
        ADD_JOB
            .replace("pending set\n", "pending set\n-- KEYS[3] paused set\n")
            .replace("'ZADD', KEYS[2]", "'ZADD', KEYS[3]"),
    )
    .unwrap();
    let elixir = dir.path().join("elixir");
    let (code, stdout, stderr) = run(
        &["diff", "--against", "main", "--format", "concise"],
        &elixir,
    );
    assert_eq!(
        (code, concise(&stdout)),
        (
            1,
            vec![
                "../src/commands/addJob-2.lua:1: WD301".to_string(),
                "../src/commands/addJob-2.lua:1: WD302".to_string()
            ]
        ),
        "{stderr}"
    );
    // Its annotations carry the help line, as `check`'s do.
    let (_, stdout, _) = run(
        &["diff", "--against", "main", "--format", "github"],
        &elixir,
    );
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("::error file=src/commands/addJob-2.lua,line=1,")
            && first.contains(" [(shared scripts)]%0Ahelp: every other speaker must change with it, or rows become unfindable, unreadable or never queued%0Aat the base: "),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(
        &["check", "--changed-since", "main", "--format", "concise"],
        &elixir,
    );
    assert_eq!(
        (code, concise(&stdout)),
        (
            1,
            vec![
                "../src/commands/addJob-2.lua:3: WL307".to_string(),
                "../src/commands/addJob-2.lua:5: WL301".to_string()
            ]
        ),
        "{stderr}"
    );
    // `rust/` runs no script: the change is not its to report.
    let (code, stdout, _) = run(
        &["diff", "--against", "main", "--format", "concise"],
        &dir.path().join("rust"),
    );
    assert_eq!((code, stdout.as_str()), (0, ""));
}

/// The finding of `elixir/` as each format prints it, from the top, from
/// `elixir/` and from its sibling `rust/`: paths relative to the working
/// directory for people, to the repository (`%SRCROOT%`) for machines.
#[test]
fn the_same_finding_opens_from_three_working_directories() {
    let dir = monorepo();
    let top = dir.path().to_path_buf();
    for (cwd, path, human) in [
        (top.clone(), "elixir", "elixir/lib/q/scripts.ex"),
        (top.join("elixir"), ".", "lib/q/scripts.ex"),
        (top.join("rust"), "../elixir", "../elixir/lib/q/scripts.ex"),
    ] {
        let (_, stdout, _) = run(&["check", path, "--format", "concise"], &cwd);
        assert_eq!(
            concise(&stdout),
            vec![format!("{human}:7: WL303")],
            "{path}"
        );
        let (_, _, stderr) = run(&["check", path], &cwd);
        assert!(stderr.contains(&format!("╭─[{human}:7:44]")), "{stderr}");
        let related = human.replace("elixir/lib/q/scripts.ex", "src/commands/addJob-2.lua");
        let related = related.replace("lib/q/scripts.ex", "../src/commands/addJob-2.lua");
        assert!(stderr.contains(&format!("╭─[{related}:1:1]")), "{stderr}");
        // JSON and JSON lines, read by tools run where the command ran,
        // as the human formats.
        let (_, stdout, _) = run(&["check", path, "--format", "json"], &cwd);
        assert_eq!(common::json_findings(&stdout), [format!("WL303 {human}:7")]);
        let (_, stdout, _) = run(&["check", path, "--format", "json-lines"], &cwd);
        let line: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
        assert_eq!(line["path"], human, "{stdout}");
        let (_, stdout, _) = run(&["check", path, "--format", "github"], &cwd);
        assert!(
            stdout.starts_with("::error file=elixir/lib/q/scripts.ex,line=7,"),
            "{stdout}"
        );
        assert!(
            stdout.contains("%0Asrc/commands/addJob-2.lua:1: "),
            "{stdout}"
        );
        let (_, stdout, _) = run(&["check", path, "--format", "sarif"], &cwd);
        assert_eq!(
            sarif_first_location(&stdout),
            (
                Some("elixir/lib/q/scripts.ex".into()),
                Some("%SRCROOT%".into()),
                Some(7)
            ),
            "{path}"
        );
        let (_, stdout, _) = run(&["check", path, "--format", "gitlab"], &cwd);
        let gitlab: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            (
                gitlab[0]["location"]["path"].as_str(),
                gitlab.as_array().map(Vec::len)
            ),
            (Some("elixir/lib/q/scripts.ex"), Some(1)),
            "{path}"
        );
    }
}
