//! # WL305 script-drift
//!
//! ## What it does
//! Flags two copies of one script (the same name, or the same contract
//! entry, held by two speakers) whose bytes differ. It compares what each
//! runtime sends: an Elixir heredoc loses its indentation, escapes are
//! decoded, so copies indented differently in their hosts are the same
//! script. The report gives both SHA1s and the first line that differs.
//!
//! ## Why it breaks the wire
//! EVALSHA names a script by the SHA1 of its bytes. A speaker that runs
//! EVALSHA with the other copy's SHA gets NOSCRIPT, or, once both are
//! loaded, each speaker runs different logic on the same keys.
//!
//! ## Example
//! ```lua
//! -- peers/rust embeds enqueue with one line changed:
//! redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])   -- was: 0, ARGV[1]
//! ```
//!
//! ## How to fix
//! Keep one source of truth for each script (a `.lua` file every speaker
//! includes), or copy it byte for byte. When a canonical speaker holds the
//! reference copy, the finding carries the rewrite of this copy to its
//! bytes (`fix`, safe), spelt for the copy's host string; a copy in a
//! string kind that cannot hold them (a raw string holding its closing
//! delimiter, a lowercase sigil, a carriage return in a raw string, a
//! script spread over several literals) gets none.

use std::collections::BTreeMap;

use super::{CheckContext, Rule};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Layer, Severity};
use crate::facts::Span;
use crate::link::scripts::first_difference;
use crate::link::ScriptId;

pub static RULE: Rule = Rule {
    code: "WL305",
    name: "script-drift",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "two copies of one script, held by two speakers, differ",
    source: include_str!("script_drift.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for ids in copies(cx).values() {
        let mut speakers: Vec<_> = ids.iter().map(|i| cx.model.scripts[*i].speaker).collect();
        speakers.sort_unstable();
        speakers.dedup();
        if speakers.len() < 2 {
            continue;
        }
        let Some(reference) = reference_copy(cx, ids) else {
            continue;
        };
        let ref_sha = sha(cx, reference);
        for &i in ids {
            if sha(cx, i) != ref_sha {
                out.push(drift(cx, i, reference));
            }
        }
    }
}

/// The copies of each script: grouped by contract entry, else by
/// normalized name.
fn copies(cx: &CheckContext<'_>) -> BTreeMap<String, Vec<ScriptId>> {
    let mut groups: BTreeMap<String, Vec<ScriptId>> = BTreeMap::new();
    for (id, s) in cx.model.scripts.iter().enumerate() {
        if s.sha1.is_none() || !s.is_redis() {
            continue;
        }
        let key = match (s.contract, s.norm_names.iter().next()) {
            (Some(i), _) => format!("contract:{i}"),
            (None, Some(n)) if !n.is_empty() => format!("name:{n}"),
            _ => continue,
        };
        groups.entry(key).or_default().push(id);
    }
    groups
}

/// A copy's identity: the SHA1 of its bytes, without wirelint's own
/// `-- wirelint: allow(..)` comments (a suppression in one copy is no
/// drift).
fn sha(cx: &CheckContext<'_>, i: ScriptId) -> String {
    let s = &cx.model.scripts[i];
    match s.text.as_deref() {
        Some(t) if t.contains("wirelint:") => {
            let mut text = String::new();
            for line in t.split_inclusive('\n') {
                match line.find("--") {
                    Some(at) if line[at..].contains("wirelint:") => {
                        let code = line[..at].trim_end_matches([' ', '\t']);
                        // A comment alone on its line goes with its line.
                        if !code.trim().is_empty() {
                            text.push_str(code);
                            if line.ends_with('\n') {
                                text.push('\n');
                            }
                        }
                    }
                    _ => text.push_str(line),
                }
            }
            crate::link::scripts::sha1_hex(&text)
        }
        _ => s.sha1.clone().unwrap_or_default(),
    }
}

/// The copy the others are compared with, when the copies differ: the
/// canonical speaker's, else the most common bytes; among equals, a `.lua`
/// file (the source of truth copies are made from), then path order.
fn reference_copy(cx: &CheckContext<'_>, ids: &[ScriptId]) -> Option<ScriptId> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for i in ids {
        *counts.entry(sha(cx, *i)).or_default() += 1;
    }
    if counts.len() < 2 {
        return None;
    }
    let canonical = ids
        .iter()
        .find(|i| cx.model.speakers[cx.model.scripts[**i].speaker].canonical);
    Some(canonical.copied().unwrap_or_else(|| {
        let best = counts.values().copied().max().unwrap_or(0);
        let common: Vec<ScriptId> = ids
            .iter()
            .copied()
            .filter(|i| counts[&sha(cx, *i)] == best)
            .collect();
        common
            .iter()
            .copied()
            .find(|i| cx.model.scripts[*i].is_file)
            .unwrap_or(common[0])
    }))
}

