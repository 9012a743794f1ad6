//! The audit's findings: one rule per file, one registry ([`RULES`]), the
//! same [`Rule`] type as the code checks' so that `wirelint rules`,
//! `wirelint explain` and SARIF describe them alike. Each file opens with
//! its documentation and turns its groups of a [`Tally`] into
//! [`Diagnostic`]s.
//!
//! A finding about live data has no span in the code: its primary label is
//! the contract entry the data breaks; counts and a few example keys (never
//! values) are in the message and the help.

mod hash_tag_miss;
mod key_without_holder;
mod member_without_key;
mod missing_field;
mod prefix_miss;
mod unknown_field;
mod unknown_type;
mod wrong_redis_type;

use crate::checks::{CheckContext, Rule};
use crate::contract::Contract;
use crate::diagnostic::{Diagnostic, Label};
use crate::facts::{FileId, Span};

use super::group::{Group, Kind, Tally};
use super::keys::{display, Miss};

/// Every audit rule, in code order.
pub static RULES: &[&Rule] = &[
    &prefix_miss::RULE,
    &hash_tag_miss::RULE,
    &unknown_type::RULE,
    &wrong_redis_type::RULE,
    &unknown_field::RULE,
    &missing_field::RULE,
    &member_without_key::RULE,
    &key_without_holder::RULE,
];

/// An audit rule by code (any case).
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code))
}

/// Audit rules read the live keyspace (`crate::audit`), never the code.
fn reads_no_code(_: &CheckContext<'_>, _: &mut Vec<Diagnostic>) {}

/// What a rule gets to describe one group.
pub struct Cx<'a> {
    pub contract: &'a Contract,
    /// The contract's file in the source map.
    pub file: FileId,
}

impl Cx<'_> {
    /// A label on a range of the contract file.
    pub fn label(&self, range: &std::ops::Range<usize>, message: String) -> Label {
        Label::new(Span::new(self.file, range.start, range.end), message)
    }

    /// The label on the contract's key pattern.
    pub fn keyspace_label(&self) -> Label {
        let ks = self.contract.keyspace.as_ref();
        let range = ks.map(|k| k.pattern_span.clone()).unwrap_or(0..0);
        let pattern = ks.map(|k| k.pattern.as_str()).unwrap_or_default();
        self.label(
            &range,
            format!("the contract builds every key as `{pattern}`"),
        )
    }
}

/// Every group of the tally as a diagnostic, in order.
pub fn diagnostics(tally: &Tally, cx: &Cx<'_>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = tally
        .findings()
        .map(|(kind, template, g)| match kind {
            Kind::Miss(Miss::Prefix { found }) => prefix_miss::describe(found, template, g, cx),
            Kind::Miss(Miss::HashTag { why }) => hash_tag_miss::describe(why, template, g, cx),
            Kind::Miss(Miss::Type { found }) => unknown_type::describe(found, template, g, cx),
            Kind::RedisType {
                type_name,
                expected,
                found,
            } => wrong_redis_type::describe(type_name, expected, found, template, g, cx),
            Kind::UnknownField { record, field } => {
                unknown_field::describe(record, field, template, g, cx)
            }
            Kind::MissingField { record, field } => {
                missing_field::describe(record, field, template, g, cx)
            }
            Kind::MemberWithoutKey { holder, held } => {
                member_without_key::describe(holder, held, template, g, cx)
            }
            Kind::KeyWithoutHolder { held } => key_without_holder::describe(held, template, g, cx),
        })
        .collect();
    out.sort_by(|a, b| (a.code, a.sort_key()).cmp(&(b.code, b.sort_key())));
    out
}

/// "1 key", "3 keys".
pub fn count(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// "is" for one, "are" for more: `verb(n, "holds", "hold")`.
pub fn verb<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// "it" or "them".
pub fn them(n: u64) -> &'static str {
    verb(n, "it", "them")
}

/// "e.g. `a`, `b`, `c`".
pub fn examples(g: &Group) -> String {
    let keys: Vec<String> = g
        .examples
        .iter()
        .map(|k| format!("`{}`", display(k)))
        .collect();
    format!("e.g. {}", keys.join(", "))
}

/// "; with a TTL: 2" and "; read from a sample of fields (--sample): 1",
/// or "".
pub fn extras(g: &Group) -> String {
    let mut out = String::new();
    if g.expiring > 0 {
        out.push_str(&format!("; with a TTL: {}", g.expiring));
    }
    if g.sampled > 0 {
        out.push_str(&format!(
            "; read from a sample of fields (--sample): {}",
            g.sampled
        ));
    }
    out
}

/// "hash 2, zset 1": the Redis types of a group's keys.
pub fn redis_types(g: &Group) -> String {
    g.redis_types
        .iter()
        .map(|(t, n)| format!("{t} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
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
                assert!(doc.contains(heading), "{} lacks `{heading}`", r.code);
            }
            assert!(
                doc.starts_with(&format!("# {} {}", r.code, r.name)),
                "{doc}"
            );
        }
    }

    #[test]
    fn codes_are_unique_sorted_and_apart_from_the_code_checks() {
        let codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(codes, sorted);
        assert!(codes.iter().all(|c| crate::checks::rule(c).is_none()));
    }
}
