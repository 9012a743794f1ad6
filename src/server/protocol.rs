//! The JSON of the few LSP messages the server reads and writes: document
//! paths and texts in, diagnostics out. Positions are LSP's: 0-based lines
//! and UTF-16 code units, converted from byte spans here, at the edge.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::Span;
use crate::pipeline::{Analysis, AnalyzeError};
use crate::source::SourceFile;

/// The workspace root `initialize` names (`rootUri`, else the first
/// workspace folder), if it names one.
pub fn workspace_root(init: &Value) -> Option<PathBuf> {
    let uri = init["rootUri"]
        .as_str()
        .or_else(|| init["workspaceFolders"][0]["uri"].as_str());
    uri.and_then(path_of_uri)
}

/// Where the workspace is, and which files are open in the editor (their
/// diagnostics are published whether or not the file is on disk).
pub struct Ws<'a> {
    pub root: &'a Path,
    pub open: &'a dyn Fn(&Path) -> bool,
}

fn path_of_uri(uri: &str) -> Option<PathBuf> {
    url::Url::parse(uri).ok()?.to_file_path().ok()
}

fn uri_of_path(p: &Path) -> Option<String> {
    url::Url::from_file_path(p).ok().map(String::from)
}

/// Whether the client lets the server register file watchers
/// (`workspace/didChangeWatchedFiles` with dynamic registration).
pub fn watches_files(init: &Value) -> bool {
    init["capabilities"]["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"]
        .as_bool()
        .unwrap_or(false)
}

/// The request that asks the client to watch the files a run reads: the
/// sources (the extensions of every language wirelint reads, from the one
/// list of hosts), the projects' files, `wirelint.toml` and a TOML
/// contract, and the ignore files discovery honours.
pub fn register_watchers() -> lsp_server::Request {
    let exts: Vec<&str> = crate::extract::lang::HOSTS
        .iter()
        .flat_map(|h| h.extensions().iter().copied())
        .collect();
    let mut globs = vec![format!("**/*.{{{}}}", exts.join(","))];
    globs.push("**/*.toml".to_string());
    // A project file the globs above do not match (`package.json`).
    for f in crate::discover::PROJECT_FILES {
        let ext = f.rsplit('.').next().unwrap_or_default();
        if ext != "toml" && !exts.contains(&ext) {
            globs.push(format!("**/{f}"));
        }
    }
    globs.extend(["**/.gitignore".to_string(), "**/.ignore".to_string()]);
    let watchers: Vec<Value> = globs.iter().map(|g| json!({"globPattern": g})).collect();
    let params = json!({"registrations": [{
        "id": "wirelint-files",
        "method": "workspace/didChangeWatchedFiles",
        "registerOptions": {"watchers": watchers},
    }]});
    lsp_server::Request::new(
        "wirelint/watch".to_string().into(),
        "client/registerCapability".into(),
        params,
    )
}

/// Whether a `didChangeWatchedFiles` says that files came or went (a
/// change type other than "changed": created, deleted), or that an ignore
/// file changed: then the file list is stale.
pub fn files_came_or_went(params: &Value) -> bool {
    params["changes"].as_array().into_iter().flatten().any(|c| {
        let uri = c["uri"].as_str().unwrap_or_default();
        c["type"].as_u64() != Some(2) || uri.ends_with("/.gitignore") || uri.ends_with("/.ignore")
    })
}

/// The file a document notification is about.
pub fn document_path(params: &Value) -> Option<PathBuf> {
    path_of_uri(params["textDocument"]["uri"].as_str()?)
}

/// The full text a notification carries (open, full-sync change, save with
/// text).
pub fn document_text(method: &str, params: &Value) -> Option<String> {
    let text = match method {
        "textDocument/didOpen" => &params["textDocument"]["text"],
        "textDocument/didChange" => {
            let changes = params["contentChanges"].as_array()?;
            &changes.last()?["text"]
        }
        _ => &params["text"],
    };
    text.as_str().map(str::to_string)
}

