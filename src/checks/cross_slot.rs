//! # WL306 cross-slot
//!
//! ## What it does
//! Flags a script call whose keys do not share one hash tag, where the
//! keyspace is clustered: one key lacks the `{…}` tag that the others
//! carry, or two keys carry different literal tags.
//!
//! ## Why it breaks the wire
//! A Redis Cluster runs a script only when all its keys hash to one slot.
//! Keys without the shared tag hash elsewhere, and the call fails with
//! CROSSSLOT: on a cluster, never in a single-node test.
//!
//! ## Example
//! ```rust
//! script.key(format!("emq:{{{q}}}:job:{id}")).key(format!("emq:{q}:pending"))
//! ```
//!
//! ## How to fix
//! Build every key of the call with the same hash tag, the queue in `{…}`.

use super::keyshape::{analyze, KeyVerdict};
use super::{CheckContext, Rule};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::{Seg, Template};
use crate::link::scripts::hash_tag;

pub static RULE: Rule = Rule {
    code: "WL306",
    name: "cross-slot",
    layer: Layer::L2,
    severity: Severity::Error,
    summary: "the keys passed to one script do not share a hash tag on a clustered keyspace",
    source: include_str!("cross_slot.rs"),
    run,
};

/// A key's tag, or `None` when its literal bytes show no tag; keys that
/// say too little (a bare hole) are left out.
fn tag_of(alts: &[Template]) -> Option<Option<String>> {
    let [t] = alts else {
        return None;
    };
    if !matches!(t.segs.first(), Some(Seg::Lit { .. })) {
        return None;
    }
    Some(hash_tag(t))
}

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let keyspace = cx.contract.and_then(|c| c.keyspace.as_ref());
    let contract_clustered = keyspace.map(|k| k.clustered);
    for u in cx.model.script_calls.iter().filter(|u| !u.echo) {
        if u.keys.len() < 2 {
            continue;
        }
        let tags: Vec<Option<Option<String>>> = u.keys.iter().map(|k| tag_of(&k.alts)).collect();
        let tagged: Vec<&String> = tags
            .iter()
            .filter_map(|t| t.as_ref().and_then(|x| x.as_ref()))
            .collect();
        let Some(first_tag) = tagged.first() else {
            continue;
        };
        // Without a contract, a call whose other keys carry a tag shows
        // that the code means to run on a cluster.
        if contract_clustered == Some(false) {
            continue;
        }
        let name = cx.script_name(u.script);
        let tagged_key = u
            .keys
            .iter()
            .zip(&tags)
            .find(|(_, t)| matches!(t, Some(Some(_))))
            .map(|(k, _)| k);
        for (i, (key, tag)) in u.keys.iter().zip(&tags).enumerate() {
            // A key that breaks the contract's hash tag is WL102's finding.
            if let (Some(ks), [t]) = (keyspace, &*key.alts) {
                if matches!(analyze(t, ks), KeyVerdict::HashTag { .. }) {
                    continue;
                }
            }
            let why = match tag {
                Some(None) => "has no hash tag".to_string(),
                Some(Some(t))
                    if t != *first_tag && !t.contains('\0') && !first_tag.contains('\0') =>
                {
                    format!("has the hash tag `{{{t}}}`, not `{{{first_tag}}}`")
                }
                _ => continue,
            };
            let mut d = RULE.diagnostic(
                format!(
                    "KEYS[{}] of `{name}` {why}, so the call spans cluster slots",
                    i + 1
                ),
                Label::new(key.value.span(), "this key hashes to another slot"),
            );
            if let Some(k) = tagged_key {
                d.related
                    .push(Label::new(k.value.span(), "this key carries the hash tag"));
            }
            let help = "put the same `{queue}` hash tag in every key of the call: on a cluster it fails with CROSSSLOT";
            cx.blame(
                &mut d,
                u.speaker,
                help.into(),
                "the cluster slot of the call",
            );
            out.push(d);
        }
    }
}
