//! # WL312 keys-role-conflict
//!
//! ## What it does
//! Flags a script of a contract's name whose own header names a `KEYS[n]`
//! as another key than the contract's role for that slot: the header says
//! `KEYS[1] 'active'`, the contract (made from the upstream) says `wait`.
//! Both sides must name a key type (the contract's or one the code
//! builds); a free description on either side (`producer key`,
//! `wait_children`) says nothing. A count that differs is WL307's; one
//! script is one finding, labelled at every slot that differs.
//!
//! ## Why it breaks the wire
//! A port that keeps its own copy of an upstream script, with the keys in
//! its own order, passes them in that order to its copy: its own tests
//! pass. The day it runs the upstream's script (a shared SHA, a script
//! loaded by another runtime, an upgrade that vendors the upstream's
//! file again), every key lands in another slot: the job is pushed onto
//! the wrong list.
//!
//! ## Example
//! ```lua
//! --[[ moveToActive (the contract: KEYS[1] wait, KEYS[2] active)
//!   KEYS[1] active key
//!   KEYS[2] wait key ]]
//! ```
//!
//! ## How to fix
//! Take the upstream's order in the script's header and body, and in every
//! caller together; or, when the port's script is meant to be another
//! script, give it another name.

use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::KeyDecl;
use crate::link::roles::{same_type, RoleSource, SlotRole};

pub static RULE: Rule = Rule {
    code: "WL312",
    name: "keys-role-conflict",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "a script's header names KEYS[n] as another key than the contract's role for it",
    source: include_str!("keys_role_conflict.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        return;
    };
    let types = cx.key_types();
    for (id, script) in cx.model.scripts.iter().enumerate() {
        let Some(spec) = script.contract.map(|i| &contract.scripts[i]) else {
            continue;
        };
        let header = &script.lua.header_keys;
        let count = header.iter().map(|d| d.index).max().unwrap_or(0);
        // No header, or another count (WL307's finding).
        if header.is_empty() || count as usize != spec.keys.len() {
            continue;
        }
        let mut differ: Vec<(&KeyDecl, String, &str)> = Vec::new();
        for d in header {
            let Some((role, range)) = spec.keys.get(d.index as usize - 1) else {
                continue;
            };
            let own = SlotRole {
                text: d.role.clone(),
                span: Some(d.span),
                contract_span: None,
                source: RoleSource::Header,
            };
            let theirs = SlotRole {
                text: role.clone(),
                span: None,
                contract_span: Some(range.clone()),
                source: RoleSource::Contract,
            };
            let own = types.declared(&own, Some(contract));
            let theirs = types.declared(&theirs, Some(contract));
            if own.is_empty() || theirs.is_empty() {
                continue;
            }
            if own.iter().any(|a| theirs.iter().any(|b| same_type(a, b))) {
                continue;
            }
            differ.push((d, own.join("/"), role.as_str()));
        }
        differ.sort_by_key(|(d, ..)| d.index);
        let Some((first, own, role)) = differ.first() else {
            continue;
        };
        let name = cx.script_name(id);
        let message = match differ.len() {
            1 => format!(
                "`{name}` names KEYS[{}] `{own}` where the contract declares `{role}`",
                first.index
            ),
            n => format!(
                "`{name}` names {n} of its KEYS as other keys than the contract: KEYS[{}] `{own}` where it declares `{role}`",
                first.index
            ),
        };
        let mut d = RULE.diagnostic(
            message,
            Label::new(first.span, format!("KEYS[{}] is `{own}` here", first.index)),
        );
        for (k, own, role) in &differ[1..] {
            d.related.push(Label::new(
                k.span,
                format!("KEYS[{}] is `{own}` here; the contract: `{role}`", k.index),
            ));
        }
        if let Some(s) = cx.contract_span(&spec.keys_span) {
            d.related
                .push(Label::new(s, format!("the contract's KEYS of `{name}`")));
        }
        let order: Vec<&str> = spec.keys.iter().map(|k| k.0.as_str()).collect();
        let help = format!(
            "the contract's `{name}` takes KEYS [{}]: a caller that follows this header puts its keys in other slots than the upstream's script reads them",
            order.join(", ")
        );
        cx.blame_script(&mut d, script.speaker, help, "the script's KEYS", &name);
        out.push(d);
    }
}
