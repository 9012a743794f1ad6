//! The classes of each speaker and their bases ([`crate::facts::TypeBase`]):
//! a class's lineage, itself then its bases, nearest first, so that a
//! field a class does not set is its base's, and a method of a base run on
//! a subclass reads the subclass's fields.

use crate::hash::HashMap;

use super::{LinkInput, SpeakerId};

/// Classes a lineage goes through, at most (a cycle of bases ends there).
const MAX_LINEAGE: usize = 16;

/// By (speaker, class): the classes its definitions name as its bases.
#[derive(Default)]
pub(crate) struct Classes<'a> {
    bases: HashMap<(SpeakerId, &'a str), Vec<&'a str>>,
}

impl<'a> Classes<'a> {
    pub(crate) fn of(input: &'a LinkInput<'a>) -> Classes<'a> {
        let mut bases: HashMap<_, Vec<&'a str>> = HashMap::default();
        for (file, facts) in input.facts {
            let Some(sp) = input.file_speaker.get(*file as usize).copied().flatten() else {
                continue;
            };
            for b in &facts.bases {
                if let Some(base) = b.base.last().filter(|x| **x != b.class) {
                    bases.entry((sp, b.class.as_str())).or_default().push(base);
                }
            }
        }
        Classes { bases }
    }

    /// `class`, then its bases, theirs, and so on, breadth first, each
    /// once; bounded by [`MAX_LINEAGE`].
    pub(crate) fn lineage<'s>(&'s self, speaker: SpeakerId, class: &'s str) -> Vec<&'s str> {
        let mut out = vec![class];
        let mut i = 0;
        while i < out.len() && out.len() < MAX_LINEAGE {
            let bases = self
                .bases
                .get(&(speaker, out[i]))
                .map_or(&[][..], Vec::as_slice);
            for b in bases {
                if !out.contains(b) && out.len() < MAX_LINEAGE {
                    out.push(b);
                }
            }
            i += 1;
        }
        out
    }
}
