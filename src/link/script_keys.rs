//! Keys inside a script, typed by its callers: `KEYS[n]` is whatever the
//! linked call sites pass in key slot n, `ARGV[n]` what they pass in
//! argument slot n, and a key the script builds from them (`KEYS[4] ..
//! jobId`, `ARGV[1] .. jobId`, `'emq:{' .. ARGV[1] .. '}:job:' ..
//! ARGV[2]`) is the template with each slot's templates in place. So the
//! fields a script writes and reads land on the record the hosts'
//! commands on that key shape use.
//!
//! A slot is typed only when every caller that shows what it passes
//! there passes one key shape (holes aside): when callers disagree, the
//! script's key stays unresolved rather than guessed (the callers'
//! disagreement is the key checks' to report).

use super::calls::ScriptCallUse;
use super::records::key_shape;
use super::{Ctx, Model, Resolver, ScriptId, MAX_ALTS};
use crate::facts::{decoded, lookup, serial_of, Op, Seg, Template, Value};

/// A slot of a script call: a key slot or an argument slot, 1-based; or
/// an item of what an argument slot decodes to (`cmsgpack.unpack(ARGV[1])[1]`:
/// the slot, the item's position, the format).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Slot {
    Keys(u32),
    Argv(u32),
    Item(u32, i64, String),
}

