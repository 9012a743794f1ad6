//! Parsing an editor's buffer from its last version's tree: the old tree
//! is told where the two texts differ (their common prefix and suffix), and
//! the parser reuses what did not change. The tree is the one a parse from
//! scratch gives (`tests` below compare them).

use tree_sitter::{Point, Tree};

use super::{attempt, too_deep, Budget, Lang, Parsed, Parsers};

/// A text and its tree, kept to parse the next version of the text
/// incrementally ([`Parsers::parse_bounded_from`]).
pub struct OldTree {
    pub lang: Lang,
    pub text: Vec<u8>,
    pub tree: Tree,
}

/// The edit that turns `old` into `new`: what lies between their common
/// prefix and their common suffix.
fn edit_between(old: &[u8], new: &[u8]) -> tree_sitter::InputEdit {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    tree_sitter::InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point_at(old, prefix),
        old_end_position: point_at(old, old_end),
        new_end_position: point_at(new, new_end),
    }
}

/// The row and byte column of `offset` in `text`.
fn point_at(text: &[u8], offset: usize) -> Point {
    let before = &text[..offset];
    let row = memchr::memchr_iter(b'\n', before).count();
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    Point::new(row, offset - line_start)
}

impl Parsers {
    /// [`Parsers::parse_bounded`] of a text that was `old` a moment ago
    /// (an editor's buffer): the old tree, told where the texts differ
    /// (their common prefix and suffix), lets the parser reuse what did
    /// not change. The tree is the one a parse from scratch gives; when
    /// the attempt does not finish, the text is parsed from scratch.
    pub fn parse_bounded_from(&mut self, lang: Lang, text: &[u8], old: Option<&OldTree>) -> Parsed {
        let Some(old) = old.filter(|o| o.lang == lang) else {
            return self.parse_bounded(lang, text);
        };
        if too_deep(lang, text).is_some() {
            return self.parse_bounded(lang, text);
        }
        let mut tree = old.tree.clone();
        tree.edit(&edit_between(&old.text, text));
        let budget = Budget::of(text.len());
        let first = attempt(self.parser(lang), text, budget, Some(&tree));
        match first.tree {
            Some(tree) => {
                let parsed = Parsed {
                    tree: Some(tree),
                    checked: text.len(),
                };
                self.trusted(lang, text, parsed)
            }
            None => self.parse_bounded(lang, text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text parsed from its last version's tree gives the tree a parse
    /// from scratch gives: edits at the start, in the middle (across
    /// lines) and at the end, growing and shrinking the text, breaking and
    /// mending its syntax, in each language. The edit is where the texts
    /// differ.
    #[test]
    fn an_incremental_parse_gives_the_tree_of_a_fresh_one() {
        let cases: [(Lang, &str, &[&str]); 3] = [
            (
                Lang::Elixir,
                "defmodule M do\n  def f(c), do: Redix.command(c, [\"GET\", \"k\"])\nend\n",
                &[
                    "# hi\ndefmodule M do\n  def f(c), do: Redix.command(c, [\"GET\", \"k\"])\nend\n",
                    "defmodule M do\n  def f(c), do: Redix.command(c, [\"HGET\", \"k\", \"f\"])\nend\n",
                    "defmodule M do\n  def f(c), do: Redix.command(c, [\"GET\", \"k\"\nend\n",
                    "defmodule M do\nend\n",
                    "defmodule M do\n  def f(c), do: Redix.command(c, [\"GET\", \"k\"])\nend\n# bye\n",
                ],
            ),
            (
                Lang::Rust,
                "fn f(c: &mut C) {\n    redis::cmd(\"GET\").arg(\"k\");\n}\n",
                &[
                    "fn f(c: &mut C) {\n    redis::cmd(\"GET\").arg(\"k\").arg(1);\n}\n",
                    "fn f(c: &mut C) {\n    redis::cmd(\"GET\").arg(\"k\"\n}\n",
                    "fn g() {}\nfn f(c: &mut C) {\n    redis::cmd(\"GET\").arg(\"k\");\n}\n",
                    "",
                ],
            ),
            (
                Lang::Lua,
                "local k = KEYS[1]\nreturn redis.call('GET', k)\n",
                &[
                    "local k = KEYS[2]\nreturn redis.call('GET', k)\n",
                    "local k = KEYS[1]\nreturn redis.call('GET', k\n",
                    "-- x\nlocal k = KEYS[1]\nreturn redis.call('GET', k)\n-- y\n",
                ],
            ),
        ];
        let mut p = Parsers::new().unwrap();
        for (lang, first, versions) in cases {
            let parsed = p.parse_bounded(lang, first.as_bytes());
            let mut old = OldTree {
                lang,
                text: first.as_bytes().to_vec(),
                tree: parsed.tree.unwrap(),
            };
            for v in versions {
                let fresh = p.parse_bounded(lang, v.as_bytes()).tree.unwrap();
                let from = p.parse_bounded_from(lang, v.as_bytes(), Some(&old));
                assert_eq!(from.checked, v.len());
                let tree = from.tree.unwrap();
                assert_eq!(
                    tree.root_node().to_sexp(),
                    fresh.root_node().to_sexp(),
                    "{lang:?} {v:?}"
                );
                assert_eq!(tree.root_node().end_byte(), v.len());
                old = OldTree {
                    lang,
                    text: v.as_bytes().to_vec(),
                    tree,
                };
            }
        }
    }

    /// The edit between two texts spans exactly where they differ, with
    /// rows and byte columns.
    #[test]
    fn the_edit_is_where_the_texts_differ() {
        let e = edit_between(b"ab\ncd\nef", b"ab\ncXd\nef");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (4, 4, 5));
        assert_eq!(e.start_position, Point::new(1, 1));
        assert_eq!(e.new_end_position, Point::new(1, 2));
        let e = edit_between(b"aaa", b"aa");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (2, 3, 2));
        let e = edit_between(b"same", b"same");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (4, 4, 4));
    }
}
