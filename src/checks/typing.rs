//! Which contract record a hash lives at, when its key alone does not say.
//!
//! A key built from holes and separators only (`prefix .. id` with the
//! prefix from ARGV, `"#{prefix}:#{queue}:#{id}"`, `"bull:#{queue}:#{id}"`
//! after the keyspace's prefix) can spell the key of every type of the
//! contract, so its type is open. The fields the code names there are the
//! evidence then: a hash whose named fields are, for the most part and at
//! least [`MIN_KNOWN`] of them, the fields of one record, and of no other
//! as many, is that record, and its other fields are checked against it
//! (BullMQ's `storeJob` writes the job hash at `args[1] .. jobId`). A key
//! that names a type keeps it: fields never override the key.

use std::collections::BTreeSet;

use crate::contract::{Contract, Record};
use crate::facts::{Seg, Template};
use crate::keyshape::{typing, Typing};

/// The fewest known fields that type a hash: one or two shared names
/// (`name`, `data`) are common to many records of a queue.
pub const MIN_KNOWN: usize = 3;

/// The record that the `fields` named at a key whose templates are `alts`
/// show, when the key leaves its type open in every template.
pub fn by_fields<'c>(
    contract: &'c Contract,
    alts: &[Template],
    fields: &BTreeSet<&str>,
) -> Option<&'c Record> {
    let ks = contract.keyspace.as_ref()?;
    if fields.len() < MIN_KNOWN {
        return None;
    }
    let mut open: Option<BTreeSet<&str>> = None;
    for t in alts {
        // Literal words in a key (`prefix .. "dn:" .. id`) are evidence of
        // their own, which the fields must not override.
        if !holes_only(t, &ks.prefix) {
            return None;
        }
        let Typing::Open(types) = typing(t, ks) else {
            return None;
        };
        let names: BTreeSet<&str> = types.iter().map(|t| t.name.as_str()).collect();
        open = Some(match open {
            None => names,
            Some(o) => o.intersection(&names).copied().collect(),
        });
    }
    let open = open?;
    let mut best: Option<(&Record, usize)> = None;
    let mut tie = false;
    for r in contract.records.iter() {
        if !open.contains(r.type_name.as_str()) {
            continue;
        }
        let known = fields.iter().filter(|f| r.has_field(f)).count();
        if known < MIN_KNOWN || 2 * known <= fields.len() {
            continue;
        }
        match best {
            Some((_, n)) if n > known => {}
            Some((_, n)) if n == known => tie = true,
            _ => {
                best = Some((r, known));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(r, _)| r)
}

/// Whether a template is holes and separators only (`<*><*>`,
/// `<*>:<*>:<*>`, `{<*>}:<*>`), after the keyspace's prefix if it leads
/// (`bull:<*>:<*>`): nothing in it names a type.
fn holes_only(t: &Template, prefix: &str) -> bool {
    t.segs.iter().enumerate().all(|(i, s)| match s {
        Seg::Lit { text, .. } => {
            let text = match i {
                0 => text.strip_prefix(prefix).unwrap_or(text),
                _ => text,
            };
            text.chars().all(|c| matches!(c, ':' | '{' | '}'))
        }
        Seg::Hole { .. } => true,
        Seg::Value(_) => false,
    })
}
