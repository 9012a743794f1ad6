//! # WL309 argv-value
//!
//! ## What it does
//! Reads the literal values speakers pass in an ARGV slot against what the
//! script does with that slot, from literals only (never from names):
//! - the script reads the slot only to compare it with literals
//!   (`if ARGV[2] == "" then`), and one speaker passes two different
//!   literals that the script cannot tell apart (`"0"` and `"1"`, both not
//!   `""`): one of them takes a branch the speaker does not mean;
//! - one speaker passes only literals the script never compares with, where
//!   another speaker passes the script's own (`"1"` where the others pass
//!   `"force"`): the speakers use different vocabularies for one slot;
//! - the script reads the slot with `tonumber` and uses the number, and a
//!   speaker passes a literal that is not a number (`tonumber` gives `nil`)
//!   and that the script does not compare the slot with (`if ARGV[3] ~= ''
//!   then tonumber(ARGV[3])` handles `""`).
//!
//! ## Why it breaks the wire
//! ARGV values are bytes; the script gives them their meaning. A port that
//! encodes a flag as `"0"`/`"1"` where the script tests `== ""` sends a
//! "not forced" call that forces: nothing fails, the destructive branch
//! runs. Each runtime's own tests pass, because each tests only itself.
//!
//! ## Example
//! ```lua
//! -- obliterate: refuses while jobs are active unless forced
//! if ARGV[2] == "" then return -2 end
//! ```
//! ```rust
//! let force = if force { "1" } else { "0" };   // "0" forces too
//! ```
//!
//! ## How to fix
//! Pass exactly the values the script compares with (`""` and `"force"`),
//! as the other speakers do; pass numbers where it calls `tonumber`.

use std::collections::BTreeMap;

use super::{at_call, CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::Span;
use crate::link::{ScriptId, SpeakerId};

pub static RULE: Rule = Rule {
    code: "WL309",
    name: "argv-value",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a speaker passes an ARGV literal that takes a branch it does not mean, or that is not the number the script reads",
    source: include_str!("argv_value.rs"),
    run,
};

/// One literal a call may pass in a slot.
#[derive(Clone, Debug)]
struct Passed {
    speaker: SpeakerId,
    script: ScriptId,
    lit: String,
    /// Where the literal is written.
    at: Span,
    /// The call.
    call: Span,
}

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    // (script name, slot) → what the speakers pass there.
    let mut flags: BTreeMap<(String, u32), Vec<Passed>> = BTreeMap::new();
    for u in &cx.model.script_calls {
        let script = &cx.model.scripts[u.script];
        if !script.body {
            continue;
        }
        let argv = &script.lua.argv;
        for (j, a) in u.argv.iter().enumerate() {
            let n = j as u32 + 1;
            let Some(lits) = a.literals() else {
                continue;
            };
            for (lit, at) in lits {
                let p = Passed {
                    speaker: u.speaker,
                    script: u.script,
                    lit,
                    at,
                    call: u.span,
                };
                // A literal the script compares the slot with is one it
                // expects (`if ARGV[3] ~= '' then tonumber(ARGV[3])`).
                let expected = argv
                    .compared
                    .iter()
                    .any(|c| c.index == n && c.literal == p.lit);
                if let Some(read) = argv.numeric.iter().find(|r| r.0 == n) {
                    if !lua_number(&p.lit) && !expected {
                        out.push(not_a_number(cx, &p, n, read.1));
                    }
                }
                if argv.flag_values(n).is_some() {
                    flags
                        .entry((crate::link::normalize_name(&cx.script_name(u.script)), n))
                        .or_default()
                        .push(p);
                }
            }
        }
    }
    for ((_, n), mut passed) in flags {
        // The call in the literal's own file first: the bug is where the
        // literal is written, not at a caller of its wrapper.
        passed.sort_by_key(|p| {
            let elsewhere = p.call.file != p.at.file;
            (p.at.file, p.at.start, elsewhere, p.call.file, p.call.start)
        });
        flag_findings(cx, n, &passed, out);
    }
}

/// What Lua's `tonumber` reads as a number: decimal (with a fraction or an
/// exponent) or hexadecimal, around spaces.
fn lua_number(s: &str) -> bool {
    let t = s.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
    }
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'))
        && t.parse::<f64>().is_ok()
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.escape_debug())
}

fn not_a_number(cx: &CheckContext<'_>, p: &Passed, n: u32, read: Span) -> Diagnostic {
    let name = cx.script_name(p.script);
    let (span, built_at) = at_call(p.call, p.at);
    let mut d = RULE.diagnostic(
        format!(
            "{} is passed as `ARGV[{n}]`, which script `{name}` reads as a number",
            quote(&p.lit)
        ),
        Label::new(span, "not a number"),
    );
    if let Some(s) = built_at {
        d.related.push(Label::new(s, "the value is passed here"));
    }
    d.related.push(Label::new(
        read,
        format!("`{name}` reads `ARGV[{n}]` with `tonumber`"),
    ));
    let help = format!(
        "pass a number: `tonumber({})` is `nil` inside `{name}`",
        quote(&p.lit)
    );
    cx.blame_script(&mut d, p.speaker, help, "the script's ARGV", &name);
    d
}

