//! Elixir's standard library and serializers, as rows of the one table
//! type (`crate::extract::library`): data and nothing else.

use crate::extract::clients::Arity::AtLeast;
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "Elixir",
    sep: ".",
    matching: Match::Whole,
    functions: FUNCTIONS,
    methods: &[],
    cases: "tests/library/elixir.ex",
};

const FUNCTIONS: &[Summary] = &[
    // Hex encoding and case changes: `EVALSHA` reads the SHA in either case.
    row("Base.encode16", AtLeast(1), SameSha),
    row("String.downcase", AtLeast(1), SameSha),
    row("String.upcase", AtLeast(1), SameSha),
    row("to_string", AtLeast(1), SameSha),
    row("Kernel.to_string", AtLeast(1), SameSha),
    // Lookups by key: the collection first, the key second.
    row("Keyword.fetch!", AtLeast(2), Lookup),
    row("Keyword.get", AtLeast(2), Lookup),
    row("Map.fetch!", AtLeast(2), Lookup),
    row("Map.get", AtLeast(2), Lookup),
    row("Access.get", AtLeast(2), Lookup),
    // Serializers whose output a script decodes:
    // `Msgpax.pack!([prefix, id], iodata: false)`.
    row("Msgpax.pack!", AtLeast(1), Encoded("msgpack")),
    row("Jason.encode!", AtLeast(1), Encoded("json")),
    row("Poison.encode!", AtLeast(1), Encoded("json")),
    row("JSON.encode!", AtLeast(1), Encoded("json")),
];
