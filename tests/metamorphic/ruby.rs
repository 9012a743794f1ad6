//! Ruby rewrites: a string literal passed to a call held in a constant, a
//! method, another module's constant or a frozen hash; an interpolated
//! string written as `[..].join`, `+` or `format`, a `format` as
//! interpolation; a call's argument bound to a name first; a call's
//! arguments splatted from an array (`*args`); a method's body moved into
//! a method it calls; an endless method written with `end` and back; a block's
//! braces written `do .. end` and back; a method called by
//! `public_send(:name, ..)`; a script loaded for its SHA made a
//! redis-prescription script object, run with the client.

use tree_sitter::Node;

use crate::edit::{each, named, new, orig, Edits, Lang, Rewritten, Source};
use crate::shared::{
    delegate, extract, file_name, group, let_argument, parse_template, rebuild, render, requote,
    spread_arguments, template, value_sites, Delegate, Part, Syntax,
};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Ruby,
        apply,
    };
    vec![
        r("rb-value-constant", value_constant),
        r("rb-value-method", value_method),
        r("rb-value-module", value_module),
        r("rb-value-hash", value_hash),
        r("rb-interpolation-join", |src| {
            rebuild(src, interpolations(src), |p| {
                Some(format!(
                    "[{}].join",
                    render(p, quoted, str::to_string, ", ")
                ))
            })
        }),
        r("rb-interpolation-concat", |src| {
            rebuild(src, interpolations(src), |p| {
                Some(render(p, quoted, str::to_string, " + "))
            })
        }),
        r("rb-interpolation-format", |src| {
            rebuild(src, interpolations(src), |p| {
                let (text, args) = template(p, "%s", |l| l.replace('%', "%%"));
                Some(format!("format(\"{text}\", {args})"))
            })
        }),
        r("rb-format-interpolation", |src| {
            rebuild(src, formats(src), |p| {
                Some(format!(
                    "\"{}\"",
                    render(p, str::to_string, |a| format!("#{{{a}}}"), "")
                ))
            })
        }),
        r("rb-let-argument", |src| {
            let_argument(src, &RB, |n| format!("{n} = "), "")
        }),
        r("rb-splat-arguments", splat_arguments),
        r("rb-fn-delegate", fn_delegate),
        r("rb-endless-to-block", endless_to_block),
        r("rb-block-to-endless", block_to_endless),
        r("rb-braces-to-do", braces_to_do),
        r("rb-do-to-braces", do_to_braces),
        r("rb-single-quotes", |src| requote(src, &RB, '"', '\'')),
        r("rb-public-send", public_send),
        r("rb-method-object", method_object),
        r("rb-prescription", prescription),
    ]
}

fn plain(src: &Source, n: Node) -> Option<String> {
    let t = src.text_of(n);
    (n.kind() == "string"
        && t.starts_with(['"', '\''])
        && named(n).iter().all(|c| c.kind() == "string_content"))
    .then(|| t[1..t.len() - 1].to_string())
}

const RB: Syntax = Syntax {
    args: &["argument_list"],
    funcs: &["method", "singleton_method", "block", "do_block", "lambda"],
    idents: &["identifier", "constant"],
    blocks: &["body_statement", "block_body"],
    through: &["argument_list", "call", "assignment", "return"],
    call: "call",
    simple: &[
        "identifier",
        "string",
        "integer",
        "instance_variable",
        "constant",
        "simple_symbol",
        "scope_resolution",
    ],
    plain,
    keep_first: false,
};

fn quoted(l: &str) -> String {
    format!("\"{l}\"")
}

fn value_constant(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &RB, false);
    extract(src, &sites, str::to_uppercase, |s| {
        each(s, "\n{U} = ", "\n")
    })
}

fn value_method(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &RB, false);
    extract(
        src,
        &sites,
        |s| format!("{s}()"),
        |s| each(s, "\ndef {}\n  ", "\nend\n"),
    )
}

