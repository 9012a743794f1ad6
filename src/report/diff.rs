//! `wirelint diff` output: the changes between a git revision and the work
//! tree, in six formats. The work-tree side of a change is a path into the
//! work tree; the base side is `REF:path:line`, since its bytes are read
//! from git and exist nowhere on disk. Formats only; `crate::views::diff`
//! computes.

use std::collections::BTreeMap;

use serde::Serialize;

use super::graphical::{self, Excerpt, Part};
use super::json::{span_out, SpanOut};
use super::{span_lines, Output, Reporter};
use crate::diagnostic::Severity;
use crate::facts::Span;
use crate::pipeline::Analysis;
use crate::post::baseline::{normalize, Key};
use crate::views::diff::Change;

/// The `wirelint diff --format json` document's `version`.
pub const VERSION: u32 = 1;

/// Everything a diff reporter needs.
pub struct DiffRun<'a> {
    pub base: &'a Analysis,
    pub head: &'a Analysis,
    /// REF as given, and the commit it names.
    pub against: &'a str,
    pub commit: &'a str,
    pub changes: &'a [Change],
    /// Whether stderr is a colour terminal (the full format).
    pub color: bool,
}

/// `diff --format full`: graphical reports on stderr.
pub struct Full;
/// `diff --format concise`: one line per change on stdout.
pub struct Concise;
/// `diff --format json`: one JSON document on stdout.
pub struct Json;
/// `diff --format github`: workflow annotations on stdout.
pub struct Github;
/// `diff --format sarif`: SARIF 2.1.0 on stdout (`super::sarif::render_diff`).
pub struct Sarif;
/// `diff --format gitlab`: a GitLab Code Quality report on stdout
/// (`super::gitlab::render_diff`).
pub struct Gitlab;

impl Reporter<DiffRun<'_>> for Full {
    fn report(&self, run: &DiffRun<'_>) -> Output {
        Output::stderr(render_human(run, run.color))
    }
}

impl Reporter<DiffRun<'_>> for Concise {
    fn report(&self, run: &DiffRun<'_>) -> Output {
        Output::stdout(render_concise(run))
    }
}

impl Reporter<DiffRun<'_>> for Json {
    fn report(&self, run: &DiffRun<'_>) -> Output {
        Output::stdout(render_json(run))
    }
}

impl Reporter<DiffRun<'_>> for Github {
    fn report(&self, run: &DiffRun<'_>) -> Output {
        Output::stdout(render_github(run))
    }
}

impl Reporter<DiffRun<'_>> for Sarif {
    fn report(&self, run: &DiffRun<'_>) -> Output {
        Output::stdout(super::sarif::render_diff(run))
    }
}

impl Reporter<DiffRun<'_>> for Gitlab {
    fn report(&self, run: &DiffRun<'_>) -> Output {
        Output::stdout(super::gitlab::render_diff(run))
    }
}

/// Where a change is reported: its work-tree side, else (a removal) its
/// base side; with the analysis the span belongs to.
pub fn primary<'a>(run: &DiffRun<'a>, c: &Change) -> Option<(&'a Analysis, Span)> {
    match (c.head, c.base) {
        (Some(h), _) => Some((run.head, h)),
        (None, Some(b)) => Some((run.base, b)),
        (None, None) => None,
    }
}

/// Each change's identity for the SARIF and GitLab fingerprints, as
/// `check`'s ([`crate::post::baseline::Key`]): code, the path it is reported at,
/// the normalized bytes there, and the message with the speaker; never a
/// line number. The index counts equal keys before it.
pub fn change_keys(run: &DiffRun) -> Vec<(Key, usize)> {
    let mut seen: BTreeMap<Key, usize> = BTreeMap::new();
    run.changes
        .iter()
        .map(|c| {
            let (path, fact) = match primary(run, c) {
                Some((a, span)) => {
                    let f = a.sources.get(span.file);
                    (f.rel.clone(), normalize(&f.snippet(span)))
                }
                None => (String::new(), String::new()),
            };
            let key = Key {
                code: c.code.to_string(),
                path,
                fact,
                message: normalize(&format!("{} [{}]", c.message, c.speaker)),
            };
            let n = seen.entry(key.clone()).or_insert(0);
            let i = *n;
            *n += 1;
            (key, i)
        })
        .collect()
}

impl DiffRun<'_> {
    pub fn errors(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| c.kind().severity == Severity::Error)
            .count()
    }
    pub fn warnings(&self) -> usize {
        self.changes.len() - self.errors()
    }
    /// `REF:path:line`.
    fn base_loc(&self, span: Span) -> String {
        let (s, _) = span_lines(self.base, span);
        format!(
            "{}:{}:{}",
            self.against,
            self.base.sources.get(span.file).rel,
            s.line
        )
    }
}

