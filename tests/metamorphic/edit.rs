//! The edit model of the rewrites, and how a byte of the original file is
//! found again in the rewritten tree.
//!
//! A rewrite never edits text by pattern: it parses the file with the
//! grammar, finds nodes by kind and field, and describes the new file as a
//! list of [`Piece`]s: byte ranges of the original file (kept in place, or
//! moved) and new text. [`Edits`] builds that list from replacements of
//! original ranges; a replacement may itself hold original ranges (code
//! that moves: an expression extracted into a `fn` keeps its bytes, in
//! another place). A rewrite may also create files (a module moved out).
//!
//! The mapping ([`Rewritten::map`]), which the harness applies to the
//! original run's findings and linked calls before comparing:
//!
//! 1. a byte kept in place maps to its new offset;
//! 2. else a byte that moved (an original range inside a replacement, in the
//!    edited file or a created one) maps to where it moved, the first copy
//!    when there are several;
//! 3. else the byte was replaced: it maps to the start of its replacement.

use std::ops::Range;

use tree_sitter::{Node, Parser, Tree};

/// The languages the catalog rewrites (JavaScript and TypeScript are one:
/// the rewrites write nothing TypeScript adds, and the TypeScript grammar
/// reads both).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lang {
    Rust,
    Elixir,
    Lua,
    Go,
    Js,
    Python,
    Ruby,
}

impl Lang {
    pub fn of(path: &str) -> Option<Lang> {
        let ext = path.rsplit('.').next()?;
        match ext {
            "rs" => Some(Lang::Rust),
            "ex" | "exs" => Some(Lang::Elixir),
            "lua" => Some(Lang::Lua),
            "go" => Some(Lang::Go),
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => Some(Lang::Js),
            "py" => Some(Lang::Python),
            "rb" => Some(Lang::Ruby),
            _ => None,
        }
    }

    pub fn parse(self, src: &[u8]) -> Tree {
        let language: tree_sitter::Language = match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Elixir => tree_sitter_elixir::LANGUAGE.into(),
            Lang::Lua => tree_sitter_lua::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Js => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
        };
        let mut parser = Parser::new();
        parser.set_language(&language).expect("the grammar loads");
        parser.parse(src, None).expect("the parse completes")
    }
}

/// One file to rewrite: its path in the tree, its bytes and their tree.
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a [u8],
    pub tree: &'a Tree,
}

impl Source<'_> {
    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    pub fn text_of(&self, node: Node) -> &str {
        std::str::from_utf8(&self.text[node.byte_range()]).unwrap_or("")
    }

    /// The original bytes of `range`, as text.
    pub fn slice(&self, range: Range<usize>) -> &str {
        std::str::from_utf8(&self.text[range]).unwrap_or("")
    }

    /// Every node under the root, in document order.
    pub fn nodes(&self) -> Vec<Node<'_>> {
        descendants(self.root())
    }

    /// The indentation of the line `at` lies on.
    pub fn indent_at(&self, at: usize) -> String {
        let start = self.text[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        self.text[start..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .map(|&b| b as char)
            .collect()
    }

    /// The start of the line `at` lies on.
    pub fn line_start(&self, at: usize) -> usize {
        self.text[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
    }

    /// A sibling path of this file: its directory joined with `name`.
    pub fn sibling(&self, name: &str) -> String {
        match self.path.rfind('/') {
            Some(i) => format!("{}/{name}", &self.path[..i]),
            None => name.to_string(),
        }
    }

    /// The file name without directory and extension.
    pub fn stem(&self) -> &str {
        let name = self.path.rsplit('/').next().unwrap_or(self.path);
        name.split('.').next().unwrap_or(name)
    }
}

/// Every node under `node` (itself included), in document order, without
/// recursion.
pub fn descendants(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        out.push(n);
        let mut cursor = n.walk();
        let children: Vec<Node> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// Whether some ancestor of `node` (not itself) has one of `kinds`.
pub fn inside(node: Node, kinds: &[&str]) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        if kinds.contains(&n.kind()) {
            return true;
        }
        at = n.parent();
    }
    false
}

/// Named children of `node`.
pub fn named(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// A value the value rewrites move: its node, and the name its new holder
/// takes.
pub struct Site<'t> {
    pub node: Node<'t>,
    pub stem: String,
}

/// The distinct stems of `sites`, each with its first site.
pub fn distinct<'a, 't>(sites: &'a [Site<'t>]) -> Vec<&'a Site<'t>> {
    let mut out: Vec<&Site> = Vec::new();
    for s in sites {
        if !out.iter().any(|o| o.stem == s.stem) {
            out.push(s);
        }
    }
    out
}

/// One definition per site: `before` + the site's bytes + `after`, where
/// `{}` in either is the stem (`{U}` the stem in upper case).
pub fn each(sites: &[&Site], before: &str, after: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    for s in sites {
        let fill = |t: &str| {
            t.replace("{U}", &s.stem.to_uppercase())
                .replace("{}", &s.stem)
        };
        out.push(new(fill(before)));
        out.push(orig(s.node.byte_range()));
        out.push(new(fill(after)));
    }
    out
}

/// A part of a rewritten file.
#[derive(Clone, Debug)]
pub enum Piece {
    /// These bytes of the original file.
    Orig(Range<usize>),
    /// New text.
    New(String),
}

pub fn orig(range: Range<usize>) -> Piece {
    Piece::Orig(range)
}

pub fn new(text: impl Into<String>) -> Piece {
    Piece::New(text.into())
}

/// Replacements of original ranges, made into a rewritten file.
pub struct Edits<'a> {
    src: &'a [u8],
    reps: Vec<(Range<usize>, Vec<Piece>)>,
    created: Vec<(String, Vec<Piece>)>,
}

