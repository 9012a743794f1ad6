//! Coverage: what the script checks could and could not see
//! (`wirelint check --coverage`, and `coverage` in the JSON).
//!
//! Silence from wirelint should mean "checked and fine". Every place a
//! script is run is counted per speaker: **checked** when it is linked to a
//! script whose key count is known (declared, or read from a body that uses
//! fixed `KEYS[n]`) and the call's own key count can be told; otherwise it
//! is listed with the reason. Scripts that no speaker runs (and no other
//! script includes) are listed too, so that a dead copy does not pass for a
//! contract; and the records whose fields the field rules (WL203, WL204)
//! leave alone, each with the reason. Computes only; reporters render.

use crate::facts::Span;
use crate::link::runs;
use crate::link::{ScriptId, SpeakerId};
use crate::pipeline::Analysis;

/// Coverage of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// One entry per speaker that runs at least one script, in speaker order.
    pub speakers: Vec<SpeakerCoverage>,
    /// Scripts that no call site runs, in definition order.
    pub unused: Vec<Unused>,
    /// Records the field rules do not check, in key order.
    pub records: Vec<UncheckedRecord>,
}

/// A record whose fields are not all known: no field rule concludes a
/// field is missing from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncheckedRecord {
    /// Its key shape: `<*>:<*>:<*>`.
    pub key: String,
    /// The use that makes it so.
    pub span: Span,
    /// Why, in words.
    pub reason: &'static str,
}

/// The script calls of one speaker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpeakerCoverage {
    pub speaker: SpeakerId,
    /// Every place the speaker runs a script.
    pub calls: usize,
    /// Those in test code.
    pub test_calls: usize,
    /// Those whose keys were checked against the script.
    pub checked: usize,
    /// The others, in file and offset order.
    pub unchecked: Vec<Unchecked>,
}

/// A script call site that no KEYS check covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unchecked {
    pub span: Span,
    /// Whether it was linked to a script at all.
    pub linked: bool,
    /// Why it is not checked, in words.
    pub reason: String,
    /// Whether the file is test code (a `test`/`tests`/`spec` directory
    /// or a `_test`/`_spec` file).
    pub test: bool,
    /// Not linked because it is the body of a public wrapper that no call
    /// in the tree binds: its script is its callers' (outside the tree, or
    /// client calls counted where they are), so it is no invocation of its
    /// own.
    pub wrapper: bool,
}

/// A script no speaker runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unused {
    pub script: ScriptId,
    pub name: String,
    pub span: Span,
}

impl Coverage {
    /// All calls, over every speaker.
    pub fn calls(&self) -> usize {
        self.speakers.iter().map(|s| s.calls).sum()
    }

    /// All checked calls.
    pub fn checked(&self) -> usize {
        self.speakers.iter().map(|s| s.checked).sum()
    }

    /// All calls not linked to a script (public wrappers apart).
    pub fn unlinked(&self) -> usize {
        self.unchecked().filter(|u| !u.linked && !u.wrapper).count()
    }

    /// All bodies of public wrappers no call in the tree binds.
    pub fn wrappers(&self) -> usize {
        self.unchecked().filter(|u| u.wrapper).count()
    }

    /// Every call not checked, speaker by speaker.
    pub fn unchecked(&self) -> impl Iterator<Item = &Unchecked> {
        self.speakers.iter().flat_map(|s| &s.unchecked)
    }

    /// The calls outside test code not linked to a script, and all the
    /// calls outside test code, public wrappers apart (no invocation of
    /// their own).
    pub fn unlinked_outside_tests(&self) -> Unlinked {
        let outside = |u: &&Unchecked| !u.test;
        let calls: usize = self.speakers.iter().map(|s| s.calls - s.test_calls).sum();
        let wrappers = self
            .unchecked()
            .filter(outside)
            .filter(|u| u.wrapper)
            .count();
        Unlinked {
            unlinked: self
                .unchecked()
                .filter(outside)
                .filter(|u| !u.linked && !u.wrapper)
                .count(),
            calls: calls - wrappers,
        }
    }

    /// Whether the run leaves a script unchecked that its summary must
    /// say aloud: a call outside test code not linked to a script, or a
    /// script no call runs.
    pub fn has_gaps(&self) -> bool {
        self.unlinked_outside_tests().unlinked > 0 || !self.unused.is_empty()
    }
}

