//! Where the definitions of a name are, so that a pick among many does
//! not go over all of them.

use crate::facts::FileId;
use crate::hash::HashMap;

/// The definitions of one name from which an index is kept: below it, a
/// pick goes over the list.
pub(super) const INDEXED: usize = 16;

/// Where the definitions of one name are, by position in their list, so
/// that a pick among thousands of same-named definitions (a `k` in each of
/// 8,000 modules) does not go over all of them for each reference.
pub(super) struct DefIndex<'a> {
    pub(super) by_module: HashMap<&'a str, Vec<usize>>,
    /// By the module's last segment (`B` of `A.B` or `a::b::B`).
    pub(super) by_last: HashMap<&'a str, Vec<usize>>,
    pub(super) by_file: HashMap<FileId, Vec<usize>>,
    pub(super) modules: usize,
    /// Each definition's module, by position.
    pub(super) module_at: Vec<&'a str>,
}

impl<'a> DefIndex<'a> {
    pub(super) fn of<T>(
        defs: &[(FileId, &'a T)],
        module_of: impl Fn(&'a T) -> &'a str,
    ) -> DefIndex<'a> {
        let mut ix = DefIndex {
            by_module: HashMap::default(),
            by_last: HashMap::default(),
            by_file: HashMap::default(),
            modules: 0,
            module_at: Vec::with_capacity(defs.len()),
        };
        for (i, (f, d)) in defs.iter().enumerate() {
            let m = module_of(d);
            ix.module_at.push(m);
            ix.by_module.entry(m).or_default().push(i);
            let last = m.rsplit(['.', ':']).next().unwrap_or(m);
            ix.by_last.entry(last).or_default().push(i);
            ix.by_file.entry(*f).or_default().push(i);
        }
        ix.modules = ix.by_module.len();
        ix
    }
}