impl<'a> Edits<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Edits {
            src,
            reps: Vec::new(),
            created: Vec::new(),
        }
    }

    pub fn replace(&mut self, range: Range<usize>, pieces: Vec<Piece>) {
        self.reps.push((range, pieces));
    }

    pub fn replace_text(&mut self, range: Range<usize>, text: impl Into<String>) {
        self.replace(range, vec![new(text)]);
    }

    pub fn insert(&mut self, at: usize, text: impl Into<String>) {
        self.replace(at..at, vec![new(text)]);
    }

    /// A new file at `path` (relative to the tree's root).
    pub fn create(&mut self, path: String, pieces: Vec<Piece>) {
        self.created.push((path, pieces));
    }

    /// The bytes of `value` bound to `name` by a statement inserted at
    /// `at` (`open` + value + `close`, then a new line at `indent`), and
    /// `name` in their place.
    pub fn hoist(
        &mut self,
        at: usize,
        indent: &str,
        value: Range<usize>,
        open: String,
        close: &str,
        name: &str,
    ) {
        self.replace(
            at..at,
            vec![
                new(open),
                orig(value.clone()),
                new(format!("{close}\n{indent}")),
            ],
        );
        self.replace_text(value, name);
    }

    pub fn is_empty(&self) -> bool {
        self.reps.is_empty() && self.created.is_empty()
    }

    /// The rewritten file; `None` when nothing changed or two replacements
    /// overlap (the rewrite's sites must be disjoint).
    pub fn finish(mut self) -> Option<Rewritten> {
        if self.is_empty() {
            return None;
        }
        // Insertions at one offset keep their order; a replacement follows
        // the insertions at its start.
        self.reps.sort_by_key(|(r, _)| (r.start, r.end != r.start));
        let mut pieces = Vec::new();
        let mut at = 0;
        for (range, reps) in self.reps {
            if range.start < at {
                return None;
            }
            if at < range.start {
                pieces.push(Slot::kept(at..range.start));
            }
            pieces.push(Slot {
                pieces: reps,
                replaces: range.clone(),
            });
            at = range.end;
        }
        if at < self.src.len() {
            pieces.push(Slot::kept(at..self.src.len()));
        }
        Some(Rewritten {
            src: self.src.to_vec(),
            slots: pieces,
            created: self.created,
        })
    }
}

/// A span of the rewritten file: original bytes kept in place, or what
/// replaced an original range.
#[derive(Clone, Debug)]
struct Slot {
    pieces: Vec<Piece>,
    replaces: Range<usize>,
}

impl Slot {
    fn kept(range: Range<usize>) -> Self {
        Slot {
            pieces: vec![Piece::Orig(range.clone())],
            replaces: range,
        }
    }

    fn is_kept(&self) -> bool {
        matches!(&self.pieces[..], [Piece::Orig(r)] if *r == self.replaces)
    }
}

/// A rewritten file, and the files the rewrite created.
#[derive(Clone, Debug)]
pub struct Rewritten {
    src: Vec<u8>,
    slots: Vec<Slot>,
    created: Vec<(String, Vec<Piece>)>,
}

/// Where an original byte is in the rewritten tree: `None` for the edited
/// file, else a created file's path; and the offset.
pub type Place = (Option<String>, usize);

impl Rewritten {
    fn render(&self, pieces: &[Piece], out: &mut Vec<u8>) {
        for p in pieces {
            match p {
                Piece::Orig(r) => out.extend_from_slice(&self.src[r.clone()]),
                Piece::New(t) => out.extend_from_slice(t.as_bytes()),
            }
        }
    }

    /// The edited file's new bytes.
    pub fn text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for s in &self.slots {
            self.render(&s.pieces, &mut out);
        }
        out
    }

    /// The created files: path and bytes.
    pub fn created(&self) -> Vec<(String, Vec<u8>)> {
        self.created
            .iter()
            .map(|(p, pieces)| {
                let mut out = Vec::new();
                self.render(pieces, &mut out);
                (p.clone(), out)
            })
            .collect()
    }

    /// Where the original byte `at` of the edited file is now (see the
    /// module docs for the rule).
    pub fn map(&self, at: usize) -> Place {
        let mut out = 0;
        let mut starts = Vec::with_capacity(self.slots.len());
        for s in &self.slots {
            starts.push(out);
            if s.is_kept() && s.replaces.contains(&at) {
                return (None, out + at - s.replaces.start);
            }
            out += len(&s.pieces);
        }
        for (s, start) in self.slots.iter().zip(&starts) {
            if !s.is_kept() {
                if let Some(off) = find(&s.pieces, at) {
                    return (None, start + off);
                }
            }
        }
        for (path, pieces) in &self.created {
            if let Some(off) = find(pieces, at) {
                return (Some(path.clone()), off);
            }
        }
        for (s, start) in self.slots.iter().zip(&starts) {
            if s.replaces.contains(&at) {
                return (None, *start);
            }
        }
        (None, out)
    }
}

fn len(pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Orig(r) => r.len(),
            Piece::New(t) => t.len(),
        })
        .sum()
}

/// The offset within `pieces` of the original byte `at`, if they hold it.
fn find(pieces: &[Piece], at: usize) -> Option<usize> {
    let mut off = 0;
    for p in pieces {
        match p {
            Piece::Orig(r) if r.contains(&at) => return Some(off + at - r.start),
            Piece::Orig(r) => off += r.len(),
            Piece::New(t) => off += t.len(),
        }
    }
    None
}

/// The 1-based line of byte `at` in `text`.
pub fn line_of(text: &[u8], at: usize) -> usize {
    1 + text[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// The offset of the first non-blank byte of 1-based `line` in `text`.
pub fn offset_of_line(text: &[u8], line: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    start
        + text[start..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
}
