//! `wirelint server` spoken to over stdio as an editor would: initialize,
//! open, change, shutdown. A field renamed in a shared script lights up its
//! readers in three other files of three speakers, and undoing the rename
//! clears them.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use common::lsp::{four_speakers_renamed, uri, Client};

/// A frame that is not JSON gets a parse error, and an unknown request a
/// protocol error, not an exit: the server reads on.
fn errors_are_answered_and_the_server_reads_on(c: &mut Client) {
    write!(c.stdin, "Content-Length: 8\r\n\r\n{{broken:").unwrap();
    c.stdin.flush().unwrap();
    let m = c.recv();
    assert_eq!(
        (m["id"].clone(), m["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
    let r = c.request("wirelint/unknown", json!({}));
    assert_eq!(r["error"]["code"], -32601);
}

#[test]
fn a_renamed_field_lights_up_its_readers_in_other_files_and_clears() {
    let (_dir, root, script, text, renamed) = four_speakers_renamed();

    let mut c = Client::start(&root);
    let init = c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    assert_eq!(
        init["result"]["capabilities"]["textDocumentSync"]["change"],
        1
    );
    c.notify("initialized", json!({}));
    let doc = json!({"uri": uri(&script), "languageId": "lua", "version": 1, "text": text});
    c.notify("textDocument/didOpen", json!({"textDocument": doc}));

    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&script), "version": 2},
               "contentChanges": [{"text": renamed}]}),
    );
    assert_eq!(
        c.published(&root, 3),
        [
            "tq_dash/lib/dash.ex: [WL203 4]",
            "tq_ex/lib/tq.ex: [WL203 15]",
            "tq_rs/src/lib.rs: [WL203 37]",
        ]
    );

    // A quick fix: a suppression, with a reason to write, on the line before.
    let dash = root.join("tq_dash/lib/dash.ex");
    let pos = json!({"line": 4, "character": 0});
    let d = json!({"source": "wirelint", "code": "WL203", "message": "m",
                   "range": {"start": pos, "end": pos}});
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&dash)}, "range": {"start": pos, "end": pos},
               "context": {"diagnostics": [d]}}),
    );
    let action = &r["result"][0];
    assert_eq!(
        action["title"],
        "Suppress WL203 on this line (with a reason)"
    );
    assert_eq!(
        action["edit"]["changes"][uri(&dash)][0]["newText"],
        "    # wirelint: allow(WL203) reason: \n"
    );

    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&script), "version": 3},
               "contentChanges": [{"text": text}]}),
    );
    assert_eq!(
        c.published(&root, 3),
        [
            "tq_dash/lib/dash.ex: []",
            "tq_ex/lib/tq.ex: []",
            "tq_rs/src/lib.rs: []",
        ]
    );

    // Hover on a field a speaker writes: who uses it, who diverges.
    let tq = root.join("tq_ex/lib/tq.ex");
    let r = c.hover(&tq, 9, "\"status\"");
    assert_eq!(
        r["result"]["contents"]["value"],
        "**field** `tq:{<*>}:task:<*> status`\n\n- `(shared scripts)`: agrees\n- `tq_admin`: agrees\n- `tq_dash`: agrees\n- `tq_ex`: agrees\n- `tq_rs`: agrees\n\n\
         written by: `(shared scripts)` (scripts/claim.lua:7), `tq_admin` (tq_admin/src/main.rs:14), `tq_ex` (tq_ex/lib/tq.ex:10, tq_ex/lib/tq.ex:24), `tq_rs` (tq_rs/src/lib.rs:24)\n\n\
         read by: `tq_dash` (tq_dash/lib/dash.ex:5), `tq_ex` (tq_ex/lib/tq.ex:16)"
    );
    // Go to definition: from a call site to the script it runs.
    let rs = root.join("tq_rs/src/lib.rs");
    let r = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&rs)}, "position": {"line": 28, "character": 8}}),
    );
    assert_eq!(r["result"]["uri"], uri(&script));
    assert_eq!(r["result"]["range"]["start"]["line"], 0);

    errors_are_answered_and_the_server_reads_on(&mut c);

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    let status = c.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    // The file on disk was never written.
    assert_eq!(std::fs::read_to_string(&script).unwrap(), text);
}

