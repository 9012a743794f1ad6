//! Checks: one rule per file, one registry ([`RULES`]).
//!
//! A check reads the linked [`Model`] and the contract and returns
//! [`Diagnostic`]s with byte spans. It never prints. Each check file opens
//! with a `//!` doc (*What it does / Why it breaks the wire / Example / How
//! to fix*); that text is what `wirelint explain CODE` prints, read from the
//! file itself by [`Rule::doc`].

/// The key reader the key and field rules share (moved down to the model).
pub use crate::keyshape;

mod argv_arity;
mod argv_value;
mod cross_slot;
mod field_never_read;
mod field_never_written;
mod id_gate_missing;
mod id_shape;
mod key_data_type;
mod key_hash_tag;
mod key_orphan;
mod key_prefix;
mod key_type;
mod keys_arity;
mod keys_declaration_conflict;
mod keys_missing;
mod keys_order;
mod keys_role_conflict;
mod keys_undeclared;
mod missing_field;
pub mod parse_error;
mod script_drift;
mod typing;
mod unknown_field;
mod unused_suppression;

/// WL002, reported by the suppression step after every other rule ran.
pub use unused_suppression::RULE as UNUSED_SUPPRESSION;

use crate::contract::{Contract, Record};
use crate::diagnostic::{Diagnostic, Impact, Layer, Severity};
use crate::facts::{FileId, Span};
use crate::link::{Arg, CommandUse, Model, SpeakerId};
use crate::source::SourceMap;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// What a check gets.
#[derive(Clone)]
pub struct CheckContext<'a> {
    pub model: &'a Model,
    pub contract: Option<&'a Contract>,
    /// The contract's file in the source map, for labels that point into it.
    pub contract_file: Option<FileId>,
    pub sources: &'a SourceMap,
    /// [`CheckContext::active_speakers`], computed once: every finding asks
    /// for it (who breaks), and it reads every key against the keyspace, so
    /// computing it per finding made one bad key shared by 4,000 files
    /// quadratic (30 s).
    active: std::sync::OnceLock<Vec<SpeakerId>>,
    /// [`CheckContext::key_types`], computed once: it reads every key of
    /// the model, and two rules ask (one per finding).
    key_types: std::sync::OnceLock<crate::link::roles::KeyTypes>,
    /// The active speakers' names with their ids, sorted by name, computed
    /// once: every finding names the others.
    named: std::sync::OnceLock<Vec<(String, SpeakerId)>>,
    /// The same, each name quoted (`` `a` ``), sorted as quoted.
    quoted: std::sync::OnceLock<Vec<(String, SpeakerId)>>,
    /// Who takes part in each script, by its name ([`crate::link::runs::takers`]).
    takers: std::sync::OnceLock<BTreeMap<String, BTreeSet<SpeakerId>>>,
}

/// The other speakers a finding's help names (past them, a count).
const NAMED_IN_TEXT: usize = 10;
/// The other speakers a finding's `impact` lists: a tree of thousands of
/// speakers made every finding list every other (3,000 crates: 1 GB).
const NAMED_IN_IMPACT: usize = 100;

impl<'a> CheckContext<'a> {
    pub fn new(
        model: &'a Model,
        contract: Option<&'a Contract>,
        contract_file: Option<FileId>,
        sources: &'a SourceMap,
    ) -> CheckContext<'a> {
        CheckContext {
            model,
            contract,
            contract_file,
            sources,
            active: std::sync::OnceLock::new(),
            key_types: std::sync::OnceLock::new(),
            named: std::sync::OnceLock::new(),
            quoted: std::sync::OnceLock::new(),
            takers: std::sync::OnceLock::new(),
        }
    }

    /// The key types the code builds and the contract declares.
    pub fn key_types(&self) -> &crate::link::roles::KeyTypes {
        self.key_types
            .get_or_init(|| crate::link::roles::KeyTypes::of(self.model, self.contract))
    }
}

/// A registered rule.
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub layer: Layer,
    pub severity: Severity,
    /// One line: what it flags.
    pub summary: &'static str,
    /// The check's own source file; its leading `//!` lines are the docs.
    pub source: &'static str,
    pub run: fn(&CheckContext<'_>, &mut Vec<Diagnostic>),
}