/// The module the values move to: the file's name in camel case.
fn holder(src: &Source) -> String {
    let mut out = String::new();
    for w in file_name(src).split('_') {
        let mut c = w.chars();
        if let Some(f) = c.next() {
            out.extend(f.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    format!("{out}Values")
}

fn value_module(src: &Source) -> Option<Rewritten> {
    let module = holder(src);
    if RB.taken(src, &module) {
        return None;
    }
    let sites = value_sites(src, &RB, false);
    let open = format!("\nmodule {module}\n");
    extract(
        src,
        &sites,
        |s| format!("{module}::{}", s.to_uppercase()),
        |s| {
            let mut out = vec![new(open.clone())];
            out.extend(each(s, "  {U} = ", "\n"));
            out.push(new("end\n"));
            out
        },
    )
}

fn value_hash(src: &Source) -> Option<Rewritten> {
    let hash = format!("{}_VALUES", file_name(src).to_uppercase());
    if RB.taken(src, &hash) {
        return None;
    }
    let sites = value_sites(src, &RB, false);
    extract(
        src,
        &sites,
        |s| format!("{hash}[:{s}]"),
        |s| {
            group(
                s,
                &format!("\n{hash} = {{\n"),
                "  {}: ",
                ",\n",
                "}.freeze\n",
            )
        },
    )
}

/// Every double-quoted string with interpolations (no escape), as parts.
fn interpolations<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    'next: for n in src.nodes() {
        if n.kind() != "string" || !src.text_of(n).starts_with('"') {
            continue;
        }
        let mut parts = Vec::new();
        for c in named(n) {
            match c.kind() {
                "string_content" => parts.push(Part::Lit(src.text_of(c).to_string())),
                "interpolation" if named(c).len() == 1 => {
                    parts.push(Part::Arg(src.text_of(named(c)[0]).to_string()));
                }
                _ => continue 'next,
            }
        }
        out.push((n, parts));
    }
    out
}

/// Every `format("..%s..", args)` (or `sprintf`) with `%s` holes, as parts.
fn formats<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    for n in src.nodes() {
        let (Some(m), Some(list)) = (
            n.child_by_field_name("method"),
            n.child_by_field_name("arguments"),
        ) else {
            continue;
        };
        if n.kind() != "call"
            || n.child_by_field_name("receiver").is_some()
            || !matches!(src.text_of(m), "format" | "sprintf")
        {
            continue;
        }
        let args = named(list);
        let Some(text) = args.first().and_then(|a| plain(src, *a)) else {
            continue;
        };
        let rest: Vec<String> = args[1..]
            .iter()
            .map(|a| src.text_of(*a).to_string())
            .collect();
        if rest.iter().any(|a| a.contains(['"', '}'])) {
            continue;
        }
        if let Some(parts) = parse_template(&text, "%s", &rest) {
            out.push((n, parts));
        }
    }
    out
}

fn splat_arguments(src: &Source) -> Option<Rewritten> {
    spread_arguments(
        src,
        &RB,
        &[
            "identifier",
            "string",
            "integer",
            "call",
            "instance_variable",
            "constant",
            "simple_symbol",
            "scope_resolution",
            "array",
        ],
        |n| format!("{n} = ["),
        "]",
        |n| format!("*{n}"),
    )
}

/// `def name(args) = expr` as `def name(args)`, `expr`, `end`.
fn endless_to_block(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for f in src.nodes() {
        let Some(body) = f.child_by_field_name("body").filter(|b| {
            matches!(f.kind(), "method" | "singleton_method") && b.kind() != "body_statement"
        }) else {
            continue;
        };
        let head_end = f
            .child_by_field_name("parameters")
            .or_else(|| f.child_by_field_name("name"))?
            .end_byte();
        if src.slice(head_end..body.start_byte()).trim() != "=" {
            continue;
        }
        let indent = src.indent_at(f.start_byte());
        e.replace(
            head_end..f.end_byte(),
            vec![
                new(format!("\n{indent}  ")),
                orig(body.byte_range()),
                new(format!("\n{indent}end")),
            ],
        );
    }
    e.finish()
}

