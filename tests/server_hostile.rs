//! `wirelint server` against a hostile editor: positions past any line,
//! broken frames, documents that are devices, FIFOs or too large, queues
//! of changes, buffers with no file, invalid UTF-8, the end of the
//! session, and no workspace at all. Each case is spoken over stdio by a
//! real client; every run is bounded by the client's one-minute wait for
//! an answer.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use common::lsp::{uri, Client};

/// A copy of the four-speakers fixture, and a server started on it.
fn start() -> (tempfile::TempDir, PathBuf, Client) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &root);
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    (dir, root, c)
}

fn open(c: &mut Client, p: &Path, lang: &str, text: &str) {
    let doc = json!({"uri": uri(p), "languageId": lang, "version": 1, "text": text});
    c.notify("textDocument/didOpen", json!({"textDocument": doc}));
}

fn change(c: &mut Client, p: &Path, version: i64, text: &str) {
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(p), "version": version},
               "contentChanges": [{"text": text}]}),
    );
}

fn stop(mut c: Client) {
    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}

const FIELD_HOVER: &str = "**field** `tq:{<*>}:task:<*> status`\n\n- `(shared scripts)`: agrees\n- `tq_admin`: agrees\n- `tq_dash`: agrees\n- `tq_ex`: agrees\n- `tq_rs`: agrees\n\n\
written by: `(shared scripts)` (scripts/claim.lua:7), `tq_admin` (tq_admin/src/main.rs:14), `tq_ex` (tq_ex/lib/tq.ex:10, tq_ex/lib/tq.ex:24), `tq_rs` (tq_rs/src/lib.rs:24)\n\n\
read by: `tq_dash` (tq_dash/lib/dash.ex:5), `tq_ex` (tq_ex/lib/tq.ex:16)";

/// Line and character 2^64-1 in every request that takes a position: an
/// answer with nothing in it, and the server goes on answering.
#[test]
fn positions_past_every_line_are_answered_and_the_server_goes_on() {
    let (_dir, root, mut c) = start();
    let tq = root.join("tq_ex/lib/tq.ex");
    let far = json!({"line": u64::MAX, "character": u64::MAX});
    let end_of_line = json!({"line": 9, "character": u64::MAX});
    for pos in [&far, &end_of_line] {
        let at = json!({"textDocument": {"uri": uri(&tq)}, "position": pos});
        let r = c.request("textDocument/hover", at.clone());
        assert_eq!(r["result"], Value::Null, "{r}");
        let r = c.request("textDocument/definition", at);
        assert_eq!(r["result"], Value::Null, "{r}");
    }
    let d = json!({"source": "wirelint", "code": "WL203", "message": "m",
                   "range": {"start": far, "end": far}});
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&tq)}, "range": {"start": far, "end": far},
               "context": {"diagnostics": [d]}}),
    );
    assert_eq!(r["result"], json!([]), "{r}");
    // A position that is in the file, with a diagnostic at line 2^64-1:
    // the suppression goes at that line, with no indentation.
    let start = json!({"line": 0, "character": 0});
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&tq)}, "range": {"start": start, "end": start},
               "context": {"diagnostics": [d]}}),
    );
    assert_eq!(
        r["result"][0]["edit"]["changes"][uri(&tq)][0]["newText"],
        "# wirelint: allow(WL203) reason: \n"
    );
    let r = c.hover(&tq, 9, "\"status\"");
    assert_eq!(r["result"]["contents"]["value"], FIELD_HOVER);
    stop(c);
}