/// Two documents changed in the editor and not saved: the script renames a
/// field and one reader follows it. Each is overlaid on its file, so the
/// reader that follows is clean while the others still break, and saving
/// nothing leaves the disk as it was.
#[test]
fn two_unsaved_buffers_are_read_together() {
    let (_dir, root, script, script_text, renamed) = four_speakers_renamed();
    let tq = root.join("tq_ex/lib/tq.ex");
    let tq_text = std::fs::read_to_string(&tq).unwrap();
    let followed = tq_text.replace("\"tries\", \"pb\"]", "\"tries\", \"picked_by\"]");
    assert_ne!(tq_text, followed);

    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    for (p, text, lang) in [(&script, &script_text, "lua"), (&tq, &tq_text, "elixir")] {
        let doc = json!({"uri": uri(p), "languageId": lang, "version": 1, "text": text});
        c.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }
    assert_eq!(c.all_published(&root), Vec::<String>::new());

    let change = |c: &mut Client, p: &Path, version: i64, text: &str| {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(p), "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    };
    change(&mut c, &script, 2, &renamed);
    assert_eq!(
        c.all_published(&root),
        [
            "tq_dash/lib/dash.ex: [WL203 4]",
            "tq_ex/lib/tq.ex: [WL203 15]",
            "tq_rs/src/lib.rs: [WL203 37]",
        ]
    );
    // The reader follows the rename: clean, as long as the script's buffer
    // still stands in for the script; the other readers still break.
    change(&mut c, &tq, 2, &followed);
    assert_eq!(c.all_published(&root), ["tq_ex/lib/tq.ex: []"]);
    // The script's rename undone, the reader that followed is the one
    // that breaks.
    change(&mut c, &script, 3, &script_text);
    assert_eq!(
        c.all_published(&root),
        [
            "tq_dash/lib/dash.ex: []",
            "tq_ex/lib/tq.ex: [WL203 15]",
            "tq_rs/src/lib.rs: []",
        ]
    );
    change(&mut c, &tq, 3, &tq_text);
    assert_eq!(c.all_published(&root), ["tq_ex/lib/tq.ex: []"]);

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
    assert_eq!(std::fs::read_to_string(&script).unwrap(), script_text);
    assert_eq!(std::fs::read_to_string(&tq).unwrap(), tq_text);
}

/// The code actions for the one diagnostic of `code` published on `file`
/// after `text` replaces its buffer.
fn actions_after_change(c: &mut Client, file: &Path, text: &str, code: &str) -> Vec<Value> {
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(file), "version": 2},
               "contentChanges": [{"text": text}]}),
    );
    let published = c.raw_published();
    let diags: Vec<&Value> = published
        .iter()
        .filter(|p| p["uri"] == uri(file))
        .flat_map(|p| p["diagnostics"].as_array().unwrap())
        .filter(|d| d["code"] == code)
        .collect();
    assert_eq!(diags.len(), 1, "{published:?}");
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(file)}, "range": diags[0]["range"],
               "context": {"diagnostics": [diags[0]]}}),
    );
    // A request that carries no diagnostic gets the same actions, from the
    // server's own findings at the range.
    let bare = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(file)}, "range": diags[0]["range"],
               "context": {"diagnostics": []}}),
    );
    assert_eq!(bare["result"], r["result"]);
    r["result"].as_array().unwrap().clone()
}

