//! # WL101 key-prefix
//!
//! ## What it does
//! Flags a key whose namespace differs from the contract's prefix, when the
//! key is otherwise shaped like one of the contract's keys or its namespace
//! is a near miss of the prefix (`emk:` for `emq:`). A prefix that only
//! looks like the contract's is one too, when the rest of the key is a key
//! of the keyspace: the separator one edit away (`emq-`, `emq;`, `emq.`,
//! `emq_`, `emq::`), the namespace in another case (`EMQ:`), in letters of
//! another script that render alike (`еmq:` with a Cyrillic `е`, `émq:`),
//! or with invisible characters in it (a zero-width space, a soft hyphen,
//! a no-break space, a direction override).
//!
//! ## Why it breaks the wire
//! Every speaker finds a row by building its key byte for byte. A speaker
//! that writes `emk:{q}:job:42` puts the row at an address no other speaker
//! scans: the job is not lost, it is unfindable. The changer also stops
//! finding everyone else's rows.
//!
//! ## Example
//! ```elixir
//! def queue_key(queue, type), do: IO.iodata_to_binary(["emk:{", queue, "}:", type])
//! ```
//!
//! ## How to fix
//! Build the key with the contract's prefix (`emq:`), or change the contract
//! and every speaker together. A near miss of the prefix's namespace
//! carries the replacement (`fix`, safe: `check --fix` applies it).

use super::keyshape::{analyze, looks_like, near_namespace, visible, KeyVerdict};
use super::{CheckContext, Rule};
use crate::diagnostic::{Applicability, Diagnostic, Fix, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL101",
    name: "key-prefix",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a key's namespace differs from the contract's prefix; the row is unfindable",
    source: include_str!("key_prefix.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ks) = cx.contract.and_then(|c| c.keyspace.as_ref()) else {
        return;
    };
    for key in &cx.model.keys {
        let KeyVerdict::Prefix { found, span } = analyze(&key.template, ks) else {
            continue;
        };
        let shown = visible(&found);
        let mut d = RULE.diagnostic(
            format!(
                "key prefix `{shown}` differs from the contract's `{}`",
                ks.prefix
            ),
            Label::new(span, format!("`{shown}` here")),
        );
        d.related.extend(cx.keyspace_label(ks));
        let help = format!(
            "write `{}` (the key is `{}`): rows that `{}` writes at `{shown}` are unfindable to {}, and it cannot find theirs",
            ks.prefix,
            visible(&key.template.to_string()),
            cx.speaker_name(key.speaker),
            cx.others_phrase(key.speaker)
        );
        cx.blame(&mut d, key.speaker, help, "where the row lives");
        d.fix = fix(cx, ks, &found, span);
        out.push(d);
    }
}

/// The contract's prefix in place of a near miss of its namespace (`emk:`
/// for `emq:`) or of a prefix that only looks like it (`emq-`, `EMQ:`,
/// `еmq:` with a Cyrillic `е`); a key under another namespace altogether
/// is not a typo.
fn fix(
    cx: &CheckContext<'_>,
    ks: &crate::contract::Keyspace,
    found: &str,
    span: crate::facts::Span,
) -> Option<Fix> {
    let near = match (ks.prefix.strip_suffix(':'), found.strip_suffix(':')) {
        (Some(prefix_ns), Some(ns)) => near_namespace(ns, prefix_ns),
        _ => false,
    };
    if !near && !looks_like(found, &ks.prefix) {
        return None;
    }
    let edit = cx.replacement(span, found, &ks.prefix)?;
    Some(Fix::one(
        Applicability::Safe,
        format!(
            "replace `{}` with the contract's `{}`",
            visible(found),
            ks.prefix
        ),
        edit,
    ))
}