impl Rule {
    /// The check's documentation (its file's `//!` comment), as Markdown.
    pub fn doc(&self) -> String {
        let mut out = String::new();
        for line in self.source.lines() {
            let Some(rest) = line.strip_prefix("//!") else {
                break;
            };
            out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            out.push('\n');
        }
        out
    }

    /// Runs this rule alone, as [`run_all`] runs it among the others:
    /// sorted, without duplicates. The per-rule tests (`tests/rules/`) use it.
    pub fn check(&self, cx: &CheckContext<'_>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        (self.run)(cx, &mut out);
        sort_and_dedup(&mut out);
        out
    }

    /// A diagnostic of this rule, with no related labels yet.
    pub fn diagnostic(&self, message: String, primary: crate::diagnostic::Label) -> Diagnostic {
        Diagnostic {
            code: self.code,
            name: self.name,
            severity: self.severity,
            layer: self.layer,
            message,
            primary,
            related: Vec::new(),
            help: None,
            speaker: None,
            impact: None,
            fix: None,
        }
    }
}

/// Every rule, in code order.
pub static RULES: &[&Rule] = &[
    &parse_error::RULE,
    &unused_suppression::RULE,
    &key_prefix::RULE,
    &key_hash_tag::RULE,
    &key_type::RULE,
    &key_orphan::RULE,
    &key_data_type::RULE,
    &unknown_field::RULE,
    &missing_field::RULE,
    &field_never_written::RULE,
    &field_never_read::RULE,
    &keys_undeclared::RULE,
    &keys_missing::RULE,
    &keys_arity::RULE,
    &keys_order::RULE,
    &script_drift::RULE,
    &cross_slot::RULE,
    &keys_declaration_conflict::RULE,
    &argv_arity::RULE,
    &argv_value::RULE,
    &id_gate_missing::RULE,
    &id_shape::RULE,
    &keys_role_conflict::RULE,
];

pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code))
}

/// Runs every rule; sorted, without duplicates (one divergence seen through
/// several call sites is reported once, at its bytes).
pub fn run_all(cx: &CheckContext<'_>) -> Vec<Diagnostic> {
    // Rules in parallel (on the run's thread pool); their findings joined
    // in rule order, as one thread would make them.
    let per_rule: Vec<Vec<Diagnostic>> = RULES
        .par_iter()
        .map(|r| {
            let mut out = Vec::new();
            (r.run)(cx, &mut out);
            out
        })
        .collect();
    let mut out: Vec<Diagnostic> = per_rule.into_iter().flatten().collect();
    sort_and_dedup(&mut out);
    out
}

/// Where to label a value a call passes: the value itself, where its bytes
/// are written (in the call, a local variable, a constant, a function that
/// returns it, a wrapper's caller), and the call too when the value lies
/// outside it.
fn at_call(call: Span, value: Span) -> (Span, Option<Span>) {
    let inside = value.file == call.file && value.start >= call.start && value.end <= call.end;
    if inside {
        (value, None)
    } else {
        (value, Some(call))
    }
}

/// "`a`, `b`, `c`": names as a finding lists them.
/// Names in backticks, joined: at most [`MAX_LISTED`], then how many more.
fn quoted<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    let mut shown = Vec::new();
    let mut more = 0usize;
    for n in names {
        if shown.len() < MAX_LISTED {
            shown.push(format!("`{}`", n.as_ref()));
        } else {
            more += 1;
        }
    }
    let mut list = shown.join(", ");
    if more > 0 {
        list.push_str(&format!(" and {more} more"));
    }
    list
}

/// How many names a message lists: a list of thousands (hostile input)
/// made each message as long as the list, and their total quadratic.
const MAX_LISTED: usize = 16;

/// Output order, and one finding per rule and span.
fn sort_and_dedup(out: &mut Vec<Diagnostic>) {
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out.dedup_by(|a, b| a.code == b.code && a.primary.span == b.primary.span);
}