/// A frame whose `Content-Length` is negative, not a number, a decimal
/// fraction or missing is answered with a parse error; the frame after it
/// is read as usual.
#[test]
fn a_bad_content_length_does_not_lose_the_stream() {
    let (_dir, _root, mut c) = start();
    for header in [
        "Content-Length: -5\r\n",
        "Content-Length: abc\r\n",
        "Content-Length: 12.0\r\n",
        "Content-Type: application/json\r\n",
    ] {
        let body = r#"{"jsonrpc":"2.0","id":99,"method":"wirelint/unknown"}"#;
        write!(c.stdin, "{header}\r\n{body}").unwrap();
        c.stdin.flush().unwrap();
        let m = c.recv();
        assert_eq!(
            (m["id"].clone(), m["error"]["code"].clone()),
            (Value::Null, json!(-32700)),
            "{header}"
        );
        let r = c.request("wirelint/unknown", json!({}));
        assert_eq!(r["error"]["code"], -32601, "{header}: {r}");
    }
    stop(c);
}

/// `didOpen` of `/dev/zero` (outside the root) and of a FIFO inside it:
/// neither is read from, and the server answers the next request.
#[cfg(unix)]
#[test]
fn documents_that_are_devices_or_fifos_are_never_read() {
    let (_dir, root, mut c) = start();
    let fifo = root.join("scripts/pipe.lua");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    open(&mut c, Path::new("/dev/zero"), "lua", "return 1\n");
    open(&mut c, &fifo, "lua", "return 1\n");
    assert_eq!(c.all_published(&root), Vec::<String>::new());
    stop(c);
}

/// 200 changes sent behind one another: the server ends on the last
/// version, and analyses far fewer versions than it was sent. How many it
/// coalesces depends on how fast the client writes against how fast the
/// server runs, so the test asserts no exact count: without coalescing
/// every file would be published once per version (the two versions
/// alternate), 200 times.
#[test]
fn queued_changes_are_analysed_once_on_the_last_version() {
    let (_dir, root, script, text, renamed) = common::lsp::four_speakers_renamed();
    let mut c = Client::start(&root);
    c.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                  "params": {"processId": null, "rootUri": uri(&root), "capabilities": {}}}));
    c.notify("initialized", json!({}));
    open(&mut c, &script, "lua", &text);
    for v in 2..202 {
        let t = if v % 2 == 1 { &renamed } else { &text };
        change(&mut c, &script, v, t);
    }
    let mut last: std::collections::BTreeMap<String, String> = Default::default();
    let mut count: std::collections::BTreeMap<String, usize> = Default::default();
    for params in c.raw_published() {
        let shown = Client::shown(&root, &json!({ "params": params }));
        let file = shown.split(": ").next().unwrap().to_string();
        *count.entry(file.clone()).or_default() += 1;
        last.insert(file, shown);
    }
    assert_eq!(
        last.into_values().collect::<Vec<_>>(),
        [
            "tq_dash/lib/dash.ex: [WL203 4]",
            "tq_ex/lib/tq.ex: [WL203 15]",
            "tq_rs/src/lib.rs: [WL203 37]",
        ]
    );
    assert!(count.values().all(|n| *n < 100), "{count:?}");
    stop(c);
}

/// An open document over 8 MiB is not kept: one warning on it says so,
/// and the server answers on.
#[test]
fn a_document_over_the_size_limit_is_one_warning() {
    let (_dir, root, mut c) = start();
    let big = root.join("scripts/big.lua");
    let text = format!("return 1\n{}", "-".repeat(8 << 20));
    open(&mut c, &big, "lua", &text);
    let published = c.raw_published();
    assert_eq!(published.len(), 1, "{published:?}");
    assert_eq!(published[0]["uri"], uri(&big));
    let d = &published[0]["diagnostics"];
    assert_eq!(d.as_array().unwrap().len(), 1);
    assert_eq!(d[0]["severity"], 2);
    assert_eq!(
        d[0]["message"],
        "not checked: this buffer's 8388617 bytes are over the 8388608 byte limit (the default --max-file-size); the rest of the workspace is checked against the file on disk"
    );
    // Back under the limit, it is checked: nothing to say.
    change(&mut c, &big, 2, "return 1\n");
    assert_eq!(c.all_published(&root), ["scripts/big.lua: []"]);
    stop(c);
}

