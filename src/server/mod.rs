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
//! exit. The open documents are kept within a budget (`docs.rs`), and the
//! root must be a project, never `/` (`workspace.rs`).

mod docs;
mod hover;
mod keyuses;
mod protocol;
pub mod transport;
mod workspace;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use crossbeam_channel::Sender;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};

use crate::config::Config;
use crate::pipeline::post::{self, Post};
use crate::pipeline::{analyze, Analysis, AnalyzeError, ContractChoice, Options};
use crate::views::matrix::Matrix;
pub use docs::MAX_DOCUMENT_BYTES;
use docs::{Doc, Docs};
use protocol::Ws;

/// The most messages taken in one batch before the pending changes are
/// analysed.
const MAX_BATCH: usize = 100_000;

/// Runs the server on stdin/stdout until `exit` or the end of stdin; the
/// process exit code: 0 after `shutdown`, else 1 (as the protocol says).
pub fn run() -> i32 {
    let (out, inbox, writer) = transport::stdio();
    let code = serve(&out, &inbox);
    drop(out);
    let _ = writer.join();
    code
}

/// Where messages come from (the transport's inbox; a list in tests).
trait Source {
    fn recv(&mut self) -> Option<Message>;
    fn try_recv(&mut self) -> Option<Message>;
}

impl Source for &transport::Inbox {
    fn recv(&mut self) -> Option<Message> {
        transport::Inbox::recv(self)
    }
    fn try_recv(&mut self) -> Option<Message> {
        transport::Inbox::try_recv(self)
    }
}

fn capabilities() -> Value {
    json!({
        // Full text on every change: the buffers are small next to a run.
        "textDocumentSync": {"openClose": true, "change": 1, "save": {"includeText": true}},
        "hoverProvider": true,
        "definitionProvider": true,
        "codeActionProvider": true,
        "positionEncoding": "utf-16",
    })
}

fn serve(out: &Sender<Message>, inbox: &transport::Inbox) -> i32 {
    let mut src = inbox;
    let init = match handshake(out, &mut src) {
        Ok(init) => init,
        Err(code) => return code,
    };
    if protocol::watches_files(&init) {
        let _ = out.send(Message::Request(protocol::register_watchers()));
    }
    let root = workspace::root(&init)
        .map_err(|warning| workspace::show(out, 2, &warning))
        .ok();
    let mut st = State::new(root);
    st.refresh_guarded(out);
    serve_loop(&mut st, out, &mut src)
}

/// Waits for `initialize` and answers it; requests before it get
/// `ServerNotInitialized`. `Err(exit code)` when the input ends or `exit`
/// comes first.
fn handshake(out: &Sender<Message>, src: &mut impl Source) -> Result<Value, i32> {
    loop {
        match src.recv().ok_or(1)? {
            Message::Request(req) if req.method == "initialize" => {
                let result = json!({"capabilities": capabilities()});
                let _ = out.send(Message::Response(Response::new_ok(req.id, result)));
                return Ok(req.params);
            }
            Message::Request(req) => {
                let e = Response::new_err(
                    req.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized yet".into(),
                );
                let _ = out.send(Message::Response(e));
            }
            Message::Notification(n) if n.method == "exit" => return Err(1),
            _ => {}
        }
    }
}

/// Messages in order, taken in batches: document notifications only
/// record the new text, and the workspace is analysed once the batch is
/// taken or a request needs the analysis, so a queue of changes costs one
/// run (the latest version of each document wins).
fn serve_loop(st: &mut State, out: &Sender<Message>, src: &mut impl Source) -> i32 {
    let mut shutdown = false;
    loop {
        let Some(first) = src.recv() else {
            return if shutdown { 0 } else { 1 };
        };
        let mut dirty = false;
        let mut next = Some(first);
        let mut taken = 0usize;
        while let Some(msg) = next {
            match msg {
                Message::Request(req) => {
                    if dirty {
                        st.refresh_guarded(out);
                        dirty = false;
                    }
                    let resp = if shutdown {
                        Response::new_err(
                            req.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is shutting down (`shutdown` came before)".into(),
                        )
                    } else if req.method == "shutdown" {
                        shutdown = true;
                        Response::new_ok(req.id, Value::Null)
                    } else {
                        st.answer(&req)
                    };
                    let _ = out.send(Message::Response(resp));
                }
                Message::Notification(n) if n.method == "exit" => {
                    return if shutdown { 0 } else { 1 };
                }
                Message::Notification(n) if !shutdown => {
                    // A panic while taking in a notification (a bug) is
                    // logged; the workspace is analysed again.
                    dirty |= catch_unwind(AssertUnwindSafe(|| st.notification(n, out)))
                        .unwrap_or_else(|p| {
                            eprintln!(
                                "wirelint server: internal error: {}",
                                panic_message(p.as_ref())
                            );
                            true
                        });
                }
                _ => {}
            }
            taken += 1;
            next = if taken < MAX_BATCH {
                src.try_recv()
            } else {
                None
            };
        }
        if dirty {
            st.refresh_guarded(out);
        }
    }
}

