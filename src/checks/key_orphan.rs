//! # WL104 key-orphan
//!
//! ## What it does
//! Warns about a key that a speaker reads, or passes to a script that only
//! reads it, when no speaker ever writes a key of that shape, although the
//! code does write other keys of the same namespace. Holes match anything:
//! one unknown segment never makes an orphan.
//!
//! ## Why it breaks the wire
//! The reader looks at an address nobody writes. The typical cause: one
//! side reads `ns:inflight` while every writer writes `ns:inflight:<worker>`.
//!
//! ## Example
//! ```elixir
//! Redix.command(conn, ["LLEN", "bq:{#{q}}:inflight"])   # writers: bq:{q}:inflight:<worker>
//! ```
//!
//! ## How to fix
//! Build the key the way the writers do.

use std::collections::BTreeSet;

use super::keyshape::{analyze, atoms, matches, KeyVerdict};
use super::{CheckContext, Rule};
use crate::contract::{Keyspace, PatTok};
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::{Seg, Span, Template, Value};
use crate::keyshape::is_key_like;
use crate::link::records::key_shape;
use crate::link::{Arg, Model, ScriptId, SpeakerId};
use crate::redis::writes_key;

pub static RULE: Rule = Rule {
    code: "WL104",
    name: "key-orphan",
    layer: Layer::L1,
    severity: Severity::Warning,
    summary: "a key is read or passed to a script, but nothing writes a key of its shape",
    source: include_str!("key_orphan.rs"),
    run,
};

fn pattern(t: &Template) -> Vec<PatTok> {
    t.segs
        .iter()
        .map(|s| match s {
            Seg::Lit { text, .. } => PatTok::Lit(text.clone()),
            _ => PatTok::Var("x".into()),
        })
        .collect()
}

fn namespace(t: &Template) -> Option<String> {
    match t.segs.first() {
        Some(Seg::Lit { text, .. }) => text.split(':').next().map(str::to_string),
        _ => None,
    }
}

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let KeyUses { written, read } = KeyUses::of(cx.model);
    let namespaces: BTreeSet<String> = written.iter().filter_map(namespace).collect();
    let keyspace = cx.contract.and_then(|c| c.keyspace.as_ref());
    let mut reported: BTreeSet<(String, Span)> = BTreeSet::new();
    for (t, span, speaker) in read {
        let Some(ns) = unwritten_namespace(&t, keyspace, &namespaces, &written) else {
            continue;
        };
        let shape = key_shape(&t);
        if !reported.insert((shape.clone(), span)) {
            continue;
        }
        let near = written
            .iter()
            .map(key_shape)
            .filter(|w| w.split(':').next() == Some(ns.as_str()))
            .min_by_key(|w| crate::contract::edit_distance(w, &shape));
        let mut d = RULE.diagnostic(
            format!("key `{shape}` is read here, but no speaker writes a key of that shape"),
            Label::new(span, "nothing writes this key"),
        );
        let help = match near {
            Some(w) => format!(
                "the writers write `{w}`; `{}` reads an address nobody fills",
                cx.speaker_name(speaker)
            ),
            None => format!(
                "`{}` reads an address nobody fills",
                cx.speaker_name(speaker)
            ),
        };
        cx.blame_without_count(&mut d, speaker, help);
        out.push(d);
    }
}

/// The keys the code uses: those a command or a script writes, and those
/// only read, with where and by whom.
#[derive(Default)]
struct KeyUses {
    written: Vec<Template>,
    read: Vec<(Template, Span, SpeakerId)>,
}

impl KeyUses {
    fn of(m: &Model) -> KeyUses {
        let mut uses = KeyUses::default();
        uses.commands(m);
        uses.script_calls(m);
        // Lua commands on keys built from strings write too.
        for c in m.commands.iter().filter(|c| c.script.is_some()) {
            for (i, a) in c.args.iter().enumerate() {
                if writes_key(&c.name, i) {
                    uses.written.extend(a.alts.iter().cloned());
                }
            }
        }
        uses
    }

    /// The key arguments of the commands outside scripts.
    fn commands(&mut self, m: &Model) {
        for c in m.commands.iter().filter(|c| c.script.is_none()) {
            for (i, a) in c.args.iter().enumerate() {
                let is_key = match crate::redis::key_positions(&c.name) {
                    Some(p) => p.contains(&i),
                    None => true,
                };
                if !is_key {
                    continue;
                }
                for t in &a.alts {
                    if writes_key(&c.name, i) {
                        self.written.push(t.clone());
                    } else {
                        self.read.push((t.clone(), a.value.span(), c.speaker));
                    }
                }
            }
        }
    }

    /// The keys passed to scripts: written when the script writes their
    /// slot (or reads its keys by count), else read.
    fn script_calls(&mut self, m: &Model) {
        for u in &m.script_calls {
            for (i, k) in u.keys.iter().enumerate() {
                for t in &k.alts {
                    if script_writes(m, u.script, i as u32 + 1)
                        || m.scripts[u.script].lua.dynamic_keys
                    {
                        self.written.push(t.clone());
                    } else {
                        self.read.push((t.clone(), k.value.span(), u.speaker));
                    }
                }
            }
        }
    }
}

/// Whether a script writes its slot: `KEYS[n]` itself, or a key derived
/// from it (`KEYS[2] .. id`).
fn script_writes(m: &Model, script: ScriptId, slot: u32) -> bool {
    let from_slot = |a: &Arg| match &a.value {
        Value::Keys { index, .. } => *index == Some(slot),
        Value::Str(t) => matches!(
            t.segs.first(),
            Some(Seg::Value(v)) if matches!(**v, Value::Keys { index, .. } if index == Some(slot))
        ),
        _ => false,
    };
    m.commands
        .iter()
        .filter(|c| c.script == Some(script))
        .any(|c| {
            c.args
                .iter()
                .enumerate()
                .any(|(i, a)| from_slot(a) && writes_key(&c.name, i))
        })
}

/// The namespace of a key read that no written key matches, when the code
/// writes other keys of that namespace; `None` for a key that reads fine,
/// one the keyspace rules report (WL101-WL103), or one that is no key.
fn unwritten_namespace(
    t: &Template,
    keyspace: Option<&Keyspace>,
    namespaces: &BTreeSet<String>,
    written: &[Template],
) -> Option<String> {
    if !is_key_like(t)
        || !t
            .segs
            .iter()
            .any(|s| matches!(s, Seg::Lit { text, .. } if text.contains(':')))
    {
        return None;
    }
    if let Some(ks) = keyspace {
        if !matches!(analyze(t, ks), KeyVerdict::Fine | KeyVerdict::Skip) {
            return None;
        }
    }
    let ns = namespace(t).filter(|ns| namespaces.contains(ns))?;
    let a = atoms(t);
    (!written.iter().any(|w| matches(&a, &pattern(w)))).then_some(ns)
}
