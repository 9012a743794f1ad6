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
//! A contract whose family builds keys in its scripts by design (BullMQ
//! passes the key prefix `bull:<queue>:` in ARGV: `scripts_build_keys =
//! true` in the contract) is checked for KEYS past the count only.
//!
//! ## How to fix
//! Pass the key in KEYS, in the slot the contract declares, and use
//! `KEYS[n]`.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::{Seg, Value};

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
    for (id, script) in cx.model.scripts.iter().enumerate() {
        let Some(declared) = script.declared_count(cx.contract) else {
            continue;
        };
        let d = declared.count;
        let name = cx.script_name(id);
        let decl_span = cx.declaration_span(script, &declared);
        let decl_label = format!(
            "`{name}` declares {d} keys ({})",
            declared.source.describe()
        );
        for (n, span) in &script.lua.key_uses {
            if *n >= 1 && *n <= d {
                continue;
            }
            let mut diag = RULE.diagnostic(
                format!("`KEYS[{n}]` is outside the {d} keys script `{name}` declares"),
                Label::new(*span, "no caller passes this key"),
            );
            if let Some(s) = decl_span {
                diag.related.push(Label::new(s, decl_label.clone()));
            }
            let help = format!("callers pass {d} keys; `KEYS[{n}]` is nil in every speaker");
            cx.blame_script(&mut diag, script.speaker, help, "the script's KEYS", &name);
            out.push(diag);
        }
        let by_design = cx.contract.is_some_and(|c| c.scripts_build_keys);
        if by_design {
            continue;
        }
        for cmd in cx.model.commands.iter().filter(|c| c.script == Some(id)) {
            let positions = crate::redis::key_args(&cmd.name, cmd.args.len());
            for p in positions {
                let Some(arg) = cmd.args.get(p) else {
                    continue;
                };
                let Value::Str(t) = &arg.value else {
                    continue;
                };
                // `KEYS[2] .. jobId` derives a key from a passed one: same
                // hash tag, visible to the caller.
                if matches!(t.segs.first(), Some(Seg::Value(v)) if matches!(**v, Value::Keys { .. }))
                {
                    continue;
                }
                let mut diag = RULE.diagnostic(
                    format!("script `{name}` builds the key `{t}` instead of taking it from KEYS"),
                    Label::new(t.span, "key built inside the script"),
                );
                if let Some(s) = decl_span {
                    diag.related.push(Label::new(s, decl_label.clone()));
                }
                let help = "take the key from KEYS: a key built in Lua is hidden from callers and from cluster routing";
                cx.blame_script(
                    &mut diag,
                    script.speaker,
                    help.into(),
                    "the script's KEYS",
                    &name,
                );
                out.push(diag);
            }
        }
    }
}
