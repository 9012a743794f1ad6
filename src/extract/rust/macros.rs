//! Macros: `format!` and its kin as templates, `concat!`, `vec!`; the
//! arguments of expression-like macros walked as expressions; Redis calls
//! recovered from the tokens of macros that are not (`json!`); and
//! `macro_rules!` wrappers around `include_str!`.
//!
//! A macro's token tree is parsed again, in place, as one expression: its
//! nodes carry host-file offsets.

use crate::extract::fields::RUST as F;
use crate::extract::source::Source;
use tree_sitter::{Node, Parser, Range, Tree};

use crate::extract::push_lit;
use crate::facts::{FileId, Lang, Seg, Span, Template, Value};
use crate::parse::{named_children, walk};

use super::client::is_typed_command;
use super::paths::path_segments;
use super::strings::Unit;
use super::values::append_value;
use super::{
    is_comment, node_key, Cx, MAX_DEPTH, MAX_MACRO_NESTING, REPARSE_FACTOR, REPARSE_SLACK,
};

/// Macros whose arguments are a format string and its arguments.
const FORMAT_MACROS: &[&str] = &[
    "format",
    "format_args",
    "write",
    "writeln",
    "print",
    "println",
    "eprint",
    "eprintln",
    "panic",
    "bail",
    "anyhow",
    "info",
    "warn",
    "error",
    "debug",
    "trace",
    "unreachable",
    "todo",
    "unimplemented",
    "ensure",
    "eyre",
];

/// A `format!`'s format string and its arguments.
struct FormatArgs<'t> {
    fmt: Node<'t>,
    positional: Vec<Node<'t>>,
    /// `name = value` arguments.
    named: Vec<(String, Node<'t>)>,
}

/// Literal characters of a format string between two placeholders, and the
/// bytes they span.
#[derive(Default)]
struct LitRun {
    text: String,
    span: Option<(usize, usize)>,
}

impl LitRun {
    fn push(&mut self, ch: char, s: usize, e: usize) {
        self.text.push(ch);
        self.span = Some(match self.span {
            Some((a, _)) => (a, e),
            None => (s, e),
        });
    }

    /// Ends the run: its text becomes a literal segment.
    fn flush(&mut self, segs: &mut Vec<Seg>, file: FileId) {
        if let Some((s, e)) = self.span.take() {
            push_lit(segs, &self.text, Span::new(file, s, e));
        }
        self.text.clear();
    }
}

impl<'s, 'r, 'p> Cx<'s, 'r, 'p> {
    /// A macro met by the walk: a script (`include_str!` or a wrapper), a
    /// template (`format!`, `concat!`), or arguments to walk as expressions.
    /// Returns whether to descend into its tokens.
    pub(super) fn macro_invocation(&mut self, n: Node<'_>) -> bool {
        let name = self.macro_name(n);
        if name == "include_str" || self.script_macros.contains_key(&name) || self.lua_macro(n) {
            self.script_of(n);
            false
        } else if FORMAT_MACROS.contains(&name.as_str()) || name == "concat" {
            let v = self.macro_value(n, 0);
            self.push_template(v);
            false
        } else {
            !self.walk_macro(n, &name)
        }
    }

    pub(super) fn macro_name(&self, n: Node<'_>) -> String {
        n.child_by_field_id(F.macro_)
            .map(|m| path_segments(&self.text(m)).pop().unwrap_or_default())
            .unwrap_or_default()
    }

    pub(super) fn macro_value(&mut self, n: Node<'_>, d: usize) -> Value {
        if let Some(v) = self.macro_cache.get(&node_key(n)) {
            return v.clone();
        }
        let v = self.macro_value_uncached(n, d);
        self.macro_cache.insert(node_key(n), v.clone());
        v
    }

