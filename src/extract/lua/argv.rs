//! What a Lua script does with its ARGV: the indexes it reads, the slots
//! it reads as numbers, the literals it tells a slot apart by, and whether
//! it reads a variable number of them. (Which reads every caller must
//! supply is evaluation's to say: `eval.rs`.)

use crate::extract::fields::LUA as F;
use std::collections::HashMap;

use tree_sitter::Node;

use crate::facts::{ArgvCompare, ArgvFacts, FileId, Span};
use crate::parse::{named_children, text, walk};

/// Reads the ARGV facts of one chunk.
pub fn argv_facts(root: Node<'_>, src: &[u8], file: FileId) -> ArgvFacts {
    // Every fact here is about a use of the name `ARGV` (Lua names are
    // case-sensitive): a chunk without those bytes has none, and its three
    // walks are not made (15% of a hostile 1 MB HSET's run).
    let chunk = src.get(root.byte_range()).unwrap_or_default();
    if memchr::memmem::find(chunk, b"ARGV").is_none() {
        return ArgvFacts::default();
    }
    let names = Names::of(root, src);
    let cx = Cx { src, file, names };
    let mut out = ArgvFacts::default();
    // A walk that keeps every ancestor (`parent()` costs the depth of the
    // tree on each call).
    let mut cursor = root.walk();
    let mut anc: Vec<Node<'_>> = Vec::new();
    loop {
        let node = cursor.node();
        match node.kind() {
            "bracket_index_expression" => cx.index(node, &anc, &mut out),
            "identifier" => cx.identifier(node, &anc, &mut out),
            _ => {}
        }
        if cursor.goto_first_child() {
            anc.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if anc.pop().is_none() || !cursor.goto_parent() {
                return out;
            }
            if anc.is_empty() {
                return out;
            }
        }
    }
}

/// The names bound once to `ARGV[n]`.
#[derive(Default)]
struct Names {
    argv: HashMap<String, u32>,
}

impl Names {
    fn of(root: Node<'_>, src: &[u8]) -> Names {
        let mut assigned: HashMap<String, usize> = HashMap::new();
        let mut bound: Vec<(String, String)> = Vec::new();
        walk(root, |n| {
            match n.kind() {
                "assignment_statement" => {
                    let kids = named_children(n);
                    let names = kids.iter().find(|c| c.kind() == "variable_list");
                    let values = kids.iter().find(|c| c.kind() == "expression_list");
                    let names = names.map(|l| named_children(*l)).unwrap_or_default();
                    let values = values.map(|l| named_children(*l)).unwrap_or_default();
                    for (i, name) in names.iter().enumerate() {
                        let t = text(*name, src).into_owned();
                        *assigned.entry(t.clone()).or_default() += 1;
                        // `ARGV[12]`, `tonumber(ARGV[3])`: short.
                        if let Some(v) = values.get(i).filter(|v| v.byte_range().len() < 64) {
                            bound.push((t, text(*v, src).trim().to_string()));
                        }
                    }
                }
                // `local x` without a value, loop variables, parameters:
                // any other binding of the name.
                "variable_declaration" => {
                    if let Some(l) = named_children(n)
                        .into_iter()
                        .find(|c| c.kind() == "variable_list")
                    {
                        for name in named_children(l) {
                            *assigned.entry(text(name, src).into_owned()).or_default() += 1;
                        }
                    }
                }
                "parameters" | "for_numeric_clause" | "for_generic_clause" => {
                    walk(n, |c| {
                        if c.kind() == "identifier" {
                            *assigned.entry(text(c, src).into_owned()).or_default() += 2;
                        }
                        true
                    });
                }
                _ => {}
            }
            true
        });
        let mut out = Names::default();
        for (name, value) in bound {
            if assigned.get(&name) != Some(&1) {
                continue;
            }
            if let Some(i) = literal_argv(&value) {
                out.argv.insert(name, i);
            }
        }
        out
    }
}

/// `ARGV[3]` and `tonumber(ARGV[3])` → 3.
fn literal_argv(t: &str) -> Option<u32> {
    let t = t
        .strip_prefix("tonumber(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(t)
        .trim();
    let inner = t.strip_prefix("ARGV[")?.strip_suffix(']')?;
    inner.trim().parse().ok()
}

struct Cx<'s> {
    src: &'s [u8],
    file: FileId,
    names: Names,
}

