//! Stable identities of findings, and the baseline file.
//!
//! A finding is keyed on its code, its path and the *normalized fact*: the
//! bytes of its primary span (the template, field or script it flags) and
//! its message, with whitespace collapsed. Line and column numbers are never
//! part of the key, so editing code above a finding leaves its key alone.
//! Identical keys in one file are told apart by their occurrence index in
//! output order.
//!
//! The same key feeds the SARIF `partialFingerprints`, the GitLab
//! `fingerprint`, and `--write-baseline` / `--baseline`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;

/// Collapses runs of whitespace to one space and trims.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The identity of a finding, without occurrence index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Key {
    pub code: String,
    pub path: String,
    /// The normalized bytes of the primary span.
    pub fact: String,
    /// The normalized message.
    pub message: String,
}

impl Key {
    pub fn of(sources: &SourceMap, d: &Diagnostic) -> Key {
        let file = sources.get(d.primary.span.file);
        Key {
            code: d.code.to_string(),
            path: file.rel.clone(),
            fact: normalize(&file.snippet(d.primary.span)),
            message: normalize(&d.message),
        }
    }
}

/// Keys of `diagnostics` (in the given order) with their occurrence index:
/// the n-th finding with the same key gets `n` (0-based).
pub fn keys_with_occurrence(sources: &SourceMap, diagnostics: &[&Diagnostic]) -> Vec<(Key, usize)> {
    let mut seen: BTreeMap<Key, usize> = BTreeMap::new();
    diagnostics
        .iter()
        .map(|d| {
            let k = Key::of(sources, d);
            let n = seen.entry(k.clone()).or_insert(0);
            let i = *n;
            *n += 1;
            (k, i)
        })
        .collect()
}

/// A stable fingerprint: hex SHA-1 of code, path, fact, message and the
/// occurrence index, each separated by a NUL byte.
pub fn fingerprint(key: &Key, occurrence: usize) -> String {
    let mut h = Sha1::new();
    for part in [
        key.code.as_str(),
        key.path.as_str(),
        key.fact.as_str(),
        key.message.as_str(),
    ] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    h.update(occurrence.to_string().as_bytes());
    h.finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// The baseline file: every accepted finding's key and how many times it
/// occurs.
#[derive(Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    #[serde(flatten)]
    pub key: Key,
    pub count: usize,
}

impl Baseline {
    /// The baseline that accepts exactly `diagnostics`.
    pub fn of(sources: &SourceMap, diagnostics: &[&Diagnostic]) -> Baseline {
        let mut counts: BTreeMap<Key, usize> = BTreeMap::new();
        for d in diagnostics {
            *counts.entry(Key::of(sources, d)).or_insert(0) += 1;
        }
        Baseline {
            version: 1,
            findings: counts
                .into_iter()
                .map(|(key, count)| Entry { key, count })
                .collect(),
        }
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a baseline file of at most `limit` bytes.
    pub fn read(path: &Path, limit: u64) -> Result<Baseline, String> {
        let text = crate::input::read_text(path, limit)
            .map_err(|e| format!("cannot read baseline {}: {e}", path.display()))?;
        let b: Baseline = serde_json::from_str(&text)
            .map_err(|e| format!("baseline {} is malformed: {e}", path.display()))?;
        if b.version != 1 {
            return Err(format!(
                "baseline {} has version {}; this wirelint reads version 1",
                path.display(),
                b.version
            ));
        }
        Ok(b)
    }

    /// Which of `diagnostics` are new: for each key, the occurrences past
    /// the baseline's count.
    pub fn new_findings(&self, sources: &SourceMap, diagnostics: &[&Diagnostic]) -> Vec<bool> {
        let mut allowed: BTreeMap<&Key, usize> =
            self.findings.iter().map(|e| (&e.key, e.count)).collect();
        diagnostics
            .iter()
            .map(|d| {
                let k = Key::of(sources, d);
                match allowed.get_mut(&k) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        false
                    }
                    _ => true,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_collapses_whitespace() {
        assert_eq!(normalize("  a \n\t b  "), "a b");
    }

    #[test]
    fn fingerprints_differ_by_occurrence_and_are_hex() {
        let k = Key {
            code: "WL201".into(),
            path: "a.ex".into(),
            fact: "'data'".into(),
            message: "m".into(),
        };
        let a = fingerprint(&k, 0);
        assert_eq!(a.len(), 40);
        assert_ne!(a, fingerprint(&k, 1));
        assert_eq!(a, fingerprint(&k, 0));
    }
}
