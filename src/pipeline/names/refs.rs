//! What a name's references say: where its definitions may be picked
//! ([`Within`]), per name ([`Refs`]).

use std::collections::BTreeMap;

/// Where the definitions a name's references may pick live, besides the
/// referencing files themselves: in a module one of `words` names (the
/// last segment of a qualifier, of the referencing module, of a module it
/// imports from), or, with `any`, in any module. A definition elsewhere is
/// picked only when no other file defines the name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Within {
    pub any: bool,
    /// Sorted, without repeats; empty with `any`.
    pub words: Vec<String>,
}

impl Within {
    pub fn any() -> Within {
        Within {
            any: true,
            words: Vec::new(),
        }
    }

    pub fn merge(&mut self, other: &Within) {
        if self.any {
            return;
        }
        if other.any {
            *self = Within::any();
            return;
        }
        if other
            .words
            .iter()
            .all(|w| self.words.binary_search(w).is_ok())
        {
            return;
        }
        self.words.extend(other.words.iter().cloned());
        self.words.sort_unstable();
        self.words.dedup();
    }
}

/// Names looked up, each with where its definitions may be picked: one
/// entry per name, sorted by name once [`Refs::sealed`]. A vector, not a
/// map: a parsed file holds thousands of these, most of a name or two,
/// and a `BTreeMap`'s first node has room for eleven (14 MB of the 113
/// MB a cold run of the first 32 rows of the real corpus held in the name
/// pass, `docs/performance.md`).
#[derive(Default, PartialEq, Eq, Hash)]
pub(super) struct Refs(Vec<(String, Within)>);

impl Refs {
    pub(super) fn new() -> Refs {
        Refs(Vec::new())
    }

    pub(super) fn push(&mut self, name: String, within: Within) {
        self.0.push((name, within));
    }

    /// One entry per name, sorted, each merged from every entry of the
    /// name (merging is a union: in any order, the same).
    pub(super) fn sealed(mut self) -> Refs {
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(String, Within)> = Vec::with_capacity(self.0.len());
        for (name, within) in self.0 {
            match out.last_mut() {
                Some((last, w)) if *last == name => w.merge(&within),
                _ => out.push((name, within)),
            }
        }
        out.shrink_to_fit();
        Refs(out)
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
}

/// Merges `from` into `into`.
pub(super) fn merge_refs(into: &mut BTreeMap<String, Within>, from: &Refs) {
    for (name, w) in &from.0 {
        match into.get_mut(name) {
            Some(x) => x.merge(w),
            None => {
                into.insert(name.clone(), w.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Within {
        Within {
            any: false,
            words: w.iter().map(|w| w.to_string()).collect(),
        }
    }

    #[test]
    fn sealed_refs_hold_one_entry_per_name_sorted_and_merged() {
        let mut r = Refs::new();
        r.push("run".into(), words(&["b"]));
        r.push("key".into(), words(&["a"]));
        r.push("run".into(), words(&["a"]));
        r.push("key".into(), Within::any());
        r.push("key".into(), words(&["c"]));
        let r = r.sealed();
        assert_eq!(
            r.0,
            vec![
                ("key".to_string(), Within::any()),
                ("run".to_string(), words(&["a", "b"])),
            ]
        );
        let mut into = BTreeMap::new();
        into.insert("run".to_string(), words(&["z"]));
        merge_refs(&mut into, &r);
        assert_eq!(into["run"], words(&["a", "b", "z"]));
        assert_eq!(into["key"], Within::any());
    }
}
