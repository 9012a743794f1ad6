//! Ruby's core library, as rows of the one table type
//! (`crate::extract::library`): data and nothing else.

use crate::extract::clients::Arity::Exactly;
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "Ruby",
    sep: ".",
    matching: Match::Whole,
    functions: FUNCTIONS,
    methods: METHODS,
    cases: "tests/library/ruby.rb",
};

const FUNCTIONS: &[Summary] = &[
    // Serializers of their argument, whose output a script decodes.
    row("JSON.generate", Exactly(1), Encoded("json")),
    row("JSON.dump", Exactly(1), Encoded("json")),
    row("MessagePack.pack", Exactly(1), Encoded("msgpack")),
];

const METHODS: &[Summary] = &[
    // The receiver's value back, as far as the wire is concerned
    // (`"q".freeze`, `key.to_s`).
    row("freeze", Exactly(0), Same),
    row("to_s", Exactly(0), Same),
    row("to_str", Exactly(0), Same),
    row("dup", Exactly(0), Same),
    row("itself", Exactly(0), Same),
    row("b", Exactly(0), Same),
    // The receiver serialized (the `json` and `msgpack` gems).
    row("to_json", Exactly(0), Encoded("json")),
    row("to_msgpack", Exactly(0), Encoded("msgpack")),
];
