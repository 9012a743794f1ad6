//! # WL301 keys-undeclared
//!
//! ## What it does
//! Flags a contract script that touches a key outside the KEYS it declares:
//! `KEYS[n]` past the declared count, or a key built inside the Lua from
//! strings and ARGV.
//!
//! ## Why it breaks the wire
//! The KEYS list is the script's contract with its callers and with Redis
//! Cluster. A key built inside the script is invisible to the caller, is not
//! routed by the cluster (the call fails with CROSSSLOT or touches another
//! node's data), and silently diverges when a speaker changes its key
//! builder. `KEYS[n]` past what callers pass is nil.
//!
//! ## Example
//! ```lua
//! redis.call('ZADD', 'emq:{' .. ARGV[3] .. '}:pending', 0, ARGV[1])
//! ```
//!
//! ## How to fix
//! Pass the key in KEYS, in the slot the contract declares, and use
//! `KEYS[n]`.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::Value;

pub static RULE: Rule = Rule {
    code: "WL301",
    name: "keys-undeclared",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a script touches a key outside its declared KEYS",
    source: include_str!("keys_undeclared.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    for (id, script) in cx.model.scripts.iter().enumerate() {
        let Some(spec) = script.contract.map(|i| &contract.scripts[i]) else {
            continue;
        };
        let declared = spec.keys.len() as u32;
        let roles = spec
            .keys
            .iter()
            .map(|(k, _)| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        for (n, span) in &script.lua.key_uses {
            if *n >= 1 && *n <= declared {
                continue;
            }
            let mut d = RULE.diagnostic(
                format!(
                    "`KEYS[{n}]` is outside the {declared} keys script `{}` declares",
                    spec.name
                ),
                Label::new(*span, "no caller passes this key"),
            );
            if let Some(s) = cx.contract_span(&spec.keys_span) {
                d.related.push(Label::new(s, format!("KEYS = [{roles}]")));
            }
            d.help = Some(format!(
                "callers pass KEYS = [{roles}]; `KEYS[{n}]` is nil in every speaker"
            ));
            d.speaker = Some(cx.speaker_name(script.speaker));
            out.push(d);
        }
        for cmd in cx.model.commands.iter().filter(|c| c.script == Some(id)) {
            let positions: Vec<usize> = match crate::redis::key_positions(&cmd.name) {
                Some(p) => p.to_vec(),
                None => (0..cmd.args.len()).collect(),
            };
            for p in positions {
                let Some(arg) = cmd.args.get(p) else {
                    continue;
                };
                let Value::Str(t) = &arg.value else {
                    continue;
                };
                let mut d = RULE.diagnostic(
                    format!(
                        "script `{}` builds the key `{t}` instead of taking it from KEYS",
                        spec.name
                    ),
                    Label::new(t.span, "key built inside the script"),
                );
                if let Some(s) = cx.contract_span(&spec.keys_span) {
                    d.related.push(Label::new(s, format!("KEYS = [{roles}]")));
                }
                d.help = Some(format!(
                    "take the key from KEYS (declared: [{roles}]); a key built in Lua is hidden from callers and from cluster routing"
                ));
                d.speaker = Some(cx.speaker_name(script.speaker));
                out.push(d);
            }
        }
    }
}
