//! Coverage as text (`check --coverage`, and the one summary line of the
//! human formats), as the JSON document's `coverage` object, and as the
//! warning that ends the closing line of a run that linked few of its
//! script calls ([`Partial`]).

use serde::Serialize;

use super::json::{span_out, SpanOut};
use crate::facts::Span;
use crate::pipeline::Analysis;
use crate::scope::root::RootView;
use crate::views::coverage::{Coverage, Unlinked};

#[derive(Serialize)]
struct Doc {
    calls: usize,
    checked: usize,
    speakers: Vec<SpeakerOut>,
    unused_scripts: Vec<UnusedOut>,
    unchecked_records: Vec<RecordOut>,
}

#[derive(Serialize)]
struct RecordOut {
    record: String,
    #[serde(flatten)]
    at: Place,
    reason: &'static str,
}

#[derive(Serialize)]
struct SpeakerOut {
    speaker: String,
    calls: usize,
    test_calls: usize,
    checked: usize,
    unchecked: Vec<UncheckedOut>,
}

/// Where an entry stands: its file and its span.
#[derive(Serialize)]
struct Place {
    path: String,
    span: SpanOut,
}

fn place(a: &Analysis, span: Span) -> Place {
    Place {
        path: a.sources.get(span.file).rel.clone(),
        span: span_out(a, span),
    }
}

#[derive(Serialize)]
struct UncheckedOut {
    #[serde(flatten)]
    at: Place,
    linked: bool,
    test: bool,
    /// Only when true: a public wrapper's body ([`crate::views::coverage::Unchecked::wrapper`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    wrapper: bool,
    reason: String,
}

#[derive(Serialize)]
struct UnusedOut {
    script: String,
    #[serde(flatten)]
    at: Place,
}

/// The `coverage` object of the JSON document.
pub fn to_json(a: &Analysis, c: &Coverage) -> serde_json::Value {
    let doc = Doc {
        calls: c.calls(),
        checked: c.checked(),
        speakers: c
            .speakers
            .iter()
            .map(|s| SpeakerOut {
                speaker: a.model.speaker_name(s.speaker).to_string(),
                calls: s.calls,
                test_calls: s.test_calls,
                checked: s.checked,
                unchecked: s
                    .unchecked
                    .iter()
                    .map(|u| UncheckedOut {
                        at: place(a, u.span),
                        linked: u.linked,
                        test: u.test,
                        wrapper: u.wrapper,
                        reason: u.reason.clone(),
                    })
                    .collect(),
            })
            .collect(),
        unused_scripts: c
            .unused
            .iter()
            .map(|u| UnusedOut {
                script: u.name.clone(),
                at: place(a, u.span),
            })
            .collect(),
        unchecked_records: c
            .records
            .iter()
            .map(|r| RecordOut {
                record: r.key.clone(),
                at: place(a, r.span),
                reason: r.reason,
            })
            .collect(),
    };
    serde_json::to_value(doc).unwrap_or(serde_json::Value::Null)
}

fn at(a: &Analysis, span: Span) -> String {
    let f = a.sources.get(span.file);
    let lc = f.line_col(span.start);
    format!("{}:{}:{}", f.rel, lc.line, lc.column)
}

/// The one line of the human formats; `None` when no script is run and
/// none is defined.
pub fn summary_line(c: &Coverage, listed: bool) -> Option<String> {
    let calls = c.calls();
    let unused = c.unused.len();
    if calls == 0 && unused == 0 {
        return None;
    }
    let checked = c.checked();
    let mut line = match calls {
        0 => "wirelint: no script call seen".to_string(),
        _ => format!(
            "wirelint: {checked} of {calls} script call{} checked",
            s(calls)
        ),
    };
    let unlinked = c.unlinked();
    let wrappers = c.wrappers();
    let other = calls - checked - unlinked - wrappers;
    if unlinked > 0 {
        line.push_str(&format!("; {unlinked} not linked"));
    }
    if wrappers > 0 {
        line.push_str(&format!("; {wrappers} public wrapper{}", s(wrappers)));
    }
    if other > 0 {
        line.push_str(&format!("; {other} linked but not countable"));
    }
    if unused > 0 {
        line.push_str(&format!("; {unused} script{} run by no call", s(unused)));
    }
    if (checked < calls || unused > 0) && !listed {
        line.push_str(": --coverage lists them");
    }
    Some(line)
}

