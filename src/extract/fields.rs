//! The grammars' field ids, looked up once per grammar.
//! `child_by_field_name` searches the grammar's field names, comparing
//! strings, on every call: an eighth of parsing and extracting a large
//! Rust file. A name a grammar lacks has id 0, which finds no child; the
//! tidy test `fields_are_read_by_id_and_exist_in_their_grammar` checks
//! that every field an extractor reads exists in its grammar.

use std::sync::LazyLock;

use crate::facts::Lang;

macro_rules! fields {
    ($($field:ident = $name:literal),* $(,)?) => {
        /// One grammar's ids of the fields the extractors read.
        pub(crate) struct Fields {
            $(pub(crate) $field: u16,)*
        }

        impl Fields {
            fn of(lang: Lang) -> Fields {
                let l = crate::parse::language(lang);
                let id = |name: &str| l.field_id_for_name(name).map_or(0, |id| id.get());
                Fields {
                    $($field: id($name),)*
                }
            }
        }
    };
}

fields! {
    alias = "alias",
    alternative = "alternative",
    block = "block",
    argument = "argument",
    arguments = "arguments",
    attribute = "attribute",
    body = "body",
    clause = "clause",
    condition = "condition",
    consequence = "consequence",
    constructor = "constructor",
    content = "content",
    expression = "expression",
    field = "field",
    function = "function",
    index = "index",
    key = "key",
    left = "left",
    macro_ = "macro",
    method = "method",
    module_name = "module_name",
    name = "name",
    object = "object",
    operand = "operand",
    operator = "operator",
    parameter = "parameter",
    parameters = "parameters",
    path = "path",
    pattern = "pattern",
    property = "property",
    quoted_end = "quoted_end",
    quoted_start = "quoted_start",
    receiver = "receiver",
    right = "right",
    scope = "scope",
    start = "start",
    subscript = "subscript",
    superclass = "superclass",
    superclasses = "superclasses",
    table = "table",
    target = "target",
    ty = "type",
    value = "value",
}

pub(crate) static ELIXIR: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Elixir));
pub(crate) static RUST: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Rust));
pub(crate) static LUA: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Lua));
pub(crate) static PYTHON: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Python));
pub(crate) static JAVASCRIPT: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::JavaScript));
pub(crate) static TYPESCRIPT: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::TypeScript));
pub(crate) static GO: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Go));
pub(crate) static RUBY: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Ruby));
pub(crate) static TSX: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Tsx));

/// The field ids of one of the JavaScript and TypeScript grammars, which
/// one extractor reads.
pub(crate) fn of(lang: Lang) -> &'static Fields {
    match lang {
        Lang::TypeScript => &TYPESCRIPT,
        Lang::Tsx => &TSX,
        _ => &JAVASCRIPT,
    }
}
