//! Parsing: tree-sitter grammars, and Lua parsed in place inside host
//! strings.
//!
//! Invariant: nothing here recurses over a tree. Walks use a
//! [`tree_sitter::TreeCursor`] and loops, so input depth cannot overflow the
//! stack.

use crate::facts::Lang;
use std::cell::Cell;

pub mod alloc;
mod climb;
mod incremental;
pub mod nesting;

pub use climb::Climb;
pub use incremental::OldTree;

use tree_sitter::{Language, Node, Parser, Tree};

pub fn language(lang: Lang) -> Language {
    match lang {
        Lang::Elixir => tree_sitter_elixir::LANGUAGE.into(),
        Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        Lang::Lua => tree_sitter_lua::LANGUAGE.into(),
        Lang::Python => tree_sitter_python::LANGUAGE.into(),
        Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Lang::Go => tree_sitter_go::LANGUAGE.into(),
        Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
    }
}

/// A parser per language, reused across files on one thread.
pub struct Parsers {
    elixir: Parser,
    rust: Parser,
    lua: Parser,
    python: Parser,
    javascript: Parser,
    typescript: Parser,
    tsx: Parser,
    go: Parser,
    ruby: Parser,
}

/// The parse of one text under a budget ([`Parsers::parse_bounded`]).
pub struct Parsed {
    /// The tree of `text[..checked]`; `None` when nothing could be parsed.
    pub tree: Option<Tree>,
    /// How much of the text the tree covers: the whole text, or, when the
    /// budget ran out, a prefix ending at a line start. `text[checked..]`
    /// was not checked.
    pub checked: usize,
}

/// A parse may read the text through the lexer at most this many times
/// over (plus [`SERVE_SLACK`]). Real code is read 1 to 2 times over; the
/// Lua grammar's block-string scanner, in error recovery, rescans to the end
/// of the file at every token (25 KB of junk: 3,000 times over, 1 s), and
/// this is where such a parse stops: a bound that does not depend on the
/// machine's speed or load.
const SERVE_FACTOR: u64 = 16;
const SERVE_SLACK: u64 = 1 << 20;
/// The lexer reads the text in pieces of this size.
const CHUNK: usize = 4096;
/// The CPU time a parse may take: [`CPU_BASE_NANOS`] plus
/// [`CPU_NANOS_PER_MIB`] per MiB. Valid code parses at 0.1 to 0.7 s per MiB
/// (minified Lua is the slowest measured); some invalid input makes the
/// parser's stack versions multiply (100 KB of `a + ` in Elixir: 3 s). The
/// thread's CPU time, not the wall clock, so that a loaded machine does not
/// cut a parse short.
const CPU_BASE_NANOS: u64 = 200_000_000;
const CPU_NANOS_PER_MIB: u64 = 1_000_000_000;
/// The CPU budget is set for a release build. A debug build (the tests')
/// runs the allocator's counting and the progress callback unoptimized,
/// and a virtual machine's thread CPU time includes what its host took:
/// with the release budget, a 2 MB minified Lua file was cut in a clean
/// CI run (its parse takes about half the budget there when the host is
/// quiet). Three times the budget in a debug build.
const CPU_DEBUG_FACTOR: u64 = if cfg!(debug_assertions) { 3 } else { 1 };
/// The memory a parse may hold: [`MEM_BASE`] plus [`MEM_PER_BYTE`] per byte
/// of input, counted by [`alloc`]. A tree takes 13 to 55 bytes per byte of
/// the largest files of the real corpus, 100 to 140 for dense valid code
/// made up (minified Lua, a list of one-letter names), and 250 for the
/// densest (a Lua table or Rust array of one-digit numbers, `1,1,1,`); junk
/// that multiplies the parser's stack versions held 900 (2 GB for 1 MB of
/// Elixir), and so does a valid chain of thousands of `a + a` in Elixir.
const MEM_BASE: i64 = 48 << 20;
const MEM_PER_BYTE: i64 = 320;