/// The closing line: what changed and why the exit code is what it is.
pub fn closing_line(run: &DiffRun, exit_code: i32, fail_on: Severity) -> String {
    let summary = super::Summary {
        files: run.head.files_checked,
        errors: run.errors(),
        warnings: run.warnings(),
    };
    let closing = super::closing_line(&summary, exit_code, fail_on, None);
    let short = &run.commit[..run.commit.len().min(12)];
    format!(
        "wirelint diff against {} ({short}): {}",
        run.against,
        closing.trim_start_matches("wirelint: ")
    )
}

/// `path:line:col: SEVERITY[CODE]: message [speaker] (was REF:path:line)`,
/// as `check --format concise`; a removal, which has no work-tree side, is
/// located at `REF:path:line:col`.
pub fn render_concise(run: &DiffRun) -> String {
    let mut out = String::new();
    for c in run.changes {
        out.push_str(&concise_line(run, c));
        out.push('\n');
    }
    out
}

/// One change as `render_concise` writes it, without the newline.
fn concise_line(run: &DiffRun, c: &Change) -> String {
    let k = c.kind();
    let where_ = match (c.head, c.base) {
        (Some(h), _) => {
            let (s, _) = span_lines(run.head, h);
            format!(
                "{}:{}:{}",
                run.head.sources.get(h.file).rel,
                s.line,
                s.column
            )
        }
        (None, Some(b)) => {
            let (s, _) = span_lines(run.base, b);
            format!(
                "{}:{}:{}:{}",
                run.against,
                run.base.sources.get(b.file).rel,
                s.line,
                s.column
            )
        }
        (None, None) => match &c.file {
            Some(f) => f.shown(run.against),
            None => ".".to_string(),
        },
    };
    let was = match (c.head, c.base) {
        (Some(_), Some(b)) => format!(" (was {})", run.base_loc(b)),
        _ => String::new(),
    };
    format!(
        "{where_}: {}[{}]: {} [{}]{was}",
        k.severity.as_str(),
        k.code,
        super::escape::text(&c.message),
        super::escape::text(&c.speaker)
    )
}

#[derive(Serialize)]
struct Doc<'a> {
    version: u32,
    tool: Tool,
    against: Against<'a>,
    summary: SummaryOut,
    changes: Vec<ChangeOut<'a>>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Against<'a> {
    #[serde(rename = "ref")]
    reference: &'a str,
    commit: &'a str,
}

#[derive(Serialize)]
struct SummaryOut {
    base_files: usize,
    head_files: usize,
    errors: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct Side {
    path: String,
    span: SpanOut,
}

#[derive(Serialize)]
struct ChangeOut<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    layer: &'static str,
    speaker: &'a str,
    message: &'a str,
    before: Option<&'a str>,
    after: Option<&'a str>,
    base: Option<Side>,
    head: Option<Side>,
}

/// `--format json`: one document (shape in `docs/json-output.md`).
pub fn render_json(run: &DiffRun) -> String {
    let side = |a: &Analysis, s: Span| Side {
        path: a.sources.get(s.file).rel.clone(),
        span: span_out(a, s),
    };
    let doc = Doc {
        version: VERSION,
        tool: Tool {
            name: "wirelint",
            version: env!("CARGO_PKG_VERSION"),
        },
        against: Against {
            reference: run.against,
            commit: run.commit,
        },
        summary: SummaryOut {
            base_files: run.base.files_checked,
            head_files: run.head.files_checked,
            errors: run.errors(),
            warnings: run.warnings(),
        },
        changes: run
            .changes
            .iter()
            .map(|c| {
                let k = c.kind();
                ChangeOut {
                    code: k.code,
                    name: k.name,
                    severity: k.severity.as_str(),
                    layer: k.layer.as_str(),
                    speaker: &c.speaker,
                    message: &c.message,
                    before: c.before.as_deref(),
                    after: c.after.as_deref(),
                    base: c.base.map(|s| side(run.base, s)),
                    head: c.head.map(|s| side(run.head, s)),
                }
            })
            .collect(),
    };
    let mut s =
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// `--format github`: one workflow annotation per change, on the work-tree
/// side (a removal on the base file's path and line).
pub fn render_github(run: &DiffRun) -> String {
    use super::github::{escape_data, escape_property, position};
    let shown = |s: &str| super::escape::text(s).into_owned();
    let mut out = String::new();
    for c in run.changes {
        let k = c.kind();
        let level = match k.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let (a, span) = match (c.head, c.base) {
            (Some(h), _) => (run.head, h),
            (None, Some(b)) => (run.base, b),
            (None, None) => {
                let title = escape_property(&format!("{} {}", k.code, k.name));
                let text = escape_data(&format!("{} [{}]", shown(&c.message), shown(&c.speaker)));
                out.push_str(&format!("::{level} title={title}::{text}\n"));
                continue;
            }
        };
        let (s, e) = span_lines(a, span);
        let mut props = vec![format!(
            "file={}",
            escape_property(&a.sources.get(span.file).rel)
        )];
        props.extend(position(s, e));
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {}", k.code, k.name))
        ));
        let mut text = format!("{} [{}]", shown(&c.message), shown(&c.speaker));
        if let Some(h) = help(c) {
            text.push_str(&format!("\nhelp: {h}"));
        }
        for &call in &c.callers {
            let (cs, _) = span_lines(run.head, call);
            let f = run.head.sources.get(call.file);
            text.push_str(&format!("\n{}: {}:{}", shown(&c.still.1), f.rel, cs.line));
        }
        if let Some(b) = c.base {
            text.push_str(&format!("\nat the base: {}", run.base_loc(b)));
        }
        out.push_str(&format!(
            "::{level} {}::{}\n",
            props.join(","),
            escape_data(&text)
        ));
    }
    out
}

