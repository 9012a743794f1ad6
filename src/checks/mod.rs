//! Checks: one rule per file, one registry ([`RULES`]).
//!
//! A check reads the linked [`Model`] and the contract and returns
//! [`Diagnostic`]s with byte spans. It never prints. Each check file opens
//! with a `//!` doc (*What it does / Why it breaks the wire / Example / How
//! to fix*); that text is what `wirelint explain CODE` prints, read from the
//! file itself by [`Rule::doc`].

pub mod keyshape;

mod key_hash_tag;
mod key_prefix;
mod key_type;
mod keys_missing;
mod keys_undeclared;
mod missing_field;
mod parse_error;
mod unknown_field;

use crate::contract::{Contract, Record};
use crate::diagnostic::{Diagnostic, Impact, Layer, Severity};
use crate::facts::FileId;
use crate::link::{Arg, CommandUse, Model, SpeakerId};
use crate::source::SourceMap;

/// What a check gets.
#[derive(Clone, Copy)]
pub struct CheckContext<'a> {
    pub model: &'a Model,
    pub contract: Option<&'a Contract>,
    /// The contract's file in the source map, for labels that point into it.
    pub contract_file: Option<FileId>,
    pub sources: &'a SourceMap,
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
    source: &'static str,
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
        }
    }
}

/// Every rule, in code order.
pub static RULES: &[&Rule] = &[
    &parse_error::RULE,
    &key_prefix::RULE,
    &key_hash_tag::RULE,
    &key_type::RULE,
    &unknown_field::RULE,
    &missing_field::RULE,
    &keys_undeclared::RULE,
    &keys_missing::RULE,
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
    let mut out = Vec::new();
    for r in RULES {
        (r.run)(cx, &mut out);
    }
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out.dedup_by(|a, b| a.code == b.code && a.primary.span == b.primary.span);
    out
}

impl<'a> CheckContext<'a> {
    pub fn speaker_name(&self, id: SpeakerId) -> String {
        self.model.speaker_name(id).to_string()
    }

    /// Speakers that take part in the protocol, sorted by id: those holding
    /// a key of the contract's keyspace (one its key checks read) or one of
    /// its scripts. A project that only holds unrelated strings or commands
    /// takes no part (and the prefilter relies on it: `crate::prefilter`).
    pub fn active_speakers(&self) -> Vec<SpeakerId> {
        let ks = self.contract.and_then(|c| c.keyspace.as_ref());
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
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The changer breaks: `speaker` diverges, every other active speaker
    /// agrees with the contract.
    pub fn impact_of(&self, speaker: SpeakerId) -> Impact {
        let mut unaffected: Vec<String> = self
            .active_speakers()
            .into_iter()
            .filter(|s| *s != speaker)
            .map(|s| self.speaker_name(s))
            .collect();
        unaffected.sort();
        Impact {
            breaks: vec![self.speaker_name(speaker)],
            unaffected,
        }
    }

    /// "the other 2 speakers (a, b)" or "no other speaker".
    pub fn others_phrase(&self, impact: &Impact) -> String {
        match impact.unaffected.len() {
            0 => "no other speaker".into(),
            1 => format!("the other speaker (`{}`)", impact.unaffected[0]),
            n => format!(
                "the other {n} speakers ({})",
                impact
                    .unaffected
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// The contract record a hash command addresses: through the role of
    /// `KEYS[n]` in a contract script, or through its key's template.
    pub fn record_of_command(&self, cmd: &CommandUse) -> Option<&'a Record> {
        let contract = self.contract?;
        crate::redis::hash_access(&cmd.name)?;
        let key = cmd.args.first()?;
        if let (Some(n), Some(script)) = (key.keys_index(), cmd.script) {
            let spec = &contract.scripts[self.model.scripts[script].contract?];
            let (role, _) = spec.keys.get((n as usize).checked_sub(1)?)?;
            return contract.records.iter().find(|r| &r.type_name == role);
        }
        let ks = contract.keyspace.as_ref()?;
        let mut found: Option<&Record> = None;
        for t in &key.alts {
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

    /// A span in the contract file.
    pub fn contract_span(&self, range: &std::ops::Range<usize>) -> Option<crate::facts::Span> {
        self.contract_file
            .map(|f| crate::facts::Span::new(f, range.start, range.end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