/// `def name(args)`, one expression, `end` as `def name(args) = expr`.
fn block_to_endless(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for f in src.nodes() {
        let Some(body) = f.child_by_field_name("body").filter(|b| {
            matches!(f.kind(), "method" | "singleton_method") && b.kind() == "body_statement"
        }) else {
            continue;
        };
        let Some(head) = f.child_by_field_name("parameters") else {
            continue;
        };
        let stmts = named(body);
        let [expr] = stmts.as_slice() else { continue };
        if expr.kind() != "call" || expr.start_position().row != expr.end_position().row {
            continue;
        }
        e.replace(
            head.end_byte()..f.end_byte(),
            vec![new(" = "), orig(expr.byte_range())],
        );
    }
    e.finish()
}

/// The blocks of `kind` of calls that are statements (where `do` and
/// braces bind alike): the block, its parameters and body.
fn blocks<'t>(src: &'t Source, kind: &str) -> Vec<(Node<'t>, Option<Node<'t>>, Option<Node<'t>>)> {
    src.nodes()
        .into_iter()
        .filter(|b| {
            b.kind() == kind
                && b.parent().is_some_and(|c| {
                    c.kind() == "call" && c.parent().is_some_and(|s| RB.blocks.contains(&s.kind()))
                })
        })
        .map(|b| {
            (
                b,
                b.child_by_field_name("parameters"),
                b.child_by_field_name("body"),
            )
        })
        .collect()
}

/// A block's parameters and body between `open` and `close`.
fn reblock(src: &Source, kind: &str, open: &str, close: &str) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (b, params, body) in blocks(src, kind) {
        let mut pieces = vec![new(open)];
        let multi = b.start_position().row != b.end_position().row;
        if let Some(p) = params {
            pieces.extend([new(" "), orig(p.byte_range())]);
        }
        match body {
            Some(body) if multi => {
                let indent = src.indent_at(body.start_byte());
                let outer = src.indent_at(b.end_byte());
                pieces.extend([
                    new(format!("\n{indent}")),
                    orig(body.byte_range()),
                    new(format!("\n{outer}{close}")),
                ]);
            }
            Some(body) => {
                pieces.extend([new(" "), orig(body.byte_range()), new(format!(" {close}"))])
            }
            None => pieces.push(new(format!(" {close}"))),
        }
        e.replace(b.byte_range(), pieces);
    }
    e.finish()
}

fn braces_to_do(src: &Source) -> Option<Rewritten> {
    reblock(src, "block", "do", "end")
}

fn do_to_braces(src: &Source) -> Option<Rewritten> {
    reblock(src, "do_block", "{", "}")
}

/// Each method (`def x`, `def self.x`; not `initialize`, none that
/// yields) with plain parameters: its body moved into `NAME_inner`, which
/// it calls with them.
fn fn_delegate(src: &Source) -> Option<Rewritten> {
    let mut all = Vec::new();
    for f in src.nodes() {
        let (Some(name), Some(body)) =
            (f.child_by_field_name("name"), f.child_by_field_name("body"))
        else {
            continue;
        };
        let text = src.text_of(name);
        if !matches!(f.kind(), "method" | "singleton_method")
            || text == "initialize"
            || !text.chars().all(|c| c.is_alphanumeric() || c == '_')
            || src.text_of(body).contains("yield")
            || src.text_of(body).contains("block_given?")
        {
            continue;
        }
        let params = f
            .child_by_field_name("parameters")
            .map(named)
            .unwrap_or_default();
        if params.iter().any(|p| p.kind() != "identifier") {
            continue;
        }
        let args: Vec<&str> = params.iter().map(|p| src.text_of(*p)).collect();
        all.push(Delegate {
            node: f,
            name,
            body,
            call: format!("{{}}({})", args.join(", ")),
        });
    }
    delegate(src, &RB, all, false)
}

