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
//! nothing is reported.
//!
//! Where the slot's role names no type, the script's callers are the
//! evidence: when they pass keys of different types in the same slot (one
//! a job key, another the queue's list), they disagree on what the script
//! acts on. The calls that pass a type other than most callers' are
//! reported. When no type has most callers (each passed as often), the
//! callers give no evidence of which key the slot holds: a script over
//! any one of a queue's sorted sets (asynq's `listZSetEntriesCmd`, passed
//! `scheduled`, `retry`, `archived` or `completed` by one call each) is
//! passed each type once, and nothing is reported. A key written whole
//! counts for neither side: in verk's test `inprogress:queue_name:node_id`
//! the last piece is an id, which no hole marks as one.
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
            let how = partner.map_or(misplaced, Misplaced::SwappedWith);
            out.push(finding(cx, u, &name, &slots, i, how));
        }
    }
    disagreements(cx, types, out);
}

/// A slot of a script whose role names no type, and the calls that pass a
/// key of a known type in it: (type, key's suffix as written, call index).
type Passed = Vec<(String, String, usize)>;

/// Callers of one script that pass keys of different types in a slot
/// whose role names no type.
fn disagreements(cx: &CheckContext<'_>, types: &KeyTypes, out: &mut Vec<Diagnostic>) {
    let mut by_slot: std::collections::BTreeMap<(usize, usize), Passed> = Default::default();
    for (ci, u) in cx.model.script_calls.iter().enumerate() {
        let script = &cx.model.scripts[u.script];
        if u.echo || count_differs(cx, u, script) {
            continue;
        }
        let slots = Slots::of(cx, types, u, script);
        for i in 0..slots.len() {
            let Some(t) = &slots.passed[i] else {
                continue;
            };
            if !slots.declared[i].is_empty() || slots.verdicts[i] != SlotVerdict::Unknown {
                continue;
            }
            // A key written whole (a test's expected command list) gives
            // its ids no place: its last piece may be one.
            if u.keys[i].alts.iter().any(|t| t.as_literal().is_some()) {
                continue;
            }
            let shown = slots.passed(i).to_string();
            by_slot
                .entry((u.script, i))
                .or_default()
                .push((t.clone(), shown, ci));
        }
    }
    for ((script, i), passed) in by_slot {
        // The types passed, each with its calls, in order of first call.
        let mut groups: Vec<(&str, &str, Vec<usize>)> = Vec::new();
        for (t, shown, ci) in &passed {
            match groups.iter_mut().find(|g| same_type(g.0, t)) {
                Some(g) => g.2.push(*ci),
                None => groups.push((t.as_str(), shown.as_str(), vec![*ci])),
            }
        }
        if groups.len() < 2 {
            continue;
        }
        let most = groups.iter().map(|g| g.2.len()).max().unwrap_or(0);
        let leaders: Vec<usize> = (0..groups.len())
            .filter(|&g| groups[g].2.len() == most)
            .collect();
        let [leader] = leaders.as_slice() else {
            continue;
        };
        let leader = *leader;
        for (g, (_, shown, calls)) in groups.iter().enumerate() {
            if g == leader {
                continue;
            }
            let (_, other_shown, other_calls) = &groups[leader];
            for &ci in calls {
                let at = Disagreement {
                    call: ci,
                    slot: i,
                    shown,
                    other: other_shown,
                    other_call: other_calls[0],
                };
                out.push(disagreement(cx, script, &at));
            }
        }
    }
}

/// One call that passes another key type than other callers in a slot.
struct Disagreement<'a> {
    call: usize,
    slot: usize,
    shown: &'a str,
    other: &'a str,
    other_call: usize,
}

fn disagreement(cx: &CheckContext<'_>, script: usize, d: &Disagreement<'_>) -> Diagnostic {
    let u = &cx.model.script_calls[d.call];
    let o = &cx.model.script_calls[d.other_call];
    let name = cx.script_name(script);
    let (slot, passed, other) = (d.slot + 1, d.shown, d.other);
    let (at, built_elsewhere) = at_call(u.span, u.keys[d.slot].value.span());
    let primary = Label::new(at, format!("the `{passed}` key in slot {slot}"));
    let message = format!(
        "KEYS[{slot}] of `{name}` receives the `{passed}` key here, but most callers pass the `{other}` key in that slot"
    );
    let mut diag = RULE.diagnostic(message, primary);
    if let Some(s) = built_elsewhere {
        diag.related
            .push(Label::new(s, format!("the `{passed}` key is passed here")));
    }
    let (other_at, _) = at_call(o.span, o.keys[d.slot].value.span());
    diag.related.push(Label::new(
        other_at,
        format!(
            "`{}` passes the `{other}` key here",
            cx.speaker_name(o.speaker)
        ),
    ));
    let help = format!(
        "a script's slot holds one key: pass the key `{name}` acts on in KEYS[{slot}] (declare it in a `-- KEYS[{slot}]` header to say which)"
    );
    cx.blame_script(&mut diag, u.speaker, help, "the script's KEYS", &name);
    diag
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
    if let Some(role) = &slots.roles[declaring] {
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
                    declaring + 1,
                    slots.role_text(declaring)
                ),
            ));
        }
    }
    cx.blame_script(
        &mut diag,
        u.speaker,
        help,
        "the script's KEYS",
        &cx.script_name(u.script),
    );
    diag
}
