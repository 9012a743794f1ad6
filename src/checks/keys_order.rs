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

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::link::calls::NumKeys;
use crate::link::scripts::{compare_roles, passed_role, RoleMatch, SlotRole};

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
        if let Some(d) = script.declared_count(cx.contract) {
            let n = match u.numkeys {
                NumKeys::Literal(n, _) | NumKeys::Counted(n, _) => Some(n),
                _ if u.keys_complete => Some(u.keys.len() as u32),
                _ => None,
            };
            if n.is_some_and(|n| n != d.count) {
                continue;
            }
        }
        let name = cx.script_name(u.script);
        let slots: Vec<(u32, Vec<String>, Option<SlotRole>)> = u
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let slot = i as u32 + 1;
                (slot, passed_role(k), script.slot_role(slot, cx.contract))
            })
            .collect();
        let wrong = |i: usize| {
            let (_, passed, role) = &slots[i];
            role.as_ref()
                .is_some_and(|r| compare_roles(passed, &r.text) == RoleMatch::Different)
        };
        let fits = |i: usize, j: usize| {
            slots[j]
                .2
                .as_ref()
                .is_some_and(|r| compare_roles(&slots[i].1, &r.text) == RoleMatch::Same)
        };
        let mut done = vec![false; slots.len()];
        for i in 0..slots.len() {
            if done[i] || !wrong(i) {
                continue;
            }
            let (slot, passed, role) = &slots[i];
            let Some(role) = role else {
                continue;
            };
            // Two keys that each belong in the other's slot: one swap.
            let partner =
                (i + 1..slots.len()).find(|&j| !done[j] && wrong(j) && fits(i, j) && fits(j, i));
            let passed_text = passed.join(" ");
            let key = &u.keys[i];
            // The key as the call passes it: at the call when the key was
            // built elsewhere (a local variable, a wrapper's argument).
            let inside = |s: crate::facts::Span| {
                s.file == u.span.file && s.start >= u.span.start && s.end <= u.span.end
            };
            let (at, built_elsewhere) = if inside(key.value.span()) {
                (key.value.span(), None)
            } else {
                (u.span, Some(key.value.span()))
            };
            let role_text = role.text.replace(['\'', '"'], "");
            let mut diag = match partner {
                Some(j) => {
                    done[j] = true;
                    RULE.diagnostic(
                        format!(
                            "KEYS[{slot}] and KEYS[{}] of `{name}` are swapped: the `{passed_text}` key is in slot {slot}, the `{}` key in slot {}",
                            j + 1,
                            slots[j].1.join(" "),
                            j + 1
                        ),
                        Label::new(at, format!("the `{passed_text}` key in slot {slot}")),
                    )
                }
                None => RULE.diagnostic(
                    format!(
                        "KEYS[{slot}] of `{name}` receives the `{passed_text}` key, but the script declares it as `{role_text}`"
                    ),
                    Label::new(at, format!("the `{passed_text}` key in slot {slot}")),
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
                    format!("the `{}` key in slot {}", slots[j].1.join(" "), j + 1),
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
            cx.blame(&mut diag, u.speaker, help, "run", "the script as declared");
            out.push(diag);
        }
    }
}
