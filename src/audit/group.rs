//! What an audit keeps: per finding group (a code and the template or
//! record field it is about) a count, a few example keys and small counts
//! by Redis type; never every key. Memory stays bounded whatever the size
//! of the keyspace: at most [`MAX_GROUPS`] groups, [`EXAMPLES`] examples
//! each.

use std::collections::{BTreeMap, BTreeSet};

use super::keys::Miss;

/// Example keys kept per group: the smallest in byte order, so the output
/// does not depend on the order SCAN returns keys in.
pub const EXAMPLES: usize = 3;

/// Groups kept in all; keys of further groups are counted in
/// [`Tally::overflow`].
pub const MAX_GROUPS: usize = 10_000;

/// What a group is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// WA101-WA103: keys that miss the keyspace, by template.
    Miss(Miss),
    /// WA104: keys of a contract type holding another Redis type.
    RedisType {
        type_name: String,
        expected: String,
        found: String,
    },
    /// WA201: hashes of a record with a field the record does not have.
    UnknownField { record: String, field: String },
    /// WA202: hashes of a record without one of its fields.
    MissingField { record: String, field: String },
    /// WA301: a holder's member whose key does not exist.
    MemberWithoutKey { holder: String, held: String },
    /// WA302: a key that no holder of its queue holds.
    KeyWithoutHolder { held: String },
}

/// One group's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    pub count: u64,
    /// The smallest example keys (at most [`EXAMPLES`]).
    pub examples: BTreeSet<Vec<u8>>,
    /// How many of the keys hold each Redis type (for misses).
    pub redis_types: BTreeMap<String, u64>,
    /// How many of the keys expire (have a TTL).
    pub expiring: u64,
    /// How many of the keys were read from a sample of their fields.
    pub sampled: u64,
}

impl Group {
    fn add(&mut self, key: &[u8]) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.insert(key.to_vec());
        } else if self
            .examples
            .last()
            .is_some_and(|last| key < last.as_slice())
        {
            self.examples.insert(key.to_vec());
            self.examples.pop_last();
        }
    }
}

/// Everything an audit counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Keys SCAN returned and that were read.
    pub keys: u64,
    /// Keys of a contract key type.
    pub known: u64,
    /// Keys outside the keyspace (not judged).
    pub foreign: u64,
    /// Keys gone between SCAN and TYPE (deleted or expired meanwhile).
    pub vanished: u64,
    /// Hashes read through a sample of their fields (`--sample`).
    pub sampled_hashes: u64,
    /// Holder members checked for their key.
    pub members: u64,
    /// Held keys not judged by WA302: a holder is a list (asking reads the
    /// whole list), or could not answer (no `ZMSCORE` before Redis 6.2).
    pub unchecked: u64,
    /// Held rows not judged by WA302 because their state field names no
    /// holder (a finished job, `state` `done`): no queue should hold them.
    pub waiting_nowhere: u64,
    /// Keys that fell into groups beyond [`MAX_GROUPS`].
    pub overflow: u64,
    /// Error replies to single commands (not the connection's): count and
    /// the first message.
    pub errors: u64,
    pub first_error: Option<String>,
    /// Primaries scanned (1 unless `--cluster`).
    pub nodes: u32,
    pub groups: BTreeMap<(Kind, String), Group>,
}

impl Tally {
    /// Counts `key` in the group `(kind, template)`; returns it for more
    /// counts, or `None` past the group limit.
    pub fn add(&mut self, kind: Kind, template: String, key: &[u8]) -> Option<&mut Group> {
        let id = (kind, template);
        if !self.groups.contains_key(&id) && self.groups.len() >= MAX_GROUPS {
            self.overflow += 1;
            return None;
        }
        let g = self.groups.entry(id).or_default();
        g.add(key);
        Some(g)
    }

    /// An error reply to one command.
    pub fn error(&mut self, message: String) {
        self.errors += 1;
        self.first_error.get_or_insert(message);
    }

    /// Adds another tally's counts (a worker's, or a node's): the result
    /// does not depend on how the keys were split.
    pub fn merge(&mut self, other: Tally) {
        self.keys += other.keys;
        self.known += other.known;
        self.foreign += other.foreign;
        self.vanished += other.vanished;
        self.sampled_hashes += other.sampled_hashes;
        self.members += other.members;
        self.unchecked += other.unchecked;
        self.waiting_nowhere += other.waiting_nowhere;
        self.overflow += other.overflow;
        self.errors += other.errors;
        self.nodes += other.nodes;
        self.first_error = match (self.first_error.take(), other.first_error) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        for (id, g) in other.groups {
            if !self.groups.contains_key(&id) && self.groups.len() >= MAX_GROUPS {
                self.overflow += g.count;
                continue;
            }
            let mine = self.groups.entry(id).or_default();
            mine.count += g.count;
            mine.examples.extend(g.examples);
            while mine.examples.len() > EXAMPLES {
                mine.examples.pop_last();
            }
            for (t, n) in g.redis_types {
                *mine.redis_types.entry(t).or_default() += n;
            }
            mine.expiring += g.expiring;
            mine.sampled += g.sampled;
        }
    }

    /// Every group, in order (by kind, then template).
    pub fn findings(&self) -> impl Iterator<Item = (&Kind, &str, &Group)> {
        self.groups.iter().map(|((k, t), g)| (k, t.as_str(), g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_the_smallest_keys_whatever_the_order() {
        let kind = Kind::KeyWithoutHolder { held: "job".into() };
        let mut a = Tally::default();
        let mut b = Tally::default();
        let keys: Vec<String> = (0..20).map(|i| format!("k{i:02}")).collect();
        for k in &keys {
            a.add(kind.clone(), "t".into(), k.as_bytes());
        }
        for k in keys.iter().rev() {
            b.add(kind.clone(), "t".into(), k.as_bytes());
        }
        assert_eq!(a, b);
        let g = a.findings().next().unwrap().2;
        assert_eq!(g.count, 20);
        let ex: Vec<&[u8]> = g.examples.iter().map(|e| e.as_slice()).collect();
        assert_eq!(ex, [b"k00", b"k01", b"k02"]);
    }

    #[test]
    fn merged_tallies_do_not_depend_on_the_split() {
        let kind = Kind::KeyWithoutHolder { held: "job".into() };
        let keys: Vec<String> = (0..10).map(|i| format!("k{i}")).collect();
        let mut whole = Tally::default();
        let (mut a, mut b) = (Tally::default(), Tally::default());
        for (i, k) in keys.iter().enumerate() {
            whole.add(kind.clone(), "t".into(), k.as_bytes());
            let half = if i % 3 == 0 { &mut a } else { &mut b };
            half.add(kind.clone(), "t".into(), k.as_bytes());
        }
        b.merge(a);
        assert_eq!(b, whole);
    }

    #[test]
    fn groups_are_bounded() {
        let mut t = Tally::default();
        for i in 0..MAX_GROUPS + 5 {
            let kind = Kind::UnknownField {
                record: "job".into(),
                field: format!("f{i}"),
            };
            t.add(kind, "t".into(), b"k");
        }
        assert_eq!((t.groups.len(), t.overflow), (MAX_GROUPS, 5));
    }
}
