//! Rust rewrites, part two: a `format!` written as `push_str`, `concat()`,
//! `join`, `write!` or `+`, or with its arguments inline or positional; an
//! array of keys filled into a `Vec` with `push`; a builder chain split
//! into statements; call arguments bound by `let` first; a function's body
//! moved into another function; free functions moved into a module.

use tree_sitter::Node;

use super::{hoistable, taken};
use crate::edit::{inside, named, new, orig, Edits, Lang, Piece, Rewritten, Source};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Rust,
        apply,
    };
    vec![
        r("rust-format-push-str", format_push_str),
        r("rust-format-concat", format_concat),
        r("rust-format-join", format_join),
        r("rust-format-write", format_write),
        r("rust-format-plus", format_plus),
        r("rust-format-positional", format_positional),
        r("rust-format-inline", format_inline),
        r("rust-vec-push", vec_push),
        r("rust-split-chain", split_chain),
        r("rust-let-argument", let_argument),
        r("rust-fn-delegate", fn_delegate),
        r("rust-move-to-module", move_to_module),
    ]
}

/// The top-level arguments of a macro's token tree: byte ranges between
/// its commas.
fn macro_args(src: &Source, mac: Node) -> Option<Vec<std::ops::Range<usize>>> {
    let tree = named(mac).into_iter().find(|n| n.kind() == "token_tree")?;
    let mut cursor = tree.walk();
    let children: Vec<Node> = tree.children(&mut cursor).collect();
    let inner = children.get(1..children.len().checked_sub(1)?)?;
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut end = 0;
    for c in inner {
        if src.text_of(*c) == "," && !c.is_named() {
            out.push(start?..end);
            start = None;
        } else {
            start.get_or_insert(c.start_byte());
            end = c.end_byte();
        }
    }
    if let Some(s) = start {
        out.push(s..end);
    }
    Some(out)
}

/// A `format!` template, in parts: literal text (as written between the
/// quotes, braces unescaped) and arguments (their source text), each with
/// the original bytes it is made of (a literal's runs of bytes, an escaped
/// brace by its first byte), so a rewrite that spells a part again can keep
/// its place.
#[derive(Debug)]
enum Part {
    Lit(String, Vec<std::ops::Range<usize>>),
    Arg(String, std::ops::Range<usize>),
}

/// Adds byte `at` (of `len` bytes) to a literal's runs.
fn extend_run(runs: &mut Vec<std::ops::Range<usize>>, at: usize, len: usize) {
    match runs.last_mut() {
        Some(r) if r.end == at => r.end = at + len,
        _ => runs.push(at..at + len),
    }
}

/// Every `format!(...)` of the file with a plain template (`{}`, `{0}`,
/// `{name}`; no format spec, no named argument), outside constants.
fn formats<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>, bool)> {
    let mut out = Vec::new();
    for n in src.nodes() {
        if n.kind() != "macro_invocation"
            || n.child_by_field_name("macro").map(|m| src.text_of(m)) != Some("format")
            || inside(n, &["const_item", "static_item"])
        {
            continue;
        }
        if let Some((parts, inline)) = parse_format(src, n) {
            out.push((n, parts, inline));
        }
    }
    out
}

/// The parts of a `format!`, and whether it captures an argument inline.
fn parse_format(src: &Source, mac: Node) -> Option<(Vec<Part>, bool)> {
    let args = macro_args(src, mac)?;
    let template = src.slice(args.first()?.clone());
    let body = template.strip_prefix('"')?.strip_suffix('"')?;
    let base = args.first()?.start + 1;
    let given: Vec<(&str, std::ops::Range<usize>)> = args[1..]
        .iter()
        .map(|r| (src.slice(r.clone()), r.clone()))
        .collect();
    if given
        .iter()
        .any(|(a, _)| a.contains('=') && !a.contains("=="))
    {
        return None;
    }
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut runs = Vec::new();
    let mut next = 0;
    let mut inline = false;
    let mut chars = body.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' | '}' if chars.peek().map(|p| p.1) == Some(c) => {
                chars.next();
                lit.push(c);
                extend_run(&mut runs, base + at, 1);
            }
            '{' => {
                let name: String = chars
                    .by_ref()
                    .map(|(_, c)| c)
                    .take_while(|&c| c != '}')
                    .collect();
                let arg = if name.is_empty() {
                    next += 1;
                    given.get(next - 1)?.clone()
                } else if let Ok(i) = name.parse::<usize>() {
                    given.get(i)?.clone()
                } else if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    inline = true;
                    let start = base + at + 1;
                    (name.as_str(), start..start + name.len())
                } else {
                    return None;
                };
                if !lit.is_empty() {
                    parts.push(Part::Lit(
                        std::mem::take(&mut lit),
                        std::mem::take(&mut runs),
                    ));
                }
                parts.push(Part::Arg(arg.0.to_string(), arg.1));
            }
            '}' => return None,
            c => {
                lit.push(c);
                extend_run(&mut runs, base + at, c.len_utf8());
            }
        }
    }
    if !lit.is_empty() {
        parts.push(Part::Lit(lit, runs));
    }
    Some((parts, inline))
}

