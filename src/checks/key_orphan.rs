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

use crate::hash::{HashMap, HashSet};
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
    let namespaces: BTreeSet<String> = written.iter().filter_map(|t| namespace(t)).collect();
    let keyspace = cx.contract.and_then(|c| c.keyspace.as_ref());
    let index = Written::of(&written);
    // The written shapes by namespace, for the suggestions: built at the
    // first key reported.
    let mut shapes: Option<HashMap<String, Vec<String>>> = None;
    let mut reported: BTreeSet<(String, Span)> = BTreeSet::new();
    for (t, span, speaker) in read {
        let Some(ns) = unwritten_namespace(t, keyspace, &namespaces, &index) else {
            continue;
        };
        let shape = key_shape(t);
        if !reported.insert((shape.clone(), span)) {
            continue;
        }
        // A namespace of more written shapes than any real one has
        // (hostile input) gets no suggestion.
        let near = shapes
            .get_or_insert_with(|| written_shapes(&written))
            .get(&ns)
            .filter(|l| l.len() <= MAX_COMPARED)
            .and_then(|l| {
                l.iter()
                    .min_by_key(|w| crate::contract::edit_distance(w, &shape))
            });
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

/// The shapes of the written keys by namespace, in the order first
/// written, each once; a namespace of more than [`MAX_COMPARED`] is cut
/// just past it (and gets no suggestion).
fn written_shapes(written: &[&Template]) -> HashMap<String, Vec<String>> {
    let mut shapes: HashMap<String, Vec<String>> = HashMap::default();
    for w in written {
        let shape = key_shape(w);
        let ns = shape.split(':').next().unwrap_or_default().to_string();
        let list = shapes.entry(ns).or_default();
        if list.len() <= MAX_COMPARED && !list.contains(&shape) {
            list.push(shape);
        }
    }
    shapes
}

/// The most written shapes of one namespace a read is compared with for a
/// suggestion.
const MAX_COMPARED: usize = 1000;

/// The written keys as patterns, by the literal text they start with: a
/// read is matched only against the patterns whose leading text agrees
/// with its own (each read against every written key was quadratic:
/// 6,000 reads of 10,000 written keys took 12 s).
struct Written {
    patterns: Vec<Vec<PatTok>>,
    /// (leading literal, pattern index), sorted.
    leads: Vec<(String, usize)>,
}

/// The longest leading text a read is looked up by.
const MAX_LEAD: usize = 256;

impl Written {
    fn of(written: &[&Template]) -> Written {
        let patterns: Vec<Vec<PatTok>> = written.iter().map(|t| pattern(t)).collect();
        let mut leads: Vec<(String, usize)> = patterns
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let lead: String = p
                    .iter()
                    .map_while(|t| match t {
                        PatTok::Lit(s) => Some(s.as_str()),
                        PatTok::Var(_) => None,
                    })
                    .collect();
                (lead, i)
            })
            .collect();
        leads.sort();
        Written { patterns, leads }
    }

    /// Whether some written key matches the read `a`: the patterns whose
    /// leading text is a prefix of the read's, or starts with it.
    fn any_match(&self, a: &[crate::keyshape::Atom]) -> bool {
        let lead: String = a
            .iter()
            .map_while(|x| match x {
                crate::keyshape::Atom::Char(c, _) => Some(*c),
                crate::keyshape::Atom::Hole(..) => None,
            })
            .take(MAX_LEAD)
            .collect();
        let try_range = |from: usize, to: usize| {
            self.leads[from..to]
                .iter()
                .any(|(_, i)| matches(a, &self.patterns[*i]))
        };
        let bounds: Vec<usize> = lead
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(lead.len()))
            .collect();
        for &end in &bounds[..bounds.len() - 1] {
            let prefix = &lead[..end];
            let from = self.leads.partition_point(|(l, _)| l.as_str() < prefix);
            let to = self.leads.partition_point(|(l, _)| l.as_str() <= prefix);
            if try_range(from, to) {
                return true;
            }
        }
        let from = self
            .leads
            .partition_point(|(l, _)| l.as_str() < lead.as_str());
        let to = from
            + self.leads[from..]
                .iter()
                .take_while(|(l, _)| l.starts_with(lead.as_str()))
                .count();
        try_range(from, to)
    }
}

/// The keys the code uses: those a command or a script writes, and those
/// only read, with where and by whom.
#[derive(Default)]
struct KeyUses<'m> {
    written: Vec<&'m Template>,
    read: Vec<(&'m Template, Span, SpeakerId)>,
}

impl<'m> KeyUses<'m> {
    fn of(m: &'m Model) -> KeyUses<'m> {
        let mut uses = KeyUses::default();
        uses.commands(m);
        uses.script_calls(m);
        // Lua commands on keys built from strings write too.
        for c in m.commands.iter().filter(|c| c.script.is_some()) {
            for (i, a) in c.args.iter().enumerate() {
                if writes_key(&c.name, i) {
                    uses.written.extend(a.alts.iter());
                }
            }
        }
        uses
    }

    /// The key arguments of the commands outside scripts.
    fn commands(&mut self, m: &'m Model) {
        for c in m.commands.iter().filter(|c| c.script.is_none()) {
            for (i, a) in c.args.iter().enumerate() {
                let is_key = match crate::redis::key_positions(&c.name) {
                    Some(p) => p.contains(&i),
                    None => true,
                };
                if !is_key {
                    continue;
                }
                for t in a.alts.iter() {
                    if writes_key(&c.name, i) {
                        self.written.push(t);
                    } else {
                        self.read.push((t, a.value.span(), c.speaker));
                    }
                }
            }
        }
    }

    /// The keys passed to scripts: written when the script writes their
    /// slot (or reads its keys by count), else read.
    fn script_calls(&mut self, m: &'m Model) {
        let slots = written_slots(m);
        for u in &m.script_calls {
            for (i, k) in u.keys.iter().enumerate() {
                for t in k.alts.iter() {
                    if slots.contains(&(u.script, i as u32 + 1))
                        || m.scripts[u.script].lua.dynamic_keys
                    {
                        self.written.push(t);
                    } else {
                        self.read.push((t, k.value.span(), u.speaker));
                    }
                }
            }
        }
    }
}

/// The slots each script writes: `KEYS[n]` itself, or a key derived from
/// it (`KEYS[2] .. id`), found in one pass over the commands (a pass for
/// each key of each call was quadratic).
fn written_slots(m: &Model) -> HashSet<(ScriptId, u32)> {
    let slot_of = |a: &Arg| match &a.value {
        Value::Keys { index, .. } => *index,
        Value::Str(t) => match t.segs.first() {
            Some(Seg::Value(v)) => match **v {
                Value::Keys { index, .. } => index,
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let mut out = HashSet::default();
    for c in &m.commands {
        let Some(script) = c.script else {
            continue;
        };
        for (i, a) in c.args.iter().enumerate() {
            if let Some(slot) = slot_of(a).filter(|_| writes_key(&c.name, i)) {
                out.insert((script, slot));
            }
        }
    }
    out
}

/// The namespace of a key read that no written key matches, when the code
/// writes other keys of that namespace; `None` for a key that reads fine,
/// one the keyspace rules report (WL101-WL103), or one that is no key.
fn unwritten_namespace(
    t: &Template,
    keyspace: Option<&Keyspace>,
    namespaces: &BTreeSet<String>,
    written: &Written,
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
    (!written.any_match(&atoms(t))).then_some(ns)
}
