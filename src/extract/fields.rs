//! The grammars' field ids, looked up once per grammar.
//! `child_by_field_name` searches the grammar's field names, comparing
//! strings, on every call: an eighth of parsing and extracting a large
//! Rust file. A name a grammar lacks has id 0, which finds no child.

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

            #[cfg(test)]
            fn by_name(&self, name: &str) -> Option<u16> {
                match name {
                    $($name => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

fields! {
    alternative = "alternative",
    argument = "argument",
    arguments = "arguments",
    body = "body",
    consequence = "consequence",
    content = "content",
    field = "field",
    function = "function",
    key = "key",
    left = "left",
    macro_ = "macro",
    name = "name",
    operand = "operand",
    operator = "operator",
    parameters = "parameters",
    pattern = "pattern",
    quoted_end = "quoted_end",
    quoted_start = "quoted_start",
    right = "right",
    start = "start",
    table = "table",
    target = "target",
    ty = "type",
    value = "value",
}

pub(crate) static ELIXIR: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Elixir));
pub(crate) static RUST: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Rust));
pub(crate) static LUA: LazyLock<Fields> = LazyLock::new(|| Fields::of(Lang::Lua));

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field an extractor reads exists in its grammar, by that name.
    #[test]
    fn the_fields_each_extractor_reads_exist_in_its_grammar() {
        let read: [(&Fields, &[&str]); 3] = [
            (
                &ELIXIR,
                &[
                    "key",
                    "left",
                    "operand",
                    "operator",
                    "quoted_end",
                    "quoted_start",
                    "right",
                    "target",
                    "value",
                ],
            ),
            (
                &RUST,
                &[
                    "alternative",
                    "argument",
                    "arguments",
                    "body",
                    "consequence",
                    "field",
                    "function",
                    "left",
                    "macro",
                    "name",
                    "operator",
                    "parameters",
                    "pattern",
                    "right",
                    "type",
                    "value",
                ],
            ),
            (
                &LUA,
                &[
                    "arguments",
                    "content",
                    "field",
                    "left",
                    "name",
                    "operator",
                    "right",
                    "start",
                    "table",
                ],
            ),
        ];
        for (fields, names) in read {
            for n in names {
                assert!(matches!(fields.by_name(n), Some(id) if id != 0), "{n}");
            }
        }
        assert_eq!(RUST.by_name("nope"), None);
        assert_eq!(
            LUA.quoted_start, 0,
            "a field the grammar lacks finds no child"
        );
    }
}