/// An argument as a `&str` operand: a field is borrowed, anything else is
/// taken as it is (the fixtures' key parts are `&str` parameters).
fn operand(arg: &str) -> String {
    if arg.contains('.') && !arg.contains('(') {
        format!("&{arg}")
    } else {
        arg.to_string()
    }
}

/// Every plain `format!` replaced by `build(parts)`.
fn rebuild(src: &Source, build: impl Fn(&[Part]) -> String) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (mac, parts, _) in formats(src) {
        e.replace_text(mac.byte_range(), build(&parts));
    }
    e.finish()
}

fn lit_or_operand(p: &Part) -> String {
    match p {
        Part::Lit(l, _) => format!("\"{l}\""),
        Part::Arg(a, _) => operand(a),
    }
}

/// A part as pieces of the rewritten file: its original bytes where it
/// has them (a literal's text, an argument as written), so the places in
/// it map through the edit.
fn part_pieces(p: &Part) -> Vec<Piece> {
    match p {
        Part::Lit(_, runs) => {
            let mut out = vec![new("\"")];
            out.extend(runs.iter().map(|r| orig(r.clone())));
            out.push(new("\""));
            out
        }
        Part::Arg(a, range) => {
            let op = operand(a);
            let borrow = op.len() - a.len();
            vec![new(&op[..borrow]), orig(range.clone())]
        }
    }
}

fn format_push_str(src: &Source) -> Option<Rewritten> {
    if taken(src, "built") {
        return None;
    }
    let mut e = Edits::new(src.text);
    for (mac, parts, _) in formats(src) {
        let mut pieces = vec![new("{\n        let mut built = String::new();\n")];
        for p in &parts {
            pieces.push(new("        built.push_str("));
            pieces.extend(part_pieces(p));
            pieces.push(new(");\n"));
        }
        pieces.push(new("        built\n    }"));
        e.replace(mac.byte_range(), pieces);
    }
    e.finish()
}

fn format_concat(src: &Source) -> Option<Rewritten> {
    rebuild(src, |parts| {
        let items: Vec<String> = parts.iter().map(lit_or_operand).collect();
        format!("[{}].concat()", items.join(", "))
    })
}

fn format_join(src: &Source) -> Option<Rewritten> {
    rebuild(src, |parts| {
        let items: Vec<String> = parts.iter().map(lit_or_operand).collect();
        format!("[{}].join(\"\")", items.join(", "))
    })
}

fn format_plus(src: &Source) -> Option<Rewritten> {
    rebuild(src, |parts| {
        let mut s = String::from("String::new()");
        for p in parts {
            s.push_str(" + ");
            s.push_str(&lit_or_operand(p));
        }
        s
    })
}

/// `write!` into a `String`, with the same template and arguments.
fn format_write(src: &Source) -> Option<Rewritten> {
    if taken(src, "built") {
        return None;
    }
    let mut e = Edits::new(src.text);
    for (mac, _, _) in formats(src) {
        let args = macro_args(src, mac)?;
        let inner = args.first()?.start..args.last()?.end;
        e.replace(
            mac.byte_range(),
            vec![
                new("{\n        use std::fmt::Write as _;\n        let mut built = String::new();\n        write!(built, "),
                orig(inner),
                new(").unwrap();\n        built\n    }"),
            ],
        );
    }
    e.finish()
}

