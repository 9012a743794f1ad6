//! The real corpus: every finding wirelint reports on the pinned public
//! repositories is listed in `tests/realcode/expected/` with its reason, and
//! every listed finding is still reported. Runs when `WIRELINT_CORPUS` names
//! the directory holding the repositories (`OWNER+NAME/`) as the tests are
//! built; ignored otherwise (`build.rs` sets `cfg(wirelint_corpus)`), so
//! the test summary counts them as not run. See `tests/realcode/README.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus directory: `WIRELINT_CORPUS` as the test runs (a test run
/// with `--ignored` without it fails, and says why).
fn corpus() -> PathBuf {
    std::env::var_os("WIRELINT_CORPUS")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .expect("WIRELINT_CORPUS names the real corpus (tests/realcode/README.md)")
}

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/realcode")
}

/// `(directory name, kind)` of every pinned repository.
fn pinned() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(here().join("corpus.tsv")).expect("corpus.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[0].replacen('/', "+", 1), cols[3].to_string())
        })
        .collect()
}

/// `CODE path:line` of every expected finding, each with a reason.
fn expected(repo: &str) -> BTreeSet<String> {
    let path = here().join("expected").join(format!("{repo}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (every pinned repository has a file)",
            path.display()
        )
    });
    let mut out = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (finding, reason) = line.split_once("  ").unwrap_or((line, ""));
        assert!(
            !reason.trim().is_empty(),
            "{}: `{finding}` has no reason",
            path.display()
        );
        out.insert(finding.trim().to_string());
    }
    out
}

/// `CODE path:line` of every finding `wirelint check` reports in `dir`.
fn reported(dir: &Path) -> BTreeSet<String> {
    reported_with(dir, &["."])
}

/// The same, with `args` (paths, `--contract NAME`).
fn reported_with(dir: &Path, args: &[&str]) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .arg("check")
        .args(args)
        .args(["--format", "json", "--exit-zero"])
        .current_dir(dir)
        .output()
        .expect("runs wirelint");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}",
                d["code"].as_str().unwrap_or(""),
                d["path"].as_str().unwrap_or(""),
                d["span"]["start"]["line"]
            )
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn every_finding_on_the_real_corpus_is_expected_and_every_expected_one_is_found() {
    let corpus = corpus();
    let mut problems = Vec::new();
    let mut totals = (0usize, 0usize);
    for (repo, kind) in pinned() {
        let dir = corpus.join(&repo);
        if !dir.is_dir() {
            problems.push(format!("{repo}: not found under {}", corpus.display()));
            continue;
        }
        let want = expected(&repo);
        let got = reported(&dir);
        if kind == "other" && !want.is_empty() {
            problems.push(format!(
                "{repo}: a repository that is no Redis queue expects findings"
            ));
        }
        for f in got.difference(&want) {
            problems.push(format!("{repo}: unexpected {f}"));
        }
        for f in want.difference(&got) {
            problems.push(format!("{repo}: lost {f}"));
        }
        totals.0 += got.len();
        totals.1 += want.len();
        eprintln!("realcode: {repo}: {} findings", got.len());
    }
    eprintln!(
        "realcode: {} findings reported, {} expected",
        totals.0, totals.1
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A run against a shipped family contract (`tests/realcode/families/`):
/// the repository, the contract, the path checked, whether the port is
/// knowingly incompatible, and the findings expected.
struct FamilyRun {
    repo: String,
    contract: String,
    path: String,
    incompatible: bool,
    want: BTreeSet<String>,
}

fn family_run(path: &Path) -> FamilyRun {
    let text = std::fs::read_to_string(path).expect("a family run file");
    let directive = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
            .map(|v| v.trim().to_string())
    };
    let need = |key: &str| {
        directive(key).unwrap_or_else(|| panic!("{}: no `# {key}:` line", path.display()))
    };
    let mut want = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (finding, reason) = line.split_once("  ").unwrap_or((line, ""));
        assert!(
            !reason.trim().is_empty(),
            "{}: `{finding}` has no reason",
            path.display()
        );
        want.insert(finding.trim().to_string());
    }
    FamilyRun {
        repo: need("repo"),
        contract: need("contract"),
        path: need("path"),
        incompatible: directive("incompatible").is_some(),
        want,
    }
}