/// What one parse attempt may spend.
#[derive(Clone, Copy)]
struct Budget {
    served: u64,
    cpu_nanos: u64,
    bytes: i64,
}

impl Budget {
    fn of(len: usize) -> Budget {
        let len = len as u64;
        Budget {
            served: SERVE_FACTOR * len + SERVE_SLACK,
            cpu_nanos: CPU_DEBUG_FACTOR * (CPU_BASE_NANOS + ((len * CPU_NANOS_PER_MIB) >> 20)),
            bytes: MEM_BASE.saturating_add((len as i64).saturating_mul(MEM_PER_BYTE)),
        }
    }

    fn part(self, num: u64, den: u64) -> Budget {
        Budget {
            served: self.served * num / den,
            cpu_nanos: self.cpu_nanos * num / den,
            bytes: self.bytes / den as i64 * num as i64,
        }
    }
}

/// How one attempt went: its tree if it finished within the budget, and
/// the parser's position when a quarter of the budget was spent.
struct Attempt {
    tree: Option<Tree>,
    quarter_offset: usize,
}

impl Parsers {
    pub fn new() -> Result<Parsers, String> {
        alloc::install();
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
            python: make(Lang::Python)?,
            javascript: make(Lang::JavaScript)?,
            typescript: make(Lang::TypeScript)?,
            tsx: make(Lang::Tsx)?,
            go: make(Lang::Go)?,
            ruby: make(Lang::Ruby)?,
        })
    }

    fn parser(&mut self, lang: Lang) -> &mut Parser {
        match lang {
            Lang::Elixir => &mut self.elixir,
            Lang::Rust => &mut self.rust,
            Lang::Lua => &mut self.lua,
            Lang::Python => &mut self.python,
            Lang::JavaScript => &mut self.javascript,
            Lang::TypeScript => &mut self.typescript,
            Lang::Tsx => &mut self.tsx,
            Lang::Go => &mut self.go,
            Lang::Ruby => &mut self.ruby,
        }
    }

    /// Parses a whole file; `None` when it cannot be parsed within its
    /// budget ([`Parsers::parse_bounded`] says how much could).
    pub fn parse(&mut self, lang: Lang, text: &[u8]) -> Option<Tree> {
        let parsed = self.parse_bounded(lang, text);
        (parsed.checked == text.len())
            .then_some(parsed.tree)
            .flatten()
    }

    /// Parses a text within a budget (see [`SERVE_FACTOR`] and
    /// [`CPU_BASE_NANOS`]). When the budget runs out, the text up to the
    /// line start before where the parser stood a quarter of the way in is
    /// parsed again, with half the budget; if that runs out too, nothing is
    /// checked. So a parse costs at most one and a half budgets.
    ///
    /// An Elixir text that nests deeper than [`nesting::MAX_NESTING`] is
    /// parsed only up to the line where it does (see [`nesting`]).
    ///
    /// A tree of the other languages that nests deeper than
    /// [`nesting::MAX_TREE_DEPTH`], or that the grammar misreads (see
    /// [`untrusted`]), is parsed again up to the line where it does.
    pub fn parse_bounded(&mut self, lang: Lang, text: &[u8]) -> Parsed {
        let parsed = match too_deep(lang, text).map(|at| line_start_before(text, at)) {
            Some(0) => Parsed {
                tree: None,
                checked: 0,
            },
            Some(cut) => self.parse_budgeted(lang, &text[..cut]),
            None => self.parse_budgeted(lang, text),
        };
        self.trusted(lang, text, parsed)
    }

    fn parse_budgeted(&mut self, lang: Lang, text: &[u8]) -> Parsed {
        let budget = Budget::of(text.len());
        let parser = self.parser(lang);
        let first = attempt(parser, text, budget, None);
        if let Some(tree) = first.tree {
            return Parsed {
                tree: Some(tree),
                checked: text.len(),
            };
        }
        let cut = line_start_before(text, first.quarter_offset);
        if cut == 0 {
            return Parsed {
                tree: None,
                checked: 0,
            };
        }
        let second = attempt(parser, &text[..cut], budget.part(1, 2), None);
        match second.tree {
            Some(tree) => Parsed {
                tree: Some(tree),
                checked: cut,
            },
            None => Parsed {
                tree: None,
                checked: 0,
            },
        }
    }
}

