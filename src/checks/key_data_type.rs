//! # WL105 key-data-type
//!
//! ## What it does
//! Flags a command on a key of the contract's keyspace that needs another
//! Redis data type than the contract gives the key's type: `LPUSH` (a list)
//! on a key the contract keeps as a sorted set (`[keyspace.redis]`), or
//! any non-hash command on a key that holds a record. Only a key that
//! names its type by literal bytes counts (a type that is a bare
//! placeholder, BullMQ's job at `<id>`, matches any word); a command of
//! any type (`DEL`, `EXPIRE`) is never flagged.
//!
//! With no contract, the speakers are each other's: a key of one shape
//! whose last piece is a literal word (`bull:<*>:wait`) that one speaker
//! uses as one data type and another speaker as another is flagged once
//! per speaker in the minority (fewest speakers, then fewest commands),
//! at its first such command, beside the others' first.
//!
//! ## Why it breaks the wire
//! Redis keeps one data type per key. The first speaker to write the key
//! makes it a list or a sorted set; every command of the other type on
//! it fails with `WRONGTYPE Operation against a key holding the wrong kind
//! of value`, in whichever runtime comes second.
//!
//! ## Example
//! ```elixir
//! Redix.command(conn, ["LPUSH", "emq:{#{q}}:pending", id])
//! ```
//! (the contract keeps `pending` as a `zset`)
//!
//! ## How to fix
//! Use a command of the contract's data type (`ZADD` for a sorted set), or
//! change the contract's `[keyspace.redis]` and every speaker at once.

use super::{CheckContext, Rule};
use crate::contract::PatTok;
use crate::diagnostic::{Diagnostic, Label, Layer, Severity};
use crate::facts::Span;
use crate::keyshape::{typing, Typing};
use crate::link::records::key_shape;
use crate::link::roles::template_type;
use crate::link::SpeakerId;
use crate::redis::data_type;
use std::collections::BTreeMap;

pub static RULE: Rule = Rule {
    code: "WL105",
    name: "key-data-type",
    layer: Layer::L1,
    severity: Severity::Error,
    summary: "a command needs another Redis data type than the contract (or another speaker) gives its key: WRONGTYPE",
    source: include_str!("key_data_type.rs"),
    run,
};

fn run(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let Some(contract) = cx.contract else {
        between_speakers(cx, out);
        return;
    };
    let Some(ks) = contract.keyspace.as_ref() else {
        return;
    };
    for cmd in &cx.model.commands {
        let positions = crate::redis::key_args(&cmd.name, cmd.args.len());
        for pos in positions {
            let (Some(needs), Some(arg)) = (data_type(&cmd.name, pos), cmd.args.get(pos)) else {
                continue;
            };
            // A script's `KEYS[n]` holds what its callers pass: a key in
            // the wrong slot is WL304's finding, at the call.
            if arg.keys_index().is_some() {
                continue;
            }
            // Every template the key may be names one type, the same one.
            let mut named = arg.alts.iter().map(|t| match typing(t, ks) {
                Typing::Named(ty) => Some(ty),
                Typing::Open(_) => None,
            });
            let Some(Some(ty)) = named.next() else {
                continue;
            };
            // A type that is a bare placeholder (BullMQ's job at `<id>`)
            // matches any word: no evidence of what the key is.
            if !ty.pattern.iter().any(|p| matches!(p, PatTok::Lit(_))) {
                continue;
            }
            if !named.all(|n| n.is_some_and(|n| n.name == ty.name)) {
                continue;
            }
            let (holds, at) = match ks.redis_type_of(&ty.name) {
                Some(r) => (r.redis.as_str(), cx.contract_span(&r.span)),
                None => match contract.records.iter().find(|r| r.type_name == ty.name) {
                    Some(r) => ("hash", cx.contract_span(&r.span)),
                    None => continue,
                },
            };
            if holds == needs {
                continue;
            }
            let span = arg.value.span();
            let mut d = RULE.diagnostic(
                format!(
                    "`{}` needs a {needs} at a `{}` key, which the contract keeps as a {holds}",
                    cmd.name, ty.name
                ),
                Label::new(span, format!("a `{}` key", ty.name)),
            );
            if let Some(s) = at {
                d.related.push(Label::new(
                    s,
                    format!("the contract's `{}` is a {holds}", ty.name),
                ));
            }
            let help = format!(
                "whichever of `{}` and {} writes the key first, the other's commands on it fail with WRONGTYPE",
                cx.speaker_name(cmd.speaker),
                cx.others_phrase(cmd.speaker)
            );
            cx.blame(&mut d, cmd.speaker, help, "what the key holds");
            out.push(d);
        }
    }
}

