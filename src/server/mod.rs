//! `wirelint server`: the Language Server Protocol over stdio.
//!
//! The server reads the workspace once at `initialize` and again after each
//! change: every open document whose text differs from its file on disk
//! takes that file's place (the overlay `--stdin-filename` uses for one
//! buffer), the whole pipeline runs, and
//! diagnostics are published for **every file whose findings changed**,
//! not only the edited one: renaming a field in a shared script lights up
//! the readers in other files, and clears them when undone.
//!
//! Framing and the initialize handshake come from `lsp-server` (the crate
//! rust-analyzer is built on); payloads are plain JSON (`protocol.rs`).
//! Requests the server does not know get `MethodNotFound`; a broken
//! `wirelint.toml` or contract is one diagnostic on that file, never an
//! exit.

mod protocol;
mod transport;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use serde_json::{json, Value};

use crate::config::Config;
use crate::matrix::Matrix;
use crate::pipeline::post::{self, Post};
use crate::pipeline::{analyze, Analysis, AnalyzeError, ContractChoice, Options};

/// Runs the server on stdin/stdout until `exit`; the process exit code.
pub fn run() -> i32 {
    let (conn, io) = transport::stdio();
    let code = match serve(&conn) {
        Ok(()) => 0,
        Err(m) => {
            eprintln!("wirelint server: {m}");
            2
        }
    };
    drop(conn);
    for t in io {
        let _ = t.join();
    }
    code
}