/// A template's text for `parts`, arguments inline (`{name}`) or
/// positional (`{}` and the arguments after it).
fn template(parts: &[Part], inline: bool) -> Option<String> {
    let mut t = String::from("format!(\"");
    let mut args = Vec::new();
    for p in parts {
        match p {
            Part::Lit(l, _) => t.push_str(&l.replace('{', "{{").replace('}', "}}")),
            Part::Arg(a, _) if inline => {
                if !a.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    return None;
                }
                t.push_str(&format!("{{{a}}}"));
            }
            Part::Arg(a, _) => {
                t.push_str("{}");
                args.push(a.clone());
            }
        }
    }
    t.push('"');
    for a in args {
        t.push_str(", ");
        t.push_str(&a);
    }
    t.push(')');
    Some(t)
}

/// Inline captures (`{queue}`) written as positional arguments.
fn format_positional(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (mac, parts, inline) in formats(src) {
        if inline {
            e.replace_text(mac.byte_range(), template(&parts, false)?);
        }
    }
    e.finish()
}

/// Positional identifier arguments written inline (`{queue}`).
fn format_inline(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (mac, parts, inline) in formats(src) {
        if inline || !parts.iter().any(|p| matches!(p, Part::Arg(..))) {
            continue;
        }
        if let Some(t) = template(&parts, true) {
            e.replace_text(mac.byte_range(), t);
        }
    }
    e.finish()
}

/// `vec![a, b]` and `[a, b]` in a function: a `Vec` filled with `push`.
fn vec_push(src: &Source) -> Option<Rewritten> {
    if taken(src, "pushed") {
        return None;
    }
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let items: Vec<std::ops::Range<usize>> = match n.kind() {
            "array_expression" if !src.text_of(n).contains(';') => named(n)
                .iter()
                .filter(|c| c.kind() != "line_comment")
                .map(|c| c.byte_range())
                .collect(),
            "macro_invocation"
                if n.child_by_field_name("macro").map(|m| src.text_of(m)) == Some("vec") =>
            {
                macro_args(src, n).unwrap_or_default()
            }
            _ => continue,
        };
        if items.len() < 2
            || !inside(n, &["function_item"])
            || inside(
                n,
                &[
                    "const_item",
                    "static_item",
                    "macro_invocation",
                    "array_expression",
                ],
            )
        {
            continue;
        }
        let mut pieces = vec![new("{\n        let mut pushed = Vec::new();\n")];
        for item in items {
            pieces.push(new("        pushed.push("));
            pieces.push(orig(item));
            pieces.push(new(");\n"));
        }
        pieces.push(new("        pushed\n    }"));
        e.replace(n.byte_range(), pieces);
    }
    e.finish()
}

/// A method call's receiver, name-and-arguments range, when `call` is a
/// method call (`recv.name(args)`, turbofish included).
fn method(call: Node) -> Option<(Node, std::ops::Range<usize>)> {
    if call.kind() != "call_expression" {
        return None;
    }
    let mut f = call.child_by_field_name("function")?;
    if f.kind() == "generic_function" {
        f = f.child_by_field_name("function")?;
    }
    if f.kind() != "field_expression" {
        return None;
    }
    let field = f.child_by_field_name("field")?;
    Some((
        f.child_by_field_name("value")?,
        field.start_byte()..call.end_byte(),
    ))
}

/// The links of a method chain ending at `call`: its root and each call's
/// `name(args)`, first to last.
fn chain(call: Node) -> (Node, Vec<std::ops::Range<usize>>) {
    let mut links = Vec::new();
    let mut at = call;
    while let Some((recv, link)) = method(at) {
        links.push(link);
        at = recv;
    }
    links.reverse();
    (at, links)
}

/// The methods of the Redis clients' builders (`Cmd`, `Pipeline`,
/// `Script`, `ScriptInvocation`): each takes the builder by `&mut` (or
/// makes an invocation) and gives it back.
const BUILDER: &[&str] = &[
    "key",
    "arg",
    "cmd",
    "atomic",
    "ignore",
    "query",
    "query_async",
    "invoke",
    "invoke_async",
];

