//! A port's own keys: key shapes the code sends that lie outside the
//! keyspace of the shipped family it is checked against (BullMQ, RSMQ,
//! Sidekiq, asynq: another namespace than its prefix, and none of its
//! whole keys), such as a port's cache or session keys beside the
//! family's queue. No rule holds them to the contract, and they are no
//! near miss of it (those are WL101 to WL103), so one note says that they
//! were seen and left alone: silence on them is said, not implied. A
//! contract of one's own or EchoMQ's, whose code is not a port, says
//! nothing of them; nor does test code.

use crate::contract::{shipped, Contract, Keyspace};
use crate::discover::Note;
use crate::facts::Template;
use crate::keyshape::{self, KeyVerdict};
use crate::link::Model;
use crate::source::{is_test_path, SourceMap};

/// Key shapes the note names, at the most; the rest are counted.
const NAMED: usize = 3;

/// Distinct key shapes kept, at the most (the count stops there).
const KEPT: usize = 1024;

/// The note, when the contract is a shipped family's and code outside
/// tests sends keys outside its keyspace.
pub(super) fn note(
    model: &Model,
    contract: Option<&Contract>,
    sources: &SourceMap,
) -> Option<Note> {
    let family = |c: &&Contract| c.embedded && shipped::families().any(|f| f.name == c.name);
    let c = contract.filter(family)?;
    let ks = c.keyspace.as_ref()?;
    let mut shapes: Vec<String> = Vec::new();
    for k in model.keys.iter().filter(|k| k.sent) {
        let t = &k.template;
        let own = keyshape::is_key_like(t)
            && !keyshape::in_keyspace(t, ks)
            && !may_be_whole(t, ks)
            && matches!(keyshape::analyze(t, ks), KeyVerdict::Skip)
            && !is_test_path(&sources.get(t.span.file).rel)
            && !model.test_regions.iter().any(|r| t.span.inside(*r));
        let shape = t.to_string();
        if own && shapes.len() < KEPT && !shapes.contains(&shape) {
            shapes.push(shape);
        }
    }
    shapes.sort();
    (!shapes.is_empty()).then(|| Note {
        path: ".".into(),
        message: message(&shapes, &c.name, &ks.prefix),
    })
}

/// Whether `t` may be one of the contract's whole keys: its literal lead
/// and the whole key's agree as far as both go (`stat:<attribute>` may be
/// `stat:processed`), so it is not known to be the code's own.
fn may_be_whole(t: &Template, ks: &Keyspace) -> bool {
    let lead = keyshape::literal_lead(t);
    ks.whole_types().any(|w| {
        let whole = w.lead_literal();
        whole.starts_with(&lead) || lead.starts_with(whole)
    })
}

/// `` `a:<x>`, `b:<y>` and 2 more key shapes are outside ... ``.
fn message(shapes: &[String], contract: &str, prefix: &str) -> String {
    let named: Vec<String> = shapes
        .iter()
        .take(NAMED)
        .map(|s| format!("`{s}`"))
        .collect();
    let more = shapes.len().saturating_sub(NAMED);
    let (list, verb) = match (named.len(), more) {
        (1, 0) => (format!("the key {}", named[0]), "is"),
        (_, 0) => (format!("the keys {}", named.join(", ")), "are"),
        _ => (
            format!("the keys {} and {more} more", named.join(", ")),
            "are",
        ),
    };
    let space = match prefix {
        "" => String::new(),
        p => format!(" (its keys start with `{p}`)"),
    };
    format!(
        "{list} {verb} outside the keyspace of the `{contract}` contract{space}: read as this code's own, not held to the contract"
    )
}

#[cfg(test)]
mod tests {
    use super::message;

    #[test]
    fn a_note_names_three_shapes_and_counts_the_rest() {
        let one = message(&["app:s:<u>".into()], "bullmq", "bull");
        assert_eq!(
            one,
            "the key `app:s:<u>` is outside the keyspace of the `bullmq` contract (its keys start with `bull`): read as this code's own, not held to the contract"
        );
        let shapes: Vec<String> = ["a:<x>", "b:<x>", "c:<x>", "d:<x>", "e:<x>"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let five = message(&shapes, "asynq", "");
        assert_eq!(
            five,
            "the keys `a:<x>`, `b:<x>`, `c:<x>` and 2 more are outside the keyspace of the `asynq` contract: read as this code's own, not held to the contract"
        );
    }
}
