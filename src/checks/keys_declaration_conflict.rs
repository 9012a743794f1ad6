//! # WL307 keys-declaration-conflict
//!
//! ## What it does
//! Flags a script whose declarations of its key count disagree: its header
//! comment lists 9 keys, its file name says 8 (`moveToActive-8.lua`), its
//! registration says 7, or the contract says otherwise.
//!
//! ## Why it breaks the wire
//! Callers in different runtimes read different declarations. One passes 9
//! keys, another 8, and one of them shifts every ARGV value by one.
//!
//! ## Example
//! ```lua
//! -- moveToActive-8.lua
//! -- KEYS[9] 'marker'
//! ```
//!
//! ## How to fix
//! Make every declaration state the count the body uses, and rename the
//! file with it.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL307",
    name: "keys-declaration-conflict",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "the header, file name, registration and contract disagree on a script's key count",
    source: include_str!("keys_declaration_conflict.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    for (id, script) in cx.model.scripts.iter().enumerate() {
        let counts = script.declared_counts(cx.contract);
        let Some(strongest) = counts.first() else {
            continue;
        };
        let Some(other) = counts.iter().find(|c| c.count != strongest.count) else {
            continue;
        };
        let name = cx.script_name(id);
        let primary = cx
            .declaration_span(script, other)
            .unwrap_or(script.def_span);
        let mut d = RULE.diagnostic(
            format!(
                "`{name}` declares {} keys in {} but {} in {}",
                other.count,
                other.source.describe(),
                strongest.count,
                strongest.source.describe()
            ),
            Label::new(primary, format!("{} keys", other.count)),
        );
        if let Some(s) = cx.declaration_span(script, strongest) {
            d.related
                .push(Label::new(s, format!("{} keys", strongest.count)));
        }
        let help = format!(
            "make every declaration say the same count; callers that follow {} pass {} keys and the others shift every ARGV",
            other.source.describe(),
            other.count
        );
        cx.blame(&mut d, script.speaker, help, "the script's KEYS");
        out.push(d);
    }
}
