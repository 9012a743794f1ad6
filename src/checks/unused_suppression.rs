//! # WL002 unused-suppression
//!
//! ## What it does
//! Warns about an inline suppression (`# wirelint: allow(WL201)`,
//! `// wirelint: allow(WL201)`, `-- wirelint: allow(WL201)`) that
//! suppresses nothing: no finding of that rule starts on its line or on the
//! line after it. A suppression naming a rule that `wirelint.toml` turns
//! off is not reported.
//!
//! ## Why it breaks the wire
//! It does not by itself. But a stale suppression stays armed: the day a
//! real divergence lands on that line, it is silenced without anyone having
//! looked at it.
//!
//! ## Example
//! ```elixir
//! # wirelint: allow(WL201)
//! redis.call('HSET', KEYS[1], 'state', 'pending', 'payload', ARGV[2])
//! ```
//! The line below writes only contract fields, so nothing is suppressed.
//!
//! ## How to fix
//! Delete the suppression, or move it onto the line of the finding it is
//! meant for (or the line just above). The finding carries the deletion
//! (`fix`, safe): the unused codes out of the list, or the whole comment,
//! with its line when it stands alone.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL002",
    name: "unused-suppression",
    layer: Layer::Input,
    severity: Severity::Warning,
    summary: "an inline suppression suppresses nothing",
    source: include_str!("unused_suppression.rs"),
    run,
};

/// Suppressions are matched against the other rules' findings after they
/// all ran, in `crate::post::suppress`; this pass adds nothing by itself.
fn run(_cx: &CheckContext<'_>, _out: &mut Vec<Diagnostic>) {}