/// A buffer whose file was deleted, and one never saved, keep their
/// findings, as `--stdin-filename` reports them.
#[test]
fn buffers_without_a_file_keep_their_diagnostics() {
    let (_dir, root, mut c) = start();
    let tq = root.join("tq_ex/lib/tq.ex");
    let text = std::fs::read_to_string(&tq)
        .unwrap()
        .replace("\"tries\", \"pb\"]", "\"tries\", \"pbx\"]");
    std::fs::remove_file(&tq).unwrap();
    open(&mut c, &tq, "elixir", &text);
    assert_eq!(c.all_published(&root), ["tq_ex/lib/tq.ex: [WL203 15]"]);
    let new = root.join("tq_ex/lib/extra.ex");
    let extra = "defmodule Extra do\n  def pbx(conn, q, id),\n    do: Redix.command(conn, [\"HGET\", \"tq:{#{q}}:task:#{id}\", \"pby\"])\nend\n";
    open(&mut c, &new, "elixir", extra);
    assert_eq!(c.all_published(&root), ["tq_ex/lib/extra.ex: [WL203 2]"]);
    stop(c);
}

/// A hover on a line holding invalid UTF-8 before the item: the editor
/// counts one character for each invalid sequence, and so does the server.
#[test]
fn a_hover_after_invalid_utf8_on_its_line_finds_its_item() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &root);
    let tq = root.join("tq_ex/lib/tq.ex");
    let text = std::fs::read(&tq).unwrap();
    let needle = b"[\"HSET\", task_key(queue, id), \"status\"";
    let at = text
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap();
    let junk: &[u8] = b"_ = \"\xff\xfe\xfd\xfc\xe2\x82\xff\xff\xff\xff\xff\xff\"; ";
    let mut bad = text[..at].to_vec();
    bad.extend_from_slice(junk);
    bad.extend_from_slice(&text[at..]);
    std::fs::write(&tq, &bad).unwrap();
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    let line_start = bad[..at].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let status = at + junk.len() + needle.len() - "\"status\"".len() + 1;
    let line = bad[..at].iter().filter(|&&b| b == b'\n').count();
    let character = String::from_utf8_lossy(&bad[line_start..status])
        .encode_utf16()
        .count();
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&tq)}, "position": {"line": line, "character": character}}),
    );
    assert_eq!(r["result"]["contents"]["value"], FIELD_HOVER, "{r}");
    stop(c);
}

/// `exit` without `shutdown` exits 1; a request after `shutdown` is an
/// error, not silence.
#[test]
fn the_end_of_a_session_follows_the_protocol() {
    let (_dir, _root, mut c) = start();
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(1));

    let (_dir, _root, mut c) = start();
    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert_eq!(
        r["error"]["message"],
        "the server is shutting down (`shutdown` came before)"
    );
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}

/// Started in `/` with no workspace: nothing is walked, the editor is told
/// why, and requests are answered.
#[test]
fn no_workspace_in_the_root_directory_walks_nothing() {
    let mut c = Client::start(Path::new("/"));
    let r = c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    assert_eq!(r["result"]["capabilities"]["hoverProvider"], true);
    let m = c.recv();
    assert_eq!(m["method"], "window/showMessage");
    assert_eq!(
        m["params"]["message"],
        "wirelint: the editor named no workspace folder and the current directory is in no git repository, so nothing is checked; open a folder"
    );
    let r = c.request("wirelint/unknown", json!({}));
    assert_eq!(r["error"]["code"], -32601);
    stop(c);
}

/// The Elixir of a file never saved with one finding (WL203 on line 2).
const EXTRA: &str = "defmodule Extra do\n  def pbx(conn, q, id),\n    do: Redix.command(conn, [\"HGET\", \"tq:{#{q}}:task:#{id}\", \"pby\"])\nend\n";

