//! # WL102 key-hash-tag
//!
//! ## What it does
//! Flags a key of the contract's keyspace whose queue is not the Redis
//! Cluster hash tag: the braces are missing, empty, or hold more than the
//! queue.
//!
//! ## Why it breaks the wire
//! The bytes differ, so other speakers cannot find the row (`emq:q:job:1` is
//! not `emq:{q}:job:1`). On a cluster the key also hashes to another slot
//! than the queue's other keys, so a script that touches both fails with
//! CROSSSLOT.
//!
//! ## Example
//! ```rust
//! format!("emq:{}:{}", queue, ty)   // the queue is not in `{…}`
//! ```
//!
//! ## How to fix
//! Wrap exactly the queue name in braces: `emq:{<queue>}:<type>`.

use super::keyshape::{analyze, KeyVerdict};
use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};

pub static RULE: Rule = Rule {
    code: "WL102",
    name: "key-hash-tag",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "the queue is not the key's hash tag; the row is unfindable and in another slot",
    source: include_str!("key_hash_tag.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ks) = cx.contract.and_then(|c| c.keyspace.as_ref()) else {
        return;
    };
    for key in &cx.model.keys {
        let KeyVerdict::HashTag { why, span } = analyze(&key.template, ks) else {
            continue;
        };
        let mut d = RULE.diagnostic(
            format!(
                "key `{}` does not put the queue in a hash tag: {why}",
                key.template
            ),
            Label::new(span, "the queue belongs in `{…}` here"),
        );
        d.related.extend(cx.keyspace_label(ks));
        let help = format!(
            "build `{}`: rows that `{}` writes are unfindable to {}, and on a cluster they land in another slot",
            ks.pattern,
            cx.speaker_name(key.speaker),
            cx.others_phrase(key.speaker)
        );
        cx.blame(&mut d, key.speaker, help, "where the row lives");
        out.push(d);
    }
}
