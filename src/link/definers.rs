//! The names the selection (`crate::pipeline`) left some definitions of
//! unparsed, with how many files define each: a reference the link
//! resolves picks a definition outside the referencing module, file,
//! qualifier or imports only when one module defines the name
//! (`Resolver::pick`), and for these names the parsed definitions do not
//! tell, so the count the selection made from every file does. The other
//! names have every definition parsed.

use crate::hash::HashMap;

use super::SpeakerId;
use crate::facts::definer_key;

/// Per speaker, per name (as [`definer_key`] gives it) with definitions
/// left unparsed: how many files define it.
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
