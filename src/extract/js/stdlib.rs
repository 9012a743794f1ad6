//! The JavaScript and TypeScript standard library (and Node's), as rows
//! of the one table type (`crate::extract::library`): data and nothing
//! else.

use crate::extract::clients::Arity::{AtLeast, Exactly};
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "JavaScript and TypeScript",
    sep: ".",
    matching: Match::Tail,
    functions: FUNCTIONS,
    methods: METHODS,
    cases: "tests/library/ts.ts",
};

const FUNCTIONS: &[Summary] = &[
    // A script file read where the code runs: `fs.readFileSync(path.join(
    // __dirname, "x.lua"), "utf8")`.
    row("readFileSync", AtLeast(1), Read),
    row("readFile", AtLeast(1), Read),
    // A string's bytes, as a buffer: the same on the wire.
    row("Buffer.from", Exactly(1), Same),
    // A value serialized for a script to decode (`cjson.decode`).
    row("JSON.stringify", AtLeast(1), Encoded("json")),
];

const METHODS: &[Summary] = &[
    // `String.prototype.toString`/`valueOf` give the string, and a
    // `Buffer`'s `toString()` (UTF-8 by default) the text of a file read
    // with `readFileSync`.
    row("toString", Exactly(0), Same),
    row("valueOf", Exactly(0), Same),
];
