//! Other contracts and other servers: `--from-code`, a cluster, a server
//! that refuses a read or lacks HRANDFIELD, TLS, unix sockets, schemas.

use super::*;

// ---- other contracts, other servers ----

/// `--from-code`: the contract the EchoMQ fixture observes (the Redis
/// types its commands need, no holders: the key, type, data type and
/// field findings).
#[test]
fn from_code_audits_against_the_observed_contract() {
    let Some(s) = divergent("from_code_audits_against_the_observed_contract") else {
        return;
    };
    let (code, out, err) = wirelint(
        &[
            "audit",
            "--url",
            &s.url(),
            "--from-code",
            "fixtures/echomq",
            "--format",
            "concise",
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    let c = "fixtures/echomq (observed contract)";
    let expected = [
        format!("{c}:7:7: error[WA101]: 1 key at `emk:{{<queue>}}:pending`: `emk:` is a near miss of the contract's prefix `emq:`, so no speaker finds it"),
        format!("{c}:7:7: error[WA101]: 4 keys at `emk:{{<queue>}}:job:<id>`: `emk:` is a near miss of the contract's prefix `emq:`, so no speaker finds them"),
        format!("{c}:7:7: error[WA102]: 1 key at `emq:<queue>:job:<id>`: the queue is not wrapped in the hash tag `{{…}}`, so no speaker finds it"),
        format!("{c}:7:7: error[WA103]: 1 key at `emq:{{<queue>}}:jobs:<id>`: the type `jobs:` is not in the contract, so no speaker reads it"),
        format!("{c}:18:7: error[WA104]: 1 `job` key at `emq:{{<queue>}}:job:<id>` holds a string, not a hash: every command on it fails with WRONGTYPE"),
        format!("{c}:19:11: error[WA104]: 1 `pending` key at `emq:{{<queue>}}:pending` holds a list, not a zset: every command on it fails with WRONGTYPE"),
        format!("{c}:15:10: error[WA201]: 1 `job` row at `emq:{{<queue>}}:job:<id>` has field `x:<n>`, which the `job` record does not have"),
        format!("{c}:15:10: error[WA201]: 3 `job` rows at `emq:{{<queue>}}:job:<id>` have field `data`, which the `job` record does not have"),
        format!("{c}:15:11: error[WA202]: 1 `job` row at `emq:{{<queue>}}:job:<id>` lacks field `attempts`"),
        format!("{c}:15:23: error[WA202]: 3 `job` rows at `emq:{{<queue>}}:job:<id>` lack field `payload`"),
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
}

/// A one-node cluster: `--cluster` scans its primary and finds the same.
#[test]
fn cluster_mode_scans_every_primary() {
    let Some(s) = Server::start(
        "cluster_mode_scans_every_primary",
        &[
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
        ],
    ) else {
        return;
    };
    let mut con = s.con();
    let _: () = redis::cmd("CLUSTER")
        .arg("ADDSLOTSRANGE")
        .arg(0)
        .arg(16383)
        .query(&mut con)
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let info: String = redis::cmd("CLUSTER").arg("INFO").query(&mut con).unwrap();
        if info.contains("cluster_state:ok") {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the cluster never came up"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    s.seed(wirelint::audit::seed::divergent());
    let url = s.url();
    let (code, out, err) = wirelint(
        &[
            "audit",
            "--url",
            &url,
            "--cluster",
            "--sample",
            "100",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(findings(&out), expected());
    assert!(
        notes(&out)[0].ends_with("and 15 queue members on 1 node"),
        "{:?}",
        notes(&out)
    );
    // Not a cluster: --cluster says so.
    let Some(plain) = Server::start("cluster_mode_scans_every_primary", &[]) else {
        return;
    };
    let (code, _, err) = wirelint(&["audit", "--url", &plain.url(), "--cluster"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: --cluster: CLUSTER NODES failed ("),
        "{err}"
    );
}

/// An ACL user that may not SCAN: a clear error, exit 2. A user that may
/// only read (`+@read`) audits fine.
#[test]
fn a_server_that_refuses_a_read_exits_2() {
    let Some(s) = divergent("a_server_that_refuses_a_read_exits_2") else {
        return;
    };
    let mut con = s.con();
    for rules in [
        &["nosc", "on", ">pw", "~*", "+@all", "-scan"][..],
        &[
            "reader",
            "on",
            ">pw",
            "~*",
            "-@all",
            "+@read",
            "+ping",
            "+cluster|nodes",
        ][..],
    ] {
        let _: () = redis::cmd("ACL")
            .arg("SETUSER")
            .arg(rules)
            .query(&mut con)
            .unwrap();
    }
    let url = format!("redis://nosc@127.0.0.1:{}/0", s.port);
    let (code, _, err) = wirelint(&["audit", "--url", &url], &[("REDISCLI_AUTH", "pw")]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "error: the audit of {url} stopped mid-scan: the server refused a read: "
        )) && err.contains("no permissions to run the 'scan' command"),
        "{err}"
    );
    let url = format!("redis://reader@127.0.0.1:{}/0", s.port);
    let (code, out, err) = wirelint(
        &[
            "audit", "--url", &url, "--sample", "100", "--format", "json",
        ],
        &[("REDISCLI_AUTH", "pw")],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(findings(&out), expected());
}

/// A server without `HRANDFIELD` (Redis before 6.2; here an ACL that
/// denies it) is read with `HLEN`, then `HKEYS` or `HSCAN`: the same
/// findings.
#[test]
fn without_hrandfield_hashes_are_read_with_hlen_and_hkeys() {
    let Some(s) = divergent("without_hrandfield_hashes_are_read_with_hlen_and_hkeys") else {
        return;
    };
    let mut con = s.con();
    let rules = [
        "old",
        "on",
        ">pw",
        "~*",
        "-@all",
        "+@read",
        "+ping",
        "-hrandfield",
    ];
    let _: () = redis::cmd("ACL")
        .arg("SETUSER")
        .arg(&rules[..])
        .query(&mut con)
        .unwrap();
    let _: () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query(&mut con)
        .unwrap();
    let url = format!("redis://old@127.0.0.1:{}/0", s.port);
    let (code, out, err) = wirelint(
        &[
            "audit", "--url", &url, "--sample", "100", "--format", "json",
        ],
        &[("REDISCLI_AUTH", "pw")],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(findings(&out), expected());
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query(&mut con)
        .unwrap();
    for used in ["cmdstat_hlen:", "cmdstat_hkeys:", "cmdstat_hscan:"] {
        assert!(info.contains(used), "{used} not in {info}");
    }
}

/// The audit's JSON and SARIF validate against the schemas `check`'s do.
#[test]
fn json_and_sarif_validate_against_their_schemas() {
    let Some(s) = divergent("json_and_sarif_validate_against_their_schemas") else {
        return;
    };
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(repo.join(p)).unwrap();
    // The published SARIF schema's `language` pattern has a stray `]`
    // (tests/formats.rs says more); it constrains a field we do not emit.
    let sarif_schema = read("tests/sarif-schema-2.1.0.json").replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    for (format, schema) in [
        ("json", read("docs/wirelint-output.schema.json")),
        ("sarif", sarif_schema),
    ] {
        let schema: serde_json::Value = serde_json::from_str(&schema).unwrap();
        let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
        let (_, out, _) = wirelint(&["audit", "--url", &s.url(), "--format", format], &[]);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{format}: {errors:?}");
    }
}

/// `rediss://`: a server with TLS (a CA made here, trusted through
/// `SSL_CERT_FILE`) is audited over TLS; without trusting the CA, the
/// connection fails cleanly (exit 2).
#[test]
fn rediss_urls_are_audited_over_tls() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let made = make_certificates(d);
    if !made {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED rediss_urls_are_audited_over_tls: openssl cannot make a test certificate"
        );
        return;
    }
    let tls_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let path = |f: &str| d.join(f).display().to_string();
    let (cert, key, ca) = (path("server.pem"), path("server.key"), path("ca.pem"));
    let Some(s) = Server::start(
        "rediss_urls_are_audited_over_tls",
        &[
            "--tls-port",
            &tls_port,
            "--tls-cert-file",
            &cert,
            "--tls-key-file",
            &key,
            "--tls-ca-cert-file",
            &ca,
            "--tls-auth-clients",
            "no",
        ],
    ) else {
        return;
    };
    s.seed(wirelint::audit::seed::divergent());
    let url = format!("rediss://127.0.0.1:{tls_port}/0");
    let (code, out, err) = wirelint(
        &[
            "audit", "--url", &url, "--sample", "100", "--format", "json",
        ],
        &[("SSL_CERT_FILE", &ca)],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(findings(&out), expected());
    let (code, _, err) = wirelint(&["audit", "--url", &url], &[("SSL_CERT_FILE", &cert)]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: cannot connect to {url}: "))
            && err.contains("certificate"),
        "{err}"
    );
}

/// `--match` narrows SCAN; a unix socket URL reaches the same server.
#[test]
fn match_narrows_the_scan_and_unix_sockets_work() {
    let sock_dir = tempfile::tempdir().unwrap();
    let sock = sock_dir.path().join("r.sock").display().to_string();
    let Some(s) = Server::start(
        "match_narrows_the_scan_and_unix_sockets_work",
        &["--unixsocket", &sock, "--unixsocketperm", "700"],
    ) else {
        return;
    };
    s.seed(wirelint::audit::seed::divergent());
    let url = format!("unix://{sock}?db=0");
    let (code, out, err) = wirelint(
        &[
            "audit", "--url", &url, "--match", "emq:*", "--sample", "100", "--format", "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    // The near-miss prefix and the foreign keys are not scanned.
    let codes: Vec<String> = findings(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(
        codes,
        [
            "WA102", "WA103", "WA104", "WA104", "WA201", "WA201", "WA202", "WA202", "WA301",
            "WA302"
        ]
    );
    assert_eq!(
        notes(&out)[0],
        "read 22 keys (20 of the contract's types, 0 outside the keyspace and not judged) and 15 queue members on 1 node"
    );
}

/// A CA and a server certificate for 127.0.0.1 made with `openssl` in
/// `d` (`ca.pem`, `server.pem`, `server.key`); false when it cannot.
fn make_certificates(d: &std::path::Path) -> bool {
    let openssl = |args: &[&str]| {
        std::process::Command::new("openssl")
            .args(args)
            .current_dir(d)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    std::fs::write(
        d.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
    )
    .unwrap();
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "1",
        "-subj",
        "/CN=wirelint test CA",
    ]) && openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost",
    ]) && openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "1",
        "-extfile",
        "ext.cnf",
    ])
}