impl<'a> CheckContext<'a> {
    pub fn speaker_name(&self, id: SpeakerId) -> String {
        self.model.speaker_name(id).to_string()
    }

    /// Speakers that take part in the protocol, sorted by id: those holding
    /// a key of the contract's keyspace (one its key checks read) or one of
    /// its scripts. A project that only holds unrelated strings or commands
    /// takes no part (and the prefilter, which runs before any check,
    /// relies on it).
    pub fn active_speakers(&self) -> Vec<SpeakerId> {
        self.active
            .get_or_init(|| self.find_active_speakers())
            .clone()
    }

    fn find_active_speakers(&self) -> Vec<SpeakerId> {
        let ks = self.contract.and_then(|c| c.keyspace.as_ref());
        if ks.is_none() {
            // No keyspace to read keys against: the speakers that hold a
            // Redis script, run a script, or use a record's fields (a `.lua`
            // file that is no Redis script, an editor's or a game's, takes
            // no part).
            let m = self.model;
            let mut ids: Vec<SpeakerId> = m
                .scripts
                .iter()
                .filter(|s| s.is_redis())
                .map(|s| s.speaker)
                .chain(m.script_calls.iter().map(|u| u.speaker))
                .chain(
                    m.records
                        .iter()
                        .flat_map(|r| r.fields.values().flatten().map(|u| u.speaker)),
                )
                .collect();
            ids.sort_unstable();
            ids.dedup();
            return ids;
        }
        let mut ids: Vec<SpeakerId> = self
            .model
            .keys
            .iter()
            .filter(|k| {
                ks.is_some_and(|ks| {
                    keyshape::analyze(&k.template, ks) != keyshape::KeyVerdict::Skip
                })
            })
            .map(|k| k.speaker)
            .chain(
                self.model
                    .scripts
                    .iter()
                    .filter(|s| s.contract.is_some())
                    .map(|s| s.speaker),
            )
            // A speaker whose keys reach the wire through the scripts it
            // runs (built from a prefix the keyspace leaves to the caller)
            // takes part by running a script the tree holds.
            .chain(
                self.model
                    .script_calls
                    .iter()
                    .filter(|u| {
                        let s = &self.model.scripts[u.script];
                        s.body && s.is_redis()
                    })
                    .map(|u| u.speaker),
            )
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Who breaks when `speaker` diverges. A speaker that changes alone
    /// breaks itself: it cannot find or read the others' data, nor they its.
    /// When the canonical speaker changes, everyone who did not follow it
    /// breaks.
    pub fn impact_of(&self, speaker: SpeakerId) -> Impact {
        let others: Vec<String> = self
            .named()
            .iter()
            .filter(|(_, s)| *s != speaker)
            .take(NAMED_IN_IMPACT)
            .map(|(n, _)| n.clone())
            .collect();
        if self.model.speakers[speaker].canonical {
            Impact {
                breaks: others,
                unaffected: vec![self.speaker_name(speaker)],
            }
        } else {
            Impact {
                breaks: vec![self.speaker_name(speaker)],
                unaffected: others,
            }
        }
    }

    /// The active speakers' names, sorted, with their ids.
    fn named(&self) -> &[(String, SpeakerId)] {
        self.named.get_or_init(|| {
            let mut named: Vec<(String, SpeakerId)> = self
                .active_speakers()
                .into_iter()
                .map(|s| (self.speaker_name(s), s))
                .collect();
            named.sort();
            named
        })
    }

    /// How many other speakers take part in the protocol.
    pub fn other_count(&self, speaker: SpeakerId) -> usize {
        self.named().iter().filter(|(_, s)| *s != speaker).count()
    }

    /// The other speakers that take part in the protocol, quoted, sorted,
    /// at most [`NAMED_IN_TEXT`] of them ([`CheckContext::other_count`]
    /// counts them all).
    pub fn others(&self, speaker: SpeakerId) -> Vec<String> {
        let quoted = self.quoted.get_or_init(|| {
            let mut q: Vec<(String, SpeakerId)> = self
                .named()
                .iter()
                .map(|(n, s)| (format!("`{n}`"), *s))
                .collect();
            q.sort();
            q
        });
        quoted
            .iter()
            .filter(|(_, s)| *s != speaker)
            .take(NAMED_IN_TEXT)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// "the other 2 speakers (`a`, `b`)", "the other speaker (`a`)", or,
    /// alone, "every other speaker of the protocol".
    pub fn others_phrase(&self, speaker: SpeakerId) -> String {
        let others = self.others(speaker);
        match self.other_count(speaker) {
            0 => "every other speaker of the protocol".into(),
            1 => format!("the other speaker ({})", others[0]),
            n => format!(
                "the other {n} speakers ({}{})",
                others.join(", "),
                more(n, others.len())
            ),
        }
    }

    /// Completes a finding about one speaker's divergence: its help line,
    /// closed by who still agrees on `subject` and who does not, its
    /// speaker, and who breaks. With [`CheckContext::blame_without_count`] and
    /// [`CheckContext::finish_input`], the only way a finding gets them.
    pub fn blame(&self, d: &mut Diagnostic, speaker: SpeakerId, help: String, subject: &str) {
        self.complete(d, speaker, help, Some(subject));
    }

    /// As [`CheckContext::blame`], for a help line that names who breaks
    /// itself: no count of the speakers that still can.
    pub fn blame_without_count(&self, d: &mut Diagnostic, speaker: SpeakerId, help: String) {
        self.complete(d, speaker, help, None);
    }

    /// As [`CheckContext::blame`], for a finding about script `script`
    /// (its name, as [`CheckContext::script_name`] gives it): the speakers
    /// that still agree are the active ones that take part in it, holding
    /// a copy or running it in a call the checks saw. A call that was not checked
    /// (not linked, keys that cannot be counted) agrees with nothing.
    pub fn blame_script(
        &self,
        d: &mut Diagnostic,
        speaker: SpeakerId,
        help: String,
        subject: &str,
        script: &str,
    ) {
        let takers = self.takers.get_or_init(|| {
            let runs = crate::link::runs::runs(self.model, self.contract);
            // Copies of one script go by one normalized name (`@obliterate`
            // in Elixir, `OBLITERATE` in Rust).
            crate::link::runs::takers(self.model, &runs, |id| {
                crate::link::normalize_name(&self.script_name(id))
            })
        });
        let empty = BTreeSet::new();
        let among = takers
            .get(&crate::link::normalize_name(script))
            .unwrap_or(&empty);
        let active = self.active_speakers();
        let others = among
            .iter()
            .filter(|s| **s != speaker && active.contains(s))
            .count();
        if others == 0 && self.other_count(speaker) > 0 {
            let help = format!("{help}. No other speaker here holds `{script}` or runs it in a call wirelint checked, so none is counted as agreeing on {subject}");
            return self.complete_among(d, speaker, help, None);
        }
        self.complete_among(d, speaker, help, Some((subject, others)));
    }

    fn complete(
        &self,
        d: &mut Diagnostic,
        speaker: SpeakerId,
        help: String,
        subject: Option<&str>,
    ) {
        let counted = subject.map(|s| (s, self.other_count(speaker)));
        self.complete_among(d, speaker, help, counted);
    }

    /// Completes a finding, its help closed by who still agrees on the
    /// subject, of the `others` that take part in it.
    fn complete_among(
        &self,
        d: &mut Diagnostic,
        speaker: SpeakerId,
        help: String,
        subject: Option<(&str, usize)>,
    ) {
        let impact = self.impact_of(speaker);
        d.help = Some(match subject {
            Some((subject, others)) => {
                format!(
                    "{help}. {}",
                    self.impact_sentence(speaker, &impact, subject, others)
                )
            }
            None => help,
        });
        d.speaker = Some(self.speaker_name(speaker));
        d.impact = Some(impact);
    }

    /// Completes a finding about the input itself (WL001, WL002): its help
    /// line and the speaker whose file holds it. It breaks no one: no impact.
    pub fn finish_input(&self, d: &mut Diagnostic, help: String) {
        d.help = Some(help);
        d.speaker = self
            .model
            .file_speaker
            .get(d.primary.span.file as usize)
            .copied()
            .flatten()
            .map(|s| self.speaker_name(s));
    }

    /// The secondary label on the contract's key pattern.
    pub fn keyspace_label(
        &self,
        ks: &crate::contract::Keyspace,
    ) -> Option<crate::diagnostic::Label> {
        self.contract_span(&ks.pattern_span).map(|s| {
            crate::diagnostic::Label::new(
                s,
                format!("the contract builds every key as `{}`", ks.pattern),
            )
        })
    }

    /// Who still agrees on `subject` after `speaker` diverged, in words
    /// that agree with the help before them: "2 of 3 speakers still agree
    /// on the job's fields; `peers/rust` alone diverges", or, when the
    /// canonical speaker changed, who did not follow it.
    fn impact_sentence(
        &self,
        speaker: SpeakerId,
        impact: &Impact,
        subject: &str,
        others: usize,
    ) -> String {
        let total = others + 1;
        let quoted = |names: &[String]| {
            let shown: Vec<String> = names
                .iter()
                .take(NAMED_IN_TEXT)
                .map(|s| format!("`{s}`"))
                .collect();
            format!(
                "{}{}",
                shown.join(", "),
                more(names.len().max(others), shown.len())
            )
        };
        let me = format!("`{}`", self.speaker_name(speaker));
        if total <= 1 {
            // One speaker: no one else here to break, and no count to give.
            return format!("{me} is the only speaker here; every speaker that follows the protocol will disagree with it on {subject}");
        }
        if impact.breaks.len() == 1 && impact.breaks[0] == self.speaker_name(speaker) {
            let agree = match others {
                1 => "agrees",
                _ => "agree",
            };
            return format!(
                "{others} of {total} speakers still {agree} on {subject}; {me} alone diverges"
            );
        }
        let verb = match others {
            1 => "disagrees",
            _ => "disagree",
        };
        format!(
            "{} did not follow the canonical {me} and now {verb} with it on {subject}",
            quoted(&impact.breaks)
        )
    }

    /// The contract record a hash command addresses: through the role of
    /// `KEYS[n]` in a contract script, through its key's template, or, when
    /// the key leaves its type open, through the fields it names
    /// (`checks/typing.rs`).
    pub fn record_of_command(&self, cmd: &CommandUse) -> Option<&'a Record> {
        let contract = self.contract?;
        crate::redis::hash_access(&cmd.name)?;
        let key = cmd.args.first()?;
        if let (Some(n), Some(script)) = (key.keys_index(), cmd.script) {
            let spec = &contract.scripts[self.model.scripts[script].contract?];
            let (role, _) = spec.keys.get((n as usize).checked_sub(1)?)?;
            return contract.records.iter().find(|r| &r.type_name == role);
        }
        self.record_of_key(&key.alts).or_else(|| {
            let fields = self
                .field_args(cmd)
                .iter()
                .filter_map(|a| a.literal())
                .map(|(f, _)| f)
                .collect::<Vec<_>>();
            typing::by_fields(
                contract,
                &key.alts,
                &fields.iter().map(String::as_str).collect(),
            )
        })
    }

    /// The contract record every template of a key addresses, if they agree.
    pub fn record_of_key(&self, alts: &[crate::facts::Template]) -> Option<&'a Record> {
        let contract = self.contract?;
        let ks = contract.keyspace.as_ref()?;
        let mut found: Option<&Record> = None;
        for t in alts {
            let r = keyshape::record_of(t, ks, &contract.records)?;
            if found.is_some_and(|f| f.name != r.name) {
                return None;
            }
            found = Some(r);
        }
        found
    }