/// Where the blocks of `text` first nest too deep to parse (Elixir's: see
/// [`nesting`]).
fn too_deep(lang: Lang, text: &[u8]) -> Option<usize> {
    match lang {
        Lang::Elixir => nesting::too_deep_elixir(text),
        Lang::Rust | Lang::Lua => None,
        Lang::Python | Lang::Go | Lang::Ruby => None,
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => None,
    }
}

/// What makes a finished tree of `lang` one not to read past
/// ([`nesting::untrusted_from`]): its depth, in the languages whose
/// extractors climb from node to node; in Ruby, a heredoc in another's.
fn untrusted(lang: Lang) -> Option<nesting::Untrusted> {
    let (depth, heredoc_in_heredoc) = match lang {
        Lang::Elixir | Lang::Rust | Lang::Lua => return None,
        Lang::Ruby => (true, true),
        Lang::Python | Lang::Go => (true, false),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => (true, false),
    };
    Some(nesting::Untrusted {
        depth,
        heredoc_in_heredoc,
    })
}

/// The start of the line holding `at` (0 when it is on the first line).
fn line_start_before(text: &[u8], at: usize) -> usize {
    let at = at.min(text.len());
    memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1)
}

/// One parse of `text` that stops when `budget` is spent: the lexer is fed
/// [`CHUNK`]-byte pieces and counted, and the end of the text is signalled
/// early once it has been served `budget.served` bytes (the progress
/// callback then cancels, and a tree finished on that false end is dropped).
/// The parser's position is known from the progress callback and, when the
/// lexer rescans (no callback may come then), from where each rescan
/// starts: a read that does not continue the previous one.
fn attempt(parser: &mut Parser, text: &[u8], budget: Budget, old: Option<&Tree>) -> Attempt {
    // The wall clock first: the CPU time since `start` is then never more
    // than the wall time since `started` (`spent_cpu`).
    let started = std::time::Instant::now();
    let start = thread_cpu_nanos();
    let held_before = alloc::live();
    let held = || alloc::live().saturating_sub(held_before).max(0);
    let len = text.len();
    let quarter = budget.part(1, 4);
    let served = Cell::new(0u64);
    let exhausted = Cell::new(false);
    let position = Cell::new(0usize);
    let quarter_offset: Cell<Option<usize>> = Cell::new(None);
    let note_quarter = |cpu: u64, mem: i64| {
        if quarter_offset.get().is_none()
            && (served.get() >= quarter.served || cpu >= quarter.cpu_nanos || mem >= quarter.bytes)
        {
            quarter_offset.set(Some(position.get()));
        }
    };
    let mut callback = |state: &tree_sitter::ParseState| {
        position.set(position.get().max(state.current_byte_offset()));
        let cpu = spent_cpu(start, started, quarter.cpu_nanos);
        let mem = held();
        note_quarter(cpu, mem);
        let at = position.get();
        if exhausted.get()
            || cpu > budget.cpu_nanos
            || mem > budget.bytes
            || hopeless(cpu, at, len, budget.cpu_nanos)
            || hopeless(mem.unsigned_abs(), at, len, budget.bytes.unsigned_abs())
        {
            exhausted.set(true);
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut callback);
    let previous_end = Cell::new(0usize);
    let mut read = |i: usize, _: tree_sitter::Point| -> &[u8] {
        if i >= len {
            return &[];
        }
        if exhausted.get() {
            // The end of the text is signalled early, except to a read of
            // bytes already served: the lexer reads again from the start
            // of a character cut at a chunk's end, and decodes what it gets
            // without checking that it is empty (an empty answer there
            // made tree-sitter read a null pointer: a crash found by
            // fuzzing, `tests/fuzz_regressions/lua-cut-char-at-budget.lua`).
            return served_again(text, i, previous_end.get());
        }
        if i != previous_end.get() {
            position.set(position.get().max(i));
        }
        let end = (i + CHUNK).min(len);
        previous_end.set(end);
        served.set(served.get() + (end - i) as u64);
        let mem = held();
        note_quarter(0, mem);
        if served.get() > budget.served || mem > budget.bytes {
            exhausted.set(true);
        }
        &text[i..end]
    };
    let tree = parser.parse_with_options(&mut read, old, Some(options));
    let tree = if exhausted.get() {
        discard(parser, tree);
        None
    } else {
        parser.reset();
        tree
    };
    Attempt {
        tree,
        quarter_offset: quarter_offset.get().unwrap_or(position.get()),
    }
}

/// The CPU time this thread has spent since `start` (`thread_cpu_nanos`),
/// or, while less wall time than `below` has passed since `started`, that
/// wall time: a thread cannot have spent more CPU time than that, and every
/// test of the budget is false below a quarter of it (`below`). The
/// thread's CPU clock is a system call (0.7 us on this project's virtual
/// machine), which the progress callback made every hundred steps of the
/// parser: 20,000 calls in a run that parses BullMQ, whose CPU time fell
/// by about 5% without them. The wall clock is read without one (vDSO).
fn spent_cpu(start: u64, started: std::time::Instant, below: u64) -> u64 {
    let wall = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
    if wall < below {
        wall
    } else {
        thread_cpu_nanos().saturating_sub(start)
    }
}

/// What a read at `i` gets once the budget ran out: the bytes already
/// served from `i` (never empty below `served_end`: see `attempt`), else
/// the end of the text.
fn served_again(text: &[u8], i: usize, served_end: usize) -> &[u8] {
    let end = served_end.min(text.len());
    if i < end {
        &text[i..end]
    } else {
        &[]
    }
}

/// Whether an attempt that has `spent` of a `budget` (CPU time or memory)
/// to reach `position` of `len` bytes cannot finish within it: after a
/// quarter of the budget, at its rate so far it would need more than
/// [`HOPELESS`] times the whole. Stopping then gives the same cut as running
/// the budget out (the cut is where the parser stood at a quarter), for a
/// quarter of the cost: 1 MB of Elixir junk that multiplies the parser's
/// stack versions holds about 900 bytes per byte read (2 GB and 20 s to
/// parse whole), and held 400 MB when its whole time budget was spent on
/// it. Valid code stays well inside: see [`MEM_PER_BYTE`] and
/// [`CPU_NANOS_PER_MIB`].
fn hopeless(spent: u64, position: usize, len: usize, budget: u64) -> bool {
    const HOPELESS: u128 = 2;
    if spent < budget / 4 {
        return false;
    }
    let projected = u128::from(spent) * len as u128 / position.max(1) as u128;
    projected > HOPELESS * u128::from(budget)
}

/// Drops `value` on another thread: freeing a large structure piece by
/// piece (a parser's stacks after a hostile input, the document of many
/// findings) is time the run need not wait for, and a process that exits
/// first never frees it at all. If no thread can be started, `value` is
/// dropped here.
pub fn free_later<T: Send + 'static>(value: T) {
    // Under the fuzzer, in place: LeakSanitizer checks an input's memory
    // when it ends, and a free still under way on another thread (or the
    // thread itself) reads as a leak.
    if cfg!(fuzzing) {
        drop(value);
        return;
    }
    let _ = std::thread::Builder::new()
        .name("wirelint-free".into())
        .spawn(move || drop(value));
}