/// Whether a chain's root makes a command or a pipeline (`redis::cmd(..)`,
/// `redis::pipe()`, `Pipeline::new()`, `Cmd::new()`), the builder itself;
/// any other root is a `Script` (held, or returned by a call).
fn command_root(src: &Source, root: Node) -> bool {
    if root.kind() != "call_expression" {
        return false;
    }
    let f = root
        .child_by_field_name("function")
        .map(|f| src.text_of(f))
        .unwrap_or("");
    let last = f.rsplit("::").next().unwrap_or("");
    matches!(last, "cmd" | "pipe") || f.contains("Pipeline::") || f.contains("Cmd::")
}

/// A chain of three calls or more, as a builder bound by `let` and one
/// statement per call. A `Script` gives an owned invocation from its first
/// call (a script a call makes is bound first: the invocation borrows it);
/// a command or pipeline constructor is the builder itself.
fn split_chain(src: &Source) -> Option<Rewritten> {
    if taken(src, "builder") || taken(src, "script") {
        return None;
    }
    let mut e = Edits::new(src.text);
    let mut done: Vec<std::ops::Range<usize>> = Vec::new();
    for n in src.nodes() {
        let (root, links) = chain(n);
        if links.len() < 3
            || done
                .iter()
                .any(|d| d.start <= n.start_byte() && n.end_byte() <= d.end)
        {
            continue;
        }
        if n.parent().and_then(method).is_some()
            || n.parent().is_some_and(|p| p.kind() == "field_expression")
        {
            continue;
        }
        if !links
            .iter()
            .all(|l| BUILDER.contains(&src.slice(l.clone()).split(['(', ':']).next().unwrap_or("")))
        {
            continue;
        }
        let Some(stmt) = hoistable(n) else { continue };
        let script = !command_root(src, root);
        let indent = src.indent_at(stmt.start_byte());
        let (first, rest) = if script && root.kind() == "call_expression" {
            // The invocation borrows its script: the script is bound first,
            // on the builder's line, so the invocation starts on the line
            // the chain started on (the harness knows a call by its line).
            let bind = vec![new("let script = "), orig(root.byte_range()), new("; ")];
            e.replace(stmt.start_byte()..stmt.start_byte(), bind);
            (vec![new("script."), orig(links[0].clone())], &links[1..])
        } else if script {
            (
                vec![orig(root.byte_range()), new("."), orig(links[0].clone())],
                &links[1..],
            )
        } else {
            (vec![orig(root.byte_range())], &links[..])
        };
        let mut pieces = vec![new("let mut builder = ")];
        pieces.extend(first);
        pieces.push(new(format!(";\n{indent}")));
        let (last, middle) = rest.split_last()?;
        for link in middle {
            pieces.extend([
                new("builder."),
                orig(link.clone()),
                new(format!(";\n{indent}")),
            ]);
        }
        e.replace(stmt.start_byte()..stmt.start_byte(), pieces);
        e.replace(n.byte_range(), vec![new("builder."), orig(last.clone())]);
        done.push(stmt.byte_range());
    }
    e.finish()
}

/// The first argument of a call that is itself a call or a macro, bound by
/// `let` before the statement, where the arguments before it are plain.
fn let_argument(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut taken_ranges: Vec<std::ops::Range<usize>> = Vec::new();
    let mut count = 0;
    for n in src.nodes() {
        if n.kind() != "arguments" || inside(n, &["macro_invocation"]) {
            continue;
        }
        let args = named(n);
        let Some(pick) = args.iter().position(|a| {
            let inner = if a.kind() == "reference_expression" {
                a.child_by_field_name("value")
            } else {
                Some(*a)
            };
            inner.is_some_and(|i| matches!(i.kind(), "call_expression" | "macro_invocation"))
        }) else {
            continue;
        };
        if args[..pick].iter().any(|a| {
            !matches!(
                a.kind(),
                "identifier" | "string_literal" | "integer_literal" | "self"
            )
        }) {
            continue;
        }
        let arg = args[pick];
        if taken_ranges
            .iter()
            .any(|r| r.start < arg.end_byte() && arg.start_byte() < r.end)
        {
            continue;
        }
        let Some(stmt) = hoistable(n) else { continue };
        let name = format!("arg_{count}");
        if taken(src, &name) {
            return None;
        }
        count += 1;
        let indent = src.indent_at(stmt.start_byte());
        e.hoist(
            stmt.start_byte(),
            &indent,
            arg.byte_range(),
            format!("let {name} = "),
            ";",
            &name,
        );
        taken_ranges.push(arg.byte_range());
    }
    e.finish()
}