/// What a panic says, for an internal error.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Runs one request's handler; a panic (a bug) is answered as an internal
/// error, and the server goes on.
fn guarded(id: RequestId, run: impl FnOnce() -> Result<Value, (ErrorCode, String)>) -> Response {
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(v)) => Response::new_ok(id, v),
        Ok(Err((code, m))) => Response::new_err(id, code as i32, m),
        Err(p) => {
            let m = panic_message(p.as_ref());
            eprintln!("wirelint server: internal error: {m}");
            Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("wirelint internal error: {m}"),
            )
        }
    }
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

/// The workspace, the open buffers, and what was last published.
struct State {
    /// `None`: the editor named no workspace and none could be found, so
    /// nothing is checked.
    root: Option<PathBuf>,
    /// Open buffers by absolute path, within their budget.
    docs: Docs,
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
    /// Runs started (the tests count them).
    runs: usize,
}

impl State {
    fn new(root: Option<PathBuf>) -> State {
        State {
            root,
            docs: Docs::default(),
            published: BTreeMap::new(),
            last: None,
            memo: Default::default(),
            session: Default::default(),
            runs: 0,
        }
    }

    /// The answer to a request, under the panic guard.
    fn answer(&self, req: &Request) -> Response {
        guarded(req.id.clone(), || match req.method.as_str() {
            "textDocument/hover" => Ok(self.hover(&req.params)),
            "textDocument/definition" => Ok(self.definition(&req.params)),
            "textDocument/codeAction" => Ok(self.code_actions(&req.params)),
            m => Err((
                ErrorCode::MethodNotFound,
                format!("wirelint server does not handle `{m}`"),
            )),
        })
    }

    /// Takes in a notification; whether the workspace must be analysed
    /// again.
    fn notification(&mut self, n: Notification, out: &Sender<Message>) -> bool {
        // `wirelint.toml`, the contract or a file changed on disk: an open
        // document may now differ from its file, or agree with it.
        if n.method == "workspace/didChangeWatchedFiles" {
            // Files came or went: discovery runs again (a file changed in
            // place is read again by the refresh anyway).
            if protocol::files_came_or_went(&n.params) {
                self.session.discovered.forget();
            }
            self.docs.again();
            return true;
        }
        let Some(path) = protocol::document_path(&n.params) else {
            return false;
        };
        match n.method.as_str() {
            "textDocument/didOpen" | "textDocument/didChange" | "textDocument/didSave" => {
                if n.method != "textDocument/didChange" {
                    self.see(&path);
                }
                let Some(text) = protocol::document_text(&n.method, &n.params) else {
                    // Saved, without its text: compared with its file again.
                    if let Some(doc) = self.docs.take(&path) {
                        let doc = doc.again(&path);
                        self.docs.insert(path, doc);
                    }
                    return true;
                };
                // The budget first: a document past it is not compared
                // with its file, and its file on disk stands in.
                let kept = self.docs.contains(&path);
                if let Err(warning) = self.docs.admit(&path, text.len()) {
                    if let Some(w) = warning {
                        workspace::show(out, 2, &w);
                    }
                    return kept;
                }
                let doc = Doc::new(&path, text.into_bytes());
                self.docs.insert(path, doc);
                true
            }
            // A document never kept changes nothing.
            "textDocument/didClose" => self.docs.remove(&path).is_some(),
            _ => false,
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
        let Some(Ok(rel)) = self.root.as_deref().map(|r| path.strip_prefix(r)) else {
            return;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if ignore || (source && self.session.discovered.lists(&rel) == Some(false)) {
            self.session.discovered.forget();
        }
    }

    /// [`State::refresh`] under the panic guard: a bug in a run is logged,
    /// and the server goes on with what it last published.
    fn refresh_guarded(&mut self, out: &Sender<Message>) {
        self.runs += 1;
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| self.refresh(out))) {
            let m = panic_message(p.as_ref());
            eprintln!("wirelint server: internal error in a run: {m}");
        }
    }

