//! # WL304 keys-order
//!
//! ## What it does
//! Flags a key passed in slot n of a script call when there is positive
//! evidence that it is another key than the script declares for `KEYS[n]`:
//! the key's type (the last word of its resolved template, `…:pc`) is not
//! the key type the slot's role names, or the slot names no type but
//! another slot declares exactly this key's type (two such keys: a swap).
//! A role names a key type when the contract gives it, when a header
//! comment quotes it (`KEYS[1] 'wait'`), or when its words (`meta key`,
//! `local waitKey = KEYS[2]`) are a key type the code base builds. Free
//! descriptions (`producer key`), key patterns (`ns:qname`), type notes
//! (`(sorted set key)`) and generic aliases (`local key = KEYS[1]`) say
//! nothing, and neither does a key whose template is not resolved: then
//! nothing is reported. One call is one finding: a key list out of order
//! in several slots (a rotation, a key dropped and another added) is one
//! finding with a label on every slot that moved and the declared order
//! in its help.
//!
//! ## Why it breaks the wire
//! The script writes to whatever key sits in the slot. Two keys swapped make
//! it push a job id onto the stalled set and mark the wait list: every
//! runtime's own tests pass, and the queue silently corrupts.
//!
//! ## Example
//! ```rust
//! // moveToActive: KEYS[1] 'wait', KEYS[2] 'active'
//! script.key(keys.active()).key(keys.wait()).invoke_async(&mut con)
//! ```
//!
//! ## How to fix
//! Pass the keys in the order the script declares them.