/// The `window/showMessage` texts among `messages`, and what the
/// `publishDiagnostics` among them show (as `Client::shown`, sorted).
fn sorted(root: &Path, messages: &[Value]) -> (Vec<String>, Vec<String>) {
    let shown = messages
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .map(|m| format!("{} {}", m["params"]["type"], m["params"]["message"]))
        .collect();
    let mut published: Vec<String> = messages
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .map(|m| Client::shown(root, m))
        .collect();
    published.sort();
    (shown, published)
}

/// The warning for a document past the budget.
fn past_the_budget(path: &Path, over: &str) -> String {
    format!(
        "2 \"wirelint: {} is not checked as edited: {over}. It and every document opened past the budget are checked as their files on disk until documents are closed\"",
        path.display()
    )
}

/// 1,000 documents open (never saved, each clean), a 1,001st with a
/// finding, and 1,000 more: none past the budget is kept, so the finding
/// is not published (the file is not on disk), and one warning names the
/// first. A document closed makes room: opened again, it is checked.
#[test]
fn documents_past_the_budget_are_checked_as_their_files() {
    let (_dir, root, mut c) = start();
    for i in 0..1000 {
        let p = root.join(format!("scripts/gen{i}.lua"));
        open(&mut c, &p, "lua", &format!("return {i}\n"));
    }
    let extra = root.join("tq_ex/lib/extra.ex");
    open(&mut c, &extra, "elixir", EXTRA);
    for i in 0..1000 {
        open(
            &mut c,
            &root.join(format!("more{i}.lua")),
            "lua",
            "return 0\n",
        );
    }
    let over = "1000 documents are open, the most the server keeps";
    assert_eq!(
        sorted(&root, &c.before_answer()),
        (vec![past_the_budget(&extra, over)], vec![])
    );
    let gen0 = json!({"textDocument": {"uri": uri(&root.join("scripts/gen0.lua"))}});
    c.notify("textDocument/didClose", gen0);
    open(&mut c, &extra, "elixir", EXTRA);
    assert_eq!(
        sorted(&root, &c.before_answer()),
        (vec![], vec!["tq_ex/lib/extra.ex: [WL203 2]".to_string()])
    );
    stop(c);
}

/// Eight documents of 8 MiB (a Lua comment, never saved) fill the 64 MiB
/// the server keeps; a ninth, `scripts/claim.lua` with a field renamed,
/// is not kept: one warning names it, and its file on disk stands in
/// (nothing to publish). One of the eight closed, it is checked: the
/// readers of the field light up.
#[test]
fn open_text_past_the_budget_is_checked_as_its_file() {
    let (_dir, root, script, _text, renamed) = common::lsp::four_speakers_renamed();
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    let big = format!("return 1\n{}", "-".repeat((8 << 20) - 9));
    for i in 0..8 {
        open(
            &mut c,
            &root.join(format!("scripts/big{i}.lua")),
            "lua",
            &big,
        );
    }
    open(&mut c, &script, "lua", &renamed);
    let over = format!(
        "with it the open documents would hold {} bytes, over the 67108864 the server keeps",
        (64 << 20) + renamed.len()
    );
    assert_eq!(
        sorted(&root, &c.before_answer()),
        (vec![past_the_budget(&script, &over)], vec![])
    );
    let big0 = json!({"textDocument": {"uri": uri(&root.join("scripts/big0.lua"))}});
    c.notify("textDocument/didClose", big0);
    open(&mut c, &script, "lua", &renamed);
    let readers = [
        "tq_dash/lib/dash.ex: [WL203 4]",
        "tq_ex/lib/tq.ex: [WL203 15]",
        "tq_rs/src/lib.rs: [WL203 37]",
    ];
    assert_eq!(
        sorted(&root, &c.before_answer()),
        (vec![], readers.map(String::from).to_vec())
    );
    stop(c);
}