impl Cx<'_> {
    fn span(&self, n: Node<'_>) -> Span {
        Span::new(self.file, n.start_byte(), n.end_byte())
    }

    fn text(&self, n: Node<'_>) -> String {
        text(n, self.src).trim().to_string()
    }

    /// `ARGV[n]`, or `ARGV[i]` (variadic).
    fn index(&self, n: Node<'_>, anc: &[Node<'_>], out: &mut ArgvFacts) {
        let (Some(table), Some(field)) =
            (n.child_by_field_id(F.table), n.child_by_field_id(F.field))
        else {
            return;
        };
        if self.text(table) != "ARGV" {
            return;
        }
        let index = (field.kind() == "number")
            .then(|| self.text(field).parse::<u32>().ok())
            .flatten();
        match index {
            Some(i) if i > 0 => self.read(n, i, anc, out),
            _ => out.variadic = true,
        }
    }

    /// `ARGV` used whole (`#ARGV`, `unpack(ARGV, 2)`), or an alias of
    /// `ARGV[n]`.
    fn identifier(&self, n: Node<'_>, anc: &[Node<'_>], out: &mut ArgvFacts) {
        let t = self.text(n);
        let parent = anc.last().copied();
        if t == "ARGV" {
            // A field or a method of that name is no use of the global.
            if super::is_member_name(n) {
                return;
            }
            let indexed = parent.is_some_and(|p| {
                p.kind() == "bracket_index_expression"
                    && p.child_by_field_id(F.table)
                        .is_some_and(|c| c.id() == n.id())
            });
            if !indexed {
                out.variadic = true;
            }
            return;
        }
        let Some(&i) = self.names.argv.get(&t) else {
            return;
        };
        // The binding itself is not a use.
        if parent.is_some_and(|p| p.kind() == "variable_list") {
            return;
        }
        self.read(n, i, anc, out);
    }

    /// One read of `ARGV[i]` at `n`, directly or through an alias; `anc`
    /// are its ancestors, `skip` whether it may be skipped.
    fn read(&self, n: Node<'_>, i: u32, anc: &[Node<'_>], out: &mut ArgvFacts) {
        let span = self.span(n);
        out.reads.push((i, span));
        let Some((at, ctx, child)) = context(n, anc) else {
            return;
        };
        let mut data = true;
        match ctx.kind() {
            // `local flag = ARGV[2]`: the alias's uses say what it is.
            "expression_list" => {
                let bound = at.checked_sub(1).and_then(|k| anc.get(k));
                if bound.is_some_and(|b| b.kind() == "assignment_statement")
                    && self.names.argv.values().any(|v| *v == i)
                {
                    data = false;
                }
            }
            "arguments" => {
                let callee = at
                    .checked_sub(1)
                    .and_then(|k| anc.get(k))
                    .and_then(|c| c.child_by_field_id(F.name))
                    .map(|c| self.text(c))
                    .unwrap_or_default();
                if callee == "tonumber" && !self.defaulted(&anc[..at]) {
                    out.numeric.push((i, span));
                }
            }
            "binary_expression" => {
                let op = ctx
                    .child_by_field_id(F.operator)
                    .map(|o| self.text(o))
                    .unwrap_or_default();
                if (op == "==" || op == "~=") && self.compared(ctx, child, i, out) {
                    data = false;
                }
            }
            _ => {}
        }
        if data {
            out.data.push(i);
        }
    }

    /// Whether the `tonumber(..)` call whose `arguments` end `anc` has a
    /// default or a test: `tonumber(x) or 0`, `not tonumber(x)`,
    /// `tonumber(x) == nil`.
    fn defaulted(&self, anc: &[Node<'_>]) -> bool {
        let Some((call, rest)) = anc.split_last() else {
            return false;
        };
        let Some((_, ctx, _)) = context(*call, rest) else {
            return false;
        };
        let op = ctx
            .child_by_field_id(F.operator)
            .map(|o| self.text(o))
            .unwrap_or_default();
        matches!(ctx.kind(), "binary_expression" | "unary_expression")
            && matches!(op.as_str(), "or" | "and" | "not" | "==" | "~=")
    }

    /// `ARGV[i] == "x"`: the literal on the other side. Returns whether
    /// the other side is a literal string.
    fn compared(&self, op: Node<'_>, side: Node<'_>, i: u32, out: &mut ArgvFacts) -> bool {
        let (Some(l), Some(r)) = (op.child_by_field_id(F.left), op.child_by_field_id(F.right))
        else {
            return false;
        };
        let other = if l.id() == side.id() { r } else { l };
        if other.kind() != "string" {
            return false;
        }
        let Some(lit) = lua_string(other, self.src) else {
            return false;
        };
        // The content's bytes; the empty string's, between its quotes.
        let span = match other.child_by_field_id(F.content) {
            Some(c) => self.span(c),
            None => {
                let at = (other.start_byte() + 1).min(other.end_byte());
                Span::new(self.file, at, at)
            }
        };
        out.compared.push(ArgvCompare {
            index: i,
            literal: lit,
            span,
        });
        true
    }
}

