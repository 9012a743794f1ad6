//! What the standard library, and the serializers the code of every
//! language uses, do to a value on its way to the wire, as data.
//!
//! A summary is a row ([`Summary`]): a function or a method as the
//! language names it, which calls of it the row is for (their argument
//! count, [`Arity`]) and what comes out of such a call ([`Flow`]). Each
//! language fills one [`Library`] (`src/extract/<lang>/stdlib.rs`, data
//! and nothing else), which its lowering asks where it meets a call the
//! code base does not define ([`Library::function`], [`Library::method`]):
//! a row added is a call understood, with no code. This module holds the
//! one type they share and what is read from a table the same way in every
//! language:
//!
//! - `docs/library.md`, generated from every table ([`markdown`]); a unit
//!   test fails, printing the expected text, when the doc is out of date;
//! - each row's case: `tests/library/<lang>.<ext>` holds a client call
//!   whose argument goes through the row, with what the extractor reads
//!   in a trailing comment, as `tests/client_methods/` does for the
//!   clients (`src/extract/clients/tests.rs` runs both).
//!
//! The calls whose meaning is more than a flow of one value (a format
//! string and its arguments, a path joined and the file it names, a
//! script's SHA1 computed) are read by each language's own code, which
//! says so in its module docs.

use super::clients::Arity;

/// What comes out of a call a row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// The value that went in, as far as the wire goes: a conversion, a
    /// smart pointer, a lock, an adapter whose arguments only say what
    /// happens on failure (a method's receiver, a function's argument).
    Same,
    /// The SHA1 that went in, in another spelling (hex encoding, a case
    /// change: `EVALSHA` reads either case); anything else is not known.
    SameSha,
    /// What the function it is handed returns: a lazily initialised cell.
    Initialised,
    /// Its argument serialized in this format, for a script to decode.
    Encoded(&'static str),
    /// Its argument decoded from this format: in a script, the structure
    /// its caller serialized.
    Decoded(&'static str),
    /// The value its first argument holds under the key its second names.
    Lookup,
    /// The text of the file its first argument names (a script file).
    Read,
}

impl Flow {
    #[cfg(test)]
    fn describe(self) -> String {
        match self {
            Flow::Same => "the value it is given".into(),
            Flow::SameSha => "the SHA1 it is given, spelled otherwise".into(),
            Flow::Initialised => "what the function it is given returns".into(),
            Flow::Encoded(f) => format!("its argument as {f}, for a script to decode"),
            Flow::Decoded(f) => format!("its argument decoded from {f}: what the caller encoded"),
            Flow::Lookup => "the value under a key (the second argument)".into(),
            Flow::Read => "the text of the file it names".into(),
        }
    }
}

/// One function or method of a library, and what comes out of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    /// As the language writes it, its module's segments joined by the
    /// table's [`Library::sep`]: `String::from`, `Base.encode16`.
    pub(crate) name: &'static str,
    pub(crate) arity: Arity,
    pub(crate) flow: Flow,
}

/// Shorthand for a row.
pub(crate) const fn row(name: &'static str, arity: Arity, flow: Flow) -> Summary {
    Summary { name, arity, flow }
}

/// How a table's function names meet a call's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Match {
    /// The whole path, as written: `Map.get` is not `MyMap.get`.
    Whole,
    /// Its last segments: `String::from` is `std::string::String::from`.
    Tail,
}

/// One language's summaries.
pub(crate) struct Library {
    /// Read by the doc and the cases' tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) language: &'static str,
    /// What joins a function's segments in its name.
    pub(crate) sep: &'static str,
    pub(crate) matching: Match,
    /// Functions (and associated functions), by their path.
    pub(crate) functions: &'static [Summary],
    /// Methods, by their name, called on a receiver.
    pub(crate) methods: &'static [Summary],
    /// The case file, from the crate's root.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) cases: &'static str,
}

impl Library {
    /// What a call of the function at `path` with `args` arguments gives.
    pub(crate) fn function<S: AsRef<str>>(&self, path: &[S], args: usize) -> Option<Flow> {
        self.functions
            .iter()
            .find(|r| r.arity.admits(args) && self.names(r.name, path))
            .map(|r| r.flow)
    }

