//! How many files of a speaker define a name, as the selection counted
//! them (`crate::pipeline`): a reference the link resolves by a bare name
//! picks a definition outside the referencing module, file, qualifier or
//! imports only when one file defines that name (`Resolver::pick`). The
//! count comes from the selection, not from the facts parsed, so that the
//! pick is the same whichever files were parsed.

use crate::hash::HashMap;

use super::SpeakerId;
use crate::facts::definer_key;

/// Per speaker, per name (as [`definer_key`] gives it): how many files
/// define it. A name the selection did not count is not here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Definers(pub HashMap<SpeakerId, HashMap<String, u32>>);

impl Definers {
    /// Whether more than one file of `speaker` defines `name`.
    pub fn many(&self, speaker: SpeakerId, name: &str) -> bool {
        let Some(names) = self.0.get(&speaker) else {
            return false;
        };
        definer_key(name)
            .and_then(|k| names.get(&k))
            .is_some_and(|c| *c > 1)
    }
}