/// The expression that uses `n` (past parentheses): its index in `anc`,
/// itself, and the child of it that holds `n`.
fn context<'t>(n: Node<'t>, anc: &[Node<'t>]) -> Option<(usize, Node<'t>, Node<'t>)> {
    let mut child = n;
    for k in (0..anc.len()).rev() {
        let p = anc[k];
        if p.kind() != "parenthesized_expression" {
            return Some((k, p, child));
        }
        child = p;
    }
    None
}

/// The bytes of a Lua string literal.
fn lua_string(n: Node<'_>, src: &[u8]) -> Option<String> {
    let start = n.child_by_field_id(F.start).map(|s| s.kind())?;
    let Some(content) = n.child_by_field_id(F.content) else {
        return Some(String::new());
    };
    let raw = text(content, src);
    Some(if start == "[[" {
        raw.strip_prefix('\n').unwrap_or(&raw).to_string()
    } else {
        super::decode_lua_escapes(&raw)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Parsers;

    fn facts(src: &str) -> ArgvFacts {
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(crate::facts::Lang::Lua, src.as_bytes()).unwrap();
        argv_facts(tree.root_node(), src.as_bytes(), 0)
    }

    fn idx(v: &[(u32, Span)]) -> Vec<u32> {
        v.iter().map(|r| r.0).collect()
    }

    #[test]
    fn reads_numbers_and_comparisons() {
        let src = "local id = ARGV[1]\n\
                   local n = tonumber(ARGV[3]) or 0\n\
                   if ARGV[2] == \"\" then redis.call('DEL', ARGV[8]) end\n\
                   local function f(a) return tonumber(ARGV[5]) end\n";
        let f = facts(src);
        // `tonumber(ARGV[3]) or 0` has a default.
        assert_eq!(idx(&f.numeric), vec![5]);
        assert_eq!(f.max_read(), 8);
        assert_eq!(f.compared.len(), 1);
        assert_eq!(
            (f.compared[0].index, f.compared[0].literal.as_str()),
            (2, "")
        );
        assert_eq!(
            f.compared[0].span.start as usize,
            src.find("\"\"").unwrap() + 1
        );
        assert!(!f.variadic);
    }

    #[test]
    fn variadic_uses() {
        assert!(facts("for i = 1, #ARGV do end").variadic);
        assert!(facts("local t = {unpack(ARGV, 2)}").variadic);
        assert!(facts("local i = 2\nreturn ARGV[i]").variadic);
        assert!(!facts("return ARGV[2]").variadic);
    }

    #[test]
    fn aliases_compare_and_fail_too() {
        let src = "local force = ARGV[2]\nif force ~= 'force' then return 1 end\n";
        let f = facts(src);
        assert_eq!(f.compared[0].literal, "force");
        assert_eq!(f.compared[0].index, 2);
        // Only compared: a flag.
        assert!(!f.data.contains(&2));
        assert_eq!(f.flag_values(2).unwrap(), vec!["force"]);
        let f = facts("local n = tonumber(ARGV[2])\nredis.call('EXPIRE', KEYS[1], n * 2)\n");
        assert_eq!(idx(&f.numeric), vec![2]);
    }
}
