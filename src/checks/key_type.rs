//! # WL103 key-type
//!
//! ## What it does
//! Flags a key of the contract's keyspace whose type suffix is not one the
//! contract declares (`jobs:` where the contract has `job:<id>`). Where
//! only a type that is a bare placeholder matches (BullMQ's job hash at
//! `<prefix>:<queue>:<id>`), a word of three letters or more written in
//! the key, an edit from a type's word for each four letters (`wiat`), is
//! that type misspelt, not an id.
//!
//! ## Why it breaks the wire
//! The suffix is part of the address. A row written at `emq:{q}:jobs:42` is
//! unfindable to every speaker that reads `emq:{q}:job:42`.
//!
//! ## Example
//! ```elixir
//! Keyspace.queue_key(queue, "jobs:" <> id)
//! ```
//!
//! ## How to fix
//! Use one of the contract's types (`[keyspace.types]`), or add the new type
//! to the contract and to every speaker that reads it. A near miss of one
//! type (one closest) carries the replacement (`fix`, safe).

use super::keyshape::{analyze, KeyVerdict};
use super::{quoted, CheckContext, Rule};
use crate::contract::{closest, suggest};
use crate::diagnostic::{Applicability, Diagnostic, Fix, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL103",
    name: "key-type",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a key's type suffix is not one the contract declares; the row is unfindable",
    source: include_str!("key_type.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ks) = cx.contract.and_then(|c| c.keyspace.as_ref()) else {
        return;
    };
    for key in &cx.model.keys {
        let KeyVerdict::Type { found, span } = analyze(&key.template, ks) else {
            continue;
        };
        let mut d = RULE.diagnostic(
            format!(
                "key type `{found}` is not in the contract (it knows {})",
                quoted(ks.queue_types().map(|t| &t.text))
            ),
            Label::new(span, "unknown type"),
        );
        if let Some(s) = ks
            .queue_types()
            .next()
            .and_then(|t| cx.contract_span(&t.span))
        {
            d.related.push(Label::new(s, "the contract's key types"));
        }
        let mean = suggest(
            found.trim_end_matches(':'),
            ks.queue_types().map(|t| t.lead().trim_end_matches(':')),
        )
        .map(|m| format!("{m} "))
        .unwrap_or_default();
        let help = format!(
            "{mean}rows that `{}` writes at `{}` are unfindable to {}",
            cx.speaker_name(key.speaker),
            key.template,
            cx.others_phrase(key.speaker)
        );
        cx.blame(&mut d, key.speaker, help, "where the row lives");
        d.fix = fix(cx, ks, &found, span);
        out.push(d);
    }
}

/// The contract's one closest type in place of a near miss of it
/// (`jobs:` for `job:`), when the source spells the suffix as is.
fn fix(
    cx: &CheckContext<'_>,
    ks: &crate::contract::Keyspace,
    found: &str,
    span: crate::facts::Span,
) -> Option<Fix> {
    let best = closest(
        found.trim_end_matches(':'),
        ks.queue_types().map(|t| t.lead().trim_end_matches(':')),
    )?;
    let text = format!("{best}{}", &found[found.trim_end_matches(':').len()..]);
    let edit = cx.replacement(span, found, &text)?;
    Some(Fix::one(
        Applicability::Safe,
        format!("replace `{found}` with the contract's `{text}`"),
        edit,
    ))
}