impl Slot {
    /// The slot a value reads: `KEYS[n]`, `ARGV[n]`, or an item of a
    /// decoded `ARGV[n]` at a literal position.
    fn of(v: &Value) -> Option<Slot> {
        match v {
            Value::Keys { index: Some(n), .. } => Some(Slot::Keys(*n)),
            Value::Argv { index: Some(n), .. } => Some(Slot::Argv(*n)),
            Value::Op {
                op: Op::Lookup,
                args,
                ..
            } => {
                let [coll, Value::Int { value: k, .. }] = args.as_slice() else {
                    return None;
                };
                let (format, inner) = serial_of(&Op::Decode, coll)?;
                match inner {
                    Value::Argv { index: Some(n), .. } => Some(Slot::Item(*n, *k, format)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Gives script commands' arguments built from `KEYS[n]`/`ARGV[n]` the
/// templates their callers pass.
pub(super) fn fill(resolver: &Resolver<'_>, model: &mut Model) {
    let mut cache: std::collections::HashMap<(ScriptId, Slot), Option<Vec<Template>>> =
        Default::default();
    let mut updates: Vec<(usize, usize, Vec<Template>)> = Vec::new();
    for (ci, c) in model.commands.iter().enumerate() {
        let Some(script) = c.script else {
            continue;
        };
        let keys_at = crate::redis::key_positions(&c.name);
        for (ai, a) in c.args.iter().enumerate() {
            if !mentions_slot(&a.value) {
                continue;
            }
            // ARGV types a key; elsewhere (a field, a value) it stays what
            // the script shows.
            let argv_ok = keys_at.is_some_and(|p| p.contains(&ai));
            let mut slot_alts = |slot: Slot| -> Option<Vec<Template>> {
                if !matches!(slot, Slot::Keys(_)) && !argv_ok {
                    return None;
                }
                cache
                    .entry((script, slot.clone()))
                    .or_insert_with(|| passed(resolver, model, script, &slot))
                    .clone()
            };
            let alts = typed(&a.value, &mut slot_alts);
            if !alts.is_empty() {
                updates.push((ci, ai, alts));
            }
        }
    }
    for (ci, ai, alts) in updates {
        model.commands[ci].args[ai].alts = alts.into();
    }
}

/// Whether a value reads a script slot.
fn mentions_slot(v: &Value) -> bool {
    if Slot::of(v).is_some() {
        return true;
    }
    match v {
        Value::Str(t) => t.segs.iter().any(|s| match s {
            Seg::Value(v) => mentions_slot(v),
            _ => false,
        }),
        Value::OneOf { alts, .. } => alts.iter().any(mentions_slot),
        _ => false,
    }
}

/// The templates a slot's callers pass, one key shape among them; `None`
/// when no caller shows it or callers disagree. A value a caller passes
/// unresolved is a hole: it contradicts no other caller.
fn passed(
    resolver: &Resolver<'_>,
    model: &Model,
    script: ScriptId,
    slot: &Slot,
) -> Option<Vec<Template>> {
    let mut alts: Vec<Template> = Vec::new();
    let mut holes: Vec<Template> = Vec::new();
    let mut shape: Option<String> = None;
    for u in model.script_calls.iter().filter(|u| u.script == script) {
        let arg = match slot {
            Slot::Keys(n) => u.keys.get((*n as usize).checked_sub(1)?),
            Slot::Argv(n) | Slot::Item(n, ..) => u.argv.get((*n as usize).checked_sub(1)?),
        };
        let Some(arg) = arg else {
            continue;
        };
        let item;
        let (value, passed) = match slot {
            Slot::Item(_, k, format) => {
                item = item_passed(resolver, u, &arg.value, *k, format);
                (&item.0, &item.1[..])
            }
            _ => (&arg.value, &arg.alts[..]),
        };
        if passed.is_empty() && holes.is_empty() {
            holes.push(Template {
                segs: vec![Seg::Hole {
                    label: value.describe(),
                    span: value.span(),
                }],
                span: value.span(),
            });
        }
        for t in passed.iter() {
            let s = key_shape(t);
            if s == "<*>" {
                if holes.is_empty() {
                    holes.push(t.clone());
                }
                continue;
            }
            match &shape {
                None => shape = Some(s),
                Some(known) if *known == s => {}
                // A caller that passes a literal where another passes a
                // hole (a test's `job:does-not-exist`) says nothing
                // against it: the slot is the more general shape.
                Some(known) if generalizes(known, &s) => continue,
                Some(known) if generalizes(&s, known) => {
                    alts.clear();
                    shape = Some(s);
                }
                Some(_) => return None,
            }
            if alts.len() < MAX_ALTS && !alts.contains(t) {
                alts.push(t.clone());
            }
        }
    }
    if alts.is_empty() {
        alts = holes;
    }
    (!alts.is_empty()).then_some(alts)
}

/// Whether every key of shape `specific` is also of shape `general`: each
/// `<*>` of `general` stands for any bytes (holes included), its literal
/// bytes for themselves.
fn generalizes(general: &str, specific: &str) -> bool {
    let parts: Vec<&str> = general.split("<*>").collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return false;
    };
    if parts.len() == 1 || !specific.starts_with(first) {
        return false;
    }
    let mut rest = &specific[first.len()..];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Item `k` of what a call passes as `value`, decoded in `format`: where
/// the caller encodes a list in that format, its `k`-th item, resolved
/// where the call is (an encoding the code does not show, or in another
/// format, gives a hole).
fn item_passed(
    resolver: &Resolver<'_>,
    u: &ScriptCallUse,
    value: &Value,
    k: i64,
    format: &str,
) -> (Value, Vec<Template>) {
    let span = value.span();
    let item = lookup(
        decoded(format, value.clone(), span),
        Value::Int { value: k, span },
        span,
    );
    let cx = Ctx {
        speaker: u.speaker,
        module: "",
        file: u.span.file,
    };
    let alts = resolver.templates(&item, &cx);
    (item, alts)
}

/// The templates a value may send, each slot it reads replaced by what its
/// callers pass there; empty when some slot is not typed.
fn typed(v: &Value, slot_alts: &mut impl FnMut(Slot) -> Option<Vec<Template>>) -> Vec<Template> {
    if let Some(slot) = Slot::of(v) {
        return slot_alts(slot).unwrap_or_default();
    }
    match v {
        Value::Str(t) => typed_template(t, slot_alts),
        Value::OneOf { alts, .. } => {
            let mut out: Vec<Template> = Vec::new();
            for a in alts {
                if !mentions_slot(a) {
                    return Vec::new();
                }
                for t in typed(a, slot_alts) {
                    if out.len() < MAX_ALTS && !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// A template's slot segments replaced by their callers' templates (every
/// combination, at most [`MAX_ALTS`]); other values become holes.
fn typed_template(
    t: &Template,
    slot_alts: &mut impl FnMut(Slot) -> Option<Vec<Template>>,
) -> Vec<Template> {
    let mut out: Vec<Vec<Seg>> = vec![Vec::new()];
    for seg in &t.segs {
        let slot = match seg {
            Seg::Value(v) => Slot::of(v),
            _ => None,
        };
        match (slot, seg) {
            (Some(slot), _) => {
                let Some(alts) = slot_alts(slot) else {
                    return Vec::new();
                };
                let mut next = Vec::new();
                for prefix in &out {
                    for a in &alts {
                        if next.len() < MAX_ALTS {
                            let mut segs = prefix.clone();
                            segs.extend(a.segs.iter().cloned());
                            next.push(segs);
                        }
                    }
                }
                out = next;
            }
            (None, Seg::Value(v)) => {
                for segs in &mut out {
                    segs.push(Seg::Hole {
                        label: v.describe(),
                        span: v.span(),
                    });
                }
            }
            (None, other) => {
                for segs in &mut out {
                    segs.push(other.clone());
                }
            }
        }
    }
    out.into_iter()
        .map(|segs| Template { segs, span: t.span })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::generalizes;

    #[test]
    fn a_hole_stands_for_any_bytes() {
        assert!(generalizes("<*>:<*>:<*>", "<*>:<*>:does-not-exist"));
        assert!(generalizes("<*>:<*>:<*>", "<*>:<*>:"));
        assert!(generalizes("q:{<*>}:job:<*>", "q:{<*>}:job:7"));
        assert!(!generalizes("<*>:<*>:wait", "<*>:<*>:<*>"));
        assert!(!generalizes("q:{<*>}:job:<*>", "q:{<*>}:queue"));
        assert!(!generalizes("<*>:<*>:wait", "<*>:<*>:paused"));
        assert!(!generalizes("q:job", "q:job"));
    }
}
