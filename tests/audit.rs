//! `wirelint audit` against a real `redis-server` (started by each test on a
//! free loopback port, stopped when the test ends): exact findings on a
//! seeded keyspace, read-only proof from the server's command statistics,
//! bounds, a server that goes away mid-scan, the command line's errors.

#[path = "common/redis_server.rs"]
mod redis_server;
#[path = "audit/servers.rs"]
mod servers;

use std::process::Command;

use redis_server::Server;

/// Runs `wirelint ARGS` without any password in the environment.
fn wirelint(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    wirelint_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args, env)
}

/// Runs `wirelint ARGS` in `dir` without any password in the environment.
fn wirelint_in(
    dir: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wirelint"));
    c.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("REDISCLI_AUTH");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A server seeded with the divergent keyspace (`seed::divergent`).
fn divergent(test: &str) -> Option<Server> {
    let s = Server::start(test, &[])?;
    s.seed(wirelint::audit::seed::divergent());
    Some(s)
}

/// (code, message, help) of every finding in a JSON report.
fn findings(json: &str) -> Vec<(String, String, String)> {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON on stdout");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                d["help"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn notes(json: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["message"].as_str().unwrap().to_string())
        .collect()
}

fn f(code: &str, message: &str, help: &str) -> (String, String, String) {
    (code.into(), message.into(), help.into())
}

/// Every finding of the seeded divergent keyspace, exactly.
fn expected() -> Vec<(String, String, String)> {
    vec![
        f("WA101",
          "1 key at `emk:{<queue>}:pending`: `emk:` is a near miss of the contract's prefix `emq:`, so no speaker finds it",
          "e.g. `emk:{orders}:pending` (zset 1); fix the speaker that writes them (`wirelint check`, WL101), then move them under `emq:`"),
        f("WA101",
          "4 keys at `emk:{<queue>}:job:<id>`: `emk:` is a near miss of the contract's prefix `emq:`, so no speaker finds them",
          "e.g. `emk:{orders}:job:101`, `emk:{orders}:job:102`, `emk:{orders}:job:103` (hash 4); fix the speaker that writes them (`wirelint check`, WL101), then move them under `emq:`"),
        f("WA102",
          "1 key at `emq:<queue>:job:<id>`: the queue is not wrapped in the hash tag `{…}`, so no speaker finds it",
          "e.g. `emq:orders:job:600` (hash 1); in a cluster they hash to another slot than their queue's keys; fix the speaker that writes them (`wirelint check`, WL102), then move them to their tagged keys"),
        f("WA103",
          "1 key at `emq:{<queue>}:jobs:<id>`: the type `jobs:` is not in the contract, so no speaker reads it",
          "e.g. `emq:{orders}:jobs:700` (hash 1); fix the speaker that writes them (`wirelint check`, WL103), or add the type to [keyspace.types]"),
        f("WA104",
          "1 `job` key at `emq:{<queue>}:job:<id>` holds a string, not a hash: every command on it fails with WRONGTYPE",
          "e.g. `emq:{orders}:job:400`; fix the speaker that creates them with a string command"),
        f("WA104",
          "1 `pending` key at `emq:{<queue>}:pending` holds a list, not a zset: every command on it fails with WRONGTYPE",
          "e.g. `emq:{mail}:pending`; fix the speaker that creates them with a list command"),
        f("WA201",
          "1 `job` row at `emq:{<queue>}:job:<id>` has field `x:<n>`, which the `job` record does not have",
          "e.g. `emq:{orders}:job:500`; read from a sample of fields (--sample): 1; no speaker reads `x:<n>`: if it is a renamed field, fix the writer (`wirelint check`, WL201) and migrate the rows"),
        f("WA201",
          "3 `job` rows at `emq:{<queue>}:job:<id>` have field `data`, which the `job` record does not have",
          "e.g. `emq:{orders}:job:201`, `emq:{orders}:job:202`, `emq:{orders}:job:203`; no speaker reads `data`: if it is a renamed field, fix the writer (`wirelint check`, WL201) and migrate the rows"),
        f("WA202",
          "1 `job` row at `emq:{<queue>}:job:<id>` lacks field `attempts`",
          "e.g. `emq:{orders}:job:500`; read from a sample of fields (--sample): 1; every speaker that reads a `job` expects `attempts`: fix the writer (`wirelint check`, WL202) and fill the rows"),
        f("WA202",
          "3 `job` rows at `emq:{<queue>}:job:<id>` lack field `payload`",
          "e.g. `emq:{orders}:job:201`, `emq:{orders}:job:202`, `emq:{orders}:job:203`; every speaker that reads a `job` expects `payload`: fix the writer (`wirelint check`, WL202) and fill the rows"),
        f("WA301",
          "1 member of `emq:{<queue>}:pending` names a `job` key at `emq:{<queue>}:job:<id>` that does not exist",
          "missing keys e.g. `emq:{orders}:job:999`; a worker that pops these ids finds no row"),
        f("WA302",
          "2 `job` keys at `emq:{<queue>}:job:<id>` are held by no `pending`",
          "e.g. `emq:{orders}:job:300`, `emq:{orders}:job:301`; with a TTL: 1; no worker takes a row that no queue holds"),
    ]
}

#[test]
fn a_divergent_keyspace_gives_exact_findings() {
    let Some(s) = divergent("a_divergent_keyspace_gives_exact_findings") else {
        return;
    };
    let url = s.url();
    let (code, out, err) = wirelint(
        &[
            "audit", "--url", &url, "--sample", "100", "--format", "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(findings(&out), expected());
    assert_eq!(
        notes(&out),
        [
            "read 29 keys (20 of the contract's types, 2 outside the keyspace and not judged) and 15 queue members on 1 node",
            "1 hash with more than 100 fields read from a sample of their fields and HEXISTS for the record's fields",
            "1 row whose state names no holder (a finished job) not checked for one: no queue should hold it",
        ]
    );
    assert_eq!(
        err,
        "wirelint audit: 11 errors, 1 warning in 29 keys; exit 1: findings at or above error\n"
    );
    // Whole hashes (no sampling): the same findings but for the sample
    // counts, and the same again on a second run (SCAN order aside).
    let (_, whole, _) = wirelint(
        &["audit", "--url", &url, "--sample", "0", "--format", "json"],
        &[],
    );
    let unsampled: Vec<_> = expected()
        .into_iter()
        .map(|(c, m, h)| {
            (
                c,
                m,
                h.replace("; read from a sample of fields (--sample): 1", ""),
            )
        })
        .collect();
    assert_eq!(findings(&whole), unsampled);
    let (_, again, _) = wirelint(
        &["audit", "--url", &url, "--sample", "0", "--format", "json"],
        &[],
    );
    assert_eq!(again, whole);
}

#[test]
fn findings_point_into_the_contract_in_every_format() {
    let Some(s) = divergent("findings_point_into_the_contract_in_every_format") else {
        return;
    };
    let url = s.url();
    let (code, out, _) = wirelint(&["audit", "--url", &url, "--format", "concise"], &[]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(
        lines[0],
        "error[WA101]: the embedded contract rules/echomq.toml, line 14: 1 key at `emk:{<queue>}:pending`: `emk:` is a near miss of the contract's prefix `emq:`, so no speaker finds it"
    );
    assert_eq!(
        lines[9],
        "error[WA202]: the embedded contract rules/echomq.toml, line 25: 3 `job` rows at `emq:{<queue>}:job:<id>` lack field `payload`"
    );
    assert_eq!(
        lines[11],
        "warning[WA302]: the embedded contract rules/echomq.toml, line 42: 2 `job` keys at `emq:{<queue>}:job:<id>` are held by no `pending`"
    );
    let (_, sarif, _) = wirelint(&["audit", "--url", &url, "--format", "sarif"], &[]);
    let v: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let run = &v["runs"][0];
    let ids: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["WA101", "WA102", "WA103", "WA104", "WA201", "WA202", "WA301", "WA302"]
    );
    assert_eq!(run["results"][11]["ruleId"], "WA302");
    assert_eq!(run["results"][11]["ruleIndex"], 7);
    let (_, gh, _) = wirelint(&["audit", "--url", &url, "--format", "github"], &[]);
    assert!(
        gh.starts_with(
            "::error title=WA101 prefix-miss::the embedded contract rules/echomq.toml, line 14: "
        ),
        "{gh}"
    );
    let (_, full, err) = wirelint(&["audit", "--url", &url], &[]);
    assert_eq!(full, "");
    assert!(err.contains("WA301 member-without-key"), "{err}");
    let (code, _, _) = wirelint(&["audit", "--url", &url, "--exit-zero"], &[]);
    assert_eq!(code, 0);
}

/// A server that holds only healthy keys: exit 0.
#[test]
fn a_healthy_keyspace_is_clean() {
    let Some(s) = Server::start("a_healthy_keyspace_is_clean", &[]) else {
        return;
    };
    s.seed(wirelint::audit::seed::divergent().into_iter().take(10));
    let mut con = s.con();
    let _: () = redis::cmd("ZADD")
        .arg("emq:{orders}:pending")
        .arg((1..=10).flat_map(|i| [0, i]).collect::<Vec<_>>())
        .query(&mut con)
        .unwrap();
    let (code, out, err) = wirelint(&["audit", "--url", &s.url(), "--format", "concise"], &[]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(
        err,
        "wirelint audit: 0 errors, 0 warnings in 11 keys; exit 0: clean\n"
    );
}

// ---- select and ignore ----

/// The findings of [`expected`] whose code starts with one of `prefixes`.
fn only(prefixes: &[&str]) -> Vec<(String, String, String)> {
    expected()
        .into_iter()
        .filter(|(c, _, _)| prefixes.iter().any(|p| c.starts_with(p)))
        .collect()
}

/// `--select` and `--ignore` choose the findings as `check`'s do: codes or
/// prefixes, the most specific entry deciding; the counts and the exit
/// code are those of the findings left.
#[test]
fn select_and_ignore_choose_the_audit_findings() {
    let Some(s) = divergent("select_and_ignore_choose_the_audit_findings") else {
        return;
    };
    let url = s.url();
    let audit = |extra: &[&str]| {
        let mut args = vec![
            "audit", "--url", &url, "--sample", "100", "--format", "json",
        ];
        args.extend_from_slice(extra);
        wirelint(&args, &[])
    };
    let (code, out, err) = audit(&["--ignore", "WA201"]);
    let without: Vec<_> = expected().into_iter().filter(|f| f.0 != "WA201").collect();
    assert_eq!(findings(&out), without);
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "wirelint audit: 9 errors, 1 warning in 29 keys; exit 1: findings at or above error\n"
        )
    );
    let (code, out, err) = audit(&["--select", "wa3"]);
    assert_eq!(findings(&out), only(&["WA3"]));
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "wirelint audit: 1 error, 1 warning in 29 keys; exit 1: findings at or above error\n"
        )
    );
    // Only the warning: nothing fails the run.
    let (code, out, err) = audit(&["--select", "WA302"]);
    assert_eq!(findings(&out), only(&["WA302"]));
    assert_eq!(
        (code, err.as_str()),
        (
            0,
            "wirelint audit: 0 errors, 1 warning in 29 keys; exit 0: nothing at or above error\n"
        )
    );
    let (code, out, _) = audit(&["--select", "WA2,WA104", "--ignore", "WA202"]);
    assert_eq!(findings(&out), only(&["WA104", "WA201"]));
    assert_eq!(code, 1);
}