/// Where the fix has one right answer, a quick fix replaces exactly the
/// misspelt bytes with the contract's spelling, from the same edits as
/// `check --fix`: a field one edit from `payload` (a suggestion, not
/// preferred), a prefix one edit from `emq:` (safe, preferred). A field as near to two of the record's
/// fields (`stape`: `state`, `stage`) gets no replacement, only the
/// suppression.
#[test]
fn a_near_miss_of_the_contract_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/echomq"), &root);
    let contract = std::fs::read_to_string(common::repo().join("rules/echomq.toml")).unwrap();
    let contract = contract.replace(
        r#"fields = ["state", "attempts", "payload"]"#,
        r#"fields = ["state", "stage", "attempts", "payload"]"#,
    );
    std::fs::write(root.join("contract.toml"), contract).unwrap();
    std::fs::write(root.join("wirelint.toml"), "contract = \"contract.toml\"\n").unwrap();
    let worker = root.join("peers/worker/src/main.rs");
    let keyspace = root.join("echo_mq/lib/echo_mq/keyspace.ex");
    let worker_text = std::fs::read_to_string(&worker).unwrap();
    let keyspace_text = std::fs::read_to_string(&keyspace).unwrap();

    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    for (p, text, lang) in [
        (&worker, &worker_text, "rust"),
        (&keyspace, &keyspace_text, "elixir"),
    ] {
        let doc = json!({"uri": uri(p), "languageId": lang, "version": 1, "text": text});
        c.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    let misspelt = worker_text.replace(r#"arg("payload")"#, r#"arg("payloud")"#);
    assert_ne!(misspelt, worker_text);
    let actions = actions_after_change(&mut c, &worker, &misspelt, "WL201");
    assert_eq!(actions.len(), 2);
    assert_eq!(
        actions[0]["title"],
        "Replace `payloud` with the contract's `payload`"
    );
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["isPreferred"], false);
    assert_eq!(
        actions[0]["edit"]["changes"],
        json!({uri(&worker): [{"range": {"start": {"line": 22, "character": 52},
                                         "end": {"line": 22, "character": 59}},
                               "newText": "payload"}]})
    );
    assert!(actions[1]["title"]
        .as_str()
        .unwrap()
        .starts_with("Suppress WL201"));

    let misspelt = keyspace_text.replace(r#""emq:{""#, r#""emk:{""#);
    assert_ne!(misspelt, keyspace_text);
    let actions = actions_after_change(&mut c, &keyspace, &misspelt, "WL101");
    assert_eq!(actions.len(), 2);
    assert_eq!(
        actions[0]["title"],
        "Replace `emk:` with the contract's `emq:`"
    );
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(
        actions[0]["edit"]["changes"],
        json!({uri(&keyspace): [{"range": {"start": {"line": 8, "character": 30},
                                           "end": {"line": 8, "character": 34}},
                                 "newText": "emq:"}]})
    );

    let tied = worker_text.replace(r#"arg("payload")"#, r#"arg("stape")"#);
    let actions = actions_after_change(&mut c, &worker, &tied, "WL201");
    assert_eq!(actions.len(), 1);
    assert!(actions[0]["title"]
        .as_str()
        .unwrap()
        .starts_with("Suppress WL201"));
    assert!(actions[0].get("isPreferred").is_none());

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}

/// A real client: headless Neovim (0.7 or later) attaches the server to the
/// shared script, renames a field in the buffer, and reads back the
/// diagnostics it received for the other files. Skips, saying so, where
/// `nvim` is not installed.
#[test]
fn neovim_reads_back_the_diagnostics_of_other_files() {
    if Command::new("nvim").arg("--version").output().is_err() {
        eprintln!("SKIPPED neovim: `nvim` is not installed (apt-get install neovim)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &root);
    let out = root.join("diagnostics.txt");
    let init = common::repo().join("tests/server/nvim_init.lua");
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", init.display()))
        .current_dir(&root)
        .env("WL_ROOT", &root)
        .env("WL_OUT", &out)
        .env("WL_BIN", env!("CARGO_BIN_EXE_wirelint"))
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The Lua waits at most 30 s; never let a stuck editor hang the suite.
    let mut child = status;
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("neovim did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "tq_dash/lib/dash.ex:5 WL203\ntq_ex/lib/tq.ex:16 WL203\ntq_rs/src/lib.rs:38 WL203\n"
    );
}

/// The server's diagnostics, file by file, as the last publish of each left
/// them (an empty list clears a file), kept up to date by `track`.
#[derive(Default)]
struct Shown(std::collections::BTreeMap<String, Vec<String>>);

impl Shown {
    /// Takes in every publish sent before the answer to a request sent now.
    fn track(&mut self, c: &mut Client, root: &Path) {
        for p in c.raw_published() {
            let path = url::Url::parse(p["uri"].as_str().unwrap())
                .unwrap()
                .to_file_path()
                .unwrap();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let diags: Vec<String> = p["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| lsp_line(&rel, d, &format!("{}/", uri(root))))
                .collect();
            self.0.insert(rel, diags);
        }
        self.0.retain(|_, d| !d.is_empty());
    }

    fn all(&self) -> Vec<String> {
        let mut out: Vec<String> = self.0.values().flatten().cloned().collect();
        out.sort();
        out
    }
}

/// One diagnostic as a line: where, code, severity, message (with its
/// help), and its related spans (their URIs without `base`). Positions are
/// 0-based; the fixtures are ASCII, so a character is a byte.
fn lsp_line(rel: &str, d: &Value, base: &str) -> String {
    let at = |r: &Value| {
        format!(
            "{}:{}-{}:{}",
            r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"]
        )
    };
    let related: Vec<String> = d["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let uri = r["location"]["uri"].as_str().unwrap();
            let file = uri.strip_prefix(base).unwrap_or(uri);
            format!("{file} {} {}", at(&r["location"]["range"]), r["message"])
        })
        .collect();
    format!(
        "{rel} {} {} {} {} | {}",
        at(&d["range"]),
        d["code"],
        d["severity"],
        d["message"],
        related.join("; ")
    )
}

/// What `wirelint check --format json` finds in `dir`, as `lsp_line` shows
/// the server's.
fn check_lines(dir: &Path) -> Vec<String> {
    let (_, out, _) = common::run(&["check", "--format", "json", "--no-cache", "."], dir);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let pos = |s: &Value| {
        json!({
            "start": {"line": s["start"]["line"].as_u64().unwrap() - 1,
                      "character": s["start"]["column"].as_u64().unwrap() - 1},
            "end": {"line": s["end"]["line"].as_u64().unwrap() - 1,
                    "character": s["end"]["column"].as_u64().unwrap() - 1},
        })
    };
    let mut out: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let mut message = d["message"].as_str().unwrap().to_string();
            if let Some(h) = d["help"].as_str() {
                message.push_str("\nhelp: ");
                message.push_str(h);
            }
            let related: Vec<Value> = d["related"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    json!({"location": {"uri": r["path"],
                                        "range": pos(&r["span"])},
                           "message": r["message"]})
                })
                .collect();
            let lsp = json!({
                "range": pos(&d["span"]),
                "code": d["code"],
                "severity": if d["severity"] == "error" { 1 } else { 2 },
                "message": message,
                "relatedInformation": related,
            });
            lsp_line(d["path"].as_str().unwrap(), &lsp, "")
        })
        .collect();
    out.sort();
    out
}

/// The four speakers, and `tq_ex`'s own copy of the shared claim script,
/// run through a wrapper of its own.
fn five_copies(root: &Path) {
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), root);
    let lua = std::fs::read_to_string(root.join("scripts/claim.lua")).unwrap();
    let body: String = lua.lines().map(|l| format!("    {l}\n")).collect();
    let claim = format!(
        "defmodule TQ.Claim do\n  @moduledoc \"tq's own copy of the claim script.\"\n\n  @claim ~S\"\"\"\n{body}    \"\"\"\n\n  def claim(conn, queue, worker) do\n    keys = [TQ.ready_key(queue), TQ.inflight_key(queue, worker), \"tq:{{#{{queue}}}}:task:\"]\n    run(conn, @claim, keys, [worker])\n  end\n\n  defp run(conn, script, keys, args) do\n    Redix.command(conn, [\"EVAL\", script, length(keys) | keys ++ args])\n  end\nend\n"
    );
    std::fs::write(root.join("tq_ex/lib/claim.ex"), claim).unwrap();
}

