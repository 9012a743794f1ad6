//! # WL303 keys-arity
//!
//! ## What it does
//! Flags a call site that passes a different number of keys than the
//! script declares: a literal numkeys, or the length of the key list it
//! passes, against the count in the contract, the registration, the file
//! name (`moveToActive-11.lua`) or the header comment. Its help states
//! the whole damage: which slots are nil, which ARGV shift, and, when a
//! key is missing before the end (the first slot whose key is not of the
//! type declared there), which slots receive the keys declared for the
//! next ones. A count the script's own file declares (its name, its
//! header) is shown there rather than at a registration elsewhere.
//!
//! ## Why it breaks the wire
//! Redis splits the values after numkeys into KEYS and ARGV. One key too
//! many or too few moves the boundary: every ARGV value shifts by one and
//! the script runs on the wrong data, with no error. Each runtime's own
//! tests pass, because each tests only itself.
//!
//! ## Example
//! ```elixir
//! # enqueue declares KEYS = [job, pending]
//! Redix.command(conn, ["EVALSHA", sha, 3, row, stats, pending, id, payload])
//! ```
//!
//! ## How to fix
//! Pass exactly the declared keys, in the declared order, and let numkeys
//! count them.

use super::{at_call, CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::link::calls::{NumKeys, ScriptCallUse};
use crate::link::roles::{passed_type, same_type, template_suffix};
use crate::link::scripts::CountSource;
use crate::link::Script;

pub static RULE: Rule = Rule {
    code: "WL303",
    name: "keys-arity",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a call site passes a different number of keys than its script declares",
    source: include_str!("keys_arity.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for u in cx.model.script_calls.iter().filter(|u| !u.echo) {
        let script = &cx.model.scripts[u.script];
        let Some(declared) = script.declared_count(cx.contract) else {
            continue;
        };
        let d = declared.count;
        // A literal numkeys moves the boundary between KEYS and ARGV; a
        // count taken from the keys passed moves the keys between slots.
        let keys_span = || match (u.keys.first(), u.keys.last()) {
            (Some(a), Some(b)) => a.value.span().join(b.value.span()),
            _ => u.span,
        };
        let (n, span, what, literal) = match &u.numkeys {
            NumKeys::Literal(n, span) => (*n, *span, format!("numkeys is {n}"), true),
            NumKeys::Counted(n, span) => (*n, *span, passed(*n), false),
            NumKeys::FromKeys | NumKeys::Unknown if u.keys_complete => {
                let n = u.keys.len() as u32;
                (n, keys_span(), passed(n), false)
            }
            _ => continue,
        };
        // Label the keys where they are written, and the call too when
        // they are listed elsewhere (a local variable, a wrapper's caller).
        let (span, built_at) = at_call(u.span, span);
        if n == d {
            continue;
        }
        let name = cx.script_name(u.script);
        let shift = if literal {
            argv_shift(u, n, d, &name)
        } else {
            slot_shift(cx, u, script, n, d, &name)
        };
        // Said where the script itself declares the count (its header, its
        // file name) when that agrees with a registration elsewhere.
        let declared = script
            .declared_counts(cx.contract)
            .into_iter()
            .find(|c| {
                c.count == d && matches!(c.source, CountSource::FileName | CountSource::Header)
            })
            .filter(|_| declared.source == CountSource::Registration)
            .unwrap_or(declared);
        let mut diag = RULE.diagnostic(
            format!(
                "{what}, but script `{name}` declares {d} keys ({})",
                declared.source.describe()
            ),
            Label::new(span, format!("{n} key{}", if n == 1 { "" } else { "s" })),
        );
        if let Some(s) = built_at {
            diag.related.push(Label::new(s, "the keys are passed here"));
        }
        if let Some(s) = cx.declaration_span(script, &declared) {
            diag.related
                .push(Label::new(s, format!("`{name}` declares {d} keys here")));
        }
        let help = format!("pass exactly {d} keys: {shift}");
        cx.blame_script(
            &mut diag,
            u.speaker,
            help,
            "the script's KEYS",
            &cx.script_name(u.script),
        );
        out.push(diag);
    }
}

fn passed(n: u32) -> String {
    format!("{n} key{} passed", if n == 1 { " is" } else { "s are" })
}

/// A literal numkeys `n` where the script declares `d`: Redis splits the
/// values after `n`, so what follows moves between KEYS and ARGV.
fn argv_shift(u: &ScriptCallUse, n: u32, d: u32, name: &str) -> String {
    if n > d {
        let extra = n - d;
        match u.keys.get(d as usize) {
            Some(k) => format!(
                "`{}` arrives as KEYS[{}], which `{name}` never reads, and the values it reads as ARGV shift by {extra}",
                k.value.describe(),
                d + 1
            ),
            None => format!("the values `{name}` reads as ARGV shift by {extra}"),
        }
    } else {
        let missing = d - n;
        format!(
            "{}, and what the caller meant as KEYS[{}] arrives as ARGV[1]: every ARGV shifts by {missing}",
            nil_slots(n, d, name),
            n + 1
        )
    }
}

/// `n` keys passed (numkeys counts them) where the script declares `d`:
/// ARGV is intact, but keys land in other slots than the script reads.
fn slot_shift(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    script: &Script,
    n: u32,
    d: u32,
    name: &str,
) -> String {
    if n < d {
        return dropped(cx, u, script, n, d, name);
    }
    let unread: Vec<String> = u.keys[d as usize..]
        .iter()
        .map(|k| format!("`{}`", k.value.describe()))
        .collect();
    let types = cx.key_types();
    let first_off = (0..d as usize).find_map(|i| {
        let role = script.slot_role(i as u32 + 1, cx.contract)?;
        let declared = types.declared(&role, cx.contract);
        let got = passed_type(&u.keys[i])?;
        (!declared.is_empty() && !declared.iter().any(|w| same_type(&got, w))).then(|| {
            format!(
                "from KEYS[{}] on, keys land one slot off (KEYS[{}] receives `{got}` where `{name}` declares `{}`), and ",
                i + 1,
                i + 1,
                role.text.replace(['\'', '"'], "")
            )
        })
    });
    format!(
        "{}{} in KEYS[{}..] {} never read",
        first_off.unwrap_or_default(),
        unread.join(", "),
        d + 1,
        if unread.len() == 1 { "is" } else { "are" }
    )
}

/// `KEYS[3] is nil inside `x``, `KEYS[3] to KEYS[5] are nil inside `x``:
/// the slots after the `n` keys passed, up to the `d` declared.
fn nil_slots(n: u32, d: u32, name: &str) -> String {
    match d - n {
        1 => format!("KEYS[{d}] is nil inside `{name}`"),
        _ => format!("KEYS[{}] to KEYS[{d}] are nil inside `{name}`", n + 1),
    }
}

/// `n` keys passed where the script declares `d` > `n`: the last slots are
/// nil, and when a key is missing before the end (the first slot whose
/// key is not of the type the script declares there), every key after it
/// lands `d - n` slots early.
fn dropped(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    script: &Script,
    n: u32,
    d: u32,
    name: &str,
) -> String {
    let nil = nil_slots(n, d, name);
    let types = cx.key_types();
    let first_off = (0..n as usize).find_map(|i| {
        let role = script.slot_role(i as u32 + 1, cx.contract)?;
        let declared = types.declared(&role, cx.contract);
        let got = passed_type(&u.keys[i])?;
        let shown = u.keys[i].alts.first().and_then(template_suffix);
        (!declared.is_empty() && !declared.iter().any(|w| same_type(&got, w))).then(|| {
            let role = role.text.replace(['\'', '"'], "");
            (i as u32 + 1, got, shown, role)
        })
    });
    let Some((first, got, shown, role)) = first_off else {
        return nil;
    };
    let m = d - n;
    let off = format!(
        "KEYS[{first}] receives `{}` where `{name}` declares `{role}`",
        shown.unwrap_or_else(|| got.clone())
    );
    // A shift needs the key to be of the type declared `m` slots on.
    let shifted = script
        .slot_role(first + m, cx.contract)
        .map(|r| types.declared(&r, cx.contract))
        .is_some_and(|later| later.iter().any(|w| same_type(&got, w)));
    if !shifted {
        return format!("{off}, and {nil}");
    }
    let slots = if m == 1 { "slot" } else { "slots" };
    let moved = match first == n {
        true => format!("KEYS[{n}] receives the key declared for KEYS[{}]", n + m),
        false => format!(
            "KEYS[{first}] to KEYS[{n}] receive the keys declared for KEYS[{}] to KEYS[{d}]",
            first + m
        ),
    };
    format!("the keys from KEYS[{first}] on land {m} {slots} early ({moved}; {off}), and {nil}")
}