fn serve(conn: &Connection) -> Result<(), String> {
    let caps = json!({
        // Full text on every change: the buffers are small next to a run.
        "textDocumentSync": {"openClose": true, "change": 1, "save": {"includeText": true}},
        "hoverProvider": true,
        "definitionProvider": true,
        "codeActionProvider": true,
        "positionEncoding": "utf-16",
    });
    let init = conn.initialize(caps).map_err(|e| e.to_string())?;
    if protocol::watches_files(&init) {
        let _ = conn
            .sender
            .send(Message::Request(protocol::register_watchers()));
    }
    let mut st = State::new(protocol::workspace_root(&init));
    st.refresh(conn);
    for msg in &conn.receiver {
        match msg {
            Message::Request(req) => {
                if conn.handle_shutdown(&req).map_err(|e| e.to_string())? {
                    return Ok(());
                }
                match req.method.as_str() {
                    "textDocument/hover" => reply(conn, req.id, st.hover(&req.params)),
                    "textDocument/definition" => reply(conn, req.id, st.definition(&req.params)),
                    "textDocument/codeAction" => reply(conn, req.id, st.code_actions(&req.params)),
                    _ => reply_unknown(conn, req),
                }
            }
            Message::Notification(n) => st.notification(conn, n),
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn reply(conn: &Connection, id: lsp_server::RequestId, result: Value) {
    let _ = conn
        .sender
        .send(Message::Response(Response::new_ok(id, result)));
}

fn reply_unknown(conn: &Connection, req: Request) {
    let resp = Response::new_err(
        req.id,
        ErrorCode::MethodNotFound as i32,
        format!("wirelint server does not handle `{}`", req.method),
    );
    let _ = conn.sender.send(Message::Response(resp));
}

/// Where a refresh spends its time, on stderr when `WIRELINT_SERVER_TIMING`
/// is set (the benchmark's profile, `docs/performance.md`).
struct Clock {
    on: bool,
    at: std::time::Instant,
    laps: Vec<(&'static str, std::time::Duration)>,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            on: std::env::var_os("WIRELINT_SERVER_TIMING").is_some(),
            at: std::time::Instant::now(),
            laps: Vec::new(),
        }
    }

    fn lap(&mut self, what: &'static str) {
        if self.on {
            let now = std::time::Instant::now();
            self.laps.push((what, now - self.at));
            self.at = now;
        }
    }

    fn report(&self) {
        if self.on {
            let laps: Vec<String> = self
                .laps
                .iter()
                .map(|(w, d)| format!("{w} {:.1} ms", d.as_secs_f64() * 1e3))
                .collect();
            eprintln!("wirelint server: refresh: {}", laps.join(", "));
        }
    }
}

/// An open document: its text, and whether it differs from its file on
/// disk (only those stand in for their files).
struct Doc {
    text: Vec<u8>,
    modified: bool,
}

impl Doc {
    fn new(path: &Path, text: Vec<u8>) -> Doc {
        let modified = std::fs::read(path).ok().as_deref() != Some(text.as_slice());
        Doc { text, modified }
    }
}

/// The workspace, the open buffers, and what was last published.
struct State {
    root: PathBuf,
    /// Open buffers by absolute path.
    docs: BTreeMap<PathBuf, Doc>,
    /// Diagnostics last published, by document URI.
    published: BTreeMap<String, Value>,
    /// The last analysis (hover, definition, code actions) and its
    /// agreement matrix, built at the first hover after a change: typing
    /// changes the buffer more often than the user hovers.
    last: Option<(Analysis, std::cell::OnceCell<Matrix>)>,
    /// The facts of unchanged files, kept between runs.
    memo: std::sync::Arc<crate::pipeline::cache::Memo>,
    /// The file list and the linked speakers, kept between runs.
    session: std::sync::Arc<crate::pipeline::session::Session>,
}

impl State {
    fn new(root: PathBuf) -> State {
        State {
            root,
            docs: BTreeMap::new(),
            published: BTreeMap::new(),
            last: None,
            memo: Default::default(),
            session: Default::default(),
        }
    }

    fn notification(&mut self, conn: &Connection, n: Notification) {
        // `wirelint.toml`, the contract or a file changed on disk: an open
        // document may now differ from its file, or agree with it.
        if n.method == "workspace/didChangeWatchedFiles" {
            // Files came or went: discovery runs again (a file changed in
            // place is read again by the refresh anyway).
            if protocol::files_came_or_went(&n.params) {
                self.session.discovered.forget();
            }
            for (path, doc) in self.docs.iter_mut() {
                let text = std::mem::take(&mut doc.text);
                *doc = Doc::new(path, text);
            }
            self.refresh(conn);
            return;
        }
        let Some(path) = protocol::document_path(&n.params) else {
            return;
        };
        match n.method.as_str() {
            "textDocument/didOpen" | "textDocument/didChange" | "textDocument/didSave" => {
                if n.method != "textDocument/didChange" {
                    self.see(&path);
                }
                let text = protocol::document_text(&n.method, &n.params)
                    .map(String::into_bytes)
                    .or_else(|| self.docs.remove(&path).map(|d| d.text));
                if let Some(text) = text {
                    let doc = Doc::new(&path, text);
                    self.docs.insert(path, doc);
                }
                self.refresh(conn);
            }
            "textDocument/didClose" => {
                self.docs.remove(&path);
                self.refresh(conn);
            }
            _ => {}
        }
    }

    /// A document opened or saved: discovery runs again when it is a
    /// source file discovery did not list (new since, or it would have
    /// been), or an ignore file (what discovery skips may have changed).
    /// A client that watches files says so anyway; one that does not
    /// misses only the files that come and go outside the editor.
    fn see(&self, path: &Path) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let ignore = matches!(name, ".gitignore" | ".ignore");
        let source = crate::facts::Lang::from_path(path).is_some();
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if ignore || (source && self.session.discovered.lists(&rel) == Some(false)) {
            self.session.discovered.forget();
        }
    }

    /// Runs the pipeline with every modified open document over its file
    /// on disk, and publishes every document whose diagnostics differ from
    /// what was last published (an empty list clears one).
    fn refresh(&mut self, conn: &Connection) {
        let mut clock = Clock::new();
        let (now, analysis) = match self.analysis() {
            Ok(a) => {
                clock.lap("analysis");
                (protocol::diagnostics_by_uri(&a, &self.root), Some(a))
            }
            Err(e) => (protocol::config_error(&self.root, &e), None),
        };
        clock.lap("to LSP");
        self.publish(conn, now);
        clock.lap("publish");
        // The diagnostics are out; the last analysis is let go only now,
        // and freed on another thread (6 to 12 ms on BullMQ that the next
        // message need not wait for). A run that could not start keeps the
        // last one.
        if let Some(a) = analysis {
            crate::parse::free_later(self.last.replace((a, Default::default())));
        }
        clock.lap("let go");
        clock.report();
    }

    /// Publishes every document whose diagnostics differ from what was
    /// last published (an empty list clears one).
    fn publish(&mut self, conn: &Connection, now: BTreeMap<String, Value>) {
        let mut uris: Vec<&String> = now.keys().chain(self.published.keys()).collect();
        uris.sort();
        uris.dedup();
        let mut sent = BTreeMap::new();
        for uri in uris {
            let new = now.get(uri).cloned().unwrap_or_else(|| json!([]));
            if self.published.get(uri) != Some(&new) {
                let params = json!({"uri": uri, "diagnostics": new});
                let note = Notification::new("textDocument/publishDiagnostics".into(), params);
                let _ = conn.sender.send(Message::Notification(note));
            }
            if new.as_array().is_some_and(|a| !a.is_empty()) {
                sent.insert(uri.clone(), new);
            }
        }
        self.published = sent;
    }

    /// What the agreement matrix says of the key, field or script under
    /// the cursor: who uses it, who diverges.
    fn hover(&self, params: &Value) -> Value {
        let Some((a, matrix)) = &self.last else {
            return Value::Null;
        };
        let Some(at) = protocol::point(a, &self.root, params) else {
            return Value::Null;
        };
        let matrix = matrix.get_or_init(|| crate::matrix::build(a));
        let Some(row) = crate::matrix::rows_at(a, matrix, at).into_iter().next() else {
            return Value::Null;
        };
        let mut text = format!("**{}** `{}`\n", row.kind, row.item);
        if matrix.speakers.len() <= crate::matrix::TABLE_MAX {
            for (i, sp) in matrix.speakers.iter().enumerate() {
                text.push_str(&format!("\n- `{sp}`: {}", row.cell(i).as_str()));
            }
        } else {
            for (i, cell) in &row.uses {
                let sp = &matrix.speakers[*i];
                text.push_str(&format!("\n- `{sp}`: {}", cell.as_str()));
            }
            let others = matrix.speakers.len() - row.uses.len();
            let s = if others == 1 { "" } else { "s" };
            text.push_str(&format!("\n- {others} other speaker{s}: unused"));
        }
        json!({"contents": {"kind": "markdown", "value": text}})
    }

    /// For each wirelint diagnostic in the request (else each of the
    /// server's findings at its range): the replacement of a near miss
    /// where the fix is certain, and a suppression comment on the
    /// line before it, in the file's own comment syntax, with room for the
    /// reason.
    fn code_actions(&self, params: &Value) -> Value {
        let Some((a, _)) = &self.last else {
            return json!([]);
        };
        let point =
            json!({"textDocument": params["textDocument"], "position": params["range"]["start"]});
        let Some(at) = protocol::point(a, &self.root, &point) else {
            return json!([]);
        };
        let f = a.sources.get(at.file);
        let Some(comment) = f.lang.map(|l| l.host().line_comment()) else {
            return json!([]);
        };
        let uri = params["textDocument"]["uri"].as_str().unwrap_or_default();
        let mut out = Vec::new();
        let mut shown: Vec<Value> = params["context"]["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["source"] == "wirelint")
            .cloned()
            .collect();
        // A request without them (a client that sends none, a command run
        // at the cursor): the server's own findings at the range.
        if shown.is_empty() {
            shown = protocol::diagnostics_at(a, &self.root, uri, &params["range"]);
        }
        for d in &shown {
            let (Some("wirelint"), Some(code), Some(line)) = (
                d["source"].as_str(),
                d["code"].as_str(),
                d["range"]["start"]["line"].as_u64(),
            ) else {
                continue;
            };
            out.extend(protocol::fix_action(a, &self.root, uri, d));
            let indent = protocol::indent_of(f, line as usize);
            let text = format!("{indent}{comment} wirelint: allow({code}) reason: \n");
            let pos = json!({"line": line, "character": 0});
            out.push(json!({
                "title": format!("Suppress {code} on this line (with a reason)"),
                "kind": "quickfix",
                "diagnostics": [d],
                "edit": {"changes": {uri: [{"range": {"start": pos, "end": pos}, "newText": text}]}},
            }));
        }
        Value::Array(out)
    }

    /// From a call site to the script it runs.
    fn definition(&self, params: &Value) -> Value {
        let Some((a, _)) = &self.last else {
            return Value::Null;
        };
        let Some(at) = protocol::point(a, &self.root, params) else {
            return Value::Null;
        };
        let inside =
            |s: crate::facts::Span| s.file == at.file && s.start <= at.start && at.start <= s.end;
        a.model
            .script_calls
            .iter()
            .filter(|u| inside(u.span))
            .min_by_key(|u| u.span.end - u.span.start)
            .and_then(|u| protocol::location(a, &self.root, a.model.scripts[u.script].def_span))
            .unwrap_or(Value::Null)
    }

    fn analysis(&self) -> Result<Analysis, AnalyzeError> {
        let settings = Config::find(&self.root)?
            .map(|c| c.settings)
            .unwrap_or_default();
        let buffers = self
            .docs
            .iter()
            .filter(|(_, d)| d.modified)
            .filter_map(|(p, d)| {
                let rel = p.strip_prefix(&self.root).ok()?;
                Some((rel.to_string_lossy().replace('\\', "/"), d.text.clone()))
            })
            .collect();
        let opts = Options {
            root: self.root.clone(),
            paths: vec![self.root.clone()],
            contract: ContractChoice::Default,
            threads: None,
            max_file_bytes: crate::pipeline::DEFAULT_MAX_FILE_BYTES,
            settings: settings.clone(),
            buffers,
            prefilter: true,
            tree: None,
            // Unchanged files come from the facts cache (the edited
            // buffers are never cached: they are not on disk).
            cache_dir: crate::pipeline::cache::default_dir_outside(&self.root),
            // ...and, after the first run, from memory.
            memo: Some(self.memo.clone()),
            speaker_prefix: None,
            // ...and the file list and the speakers an edit cannot reach.
            session: Some(self.session.clone()),
        };
        let mut a = analyze(&opts)?;
        let post = Post {
            settings: &settings,
            reported: None,
            only: None,
            baseline: None,
            max_bytes: crate::pipeline::DEFAULT_MAX_FILE_BYTES,
        };
        post::apply(&mut a, &post).map_err(AnalyzeError::Usage)?;
        Ok(a)
    }
}
