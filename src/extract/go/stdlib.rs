//! Go's standard library, as rows of the one table type
//! (`crate::extract::library`): data and nothing else.

use crate::extract::clients::Arity::Exactly;
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "Go",
    sep: ".",
    matching: Match::Whole,
    functions: FUNCTIONS,
    methods: &[],
    cases: "tests/library/go.go",
};

const FUNCTIONS: &[Summary] = &[
    // Conversions: the same bytes as another type.
    row("string", Exactly(1), Same),
    row("[]byte", Exactly(1), Same),
    // An integer in decimal, as a client sends an integer argument.
    row("strconv.Itoa", Exactly(1), Same),
];