/// The finding on copy `i`, which differs from `reference`.
fn drift(cx: &CheckContext<'_>, i: ScriptId, reference: ScriptId) -> Diagnostic {
    let (copy, ref_script) = (&cx.model.scripts[i], &cx.model.scripts[reference]);
    let ref_sha = sha(cx, reference);
    let diff = first_difference(
        copy.text.as_deref().unwrap_or(""),
        ref_script.text.as_deref().unwrap_or(""),
    );
    // The name of the reference copy (a `.lua` stem, when there is one).
    let name = cx.script_name(reference);
    let (line_no, ours, theirs) = diff.unwrap_or((1, String::new(), String::new()));
    let primary = line_span(cx, copy.def_span, copy.lua.span, &ours).unwrap_or(copy.def_span);
    let mut d = RULE.diagnostic(
        format!(
            "this copy of `{name}` differs from the one in `{}`: sha1 {} vs {}, first at line {line_no}",
            cx.speaker_name(ref_script.speaker),
            short(&sha(cx, i)),
            short(&ref_sha)
        ),
        Label::new(primary, format!("line {line_no} of this copy")),
    );
    let other = line_span(cx, ref_script.def_span, ref_script.lua.span, &theirs)
        .unwrap_or(ref_script.def_span);
    d.related.push(Label::new(
        other,
        format!(
            "line {line_no} of the copy in `{}`",
            cx.speaker_name(ref_script.speaker)
        ),
    ));
    let help = format!(
        "send the same bytes from every speaker: a speaker that runs EVALSHA {} gets NOSCRIPT where only the other copy is loaded, or runs different logic",
        short(&ref_sha)
    );
    cx.blame(
        &mut d,
        copy.speaker,
        help,
        &format!("the bytes of `{name}`"),
    );
    d.fix = rewrite(cx, i, reference);
    d
}

/// The canonical speaker's bytes in place of this copy's, spelt for the
/// copy's host string (`extract::encode`). Only from a canonical speaker:
/// the most common bytes are a guess. Not when either copy holds a
/// suppression (it would move or vanish) or the copy interpolates, nor
/// when the file read again with the new bytes does not send exactly the
/// canonical text.
fn rewrite(cx: &CheckContext<'_>, i: ScriptId, reference: ScriptId) -> Option<Fix> {
    let (copy, r) = (&cx.model.scripts[i], &cx.model.scripts[reference]);
    if !cx.model.speakers[r.speaker].canonical {
        return None;
    }
    let (ours, text) = (copy.text.as_deref()?, r.text.as_deref()?);
    if ours.contains("wirelint:") || text.contains("wirelint:") {
        return None;
    }
    let file = cx.sources.get(copy.lua.span.file);
    let lang = file.lang?;
    let (quoting, span) = crate::extract::encode::quoting(lang, file.bytes(), copy.lua.span)?;
    let new = crate::extract::encode::encode(&quoting, text)?;
    // The file read again must send exactly the canonical bytes.
    if !crate::extract::encode::round_trip(lang, file.bytes(), span, &new, text) {
        return None;
    }
    Some(Fix::one(
        Applicability::Safe,
        format!(
            "rewrite this copy of `{}` to the bytes of `{}`'s",
            cx.script_name(reference),
            cx.speaker_name(r.speaker)
        ),
        Edit { span, text: new },
    ))
}

fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

/// The span of a line's text inside the script's Lua, found in the host
/// bytes (indentation may differ from the sent text).
fn line_span(cx: &CheckContext<'_>, def: Span, lua: Span, line: &str) -> Option<Span> {
    let needle = line.trim();
    if needle.is_empty() {
        return None;
    }
    let file = cx.sources.get(def.file);
    let start = lua.start as usize;
    let end = (lua.end as usize).min(file.bytes().len());
    let hay = file.bytes().get(start..end)?;
    let at = memchr::memmem::find(hay, needle.as_bytes())?;
    Some(Span::new(def.file, start + at, start + at + needle.len()))
}