fn s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What the closing line warns of: more than half of the script calls
/// outside test code not linked to a script, or scripts outside test
/// code where no call outside it was seen at all (how the code runs them
/// wirelint could not tell), and how the run's root stands (a folder
/// nothing marks as a project's root may leave the scripts out of
/// reach).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partial {
    pub unlinked: Unlinked,
    /// The scripts outside test code run by no call, when no call
    /// outside test code was seen; else 0.
    pub unrun: usize,
    pub root: RootView,
}

impl Partial {
    /// `Some` when most calls outside test code are not linked, or when
    /// none was seen and a script outside test code is run by none.
    pub fn of(c: &Coverage, root: impl FnOnce() -> RootView) -> Option<Partial> {
        let unlinked = c.unlinked_outside_tests();
        let unrun = match unlinked.calls {
            0 => c.unused.len(),
            _ => 0,
        };
        (unlinked.most() || unrun > 0).then(|| Partial {
            unlinked,
            unrun,
            root: root(),
        })
    }

    /// The words the closing line ends with.
    pub fn warning(&self) -> String {
        let Unlinked { unlinked, calls } = self.unlinked;
        let mut out = match self.unrun {
            0 => format!(
                "; warning: {unlinked} of {calls} script call{} outside test code not linked, so \
                 not checked",
                s(calls)
            ),
            n => format!(
                "; warning: no call seen to run the {n} script{} outside test code, so {} keys \
                 and arguments are not checked",
                s(n),
                if n == 1 { "its" } else { "their" }
            ),
        };
        match &self.root {
            RootView::Project => {}
            RootView::Unmarked(Some((dir, file))) => out.push_str(&format!(
                "; no .git or wirelint.toml marks the project root: `wirelint check {dir}` reads \
                 the whole project ({dir} holds {file})"
            )),
            RootView::Unmarked(None) => out.push_str(
                "; no .git or wirelint.toml marks the project root, so this view may be partial",
            ),
        }
        out
    }
}

/// `check --coverage`: each speaker's calls, every call not checked with
/// its reason, the scripts no speaker runs, and the records the field
/// rules do not check.
pub fn render_text(a: &Analysis, c: &Coverage) -> String {
    let shown = |s: &str| super::escape::text(s).into_owned();
    let mut out = String::new();
    for s in &c.speakers {
        // Test code's calls are checked, and are no use of the speaker's
        // (the matrix and `extract` leave them out): said apart.
        let tests = match s.test_calls {
            0 => String::new(),
            n => format!(" ({n} in test code)"),
        };
        out.push_str(&format!(
            "coverage: {}: {} of {} script calls checked{tests}\n",
            shown(a.model.speaker_name(s.speaker)),
            s.checked,
            s.calls
        ));
        for u in &s.unchecked {
            out.push_str(&format!(
                "  {}: {}{}: {}\n",
                at(a, u.span),
                if u.linked {
                    "not checked"
                } else {
                    "not linked"
                },
                if u.test { " (test code)" } else { "" },
                shown(&u.reason)
            ));
        }
    }
    for u in &c.unused {
        out.push_str(&format!(
            "coverage: script `{}` ({}) is run by no speaker\n",
            shown(&u.name),
            at(a, u.span)
        ));
    }
    for r in &c.records {
        out.push_str(&format!(
            "coverage: record `{}` ({}): fields not checked: {}\n",
            shown(&r.key),
            at(a, r.span),
            r.reason
        ));
    }
    out
}

/// What the human formats add on stderr: the listing when asked for, then
/// the summary line.
pub fn listing(run: &super::CheckRun<'_>) -> String {
    let mut out = String::new();
    if run.list_coverage {
        out.push_str(&render_text(run.analysis, run.coverage));
    }
    if let Some(line) = summary_line(run.coverage, run.list_coverage).filter(|_| !run.quiet) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