/// Puts a fresh parser in place of one whose attempt ran out of budget, and
/// frees the old one's stacks and the tree of its false end on another
/// thread: input that multiplies the parser's stack versions leaves
/// hundreds of MB behind (1 MB of `a + ` in Elixir: 445 MB, 0.5 s to free),
/// which the run need not wait for. A process that exits first never frees
/// them at all.
fn discard(parser: &mut Parser, tree: Option<Tree>) {
    let mut fresh = Parser::new();
    if let Some(lang) = parser.language() {
        if fresh.set_language(&lang).is_err() {
            // Cannot happen (the old parser took the same grammar); keep the
            // old parser, reset in place.
            parser.reset();
            return;
        }
    }
    let old = std::mem::replace(parser, fresh);
    free_later((old, tree));
}

/// The CPU time this thread has used, in nanoseconds (the wall clock where
/// the platform has no per-thread clock).
fn thread_cpu_nanos() -> u64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` through a valid
        // pointer to a local; CLOCK_THREAD_CPUTIME_ID is a valid clock.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
        if ok {
            return ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64;
        }
    }
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    EPOCH
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
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

    /// Below the mark, the wall time stands for the CPU time, and is never
    /// less than it; at or past it, the CPU time is read.
    #[test]
    fn spent_cpu_reads_the_cpu_clock_only_past_the_mark() {
        let started = std::time::Instant::now();
        let start = thread_cpu_nanos();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let cpu = spent_cpu(start, started, 0);
        let wall = spent_cpu(start, started, u64::MAX);
        let wall_after = u64::try_from(started.elapsed().as_nanos()).unwrap();
        assert!(cpu > 0);
        assert!(cpu <= wall_after, "{cpu} > {wall_after}");
        assert!(wall <= wall_after);
        // The wall time, not the CPU clock: past the busy loop, and never
        // behind the CPU time read before it.
        assert!(wall >= cpu, "{wall} < {cpu}");
    }

    /// After the budget, a read of bytes already served is answered with
    /// them (tree-sitter decodes a retried character's chunk without
    /// checking its size), and a read past them ends the text.
    #[test]
    fn a_reread_after_the_budget_is_never_empty() {
        let text = "ab\u{00e9}cd".as_bytes();
        assert_eq!(served_again(text, 2, 4), &text[2..4]);
        assert_eq!(served_again(text, 3, 4), &text[3..4]);
        assert!(served_again(text, 4, 4).is_empty());
        assert!(served_again(text, 6, 4).is_empty());
        assert_eq!(served_again(text, 5, 99), &text[5..]);
    }

    /// `Climb::parent` answers what `Node::parent` answers, for every node
    /// of trees with missing nodes, empty nodes and errors, asked in
    /// document order, in reverse and climbing, and for a node of another
    /// tree.
    #[test]
    fn climb_agrees_with_parent() {
        let mut p = Parsers::new().expect("grammars load");
        // Wide nodes too: a chunk of 100 statements, a list of 100 items.
        let wide_lua = format!("{}f(,)\n", "local a = 1\n".repeat(100));
        let wide_ex = format!("x = [{}1\n", "a, ".repeat(100));
        for (lang, src) in [
            (Lang::Lua, wide_lua.as_str()),
            (Lang::Elixir, wide_ex.as_str()),
            (
                Lang::Elixir,
                "defmodule A do\n  def f(c), do: [[\"GET\", k] | t] |> g(\n",
            ),
            (
                Lang::Rust,
                "fn f() { if a { v.push(\"x\"); m!(a, b) } let = ; }\n",
            ),
            (
                Lang::Lua,
                "local t = {redis.call('GET', KEYS[1]), f(,) .. 'x'}\n",
            ),
        ] {
            let tree = p.parse(lang, src.as_bytes()).expect("parses");
            let root = tree.root_node();
            let mut nodes = Vec::new();
            walk(root, |n| {
                nodes.push(n);
                true
            });
            let mut climb = Climb::new(root);
            for n in nodes.iter().chain(nodes.iter().rev()) {
                assert_eq!(climb.parent(*n), n.parent(), "{lang:?} {n:?}");
            }
            for n in &nodes {
                let mut cur = *n;
                while let Some(up) = climb.parent(cur) {
                    assert_eq!(Some(up), cur.parent(), "{lang:?} {cur:?}");
                    cur = up;
                }
                assert_eq!(cur, root);
            }
            let other = p.parse(lang, src.as_bytes()).expect("parses");
            assert_eq!(climb.missed, 0, "{lang:?}: every node found by descent");
            let leaf = other.root_node().child(0).and_then(|c| c.child(0)).unwrap();
            assert_eq!(climb.parent(leaf), leaf.parent());
            assert_eq!(climb.missed, 1);
        }
    }

    /// Grammars carry their own ABI version and cargo cannot see a mismatch:
    /// only loading them at run time proves they fit this tree-sitter.
    #[test]
    fn every_grammar_loads_and_parses() {
        let mut p = Parsers::new().expect("grammars load");
        for (lang, src, root) in [
            (Lang::Elixir, "defmodule A do\nend\n", "source"),
            (Lang::Rust, "fn main() {}\n", "source_file"),
            (Lang::Lua, "local x = 1\n", "chunk"),
            (Lang::JavaScript, "const a = 1;\n", "program"),
            (Lang::TypeScript, "const a: number = 1;\n", "program"),
            (Lang::Tsx, "const a = <b>{1}</b>;\n", "program"),
            (Lang::Go, "package a\n\nfunc f() {}\n", "source_file"),
            (Lang::Ruby, "def f; end\n", "program"),
        ] {
            let tree = p.parse(lang, src.as_bytes()).expect("parses");
            assert_eq!(tree.root_node().kind(), root, "{lang:?}");
            assert!(!tree.root_node().has_error(), "{lang:?}");
        }
    }

    /// Junk that makes the Lua scanner rescan to the end of the file at
    /// every token: the read budget stops the parse (in a fraction of a
    /// second, not seconds), and the lines before the junk are parsed again
    /// and checked; the junk is not.
    #[test]
    fn a_parse_over_budget_keeps_the_lines_before() {
        let head = "redis.call('GET', KEYS[1])\n".repeat(10);
        let text = format!("{head}{}\n", "a + ".repeat(50_000));
        let mut p = Parsers::new().unwrap();
        let parsed = p.parse_bounded(Lang::Lua, text.as_bytes());
        assert_eq!(parsed.checked, head.len());
        let tree = parsed.tree.expect("the head parses");
        assert!(!tree.root_node().has_error());
        assert!(p.parse(Lang::Lua, text.as_bytes()).is_none());
        // Valid code of the same size parses whole.
        let valid = "local a = 1 + 2\n".repeat(12_500);
        assert_eq!(
            p.parse_bounded(Lang::Lua, valid.as_bytes()).checked,
            valid.len()
        );
    }

    /// Elixir junk that multiplies the parser's stack versions (900 bytes
    /// held per byte read) is stopped by the memory budget alone (time and
    /// reads unbounded here): deterministic, whatever the machine's load.
    /// Dense valid code (a Lua table of one-digit numbers, the densest tree
    /// measured) parses whole under the same budget.
    #[test]
    fn a_parse_that_holds_too_much_memory_stops() {
        let memory_only = |bytes: i64| Budget {
            served: u64::MAX,
            cpu_nanos: u64::MAX,
            bytes,
        };
        let mut p = Parsers::new().unwrap();
        let junk = format!("defmodule J do\nend\n{}", "a + ".repeat(150_000));
        let stopped = attempt(
            p.parser(Lang::Elixir),
            junk.as_bytes(),
            memory_only(32 << 20),
            None,
        );
        assert!(stopped.tree.is_none());
        assert!(stopped.quarter_offset < junk.len() / 4, "stopped early");
        let dense = format!("local t = {{{}1}}\n", "1,".repeat(50_000));
        let budget = memory_only(MEM_BASE + dense.len() as i64 * MEM_PER_BYTE);
        let before = alloc::live();
        let whole = attempt(p.parser(Lang::Lua), dense.as_bytes(), budget, None);
        let tree = whole.tree.expect("dense valid code parses whole");
        assert!(!tree.root_node().has_error());
        let held = alloc::live() - before;
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(
                held > dense.len() as i64,
                "the tree's blocks are counted: {held}"
            );
        }
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
