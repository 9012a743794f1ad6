//! Lua extractor: the script is evaluated (`eval.rs`) for its Redis
//! commands and the ARGV reads every caller must supply; `KEYS[n]` uses,
//! `KEYS[n]`/`ARGV[n]` header comments and `@include`s are read from the
//! tree; `argv.rs` reads what the script does with its ARGV.
//!
//! The same code reads a `.lua` file and Lua parsed in place inside an
//! Elixir or Rust string: in both cases every span is in the host file's
//! bytes.

use crate::extract::fields::LUA as F;

use tree_sitter::Node;

use crate::extract::embedded::{Decoded, Hole};
use crate::extract::push_lit;
use crate::facts::{Command, FileId, KeyDecl, LuaFacts, Seg, Sink, Span, Template, Value};
use crate::parse::{error_ranges, named_children, text, walk};

mod argv;
mod build;
mod eval;
mod expr;
pub(crate) mod functions;
pub mod kinds;
pub(crate) mod stdlib;
mod summary;
pub(crate) mod template;
/// Whether identifier `n` names a member, not a variable: the field of
/// `t.f`, the method of `t:m()`, the name of `{ f = v }`.
/// The name of a function of Redis's Lua library as `redis` names it:
/// Valkey gives the same library the name `server` too (`server.call`,
/// `server.register_function`, `server.error_reply`).
pub(crate) fn library_name(callee: &str) -> std::borrow::Cow<'_, str> {
    match callee.strip_prefix("server.") {
        Some(f) => format!("redis.{f}").into(),
        None => callee.into(),
    }
}

fn is_member_name(n: Node<'_>) -> bool {
    let Some(p) = n.parent() else {
        return false;
    };
    let field = match p.kind() {
        "dot_index_expression" => F.field,
        "method_index_expression" => F.method,
        "field" => F.name,
        _ => return false,
    };
    p.child_by_field_id(field) == Some(n)
}

#[cfg(test)]
mod tests_eval;
mod value;

/// Extracts the facts of one Lua chunk (a `.lua` file). `root` is the
/// tree's root (a `chunk`).
pub fn extract_chunk(root: Node<'_>, src: &[u8], file: FileId) -> LuaFacts {
    extract(root, src, file, None, None)
}

/// Extracts the facts of one function a library of Redis Functions
/// registers (`functions`): what its callback does.
pub fn extract_function(root: Node<'_>, src: &[u8], file: FileId, name: &str) -> LuaFacts {
    extract(root, src, file, None, Some(name))
}

/// Extracts the facts of Lua embedded in a host string, parsed from its
/// decoded text: every span is mapped back to host bytes, and a string an
/// interpolation falls in holds a hole.
pub fn extract_embedded(root: Node<'_>, decoded: &Decoded, file: FileId) -> LuaFacts {
    extract(root, &decoded.text, file, Some(decoded), None)
}

fn extract(
    root: Node<'_>,
    src: &[u8],
    file: FileId,
    map: Option<&Decoded>,
    function: Option<&str>,
) -> LuaFacts {
    let s = Src { src, file, map };
    let mut cx = Cx {
        s: &s,
        facts: LuaFacts::default(),
    };
    cx.facts.span = s.at(root.start_byte(), root.end_byte());
    for (a, b) in error_ranges(root, 16) {
        let span = s.at(a, b);
        cx.facts.errors.push(span);
    }
    let mut argv = argv::argv_facts(root, src, file);
    // Spans in the decoded text of a host string go back to host bytes.
    if let Some(m) = map {
        let back = |s: &mut Span| *s = m.span(file, s.start as usize, s.end as usize);
        let a = &mut argv;
        for (_, s) in a.reads.iter_mut().chain(&mut a.numeric) {
            back(s);
        }
        for c in &mut a.compared {
            back(&mut c.span);
        }
    }
    let found = eval::run(&s, root, map.is_none() && function.is_none(), function);
    // A function's `args` are read through its parameter, which the
    // syntactic reads above do not follow: any number of values may be
    // read (what evaluation proves required stays).
    argv.variadic |= function.is_some();
    argv.required = found.required;
    argv.required.sort_by_key(|r| (r.1.start, r.0));
    cx.facts.argv = argv;
    cx.facts.commands = found.commands;
    cx.facts.aliases = found.aliases;
    cx.facts.calls = found.calls;
    cx.facts.functions = found.functions;
    cx.facts.redis_names = found.redis_names;
    walk(root, |n| {
        match n.kind() {
            "comment" => cx.comment(n),
            "function_call" if function.is_none() && !found.visited.contains(&n.id()) => cx.call(n),
            "bracket_index_expression" => cx.index_use(n),
            "identifier" => cx.bare_keys(n),
            _ => {}
        }
        true
    });
    // Commands in the order of the calls that send them.
    cx.facts
        .commands
        .sort_by_key(|c| (c.span.start, c.name_span.start));
    cx.facts
}

