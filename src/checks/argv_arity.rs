//! # WL308 argv-arity
//!
//! ## What it does
//! Flags a call site that passes fewer ARGV values than its script reads on
//! the paths that run (an error), or more than the script ever reads when
//! it reads a fixed number of them (a warning; a site that runs one of
//! several scripts chosen at run time passes what the widest of them
//! reads, and is flagged only past that; values too many that the
//! callers of a wrapper pass through one invocation, each its own, are
//! flagged once, at that invocation). What the script reads comes
//! from evaluating its own code: a read of `ARGV[n]` (directly, through a
//! local, or through a function's parameter) whose `nil` reaches Redis,
//! arithmetic, `..`, a string function or an index is required of every
//! caller, unless the path to it is chosen by the caller's own arguments:
//! a branch, loop or `and`/`or` that tests `ARGV[m]`, `#ARGV`,
//! `ARGV[n] == nil`, or a value derived from them, and what follows an
//! early return under such a test, are optional, as is `ARGV[n] or
//! default`. A branch on Redis state (`EXISTS`, `GET`, `TIME`, a lock)
//! does not make a read optional, nor does an early return under it: the
//! script's normal path runs the read. A return of an error reply is no
//! way out either. A test of nothing known (a global) counts as the
//! caller's choice, so evidence of a required read is always positive. The
//! contract's `argv` and `-- ARGV[n]` header comments count as reads.
//!
//! ## Why it breaks the wire
//! ARGV carries no names: a value left out makes every later one `nil`, and
//! `nil` reaches Redis (`Lua redis lib command arguments must be strings or
//! integers`) or arithmetic (`attempt to perform arithmetic on a nil
//! value`) only when the script runs, in the one runtime that dropped it.
//! A value too many is read by nobody: usually the caller and the script
//! disagree on which slot holds what.
//!
//! ## Example
//! ```elixir
//! # enqueue: HSET ... 'payload', ARGV[2]
//! Redix.command(conn, ["EVALSHA", sha, 2, row, pending, id])
//! ```
//!
//! ## How to fix
//! Pass every value the script reads, in its order (`id, payload`), and no
//! more; when a value is optional, make the script read it as optional
//! (`ARGV[3] or '0'`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{at_call, CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::Span;
use crate::link::calls::ScriptCallUse;

