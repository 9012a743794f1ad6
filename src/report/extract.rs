//! `wirelint extract`: the observed contract of each speaker, as text or
//! JSON. The contract form (`--as-contract`) is computed by
//! `crate::views::observe::as_contract` and printed as is.

use serde_json::{json, Value};

use crate::facts::Span;
use crate::pipeline::Analysis;
use crate::views::observe::ObservedSpeaker;

fn at(a: &Analysis, span: Span) -> String {
    let f = a.sources.get(span.file);
    format!("{}:{}", f.rel, f.line_col(span.start).line)
}

fn loc(a: &Analysis, span: Span) -> Value {
    let f = a.sources.get(span.file);
    json!({"path": f.rel, "line": f.line_col(span.start).line})
}

/// Where a call is: its first line, and its last (a method chain or an
/// argument list may run over several).
fn call_loc(a: &Analysis, span: Span) -> Value {
    let f = a.sources.get(span.file);
    let line = f.line_col(span.start).line;
    let end = f.line_col(span.end.max(span.start)).line;
    json!({"path": f.rel, "line": line, "end_line": end})
}

/// One line of the text form: what the tree named (speakers, keys,
/// fields, scripts) escaped ([`super::escape::text`]).
fn line(out: &mut String, text: &str) {
    out.push_str(&super::escape::text(text));
    out.push('\n');
}

pub fn render_json(a: &Analysis, speakers: &[ObservedSpeaker]) -> String {
    let list: Vec<Value> = speakers
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "dir": s.dir,
                "keys": s.keys.iter().map(|k| json!({"template": k.shape, "at": loc(a, k.span)})).collect::<Vec<_>>(),
                "records": s.records.iter().map(|r| json!({"key": r.key, "writes": r.writes, "reads": r.reads})).collect::<Vec<_>>(),
                "scripts": s.scripts.iter().map(|x| json!({
                    "name": x.name,
                    "names": x.names,
                    "sha1": x.sha1,
                    "declared_keys": x.declared.map(|(n, src)| json!({"count": n, "source": src})),
                    "keys": x.roles.iter().enumerate().map(|(i, r)| json!({"slot": i + 1, "role": r})).collect::<Vec<_>>(),
                    "argv": {
                        "required": x.argv.required,
                        "at_most": x.argv.upper,
                        "roles": x.argv.roles.iter().enumerate().map(|(i, r)| json!({"slot": i + 1, "role": r})).collect::<Vec<_>>(),
                        "numeric": x.argv.numeric,
                        "flags": x.argv.flags.iter().map(|(n, v)| json!({"slot": n, "values": v})).collect::<Vec<_>>(),
                    },
                    "at": loc(a, x.span),
                })).collect::<Vec<_>>(),
                "calls": s.calls.iter().map(|c| json!({
                    "script": c.script,
                    "numkeys": c.numkeys,
                    "keys": c.keys,
                    "keys_complete": c.keys_complete,
                    "argv": c.argv,
                    "argv_complete": c.argv_complete,
                    "at": call_loc(a, c.span),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = json!({"version": 1, "speakers": list});
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

pub fn render_text(a: &Analysis, speakers: &[ObservedSpeaker]) -> String {
    let mut out = String::new();
    for s in speakers {
        line(&mut out, &format!("speaker {}", s.name));
        if !s.keys.is_empty() {
            out.push_str("  keys\n");
            for k in &s.keys {
                line(&mut out, &format!("    {:<40} {}", k.shape, at(a, k.span)));
            }
        }
        if !s.records.is_empty() {
            out.push_str("  records\n");
            for r in &s.records {
                line(
                    &mut out,
                    &format!(
                        "    {}  writes [{}]  reads [{}]",
                        r.key,
                        r.writes.join(", "),
                        r.reads.join(", ")
                    ),
                );
            }
        }
        if !s.scripts.is_empty() {
            out.push_str("  scripts\n");
            for x in &s.scripts {
                let sha = x
                    .sha1
                    .as_deref()
                    .map(|h| &h[..12.min(h.len())])
                    .unwrap_or("-");
                let declared = match x.declared {
                    Some((n, src)) => format!("{n} keys ({src})"),
                    None => "keys undeclared".into(),
                };
                let roles: Vec<String> = x
                    .roles
                    .iter()
                    .enumerate()
                    .map(|(i, r)| format!("{}={}", i + 1, r.as_deref().unwrap_or("?")))
                    .collect();
                line(
                    &mut out,
                    &format!(
                        "    {}  sha1 {sha}  {declared}  [{}]  {}",
                        x.name,
                        roles.join(", "),
                        at(a, x.span)
                    ),
                );
            }
        }
        if !s.calls.is_empty() {
            out.push_str("  calls\n");
            for c in &s.calls {
                let keys: Vec<String> = c
                    .keys
                    .iter()
                    .map(|k| k.clone().unwrap_or_else(|| "?".into()))
                    .collect();
                let more = if c.keys_complete { "" } else { ", …" };
                let n = c
                    .numkeys
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "?".into());
                line(
                    &mut out,
                    &format!(
                        "    {}  numkeys {n}  [{}{more}]  {}",
                        c.script,
                        keys.join(", "),
                        at(a, c.span)
                    ),
                );
            }
        }
    }
    out
}
