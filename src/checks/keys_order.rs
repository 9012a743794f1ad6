//! # WL304 keys-order
//!
//! ## What it does
//! Flags a key passed in slot n of a script call whose role (from its key
//! builder's name, or its type suffix) is not the role the script declares
//! for `KEYS[n]` (in its header comment, a `local x = KEYS[n]` alias, or the
//! contract). Roles compare as words: case, `_`, `-`, a plural `s` and a
//! trailing `key` do not matter. When either side is unknown, or the words
//! only partly overlap, nothing is said.
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
use crate::link::scripts::{compare_roles, passed_role, RoleMatch, SlotRole};
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
    for u in &cx.model.script_calls {
        let script = &cx.model.scripts[u.script];
        // A wrong count is WL303's finding; the slots after it are its
        // consequence.
        if count_differs(cx, u, script) {
            continue;
        }
        let name = cx.script_name(u.script);
        let slots = Slots::of(cx, u, script);
        let mut done = vec![false; slots.0.len()];
        for i in 0..slots.0.len() {
            if done[i] || !slots.wrong(i) {
                continue;
            }
            let Some(role) = &slots.0[i].role else {
                continue;
            };
            // Two keys that each belong in the other's slot: one swap.
            let partner = (i + 1..slots.0.len())
                .find(|&j| !done[j] && slots.wrong(j) && slots.fits(i, j) && slots.fits(j, i));
            if let Some(j) = partner {
                done[j] = true;
            }
            out.push(misplaced(cx, u, &name, &slots, i, role, partner));
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

/// One slot of a call: the role of the key passed, and the role the script
/// declares for it.
struct Slot {
    passed: Vec<String>,
    role: Option<SlotRole>,
}

/// The slots of one call, `KEYS[1]` first.
struct Slots(Vec<Slot>);

impl Slots {
    fn of(cx: &CheckContext<'_>, u: &ScriptCallUse, script: &Script) -> Slots {
        Slots(
            u.keys
                .iter()
                .enumerate()
                .map(|(i, k)| Slot {
                    passed: passed_role(k),
                    role: script.slot_role(i as u32 + 1, cx.contract),
                })
                .collect(),
        )
    }

    /// The key in slot `i` has another role than the slot's.
    fn wrong(&self, i: usize) -> bool {
        let s = &self.0[i];
        s.role
            .as_ref()
            .is_some_and(|r| compare_roles(&s.passed, &r.text) == RoleMatch::Different)
    }

    /// The key in slot `i` has the role of slot `j`.
    fn fits(&self, i: usize, j: usize) -> bool {
        self.0[j]
            .role
            .as_ref()
            .is_some_and(|r| compare_roles(&self.0[i].passed, &r.text) == RoleMatch::Same)
    }

    fn passed(&self, i: usize) -> String {
        self.0[i].passed.join(" ")
    }
}

/// The finding on the key in slot `i` (0-based), swapped with the key in
/// slot `partner` when there is one.
fn misplaced(
    cx: &CheckContext<'_>,
    u: &ScriptCallUse,
    name: &str,
    slots: &Slots,
    i: usize,
    role: &SlotRole,
    partner: Option<usize>,
) -> Diagnostic {
    let slot = i + 1;
    let passed_text = slots.passed(i);
    // The key as the call passes it: at the call when the key was built
    // elsewhere (a local variable, a wrapper's argument).
    let (at, built_elsewhere) = at_call(u.span, u.keys[i].value.span());
    let role_text = role.text.replace(['\'', '"'], "");
    let primary = Label::new(at, format!("the `{passed_text}` key in slot {slot}"));
    let mut diag = match partner {
        Some(j) => RULE.diagnostic(
            format!(
                "KEYS[{slot}] and KEYS[{}] of `{name}` are swapped: the `{passed_text}` key is in slot {slot}, the `{}` key in slot {}",
                j + 1,
                slots.passed(j),
                j + 1
            ),
            primary,
        ),
        None => RULE.diagnostic(
            format!(
                "KEYS[{slot}] of `{name}` receives the `{passed_text}` key, but the script declares it as `{role_text}`"
            ),
            primary,
        ),
    };
    if let Some(s) = built_elsewhere {
        diag.related.push(Label::new(
            s,
            format!("the `{passed_text}` key is built here"),
        ));
    }
    if let Some(j) = partner {
        diag.related.push(Label::new(
            u.keys[j].value.span(),
            format!("the `{}` key in slot {}", slots.passed(j), j + 1),
        ));
    }
    let decl = role.span.or_else(|| {
        role.contract_span
            .as_ref()
            .and_then(|r| cx.contract_span(r))
    });
    if let Some(s) = decl {
        diag.related.push(Label::new(
            s,
            format!("`{name}` declares KEYS[{slot}] as `{role_text}`"),
        ));
    }
    let help = format!(
        "pass the keys in the order `{name}` declares them; as written it acts on the `{passed_text}` key where it means `{role_text}`"
    );
    cx.blame(&mut diag, u.speaker, help, "the script's KEYS");
    diag
}