/// The file and byte offset an LSP position (`textDocument`, `position`)
/// points at, in the analysis's file table; `None` past the last line. A
/// character past the line's end is its end.
pub fn point(a: &Analysis, root: &Path, params: &Value) -> Option<Span> {
    let path = document_path(params)?;
    let rel = path
        .strip_prefix(root)
        .ok()?
        .to_string_lossy()
        .replace('\\', "/");
    let (id, f) = a.sources.iter().find(|(_, f)| f.rel == rel)?;
    let line = usize::try_from(params["position"]["line"].as_u64()?).ok()?;
    let character =
        usize::try_from(params["position"]["character"].as_u64()?).unwrap_or(usize::MAX);
    let b = f.bytes();
    if line >= f.line(b.len() as u32) {
        return None;
    }
    let start = f.line_start(line).min(b.len());
    let end = f.line_end(line).clamp(start, b.len());
    let offset = start + offset_of_units(&b[start..end], character);
    Some(Span {
        file: id,
        start: offset as u32,
        end: offset as u32,
    })
}

/// UTF-16 units of bytes as an editor decodes them: a character's own, and
/// one (U+FFFD) for each invalid sequence (`String::from_utf8_lossy`'s).
fn utf16_units(b: &[u8]) -> usize {
    b.utf8_chunks()
        .map(|c| c.valid().encode_utf16().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// The byte offset in a line's bytes where `units` UTF-16 units end (never
/// inside a character, never past a line end).
fn offset_of_units(line: &[u8], units: usize) -> usize {
    let mut seen = 0usize;
    let mut at = 0usize;
    for chunk in line.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if seen >= units || ch == '\n' || ch == '\r' {
                return at;
            }
            seen += ch.len_utf16();
            at += ch.len_utf8();
        }
        if !chunk.invalid().is_empty() {
            if seen >= units {
                return at;
            }
            seen += 1;
            at += chunk.invalid().len();
        }
    }
    at
}

/// The leading spaces and tabs of a 0-based line.
pub fn indent_of(f: &SourceFile, line: usize) -> String {
    let b = f.bytes();
    b[f.line_start(line).min(b.len())..]
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .map(|&c| c as char)
        .collect()
}

/// A location in the workspace, for go to definition.
pub fn location(a: &Analysis, ws: &Ws, span: Span) -> Option<Value> {
    let uri = file_uri(a, ws, span)?;
    Some(json!({"uri": uri, "range": range(a.sources.get(span.file), span)}))
}

/// An LSP position: 0-based line, UTF-16 units from the line's start.
fn position(f: &SourceFile, offset: u32) -> Value {
    let b = f.bytes();
    let line = f.line(offset).saturating_sub(1);
    let end = (offset as usize).min(b.len());
    let start = f.line_start(line).min(end);
    json!({"line": line, "character": utf16_units(&b[start..end])})
}

fn range(f: &SourceFile, span: Span) -> Value {
    json!({"start": position(f, span.start), "end": position(f, span.end)})
}

/// The URI of a source file, when it is a file in the workspace (not the
/// embedded contract): on disk, or open in the editor (a buffer whose file
/// was deleted or never saved).
fn file_uri(a: &Analysis, ws: &Ws, span: Span) -> Option<String> {
    let f = a.sources.get(span.file);
    let p = ws.root.join(&f.rel);
    if f.rel.starts_with("..") || !((ws.open)(&p) || p.is_file()) {
        return None;
    }
    uri_of_path(&p)
}

fn lsp_diagnostic(a: &Analysis, ws: &Ws, d: &Diagnostic) -> Value {
    let f = a.sources.get(d.primary.span.file);
    let related: Vec<Value> = d
        .related
        .iter()
        .filter_map(|r| {
            let uri = file_uri(a, ws, r.span)?;
            Some(json!({
                "location": {"uri": uri, "range": range(a.sources.get(r.span.file), r.span)},
                "message": r.message,
            }))
        })
        .collect();
    let mut message = d.message.clone();
    if let Some(h) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    json!({
        "range": range(f, d.primary.span),
        "severity": match d.severity { Severity::Error => 1, Severity::Warning => 2 },
        "code": d.code,
        "source": "wirelint",
        "message": message,
        "relatedInformation": related,
        "data": {"explain": format!("wirelint explain {}", d.code)},
    })
}