/// After each of a sequence of edits, the server's diagnostics (kept
/// between runs: the facts, the file list, each speaker's linked call
/// sites) are those of a fresh `check` of the same texts on disk: an edit
/// of the shared script that makes `tq_ex`'s copy diverge, an edit of
/// `tq_ex`'s wrapper call, of a reader in another speaker, and their undos.
#[test]
fn after_each_edit_the_server_shows_what_a_fresh_check_finds() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    five_copies(&root);
    let fresh = tempfile::tempdir().unwrap();
    five_copies(fresh.path());
    let script = "scripts/claim.lua";
    let claim = "tq_ex/lib/claim.ex";
    let reader = "tq_rs/src/lib.rs";
    let text = |rel: &str| std::fs::read_to_string(root.join(rel)).unwrap();
    let (script0, claim0, reader0) = (text(script), text(claim), text(reader));
    let diverged = script0.replace("'tries', 1)", "'tries', 2)");
    let short = claim0.replace(", \"tq:{#{queue}}:task:\"]", "]");
    let misread = reader0.replace("id), \"pb\")", "id), \"pbx\")");
    for (a, b) in [
        (&script0, &diverged),
        (&claim0, &short),
        (&reader0, &misread),
    ] {
        assert_ne!(a, b);
    }

    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let mut shown = Shown::default();
    let mut versions = std::collections::BTreeMap::new();
    for rel in [script, claim, reader] {
        let doc = json!({"uri": uri(&root.join(rel)), "languageId": "x", "version": 1, "text": text(rel)});
        c.notify("textDocument/didOpen", json!({"textDocument": doc}));
        versions.insert(rel, 1);
    }
    shown.track(&mut c, &root);
    assert_eq!(shown.all(), check_lines(fresh.path()));
    assert_eq!(shown.all(), Vec::<String>::new());

    let steps: [(&str, &str, &[&str]); 7] = [
        (script, &diverged, &["WL305"]),
        (claim, &short, &["WL305", "WL"]),
        (reader, &misread, &["WL305", "WL"]),
        (script, &script0, &["WL"]),
        (claim, &claim0, &["WL"]),
        (reader, &reader0, &[]),
        (script, &diverged, &["WL305"]),
    ];
    for (rel, new, codes) in steps {
        let v = versions.get_mut(rel).unwrap();
        *v += 1;
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(&root.join(rel)), "version": *v},
                   "contentChanges": [{"text": new}]}),
        );
        std::fs::write(fresh.path().join(rel), new).unwrap();
        shown.track(&mut c, &root);
        let expected = check_lines(fresh.path());
        assert_eq!(shown.all(), expected, "after {rel} became version {v}");
        // Each step shows the findings it is about, not merely no change.
        for code in codes {
            assert!(
                expected.iter().any(|l| l.contains(&format!("\"{code}"))),
                "{code} after {rel} version {v}: {expected:#?}"
            );
        }
        if codes.is_empty() {
            assert_eq!(expected, Vec::<String>::new());
        }
    }

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
    assert_eq!(text(script), script0);
}