/// `recv.m(args)` written `recv.public_send(:m, args)` (with or without
/// parentheses, a block kept where it was): `public_send` calls the public
/// method its symbol names on the receiver with the arguments and block
/// that follow, as the call itself does; the receiver is still read once.
/// Not after `&.` or `::`, nor a method whose name is not a plain
/// identifier.
fn public_send(src: &Source) -> Option<Rewritten> {
    by_name(src, |name| format!("public_send(:{name}"), true)
}

/// `recv.m(args)` written `recv.method(:m).call(args)`: `method` gives the
/// method `m` bound to `recv`, and `call` runs it with the arguments (and
/// the block), where the same sites as [`public_send`]'s are.
fn method_object(src: &Source) -> Option<Rewritten> {
    by_name(src, |name| format!("method(:{name}).call("), false)
}

/// Each plain method call `recv.m(args)` written with `head(m)` (which
/// opens the call's argument list) in place of `m`: its arguments follow,
/// after `, ` where the name is the first argument (`name_is_arg`).
fn by_name(src: &Source, head: impl Fn(&str) -> String, name_is_arg: bool) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        if n.kind() != "call" {
            continue;
        }
        let (Some(recv), Some(m)) = (
            n.child_by_field_name("receiver"),
            n.child_by_field_name("method"),
        ) else {
            continue;
        };
        let dot = src.slice(recv.end_byte()..m.start_byte());
        if m.kind() != "identifier" || dot.trim() != "." {
            continue;
        }
        let head = head(src.text_of(m));
        let sep = if name_is_arg { ", " } else { "" };
        match n.child_by_field_name("arguments") {
            None => e.replace_text(m.byte_range(), format!("{head})")),
            Some(args) if src.text_of(args).starts_with('(') => {
                let sep = if named(args).is_empty() { "" } else { sep };
                e.replace_text(
                    m.start_byte()..args.start_byte() + 1,
                    format!("{head}{sep}"),
                );
            }
            Some(args) => {
                e.replace_text(m.start_byte()..args.start_byte(), format!("{head}{sep}"));
                e.insert(args.end_byte(), ")");
            }
        }
    }
    e.finish()
}

/// `@sha = redis.script(:load, LUA)` written `@sha = RedisPrescription.new(LUA)`,
/// and each `r.evalsha(@sha, keys: .., argv: ..)` of that name written
/// `@sha.call(r, keys: .., argv: ..)`: the script object runs the same
/// script with the same keys and arguments (EVALSHA, then EVAL).
fn prescription(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut held = Vec::new();
    for n in src.nodes() {
        if n.kind() != "assignment" {
            continue;
        }
        let (Some(lhs), Some(rhs)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            continue;
        };
        let method = rhs.child_by_field_name("method").map(|m| src.text_of(m));
        let args = rhs
            .child_by_field_name("arguments")
            .map(named)
            .unwrap_or_default();
        match (rhs.kind(), method, args.as_slice()) {
            ("call", Some("script"), [load, lua]) if src.text_of(*load) == ":load" => {
                e.replace(
                    rhs.byte_range(),
                    vec![
                        new("RedisPrescription.new("),
                        orig(lua.byte_range()),
                        new(")"),
                    ],
                );
                held.push(src.text_of(lhs).to_string());
            }
            _ => {}
        }
    }
    for n in src.nodes() {
        let (Some(recv), Some(m), Some(args)) = (
            n.child_by_field_name("receiver"),
            n.child_by_field_name("method"),
            n.child_by_field_name("arguments"),
        ) else {
            continue;
        };
        let first = named(args).into_iter().next();
        let Some(sha) = first.filter(|f| held.iter().any(|h| h == src.text_of(*f))) else {
            continue;
        };
        if n.kind() != "call" || src.text_of(m) != "evalsha" || !src.text_of(args).starts_with('(')
        {
            continue;
        }
        e.replace(
            recv.start_byte()..sha.end_byte(),
            vec![
                orig(sha.byte_range()),
                new(".call("),
                orig(recv.byte_range()),
            ],
        );
    }
    e.finish()
}
