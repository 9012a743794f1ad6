//! The library of Redis's Lua (the language's own and the modules Redis
//! loads: `cjson`, `cmsgpack`), as rows of the one table type
//! (`crate::extract::library`): data and nothing else.

use crate::extract::clients::Arity::Exactly;
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "Lua (in Redis)",
    sep: ".",
    matching: Match::Whole,
    functions: FUNCTIONS,
    methods: &[],
    cases: "tests/library/lua.lua",
};

const FUNCTIONS: &[Summary] = &[
    // A string or an integer as the text it sends.
    row("tostring", Exactly(1), Same),
    // What the caller serialized: `cmsgpack.unpack(ARGV[1])` is the
    // structure the caller packed.
    row("cmsgpack.unpack", Exactly(1), Decoded("msgpack")),
    row("cjson.decode", Exactly(1), Decoded("json")),
];