/// The literals of one flag slot, speaker by speaker.
/// One speaker's literals in one flag slot, against the script's values.
struct Slot<'p> {
    n: u32,
    speaker: SpeakerId,
    name: String,
    /// The script's values, as a message shows them.
    shown: String,
    /// Distinct literals outside the script's values, first seen first.
    outside: Vec<&'p Passed>,
    compared_at: Option<Span>,
}

fn flag_findings(cx: &CheckContext<'_>, n: u32, passed: &[Passed], out: &mut Vec<Diagnostic>) {
    let mut speakers: Vec<SpeakerId> = passed.iter().map(|p| p.speaker).collect();
    speakers.sort_unstable();
    speakers.dedup();
    for sp in speakers {
        let mine: Vec<&Passed> = passed.iter().filter(|p| p.speaker == sp).collect();
        let Some(first) = mine.first() else {
            continue;
        };
        let script = &cx.model.scripts[first.script];
        let Some(values) = script.lua.argv.flag_values(n) else {
            continue;
        };
        let mut seen: Vec<&str> = Vec::new();
        let mut outside = Vec::new();
        for p in &mine {
            if !values.contains(&p.lit.as_str()) && !seen.contains(&p.lit.as_str()) {
                seen.push(&p.lit);
                outside.push(*p);
            }
        }
        let slot = Slot {
            n,
            speaker: sp,
            name: cx.script_name(first.script),
            shown: values
                .iter()
                .map(|v| quote(v))
                .collect::<Vec<_>>()
                .join(", "),
            outside,
            compared_at: script
                .lua
                .argv
                .compared
                .iter()
                .find(|c| c.index == n)
                .map(|c| c.span),
        };
        if slot.outside.len() >= 2 {
            out.push(same_branch(cx, &slot));
            continue;
        }
        // Only words the script never compares with, that no other speaker
        // passes, where another speaker passes the script's own.
        let distinct: std::collections::BTreeSet<&str> =
            mine.iter().map(|p| p.lit.as_str()).collect();
        let shared = passed
            .iter()
            .any(|p| p.speaker != sp && distinct.contains(p.lit.as_str()));
        if slot.outside.len() != distinct.len() || shared {
            continue;
        }
        if let Some(other) = passed
            .iter()
            .find(|p| p.speaker != sp && values.contains(&p.lit.as_str()))
        {
            out.push(other_vocabulary(cx, &slot, other));
        }
    }
}

/// Two literals of one speaker the script cannot tell apart.
fn same_branch(cx: &CheckContext<'_>, s: &Slot<'_>) -> Diagnostic {
    let (a, b) = (s.outside[0], s.outside[1]);
    let (name, n, shown) = (&s.name, s.n, &s.shown);
    let (span, built_at) = at_call(b.call, b.at);
    let mut d = RULE.diagnostic(
        format!(
            "{} and {} take the same branch of script `{name}`: it tells `ARGV[{n}]` apart only by {shown}",
            quote(&a.lit),
            quote(&b.lit)
        ),
        Label::new(span, format!("{} is not {shown} either", quote(&b.lit))),
    );
    if let Some(at) = built_at {
        d.related.push(Label::new(at, "the value is passed here"));
    }
    d.related.push(Label::new(
        a.at,
        format!("{} is passed here", quote(&a.lit)),
    ));
    if let Some(at) = s.compared_at {
        d.related.push(Label::new(
            at,
            format!("`{name}` compares `ARGV[{n}]` here"),
        ));
    }
    let help = format!(
        "pass the values `{name}` compares with ({shown}): {} and {} mean two things to `{}` and one to the script",
        quote(&a.lit),
        quote(&b.lit),
        cx.speaker_name(s.speaker)
    );
    cx.blame_script(&mut d, s.speaker, help, "the script's ARGV", &s.name);
    d
}

/// A speaker whose words for a slot are none of the script's, where another
/// speaker passes the script's own.
fn other_vocabulary(cx: &CheckContext<'_>, s: &Slot<'_>, other: &Passed) -> Diagnostic {
    let a = s.outside[0];
    let (name, n, shown) = (&s.name, s.n, &s.shown);
    let who = cx.speaker_name(other.speaker);
    let (span, built_at) = at_call(a.call, a.at);
    let mut d = RULE.diagnostic(
        format!(
            "{} is passed as `ARGV[{n}]` of script `{name}`, which tells it apart only by {shown}; `{who}` passes {}",
            quote(&a.lit),
            quote(&other.lit)
        ),
        Label::new(span, format!("never {shown}")),
    );
    if let Some(at) = built_at {
        d.related.push(Label::new(at, "the value is passed here"));
    }
    d.related.push(Label::new(
        other.at,
        format!("`{who}` passes {} here", quote(&other.lit)),
    ));
    if let Some(at) = s.compared_at {
        d.related.push(Label::new(
            at,
            format!("`{name}` compares `ARGV[{n}]` here"),
        ));
    }
    let help = format!("pass the values `{name}` compares with ({shown}), as `{who}` does");
    cx.blame_script(&mut d, s.speaker, help, "the script's ARGV", &s.name);
    d
}