    fn macro_value_uncached(&mut self, n: Node<'_>, d: usize) -> Value {
        let span = self.span(n);
        let name = self.macro_name(n);
        let Some(tt) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "token_tree")
        else {
            return Value::unknown(self.label(n), span);
        };
        if d > MAX_DEPTH || self.macro_nesting >= MAX_MACRO_NESTING {
            return Value::unknown(self.label(n), span);
        }
        self.macro_nesting += 1;
        let v = self.macro_value_parsed(n, tt, &name, span, d);
        self.macro_nesting -= 1;
        v
    }

    fn macro_value_parsed(
        &mut self,
        n: Node<'_>,
        tt: Node<'_>,
        name: &str,
        span: Span,
        d: usize,
    ) -> Value {
        // `include_str!("x.lua")` (or a wrapper) is the script that file
        // holds, wherever it is written (`.arg(include_str!(..))`).
        if name == "include_str" || self.script_macros.contains_key(name) || self.lua_macro(n) {
            if let Some(index) = self.script_of(n) {
                return Value::ScriptRef { index, span };
            }
        }
        let skip = usize::from(matches!(name, "write" | "writeln"));
        if FORMAT_MACROS.contains(&name) {
            if let Some(items) = plain_items(tt) {
                return self.format_value(&items, skip, span, d);
            }
        }
        let Some(tree) = self.reparse(tt) else {
            return Value::unknown(self.label(n), span);
        };
        let items = macro_items(&tree, tt);
        let Some(items) = items else {
            return Value::unknown(self.label(n), span);
        };
        if FORMAT_MACROS.contains(&name) {
            return self.format_value(&items, skip, span, d);
        }
        match name {
            "concat" => {
                let mut segs = Vec::new();
                for item in items {
                    match self.value(item, d) {
                        v @ (Value::Str(_) | Value::Int { .. }) => append_value(&mut segs, v),
                        _ => return Value::unknown(self.label(n), span),
                    }
                }
                Value::Str(Template { segs, span })
            }
            "vec" => {
                let items = items.into_iter().map(|i| self.value(i, d)).collect();
                Value::List {
                    items,
                    tail: Vec::new(),
                    span,
                }
            }
            _ => Value::unknown(self.label(n), span),
        }
    }

    /// Walks the arguments of an expression-like macro (`vec!`,
    /// `tokio::join!`, `assert_eq!`) as expressions, so that calls and
    /// strings inside are seen. Returns false when they do not parse as
    /// one.
    fn walk_macro(&mut self, n: Node<'_>, name: &str) -> bool {
        if matches!(
            name,
            "include_str" | "lazy_static" | "thread_local" | "macro_rules" | "cfg_if" | "matches"
        ) || self.depth > MAX_DEPTH
        {
            return false;
        }
        let Some(tt) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "token_tree")
        else {
            return false;
        };
        // A string before a `:` (`json!({"a": 1})`) is no Rust expression:
        // such tokens go straight to the recovery below, without a parse
        // that would only find the error (error recovery is the costliest
        // part of a parse: 806 `json!` in one repository's tests).
        let parsed = (!json_like(tt)).then(|| self.reparse(tt)).flatten();
        let root = parsed.as_ref().and_then(|t| macro_root(t, tt));
        let Some(root) = root.filter(|r| !r.has_error()) else {
            // Not expressions (`json!({ "a": con.hget(k, "f") })`): recover
            // the plain method calls from the tokens.
            self.walk_macro_tokens(tt);
            return false;
        };
        for item in named_children(root) {
            if !is_comment(item) {
                self.walk_sub(item);
            }
        }
        true
    }

    /// Recovers `ident.method(…)` calls of Redis methods from the tokens of
    /// a macro whose arguments are not expressions. Each such run of
    /// tokens is parsed again, in place, as one expression. Iterative over
    /// nested token trees.
    fn walk_macro_tokens(&mut self, tt: Node<'_>) {
        let mut stack = vec![tt];
        while let Some(t) = stack.pop() {
            let kids = crate::parse::children(t);
            for (i, k) in kids.iter().enumerate() {
                if k.kind() == "token_tree" {
                    stack.push(*k);
                }
                let [Some(dot), Some(method), Some(args)] =
                    [kids.get(i + 1), kids.get(i + 2), kids.get(i + 3)]
                else {
                    continue;
                };
                if k.kind() != "identifier"
                    || dot.kind() != "."
                    || method.kind() != "identifier"
                    || args.kind() != "token_tree"
                    || !is_typed_command(&self.text(*method))
                {
                    continue;
                }
                let Some(tree) = self.reparse_range(
                    k.start_byte(),
                    args.end_byte(),
                    k.start_position(),
                    args.end_position(),
                ) else {
                    continue;
                };
                let mut call = None;
                walk(tree.root_node(), |n| {
                    if call.is_none()
                        && n.kind() == "call_expression"
                        && n.start_byte() == k.start_byte()
                    {
                        call = Some(n);
                    }
                    call.is_none()
                });
                if let Some(c) = call.filter(|c| !c.has_error()) {
                    self.walk_sub(c);
                }
            }
        }
    }

    /// Parses a macro's token tree again as one expression, in place.
    fn reparse(&mut self, tt: Node<'_>) -> Option<Tree> {
        self.reparse_range(
            tt.start_byte(),
            tt.end_byte(),
            tt.start_position(),
            tt.end_position(),
        )
    }

    /// Parses a byte range of the file again, in place.
    fn reparse_range(
        &mut self,
        start: usize,
        end: usize,
        start_point: tree_sitter::Point,
        end_point: tree_sitter::Point,
    ) -> Option<Tree> {
        let parser = match &mut self.macro_parser {
            Some(p) => p,
            None => {
                let mut p = Parser::new();
                p.set_language(&crate::parse::language(Lang::Rust)).ok()?;
                self.macro_parser.insert(p)
            }
        };
        let range = Range {
            start_byte: start,
            end_byte: end.min(self.src.len()),
            start_point,
            end_point,
        };
        if range.start_byte >= range.end_byte {
            return None;
        }
        let budget = self
            .src
            .len()
            .saturating_mul(REPARSE_FACTOR)
            .saturating_add(REPARSE_SLACK);
        let reparsed = self.reparsed + (range.end_byte - range.start_byte);
        if reparsed > budget {
            let span = Span::new(self.file, range.start_byte, range.end_byte);
            self.facts.unchecked.get_or_insert(span);
            return None;
        }
        self.reparsed = reparsed;
        let tree = parse_in_body(parser, self.src, range);
        parser.reset();
        tree
    }

    /// `format!(fmt, args..)` as a template: literal runs and one value per
    /// placeholder.
    fn format_value(&mut self, items: &[Node<'_>], skip: usize, span: Span, d: usize) -> Value {
        let Some(args) = self.format_args(items, skip) else {
            return Value::unknown("format", span);
        };
        let (units, _) = self.literal_units(args.fmt);
        let mut segs = Vec::new();
        let mut run = LitRun::default();
        let mut next = 0usize;
        let mut i = 0usize;
        while i < units.len() {
            let u = units[i];
            let doubled = units.get(i + 1).is_some_and(|v| v.ch == u.ch);
            if (u.ch == '{' || u.ch == '}') && doubled {
                run.push(u.ch, u.s, units[i + 1].e);
                i += 2;
                continue;
            }
            let close = (u.ch == '{')
                .then(|| (i + 1..units.len()).find(|&j| units[j].ch == '}'))
                .flatten();
            let Some(close) = close else {
                run.push(u.ch, u.s, u.e);
                i += 1;
                continue;
            };
            run.flush(&mut segs, self.file);
            let v = self.placeholder(&args, &units[i..=close], &mut next, d);
            append_value(&mut segs, v);
            i = close + 1;
        }
        run.flush(&mut segs, self.file);
        Value::Str(Template { segs, span })
    }

    /// A `format!`'s items (after `skip` leading ones: `write!`'s writer)
    /// as its format string and arguments.
    fn format_args<'t>(&self, items: &[Node<'t>], skip: usize) -> Option<FormatArgs<'t>> {
        let fmt_pos = items
            .iter()
            .enumerate()
            .skip(skip)
            .find(|(_, c)| matches!(c.kind(), "string_literal" | "raw_string_literal"))
            .map(|(i, _)| i)?;
        let mut args = FormatArgs {
            fmt: items[fmt_pos],
            positional: Vec::new(),
            named: Vec::new(),
        };
        for it in &items[fmt_pos + 1..] {
            if it.kind() == "assignment_expression" {
                if let (Some(l), Some(r)) =
                    (it.child_by_field_id(F.left), it.child_by_field_id(F.right))
                {
                    args.named.push((self.text(l).trim().to_string(), r));
                    continue;
                }
            }
            args.positional.push(*it);
        }
        Some(args)
    }

    /// The value of one placeholder (`units` from its `{` to its `}`): the
    /// next positional argument, a numbered or named one, or a variable
    /// captured by name (`{queue}`). Placeholders with a format spec
    /// (`{:>8}`) are holes.
    fn placeholder(
        &mut self,
        args: &FormatArgs<'_>,
        units: &[Unit],
        next: &mut usize,
        d: usize,
    ) -> Value {
        let (open, close) = (units[0], units[units.len() - 1]);
        let inner: String = units[1..units.len() - 1].iter().map(|u| u.ch).collect();
        let ph_span = Span::new(self.file, open.s, close.e);
        let (arg, spec) = match inner.split_once(':') {
            Some((a, s)) => (a.trim(), s),
            None => (inner.trim(), ""),
        };
        let node = if arg.is_empty() {
            let n = args.positional.get(*next).copied();
            *next += 1;
            n
        } else if let Ok(ix) = arg.parse::<usize>() {
            args.positional.get(ix).copied()
        } else {
            args.named.iter().find(|(k, _)| k == arg).map(|(_, v)| *v)
        };
        match node {
            Some(node) if spec.is_empty() => self.value(node, d),
            Some(node) => Value::unknown(self.text(node), self.span(node)),
            None if !arg.is_empty() && arg.parse::<usize>().is_err() && spec.is_empty() => {
                self.ident(arg, ph_span)
            }
            None => Value::unknown(
                if arg.is_empty() {
                    inner.clone()
                } else {
                    arg.to_string()
                },
                ph_span,
            ),
        }
    }

    /// `macro_rules! script { ($f:expr) => { include_str!(concat!("../lua/", $f)) } }`:
    /// remembers the wrapper's literal text around its argument.
    pub(super) fn macro_definition(&mut self, n: Node<'_>) {
        let Some(name) = n.child_by_field_id(F.name) else {
            return;
        };
        let name = self.text(name);
        for rule in named_children(n) {
            if rule.kind() != "macro_rule" {
                continue;
            }
            let Some(right) = rule.child_by_field_id(F.right) else {
                continue;
            };
            let body = self.text(right);
            let Some(inc) = body.find("include_str") else {
                continue;
            };
            let rest = &body[inc + "include_str".len()..];
            let inner = match rest.find("concat") {
                Some(c) => &rest[c + "concat".len()..],
                None => rest,
            };
            let Some(open) = inner.find('(') else {
                continue;
            };
            let Some(close) = inner[open..].find(')') else {
                continue;
            };
            let mut before = String::new();
            let mut after = String::new();
            let mut vars = 0;
            for part in inner[open + 1..open + close].split(',') {
                let part = part.trim();
                if part.starts_with('$') {
                    vars += 1;
                } else if let Some(lit) = part.strip_prefix('"').and_then(|p| p.strip_suffix('"')) {
                    if vars == 0 {
                        before.push_str(lit);
                    } else {
                        after.push_str(lit);
                    }
                } else if !part.is_empty() {
                    vars = 2;
                }
            }
            if vars == 1 {
                self.script_macros.insert(name, (before, after));
                return;
            }
        }
    }
}