    /// The arguments of a hash command that are field names.
    pub fn field_args<'c>(&self, cmd: &'c CommandUse) -> Vec<&'c Arg> {
        use crate::redis::HashAccess;
        let rest = cmd.args.get(1..).unwrap_or(&[]);
        match crate::redis::hash_access(&cmd.name) {
            Some(HashAccess::WritePairs) => rest.iter().step_by(2).collect(),
            Some(HashAccess::WriteOne) => rest.iter().take(1).collect(),
            Some(HashAccess::Read | HashAccess::Delete) => rest.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The name to show for a script: its contract entry, else its first
    /// name, else `<unnamed>`.
    pub fn script_name(&self, id: crate::link::ScriptId) -> String {
        let s = &self.model.scripts[id];
        if let (Some(c), Some(i)) = (self.contract, s.contract) {
            return c.scripts[i].name.clone();
        }
        s.names
            .first()
            .map(|n| n.trim_start_matches('@').to_string())
            .unwrap_or_else(|| "<unnamed>".into())
    }

    /// Where a declared key count is written.
    pub fn declaration_span(
        &self,
        script: &crate::link::Script,
        d: &crate::link::scripts::DeclaredCount,
    ) -> Option<crate::facts::Span> {
        match d.source {
            crate::link::scripts::CountSource::Contract => {
                let c = self.contract?;
                self.contract_span(&c.scripts[script.contract?].keys_span)
            }
            _ => d.span,
        }
    }

    /// Fields that scripts write to a `KEYS[n]` no linked call fills: their
    /// record is unknown, so any record may have them.
    pub fn fields_written_by_unlinked_scripts(&self) -> std::collections::BTreeSet<String> {
        let m = self.model;
        let mut out = std::collections::BTreeSet::new();
        for c in m.commands.iter().filter(|c| c.script.is_some()) {
            // A key the link step could give no caller's template.
            if c.args.first().is_none_or(|a| !a.alts.is_empty()) {
                continue;
            }
            for a in self.field_args(c) {
                if let Some((f, _)) = a.literal() {
                    out.insert(f);
                }
            }
        }
        out
    }

    /// The contract's record at this key, if it has one.
    pub fn contract_record_at(&self, key: &crate::facts::Template) -> Option<&'a Record> {
        let c = self.contract?;
        keyshape::record_of(key, c.keyspace.as_ref()?, &c.records)
    }

    /// A span in the contract file.
    pub fn contract_span(&self, range: &std::ops::Range<usize>) -> Option<crate::facts::Span> {
        self.contract_file
            .map(|f| crate::facts::Span::new(f, range.start, range.end))
    }

    /// `text` in place of `found`, when the source bytes of `span` hold
    /// `found` exactly once (spelt as is: no escape or interpolation stands
    /// between the fact and the bytes) and `text` reads the same in every
    /// host string (`extract::encode::plain`), so the edit is certain.
    pub fn replacement(
        &self,
        span: crate::facts::Span,
        found: &str,
        text: &str,
    ) -> Option<crate::diagnostic::Edit> {
        if found.is_empty() || !crate::extract::encode::plain(text) {
            return None;
        }
        let bytes = self
            .sources
            .get(span.file)
            .bytes()
            .get(span.start as usize..span.end as usize)?;
        let mut at = memchr::memmem::find_iter(bytes, found.as_bytes());
        let (Some(i), None) = (at.next(), at.next()) else {
            return None;
        };
        let start = span.start + i as u32;
        Some(crate::diagnostic::Edit {
            span: crate::facts::Span::new(span.file, start as usize, start as usize + found.len()),
            text: text.to_string(),
        })
    }
}

/// ", … and 2,989 more" after `shown` names of `all`, or nothing.
fn more(all: usize, shown: usize) -> String {
    match all.saturating_sub(shown) {
        0 => String::new(),
        n => format!(", … and {n} more"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_names_is_cut() {
        assert_eq!(quoted(["a", "b"]), "`a`, `b`");
        let many: Vec<String> = (0..20).map(|i| format!("f{i}")).collect();
        let list = quoted(&many);
        assert!(list.starts_with("`f0`, `f1`, "), "{list}");
        assert!(list.ends_with("`f15` and 4 more"), "{list}");
    }

    #[test]
    fn every_rule_documents_itself() {
        for r in RULES {
            let doc = r.doc();
            for heading in [
                "What it does",
                "Why it breaks the wire",
                "Example",
                "How to fix",
            ] {
                assert!(
                    doc.contains(heading),
                    "{} lacks `{heading}`:\n{doc}",
                    r.code
                );
            }
        }
    }

    #[test]
    fn codes_are_unique_and_sorted() {
        let codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(codes, sorted);
    }
}