/// The text a chunk is read from, and where its bytes are in the file.
pub(super) struct Src<'s> {
    src: &'s [u8],
    file: FileId,
    /// For embedded Lua: the map from `src` (the decoded text) to host bytes.
    map: Option<&'s Decoded>,
}

impl Src<'_> {
    /// The text read.
    pub(super) fn bytes(&self) -> &[u8] {
        self.src
    }

    /// The span of `src[s..e]`, in the file's bytes.
    fn at(&self, s: usize, e: usize) -> Span {
        match self.map {
            Some(m) => m.span(self.file, s, e),
            None => Span::new(self.file, s, e),
        }
    }

    fn span(&self, n: Node<'_>) -> Span {
        self.at(n.start_byte(), n.end_byte())
    }

    fn text(&self, n: Node<'_>) -> String {
        text(n, self.src).into_owned()
    }

    /// Whether an expression is an error reply: `redis.error_reply(..)`,
    /// `{err = ..}`.
    fn is_error_reply(&self, n: Node<'_>) -> bool {
        let t = self.text(n);
        let t = t.trim();
        let callee = library_name(t.split('(').next().unwrap_or("").trim());
        (n.kind() == "function_call" && callee == "redis.error_reply")
            || (n.kind() == "table_constructor"
                && t.trim_start_matches('{').trim_start().starts_with("err"))
    }

    /// A Lua string literal: decoded bytes, spanning the content; an
    /// interpolation of the host string inside it is a hole.
    fn string(&self, n: Node<'_>) -> Template {
        let span = self.span(n);
        let start_kind = n
            .child_by_field_id(F.start)
            .map(|s| s.kind())
            .unwrap_or("\"");
        let content = n.child_by_field_id(F.content);
        let (cs, ce) = match content {
            Some(c) => (c.start_byte(), c.end_byte()),
            // The empty string.
            None => {
                let at = (n.start_byte() + 1).min(n.end_byte());
                (at, at)
            }
        };
        let holes: Vec<&Hole> = self
            .map
            .map(|m| {
                m.holes
                    .iter()
                    .filter(|h| h.at >= cs && h.at <= ce)
                    .collect()
            })
            .unwrap_or_default();
        let slice = |a: usize, b: usize| {
            let a = a.min(self.src.len());
            String::from_utf8_lossy(&self.src[a..b.clamp(a, self.src.len())]).into_owned()
        };
        let decode = |t: &str| {
            if start_kind == "[[" {
                t.strip_prefix('\n').unwrap_or(t).to_string()
            } else {
                decode_lua_escapes(t)
            }
        };
        if holes.is_empty() {
            return Template {
                segs: vec![Seg::Lit {
                    text: decode(&slice(cs, ce)),
                    span: self.at(cs, ce),
                }],
                span,
            };
        }
        let mut segs = Vec::new();
        let mut prev = cs;
        for h in holes {
            push_lit(&mut segs, &decode(&slice(prev, h.at)), self.at(prev, h.at));
            segs.push(Seg::Hole {
                label: h.label.clone(),
                span: Span::new(self.file, h.span.0, h.span.1),
            });
            prev = h.at;
        }
        push_lit(&mut segs, &decode(&slice(prev, ce)), self.at(prev, ce));
        Template { segs, span }
    }
}

/// What is read from the tree, and the `redis.call`s evaluation did not
/// reach (read as written).
struct Cx<'s> {
    s: &'s Src<'s>,
    facts: LuaFacts,
}

