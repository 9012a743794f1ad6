//! # WL302 keys-missing
//!
//! ## What it does
//! Flags a contract script that never uses a key the contract declares for
//! it: `KEYS[2]` (the pending set of `enqueue`) appears nowhere in the body.
//!
//! ## Why it breaks the wire
//! Callers in every runtime pass the declared keys and expect the script to
//! act on each. An `enqueue` that writes the job row but never touches the
//! pending set makes a row that never enters the queue: nothing ever claims
//! it.
//!
//! ## Example
//! ```lua
//! -- enqueue: KEYS = [job row, pending set]
//! redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
//! return 1   -- KEYS[2] is never used
//! ```
//!
//! ## How to fix
//! Use every declared key (`redis.call('ZADD', KEYS[2], …)`), or remove the
//! key from the contract and from every caller together. A slot the
//! upstream keeps for its callers and never touches is listed in the
//! script's `unused` (`unused = [2]`), and then not asked for.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL302",
    name: "keys-missing",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a contract script never uses a key the contract declares for it",
    source: include_str!("keys_missing.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    for script in &cx.model.scripts {
        let Some(spec) = script.contract.map(|i| &contract.scripts[i]) else {
            continue;
        };
        if script.lua.dynamic_keys {
            continue;
        }
        for (i, (role, role_span)) in spec.keys.iter().enumerate() {
            let n = i as u32 + 1;
            if spec.unused.contains(&n) || script.lua.key_uses.iter().any(|(k, _)| *k == n) {
                continue;
            }
            let mut d = RULE.diagnostic(
                format!(
                    "script `{}` never uses `KEYS[{n}]` (the `{role}` key)",
                    spec.name
                ),
                Label::new(
                    script.def_span,
                    format!("`KEYS[{n}]` is never used in this script"),
                ),
            );
            if let Some(s) = cx.contract_span(role_span) {
                d.related.push(Label::new(
                    s,
                    format!("the contract declares `KEYS[{n}]` as `{role}`"),
                ));
            }
            let help = format!(
                "use `KEYS[{n}]`: callers pass the `{role}` key and expect `{}` to act on it; in `{}` it is dropped",
                spec.name, cx.speaker_name(script.speaker)
            );
            cx.blame_script(
                &mut d,
                script.speaker,
                help,
                "the script's KEYS",
                &spec.name,
            );
            out.push(d);
        }
    }
}
