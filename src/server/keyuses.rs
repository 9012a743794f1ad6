//! Where the key a builder builds is used, for a hover on the builder, on
//! a call of it, or on a field literal sent with it, when the key has no
//! row of its own (a key whose namespace is a value, as
//! `"#{prefix}:#{name}:#{id}"`): the commands that write and read it and
//! each of its hash fields, the scripts it is passed to (in which slot),
//! and what those scripts do with that slot.
//!
//! A key is the builder's when the builder's text holds its last literal
//! bytes: a key built from `job/2`'s (`"#{base(ctx)}:#{id}"`) is, one that
//! adds to it (`"#{job(ctx, id)}:lock"`) is another builder's.

use std::collections::BTreeMap;

use crate::facts::{Seg, Span, Template, Value};
use crate::link::records::named_fields;
use crate::link::{Arg, CommandUse, Model, ScriptId, SpeakerId};

/// A place a speaker uses the key.
pub type Place = (SpeakerId, Span);

/// Who writes and who reads.
#[derive(Default)]
pub struct Sides {
    pub written: Vec<Place>,
    pub read: Vec<Place>,
}

impl Sides {
    fn add(&mut self, write: bool, place: Place) {
        let side = if write {
            &mut self.written
        } else {
            &mut self.read
        };
        if !side.contains(&place) {
            side.push(place);
        }
    }

    pub fn retain(&mut self, keep: impl Fn(&Place) -> bool) {
        self.written.retain(&keep);
        self.read.retain(&keep);
    }
}

/// The uses of the key anchored in a span (the builder's returned text,
/// or a use's last literal).
#[derive(Default)]
pub struct KeyUses {
    pub key: Sides,
    /// By hash field: who writes and reads it (the field's literal).
    pub fields: BTreeMap<String, Sides>,
    /// By script and slot (`moveToFinished`, 12): who passes it there.
    pub passed: BTreeMap<(ScriptId, u32), Vec<Place>>,
}

fn last_literal(t: &Template) -> Option<Span> {
    t.segs.iter().rev().find_map(|s| match s {
        Seg::Lit { span, .. } => Some(*span),
        _ => None,
    })
}

/// Whether `t`'s last literal bytes are written inside `def`.
fn anchored(t: &Template, def: Span) -> bool {
    last_literal(t).is_some_and(|s| s.inside(def))
}

fn sends(arg: &Arg, def: Span) -> bool {
    arg.alts.iter().any(|t| anchored(t, def))
}

fn is_key(name: &str, i: usize) -> bool {
    crate::redis::key_positions(name).is_none_or(|p| p.contains(&i))
}

/// The key sent at `at` (a call of a builder, as a command's key or a
/// script's KEYS) when no row of the matrix has it: the narrowest, and the
/// span of its last literal bytes, which anchors its uses.
pub fn key_at(m: &Model, at: Span) -> Option<(&Template, Span)> {
    let inside = |s: Span| at.inside(s);
    m.keys
        .iter()
        .filter(|k| k.sent && inside(k.template.span))
        .min_by_key(|k| k.template.span.end - k.template.span.start)
        .and_then(|k| Some((&k.template, last_literal(&k.template)?)))
}

/// The field literal at `at` of a hash command, with its key's template
/// and anchor.
pub fn field_at(m: &Model, at: Span) -> Option<(String, &Template, Span)> {
    let inside = |s: Span| at.inside(s);
    let sent = m.commands.iter().find_map(|c| {
        let (_, fields, _) = named_fields(c)?;
        let (name, _) = fields
            .iter()
            .filter_map(|f| f.literal())
            .find(|(_, s)| inside(*s))?;
        let t = c.args.first()?.alts.first()?;
        Some((name, t, last_literal(t)?))
    });
    // A field read from the map a whole-hash read filled.
    sent.or_else(|| {
        let r = m.field_reads.iter().find(|r| inside(r.span))?;
        let t = r.key.first()?;
        Some((r.field.clone(), t, last_literal(t)?))
    })
}

/// The uses of the key whose last literal `def` holds, over the model.
pub fn of(m: &Model, def: Span) -> KeyUses {
    let mut out = KeyUses::default();
    for u in &m.script_calls {
        // The invocation, as coverage counts runs: a wrapper's callers,
        // not its body once per caller.
        let place = (u.speaker, u.site.unwrap_or(u.span));
        for (n, arg) in u.keys.iter().enumerate() {
            if sends(arg, def) {
                let list = out.passed.entry((u.script, n as u32 + 1)).or_default();
                if !list.contains(&place) {
                    list.push(place);
                }
            }
        }
    }
    for c in &m.commands {
        for (i, arg) in c.args.iter().enumerate() {
            // The key itself, or the KEYS slot of a script it is passed in.
            let passed = |n: u32| c.script.is_some_and(|s| out.passed.contains_key(&(s, n)));
            let hit = match arg.value {
                Value::Keys { index: Some(n), .. } if passed(n) => true,
                _ => sends(arg, def),
            };
            if is_key(&c.name, i) && hit {
                let write = crate::redis::writes_key(&c.name, i);
                out.key.add(write, (c.speaker, c.span));
                if i == 0 {
                    fields(&mut out.fields, c);
                }
            }
        }
    }
    for r in &m.field_reads {
        if r.key.iter().any(|t| anchored(t, def)) {
            let sides = out.fields.entry(r.field.clone()).or_default();
            sides.add(false, (r.speaker, r.span));
        }
    }
    out
}

/// The field literals a hash command on the key names.
fn fields(out: &mut BTreeMap<String, Sides>, c: &CommandUse) {
    let Some((_, args, write)) = named_fields(c) else {
        return;
    };
    for (name, span) in args.iter().filter_map(|f| f.literal()) {
        out.entry(name).or_default().add(write, (c.speaker, span));
    }
}