    /// What a call of the method `name` with `args` arguments gives.
    pub(crate) fn method(&self, name: &str, args: usize) -> Option<Flow> {
        self.methods
            .iter()
            .find(|r| r.arity.admits(args) && r.name == name)
            .map(|r| r.flow)
    }

    /// Whether the row named `name` is the function at `path`.
    fn names<S: AsRef<str>>(&self, name: &str, path: &[S]) -> bool {
        let segs = name.split(self.sep).count();
        if path.len() < segs || (self.matching == Match::Whole && path.len() != segs) {
            return false;
        }
        name.split(self.sep)
            .zip(&path[path.len() - segs..])
            .all(|(a, b)| a == b.as_ref())
    }

    /// Every row, functions first.
    #[cfg(test)]
    pub(crate) fn rows(&self) -> impl Iterator<Item = (&'static str, &Summary)> {
        let f = self.functions.iter().map(|r| ("function", r));
        f.chain(self.methods.iter().map(|r| ("method", r)))
    }
}

/// Every language's table, in the order the doc lists them.
#[cfg(test)]
pub(crate) fn tables() -> [&'static Library; 7] {
    [
        &super::rust::stdlib::LIBRARY,
        &super::elixir::stdlib::LIBRARY,
        &super::go::stdlib::LIBRARY,
        &super::js::stdlib::LIBRARY,
        &super::python::stdlib::LIBRARY,
        &super::ruby::stdlib::LIBRARY,
        &super::lua::stdlib::LIBRARY,
    ]
}

/// The tables as `docs/library.md` shows them.
#[cfg(test)]
pub(crate) fn markdown() -> String {
    let mut out = String::new();
    for t in tables() {
        out.push_str(&format!("## {}\n\n", t.language));
        out.push_str("| call | is a | arguments | gives |\n|---|---|---|---|\n");
        for (what, r) in t.rows() {
            let name = if what == "method" {
                format!("`.{}`", r.name)
            } else {
                format!("`{}`", r.name)
            };
            out.push_str(&format!(
                "| {name} | {what} | {} | {} |\n",
                r.arity.describe(),
                r.flow.describe()
            ));
        }
        let matching = match t.matching {
            Match::Whole => "A function is named by its whole path, as written.",
            Match::Tail => {
                "A function is named by its path's last segments (`a::b` is also `x::a::b`)."
            }
        };
        out.push_str(&format!("\n{matching} Cases: `{}`.\n\n", t.cases));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "docs/library.md";
    const BEGIN: &str = "<!-- generated by src/extract/library.rs: begin -->\n";
    const END: &str = "<!-- generated by src/extract/library.rs: end -->";

    #[test]
    fn the_library_doc_lists_every_table() {
        crate::extract::assert_generated(DOC, BEGIN, END, &markdown());
    }

    const GET: &[Summary] = &[row("Map.get", Arity::AtLeast(2), Flow::Lookup)];
    const TO_S: &[Summary] = &[row("to_s", Arity::Exactly(0), Flow::Same)];
    const FROM: &[Summary] = &[row("String::from", Arity::Exactly(1), Flow::Same)];

    #[test]
    fn a_row_names_a_path_whole_or_by_its_tail() {
        let whole = Library {
            language: "t",
            sep: ".",
            matching: Match::Whole,
            functions: GET,
            methods: TO_S,
            cases: "",
        };
        assert_eq!(whole.function(&["Map", "get"], 2), Some(Flow::Lookup));
        assert_eq!(whole.function(&["My", "Map", "get"], 2), None);
        assert_eq!(whole.function(&["Map", "get"], 1), None, "its arity");
        assert_eq!(whole.method("to_s", 0), Some(Flow::Same));
        assert_eq!(whole.method("to_s", 1), None);
        let tail = Library {
            matching: Match::Tail,
            sep: "::",
            functions: FROM,
            ..whole
        };
        assert_eq!(
            tail.function(&["std", "string", "String", "from"], 1),
            Some(Flow::Same)
        );
        assert_eq!(tail.function(&["from"], 1), None);
        assert_eq!(tail.function(&["MyString", "from"], 1), None);
    }
}