/// The items of a re-parsed macro token tree: a tuple's or array's
/// elements, or the one parenthesized expression.
fn macro_items<'t>(tree: &'t Tree, tt: Node<'_>) -> Option<Vec<Node<'t>>> {
    let root = macro_root(tree, tt)?;
    Some(
        named_children(root)
            .into_iter()
            .filter(|c| !is_comment(*c))
            .collect(),
    )
}

/// What a reparse reads before and after the tokens: a function body, so
/// that the tokens parse as the expressions they are. Bare, at the top
/// level of a file, no expression parses without an error, and error
/// recovery made each reparse cost 30 to 85 µs.
const BODY_OPEN: &[u8] = b"fn f(){";
const BODY_CLOSE: &[u8] = b"}";

/// Parses `range` of `src` in place, inside a function body: the parser
/// reads [`BODY_OPEN`] in place of the bytes just before the range and
/// [`BODY_CLOSE`] just after it, so every node keeps its offset in the
/// file. A range too near the start of the file to have room for the
/// opening is parsed bare.
fn parse_in_body(parser: &mut Parser, src: &[u8], range: Range) -> Option<Tree> {
    let (start, end) = (range.start_byte, range.end_byte);
    let Some(open_at) = start.checked_sub(BODY_OPEN.len()) else {
        parser.set_included_ranges(&[range]).ok()?;
        let len = src.len();
        return parser.parse_with_options(
            &mut |i, _| if i < len { &src[i..] } else { &[] as &[u8] },
            None,
            None,
        );
    };
    let close_end = end + BODY_CLOSE.len();
    let outer = Range {
        start_byte: open_at,
        end_byte: close_end,
        start_point: tree_sitter::Point {
            row: range.start_point.row,
            column: range.start_point.column.saturating_sub(BODY_OPEN.len()),
        },
        end_point: tree_sitter::Point {
            row: range.end_point.row,
            column: range.end_point.column + BODY_CLOSE.len(),
        },
    };
    parser.set_included_ranges(&[outer]).ok()?;
    parser.parse_with_options(
        &mut |i, _| {
            if (open_at..start).contains(&i) {
                &BODY_OPEN[i - open_at..]
            } else if (start..end).contains(&i) {
                &src[i..end]
            } else if (end..close_end).contains(&i) {
                &BODY_CLOSE[i - end..]
            } else {
                &[] as &[u8]
            }
        },
        None,
        None,
    )
}

