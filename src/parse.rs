//! Parsing: tree-sitter grammars, and Lua parsed in place inside host
//! strings.
//!
//! Invariant: nothing here recurses over a tree. Walks use a
//! [`tree_sitter::TreeCursor`] and loops, so input depth cannot overflow the
//! stack.

use crate::facts::Lang;
use tree_sitter::{Language, Node, Parser, Range, Tree};

pub fn language(lang: Lang) -> Language {
    match lang {
        Lang::Elixir => tree_sitter_elixir::LANGUAGE.into(),
        Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        Lang::Lua => tree_sitter_lua::LANGUAGE.into(),
    }
}

/// A parser per language, reused across files on one thread.
pub struct Parsers {
    elixir: Parser,
    rust: Parser,
    lua: Parser,
}

/// Parsing gives up on one file after this long plus
/// [`PARSE_MICROS_PER_MIB`] per MiB of input, so that no input hangs a run
/// while a large file (parsing is linear, about 0.7 s per MiB of minified
/// Lua) still finishes. Files are size-limited before this point, so only
/// pathological inputs reach it.
const PARSE_TIMEOUT_MICROS: u64 = 20_000_000;
const PARSE_MICROS_PER_MIB: u64 = 2_000_000;

impl Parsers {
    pub fn new() -> Result<Parsers, String> {
        let make = |lang: Lang| -> Result<Parser, String> {
            let mut p = Parser::new();
            p.set_language(&language(lang))
                .map_err(|e| format!("cannot load the {} grammar: {e}", lang.name()))?;
            Ok(p)
        };
        Ok(Parsers {
            elixir: make(Lang::Elixir)?,
            rust: make(Lang::Rust)?,
            lua: make(Lang::Lua)?,
        })
    }

    fn parser(&mut self, lang: Lang) -> &mut Parser {
        match lang {
            Lang::Elixir => &mut self.elixir,
            Lang::Rust => &mut self.rust,
            Lang::Lua => &mut self.lua,
        }
    }

    /// Parses a whole file. `None` only when parsing was cancelled (timeout).
    pub fn parse(&mut self, lang: Lang, text: &[u8]) -> Option<Tree> {
        let parser = self.parser(lang);
        parse_with_deadline(parser, text)
    }

    /// Parses the Lua held in pieces of a host file, in place: `ranges` are
    /// byte ranges of `host` (string content and escapes, without
    /// interpolations). Every node of the result is in host coordinates.
    pub fn parse_lua_in(&mut self, host: &[u8], ranges: &[(usize, usize)]) -> Option<Tree> {
        let ranges = to_ts_ranges(host, ranges);
        if ranges.is_empty() {
            return None;
        }
        let parser = &mut self.lua;
        if parser.set_included_ranges(&ranges).is_err() {
            return None;
        }
        let tree = parse_with_deadline(parser, host);
        // Ranges stay on the parser; reset them for the next user.
        let _ = parser.set_included_ranges(&[]);
        tree
    }
}

fn parse_with_deadline(parser: &mut Parser, text: &[u8]) -> Option<Tree> {
    let start = std::time::Instant::now();
    let budget = PARSE_TIMEOUT_MICROS + (text.len() as u64 >> 20) * PARSE_MICROS_PER_MIB;
    let mut callback = |_: &tree_sitter::ParseState| {
        if start.elapsed().as_micros() as u64 > budget {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut callback);
    let len = text.len();
    let tree = parser.parse_with_options(
        &mut |i, _| if i < len { &text[i..] } else { &[] as &[u8] },
        None,
        Some(options),
    );
    parser.reset();
    tree
}

/// Converts byte ranges to tree-sitter ranges (sorted, non-overlapping,
/// non-empty), computing row/column points.
fn to_ts_ranges(host: &[u8], ranges: &[(usize, usize)]) -> Vec<Range> {
    let mut sorted: Vec<(usize, usize)> = ranges
        .iter()
        .copied()
        .filter(|(s, e)| s < e && *e <= host.len())
        .collect();
    sorted.sort_unstable();
    let mut out: Vec<Range> = Vec::with_capacity(sorted.len());
    let mut row = 0usize;
    let mut line_start = 0usize;
    let mut pos = 0usize;
    let mut point_at = |target: usize| {
        while pos < target {
            if host[pos] == b'\n' {
                row += 1;
                line_start = pos + 1;
            }
            pos += 1;
        }
        tree_sitter::Point {
            row,
            column: target - line_start,
        }
    };
    let mut last_end = 0usize;
    for (s, e) in sorted {
        let s = s.max(last_end);
        if s >= e {
            continue;
        }
        let sp = point_at(s);
        let ep = point_at(e);
        out.push(Range {
            start_byte: s,
            end_byte: e,
            start_point: sp,
            end_point: ep,
        });
        last_end = e;
    }
    out
}

/// Visits every node of the subtree rooted at `root` in document order,
/// without recursion. `visit` returns whether to descend into the node.
pub fn walk<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let descend = visit(node);
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Byte ranges of syntax errors (`ERROR` and missing nodes) in a tree, at
/// most `limit` of them.
pub fn error_ranges(root: Node<'_>, limit: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !root.has_error() {
        return out;
    }
    walk(root, |n| {
        if out.len() >= limit {
            return false;
        }
        if n.is_error() || n.is_missing() {
            out.push((n.start_byte(), n.end_byte()));
            return false;
        }
        n.has_error()
    });
    out
}

/// The source text of a node (lossy when the bytes are not UTF-8).
pub fn text<'a>(node: Node<'_>, src: &'a [u8]) -> std::borrow::Cow<'a, str> {
    let s = node.start_byte().min(src.len());
    let e = node.end_byte().min(src.len()).max(s);
    String::from_utf8_lossy(&src[s..e])
}

/// The named children of a node, collected (tree-sitter's iterator borrows a
/// cursor, which is awkward in extractors).
pub fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// All children, named or not.
pub fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Grammars carry their own ABI version and cargo cannot see a mismatch:
    /// only loading them at run time proves they fit this tree-sitter.
    #[test]
    fn every_grammar_loads_and_parses() {
        let mut p = Parsers::new().expect("grammars load");
        for (lang, src, root) in [
            (Lang::Elixir, "defmodule A do\nend\n", "source"),
            (Lang::Rust, "fn main() {}\n", "source_file"),
            (Lang::Lua, "local x = 1\n", "chunk"),
        ] {
            let tree = p.parse(lang, src.as_bytes()).expect("parses");
            assert_eq!(tree.root_node().kind(), root, "{lang:?}");
            assert!(!tree.root_node().has_error(), "{lang:?}");
        }
    }

    #[test]
    fn lua_in_place_keeps_host_coordinates() {
        let host = b"@s \"\"\"\nredis.call('HSET', KEYS[1], 'state', 'x')\n\"\"\"\n";
        let start = 7;
        let end = host.len() - 5;
        let mut p = Parsers::new().unwrap();
        let tree = p.parse_lua_in(host, &[(start, end)]).unwrap();
        let mut found = None;
        walk(tree.root_node(), |n| {
            if n.kind() == "string_content" && text(n, host) == "state" {
                found = Some(n.start_byte());
            }
            true
        });
        let at = found.expect("the field string is parsed");
        assert_eq!(&host[at..at + 5], b"state");
    }

    #[test]
    fn walk_survives_deep_nesting() {
        let depth = 50_000;
        let src = format!("local x = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(Lang::Lua, src.as_bytes()).unwrap();
        let mut count = 0usize;
        walk(tree.root_node(), |_| {
            count += 1;
            true
        });
        assert!(count > depth);
    }
}
