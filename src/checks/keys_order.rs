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
use crate::link::scripts::{compare_roles, passed_role, RoleMatch};

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
                NumKeys::Literal(n, _) => Some(n),
                _ if u.keys_complete => Some(u.keys.len() as u32),
                _ => None,
            };
            if n.is_some_and(|n| n != d.count) {
                continue;
            }
        }
        let name = cx.script_name(u.script);
        for (i, key) in u.keys.iter().enumerate() {
            let slot = i as u32 + 1;
            let Some(role) = script.slot_role(slot, cx.contract) else {
                continue;
            };
            let passed = passed_role(key);
            if compare_roles(&passed, &role.text) != RoleMatch::Different {
                continue;
            }
            let passed_text = passed.join(" ");
            let mut diag = RULE.diagnostic(
                format!("KEYS[{slot}] of `{name}` receives the `{passed_text}` key, but the script declares it as `{}`", role.text),
                Label::new(key.value.span(), format!("the `{passed_text}` key in slot {slot}")),
            );
            let decl = role.span.or_else(|| {
                role.contract_span
                    .as_ref()
                    .and_then(|r| cx.contract_span(r))
            });
            if let Some(s) = decl {
                diag.related.push(Label::new(
                    s,
                    format!("`{name}` declares KEYS[{slot}] as `{}`", role.text),
                ));
            }
            diag.help = Some(format!(
                "pass the keys in the order `{name}` declares them; as written it writes to the `{passed_text}` key where it means `{}`",
                role.text
            ));
            diag.speaker = Some(cx.speaker_name(u.speaker));
            out.push(diag);
        }
    }
}