/// Whether a token tree holds a string literal followed by `:`, outside
/// the arguments of a macro inside it: JSON-like tokens, which never parse
/// as Rust expressions. Iterative over nested token trees.
fn json_like(tt: Node<'_>) -> bool {
    let mut stack = vec![tt];
    while let Some(t) = stack.pop() {
        let kids = crate::parse::children(t);
        for (i, k) in kids.iter().enumerate() {
            match k.kind() {
                "token_tree" if i == 0 || kids[i - 1].kind() != "!" => stack.push(*k),
                "string_literal" | "raw_string_literal"
                    if kids.get(i + 1).is_some_and(|c| c.kind() == ":") =>
                {
                    return true;
                }
                _ => {}
            }
        }
    }
    false
}

/// The items of a token tree of string literals and names between commas
/// (`("emq:{{{}}}:jobz", q)`), as the nodes they already are: the tokens
/// need no second parse (each one costs a parser run; 30,000 `format!`
/// in one file took a second). `None` for anything else.
fn plain_items(tt: Node<'_>) -> Option<Vec<Node<'_>>> {
    let mut items = Vec::new();
    let mut cursor = tt.walk();
    let children: Vec<Node<'_>> = tt.children(&mut cursor).collect();
    let [open, inner @ .., close] = children.as_slice() else {
        return None;
    };
    if !matches!(
        (open.kind(), close.kind()),
        ("(", ")") | ("[", "]") | ("{", "}")
    ) {
        return None;
    }
    let mut want_item = true;
    for c in inner {
        match c.kind() {
            "string_literal" | "raw_string_literal" | "identifier" if want_item => {
                items.push(*c);
                want_item = false;
            }
            "," if !want_item => want_item = true,
            _ => return None,
        }
    }
    (!items.is_empty()).then_some(items)
}

/// The tuple, array or parenthesized expression a re-parsed token tree is.
fn macro_root<'t>(tree: &'t Tree, tt: Node<'_>) -> Option<Node<'t>> {
    let mut found = None;
    walk(tree.root_node(), |n| {
        if found.is_some() {
            return false;
        }
        if n.start_byte() == tt.start_byte()
            && matches!(
                n.kind(),
                "tuple_expression"
                    | "parenthesized_expression"
                    | "array_expression"
                    | "unit_expression"
            )
        {
            found = Some(n);
            return false;
        }
        n.start_byte() <= tt.start_byte()
    });
    found
}