impl Cx<'_> {
    fn at(&self, a: usize, b: usize) -> Span {
        self.s.at(a, b)
    }

    fn span(&self, n: Node<'_>) -> Span {
        self.s.span(n)
    }

    fn text(&self, n: Node<'_>) -> String {
        self.s.text(n)
    }

    /// `-- KEYS[1] 'wait'`, `-- KEYS[2]: the pending set`, `KEYS[3] stalled (SET)`.
    fn comment(&mut self, n: Node<'_>) {
        let span = self.span(n);
        self.facts.comments.push(span);
        let content = n.child_by_field_id(F.content).unwrap_or(n);
        let base = content.start_byte().min(self.s.src.len());
        let end = content.end_byte().clamp(base, self.s.src.len());
        // Offsets are found per line in the bytes: a line that is not UTF-8
        // is read lossily, and its offsets (in the lossy text, which may be
        // longer) are clamped to the line's bytes.
        let mut line_off = 0usize;
        for line in self.s.src[base..end].split_inclusive(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            if let Some((path, ps, pe)) = parse_include(&text) {
                let (ps, pe) = (ps.min(line.len()), pe.min(line.len()));
                self.facts
                    .includes
                    .push((path, self.at(base + line_off + ps, base + line_off + pe)));
            }
            for (index, role, rs, re) in parse_slot_headers(&text, "ARGV[") {
                let (rs, re) = (rs.min(line.len()), re.min(line.len()));
                self.facts.argv.header.push(KeyDecl {
                    index,
                    role,
                    span: self.at(base + line_off + rs, base + line_off + re),
                });
            }
            for (index, role, rs, re) in parse_slot_headers(&text, "KEYS[") {
                let (rs, re) = (rs.min(line.len()), re.min(line.len()));
                self.facts.header_keys.push(KeyDecl {
                    index,
                    role,
                    span: self.at(base + line_off + rs, base + line_off + re),
                });
            }
            line_off += line.len();
        }
    }

    /// `redis.call('HSET', KEYS[1], 'state', 'pending')`.
    fn call(&mut self, n: Node<'_>) {
        let Some(name) = n.child_by_field_id(F.name) else {
            return;
        };
        let callee = self.text(name);
        let callee = callee.trim();
        if matches!(callee, "unpack" | "table.unpack") {
            if let Some(args) = n.child_by_field_id(F.arguments) {
                if named_children(args)
                    .first()
                    .is_some_and(|a| self.text(*a) == "KEYS")
                {
                    self.facts.dynamic_keys = true;
                }
            }
            return;
        }
        if !matches!(&*library_name(callee), "redis.call" | "redis.pcall") {
            return;
        }
        let Some(args) = n.child_by_field_id(F.arguments) else {
            return;
        };
        let args = named_children(args);
        let Some(first) = args.first() else {
            return;
        };
        let Some(cmd) = self.value(*first).as_str() else {
            return;
        };
        let name_span = match self.value(*first) {
            Value::Str(t) => t.segs.first().map(|s| s.span()).unwrap_or(t.span),
            other => other.span(),
        };
        let rest = args[1..].iter().map(|a| self.value(*a)).collect();
        self.facts.commands.push(Command {
            name: cmd.to_ascii_uppercase(),
            name_span,
            name_of: None,
            args: rest,
            open_tail: false,
            tail: Vec::new(),
            span: self.span(n),
            func: None,
            sink: Sink::Client,
        });
    }

    /// Records `KEYS[n]`; a computed index makes the key set dynamic.
    fn index_use(&mut self, n: Node<'_>) {
        if let Value::Keys { index, span } = self.index(n) {
            match index {
                Some(i) => self.facts.key_uses.push((i, span)),
                None => self.facts.dynamic_keys = true,
            }
        }
    }

    /// `#KEYS`, or `KEYS` passed whole: the script may use any key. A
    /// field or a method of that name (`self.KEYS`, `{ KEYS = .. }`,
    /// `t:KEYS()`) is no use of the global.
    fn bare_keys(&mut self, n: Node<'_>) {
        if self.text(n) != "KEYS" || is_member_name(n) {
            return;
        }
        let parent_kind = n.parent().map(|p| p.kind()).unwrap_or("");
        if parent_kind != "bracket_index_expression" {
            self.facts.dynamic_keys = true;
        }
        if parent_kind == "unary_expression" {
            self.keys_guard(n);
        }
    }

    /// `#KEYS ~= 2` (`if #KEYS ~= 2 then error(..) end`): the script
    /// refuses any other count, so it declares two keys.
    fn keys_guard(&mut self, keys: Node<'_>) {
        let Some(len) = keys.parent() else {
            return;
        };
        let Some(cmp) = len.parent().filter(|p| p.kind() == "binary_expression") else {
            return;
        };
        let is_op = |n: Node<'_>, op: &str| {
            n.child_by_field_id(F.operator)
                .is_some_and(|o| self.text(o) == op)
        };
        if !is_op(len, "#") || !is_op(cmp, "~=") {
            return;
        }
        let other = named_children(cmp).into_iter().find(|c| c.id() != len.id());
        let count = other
            .filter(|o| o.kind() == "number")
            .and_then(|o| self.text(o).trim().parse::<u32>().ok());
        if let (Some(count), None) = (count, &self.facts.keys_guard) {
            self.facts.keys_guard = Some((count, self.span(cmp)));
        }
    }

    fn index(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        let (Some(table), Some(field)) =
            (n.child_by_field_id(F.table), n.child_by_field_id(F.field))
        else {
            return Value::unknown(self.text(n), span);
        };
        let table = self.text(table);
        let index = if field.kind() == "number" {
            self.text(field).trim().parse::<u32>().ok()
        } else {
            None
        };
        match table.as_str() {
            "KEYS" => Value::Keys { index, span },
            "ARGV" => Value::Argv { index, span },
            _ => Value::unknown(self.text(n), span),
        }
    }

    /// A value as written, without evaluation.
    fn value(&self, n: Node<'_>) -> Value {
        let span = self.span(n);
        match n.kind() {
            "string" => Value::Str(self.s.string(n)),
            "number" => match self.text(n).trim().parse::<i64>() {
                Ok(v) => Value::Int { value: v, span },
                Err(_) => Value::unknown(self.text(n), span),
            },
            "bracket_index_expression" => self.index(n),
            _ => Value::unknown(self.text(n), span),
        }
    }
}