/// The quick fix of the finding that `shown` (a diagnostic of the
/// request's context) stands for: same code, same range, with a fix. Its
/// edits are the ones `check --fix` applies; a safe fix is preferred.
pub fn fix_action(a: &Analysis, ws: &Ws, uri: &str, shown: &Value) -> Option<Value> {
    let d = a.diagnostics.iter().find(|d| {
        d.fix.is_some()
            && shown["code"].as_str() == Some(d.code)
            && file_uri(a, ws, d.primary.span).as_deref() == Some(uri)
            && shown["range"] == range(a.sources.get(d.primary.span.file), d.primary.span)
    })?;
    let fix = d.fix.as_ref()?;
    let mut changes: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for e in &fix.edits {
        let f = a.sources.get(e.span.file);
        changes
            .entry(file_uri(a, ws, e.span)?)
            .or_default()
            .push(json!({"range": range(f, e.span), "newText": e.text}));
    }
    let mut title = fix.message.clone();
    if let Some(first) = title.get(..1) {
        title = first.to_uppercase() + &title[1..];
    }
    Some(json!({
        "title": title,
        "kind": "quickfix",
        "diagnostics": [shown],
        "isPreferred": fix.applicability == crate::diagnostic::Applicability::Safe,
        "edit": {"changes": changes},
    }))
}

/// The server's own findings in the document `uri` whose range meets the
/// LSP range `want`, as they were published: the diagnostics of a code
/// action request that carries none of wirelint's.
pub fn diagnostics_at(a: &Analysis, ws: &Ws, uri: &str, want: &Value) -> Vec<Value> {
    let pos = |v: &Value| {
        (
            v["line"].as_u64().unwrap_or(0),
            v["character"].as_u64().unwrap_or(0),
        )
    };
    let (from, to) = (pos(&want["start"]), pos(&want["end"]));
    a.diagnostics
        .iter()
        .filter(|d| file_uri(a, ws, d.primary.span).as_deref() == Some(uri))
        .map(|d| lsp_diagnostic(a, ws, d))
        .filter(|l| pos(&l["range"]["start"]) <= to && from <= pos(&l["range"]["end"]))
        .collect()
}

/// Every finding as LSP diagnostics, by document URI, in output order.
pub fn diagnostics_by_uri(a: &Analysis, ws: &Ws) -> BTreeMap<String, Value> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for d in &a.diagnostics {
        if let Some(uri) = file_uri(a, ws, d.primary.span) {
            out.entry(uri).or_default().push(lsp_diagnostic(a, ws, d));
        }
    }
    out.into_iter().map(|(k, v)| (k, Value::Array(v))).collect()
}

/// A run that could not start (a broken `wirelint.toml` or contract): one
/// diagnostic on the file at fault, or on `wirelint.toml`.
pub fn config_error(root: &Path, e: &AnalyzeError) -> BTreeMap<String, Value> {
    let (origin, message, line) = match e {
        AnalyzeError::Contract(c) => {
            let line = c
                .span
                .as_ref()
                .map(|s| c.text[..s.start.min(c.text.len())].matches('\n').count())
                .unwrap_or(0);
            (c.origin.clone(), c.message.clone(), line)
        }
        AnalyzeError::Usage(m) => ("wirelint.toml".to_string(), m.clone(), 0),
    };
    let p = Path::new(&origin);
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        root.join(p)
    };
    let mut out = BTreeMap::new();
    if let Some(uri) = uri_of_path(&p) {
        let pos = json!({"line": line, "character": 0});
        out.insert(
            uri,
            json!([{
                "range": {"start": pos, "end": pos},
                "severity": 1,
                "source": "wirelint",
                "message": message,
            }]),
        );
    }
    out
}

/// In place of an open document's diagnostics: one warning that it is not
/// checked, being over the size limit.
pub fn too_large(out: &mut BTreeMap<String, Value>, path: &Path, size: usize, limit: u64) {
    let Some(uri) = uri_of_path(path) else {
        return;
    };
    let pos = json!({"line": 0, "character": 0});
    let message = format!(
        "not checked: this buffer's {size} bytes are over the {limit} byte limit (the default --max-file-size); the rest of the workspace is checked against the file on disk"
    );
    out.insert(
        uri,
        json!([{
            "range": {"start": pos, "end": pos},
            "severity": 2,
            "source": "wirelint",
            "message": message,
        }]),
    );
}