/// Script calls outside test code (public wrappers apart), and how many
/// of them are linked to no script.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unlinked {
    pub unlinked: usize,
    pub calls: usize,
}

impl Unlinked {
    /// More than half of the calls are not linked: a run that finds
    /// nothing then says it checked little, not that all is clean.
    pub fn most(&self) -> bool {
        self.unlinked * 2 > self.calls
    }
}

pub use crate::source::is_test_path;

/// Which spans of an analysis are test code: in a test file, or in a
/// region the extractor marked as test code (`#[cfg(test)]`, a test
/// function). Test files are read once per file.
pub struct TestCode<'a> {
    files: Vec<bool>,
    regions: &'a [Span],
}

impl<'a> TestCode<'a> {
    pub fn of(a: &'a Analysis) -> TestCode<'a> {
        TestCode {
            files: a
                .sources
                .iter()
                .map(|(_, f)| is_test_path(&f.rel))
                .collect(),
            regions: &a.model.test_regions,
        }
    }

    pub fn holds(&self, span: Span) -> bool {
        self.files.get(span.file as usize).copied().unwrap_or(false)
            || self.regions.iter().any(|r| span.inside(*r))
    }
}

/// Coverage of an analysis: the model's runs ([`crate::link::runs`]),
/// counted per speaker. With `shown` (by file id, the files in the paths
/// given when the run's root lies above them), only the call sites and
/// scripts in those files: a run from `elixir/` says how much of the
/// Elixir speaker is checked, not the Rust one's.
pub fn build(a: &Analysis, shown: Option<&[bool]>) -> Coverage {
    let shown = |span: Span| shown.is_none_or(|s| s.get(span.file as usize) == Some(&true));
    let m = &a.model;
    let mut per: Vec<SpeakerCoverage> = (0..m.speakers.len())
        .map(|speaker| SpeakerCoverage {
            speaker,
            ..SpeakerCoverage::default()
        })
        .collect();
    let test_code = TestCode::of(a);
    let test = |span: Span| test_code.holds(span);
    let all = runs::runs(m, a.contract.as_ref());
    for r in all.iter().filter(|r| shown(r.site)) {
        let Some(s) = per.get_mut(r.speaker) else {
            continue;
        };
        s.calls += 1;
        s.test_calls += usize::from(test(r.site));
        match &r.unchecked {
            None => s.checked += 1,
            Some((linked, reason)) => s.unchecked.push(Unchecked {
                span: r.site,
                linked: *linked,
                reason: reason.clone(),
                test: test(r.site),
                wrapper: r.wrapper,
            }),
        }
    }
    for s in &mut per {
        s.unchecked
            .sort_by_key(|u| (u.span.file, u.span.start, u.span.end));
    }
    per.retain(|s| s.calls > 0);
    let run = runs::run_scripts(&all);
    let unused = m
        .scripts
        .iter()
        .enumerate()
        .filter(|(i, s)| s.is_redis() && s.body && !s.included && !run.contains(i))
        // A script a test defines is no speaker's, as the matrix has it.
        .filter(|(_, s)| shown(s.def_span) && !test(s.def_span))
        .map(|(i, s)| Unused {
            script: i,
            name: s.display_name(a.contract.as_ref()),
            span: s.def_span,
        })
        .collect();
    let records = m
        .records
        .iter()
        .filter_map(|r| {
            let (why, span) = r.unclear?;
            shown(span).then(|| UncheckedRecord {
                key: r.key.clone(),
                span,
                reason: why.reason(),
            })
        })
        .collect();
    Coverage {
        speakers: per,
        unused,
        records,
    }
}

#[cfg(test)]
mod tests {
    use super::is_test_path;

    #[test]
    fn test_paths() {
        for p in [
            "test/q_test.exs",
            "lib/tests/a.rs",
            "src/foo_test.rs",
            "spec/x.ex",
            "src/tests.rs",
            "apps/a/test/support/helper.ex",
            "lib/commands/FCALL.spec.ts",
            "src/jobs.test.js",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in [
            "lib/q.ex",
            "src/contest.rs",
            "src/testing_util.rs",
            "test.rs",
            "src/spec.ts",
            "src/test.config.js.map.rs",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
    }
}