/// `wirelint.toml`'s `select` and `ignore` (in the directory the audit runs
/// in) apply to the audit: its WA entries; `--select` replaces `select`,
/// `--ignore` adds to `ignore`; a `select` of `check`'s rules alone
/// leaves every audit rule selected.
#[test]
fn wirelint_toml_select_and_ignore_apply_to_the_audit() {
    let Some(s) = divergent("wirelint_toml_select_and_ignore_apply_to_the_audit") else {
        return;
    };
    let url = s.url();
    let dir = tempfile::tempdir().unwrap();
    let audit = |toml: &str, extra: &[&str]| {
        std::fs::write(dir.path().join("wirelint.toml"), toml).unwrap();
        let mut args = vec![
            "audit", "--url", &url, "--sample", "100", "--format", "json",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = wirelint_in(dir.path(), &args, &[]);
        assert!(code == 0 || code == 1, "{err}");
        findings(&out)
    };
    let without: Vec<_> = expected().into_iter().filter(|f| f.0 != "WA201").collect();
    assert_eq!(audit("ignore = [\"WA201\"]\n", &[]), without);
    let toml = "select = [\"WA1\", \"WL3\"]\nignore = [\"WA104\"]\n";
    assert_eq!(audit(toml, &[]), only(&["WA101", "WA102", "WA103"]));
    assert_eq!(audit(toml, &["--select", "WA3"]), only(&["WA3"]));
    assert_eq!(
        audit(toml, &["--ignore", "WA102"]),
        only(&["WA101", "WA103"])
    );
    assert_eq!(audit("select = [\"WL3\"]\n", &[]), expected());
}

/// A code of `check`'s on the audit's command line, or no code at all, is
/// a usage error before any connection, as an unknown code is to `check`.
#[test]
fn check_codes_and_unknown_codes_are_usage_errors_to_the_audit() {
    let url = "redis://127.0.0.1:1/0";
    let (code, out, err) = wirelint(&["audit", "--url", url, "--select", "WL201"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: `WL201` in `--select` is a code of `wirelint check`'s rules, not `wirelint audit`'s\n"
    );
    let (code, _, err) = wirelint(&["audit", "--url", url, "--ignore", "WA301,WA310"], &[]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: `WA310` in `--ignore` is no rule code or code prefix (did you mean `WA301`?)\n"
    );
    let (code, _, err) = wirelint(&["check", ".", "--select", "WA201"], &[]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: `WA201` in `--select` is a code of `wirelint audit`'s rules, not `wirelint check`'s\n"
    );
}

// ---- read only ----

/// After an audit, the server's command statistics list only commands that
/// `COMMAND INFO` does not flag `write`, all of them the audit's own.
#[test]
fn an_audit_sends_only_read_commands() {
    let Some(s) = divergent("an_audit_sends_only_read_commands") else {
        return;
    };
    let mut con = s.con();
    let _: () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query(&mut con)
        .unwrap();
    let (code, _, err) = wirelint(&["audit", "--url", &s.url(), "--sample", "100"], &[]);
    assert_eq!(code, 1, "{err}");
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query(&mut con)
        .unwrap();
    let mut used: Vec<String> = info
        .lines()
        .filter_map(|l| l.strip_prefix("cmdstat_"))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        // The test's own: INFO, and the reset before the audit.
        .filter(|c| c != "info" && c != "config|resetstat")
        .collect();
    used.sort();
    assert_eq!(
        used,
        [
            "dbsize",
            "exists",
            "hexists",
            "hget",
            "hrandfield",
            "ping",
            "scan",
            "ttl",
            "type",
            "zmscore",
            "zscan"
        ]
    );
    for name in &used {
        let words: Vec<&str> = name.split('|').collect();
        let reply: redis::Value = redis::cmd("COMMAND")
            .arg("INFO")
            .arg(&words[..])
            .query(&mut con)
            .unwrap();
        let text = format!("{reply:?}");
        assert!(
            !text.contains("\"write\""),
            "{name} is a write command: {text}"
        );
        assert!(
            text.contains("readonly") || text.contains("fast"),
            "{name}: {text}"
        );
    }
    // Every command the audit can send is a read.
    for read in wirelint::audit::wire::Read::ALL {
        let words = read.words();
        let reply: redis::Value = redis::cmd("COMMAND")
            .arg("INFO")
            .arg(words[0])
            .query(&mut con)
            .unwrap();
        let text = format!("{reply:?}");
        assert!(!text.contains("write"), "{words:?}: {text}");
    }
}

// ---- bounds and failures ----

fn limits(count: u32, max_keys: Option<u64>) -> wirelint::audit::scan::Limits {
    wirelint::audit::scan::Limits {
        pattern: "*".into(),
        count,
        sample: 1000,
        max_keys,
        rate: None,
        budget: None,
    }
}

fn target(url: &str) -> wirelint::audit::connect::Target {
    wirelint::audit::connect::target(url, None, &|_| None).unwrap()
}

/// The server is killed after the first page: a clear error, the counts
/// of that page, and (on the command line) exit 2.
#[test]
fn a_server_that_goes_away_mid_scan_gives_the_partial_counts() {
    let Some(mut s) = Server::start("a_server_that_goes_away_mid_scan", &[]) else {
        return;
    };
    s.seed(wirelint::audit::seed::bulk(1, 5000));
    let contract = wirelint::contract::Contract::embedded();
    let t = target(&s.url());
    let mut pages = 0;
    let mut hook = |_: u64| {
        pages += 1;
        if pages == 1 {
            s.kill();
        }
    };
    let r = wirelint::audit::audit(
        &contract,
        &t,
        limits(100, None),
        false,
        std::time::Duration::from_secs(5),
        &mut hook,
    );
    let failure = r.expect_err("the server went away");
    assert!(
        failure.message.starts_with(&format!(
            "the audit of {} stopped mid-scan: connection lost: ",
            t.shown
        )),
        "{}",
        failure.message
    );
    let partial = failure.partial.expect("partial counts");
    assert!(
        (1..5001).contains(&partial.tally.keys),
        "{}",
        partial.tally.keys
    );
    assert_eq!(pages, 1);
}

#[test]
fn a_server_that_is_not_there_exits_2() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://127.0.0.1:{port}/0");
    let (code, out, err) = wirelint(&["audit", "--url", &url, "--format", "json"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(&format!("error: cannot connect to {url}: ")),
        "{err}"
    );
}

#[test]
fn max_keys_stops_the_scan_with_a_note() {
    let Some(s) = Server::start("max_keys_stops_the_scan_with_a_note", &[]) else {
        return;
    };
    s.seed(wirelint::audit::seed::bulk(1, 3000));
    let (code, out, err) = wirelint(
        &[
            "audit",
            "--url",
            &s.url(),
            "--max-keys",
            "250",
            "--count",
            "100",
            "--format",
            "json",
        ],
        &[],
    );
    assert!(code == 0 || code == 1, "{err}");
    let notes = notes(&out);
    assert!(notes[0].starts_with("read 250 keys ("), "{notes:?}");
    assert_eq!(
        notes[1],
        "stopped at --max-keys 250: the counts are partial"
    );
    assert!(
        err.ends_with("in 250 keys; exit 1: findings at or above error\n") || code == 0,
        "{err}"
    );
}

#[test]
fn rate_and_time_budget_bound_the_scan() {
    let Some(s) = Server::start("rate_and_time_budget_bound_the_scan", &[]) else {
        return;
    };
    s.seed(wirelint::audit::seed::bulk(1, 3000));
    let contract = wirelint::contract::Contract::embedded();
    let mut l = limits(100, None);
    // 500 keys and members a second for at most 0.5 s: about 250 of them.
    l.rate = Some(500);
    l.budget = Some(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    let a = wirelint::audit::audit(
        &contract,
        &target(&s.url()),
        l,
        false,
        std::time::Duration::from_secs(5),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(a.stop, wirelint::audit::scan::Stop::Budget);
    assert!(a.tally.keys + a.tally.members <= 1000, "{:?}", a.tally);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

// ---- the command line ----

#[test]
fn a_password_on_the_command_line_is_refused() {
    let (code, out, err) = wirelint(&["audit", "--url", "redis://:hunter2@127.0.0.1:1/0"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: the URL holds a password; pass it in an environment variable instead (REDISCLI_AUTH, or --password-env NAME), never on the command line\n"
    );
    let (code, _, err) = wirelint(
        &[
            "audit",
            "--url",
            "redis://127.0.0.1:1/0",
            "--password-env",
            "WL_NOPE",
        ],
        &[],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --password-env WL_NOPE: the variable is not set\n"
    );
}

/// A server that requires a password: from the environment it works.
#[test]
fn the_password_comes_from_the_environment() {
    let Some(s) = Server::start(
        "the_password_comes_from_the_environment",
        &["--requirepass", "s3cret"],
    ) else {
        return;
    };
    let url = s.url();
    let (code, _, err) = wirelint(&["audit", "--url", &url], &[]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: cannot connect to {url}: ")) && err.contains("NOAUTH"),
        "{err}"
    );
    let (code, _, err) = wirelint(&["audit", "--url", &url], &[("REDISCLI_AUTH", "s3cret")]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = wirelint(
        &["audit", "--url", &url, "--password-env", "AUDIT_PW"],
        &[("AUDIT_PW", "s3cret")],
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_contract_without_keyspace_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(&path, "name = \"s\"\n[scripts.a]\nkeys = [\"x\"]\n").unwrap();
    let p = path.display().to_string();
    let (code, _, err) = wirelint(
        &["audit", "--contract", &p, "--url", "redis://127.0.0.1:1/0"],
        &[],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: the contract `s` ({p}) has no [keyspace]: an audit reads keys against one\n"
        )
    );
    std::fs::write(&path, "name = \"s\"\n[keyspace]\nkey = \"p:<queue>\"\n").unwrap();
    let (code, _, err) = wirelint(&["audit", "--contract", &p], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("the key pattern `p:<queue>` must"), "{err}");
}

#[test]
fn explain_and_rules_know_the_audit_codes() {
    let (code, out, _) = wirelint(&["explain", "wa301"], &[]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# WA301 member-without-key\n\n## What it does\n"),
        "{out}"
    );
    let (code, out, _) = wirelint(&["rules", "--audit"], &[]);
    assert_eq!(code, 0);
    let codes: Vec<&str> = out.lines().map(|l| &l[..5]).collect();
    assert_eq!(
        codes,
        ["WA101", "WA102", "WA103", "WA104", "WA201", "WA202", "WA301", "WA302"]
    );
    assert_eq!(
        out.lines().last().unwrap(),
        "WA302  key-without-holder L1     warning  live keys that no queue holds: written, never taken (warning)"
    );
}
