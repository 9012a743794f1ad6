//! Post-processing: what happens to an analysis's findings after the checks
//! and before a reporter, in this order:
//!
//! 1. `wirelint.toml`'s settings: rules turned off, severities
//!    ([`Settings::apply`]);
//! 2. inline suppressions, and WL002 for the unused ones
//!    ([`crate::post::suppress`]);
//! 3. a change-aware run's scope: the findings in the changed files and
//!    those the change introduces ([`crate::scope`]); and the paths given
//!    when the run's root lies above them ([`crate::scope::root`]);
//! 4. the baseline: only the findings it does not record
//!    ([`crate::post::baseline`]).
//!
//! `cli` runs the chain once ([`apply`]); `--write-baseline` records what is
//! left after step 3 ([`write_baseline`]).

use std::path::Path;

use crate::config::settings::Settings;
use crate::post::baseline::Baseline;
use crate::scope::root::Reported;
use crate::scope::Scope;

use super::Analysis;

/// What the chain needs besides the analysis.
pub struct Post<'a> {
    pub settings: &'a Settings,
    /// Change-aware runs: what is reported (`None`: every finding).
    pub only: Option<&'a Scope>,
    /// The paths given, when the root lies above them: what is reported.
    pub reported: Option<&'a Reported>,
    /// `--baseline FILE`.
    pub baseline: Option<&'a Path>,
    /// The most bytes read of the baseline (`--max-file-size`).
    pub max_bytes: u64,
}

/// What the chain did besides keeping findings.
#[derive(Debug, Default)]
pub struct Applied {
    /// How many findings the baseline left out.
    pub baselined: usize,
    /// A change-aware run: of each finding left, whether its base holds
    /// it already ([`crate::scope::mark_old`]).
    pub old: Vec<bool>,
}

/// Runs the chain on `a`'s findings, or says why the baseline cannot be
/// read.
pub fn apply(a: &mut Analysis, post: &Post<'_>) -> Result<Applied, String> {
    post.settings.apply(&mut a.diagnostics);
    crate::post::suppress::apply(a, post.settings);
    let mut old = match post.only {
        Some(scope) => scope.retain(a),
        None => vec![false; a.diagnostics.len()],
    };
    if let Some(r) = post.reported {
        let kept = r.retain(a);
        let mut it = kept.iter();
        old.retain(|_| *it.next().unwrap_or(&true));
    }
    let Some(path) = post.baseline else {
        return Ok(Applied { baselined: 0, old });
    };
    let b = Baseline::read(path, post.max_bytes)?;
    let all: Vec<_> = a.diagnostics.iter().collect();
    let new = b.new_findings(&a.sources, &all);
    let mut it = new.iter();
    a.diagnostics.retain(|_| *it.next().unwrap_or(&true));
    let mut it = new.iter();
    old.retain(|_| *it.next().unwrap_or(&true));
    Ok(Applied {
        baselined: new.iter().filter(|n| !**n).count(),
        old,
    })
}

/// Records `a`'s findings in a baseline file; returns how many, or why the
/// file cannot be written.
pub fn write_baseline(a: &Analysis, path: &Path) -> Result<usize, String> {
    let all: Vec<_> = a.diagnostics.iter().collect();
    let b = Baseline::of(&a.sources, &all);
    std::fs::write(path, b.to_json())
        .map_err(|e| format!("cannot write baseline {}: {e}", path.display()))?;
    Ok(all.len())
}
