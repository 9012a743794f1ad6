//! `wirelint audit` against a hostile server of our own: a loopback
//! listener that reads RESP commands and answers what each test scripts
//! (huge length headers, a reply trickled a byte a second, errors holding
//! terminal escapes and workflow commands, a SCAN cursor that never comes
//! back to 0). Each run is bounded by a generous wait; nothing is timed.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

type Answer = dyn Fn(&[Vec<u8>], &mut TcpStream) -> std::io::Result<()> + Send + Sync;

/// Starts the server; its port.
fn serve(answer: Arc<Answer>) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(s) = s else { return };
            let answer = Arc::clone(&answer);
            std::thread::spawn(move || {
                let mut out = s.try_clone().unwrap();
                let mut r = BufReader::new(s);
                while let Some(cmd) = command(&mut r) {
                    if answer(&cmd, &mut out).is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

/// One command (an array of bulk strings).
fn command(r: &mut impl BufRead) -> Option<Vec<Vec<u8>>> {
    let mut line = String::new();
    r.read_line(&mut line).ok()?;
    let n: usize = line.trim().strip_prefix('*')?.parse().ok()?;
    let mut words = Vec::new();
    for _ in 0..n {
        line.clear();
        r.read_line(&mut line).ok()?;
        let len: usize = line.trim().strip_prefix('$')?.parse().ok()?;
        let mut w = vec![0; len + 2];
        r.read_exact(&mut w).ok()?;
        w.truncate(len);
        words.push(w);
    }
    Some(words)
}

/// What a well-behaved empty server answers.
fn usual(cmd: &[Vec<u8>], out: &mut TcpStream) -> std::io::Result<()> {
    let reply: &[u8] = match cmd[0].to_ascii_uppercase().as_slice() {
        b"PING" => b"+PONG\r\n",
        b"DBSIZE" => b":0\r\n",
        b"HRANDFIELD" => b"*0\r\n",
        b"SCAN" => b"*2\r\n$1\r\n0\r\n*0\r\n",
        b"TYPE" => b"+none\r\n",
        _ => b"-ERR unknown command\r\n",
    };
    out.write_all(reply)
}

/// Runs `wirelint audit` on the port; (exit code, stdout, stderr). Killed
/// (and the test failed) if it runs two minutes.
fn audit(port: u16, extra: &[&str]) -> (i32, String, String) {
    let url = format!("redis://127.0.0.1:{port}/0");
    let mut child = Command::new(env!("CARGO_BIN_EXE_wirelint"))
        .args(["audit", "--url", &url, "--contract", "rules/echomq.toml"])
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("REDISCLI_AUTH")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the audit did not stop within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A bulk string, then an array, announced at 2^40 and followed by data:
/// refused at the header, never allocated.
#[test]
fn length_headers_over_the_limit_are_refused() {
    let port = serve(Arc::new(|cmd, out| {
        if cmd[0] == b"PING" {
            out.write_all(b"$1099511627776\r\n")?;
            out.write_all(&vec![b'x'; 1 << 20])?;
            return Ok(());
        }
        usual(cmd, out)
    }));
    let (code, _, err) = audit(port, &[]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!("error: cannot connect to redis://127.0.0.1:{port}/0: the server's reply is not valid RESP: a string of 1099511627776 bytes (the limit is 67108864)\n")
    );
    let port = serve(Arc::new(|cmd, out| {
        if cmd[0] == b"SCAN" {
            out.write_all(b"*2\r\n$1\r\n0\r\n*1099511627776\r\n")?;
            return out.write_all(&b"$1\r\nk\r\n".repeat(100_000));
        }
        usual(cmd, out)
    }));
    let (code, _, err) = audit(port, &[]);
    assert_eq!(code, 2);
    let line = format!("error: the audit of redis://127.0.0.1:{port}/0 stopped mid-scan: connection lost: the server's reply is not valid RESP: an aggregate of 1099511627776 elements (the limit is 16777216); the counts above are partial");
    assert!(err.lines().any(|l| l == line), "{err}");
}

/// A SCAN reply trickled one byte a second: cut at `--timeout` (an
/// error), and at `--time-budget` when that comes first (the budget's
/// stop, with the partial counts).
#[test]
fn a_trickled_reply_stops_at_the_timeout_and_at_the_budget() {
    let trickle = |cmd: &[Vec<u8>], out: &mut TcpStream| {
        if cmd[0] == b"SCAN" {
            for b in b"*2\r\n$1\r\n0\r\n*0\r\n" {
                out.write_all(&[*b])?;
                std::thread::sleep(Duration::from_secs(1));
            }
            return Ok(());
        }
        usual(cmd, out)
    };
    let port = serve(Arc::new(trickle));
    let (code, _, err) = audit(port, &["--timeout", "2s", "--format", "concise"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: the audit of redis://127.0.0.1:{port}/0 stopped mid-scan: connection lost: no whole reply within the timeout (--timeout); the counts above are partial\n")),
        "{err}"
    );
    let (code, out, err) = audit(
        port,
        &[
            "--timeout",
            "60s",
            "--time-budget",
            "3s",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stopped at the time budget: the counts are partial"),
        "{out}"
    );
}

const HOSTILE: &[u8] = b"-ERR \x1b[2J\x1b]0;owned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n::error file=x,line=1::INJECTED\r\n";

/// A server error holding terminal escapes and a newline with a workflow
/// command, at connect and in a reply counted in the notes: escaped in
/// every format, on stdout and stderr.
#[test]
fn server_errors_are_escaped_in_every_format() {
    let at_connect = serve(Arc::new(|cmd, out| {
        if cmd[0] == b"PING" {
            return out.write_all(HOSTILE);
        }
        usual(cmd, out)
    }));
    let in_a_reply = serve(Arc::new(|cmd, out| match cmd[0].as_slice() {
        b"SCAN" => out.write_all(b"*2\r\n$1\r\n0\r\n*1\r\n$13\r\nemq:{q}:job:1\r\n"),
        b"HRANDFIELD" if cmd[1] == b"emq:{q}:job:1" => out.write_all(HOSTILE),
        _ => usual(cmd, out),
    }));
    for format in [
        "full",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "github",
        "gitlab",
    ] {
        for port in [at_connect, in_a_reply] {
            let (code, out, err) = audit(port, &["--format", format]);
            for text in [&out, &err] {
                assert!(!text.contains('\x1b'), "{format}: {text}");
                assert!(!text.contains('\x07'), "{format}: {text}");
                assert!(
                    !text.lines().any(|l| l.starts_with("::error file=x")),
                    "{format}: {text}"
                );
            }
            // The error is shown where the format shows it: at connect in
            // every format; in a reply, among the notes of those that
            // print notes.
            let all = format!("{out}{err}");
            if port == at_connect || ["full", "json"].contains(&format) {
                assert!(all.contains("INJECTED"), "{format}: {all}");
            }
            if port == at_connect {
                assert_eq!(code, 2, "{format}");
                assert_eq!(
                    err,
                    format!("error: cannot connect to redis://127.0.0.1:{port}/0: ERR \\u{{1b}}[2J\\u{{1b}}]0;owned\\u{{7}}\\u{{1b}}]8;;http://x\\u{{1b}}\\link\\u{{1b}}]8;;\\u{{1b}}\\\\u{{a}}::error file=x,line=1::INJECTED\n")
                );
            }
        }
    }
}

/// A SCAN cursor that never comes back to 0: one that repeats stops the
/// scan at once; one that always grows stops at the default bound
/// (10,000 calls, and 10 per key DBSIZE counts: here 0).
#[test]
fn a_scan_cursor_that_never_ends_is_bounded() {
    let port = serve(Arc::new(|cmd, out| {
        if cmd[0] == b"SCAN" {
            return out.write_all(b"*2\r\n$2\r\n17\r\n*0\r\n");
        }
        usual(cmd, out)
    }));
    let (code, out, err) = audit(port, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stopped: the server's SCAN cursor came back to a value it had given before (a loop), not to 0: the counts are partial"),
        "{out}"
    );
    let calls = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&calls);
    let port = serve(Arc::new(move |cmd, out| {
        if cmd[0] == b"SCAN" {
            let n = seen.fetch_add(1, Ordering::Relaxed) + 1;
            let c = n.to_string();
            let reply = format!("*2\r\n${}\r\n{c}\r\n*0\r\n", c.len());
            return out.write_all(reply.as_bytes());
        }
        usual(cmd, out)
    }));
    let (code, out, err) = audit(port, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stopped after 10000 SCAN calls on one node (10,000 and 10 per key DBSIZE counted) without the cursor coming back to 0: the counts are partial"),
        "{out}"
    );
    assert_eq!(calls.load(Ordering::Relaxed), 10_000);
}

/// A `TYPE` reply holding a newline, a workflow command and an escape: the
/// type name is escaped where the audit reads it, in every format (the
/// JSON formats too, as the audit shows keys).
#[test]
fn a_type_name_from_the_server_is_escaped_in_every_format() {
    let port = serve(Arc::new(|cmd, out| match cmd[0].as_slice() {
        b"SCAN" => out.write_all(b"*2\r\n$1\r\n0\r\n*1\r\n$15\r\nemq:{q}:pending\r\n"),
        b"TYPE" => out.write_all(b"$40\r\nstr\n::error file=x,line=1::INJECTED\x1b[31m\r\n"),
        _ => usual(cmd, out),
    }));
    let shown = "holds a str\\u{a}::error file=x,line=1::INJECTED\\u{1b}[31m, not a zset";
    for format in [
        "full",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "github",
        "gitlab",
    ] {
        let (code, out, err) = audit(port, &["--format", format]);
        assert_eq!(code, 1, "{format}: {err}");
        for text in [&out, &err] {
            assert!(!text.contains('\x1b'), "{format}: {text}");
            assert!(
                !text
                    .lines()
                    .any(|l| l.trim_start().starts_with("::error file=x")),
                "{format}: {text}"
            );
        }
        let all = format!("{out}{err}");
        let expected = match format {
            // Wrapped at its spaces.
            "full" => "holds a str\\u{a}::error".to_string(),
            "concise" | "github" => shown.to_string(),
            // A JSON string writes `\` as `\\`.
            _ => shown.replace('\\', "\\\\"),
        };
        assert!(all.contains(&expected), "{format}: {all}");
    }
    let (_, out, _) = audit(port, &["--format", "concise"]);
    assert_eq!(
        out,
        format!("rules/echomq.toml:38:11: error[WA104]: 1 `pending` key at `emq:{{<queue>}}:pending` {shown}: every command on it fails with WRONGTYPE\n")
    );
}