/// `rootUri` `file:///`, a workspace folder `/`, and the home directory
/// holding no `.git` nor `wirelint.toml`: nothing is walked nor
/// published, one warning says why, and requests are answered. A home
/// that is a project (it holds `wirelint.toml`) is checked.
#[test]
fn a_root_of_the_whole_disk_or_a_home_that_is_no_project_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().canonicalize().unwrap();
    let disk = "the root of the file system (the whole disk)";
    let cases = [
        (json!("file:///"), json!(null), "/", disk),
        (
            json!(null),
            json!([{"uri": "file:///", "name": "disk"}]),
            "/",
            disk,
        ),
        (
            json!(uri(&home)),
            json!(null),
            home.to_str().unwrap(),
            "the home directory, not a project (it holds no .git and no wirelint.toml)",
        ),
    ];
    for (root_uri, folders, shown, why) in cases {
        let mut c = Client::start_with(&home, &[("HOME", &home)]);
        let r = c.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "workspaceFolders": folders,
                   "capabilities": {}}),
        );
        assert_eq!(r["result"]["capabilities"]["hoverProvider"], true);
        let warning = format!(
            "2 \"wirelint: the workspace {shown} is {why}, so nothing is checked; open a project folder\""
        );
        assert_eq!(sorted(&home, &c.before_answer()), (vec![warning], vec![]));
        stop(c);
    }
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &home);
    let tq = home.join("tq_ex/lib/tq.ex");
    let text = std::fs::read_to_string(&tq).unwrap();
    std::fs::write(
        &tq,
        text.replace("\"tries\", \"pb\"]", "\"tries\", \"pbx\"]"),
    )
    .unwrap();
    let mut c = Client::start_with(&home, &[("HOME", &home)]);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&home), "capabilities": {}}),
    );
    assert_eq!(
        sorted(&home, &c.before_answer()),
        (vec![], vec!["tq_ex/lib/tq.ex: [WL203 15]".to_string()])
    );
    stop(c);
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> std::collections::BTreeSet<PathBuf> {
    common::walk(dir)
        .into_iter()
        .map(|p| p.strip_prefix(dir).unwrap().to_path_buf())
        .collect()
}

/// Three versions of an edited script and a buffer never saved: the facts
/// cache gains no entry. The script saved with a fourth text and closed:
/// its file's facts are stored, one new pack under `packs/`.
#[test]
fn unsaved_buffers_write_nothing_to_the_facts_cache() {
    let cache = tempfile::tempdir().unwrap();
    let (_dir, root, script, text, renamed) = common::lsp::four_speakers_renamed();
    let mut c = Client::start_with(&root, &[("XDG_CACHE_HOME", cache.path())]);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    assert_eq!(c.all_published(&root), Vec::<String>::new());
    let before = files_under(cache.path());
    assert!(before
        .iter()
        .any(|p| p.to_string_lossy().contains("/packs/")));
    open(&mut c, &script, "lua", &format!("{text}-- 1\n"));
    change(&mut c, &script, 2, &renamed);
    change(&mut c, &script, 3, &format!("{renamed}-- 3\n"));
    open(&mut c, &root.join("tq_ex/lib/extra.ex"), "elixir", EXTRA);
    assert_eq!(
        c.all_published(&root),
        [
            "tq_dash/lib/dash.ex: [WL203 4]",
            "tq_ex/lib/extra.ex: [WL203 2]",
            "tq_ex/lib/tq.ex: [WL203 15]",
            "tq_rs/src/lib.rs: [WL203 37]",
        ]
    );
    assert_eq!(files_under(cache.path()), before);
    std::fs::write(&script, format!("{renamed}-- 4\n")).unwrap();
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&script)}}),
    );
    assert_eq!(c.all_published(&root), Vec::<String>::new());
    let after = files_under(cache.path());
    let new: Vec<_> = after.difference(&before).collect();
    assert_eq!(new.len(), 1, "{new:?}");
    assert!(new[0].to_string_lossy().contains("/packs/"), "{new:?}");
    assert!(after.is_superset(&before));
    stop(c);
}
