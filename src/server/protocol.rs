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
/// workspace folder), else the current directory.
pub fn workspace_root(init: &Value) -> PathBuf {
    let uri = init["rootUri"]
        .as_str()
        .or_else(|| init["workspaceFolders"][0]["uri"].as_str());
    uri.and_then(path_of_uri)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."))
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
/// sources, the projects' files, `wirelint.toml` and a TOML contract, and
/// the ignore files discovery honours.
pub fn register_watchers() -> lsp_server::Request {
    let watchers: Vec<Value> = [
        "**/*.{ex,exs,rs,lua}",
        "**/*.toml",
        "**/.gitignore",
        "**/.ignore",
    ]
    .iter()
    .map(|g| json!({"globPattern": g}))
    .collect();
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
/// points at, in the analysis's file table.
pub fn point(a: &Analysis, root: &Path, params: &Value) -> Option<Span> {
    let path = document_path(params)?;
    let rel = path
        .strip_prefix(root)
        .ok()?
        .to_string_lossy()
        .replace('\\', "/");
    let (id, f) = a.sources.iter().find(|(_, f)| f.rel == rel)?;
    let line = params["position"]["line"].as_u64()? as usize;
    let character = params["position"]["character"].as_u64()? as usize;
    let b = f.bytes();
    if line + 1 > f.line(b.len() as u32) {
        return None;
    }
    let start = f.line_start(line);
    let mut units = 0usize;
    let mut offset = start;
    for (k, ch) in String::from_utf8_lossy(&b[start..f.line_end(line)]).char_indices() {
        if units >= character || ch == '\n' || ch == '\r' {
            offset = start + k;
            break;
        }
        units += ch.len_utf16();
        offset = start + k + ch.len_utf8();
    }
    let offset = offset.min(b.len()) as u32;
    Some(Span {
        file: id,
        start: offset,
        end: offset,
    })
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
pub fn location(a: &Analysis, root: &Path, span: Span) -> Option<Value> {
    let uri = file_uri(a, root, span)?;
    Some(json!({"uri": uri, "range": range(a.sources.get(span.file), span)}))
}

/// An LSP position: 0-based line, UTF-16 units from the line's start.
fn position(f: &SourceFile, offset: u32) -> Value {
    let b = f.bytes();
    let line = f.line(offset).saturating_sub(1);
    let end = (offset as usize).min(b.len());
    let start = f.line_start(line).min(end);
    let units = String::from_utf8_lossy(&b[start..end])
        .encode_utf16()
        .count();
    json!({"line": line, "character": units})
}

fn range(f: &SourceFile, span: Span) -> Value {
    json!({"start": position(f, span.start), "end": position(f, span.end)})
}

/// The URI of a source file, when it is a file in the workspace (not the
/// embedded contract).
fn file_uri(a: &Analysis, root: &Path, span: Span) -> Option<String> {
    let f = a.sources.get(span.file);
    let p = root.join(&f.rel);
    if f.rel.starts_with("..") || !p.is_file() {
        return None;
    }
    uri_of_path(&p)
}

fn lsp_diagnostic(a: &Analysis, root: &Path, d: &Diagnostic) -> Value {
    let f = a.sources.get(d.primary.span.file);
    let related: Vec<Value> = d
        .related
        .iter()
        .filter_map(|r| {
            let uri = file_uri(a, root, r.span)?;
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

/// The quick fix that replaces a near miss with the contract's spelling,
/// for the finding that `shown` (a diagnostic of the request's context)
/// stands for: same code, same range, a certain fix. Preferred: there is
/// one candidate (a check carries a fix only then).
pub fn fix_action(a: &Analysis, root: &Path, uri: &str, shown: &Value) -> Option<Value> {
    let d = a.diagnostics.iter().find(|d| {
        d.fix.is_some()
            && shown["code"].as_str() == Some(d.code)
            && file_uri(a, root, d.primary.span).as_deref() == Some(uri)
            && shown["range"] == range(a.sources.get(d.primary.span.file), d.primary.span)
    })?;
    let fix = d.fix.as_ref()?;
    let f = a.sources.get(fix.span.file);
    let found = String::from_utf8_lossy(
        f.bytes()
            .get(fix.span.start as usize..fix.span.end as usize)?,
    );
    Some(json!({
        "title": format!("Replace `{found}` with the contract's `{}`", fix.text),
        "kind": "quickfix",
        "diagnostics": [shown],
        "isPreferred": true,
        "edit": {"changes": {uri: [{"range": range(f, fix.span), "newText": fix.text}]}},
    }))
}

/// The server's own findings in the document `uri` whose range meets the
/// LSP range `want`, as they were published: the diagnostics of a code
/// action request that carries none of wirelint's.
pub fn diagnostics_at(a: &Analysis, root: &Path, uri: &str, want: &Value) -> Vec<Value> {
    let pos = |v: &Value| {
        (
            v["line"].as_u64().unwrap_or(0),
            v["character"].as_u64().unwrap_or(0),
        )
    };
    let (from, to) = (pos(&want["start"]), pos(&want["end"]));
    a.diagnostics
        .iter()
        .filter(|d| file_uri(a, root, d.primary.span).as_deref() == Some(uri))
        .map(|d| lsp_diagnostic(a, root, d))
        .filter(|l| pos(&l["range"]["start"]) <= to && from <= pos(&l["range"]["end"]))
        .collect()
}

/// Every finding as LSP diagnostics, by document URI, in output order.
pub fn diagnostics_by_uri(a: &Analysis, root: &Path) -> BTreeMap<String, Value> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for d in &a.diagnostics {
        if let Some(uri) = file_uri(a, root, d.primary.span) {
            out.entry(uri).or_default().push(lsp_diagnostic(a, root, d));
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