/// One command's use of a key as a data type.
struct Use {
    needs: &'static str,
    speaker: SpeakerId,
    span: Span,
    command: String,
}

/// No contract: the data types each speaker's commands need at the keys of
/// one shape, held against the other speakers'.
fn between_speakers(cx: &CheckContext<'_>, out: &mut Vec<Diagnostic>) {
    let mut by_shape: BTreeMap<String, Vec<Use>> = BTreeMap::new();
    for cmd in &cx.model.commands {
        for pos in crate::redis::key_args(&cmd.name, cmd.args.len()) {
            let (Some(needs), Some(arg)) = (data_type(&cmd.name, pos), cmd.args.get(pos)) else {
                continue;
            };
            if arg.keys_index().is_some() {
                continue;
            }
            // One shape, ending in a literal word: a key that says which.
            let mut shapes = arg
                .alts
                .iter()
                .map(|t| template_type(t).map(|_| key_shape(t)));
            let Some(Some(shape)) = shapes.next() else {
                continue;
            };
            if !shapes.all(|s| s.as_ref() == Some(&shape)) {
                continue;
            }
            by_shape.entry(shape).or_default().push(Use {
                needs,
                speaker: cmd.speaker,
                span: arg.value.span(),
                command: cmd.name.clone(),
            });
        }
    }
    for (shape, uses) in &by_shape {
        conflict(cx, shape, uses, out);
    }
}

/// The findings of one shape: each speaker of a minority data type, when
/// another speaker uses the key as another.
fn conflict(cx: &CheckContext<'_>, shape: &str, uses: &[Use], out: &mut Vec<Diagnostic>) {
    // Per data type: its speakers and its commands, in source order.
    let mut types: BTreeMap<&str, (Vec<SpeakerId>, Vec<&Use>)> = BTreeMap::new();
    for u in uses {
        let e = types.entry(u.needs).or_default();
        if !e.0.contains(&u.speaker) {
            e.0.push(u.speaker);
        }
        e.1.push(u);
    }
    if types.len() < 2 {
        return;
    }
    let Some((major, (major_speakers, major_uses))) = types
        .iter()
        .max_by_key(|(t, (s, u))| (s.len(), u.len(), std::cmp::Reverse(**t)))
    else {
        return;
    };
    for (needs, (speakers, minor_uses)) in &types {
        if needs == major {
            continue;
        }
        for &sp in speakers {
            // Another speaker must hold the key as the other type: one
            // speaker's own mix is not between speakers.
            let Some(theirs) = major_uses.iter().find(|u| u.speaker != sp) else {
                continue;
            };
            let Some(mine) = minor_uses.iter().find(|u| u.speaker == sp) else {
                continue;
            };
            let mut d = RULE.diagnostic(
                format!(
                    "`{}` needs a {needs} at `{shape}`, where {} a {major}",
                    mine.command,
                    match major_speakers.len() {
                        1 => format!("`{}` keeps", cx.speaker_name(theirs.speaker)),
                        n => format!("{n} other speakers keep"),
                    }
                ),
                Label::new(mine.span, format!("a {needs} here")),
            );
            d.related.push(Label::new(
                theirs.span,
                format!("`{}` uses it as a {major}", theirs.command),
            ));
            let help = format!(
                "whichever of `{}` and `{}` writes the key first, the other's commands on it fail with WRONGTYPE",
                cx.speaker_name(sp),
                cx.speaker_name(theirs.speaker)
            );
            cx.blame(&mut d, sp, help, "what the key holds");
            out.push(d);
        }
    }
}
