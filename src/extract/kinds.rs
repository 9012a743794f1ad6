//! Grammar coverage: every named node kind of every grammar wirelint
//! parses with is classified, per language, in a table beside its extractor
//! (`src/extract/<language>/kinds.rs`):
//!
//! - [`Class::Evaluated`]: the extractor reads nodes of the kind by name,
//!   in its value lowering or in the walk around it (the calls, bindings,
//!   branches, loops and scripts it follows);
//! - [`Class::NotValue`]: the kind carries no value of its own that a key,
//!   a field or a script could come from: comments, types, modifiers,
//!   labels, containers whose children are classified themselves, and the
//!   parts of a literal or a path that their parent reads as text;
//! - [`Class::Opaque`]: the kind can carry a value, but the extractor does
//!   not evaluate it; the reason says what it yields (most often a value
//!   wirelint calls Unknown).
//!
//! The tests below read each grammar's `node-types.json` (the crates'
//! `NODE_TYPES`) and fail on a kind no table classifies and on a row that
//! names a kind the grammar lacks, so a grammar update or a new language
//! cannot leave a gap silently. Supertypes (`_expression`, `_pattern`, …)
//! are left out: they are abstract and no node of a tree has one as its
//! kind. The grammar table of `docs/precision.md` is generated from the
//! tables ([`tests`]).

use crate::facts::Lang;

/// What a node kind is to its language's extractor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Read by name by the extractor.
    Evaluated,
    /// Carries no value of its own.
    NotValue,
    /// Can carry a value the extractor does not evaluate, and why / what
    /// it yields instead.
    Opaque(&'static str),
}

/// One language's classification of its grammar's named node kinds.
#[derive(Debug)]
pub struct Kinds {
    pub evaluated: &'static [&'static str],
    pub not_value: &'static [&'static str],
    /// Each reason with the kinds it covers.
    pub opaque: &'static [(&'static str, &'static [&'static str])],
}

impl Kinds {
    /// Every classified kind with its class, evaluated first.
    pub fn rows(&self) -> impl Iterator<Item = (&'static str, Class)> + '_ {
        let evaluated = self.evaluated.iter().map(|k| (*k, Class::Evaluated));
        let not_value = self.not_value.iter().map(|k| (*k, Class::NotValue));
        let opaque = self
            .opaque
            .iter()
            .flat_map(|(why, ks)| ks.iter().map(move |k| (*k, Class::Opaque(why))));
        evaluated.chain(not_value).chain(opaque)
    }

    /// The class of `kind`, if the table has it.
    pub fn class(&self, kind: &str) -> Option<Class> {
        self.rows().find(|(k, _)| *k == kind).map(|(_, c)| c)
    }
}

/// The table of a language (JavaScript, TypeScript and TSX share one, as
/// they share an extractor).
pub fn of(lang: Lang) -> &'static Kinds {
    match lang {
        Lang::Elixir => &super::elixir::kinds::KINDS,
        Lang::Rust => &super::rust::kinds::KINDS,
        Lang::Lua => &super::lua::kinds::KINDS,
        Lang::Python => &super::python::kinds::KINDS,
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => &super::js::kinds::KINDS,
        Lang::Go => &super::go::kinds::KINDS,
        Lang::Ruby => &super::ruby::kinds::KINDS,
    }
}

/// Reasons several languages give for an opaque kind.
pub mod why {
    pub const CONTROL: &str = "control flow not read by name: the walk reads the calls and \
                               bindings inside, not which branch runs";
    pub const LOOP: &str = "loops not read by name: the walk reads the calls and bindings \
                            inside, not how often they run";
    pub const COMPREHENSION: &str = "a collection a comprehension builds is Unknown";
    pub const LITERAL: &str = "literals other than strings and integers are Unknown";
    pub const PATTERN: &str = "destructuring patterns: what they bind is not read";
    pub const OPERATOR: &str = "operators the value core does not compute: their result is Unknown";
    pub const YIELD: &str = "a yielded value is Unknown";
    pub const ENUM: &str = "an enum member's name or value is not read";
    pub const SLICE: &str = "slices and ranges are Unknown";
    pub const CONVERSION: &str = "conversions and type assertions are Unknown";
    pub const DEFAULT: &str = "defaults of these parameters are not read";
}

#[cfg(test)]
mod tests;
