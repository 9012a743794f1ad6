//! Rust's standard library and serializers, as rows of the one table
//! type (`crate::extract::library`): data and nothing else.

use crate::extract::clients::Arity::{AtLeast, Exactly};
use crate::extract::library::{row, Flow::*, Library, Match, Summary};

pub(crate) static LIBRARY: Library = Library {
    language: "Rust",
    sep: "::",
    matching: Match::Tail,
    functions: FUNCTIONS,
    methods: METHODS,
    cases: "tests/library/rust.rs",
};

const FUNCTIONS: &[Summary] = &[
    // Conversions, smart pointers, locks, and lazily initialised cells
    // (what the initialiser returns).
    row("String::from", Exactly(1), Same),
    row("str::to_string", Exactly(1), Same),
    row("String::from_str", Exactly(1), Same),
    row("Ok", Exactly(1), Same),
    row("Some", Exactly(1), Same),
    row("Cow::from", Exactly(1), Same),
    row("Box::new", Exactly(1), Same),
    row("Arc::from", Exactly(1), Same),
    row("Arc::new", Exactly(1), Same),
    row("Rc::new", Exactly(1), Same),
    row("Rc::from", Exactly(1), Same),
    row("Mutex::new", Exactly(1), Same),
    row("RwLock::new", Exactly(1), Same),
    row("LazyLock::new", Exactly(1), Same),
    row("LazyCell::new", Exactly(1), Same),
    row("Lazy::new", Exactly(1), Same),
    row("OnceCell::from", Exactly(1), Same),
    row("OnceLock::from", Exactly(1), Same),
    // Bytes read as text (a script embedded with `include_bytes!`).
    row("String::from_utf8", Exactly(1), Same),
    row("String::from_utf8_lossy", Exactly(1), Same),
    row("str::from_utf8", Exactly(1), Same),
    // Serializers whose output a script decodes: a tuple, an array or a
    // `Vec` is a msgpack array.
    row("rmp_serde::to_vec", Exactly(1), Encoded("msgpack")),
    row("rmp_serde::to_vec_named", Exactly(1), Encoded("msgpack")),
    row("rmp_serde::encode::to_vec", Exactly(1), Encoded("msgpack")),
    row(
        "rmp_serde::encode::to_vec_named",
        Exactly(1),
        Encoded("msgpack"),
    ),
    row("serde_json::to_string", Exactly(1), Encoded("json")),
    row("serde_json::to_vec", Exactly(1), Encoded("json")),
];

const METHODS: &[Summary] = &[
    // The receiver's value as it is, on the wire.
    row("as_str", Exactly(0), Same),
    row("as_ref", Exactly(0), Same),
    row("to_string", Exactly(0), Same),
    row("to_owned", Exactly(0), Same),
    row("into", Exactly(0), Same),
    row("clone", Exactly(0), Same),
    row("as_bytes", Exactly(0), Same),
    row("borrow", Exactly(0), Same),
    row("deref", Exactly(0), Same),
    row("as_deref", Exactly(0), Same),
    row("to_vec", Exactly(0), Same),
    row("into_owned", Exactly(0), Same),
    row("cloned", Exactly(0), Same),
    row("copied", Exactly(0), Same),
    row("into_bytes", Exactly(0), Same),
    row("as_slice", Exactly(0), Same),
    // `Option` and `Result` adapters whose arguments only say what happens
    // on failure.
    row("ok_or", AtLeast(0), Same),
    row("ok_or_else", AtLeast(0), Same),
    row("expect", AtLeast(0), Same),
    row("unwrap", AtLeast(0), Same),
    row("map_err", AtLeast(0), Same),
    row("context", AtLeast(0), Same),
    row("with_context", AtLeast(0), Same),
    // A lazily initialised cell holds what its initialiser returns:
    // `CELL.get_or_init(|| Script::new(..))`.
    row("get_or_init", Exactly(1), Initialised),
    row("get_or_insert_with", Exactly(1), Initialised),
    row("call_once_force", Exactly(1), Initialised),
];
