//! Python's standard library and serializers, as rows of the one table
//! type (`crate::extract::library`): data and nothing else.

use crate::extract::clients::Arity::{AtLeast, Exactly};
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "Python",
    sep: ".",
    matching: Match::Tail,
    functions: FUNCTIONS,
    methods: METHODS,
    cases: "tests/library/python.py",
};

const FUNCTIONS: &[Summary] = &[
    // Serializers of their one positional argument, whose output a script
    // decodes: `msgpack.packb([prefix, id], use_bin_type=True)`.
    row("msgpack.packb", Exactly(1), Encoded("msgpack")),
    row("msgpack.dumps", Exactly(1), Encoded("msgpack")),
    row("ormsgpack.packb", Exactly(1), Encoded("msgpack")),
    row("json.dumps", Exactly(1), Encoded("json")),
];

const METHODS: &[Summary] = &[
    // Text to bytes and back, in UTF-8 (what every client sends): the
    // same bytes on the wire.
    row("encode", AtLeast(0), Same),
    row("decode", AtLeast(0), Same),
];