    /// Runs the pipeline with every modified open document over its file
    /// on disk, and publishes every document whose diagnostics differ from
    /// what was last published (an empty list clears one).
    fn refresh(&mut self, out: &Sender<Message>) {
        let Some(root) = self.root.clone() else {
            return;
        };
        let mut clock = Clock::new();
        let (mut now, analysis) = match self.analysis(&root) {
            Ok(a) => {
                clock.lap("analysis");
                let open = |p: &Path| self.docs.contains(p);
                let ws = Ws {
                    root: &root,
                    open: &open,
                };
                (protocol::diagnostics_by_uri(&a, &ws), Some(a))
            }
            Err(e) => (protocol::config_error(&root, &e), None),
        };
        for (path, doc) in self.docs.iter() {
            if let Some(n) = doc.too_large {
                protocol::too_large(&mut now, path, n, MAX_DOCUMENT_BYTES);
            }
        }
        clock.lap("to LSP");
        self.publish(out, now);
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
    fn publish(&mut self, out: &Sender<Message>, now: BTreeMap<String, Value>) {
        let mut uris: Vec<&String> = now.keys().chain(self.published.keys()).collect();
        uris.sort();
        uris.dedup();
        let mut sent = BTreeMap::new();
        for uri in uris {
            let new = now.get(uri).cloned().unwrap_or_else(|| json!([]));
            if self.published.get(uri) != Some(&new) {
                let params = json!({"uri": uri, "diagnostics": new});
                let note = Notification::new("textDocument/publishDiagnostics".into(), params);
                let _ = out.send(Message::Notification(note));
            }
            if new.as_array().is_some_and(|a| !a.is_empty()) {
                sent.insert(uri.clone(), new);
            }
        }
        self.published = sent;
    }

    /// What the agreement matrix says of the key, field or script under
    /// the cursor (who uses it, who diverges, who writes and reads it), or
    /// of the key a builder under the cursor builds.
    fn hover(&self, params: &Value) -> Value {
        let (Some((a, matrix)), Some(root)) = (&self.last, &self.root) else {
            return Value::Null;
        };
        let Some(at) = protocol::point(a, root, params) else {
            return Value::Null;
        };
        let matrix = matrix.get_or_init(|| crate::views::matrix::build(a));
        match hover::text(a, matrix, at) {
            Some(text) => json!({"contents": {"kind": "markdown", "value": text}}),
            None => Value::Null,
        }
    }

    /// For each wirelint diagnostic in the request (else each of the
    /// server's findings at its range): its fix's edits (those
    /// `check --fix` applies), and a suppression comment on the
    /// line before it, in the file's own comment syntax, with room for the
    /// reason.
    fn code_actions(&self, params: &Value) -> Value {
        let (Some((a, _)), Some(root)) = (&self.last, &self.root) else {
            return json!([]);
        };
        let point =
            json!({"textDocument": params["textDocument"], "position": params["range"]["start"]});
        let Some(at) = protocol::point(a, root, &point) else {
            return json!([]);
        };
        let f = a.sources.get(at.file);
        let Some(comment) = f.lang.map(|l| l.host().line_comment()) else {
            return json!([]);
        };
        let uri = params["textDocument"]["uri"].as_str().unwrap_or_default();
        let open = |p: &Path| self.docs.contains(p);
        let ws = Ws { root, open: &open };
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
            shown = protocol::diagnostics_at(a, &ws, uri, &params["range"]);
        }
        for d in &shown {
            let (Some("wirelint"), Some(code), Some(line)) = (
                d["source"].as_str(),
                d["code"].as_str(),
                d["range"]["start"]["line"].as_u64(),
            ) else {
                continue;
            };
            out.extend(protocol::fix_action(a, &ws, uri, d));
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
        let (Some((a, _)), Some(root)) = (&self.last, &self.root) else {
            return Value::Null;
        };
        let open = |p: &Path| self.docs.contains(p);
        let ws = Ws { root, open: &open };
        let Some(at) = protocol::point(a, root, params) else {
            return Value::Null;
        };
        let inside =
            |s: crate::facts::Span| s.file == at.file && s.start <= at.start && at.start <= s.end;
        a.model
            .script_calls
            .iter()
            .filter(|u| inside(u.span))
            .min_by_key(|u| u.span.end - u.span.start)
            .and_then(|u| protocol::location(a, &ws, a.model.scripts[u.script].def_span))
            .unwrap_or(Value::Null)
    }

    fn analysis(&self, root: &Path) -> Result<Analysis, AnalyzeError> {
        let config = Config::find(root);
        let settings = config.clone()?.map(|c| c.settings).unwrap_or_default();
        let buffers = self
            .docs
            .iter()
            .filter(|(_, d)| d.modified)
            .filter_map(|(p, d)| {
                let rel = p.strip_prefix(root).ok()?;
                Some((rel.to_string_lossy().replace('\\', "/"), d.text.clone()))
            })
            .collect();
        let opts = Options {
            root: root.to_path_buf(),
            paths: vec![root.to_path_buf()],
            contract: ContractChoice::Default,
            threads: None,
            max_file_bytes: crate::pipeline::DEFAULT_MAX_FILE_BYTES,
            config,
            settings: settings.clone(),
            buffers,
            prefilter: true,
            tree: None,
            // Unchanged files come from the facts cache (the edited
            // buffers are never cached: they are not on disk).
            cache_dir: crate::pipeline::cache::default_dir_outside(root),
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

#[cfg(test)]
mod tests {
    use super::*;

    struct Queue(std::collections::VecDeque<Message>);

    impl Source for Queue {
        fn recv(&mut self) -> Option<Message> {
            self.0.pop_front()
        }
        fn try_recv(&mut self) -> Option<Message> {
            self.0.pop_front()
        }
    }

    fn note(method: &str, params: Value) -> Message {
        Message::Notification(Notification::new(method.into(), params))
    }

    fn request(id: i32, method: &str) -> Message {
        Message::Request(Request::new(id.into(), method.into(), json!({})))
    }

    /// 2,000 changes queued, then a request and `exit`: one run, before
    /// the request is answered; `exit` without `shutdown` is exit 1.
    #[test]
    fn queued_changes_make_one_run() {
        let mut q = Queue(Default::default());
        for v in 0..2000 {
            let params = json!({"textDocument": {"uri": "file:///nowhere/a.lua", "version": v},
                                "contentChanges": [{"text": format!("return {v}\n")}]});
            q.0.push_back(note("textDocument/didChange", params));
        }
        q.0.push_back(request(1, "textDocument/hover"));
        q.0.push_back(note("exit", Value::Null));
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut st = State::new(None);
        assert_eq!(serve_loop(&mut st, &tx, &mut q), 1);
        assert_eq!(st.runs, 1);
        assert_eq!(
            st.docs.get(Path::new("/nowhere/a.lua")).unwrap().text,
            b"return 1999\n"
        );
        let answers: Vec<Message> = rx.try_iter().collect();
        assert_eq!(answers.len(), 1);
    }

    /// After `shutdown`, requests are errors and `exit` is exit 0.
    #[test]
    fn shutdown_then_exit() {
        let mut q = Queue(
            [
                request(1, "shutdown"),
                request(2, "textDocument/hover"),
                note("exit", Value::Null),
            ]
            .into(),
        );
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut st = State::new(None);
        assert_eq!(serve_loop(&mut st, &tx, &mut q), 0);
        let codes: Vec<Option<i32>> = rx
            .try_iter()
            .map(|m| match m {
                Message::Response(r) => r.error.map(|e| e.code),
                _ => Some(0),
            })
            .collect();
        assert_eq!(codes, [None, Some(ErrorCode::InvalidRequest as i32)]);
    }

    /// A handler that panics is answered as an internal error.
    #[test]
    fn a_panic_in_a_request_is_an_internal_error() {
        let r = guarded(7.into(), || panic!("boom"));
        let e = r.error.unwrap();
        assert_eq!(e.code, ErrorCode::InternalError as i32);
        assert_eq!(e.message, "wirelint internal error: boom");
    }
}
