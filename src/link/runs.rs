//! Script runs: every place a speaker runs a script, once, with whether
//! the KEYS checks saw it. The one answer that coverage (`--coverage`),
//! the matrix's script rows and the checks' "N of M speakers still agree"
//! read, so that no view counts a call another calls unchecked.

use std::collections::{BTreeMap, BTreeSet};

use super::calls::{NumKeys, ScriptCallUse};
use super::{Model, ScriptId, SpeakerId};
use crate::contract::Contract;
use crate::facts::Span;

/// One invocation: a speaker runs a script at `site` (the innermost place
/// the script is known; a wrapper's callers share their wrapper's site).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub speaker: SpeakerId,
    pub site: Span,
    /// The scripts it may run (a wrapper's call may run several); empty
    /// when it is not linked to a script.
    pub scripts: BTreeSet<ScriptId>,
    /// Those whose KEYS were checked here.
    pub checked: BTreeSet<ScriptId>,
    /// `None` when the KEYS checks saw it; else whether it was linked, and
    /// why it is not checked, in words.
    pub unchecked: Option<(bool, String)>,
    /// Not linked because it is the body of a public wrapper no call in
    /// the tree binds: the script is its callers'.
    pub wrapper: bool,
}

/// Why a linked call is not checked, if it is not.
pub fn why_unchecked(m: &Model, contract: Option<&Contract>, u: &ScriptCallUse) -> Option<String> {
    let script = &m.scripts[u.script];
    let name = script.display_name(contract);
    let declared = script.declared_count(contract).is_some();
    if !declared && !script.body {
        return Some(format!(
            "script `{name}` is not in the tree and declares no key count"
        ));
    }
    if !declared && script.lua.dynamic_keys {
        return Some(format!(
            "script `{name}` reads KEYS by a computed index and declares no key count"
        ));
    }
    let countable = match u.numkeys {
        NumKeys::Literal(..) | NumKeys::Counted(..) => true,
        NumKeys::FromKeys | NumKeys::Unknown => u.keys_complete,
    };
    (!countable).then(|| "the keys passed cannot be counted".to_string())
}

/// Every run of the model, by speaker and site: checked when any script
/// it may run is checked there.
pub fn runs(m: &Model, contract: Option<&Contract>) -> Vec<Run> {
    let mut sites: BTreeMap<(SpeakerId, Span), Run> = BTreeMap::new();
    for u in &m.script_calls {
        // A wrapper's own body is no invocation unless it knows its script.
        let Some(site) = u.site.or((!u.in_wrapper).then_some(u.span)) else {
            continue;
        };
        let verdict = why_unchecked(m, contract, u).map(|r| (true, r));
        let run = sites.entry((u.speaker, site)).or_insert_with(|| Run {
            speaker: u.speaker,
            site,
            scripts: BTreeSet::new(),
            checked: BTreeSet::new(),
            unchecked: verdict.clone(),
            wrapper: false,
        });
        run.scripts.insert(u.script);
        if verdict.is_none() {
            run.checked.insert(u.script);
            run.unchecked = None;
        }
    }
    for u in &m.unlinked_calls {
        sites.entry((u.speaker, u.site)).or_insert_with(|| Run {
            speaker: u.speaker,
            site: u.site,
            scripts: BTreeSet::new(),
            checked: BTreeSet::new(),
            unchecked: Some((false, u.reason.clone())),
            wrapper: u.wrapper,
        });
    }
    sites.into_values().collect()
}

/// The scripts some run reaches, checked or not.
pub fn run_scripts(runs: &[Run]) -> BTreeSet<ScriptId> {
    runs.iter()
        .flat_map(|r| r.scripts.iter().copied())
        .collect()
}

/// Each script, by the name `name` gives it (copies of one script share
/// it), with the speakers that take part in it: those that hold a copy of
/// its body (or of a file it includes), and those with a checked run of it. A call that was not
/// checked is no evidence of agreement.
pub fn takers(
    m: &Model,
    runs: &[Run],
    name: impl Fn(ScriptId) -> String,
) -> BTreeMap<String, BTreeSet<SpeakerId>> {
    let mut out: BTreeMap<String, BTreeSet<SpeakerId>> = BTreeMap::new();
    for (id, s) in m.scripts.iter().enumerate() {
        if s.body {
            out.entry(name(id)).or_default().insert(s.speaker);
        }
    }
    for r in runs {
        for &id in &r.checked {
            out.entry(name(id)).or_default().insert(r.speaker);
        }
    }
    out
}