/// The file list is kept between runs: a file created on disk is read once
/// the client says files changed (`didChangeWatchedFiles`, which the
/// server asks a client that can to send), or when a document at its path
/// is saved; until then it is not.
#[test]
fn a_new_file_is_read_once_the_client_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &root);
    let mut c = Client::start(&root);
    let caps = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    c.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                  "params": {"processId": null, "rootUri": uri(&root), "capabilities": caps}}));
    loop {
        if c.recv()["id"] == 0 {
            break;
        }
    }
    c.notify("initialized", json!({}));
    let reg = c.recv();
    assert_eq!(reg["method"], "client/registerCapability");
    let r = &reg["params"]["registrations"][0];
    assert_eq!(r["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = r["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert_eq!(
        globs,
        [
            "**/*.{ex,exs,rs,lua,py,js,mjs,cjs,jsx,ts,mts,cts,tsx,go,rb}",
            "**/*.toml",
            "**/setup.cfg",
            "**/package.json",
            "**/go.mod",
            "**/Gemfile",
            "**/.gitignore",
            "**/.ignore"
        ]
    );
    c.send(json!({"jsonrpc": "2.0", "id": reg["id"], "result": null}));
    assert_eq!(c.all_published(&root), Vec::<String>::new());

    // A reader of a field nobody writes, written to disk behind the
    // server's back: not seen while nothing says the files changed.
    let extra = root.join("tq_dash/lib/extra.ex");
    std::fs::write(
        &extra,
        "defmodule TQDash.Extra do\n  def owner(conn, queue, id) do\n    Redix.command(conn, [\"HGET\", \"tq:{#{queue}}:task:#{id}\", \"owner\"])\n  end\nend\n",
    )
    .unwrap();
    let tq = root.join("tq_ex/lib/tq.ex");
    let tq_text = std::fs::read_to_string(&tq).unwrap();
    let doc = json!({"uri": uri(&tq), "languageId": "elixir", "version": 1, "text": tq_text});
    c.notify("textDocument/didOpen", json!({"textDocument": doc}));
    assert_eq!(c.all_published(&root), Vec::<String>::new());
    // A file changed in place leaves the list as it is (the refresh reads
    // the files it lists again); one created makes it stale.
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&extra), "type": 2}]}),
    );
    assert_eq!(c.all_published(&root), Vec::<String>::new());
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&extra), "type": 1}]}),
    );
    assert_eq!(c.all_published(&root), ["tq_dash/lib/extra.ex: [WL203 2]"]);

    // Gone again, and another one saved from the editor: the save alone
    // makes the server list the files again.
    std::fs::remove_file(&extra).unwrap();
    let other = root.join("tq_dash/lib/other.ex");
    let other_text = "defmodule TQDash.Other do\n  def owner(conn, queue, id), do: Redix.command(conn, [\"HGET\", \"tq:{#{queue}}:task:#{id}\", \"holder\"])\nend\n";
    std::fs::write(&other, other_text).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&other)}, "text": other_text}),
    );
    assert_eq!(
        c.all_published(&root),
        [
            "tq_dash/lib/extra.ex: []",
            "tq_dash/lib/other.ex: [WL203 1]"
        ]
    );

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}

/// Past 16 speakers, a hover names the speakers that use the item and
/// counts the others.
#[test]
fn a_hover_over_many_speakers_counts_those_not_using_the_item() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::crates(&root, 17);
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let lib = root.join("c00/src/lib.rs");
    let r = c.hover(&lib, 1, "\"state\"");
    let agree: String = (0..16).map(|i| format!("\n- `c{i:02}`: agrees")).collect();
    let written: Vec<String> = (0..8)
        .map(|i| format!("`c{i:02}` (c{i:02}/src/lib.rs:2)"))
        .collect();
    let written = written.join(", ");
    assert_eq!(
        r["result"]["contents"]["value"],
        format!("**field** `emq:{{<*>}}:job:<*> state`\n{agree}\n- 1 other speaker: unused\n\nwritten by: {written}, 8 other speakers")
    );
    let r = c.request("shutdown", json!(null));
    assert!(r["error"].is_null());
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}
