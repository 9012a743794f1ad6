//! An LSP client for the server's tests: frames in and out over the
//! binary's stdin and stdout, as an editor speaks.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    rx: Receiver<Value>,
    pub next_id: i64,
}

impl Client {
    pub fn start(root: &Path) -> Client {
        Client::start_with(root, &[])
    }

    /// The server started in `root`, with these variables set (over the
    /// shared test cache's `XDG_CACHE_HOME`).
    pub fn start_with(root: &Path, env: &[(&str, &Path)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wirelint"))
            .arg("server")
            .current_dir(root)
            .env(
                "XDG_CACHE_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
            )
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            rx,
            next_id: 1,
        }
    }

    pub fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.recv();
            if m["id"] == id {
                return m;
            }
        }
    }

    /// A hover on the first character of `needle` in line `line` (from 0)
    /// of `file`, as the file is on disk.
    pub fn hover(&mut self, file: &Path, line: usize, needle: &str) -> Value {
        let text = std::fs::read_to_string(file).unwrap();
        let character = text.lines().nth(line).unwrap().find(needle).unwrap() + 1;
        self.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(file)}, "position": {"line": line, "character": character}}),
        )
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn recv(&self) -> Value {
        self.rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// The next `n` publishDiagnostics, as `file: [CODE line, ..]` sorted.
    pub fn published(&self, root: &Path, n: usize) -> Vec<String> {
        let mut out = Vec::new();
        while out.len() < n {
            let m = self.recv();
            if m["method"] != "textDocument/publishDiagnostics" {
                continue;
            }
            out.push(Client::shown(root, &m));
        }
        out.sort();
        out
    }

    /// Every publishDiagnostics sent before the answer to a request sent
    /// now (the server handles messages in order, so this is all that the
    /// notifications before it published), as `published` shows them.
    pub fn all_published(&mut self, root: &Path) -> Vec<String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "wirelint/unknown", "params": {}}));
        let mut out = Vec::new();
        loop {
            let m = self.recv();
            if m["id"] == id {
                break;
            }
            if m["method"] == "textDocument/publishDiagnostics" {
                out.push(Client::shown(root, &m));
            }
        }
        out.sort();
        out
    }

    /// Every message sent before the answer to a request sent now.
    pub fn before_answer(&mut self) -> Vec<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "wirelint/unknown", "params": {}}));
        let mut out = Vec::new();
        loop {
            let m = self.recv();
            if m["id"] == id {
                return out;
            }
            out.push(m);
        }
    }

    /// The params of every publishDiagnostics sent before the answer to a
    /// request sent now, as they came.
    pub fn raw_published(&mut self) -> Vec<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "wirelint/unknown", "params": {}}));
        let mut out = Vec::new();
        loop {
            let m = self.recv();
            if m["id"] == id {
                return out;
            }
            if m["method"] == "textDocument/publishDiagnostics" {
                out.push(m["params"].clone());
            }
        }
    }

    pub fn shown(root: &Path, m: &Value) -> String {
        let uri = m["params"]["uri"].as_str().unwrap();
        let path = url::Url::parse(uri).unwrap().to_file_path().unwrap();
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let diags: Vec<String> = m["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {}",
                    d["code"].as_str().unwrap(),
                    d["range"]["start"]["line"]
                )
            })
            .collect();
        format!("{rel}: [{}]", diags.join(", "))
    }
}

/// A server left running by a test that failed is stopped.
impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `fixtures/four-speakers` in a fresh directory: the directory, its root,
/// `scripts/claim.lua`, that script's text, and its text with the field
/// `pb` renamed `picked_by` (which every reader of `pb` then misses).
pub fn four_speakers_renamed() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    String,
    String,
) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    super::copy_tree(&super::repo().join("fixtures/four-speakers"), &root);
    let script = root.join("scripts/claim.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let renamed = text.replace("'pb', ARGV[1]", "'picked_by', ARGV[1]");
    assert_ne!(text, renamed);
    (dir, root, script, text, renamed)
}

pub fn uri(p: &Path) -> String {
    url::Url::from_file_path(p).unwrap().to_string()
}