/// A snippet of one side: its file's lines around the span, named `name`,
/// one label.
fn snippet(
    a: &Analysis,
    span: Span,
    name: String,
    message: String,
    text: String,
    primary: bool,
) -> Part<Excerpt> {
    let f = a.sources.get(span.file);
    let (src, ranges) = Excerpt::new(name, f, &[span], 2);
    let text = super::escape::text(&text).into_owned();
    let label = graphical::label(ranges[0].clone(), Some(text), primary);
    Part::advice(super::escape::text(&message).into_owned(), src, vec![label])
}

pub fn help(c: &Change) -> Option<String> {
    let retire = |what: &str| {
        Some(format!(
            "if no speaker sends or reads it any more, list it under [retired] {what} in the contract"
        ))
    };
    match c.code {
        "WD101" => retire("keys"),
        "WD201" => retire("fields"),
        "WD303" => retire("scripts"),
        "WD102" | "WD202" | "WD301" | "WD302" => Some(
            "every other speaker must change with it, or rows become unfindable, unreadable or never queued"
                .into(),
        ),
        _ => None,
    }
}

/// miette reports on the work-tree side with the base side as a nested
/// snippet named `REF:path`.
pub fn render_human(run: &DiffRun, color: bool) -> String {
    let handler = graphical::handler(color, 120);
    let mut out = String::new();
    let max = super::human::MAX_FULL;
    for c in run.changes.iter().take(max) {
        let k = c.kind();
        let now = |what: &Option<String>| match what {
            Some(w) => format!("now: {w}"),
            None => "here".into(),
        };
        let was = |what: &Option<String>| match what {
            Some(w) => format!("was: {w}"),
            None => "here".into(),
        };
        let base_part = c.base.map(|b| {
            let f = run.base.sources.get(b.file);
            snippet(
                run.base,
                b,
                format!("{}:{}", run.against, f.rel),
                format!("at {}", run.against),
                was(&c.before),
                c.head.is_none(),
            )
        });
        let mut part = match (c.head, base_part) {
            (Some(h), base) => {
                let f = run.head.sources.get(h.file);
                let mut p = snippet(
                    run.head,
                    h,
                    f.rel.clone(),
                    String::new(),
                    now(&c.after),
                    true,
                );
                p.related.extend(base);
                for &call in &c.callers {
                    let f = run.head.sources.get(call.file);
                    p.related.push(snippet(
                        run.head,
                        call,
                        f.rel.clone(),
                        c.still.0.into(),
                        super::escape::text(&c.still.1).into_owned(),
                        false,
                    ));
                }
                p
            }
            (None, Some(b)) => b,
            (None, None) => {
                out.push_str(&concise_line(run, c));
                out.push_str("\n\n");
                continue;
            }
        };
        part.message = super::escape::text(&format!("{} [{}]", c.message, c.speaker)).into_owned();
        part.code = Some(format!("{} {}", k.code, k.name));
        part.severity = graphical::severity(k.severity);
        part.help = help(c);
        if graphical::render(&handler, &mut out, &part).is_err() {
            out.push_str(&format!(
                "{}: {}\n",
                k.code,
                super::escape::text(&c.message)
            ));
        }
        out.push('\n');
    }
    if run.changes.len() > max {
        out.push_str(&format!(
            "{} more changes, one line each (the first {max} are shown in full):\n",
            run.changes.len() - max
        ));
        for c in &run.changes[max..] {
            out.push_str(&concise_line(run, c));
            out.push('\n');
        }
        out.push('\n');
    }
    out
}
