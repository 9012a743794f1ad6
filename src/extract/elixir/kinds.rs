//! Grammar coverage of the Elixir extractor: the class of every named
//! node kind of tree-sitter-elixir (see [`crate::extract::kinds`]).

use crate::extract::kinds::{why, Kinds};

pub const KINDS: Kinds = Kinds {
    evaluated: &[
        "access_call",
        "alias",
        "anonymous_function",
        "arguments",
        "atom",
        "binary_operator",
        "bitstring",
        "block",
        "boolean",
        "call",
        "char",
        "charlist",
        "do_block",
        "dot",
        "escape_sequence",
        "identifier",
        "integer",
        "interpolation",
        "keyword",
        "keywords",
        "list",
        "map",
        "map_content",
        "nil",
        "pair",
        "quoted_atom",
        "quoted_content",
        "sigil",
        "sigil_modifiers",
        "sigil_name",
        "stab_clause",
        "string",
        "struct",
        "tuple",
        "unary_operator",
    ],
    not_value: &[
        "comment",
        "operator_identifier",
        "source",
    ],
    opaque: &[
        (
            "`else`, `rescue`, `catch` and `after` blocks of a call with a `do` block: a value they yield is Unknown (the clauses of `case` and the keyword form of `if` are read)",
            &[
                "after_block",
                "catch_block",
                "else_block",
                "rescue_block",
            ],
        ),
        (
            "a clause's body: its last expression is read where the clause is read (`case`, `fn`), elsewhere the body is Unknown",
            &[
                "body",
            ],
        ),
        (
            why::LITERAL,
            &[
                "float",
            ],
        ),
        (
            "quoted keyword keys (`\"a b\": 1`): the pair's key is Unknown",
            &[
                "quoted_keyword",
            ],
        ),
    ],
};