use super::{at_call, CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::link::calls::{NumKeys, ScriptCallUse};
use crate::link::roles::{
    passed_type, same_type, slot_verdicts, template_suffix, KeyTypes, SlotRole, SlotVerdict,
};
use crate::link::Script;

pub static RULE: Rule = Rule {
    code: "WL304",
    name: "keys-order",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a key passed in slot n has another role than the script declares for KEYS[n]",
    source: include_str!("keys_order.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let types = cx.key_types();
    for u in cx.model.script_calls.iter().filter(|u| !u.echo) {
        let script = &cx.model.scripts[u.script];
        // A wrong count is WL303's finding; the slots after it are its
        // consequence.
        if count_differs(cx, u, script) {
            continue;
        }
        let name = cx.script_name(u.script);
        let slots = Slots::of(cx, types, u, script);
        let mut done = vec![false; slots.len()];
        let mut moves: Vec<(usize, Misplaced)> = Vec::new();
        for i in 0..slots.len() {
            if done[i] {
                continue;
            }
            let misplaced = match slots.verdicts[i] {
                SlotVerdict::Differs => Misplaced::Declared,
                SlotVerdict::BelongsIn(j) => Misplaced::BelongsIn(j),
                SlotVerdict::Agrees | SlotVerdict::Unknown => continue,
            };
            // Two keys that each belong in the other's slot: one swap.
            let partner = (i + 1..slots.len()).find(|&j| {
                !done[j] && slots.verdicts[j] == SlotVerdict::Differs && slots.swapped(i, j)
            });
            if let Some(j) = partner {
                done[j] = true;
            }
            moves.push((i, partner.map_or(misplaced, Misplaced::SwappedWith)));
        }
        // One key list out of order is one mistake: one finding, with a
        // label on every slot that moved.
        match moves.as_slice() {
            [] => {}
            [(i, how)] => out.push(finding(cx, u, &name, &slots, *i, *how)),
            _ => out.push(reordered(cx, u, &name, &slots, &moves)),
        }
    }
}

/// Whether the call passes another number of keys than the script declares.
fn count_differs(cx: &CheckContext<'_>, u: &ScriptCallUse, script: &Script) -> bool {
    let Some(d) = script.declared_count(cx.contract) else {
        return false;
    };
    let n = match u.numkeys {
        NumKeys::Literal(n, _) | NumKeys::Counted(n, _) => Some(n),
        _ if u.keys_complete => Some(u.keys.len() as u32),
        _ => None,
    };
    n.is_some_and(|n| n != d.count)
}

/// The slots of one call, `KEYS[1]` first: the type of the key passed, the
/// role the script declares, the types that role names, and the verdict.
struct Slots {
    passed: Vec<Option<String>>,
    /// The passed keys' suffixes as written, for messages.
    shown: Vec<String>,
    roles: Vec<Option<SlotRole>>,
    declared: Vec<Vec<String>>,
    verdicts: Vec<SlotVerdict>,
}

impl Slots {
    fn of(cx: &CheckContext<'_>, types: &KeyTypes, u: &ScriptCallUse, script: &Script) -> Slots {
        let passed: Vec<Option<String>> = u.keys.iter().map(passed_type).collect();
        let shown = u
            .keys
            .iter()
            .map(|k| {
                k.alts
                    .first()
                    .and_then(template_suffix)
                    .unwrap_or_else(|| "?".into())
            })
            .collect();
        let n = passed.len().max(
            script
                .declared_count(cx.contract)
                .map_or(0, |d| d.count as usize),
        );
        let roles: Vec<Option<SlotRole>> = (0..n)
            .map(|i| script.slot_role(i as u32 + 1, cx.contract))
            .collect();
        let declared: Vec<Vec<String>> = roles
            .iter()
            .map(|r| {
                r.as_ref()
                    .map_or_else(Vec::new, |r| types.declared(r, cx.contract))
            })
            .collect();
        let verdicts = slot_verdicts(&passed, &declared);
        Slots {
            passed,
            shown,
            roles,
            declared,
            verdicts,
        }
    }

    fn len(&self) -> usize {
        self.passed.len()
    }

    /// The key in slot `i` is of the type slot `j` declares, and the other
    /// way round.
    fn swapped(&self, i: usize, j: usize) -> bool {
        let fits = |a: usize, b: usize| {
            self.passed[a]
                .as_ref()
                .is_some_and(|t| self.declared[b].iter().any(|d| same_type(t, d)))
        };
        fits(i, j) && fits(j, i)
    }

    fn passed(&self, i: usize) -> &str {
        &self.shown[i]
    }

    fn role_text(&self, i: usize) -> String {
        self.roles[i]
            .as_ref()
            .map(|r| r.text.replace(['\'', '"'], ""))
            .unwrap_or_default()
    }
}

/// How the key in a slot is out of place.
#[derive(Clone, Copy)]
enum Misplaced {
    /// Its type is not the one the slot's role names.
    Declared,
    /// The slot's role names nothing, but another slot declares its type.
    BelongsIn(usize),
    /// It and the key of another slot each belong in the other's slot.
    SwappedWith(usize),
}

/// The finding on the key in slot `i` (0-based).
fn finding(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    name: &str,
    slots: &Slots,
    i: usize,
    how: Misplaced,
) -> Diagnostic {
    let slot = i + 1;
    let passed = slots.passed(i);
    // The key where it is built, and the call too when that is elsewhere
    // (a local variable, a wrapper's caller).
    let (at, built_elsewhere) = at_call(u.span, u.keys[i].value.span());
    let primary = Label::new(at, format!("the `{passed}` key in slot {slot}"));
    let (message, help) = match how {
        Misplaced::SwappedWith(j) => (
            format!(
                "KEYS[{slot}] and KEYS[{}] of `{name}` are swapped: the `{passed}` key is in slot {slot}, the `{}` key in slot {}",
                j + 1,
                slots.passed(j),
                j + 1
            ),
            format!(
                "pass the keys in the order `{name}` declares them; as written it acts on the `{passed}` key where it means `{}`",
                slots.role_text(i)
            ),
        ),
        Misplaced::Declared => (
            format!(
                "KEYS[{slot}] of `{name}` receives the `{passed}` key, but the script declares it as `{}`",
                slots.role_text(i)
            ),
            format!(
                "pass the keys in the order `{name}` declares them; as written it acts on the `{passed}` key where it means `{}`",
                slots.role_text(i)
            ),
        ),
        Misplaced::BelongsIn(j) => (
            format!(
                "KEYS[{slot}] of `{name}` receives the `{passed}` key, which the script declares as KEYS[{}] (`{}`)",
                j + 1,
                slots.role_text(j)
            ),
            format!(
                "pass the `{passed}` key as KEYS[{}], where `{name}` declares it; in slot {slot} the script acts on it as something else",
                j + 1
            ),
        ),
    };
    let mut diag = RULE.diagnostic(message, primary);
    if let Some(s) = built_elsewhere {
        diag.related
            .push(Label::new(s, format!("the `{passed}` key is passed here")));
    }
    if let Misplaced::SwappedWith(j) = how {
        diag.related.push(Label::new(
            u.keys[j].value.span(),
            format!("the `{}` key in slot {}", slots.passed(j), j + 1),
        ));
    }
    let declaring = match how {
        Misplaced::BelongsIn(j) => j,
        _ => i,
    };
    declaration(cx, &mut diag, name, slots, declaring);
    cx.blame_script(
        &mut diag,
        u.speaker,
        help,
        "the script's KEYS",
        &cx.script_name(u.script),
    );
    diag
}

/// The label on where `name` declares slot `k` (0-based), when the role
/// is written somewhere: a header, an alias, the contract.
fn declaration(cx: &CheckContext<'_>, diag: &mut Diagnostic, name: &str, slots: &Slots, k: usize) {
    let Some(role) = &slots.roles[k] else {
        return;
    };
    let decl = role.span.or_else(|| {
        role.contract_span
            .as_ref()
            .and_then(|r| cx.contract_span(r))
    });
    if let Some(s) = decl {
        diag.related.push(Label::new(
            s,
            format!(
                "`{name}` declares KEYS[{}] as `{}`",
                k + 1,
                slots.role_text(k)
            ),
        ));
    }
}

/// What is wrong with the key in slot `i` (0-based), as a label says it.
fn slot_label(name: &str, slots: &Slots, i: usize, how: Misplaced) -> String {
    let passed = slots.passed(i);
    match how {
        Misplaced::Declared => format!(
            "slot {}: the `{passed}` key, where `{name}` declares `{}`",
            i + 1,
            slots.role_text(i)
        ),
        Misplaced::BelongsIn(j) => format!(
            "slot {}: the `{passed}` key, which `{name}` declares as KEYS[{}]",
            i + 1,
            j + 1
        ),
        Misplaced::SwappedWith(j) => {
            format!(
                "slot {}: the `{passed}` key, swapped with slot {}",
                i + 1,
                j + 1
            )
        }
    }
}

/// `KEYS[3] to KEYS[8]`, `KEYS[1], KEYS[3] and KEYS[4]`: 1-based slots,
/// sorted, runs of three or more collapsed.
fn slot_list(slots: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &s in slots {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == s => *end = s,
            _ => runs.push((s, s)),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    for (a, b) in runs {
        match b - a {
            0 => parts.push(format!("KEYS[{a}]")),
            1 => parts.extend([format!("KEYS[{a}]"), format!("KEYS[{b}]")]),
            _ => parts.push(format!("KEYS[{a}] to KEYS[{b}]")),
        }
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

/// One finding for a call whose key list is out of order in more than one
/// place: a label on every slot that moved, the declared order in its help.
fn reordered(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    name: &str,
    slots: &Slots,
    moves: &[(usize, Misplaced)],
) -> Diagnostic {
    // Every slot that holds another key, a swap's two slots each.
    let mut moved: Vec<(usize, Misplaced)> = Vec::new();
    for &(i, how) in moves {
        moved.push((i, how));
        if let Misplaced::SwappedWith(j) = how {
            moved.push((j, Misplaced::SwappedWith(i)));
        }
    }
    moved.sort_by_key(|m| m.0);
    let numbers: Vec<usize> = moved.iter().map(|m| m.0 + 1).collect();
    let (first, first_how) = moved[0];
    let (at, built_elsewhere) = at_call(u.span, u.keys[first].value.span());
    let message = format!(
        "the keys of `{name}` are out of order: {} slots ({}) receive another key than the script declares",
        moved.len(),
        slot_list(&numbers)
    );
    let mut diag = RULE.diagnostic(
        message,
        Label::new(at, slot_label(name, slots, first, first_how)),
    );
    if let Some(s) = built_elsewhere {
        diag.related.push(Label::new(s, "the keys are passed here"));
    }
    for &(i, how) in &moved[1..] {
        diag.related.push(Label::new(
            u.keys[i].value.span(),
            slot_label(name, slots, i, how),
        ));
    }
    let declaring = match first_how {
        Misplaced::BelongsIn(j) => j,
        _ => first,
    };
    declaration(cx, &mut diag, name, slots, declaring);
    let wanted: Vec<String> = moved
        .iter()
        .map(|&(i, _)| match slots.role_text(i) {
            r if r.is_empty() => format!("KEYS[{}]", i + 1),
            r => format!("KEYS[{}] `{r}`", i + 1),
        })
        .collect();
    let help = format!(
        "pass the keys in the order `{name}` declares them ({}); as written it acts on each of these keys as another one",
        wanted.join(", ")
    );
    cx.blame_script(&mut diag, u.speaker, help, "the script's KEYS", name);
    diag
}
