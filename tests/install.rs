//! Installing and running wirelint as a user meets it: the README's install
//! steps, its pre-commit snippets (validated, and the local one run, by the
//! real `pre-commit` framework where it is installed), the composite
//! action (`action.yml`) and the CI set-ups of `docs/ci.md`. What the docs
//! show is read from the docs, so that they cannot drift.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_tree, git, repo};

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap()
}

/// The fenced blocks of `lang` in `text`, each without its fences.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match &mut cur {
            None if line == format!("```{lang}") => cur = Some(String::new()),
            Some(b) if line == "```" => {
                out.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

/// The text of the README's section `## title`, up to the next `## `.
fn readme_section(title: &str) -> String {
    let text = read("README.md");
    let start = text
        .find(&format!("\n## {title}\n"))
        .unwrap_or_else(|| panic!("README has no `## {title}`"));
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 4);
    rest[..end].to_string()
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The README opens with its two commands, as they were, and the install
/// steps come right after them: from a clone, how a release tarball is
/// made, and from the tarball, named for this version.
#[test]
fn the_readme_says_how_to_install_right_after_the_first_commands() {
    let text = read("README.md");
    let opening = "# wirelint\n\n```sh\n\
        cargo run --release -- check fixtures/echomq   # wirelint on the shipped fixture, embedded EchoMQ contract\n\
        cargo test                                     # the whole test suite\n\
        ```\n\n## Install\n\n";
    assert!(text.starts_with(opening), "{}", &text[..400]);
    let v = env!("CARGO_PKG_VERSION");
    assert_eq!(
        blocks(&readme_section("Install"), "sh"),
        [
            "cargo install --locked --path .\n".to_string(),
            format!(
                "git archive --format=tar.gz --prefix=wirelint-{v}/ -o wirelint-{v}.tar.gz v{v}\n"
            ),
            format!("tar -xzf wirelint-{v}.tar.gz\ncargo install --locked --path wirelint-{v}\n"),
        ]
    );
}

/// One line of a README block, run by `sh` in `dir`; `cargo install`
/// offline, into `root`, building in a target directory of its own that
/// later runs reuse.
fn sh(dir: &Path, line: &str, root: &Path) {
    let out = Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env("CARGO_INSTALL_ROOT", root)
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TARGET_DIR", repo().join("target/install-test"))
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "`{line}` in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The README's install commands, as written: in a clone of this
/// repository tagged for this version, the tarball is made and unpacked
/// and holds every tracked file; with `WIRELINT_INSTALL_TEST=1` (a
/// release build: minutes) both `cargo install` lines build a binary that
/// checks the shipped fixture clean.
#[test]
fn the_readme_install_commands_run_as_written() {
    let blocks = blocks(&readme_section("Install"), "sh");
    let [from_clone, make, from_tarball] = blocks.as_slice() else {
        panic!("three install blocks: {blocks:?}");
    };
    let v = env!("CARGO_PKG_VERSION");
    let tmp = tempfile::tempdir().unwrap();
    let clone = tmp.path().join("clone");
    git(
        tmp.path(),
        &["clone", "-q", repo().to_str().unwrap(), "clone"],
    );
    git(&clone, &["tag", &format!("v{v}")]);
    let root = tmp.path().join("root");
    for line in make.lines() {
        sh(&clone, line, &root);
    }
    let unpack = tmp.path().join("unpack");
    std::fs::create_dir(&unpack).unwrap();
    std::fs::rename(
        clone.join(format!("wirelint-{v}.tar.gz")),
        unpack.join(format!("wirelint-{v}.tar.gz")),
    )
    .unwrap();
    let mut tarball = from_tarball.lines();
    sh(&unpack, tarball.next().unwrap(), &root);
    let tree = unpack.join(format!("wirelint-{v}"));
    let tracked = git(&clone, &["ls-files"]);
    let tracked: Vec<&str> = tracked.lines().collect();
    assert!(tracked.contains(&"Cargo.lock") && tracked.contains(&"src/main.rs"));
    for f in &tracked {
        assert!(
            tree.join(f).exists() || tree.join(f).is_symlink(),
            "{f} not in the tarball"
        );
    }
    if std::env::var_os("WIRELINT_INSTALL_TEST").is_none() {
        eprintln!("the cargo install lines need WIRELINT_INSTALL_TEST=1 (a release build)");
        return;
    }
    for (dir, line) in [
        (&clone, from_clone.trim()),
        (&unpack, tarball.next().unwrap()),
    ] {
        let _ = std::fs::remove_dir_all(&root);
        sh(dir, line, &root);
        let out = Command::new(root.join("bin/wirelint"))
            .args(["check", "fixtures/echomq", "--no-cache"])
            .current_dir(repo())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{line}");
    }
}

/// `docs/ci.md` installs wirelint from its own repository, never with
/// `--path .` (in a user's workflow, that is the user's repository), and
/// uploads SARIF to code scanning.
#[test]
fn ci_docs_install_wirelint_not_the_users_repository() {
    let text = read("docs/ci.md");
    let yaml = blocks(&text, "yaml");
    assert_eq!(yaml.len(), 3, "the action's use, the workflow, GitLab CI");
    let installs: Vec<&str> = yaml
        .iter()
        .flat_map(|b| b.lines())
        .filter(|l| l.contains("cargo install"))
        .collect();
    assert_eq!(installs.len(), 2, "{installs:?}");
    for l in &installs {
        assert!(
            l.contains("cargo install --locked --git \"$WIRELINT_REPO\" --rev \"$WIRELINT_REV\""),
            "{l}"
        );
        assert!(!l.contains("--path"), "{l}");
    }
    let workflow = yaml
        .iter()
        .find(|b| b.contains("name: wirelint\non:"))
        .unwrap();
    for line in [
        "      - uses: github/codeql-action/upload-sarif@v3",
        "          sarif_file: wirelint.sarif",
        "        uses: actions/cache@v4",
        "          key: wirelint-${{ runner.os }}-${{ env.WIRELINT_REV }}",
        "        if: steps.cache-wirelint.outputs.cache-hit != 'true'",
    ] {
        assert!(workflow.lines().any(|l| l == line), "missing `{line}`");
    }
    let gitlab = yaml.iter().find(|b| b.contains(".gitlab-ci.yml")).unwrap();
    assert!(gitlab.contains("      codequality:\n        - gl-code-quality-report.json\n"));
}

/// The composite action: its inputs, each used; every `run` step names its
/// shell (a composite action requires it); it builds its own directory,
/// cached, and uploads SARIF with `upload-sarif`.
#[test]
fn the_action_has_its_inputs_and_steps() {
    let text = read("action.yml");
    assert!(text.contains("\nruns:\n  using: composite\n  steps:\n"));
    let inputs: Vec<&str> = text
        .split("\ninputs:\n")
        .nth(1)
        .unwrap()
        .split("\nruns:\n")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(':'))
        .filter(|k| !k.starts_with(' '))
        .collect();
    assert_eq!(
        inputs,
        [
            "args",
            "upload-sarif",
            "sarif-category",
            "working-directory"
        ]
    );
    let steps = text.split("\n  steps:\n").nth(1).unwrap();
    for input in &inputs {
        assert!(
            steps.contains(&format!("inputs.{input}")),
            "input `{input}` is never used"
        );
    }
    // Before the first step: a comment.
    let step_texts: Vec<&str> = steps.split("\n    - ").skip(1).collect();
    assert_eq!(step_texts.len(), 7);
    for step in &step_texts {
        if step.contains("\n      run: ") {
            assert!(step.contains("\n      shell: bash\n"), "{step}");
        }
    }
    for needle in [
        "uses: actions/cache@v4",
        "run: cargo install --locked --path \"$GITHUB_ACTION_PATH\" --root \"$WIRELINT_ROOT\"",
        "if: steps.cache.outputs.cache-hit != 'true'",
        "uses: github/codeql-action/upload-sarif@v3",
        "run: wirelint check --format sarif --exit-zero > \"$RUNNER_TEMP/wirelint.sarif\"",
        "sarif_file: ${{ runner.temp }}/wirelint.sarif",
    ] {
        assert!(steps.contains(needle), "missing `{needle}`");
    }
    // The action builds what the cache key hashes.
    let key_line = steps
        .lines()
        .find(|l| l.contains("sha256sum"))
        .expect("the cache key");
    for path in ["Cargo.toml", "Cargo.lock", "build.rs", "src", "rules"] {
        assert!(repo().join(path).exists(), "{path}");
        assert!(key_line.contains(&format!(" {path}")), "{path}");
    }
}

/// Where python3 has PyYAML, the action and every YAML block of the docs
/// parse as YAML, and the action's keys are what GitHub reads.
#[test]
fn the_yaml_parses_where_pyyaml_is_installed() {
    let has_yaml = Command::new("python3")
        .args(["-c", "import yaml"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_yaml {
        eprintln!("skipped: python3 with PyYAML is not installed");
        return;
    }
    let mut docs = vec![read("action.yml"), read(".pre-commit-hooks.yaml")];
    docs.extend(blocks(&read("docs/ci.md"), "yaml"));
    docs.extend(blocks(&read("README.md"), "yaml"));
    let script = "import sys, yaml, json\nprint(json.dumps(yaml.safe_load(sys.stdin.read())))";
    let mut parsed = Vec::new();
    for doc in &docs {
        let mut child = Command::new("python3")
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(doc.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{doc}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        parsed.push(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap());
    }
    let action = &parsed[0];
    assert_eq!(action["runs"]["using"], "composite");
    assert_eq!(action["inputs"]["args"]["default"], "check --format github");
    assert_eq!(action["inputs"]["upload-sarif"]["default"], "true");
    let steps = action["runs"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 7);
    for s in steps {
        assert!(s["run"].is_null() || s["shell"] == "bash", "{s}");
        assert!(s["run"].is_null() != s["uses"].is_null(), "{s}");
    }
    assert_eq!(parsed[1][0]["id"], "wirelint");
}

/// Every `wirelint check` and `wirelint diff` line of the README,
/// `docs/ci.md` and `action.yml` uses flags (and `--format` values) the
/// binary has.
#[test]
fn the_documented_commands_use_flags_that_exist() {
    let help = |sub: &str| {
        let (code, out, _) = common::run(&[sub, "--help"], &repo());
        assert_eq!(code, 0);
        out
    };
    let helps = [("check", help("check")), ("diff", help("diff"))];
    let mut seen = 0;
    for rel in ["README.md", "docs/ci.md", "action.yml"] {
        // The action's `args` default is a command line without `wirelint`.
        let text = read(rel).replace("default: check ", "default: wirelint check ");
        for line in text.lines() {
            for (sub, text) in &helps {
                let Some(rest) = line.split(&format!("wirelint {sub} ")).nth(1) else {
                    continue;
                };
                let rest = rest.split(" #").next().unwrap();
                let words: Vec<&str> = rest.split_whitespace().collect();
                for (i, w) in words.iter().enumerate() {
                    let Some(flag) = w.strip_prefix("--") else {
                        continue;
                    };
                    let flag = flag
                        .split('=')
                        .next()
                        .unwrap()
                        .trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
                    assert!(
                        text.contains(&format!("--{flag}")),
                        "{rel}: `wirelint {sub} --{flag}` does not exist: {line}"
                    );
                    // `--format` with its value on the same line (a line
                    // may also end at the flag: `wirelint check --format`).
                    if let (true, Some(next)) = (flag == "format", words.get(i + 1)) {
                        let value = next.trim_matches(|c: char| !c.is_ascii_alphanumeric());
                        assert!(
                            text.contains(&format!("- {value}:")),
                            "{rel}: `wirelint {sub} --format {value}`: {line}"
                        );
                    }
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 30, "{seen}");
}

/// `pre-commit` as a test runs it: its own store, under `home`.
fn pre_commit(dir: &Path, home: &Path, args: &[&str]) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_wirelint")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let out = Command::new("pre-commit")
        .args(args)
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", home)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .output()
        .expect("pre-commit runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

/// The hook manifest, and each `.pre-commit-config.yaml` the README shows,
/// pass the real framework's `validate-manifest` and `validate-config`.
#[test]
fn pre_commit_validates_the_manifest_and_the_readme_snippets() {
    if find_on_path("pre-commit").is_none() {
        eprintln!("skipped: pre-commit is not installed (pip install pre-commit)");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let (code, out) = pre_commit(
        &repo(),
        home.path(),
        &["validate-manifest", ".pre-commit-hooks.yaml"],
    );
    assert_eq!(code, 0, "{out}");
    let snippets = blocks(&readme_section("pre-commit"), "yaml");
    assert_eq!(snippets.len(), 2);
    let dir = tempfile::tempdir().unwrap();
    for (i, s) in snippets.iter().enumerate() {
        assert!(s.starts_with("# .pre-commit-config.yaml\n"), "{s}");
        let file = dir.path().join(format!("config-{i}.yaml"));
        std::fs::write(&file, s).unwrap();
        let (code, out) = pre_commit(
            dir.path(),
            home.path(),
            &["validate-config", file.to_str().unwrap()],
        );
        assert_eq!(code, 0, "{s}\n{out}");
    }
    // The local hook says what the published manifest says.
    let manifest = read(".pre-commit-hooks.yaml");
    for key in [
        "entry: wirelint check",
        "types_or: [elixir, rust, lua, python, javascript, jsx, ts, tsx, go, ruby, toml]",
        "require_serial: true",
    ] {
        assert!(manifest.contains(key) && snippets[0].contains(key), "{key}");
    }
}

/// The README's local hook, as written, run by the real framework with
/// wirelint on the PATH: a staged comment passes, a staged field rename
/// fails with its finding.
#[test]
fn the_readme_local_hook_runs_as_written() {
    if find_on_path("pre-commit").is_none() {
        eprintln!("skipped: pre-commit is not installed (pip install pre-commit)");
        return;
    }
    let snippet = blocks(&readme_section("pre-commit"), "yaml")
        .into_iter()
        .find(|s| s.contains("repo: local"))
        .expect("the local hook");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tree(&repo().join("fixtures/echomq"), d);
    std::fs::write(d.join(".pre-commit-config.yaml"), &snippet).unwrap();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    let home = tempfile::tempdir().unwrap();
    let jobs = d.join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();

    std::fs::write(&jobs, format!("# a comment\n{text}")).unwrap();
    git(d, &["add", "echo_mq/lib/echo_mq/jobs.ex"]);
    let (code, out) = pre_commit(d, home.path(), &["run"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("wirelint") && out.contains("Passed"), "{out}");

    std::fs::write(&jobs, text.replace("'payload', ARGV[2]", "'data', ARGV[2]")).unwrap();
    git(d, &["add", "echo_mq/lib/echo_mq/jobs.ex"]);
    let (code, out) = pre_commit(d, home.path(), &["run"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Failed"), "{out}");
    assert!(
        out.contains("WL201 unknown-field") && out.contains("[echo_mq/lib/echo_mq/jobs.ex:10:"),
        "{out}"
    );
}

/// The README's hook with the baseline in its `args`, as written, run by
/// the real framework: a repository whose committed findings are in the
/// baseline passes a commit that touches the file holding one, and shows
/// nothing; a finding the change brings still fails it.
#[test]
fn the_readme_hook_with_a_baseline_runs_as_written() {
    if find_on_path("pre-commit").is_none() {
        eprintln!("skipped: pre-commit is not installed (pip install pre-commit)");
        return;
    }
    let snippet = blocks(&readme_section("pre-commit"), "yaml")
        .into_iter()
        .find(|s| s.contains("args: [--baseline, wirelint-baseline.json]"))
        .expect("the hook with a baseline");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_tree(&repo().join("fixtures/echomq"), d);
    copy_tree(&repo().join("fixtures/variants/type-misspelled/tree"), d);
    std::fs::write(d.join(".pre-commit-config.yaml"), &snippet).unwrap();
    let (code, _, stderr) =
        common::run(&["check", "--write-baseline", "wirelint-baseline.json"], d);
    assert_eq!(code, 0, "{stderr}");
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "base"]);
    let home = tempfile::tempdir().unwrap();
    let keys = d.join("peers/rust/src/keys.rs");
    let text = std::fs::read_to_string(&keys).unwrap();
    std::fs::write(&keys, format!("{text}// a comment\n")).unwrap();
    git(d, &["add", "peers/rust/src/keys.rs"]);
    let (code, out) = pre_commit(d, home.path(), &["run"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Passed") && !out.contains("WL103"), "{out}");

    let jobs = d.join("echo_mq/lib/echo_mq/jobs.ex");
    let text = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(&jobs, text.replace("'payload', ARGV[2]", "'data', ARGV[2]")).unwrap();
    git(d, &["add", "echo_mq/lib/echo_mq/jobs.ex"]);
    let (code, out) = pre_commit(d, home.path(), &["run"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("Failed") && out.contains("WL201 unknown-field"),
        "{out}"
    );
    assert!(!out.contains("WL103"), "{out}");
}