/// Appends a value to a template's segments: strings are spliced in, other
/// values become holes (or stay as values to be linked).
pub(super) fn append_value(segs: &mut Vec<Seg>, v: Value) {
    match v {
        Value::Str(t) => segs.extend(t.segs),
        Value::Unknown { label, span } => segs.push(Seg::Hole { label, span }),
        other => segs.push(Seg::Value(Box::new(other))),
    }
}

/// Decodes Lua short-string escapes.
pub fn decode_lua_escapes(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some('z') => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            Some('x') => {
                let h: String = chars.by_ref().take(2).collect();
                if let Ok(b) = u8::from_str_radix(&h, 16) {
                    out.push(b as char);
                }
            }
            Some(d) if d.is_ascii_digit() => {
                let mut num = d.to_digit(10).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(10)) {
                        Some(x) => {
                            num = num * 10 + x;
                            chars.next();
                        }
                        None => break,
                    }
                }
                if let Some(ch) = char::from_u32(num) {
                    out.push(ch);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// `--- @include "includes/x"`: the path and its byte range in the line.
fn parse_include(line: &str) -> Option<(String, usize, usize)> {
    let at = line.find("@include")? + "@include".len();
    let rest = &line[at..];
    let q = rest.find(['"', '\''])?;
    let quote = rest[q..].chars().next()?;
    let len = rest[q + 1..].find(quote)?;
    let start = at + q + 1;
    Some((rest[q + 1..q + 1 + len].to_string(), start, start + len))
}

/// Every `KEYS[n] role` (`open` is `KEYS[`) or `ARGV[n] role` of a
/// comment line: one line may declare several (`KEYS[1] the row, KEYS[2]
/// the index`), each role ending where the next declaration starts.
fn parse_slot_headers(line: &str, open: &str) -> Vec<(u32, String, usize, usize)> {
    let starts: Vec<usize> = line.match_indices(open).map(|(i, _)| i).collect();
    let mut out = Vec::new();
    // A line of code commented out (`-- if rcall("SET", KEYS[1], ..`)
    // declares nothing: what stands before its first slot is code.
    if starts
        .first()
        .is_some_and(|&at| line[..at].contains(['(', '=', '"', '\'']))
    {
        return out;
    }
    for (k, &at) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(line.len());
        let piece =
            line[..end].trim_end_matches(|c: char| c.is_whitespace() || c == ',' || c == ';');
        if let Some(d) = parse_slot_header(piece, at, open) {
            out.push(d);
        }
    }
    out
}

