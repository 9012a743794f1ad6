//! The hash maps and sets of the hot paths: `foldhash`'s fast hasher, seeded
//! per process (a tree under review cannot pick names that collide), in
//! place of the standard library's SipHash, which was a tenth of the link.
//! Nothing may depend on their iteration order: what is reported is sorted.

pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
