//! What linking keeps between the runs of a long-lived process (`wirelint
//! server`): per speaker, its script call sites as its wrappers bind them,
//! and what each passes (`super::calls`), the costliest part of a link.
//!
//! A speaker's entry is used again only when nothing it was made from has
//! changed: the facts of the speaker's files (with their ids, compared
//! whole), which of their commands reach Redis (`super::sends`), how many
//! files define each name the selection counted (`super::Definers`), and each
//! answer the binding got to whether a call site's script is known where it
//! stands (asked again of this run's scripts). What a call site passes is
//! kept with the script and the registered key count it was linked to, and
//! made again when either differs. Wrappers bind within a speaker (a call
//! means a function of its own speaker), and resolution stays inside it
//! too, so an entry that holds gives what a link without the memo gives:
//! an edit re-binds only the speaker it is in, and an edited script shared
//! by several speakers re-binds none of its callers (each of their call
//! sites is linked again only when the script it names, or that script's
//! registered key count, is another than last time).

use crate::hash::HashMap;
use std::sync::{Arc, Mutex};

use super::calls::{Proto, ScriptCallUse};
use super::{LinkInput, ScriptId, SpeakerId};
use crate::facts::{FileFacts, FileId, Span, Value};

/// The entries of the last link, by speaker.
#[derive(Default)]
pub struct LinkMemo {
    kept: Mutex<HashMap<SpeakerId, Kept>>,
}

impl std::fmt::Debug for LinkMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.kept.lock().map(|k| k.len()).unwrap_or(0);
        write!(f, "LinkMemo({n} speakers)")
    }
}

impl LinkMemo {
    /// The last link's entries (the memo is empty until `put`).
    pub(super) fn take(&self) -> HashMap<SpeakerId, Kept> {
        self.kept
            .lock()
            .map(|mut k| std::mem::take(&mut *k))
            .unwrap_or_default()
    }

    pub(super) fn put(&self, kept: HashMap<SpeakerId, Kept>) {
        if let Ok(mut k) = self.kept.lock() {
            *k = kept;
        }
    }
}

/// What a speaker's call sites are made from, besides the scripts.
#[derive(Default)]
pub(super) struct SpeakerFacts {
    facts: Vec<(FileId, Arc<FileFacts>)>,
    /// The commands of those files that do not reach Redis.
    dropped: Vec<(FileId, usize)>,
    /// How many files define each name the selection counted
    /// (`super::Definers`): they decide what a bare name picks.
    definers: Option<HashMap<String, u32>>,
}

impl SpeakerFacts {
    pub(super) fn of(input: &LinkInput<'_>, sent: &super::sends::Sent, sp: SpeakerId) -> Self {
        SpeakerFacts {
            facts: files(input, sp).cloned().collect(),
            dropped: dropped(input, sent, sp),
            definers: input.definers.0.get(&sp).cloned(),
        }
    }

    /// Whether this run's facts of the speaker are these (compared in
    /// place: nothing is copied unless they differ).
    fn same(&self, input: &LinkInput<'_>, sent: &super::sends::Sent, sp: SpeakerId) -> bool {
        let mut now = files(input, sp);
        let facts = self.facts.iter().all(|x| {
            now.next()
                .is_some_and(|y| x.0 == y.0 && (Arc::ptr_eq(&x.1, &y.1) || x.1 == y.1))
        }) && now.next().is_none();
        facts
            && self.dropped == dropped(input, sent, sp)
            && self.definers.as_ref() == input.definers.0.get(&sp)
    }
}

fn files<'a>(
    input: &'a LinkInput<'_>,
    sp: SpeakerId,
) -> impl Iterator<Item = &'a (FileId, Arc<FileFacts>)> + 'a {
    let speakers = &input.file_speaker;
    input
        .facts
        .iter()
        .filter(move |(f, _)| speakers.get(*f as usize).copied().flatten() == Some(sp))
}

fn dropped(
    input: &LinkInput<'_>,
    sent: &super::sends::Sent,
    sp: SpeakerId,
) -> Vec<(FileId, usize)> {
    files(input, sp)
        .flat_map(|(f, x)| {
            (0..x.commands.len())
                .filter(|i| !sent.keeps(*f, *i))
                .map(|i| (*f, i))
        })
        .collect()
}

/// A linked call site: its script, the key count registered with it, and
/// what it passes.
pub(super) type Linked = (ScriptId, Option<(u32, Span)>, ScriptCallUse);

/// One speaker's call sites and what they pass.
pub(super) struct Kept {
    facts: SpeakerFacts,
    /// Each script value the binding asked about (with its file), and
    /// whether it was known there.
    known: Vec<(Value, FileId, bool)>,
    /// The call sites, each with whether it is the body of a wrapper its
    /// callers bind.
    pub sites: Vec<(Proto, bool)>,
    /// Per call site, what it was linked to last.
    pub uses: Vec<Option<Linked>>,
}

impl Kept {
    pub(super) fn new(
        facts: SpeakerFacts,
        known: Vec<(Value, FileId, bool)>,
        sites: Vec<(Proto, bool)>,
    ) -> Kept {
        Kept {
            facts,
            known,
            uses: vec![None; sites.len()],
            sites,
        }
    }

    /// Whether the entry holds for this run: the same facts, and the same
    /// answers to what the binding asked (`still`: whether a script value
    /// is known in a file now).
    pub(super) fn holds(
        &self,
        input: &LinkInput<'_>,
        sent: &super::sends::Sent,
        sp: SpeakerId,
        still: &dyn Fn(&Value, FileId) -> bool,
    ) -> bool {
        self.facts.same(input, sent, sp) && self.known.iter().all(|(v, f, a)| still(v, *f) == *a)
    }
}