/// Each function returning `String` with plain parameters: its body moved
/// into `NAME_inner` (a method when it takes `self`), which it calls
/// (through `Self::` from an associated function).
fn fn_delegate(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for f in src.nodes() {
        if f.kind() != "function_item"
            || f.child_by_field_name("return_type").map(|t| src.text_of(t)) != Some("String")
            || f.child_by_field_name("type_parameters").is_some()
            || f.child_by_field_name("name")
                .is_some_and(|m| src.slice(f.start_byte()..m.start_byte()).contains("async"))
            || inside(f, &["function_item", "trait_item"])
        {
            continue;
        }
        let (Some(name), Some(params), Some(body)) = (
            f.child_by_field_name("name"),
            f.child_by_field_name("parameters"),
            f.child_by_field_name("body"),
        ) else {
            continue;
        };
        let mut args = Vec::new();
        let mut method = false;
        for p in named(params) {
            match p.kind() {
                "self_parameter" => method = true,
                "parameter"
                    if p.child_by_field_name("pattern")
                        .is_some_and(|x| x.kind() == "identifier") =>
                {
                    args.push(src.text_of(p.child_by_field_name("pattern")?).to_string());
                }
                _ => return None,
            }
        }
        let inner = format!("{}_inner", src.text_of(name));
        if taken(src, &inner) {
            return None;
        }
        // An associated function of an `impl` calls its sibling through
        // `Self::`.
        let call = if method {
            format!("self.{inner}({})", args.join(", "))
        } else if inside(f, &["impl_item"]) {
            format!("Self::{inner}({})", args.join(", "))
        } else {
            format!("{inner}({})", args.join(", "))
        };
        let indent = src.indent_at(f.start_byte());
        let head = src.text_of(f.child_by_field_name("parameters")?);
        e.replace(
            body.byte_range(),
            vec![
                new(format!(
                    "{{\n{indent}    {call}\n{indent}}}\n\n{indent}fn {inner}{head} -> String "
                )),
                orig(body.byte_range()),
            ],
        );
    }
    e.finish()
}

/// Every free function but `main` moved into a new module file `moved`,
/// which sees its parent's items (`use super::*`); the parent `use`s them
/// back, `pub` where they were.
fn move_to_module(src: &Source) -> Option<Rewritten> {
    if taken(src, "moved") {
        return None;
    }
    let fns: Vec<Node> = named(src.root())
        .into_iter()
        .filter(|n| n.kind() == "function_item")
        .filter(|n| {
            n.child_by_field_name("name")
                .is_some_and(|m| src.text_of(m) != "main")
        })
        .filter(|n| !src.text_of(*n).contains("super::"))
        .collect();
    let first = fns.first()?;
    let mut public = Vec::new();
    let mut private = Vec::new();
    let mut module: Vec<Piece> = vec![new(
        "//! Functions moved out of their parent module.\n\nuse super::*;\n",
    )];
    for f in &fns {
        let name = src.text_of(f.child_by_field_name("name")?).to_string();
        let vis = named(*f)
            .into_iter()
            .find(|c| c.kind() == "visibility_modifier");
        module.push(new("\n"));
        match vis {
            Some(v) => {
                public.push(name);
                module.push(orig(v.start_byte()..f.end_byte()));
            }
            None => {
                private.push(name);
                module.push(new("pub "));
                module.push(orig(f.byte_range()));
            }
        }
        module.push(new("\n"));
    }
    let dir = match src.stem() {
        "lib" | "main" | "mod" => src.sibling("moved.rs"),
        stem => src.sibling(&format!("{stem}/moved.rs")),
    };
    let mut decl = String::from("mod moved;\n");
    if !public.is_empty() {
        decl.push_str(&format!("pub use moved::{{{}}};\n", public.join(", ")));
    }
    if !private.is_empty() {
        decl.push_str(&format!("use moved::{{{}}};\n", private.join(", ")));
    }
    let mut e = Edits::new(src.text);
    e.replace_text(first.byte_range(), decl);
    for f in &fns[1..] {
        e.replace_text(f.byte_range(), "");
    }
    e.create(dir, module);
    e.finish()
}