/// Each shipped family contract against its own upstream (silent) and
/// against each port of the corpus (every finding listed with its reason,
/// or the port is knowingly incompatible and must report something).
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn every_family_run_reports_what_its_file_lists() {
    let corpus = corpus();
    let mut files: Vec<PathBuf> = std::fs::read_dir(here().join("families"))
        .expect("tests/realcode/families")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut problems = Vec::new();
    for f in files {
        let run = family_run(&f);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let dir = PathBuf::from(&corpus).join(&run.repo);
        if !dir.is_dir() {
            problems.push(format!("{name}: {} not found", run.repo));
            continue;
        }
        let got = reported_with(
            &dir,
            &[run.path.as_str(), "--contract", run.contract.as_str()],
        );
        eprintln!("realcode families: {name}: {} findings", got.len());
        if run.incompatible {
            assert!(
                run.want.is_empty(),
                "{name}: an incompatible port lists no findings"
            );
            if got.is_empty() {
                problems.push(format!("{name}: said incompatible, but reports nothing"));
            }
            continue;
        }
        for x in got.difference(&run.want) {
            problems.push(format!("{name}: unexpected {x}"));
        }
        for x in run.want.difference(&got) {
            problems.push(format!("{name}: lost {x}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `extract --as-contract` on each family's upstream drafts a contract
/// that checks the same tree silently (an upstream in a language wirelint
/// does not read yet drafts nothing, and is passed over).
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn the_draft_of_each_upstream_checks_it_silently() {
    let corpus = corpus();
    let mut problems = Vec::new();
    for e in std::fs::read_dir(here().join("families")).expect("families") {
        let f = e.expect("an entry").path();
        if !f.to_string_lossy().ends_with("-upstream.txt") {
            continue;
        }
        let run = family_run(&f);
        // A known gap of inference, said in the file with its reason.
        let text = std::fs::read_to_string(&f).expect("reads the family file");
        if text.contains("\n# draft-gap:") {
            eprintln!(
                "realcode drafts: {}: a draft gap is listed, not checked",
                run.repo
            );
            continue;
        }
        let dir = PathBuf::from(&corpus).join(&run.repo);
        let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
            .args(["extract", "--as-contract", run.path.as_str()])
            .current_dir(&dir)
            .output()
            .expect("runs wirelint");
        let draft = String::from_utf8_lossy(&out.stdout).to_string();
        if !draft.lines().any(|l| l.starts_with('[')) {
            eprintln!("realcode drafts: {}: nothing read, no draft", run.repo);
            continue;
        }
        let keep = std::env::temp_dir().join(format!("wirelint-draft-{}.toml", run.repo));
        std::fs::write(&keep, &draft).expect("writes the draft");
        let got = reported_with(
            &dir,
            &[
                run.path.as_str(),
                "--contract",
                keep.to_str().expect("a path"),
            ],
        );
        let _ = std::fs::remove_file(&keep);
        eprintln!("realcode drafts: {}: {} findings", run.repo, got.len());
        for x in got {
            problems.push(format!("{}: the draft reports {x}", run.repo));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The README's promise on the pre-commit hook, held on the upstream it
/// names: in a clone of BullMQ, a staged script that renames a field of the
/// job hash (`timestamp` in `storeJob`'s HMSET, at `args[1] .. jobId`)
/// fails a run given only that file, with WL201 on the renamed field.
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn a_renamed_field_in_a_bullmq_script_fails_the_hook() {
    let from = corpus().join("taskforcesh+bullmq");
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("bullmq");
    let copied = Command::new("cp")
        .args([
            "-r",
            from.to_str().expect("a path"),
            dir.to_str().expect("a path"),
        ])
        .status()
        .expect("cp runs");
    assert!(copied.success());
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("git runs");
        assert!(
            ok.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&ok.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "upstream"]);
    let script = dir.join("src/commands/includes/storeJob.lua");
    let text = std::fs::read_to_string(&script).expect("reads storeJob.lua");
    assert!(
        text.contains("\"timestamp\", timestamp"),
        "the pinned storeJob.lua"
    );
    let renamed = text.replace("\"timestamp\", timestamp", "\"createdAt\", timestamp");
    std::fs::write(&script, renamed).expect("writes storeJob.lua");
    git(&["add", "-A"]);
    let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args([
            "check",
            "--format",
            "concise",
            "src/commands/includes/storeJob.lua",
        ])
        .current_dir(&dir)
        .output()
        .expect("runs wirelint");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.contains(": error[")).collect();
    assert_eq!(
        errors,
        ["src/commands/includes/storeJob.lua:30:12: error[WL201]: field `createdAt` is not a field of the `job` record"],
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
}

/// Where a shipped contract deliberately differs from the draft of its
/// upstream (`extract --as-contract --contract NAME` at the pinned
/// commit), each with its reason: `redis.TYPE` (a data type written by
/// hand or left out), `scripts.NAME` (a script likewise), `name.DRAFT=OURS`
/// (a drafted script the contract names otherwise), `roles.NAME` (a script
/// whose slots the draft names none of, `key1`.., named by hand: the count,
/// `unused` and ARGV still agree).
const DELIBERATE: &[(&str, &str, &str)] = &[
    ("rsmq", "redis.attributes", RSMQ_NS),
    ("rsmq", "redis.messages", RSMQ_NS),
    ("rsmq", "redis.queues", RSMQ_NS),
    (
        "rsmq",
        "name.script_receiveMessage=receiveMessage",
        RSMQ_NAMES,
    ),
    ("rsmq", "name.script_popMessage=popMessage", RSMQ_NAMES),
    (
        "rsmq",
        "name.script_changeMessageVisibility=changeMessageVisibility",
        RSMQ_NAMES,
    ),
    ("rsmq", "roles.receiveMessage", RSMQ_ROLES),
    ("rsmq", "roles.popMessage", RSMQ_ROLES),
    ("rsmq", "roles.changeMessageVisibility", RSMQ_ROLES),
    ("sidekiq", "redis.queues", SIDEKIQ_WHOLE),
    ("sidekiq", "redis.schedule", SIDEKIQ_WHOLE),
    ("sidekiq", "redis.retry", SIDEKIQ_WHOLE),
    ("sidekiq", "redis.dead", SIDEKIQ_WHOLE),
    ("sidekiq", "redis.processes", SIDEKIQ_WHOLE),
    ("sidekiq", "redis.iteration", SIDEKIQ_WHOLE),
];
const RSMQ_NS: &str =
    "every key index.js builds starts with the `ns` option, a hole: the draft has no data type";
const RSMQ_NAMES: &str =
    "the draft names a script by its string's name; the contract by the script's, as the ports do";
const RSMQ_ROLES: &str =
    "no header comment or alias names a slot: the roles are read by hand from the bodies";
const SIDEKIQ_WHOLE: &str = "a key without a `:` is not drafted: its data type is written by hand";

/// A table of a contract (`keyspace.redis`, `scripts`), empty when absent.
fn table(t: &toml::Table, path: &[&str]) -> toml::Table {
    let mut at = Some(t);
    for p in path {
        at = at.and_then(|t| t.get(*p)).and_then(|v| v.as_table());
    }
    at.cloned().unwrap_or_default()
}

/// Each key type's template with its placeholders blanked (`types` relative
/// to the queue key, `keys` whole with `<prefix>` spelt) → its name.
fn names_by_template(c: &toml::Table) -> BTreeMap<(String, String), String> {
    let blank = |p: &str| {
        let mut out = String::new();
        for piece in p.split('<') {
            match piece.split_once('>') {
                Some((_, rest)) => out.push_str(&format!("<>{rest}")),
                None => out.push_str(piece),
            }
        }
        out
    };
    let prefix = table(c, &["keyspace"])
        .get("prefix")
        .and_then(|p| p.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    for kind in ["types", "keys"] {
        for (name, p) in table(c, &["keyspace", kind]) {
            let p = p.as_str().unwrap_or("").replace("<prefix>", &prefix);
            out.insert((kind.to_string(), blank(&p)), name);
        }
    }
    out
}

/// The differences between a shipped contract's generated parts and its
/// upstream's draft that `DELIBERATE` does not name; each allowance used is
/// put in `used`. The draft's key types are read by the contract's type
/// of the same template (asynq's draft says `processed_` for
/// `processed:<id>`, the contract `processed-daily`).
fn draft_differences(
    contract: &str,
    shipped: &toml::Table,
    draft: &toml::Table,
    used: &mut BTreeSet<String>,
) -> Vec<String> {
    let ours_by = names_by_template(shipped);
    let rename: BTreeMap<String, String> = names_by_template(draft)
        .into_iter()
        .filter_map(|(shape, n)| Some((n, ours_by.get(&shape)?.clone())))
        .collect();
    let named = |n: &str| rename.get(n).cloned().unwrap_or_else(|| n.to_string());
    let mut allow = |entry: String| allowed(contract, entry, used);
    let mut problems = Vec::new();
    let ours = table(shipped, &["keyspace", "redis"]);
    let theirs: toml::Table = table(draft, &["keyspace", "redis"])
        .into_iter()
        .map(|(k, v)| (named(&k), v))
        .collect();
    let types: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    for t in types {
        let (a, b) = (ours.get(t), theirs.get(t));
        if a != b && !allow(format!("redis.{t}")) {
            problems.push(format!(
                "{contract}: [keyspace.redis] {t}: the contract says {}, the draft {}",
                shown(a),
                shown(b)
            ));
        }
    }
    let ours = table(shipped, &["scripts"]);
    let mut theirs = toml::Table::new();
    for (name, spec) in table(draft, &["scripts"]) {
        let mut spec = spec.as_table().cloned().unwrap_or_default();
        if let Some(keys) = spec.get_mut("keys").and_then(|k| k.as_array_mut()) {
            for k in keys.iter_mut() {
                *k = toml::Value::String(named(k.as_str().unwrap_or("")));
            }
        }
        let ours_name = DELIBERATE
            .iter()
            .filter(|(c, _, _)| *c == contract)
            .find_map(|(_, e, _)| e.strip_prefix(&format!("name.{name}=")))
            .filter(|n| allow(format!("name.{name}={n}")))
            .map(str::to_string);
        theirs.insert(ours_name.unwrap_or(name), toml::Value::Table(spec));
    }
    let scripts: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    for s in scripts {
        let (a, b) = (ours.get(s), theirs.get(s));
        if a == b || roles_by_hand(a, b) && allow(format!("roles.{s}")) {
            continue;
        }
        if !allow(format!("scripts.{s}")) {
            problems.push(format!(
                "{contract}: [scripts.{s}]: the contract says {}, the draft {}",
                shown(a),
                shown(b)
            ));
        }
    }
    problems
}

/// A contract's value as TOML, or `nothing`.
fn shown(v: Option<&toml::Value>) -> String {
    v.map_or_else(|| "nothing".into(), |v| format!("`{v}`"))
}

/// Whether `DELIBERATE` names `entry` of `contract`; put in `used` if so.
fn allowed(contract: &str, entry: String, used: &mut BTreeSet<String>) -> bool {
    let listed = DELIBERATE
        .iter()
        .any(|(c, e, _)| *c == contract && *e == entry);
    if listed {
        used.insert(entry);
    }
    listed
}

/// Whether a contract's script and its draft differ only in the roles,
/// where the draft names no slot (`key1`, `key2`, ..).
fn roles_by_hand(ours: Option<&toml::Value>, draft: Option<&toml::Value>) -> bool {
    let (Some(ours), Some(draft)) = (
        ours.and_then(|v| v.as_table()),
        draft.and_then(|v| v.as_table()),
    ) else {
        return false;
    };
    let keys = |t: &toml::Table| {
        t.get("keys")
            .and_then(|k| k.as_array())
            .cloned()
            .unwrap_or_default()
    };
    let placeholders = keys(draft)
        .iter()
        .enumerate()
        .all(|(i, k)| k.as_str() == Some(format!("key{}", i + 1).as_str()));
    let rest = |t: &toml::Table| {
        let mut t = t.clone();
        t.remove("keys");
        t
    };
    placeholders && keys(ours).len() == keys(draft).len() && rest(ours) == rest(draft)
}

/// Each shipped family contract's generated parts (`[scripts.*]`,
/// `[keyspace.redis]`) are what `extract --as-contract --contract NAME`
/// drafts on its pinned upstream, but for the differences `DELIBERATE`
/// names, each of which must be one: a script's KEYS in another order in
/// the contract than in the draft fails.
#[test]
#[cfg_attr(
    not(wirelint_corpus),
    ignore = "needs WIRELINT_CORPUS: the pinned real corpus"
)]
fn each_family_contract_is_what_its_upstream_drafts() {
    let corpus = corpus();
    let mut problems = Vec::new();
    let mut used = BTreeSet::new();
    let mut contracts = BTreeSet::new();
    for e in std::fs::read_dir(here().join("families")).expect("families") {
        let f = e.expect("an entry").path();
        if !f.to_string_lossy().ends_with("-upstream.txt") {
            continue;
        }
        let run = family_run(&f);
        let out = Command::new(env!("CARGO_BIN_EXE_wirelint"))
            .args(["extract", "--as-contract", "--contract"])
            .args([run.contract.as_str(), run.path.as_str()])
            .current_dir(corpus.join(&run.repo))
            .output()
            .expect("runs wirelint");
        assert!(out.status.success(), "{}: {:?}", run.repo, out);
        let parse = |text: &str, what: &str| -> toml::Table {
            toml::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"))
        };
        let draft = parse(&String::from_utf8_lossy(&out.stdout), &run.repo);
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rules")
            .join(format!("{}.toml", run.contract));
        let shipped = parse(
            &std::fs::read_to_string(&path).expect("reads the contract"),
            &run.contract,
        );
        let mut mine = BTreeSet::new();
        problems.extend(draft_differences(
            &run.contract,
            &shipped,
            &draft,
            &mut mine,
        ));
        used.extend(mine.into_iter().map(|e| (run.contract.clone(), e)));
        contracts.insert(run.contract);
    }
    assert_eq!(
        contracts.into_iter().collect::<Vec<_>>(),
        ["asynq", "bullmq", "rsmq", "sidekiq"]
    );
    for (c, e, why) in DELIBERATE {
        if !used.contains(&(c.to_string(), e.to_string())) {
            problems.push(format!(
                "{c}: `{e}` is listed ({why}), but is no difference"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
