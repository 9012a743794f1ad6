//! One run of the binary on a tree, as what the harness compares: the
//! findings of `check --format json`, its coverage per speaker, and the
//! linked calls of `extract --format json`; and the comparison of a
//! rewritten tree's run with the original's, mapped through the edit.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::run;
use crate::edit::{line_of, offset_of_line, Rewritten};

/// A finding: what must survive a rewrite (code, severity, speaker, path,
/// line), and its message to explain a difference.
#[derive(Clone, Debug)]
pub struct Finding {
    pub code: String,
    pub severity: String,
    pub speaker: String,
    pub path: String,
    pub offset: usize,
    pub line: usize,
    pub message: String,
}

/// A linked script call of `extract`: where it is, and what it passes.
#[derive(Clone, Debug)]
pub struct Call {
    pub speaker: String,
    pub path: String,
    pub line: usize,
    pub what: String,
}

/// What one run says.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub findings: Vec<Finding>,
    pub calls: Vec<Call>,
    /// Per speaker: `checked of calls`, and the reasons of those not checked.
    pub coverage: BTreeMap<String, (String, Vec<String>)>,
    /// Every script a speaker holds: name, path, SHA1.
    pub scripts: Vec<(String, String, String)>,
}

fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or(0) as usize
}

/// Runs `check` and `extract` on `dir`.
pub fn snapshot(dir: &Path) -> Result<Snapshot, String> {
    let (_, out, err) = run(&["check", ".", "--format", "json"], dir);
    let check: Value =
        serde_json::from_str(&out).map_err(|e| format!("check output is not JSON ({e}): {err}"))?;
    let (_, out, err) = run(&["extract", ".", "--format", "json"], dir);
    let extract: Value = serde_json::from_str(&out)
        .map_err(|e| format!("extract output is not JSON ({e}): {err}"))?;
    let mut snap = Snapshot::default();
    for d in check["diagnostics"].as_array().into_iter().flatten() {
        snap.findings.push(Finding {
            code: str_of(&d["code"]),
            severity: str_of(&d["severity"]),
            speaker: str_of(&d["speaker"]),
            path: str_of(&d["path"]),
            offset: num(&d["span"]["start"]["offset"]),
            line: num(&d["span"]["start"]["line"]),
            message: str_of(&d["message"]),
        });
    }
    for s in check["coverage"]["speakers"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let unchecked = s["unchecked"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|u| {
                format!(
                    "{}:{}: {}",
                    str_of(&u["path"]),
                    u["span"]["start"]["line"],
                    str_of(&u["reason"])
                )
            })
            .collect();
        let counts = format!("{} of {}", s["checked"], s["calls"]);
        snap.coverage
            .insert(str_of(&s["speaker"]), (counts, unchecked));
    }
    for s in extract["speakers"].as_array().into_iter().flatten() {
        let speaker = str_of(&s["name"]);
        for c in s["calls"].as_array().into_iter().flatten() {
            snap.calls.push(Call {
                speaker: speaker.clone(),
                path: str_of(&c["at"]["path"]),
                line: num(&c["at"]["line"]),
                what: format!(
                    "`{}` numkeys {} keys {} argv {}{}{}",
                    str_of(&c["script"]),
                    c["numkeys"],
                    c["keys"],
                    c["argv"],
                    if c["keys_complete"] == true {
                        ""
                    } else {
                        " (keys incomplete)"
                    },
                    if c["argv_complete"] == true {
                        ""
                    } else {
                        " (argv incomplete)"
                    },
                ),
            });
        }
        for sc in s["scripts"].as_array().into_iter().flatten() {
            snap.scripts.push((
                str_of(&sc["name"]),
                str_of(&sc["at"]["path"]),
                str_of(&sc["sha1"]),
            ));
        }
    }
    Ok(snap)
}

/// One rewritten file of a case: its path, bytes before and after, the
/// files the rewrite created, and the rewrite (for the mapping).
pub struct FileEdit {
    pub path: String,
    pub before: Vec<u8>,
    pub after: Vec<u8>,
    pub created: Vec<(String, Vec<u8>)>,
    pub rewritten: Rewritten,
}