pub static RULE: Rule = Rule {
    code: "WL308",
    name: "argv-arity",
    layer: Layer::L2,
    severity: Severity::Error,
    summary:
        "a call site passes fewer ARGV values than its script reads, or more than it ever reads",
    source: include_str!("argv_arity.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let widest = widest_at_site(cx);
    // Values too many, by the invocation that passes them: one that
    // several callers of its wrapper reach with the same count is that
    // invocation's list, flagged once there.
    let mut many: BTreeMap<TooMany, Vec<(&ScriptCallUse, u32)>> = BTreeMap::new();
    for u in &cx.model.script_calls {
        if u.in_wrapper || !u.args_complete {
            continue;
        }
        let script = &cx.model.scripts[u.script];
        if !script.body {
            continue;
        }
        let n = u.args.len() as u32;
        let argv = &script.lua.argv;
        if n < argv.required_count() {
            out.push(too_few(cx, u, n));
        } else if let Some(upper) = script.argv_upper(cx.contract).filter(|up| n > *up) {
            // A site that runs one of several scripts chosen at run time
            // passes what the widest of them reads.
            if widest
                .get(&(u.span, u.site))
                .is_some_and(|w| w.is_none_or(|w| n <= w))
            {
                continue;
            }
            many.entry((u.site.unwrap_or(u.span), u.script, n))
                .or_default()
                .push((u, upper));
        }
    }
    for ((site, _, n), uses) in many {
        // Where each path would put it: the values too many come from its
        // callers when the places differ.
        let paths: BTreeSet<Span> = uses
            .iter()
            .map(|(u, upper)| at_call(u.span, extra_span(u, *upper)).0)
            .collect();
        match uses.as_slice() {
            [(first, upper), ..] if paths.len() > 1 => {
                out.push(too_many_at_site(cx, site, first, n, *upper, paths.len()))
            }
            _ => out.extend(uses.iter().map(|(u, upper)| too_many(cx, u, n, *upper))),
        }
    }
}

/// An invocation (its span), the script it runs and how many ARGV values
/// reach it.
type TooMany = (Span, usize, u32);

/// For each invocation that runs more than one script (one call, its
/// script chosen at run time; not two calls a wrapper makes), how many ARGV
/// the widest of them reads (`None`: one reads any number).
fn widest_at_site(cx: &CheckContext<'_>) -> HashMap<(Span, Option<Span>), Option<u32>> {
    let mut scripts: HashMap<(Span, Option<Span>), Vec<usize>> = HashMap::new();
    for u in &cx.model.script_calls {
        let at = scripts.entry((u.span, u.site)).or_default();
        if !at.contains(&u.script) {
            at.push(u.script);
        }
    }
    scripts
        .into_iter()
        .filter(|(_, ids)| ids.len() > 1)
        .map(|(span, ids)| {
            let widest = ids
                .iter()
                .map(|&i| cx.model.scripts[i].argv_upper(cx.contract))
                .try_fold(0, |w, up| up.map(|up| w.max(up)));
            (span, widest)
        })
        .collect()
}

fn values(n: u32) -> String {
    format!("{n} ARGV value{}", if n == 1 { "" } else { "s" })
}

/// The span of the args a call passes (or the call).
fn args_span(u: &ScriptCallUse) -> (Span, Option<Span>) {
    match (u.args.first(), u.args.last()) {
        (Some(a), Some(b)) => at_call(u.span, a.span().join(b.span())),
        _ => (u.span, None),
    }
}

fn too_few(cx: &CheckContext<'_>, u: &ScriptCallUse, n: u32) -> Diagnostic {
    let script = &cx.model.scripts[u.script];
    let name = cx.script_name(u.script);
    // The first read past what the call passes.
    let (k, read_at) = script
        .lua
        .argv
        .required
        .iter()
        .filter(|r| r.0 > n)
        .min_by_key(|r| (r.0, r.1.start))
        .copied()
        .unwrap_or((n + 1, script.def_span));
    let (span, built_at) = args_span(u);
    let role = script
        .argv_role(k, cx.contract)
        .map(|r| format!(" (`{}`)", r.text))
        .unwrap_or_default();
    let mut d = RULE.diagnostic(
        format!(
            "{} passed, but script `{name}` reads `ARGV[{k}]` on its normal path",
            if n == 1 {
                "1 ARGV value is".to_string()
            } else {
                format!("{n} ARGV values are")
            }
        ),
        Label::new(span, format!("{}; `ARGV[{k}]`{role} is missing", values(n))),
    );
    if let Some(s) = built_at {
        d.related.push(Label::new(s, "the values are passed here"));
    }
    d.related.push(Label::new(
        read_at,
        format!("`{name}` reads `ARGV[{k}]` here, and `nil` fails"),
    ));
    let help = format!(
        "pass `ARGV[{k}]`{role}: inside `{name}` it is `nil`, which Redis refuses as an argument and arithmetic cannot use, so the script fails when `{}` runs it",
        cx.speaker_name(u.speaker)
    );
    cx.blame_script(
        &mut d,
        u.speaker,
        help,
        "the script's ARGV",
        &cx.script_name(u.script),
    );
    d
}

/// The span of the values past `upper` a call passes (or the call).
fn extra_span(u: &ScriptCallUse, upper: u32) -> Span {
    let extra = u.args.get(upper as usize..).unwrap_or_default();
    match (extra.first(), extra.last()) {
        (Some(a), Some(b)) => a.span().join(b.span()),
        _ => u.span,
    }
}

fn too_many(cx: &CheckContext<'_>, u: &ScriptCallUse, n: u32, upper: u32) -> Diagnostic {
    let extra = &u.args[upper as usize..];
    let (span, built_at) = at_call(u.span, extra_span(u, upper));
    let label = format!(
        "never read: {}",
        super::quoted(extra.iter().map(|v| v.describe()))
    );
    let mut related = Vec::new();
    if let Some(s) = built_at {
        related.push(Label::new(s, "the values are passed here"));
    }
    many_diagnostic(cx, u, n, upper, Label::new(span, label), related)
}

/// Values too many that `callers` uses through the invocation at `site`
/// pass alike (`first` the first of them): flagged once, at the site.
fn too_many_at_site(
    cx: &CheckContext<'_>,
    site: Span,
    first: &ScriptCallUse,
    n: u32,
    upper: u32,
    callers: usize,
) -> Diagnostic {
    let label = format!(
        "{} on each of {callers} paths that reach it; none past `ARGV[{upper}]` is read",
        values(n)
    );
    let extra = &first.args[upper as usize..];
    let related = match (extra.first(), extra.last()) {
        (Some(a), Some(b)) => vec![Label::new(
            a.span().join(b.span()),
            format!(
                "on one of them, never read: {}",
                super::quoted(extra.iter().map(|v| v.describe()))
            ),
        )],
        _ => Vec::new(),
    };
    many_diagnostic(cx, first, n, upper, Label::new(site, label), related)
}

fn many_diagnostic(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    n: u32,
    upper: u32,
    primary: Label,
    related: Vec<Label>,
) -> Diagnostic {
    let name = cx.script_name(u.script);
    let mut d = RULE.diagnostic(
        format!(
            "{} passed, but script `{name}` never reads past `ARGV[{upper}]`",
            if n == 1 {
                "1 ARGV value is".to_string()
            } else {
                format!("{n} ARGV values are")
            }
        ),
        primary,
    );
    d.severity = Severity::Warning;
    d.related.extend(related);
    let help = format!(
        "pass exactly {}: a value nobody reads usually means the caller and `{name}` disagree on which slot holds what",
        values(upper)
    );
    cx.blame_script(
        &mut d,
        u.speaker,
        help,
        "the script's ARGV",
        &cx.script_name(u.script),
    );
    d
}