/// One declaration at byte `at` of a line: the 1-based index, the role
/// text and the role's byte range within the line.
fn parse_slot_header(line: &str, at: usize, open: &str) -> Option<(u32, String, usize, usize)> {
    let after = line.get(at + open.len()..)?;
    let close = after.find(']')?;
    let index: u32 = after[..close].trim().parse().ok()?;
    let rest_start = at + open.len() + close + 1;
    let rest = &line[rest_start..];
    let trimmed_start = rest
        .find(|c: char| !(c.is_whitespace() || c == ':' || c == '-' || c == '=' || c == ','))
        .unwrap_or(rest.len());
    let body = rest[trimmed_start..].trim_end();
    if body.is_empty() {
        return None;
    }
    let abs = rest_start + trimmed_start;
    // A quoted role alone: 'wait' or "wait". With more after it
    // (`'jobschedulers' (repeat)`) the whole text is the role; a comma
    // after the quote only separates (`'stalled-check', (KEY)` is
    // `'stalled-check' (KEY)`).
    let first = body.chars().next()?;
    if first == '\'' || first == '"' {
        if let Some(end) = body[1..].find(first) {
            let after = body[1 + end + 1..].trim_start();
            let note = after.strip_prefix(',');
            if note.unwrap_or(after).trim().is_empty() {
                let role = &body[1..1 + end];
                return Some((index, role.to_string(), abs + 1, abs + 1 + end));
            }
            if let Some(note) = note {
                let role = format!("{} {}", &body[..end + 2], note.trim_start());
                return Some((index, role, abs, abs + body.len()));
            }
        }
    }
    Some((index, body.to_string(), abs, abs + body.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Parsers;

    #[test]
    fn a_line_of_code_commented_out_declares_no_slot() {
        assert_eq!(parse_slot_headers("  KEYS[1] 'lock',", "KEYS[").len(), 1);
        assert_eq!(
            parse_slot_headers("Input: KEYS[1] wait, KEYS[2] active", "KEYS[").len(),
            2
        );
        for code in [
            r#"   if rcall("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "XX") then"#,
            "local lockKey = KEYS[1] .. ':lock'",
        ] {
            assert_eq!(parse_slot_headers(code, "KEYS["), [], "{code}");
            assert_eq!(parse_slot_headers(code, "ARGV["), [], "{code}");
        }
    }

    fn facts(src: &str) -> LuaFacts {
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(crate::facts::Lang::Lua, src.as_bytes()).unwrap();
        extract_chunk(tree.root_node(), src.as_bytes(), 0)
    }

    fn at(src: &str, needle: &str) -> u32 {
        src.find(needle).expect("needle") as u32
    }

    #[test]
    fn hset_fields_and_keys_with_spans() {
        let src = "redis.call('hset', KEYS[1], 'state', 'pending', 'payload', ARGV[2])\n\
                   redis.pcall('ZADD', KEYS[2], 0, ARGV[1])\n";
        let f = facts(src);
        assert_eq!(f.commands.len(), 2);
        let hset = &f.commands[0];
        assert_eq!(hset.name, "HSET");
        assert_eq!(hset.name_span.start, at(src, "hset"));
        assert!(matches!(hset.args[0], Value::Keys { index: Some(1), .. }));
        assert_eq!(hset.args[1].as_str().as_deref(), Some("state"));
        assert_eq!(hset.args[1].span().start, at(src, "'state'"));
        assert_eq!(f.commands[1].name, "ZADD");
        let uses: Vec<u32> = f.key_uses.iter().map(|k| k.0).collect();
        assert_eq!(uses, vec![1, 2]);
        assert!(!f.dynamic_keys);
    }

    #[test]
    fn a_keys_count_check_declares_the_count() {
        let src = "if #KEYS ~= 2 then\n  error('Expected keys to be of size 2')\nend\n\
                   local id, tag = unpack(KEYS)\n";
        let f = facts(src);
        assert_eq!(f.keys_guard.map(|g| g.0), Some(2));
        assert_eq!(f.keys_guard.map(|g| g.1.start), Some(at(src, "#KEYS")));
        assert!(f.dynamic_keys);
        for other in [
            "if #KEYS == 2 then return 1 end\n",
            "if #KEYS < 2 then error('x') end\n",
            "for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end\n",
            "if #ARGV ~= 2 then error('x') end\n",
        ] {
            assert_eq!(facts(other).keys_guard, None, "{other}");
        }
    }

    #[test]
    fn a_member_named_keys_is_no_use_of_keys() {
        for src in [
            "local t = { KEYS = concat(keys, ', ') }\nreturn t\n",
            "local M = {}\nfunction M:f() return #self.KEYS[1] end\nreturn M\n",
            "local M = {}\nfunction M:f() return self.KEYS[1][2] end\nreturn M\n",
            "return t:KEYS()\n",
        ] {
            let f = facts(src);
            assert!(!f.dynamic_keys && f.key_uses.is_empty(), "{src}");
        }
        // Nor a member named ARGV a read of every argument.
        assert!(
            !facts("redis.call('DEL', KEYS[1])\nreturn self.ARGV\n")
                .argv
                .variadic
        );
        assert!(
            facts("redis.call('DEL', KEYS[1])\nreturn #ARGV\n")
                .argv
                .variadic
        );
        // The global, read whole or by index, still is.
        assert!(facts("return #KEYS\n").dynamic_keys);
        assert_eq!(facts("return t[KEYS[1]]\n").key_uses.len(), 1);
    }

    #[test]
    fn aliases_headers_and_dynamic_keys() {
        let src = "-- KEYS[1] 'wait'\n--   KEYS[2]: the pending set (ZSET)\n\
                   local waitKey, pendingKey = KEYS[1], KEYS[2]\n\
                   redis.call('LPUSH', waitKey, ARGV[1])\n\
                   for i = 3, #KEYS do redis.call('DEL', KEYS[i]) end\n";
        let f = facts(src);
        let headers: Vec<(u32, &str)> = f
            .header_keys
            .iter()
            .map(|d| (d.index, d.role.as_str()))
            .collect();
        assert_eq!(headers, vec![(1, "wait"), (2, "the pending set (ZSET)")]);
        assert_eq!(f.header_keys[0].span.start, at(src, "wait"));
        let aliases: Vec<(u32, &str)> = f
            .aliases
            .iter()
            .map(|d| (d.index, d.role.as_str()))
            .collect();
        assert_eq!(aliases, vec![(1, "waitKey"), (2, "pendingKey")]);
        // The alias use resolves to KEYS[1], at the use's span.
        let lpush = &f.commands[0];
        assert!(
            matches!(lpush.args[0], Value::Keys { index: Some(1), span } if span.start == at(src, "waitKey, ARGV"))
        );
        assert!(f.dynamic_keys);
    }

    #[test]
    fn a_comma_after_a_quoted_role_only_separates() {
        let line = "  KEYS[4] 'stalled-check', (KEY)";
        let (index, role, s, e) = parse_slot_header(line, 2, "KEYS[").unwrap();
        assert_eq!((index, role.as_str()), (4, "'stalled-check' (KEY)"));
        assert_eq!(&line[s..e], "'stalled-check', (KEY)");
        let (_, role, _, _) = parse_slot_header("KEYS[2] 'wait',", 0, "KEYS[").unwrap();
        assert_eq!(role, "wait");
    }

    #[test]
    fn keys_built_in_lua_become_templates() {
        let src = "redis.call('ZADD', 'emq:{' .. ARGV[3] .. '}:pending', 0, ARGV[1])\n\
                   redis.call('GET', string.format('emq:{%s}:job:%s', ARGV[1], ARGV[2]))\n";
        let f = facts(src);
        let Value::Str(t) = &f.commands[0].args[0] else {
            panic!("template expected: {:?}", f.commands[0].args[0]);
        };
        assert_eq!(t.to_string(), "emq:{<ARGV[3]>}:pending");
        let Value::Str(t) = &f.commands[1].args[0] else {
            panic!("template expected");
        };
        assert_eq!(t.to_string(), "emq:{<ARGV[1]>}:job:<ARGV[2]>");
        let Seg::Lit { span, .. } = &t.segs[2] else {
            panic!()
        };
        assert_eq!(span.start, at(src, "}:job:"));
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(decode_lua_escapes(r"a\tb\65\x41\\"), "a\tbAA\\");
    }
}