/// The rewritten files of a case.
pub struct Mapping<'a> {
    pub edits: &'a [FileEdit],
}

impl Mapping<'_> {
    /// Where the original byte `offset` of `path` (on `line`) is after the
    /// rewrite: path and line.
    fn place(&self, path: &str, offset: usize, line: usize) -> (String, usize) {
        let Some(edit) = self.edits.iter().find(|e| e.path == path) else {
            return (path.to_string(), line);
        };
        let (moved, at) = edit.rewritten.map(offset);
        match moved {
            None => (path.to_string(), line_of(&edit.after, at)),
            Some(p) => {
                let text = edit
                    .created
                    .iter()
                    .find(|(c, _)| *c == p)
                    .map(|(_, t)| t.as_slice())
                    .unwrap_or(&[]);
                (p, line_of(text, at))
            }
        }
    }

    fn finding(&self, f: &Finding) -> String {
        let (path, line) = self.place(&f.path, f.offset, f.line);
        format!("{} {} [{}] {path}:{line}", f.code, f.severity, f.speaker)
    }

    /// A call is known by its line: wherever a byte of that line went
    /// (the call may be anywhere on it).
    fn call_places(&self, c: &Call) -> Vec<(String, usize)> {
        let Some(edit) = self.edits.iter().find(|e| e.path == c.path) else {
            return vec![(c.path.clone(), c.line)];
        };
        let start = offset_of_line(&edit.before, c.line);
        let end = edit.before[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(edit.before.len(), |i| start + i);
        let mut out: Vec<(String, usize)> = (start..end.max(start + 1))
            .map(|at| self.place(&c.path, at, c.line))
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

fn key(f: &Finding) -> String {
    format!(
        "{} {} [{}] {}:{}",
        f.code, f.severity, f.speaker, f.path, f.line
    )
}

/// What `b` has more than `a`, as a multiset.
fn minus<'x>(a: &[(String, &'x str)], b: &[(String, &'x str)]) -> Vec<(String, &'x str)> {
    let mut left: Vec<&String> = a.iter().map(|x| &x.0).collect();
    let mut out = Vec::new();
    for (k, m) in b {
        match left.iter().position(|l| *l == k) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => out.push((k.clone(), *m)),
        }
    }
    out
}

/// How the rewritten run differs from the original one mapped through the
/// edit; empty when the rewrite held. Findings first, then calls, then
/// coverage.
pub fn compare(before: &Snapshot, after: &Snapshot, map: &Mapping) -> Vec<String> {
    let want: Vec<(String, &str)> = before
        .findings
        .iter()
        .map(|f| (map.finding(f), f.message.as_str()))
        .collect();
    let got: Vec<(String, &str)> = after
        .findings
        .iter()
        .map(|f| (key(f), f.message.as_str()))
        .collect();
    let mut out = Vec::new();
    for (k, m) in minus(&want, &got) {
        out.push(format!("new finding {k}: {m}"));
    }
    for (k, m) in minus(&got, &want) {
        out.push(format!("finding gone {k}: {m}"));
    }
    let mut left: Vec<&Call> = after.calls.iter().collect();
    for c in &before.calls {
        let places = map.call_places(c);
        let found = left.iter().position(|n| {
            n.speaker == c.speaker
                && n.what == c.what
                && places.iter().any(|(p, l)| *p == n.path && *l == n.line)
        });
        match found {
            Some(i) => {
                left.swap_remove(i);
            }
            None => out.push(format!(
                "linked call gone [{}] {}:{} {}",
                c.speaker, c.path, c.line, c.what
            )),
        }
    }
    for n in left {
        out.push(format!(
            "linked call new [{}] {}:{} {}",
            n.speaker, n.path, n.line, n.what
        ));
    }
    for (speaker, (counts, _)) in &before.coverage {
        let (now, unchecked) = after
            .coverage
            .get(speaker)
            .cloned()
            .unwrap_or_else(|| ("no calls".to_string(), Vec::new()));
        if *counts != now {
            out.push(format!(
                "coverage of {speaker}: {counts} checked, now {now}{}",
                unchecked
                    .first()
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default()
            ));
        }
    }
    out
}
