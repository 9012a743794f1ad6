//! Script identity and declarations: what the code says about each script's
//! KEYS (contract, registration count, file name, header comments, aliases,
//! the body), its SHA1, and the roles of its key slots.

use std::path::Path;

use sha1::{Digest, Sha1};

use super::roles::{RoleSource, SlotRole};
use super::Script;
use crate::contract::Contract;
use crate::facts::Span;

/// The SHA1 of the bytes a runtime sends: the hash EVALSHA names.
pub fn sha1_hex(text: &str) -> String {
    let digest = Sha1::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// `moveToActive-11.lua` → 11.
pub fn file_name_count(path: &Path, span: Span) -> Option<(u32, Span)> {
    let stem = path.file_stem()?.to_str()?;
    let (base, n) = stem.rsplit_once('-')?;
    if base.is_empty() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((n.parse().ok()?, span))
}

/// Where a declared key count comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CountSource {
    Contract,
    Registration,
    FileName,
    Header,
    Guard,
}

impl CountSource {
    pub fn describe(self) -> &'static str {
        match self {
            CountSource::Contract => "the contract",
            CountSource::Registration => "its registration",
            CountSource::FileName => "its file name",
            CountSource::Header => "its header comment",
            CountSource::Guard => "its `#KEYS` check",
        }
    }
}

/// A count and where it is written (`None` for the contract, whose span
/// lives in the contract file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclaredCount {
    pub count: u32,
    pub source: CountSource,
    pub span: Option<Span>,
}

impl Script {
    /// The name to show: its contract entry's, else its first name (without
    /// `@`), else `<unnamed>`.
    pub fn display_name(&self, contract: Option<&Contract>) -> String {
        if let (Some(c), Some(i)) = (contract, self.contract) {
            return c.scripts[i].name.clone();
        }
        self.names
            .first()
            .map(|n| n.trim_start_matches('@').to_string())
            .unwrap_or_else(|| "<unnamed>".into())
    }

    /// Every key count the code and the contract declare, strongest first.
    pub fn declared_counts(&self, contract: Option<&Contract>) -> Vec<DeclaredCount> {
        let mut out = Vec::new();
        if let (Some(c), Some(i)) = (contract, self.contract) {
            out.push(DeclaredCount {
                count: c.scripts[i].keys.len() as u32,
                source: CountSource::Contract,
                span: None,
            });
        }
        if let Some((n, span)) = self.registration {
            out.push(DeclaredCount {
                count: n,
                source: CountSource::Registration,
                span: Some(span),
            });
        }
        if let Some((n, span)) = self.file_count {
            out.push(DeclaredCount {
                count: n,
                source: CountSource::FileName,
                span: Some(span),
            });
        }
        if let Some(last) = self.lua.header_keys.iter().max_by_key(|d| d.index) {
            out.push(DeclaredCount {
                count: last.index,
                source: CountSource::Header,
                span: Some(last.span),
            });
        }
        if let Some((n, span)) = self.lua.keys_guard {
            out.push(DeclaredCount {
                count: n,
                source: CountSource::Guard,
                span: Some(span),
            });
        }
        out
    }

    /// The key count callers must pass: the strongest declaration.
    pub fn declared_count(&self, contract: Option<&Contract>) -> Option<DeclaredCount> {
        self.declared_counts(contract).into_iter().next()
    }

    /// The role the script gives `KEYS[n]`: its header comment, then a
    /// `local x = KEYS[n]` alias, then the contract.
    pub fn slot_role(&self, n: u32, contract: Option<&Contract>) -> Option<SlotRole> {
        if let Some(d) = self.lua.header_keys.iter().find(|d| d.index == n) {
            return Some(SlotRole {
                text: d.role.clone(),
                span: Some(d.span),
                contract_span: None,
                source: RoleSource::Header,
            });
        }
        if let Some(d) = self.lua.aliases.iter().find(|d| d.index == n) {
            return Some(SlotRole {
                text: d.role.clone(),
                span: Some(d.span),
                contract_span: None,
                source: RoleSource::Alias,
            });
        }
        let c = contract?;
        let spec = &c.scripts[self.contract?];
        let (role, range) = spec.keys.get((n as usize).checked_sub(1)?)?;
        Some(SlotRole {
            text: role.clone(),
            span: None,
            contract_span: Some(range.clone()),
            source: RoleSource::Contract,
        })
    }

    /// Whether this is a Redis script at all: it calls Redis, reads KEYS,
    /// or the contract names it. A `.lua` file that does none of these
    /// (an editor config, a game script) is not one.
    pub fn is_redis(&self) -> bool {
        self.contract.is_some()
            || !self.lua.commands.is_empty()
            || !self.lua.key_uses.is_empty()
            || self.lua.dynamic_keys
    }

    /// The highest `KEYS[n]` the body uses.
    pub fn body_max(&self) -> Option<u32> {
        self.lua.key_uses.iter().map(|(n, _)| *n).max()
    }
}

/// The hash tag of a key template: `Some(tag)` with holes as `\0<label>`,
/// `None` when the template has no `{…}` in its literal bytes.
pub fn hash_tag(t: &crate::facts::Template) -> Option<String> {
    use crate::facts::Seg;
    let mut text = String::new();
    for s in &t.segs {
        match s {
            Seg::Lit { text: l, .. } => text.push_str(l),
            Seg::Hole { label, .. } => {
                text.push('\0');
                text.push_str(label);
                text.push('\0');
            }
            Seg::Value(v) => {
                text.push('\0');
                text.push_str(&v.describe());
                text.push('\0');
            }
        }
    }
    let open = text.find('{')?;
    let close = text[open..].find('}')? + open;
    Some(text[open + 1..close].to_string())
}

/// The first line where two texts differ (1-based), with both lines.
pub fn first_difference(a: &str, b: &str) -> Option<(usize, String, String)> {
    let mut la = a.lines();
    let mut lb = b.lines();
    let mut n = 0usize;
    loop {
        n += 1;
        match (la.next(), lb.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => return Some((n, x.unwrap_or("").to_string(), y.unwrap_or("").to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_is_what_evalsha_names() {
        assert_eq!(
            sha1_hex("return 1"),
            "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"
        );
    }

    #[test]
    fn file_names_carry_counts() {
        let s = Span::default();
        assert_eq!(
            file_name_count(Path::new("a/moveToActive-11.lua"), s),
            Some((11, s))
        );
        assert_eq!(file_name_count(Path::new("a/enqueue.lua"), s), None);
    }
}
