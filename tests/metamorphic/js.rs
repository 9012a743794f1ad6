//! JavaScript and TypeScript rewrites: a string literal passed to a call
//! held in a module `const`, returned by a `function` or an arrow function,
//! or held in an object's property; a template literal written as `+` or
//! `[..].join('')`, a `+`
//! chain as a template; a call's argument bound by `const` first; a call's
//! arguments spread from an array (`...args`); a function's body moved
//! into a function it calls; an arrow function written as a `function`
//! and back; a function's constant string moved to the module;
//! single-quoted strings written in double quotes; a method called
//! through `Function.prototype.call` or `apply`, or bound to its object
//! by `bind` and held in a `const` first.

use tree_sitter::Node;

use crate::edit::{each, named, new, orig, Edits, Lang, Rewritten, Source};
use crate::shared::{
    concat_chains, delegate, extract, file_name, group, let_argument, method_values, rebuild,
    render, spread_arguments, value_sites, Delegate, Part, Syntax,
};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Js,
        apply,
    };
    vec![
        r("js-value-const", value_const),
        r("js-value-function", value_function),
        r("js-value-arrow", value_arrow),
        r("js-value-object", value_object),
        r("js-template-concat", template_concat),
        r("js-template-join", template_join),
        r("js-concat-template", concat_template),
        r("js-let-argument", |src| {
            let_argument(src, &JS, |n| format!("const {n} = "), ";")
        }),
        r("js-spread-arguments", spread),
        r("js-fn-delegate", fn_delegate),
        r("js-arrow-to-function", arrow_to_function),
        r("js-function-to-arrow", function_to_arrow),
        r("js-local-to-module", local_to_module),
        r("js-double-quotes", double_quotes),
        r("js-method-call", method_call),
        r("js-method-subscript", method_subscript),
        r("js-method-value", method_value),
        r("js-method-apply", method_apply),
    ]
}

fn plain(src: &Source, n: Node) -> Option<String> {
    let pure = named(n).iter().all(|c| c.kind() == "string_fragment");
    match n.kind() {
        "string" | "template_string" if pure => {
            let t = src.text_of(n);
            Some(t[1..t.len() - 1].to_string())
        }
        _ => None,
    }
}

const JS: Syntax = Syntax {
    args: &["arguments"],
    funcs: &[
        "function_declaration",
        "method_definition",
        "arrow_function",
        "function_expression",
    ],
    idents: &[
        "identifier",
        "property_identifier",
        "type_identifier",
        "shorthand_property_identifier",
    ],
    blocks: &["statement_block"],
    through: &[
        "arguments",
        "call_expression",
        "return_statement",
        "expression_statement",
        "lexical_declaration",
        "variable_declarator",
        "await_expression",
        "member_expression",
        "parenthesized_expression",
        "as_expression",
    ],
    call: "call_expression",
    simple: &[
        "identifier",
        "string",
        "number",
        "this",
        "member_expression",
    ],
    plain,
    keep_first: true,
};

fn value_const(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &JS, false);
    extract(src, &sites, str::to_uppercase, |s| {
        each(s, "\nconst {U} = ", ";\n")
    })
}

fn value_function(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &JS, false);
    extract(
        src,
        &sites,
        |s| format!("{s}()"),
        |s| each(s, "\nfunction {}() {\n  return ", ";\n}\n"),
    )
}

fn value_arrow(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &JS, false);
    extract(
        src,
        &sites,
        |s| format!("{s}()"),
        |s| each(s, "\nconst {} = () => ", ";\n"),
    )
}

fn value_object(src: &Source) -> Option<Rewritten> {
    let holder = format!("{}_VALUES", file_name(src).to_uppercase());
    if JS.taken(src, &holder) {
        return None;
    }
    let sites = value_sites(src, &JS, false);
    extract(
        src,
        &sites,
        |s| format!("{holder}.{s}"),
        |s| {
            group(
                s,
                &format!("\nconst {holder} = {{\n"),
                "  {}: ",
                ",\n",
                "};\n",
            )
        },
    )
}

/// Every template literal with substitutions, as parts.
fn templates<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    'next: for n in src.nodes() {
        if n.kind() != "template_string" {
            continue;
        }
        let mut parts = Vec::new();
        for c in named(n) {
            match c.kind() {
                "string_fragment" => parts.push(Part::Lit(src.text_of(c).to_string())),
                "template_substitution" => {
                    let Some(e) = named(c).into_iter().next() else {
                        continue 'next;
                    };
                    parts.push(Part::Arg(src.text_of(e).to_string()));
                }
                _ => continue 'next,
            }
        }
        out.push((n, parts));
    }
    out
}

fn quoted(l: &str) -> String {
    format!("'{l}'")
}

/// An operand of `+`: anything but a name, a member or a call in
/// parentheses.
fn operand(a: &str) -> String {
    if a.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '(' | ')' | ',' | ' ' | '\''))
        && !a.contains(" as ")
    {
        a.to_string()
    } else {
        format!("({a})")
    }
}

/// A template as `+`: its first operand a string, so that every `+`
/// concatenates.
fn template_concat(src: &Source) -> Option<Rewritten> {
    rebuild(src, templates(src), |parts| {
        let text = render(parts, quoted, operand, " + ");
        Some(match parts {
            [Part::Lit(_), ..] | [Part::Arg(_), Part::Lit(_), ..] => text,
            _ => format!("'' + {text}"),
        })
    })
}

/// A template as the array of its parts joined by `''`.
fn template_join(src: &Source) -> Option<Rewritten> {
    rebuild(src, templates(src), |parts| {
        Some(format!(
            "[{}].join('')",
            render(parts, quoted, str::to_string, ", ")
        ))
    })
}

/// A `+` chain whose first or second operand is a string (every `+` of it
/// concatenates) as a template.
fn concat_template(src: &Source) -> Option<Rewritten> {
    let chains = concat_chains(src, &JS, "binary_expression")
        .into_iter()
        .filter(|(_, p)| matches!(p.as_slice(), [Part::Lit(_), ..] | [_, Part::Lit(_), ..]))
        .collect();
    rebuild(src, chains, |parts| {
        Some(format!(
            "`{}`",
            render(parts, str::to_string, |a| format!("${{{a}}}"), "")
        ))
    })
}

fn spread(src: &Source) -> Option<Rewritten> {
    let close = if src.path.ends_with("ts") {
        "] as const;"
    } else {
        "];"
    };
    spread_arguments(
        src,
        &JS,
        &[
            "identifier",
            "string",
            "number",
            "template_string",
            "call_expression",
            "member_expression",
            "this",
            "binary_expression",
        ],
        |n| format!("const {n} = ["),
        close,
        |n| format!("...{n}"),
    )
}

/// The names of a function's parameters, when each is a plain name.
fn params(src: &Source, list: Node) -> Option<Vec<String>> {
    named(list)
        .into_iter()
        .map(|p| {
            let name = match p.kind() {
                "identifier" => p,
                "required_parameter" => p.child_by_field_name("pattern")?,
                _ => return None,
            };
            (name.kind() == "identifier").then(|| src.text_of(name).to_string())
        })
        .collect()
}

/// A function declaration of the module (exported or not).
fn functions<'t>(src: &'t Source) -> Vec<Node<'t>> {
    src.nodes()
        .into_iter()
        .filter(|n| {
            n.kind() == "function_declaration"
                && n.parent().is_some_and(|p| {
                    p.kind() == "program"
                        || (p.kind() == "export_statement"
                            && p.parent().is_some_and(|g| g.kind() == "program"))
                })
        })
        .collect()
}

fn fn_delegate(src: &Source) -> Option<Rewritten> {
    let mut all = Vec::new();
    for f in functions(src) {
        let (Some(name), Some(list), Some(body)) = (
            f.child_by_field_name("name"),
            f.child_by_field_name("parameters"),
            f.child_by_field_name("body"),
        ) else {
            continue;
        };
        let Some(args) = params(src, list) else {
            continue;
        };
        all.push(Delegate {
            node: f,
            name,
            body,
            call: format!("{{\n  return {{}}({});\n}}", args.join(", ")),
        });
    }
    delegate(src, &JS, all, true)
}

/// `const f = (..) => expr;` of the module as `function f(..) { return
/// expr; }`.
fn arrow_to_function(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for decl in src.nodes() {
        let decls = named(decl);
        let [d] = decls.as_slice() else { continue };
        let (Some(name), Some(f)) = (
            d.child_by_field_name("name"),
            d.child_by_field_name("value"),
        ) else {
            continue;
        };
        let top = decl.parent().is_some_and(|p| {
            p.kind() == "program"
                || (p.kind() == "export_statement"
                    && p.parent().is_some_and(|g| g.kind() == "program"))
        });
        let (Some(list), Some(body)) = (
            f.child_by_field_name("parameters"),
            f.child_by_field_name("body"),
        ) else {
            continue;
        };
        if decl.kind() != "lexical_declaration"
            || !top
            || f.kind() != "arrow_function"
            || body.kind() == "statement_block"
            || src.text_of(f).starts_with("async")
        {
            continue;
        }
        let ret = f
            .child_by_field_name("return_type")
            .map_or(String::new(), |r| src.text_of(r).to_string());
        e.replace(
            decl.byte_range(),
            vec![
                new(format!("function {}", src.text_of(name))),
                orig(list.byte_range()),
                new(format!("{ret} {{\n  return ")),
                orig(body.byte_range()),
                new(";\n}"),
            ],
        );
    }
    e.finish()
}

/// `function f(..) { return expr; }` of the module as `const f = (..) =>
/// expr;`.
fn function_to_arrow(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for f in functions(src) {
        let (Some(name), Some(list), Some(body)) = (
            f.child_by_field_name("name"),
            f.child_by_field_name("parameters"),
            f.child_by_field_name("body"),
        ) else {
            continue;
        };
        let stmts = named(body);
        let [ret] = stmts.as_slice() else { continue };
        let Some(value) = named(*ret).into_iter().next() else {
            continue;
        };
        if ret.kind() != "return_statement" || src.text_of(f).starts_with("async") {
            continue;
        }
        let ty = f
            .child_by_field_name("return_type")
            .map_or(String::new(), |r| src.text_of(r).to_string());
        e.replace(
            f.byte_range(),
            vec![
                new(format!("const {} = ", src.text_of(name))),
                orig(list.byte_range()),
                new(format!("{ty} => ")),
                orig(value.byte_range()),
                new(";"),
            ],
        );
    }
    e.finish()
}

/// `const NAME = 'text'` (or a template without substitutions) in a
/// function, its name the only one of the file, moved to the module.
fn local_to_module(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut moved = vec![new("\n")];
    for decl in src.nodes() {
        let decls = named(decl);
        let [d] = decls.as_slice() else { continue };
        let (Some(name), Some(value)) = (
            d.child_by_field_name("name"),
            d.child_by_field_name("value"),
        ) else {
            continue;
        };
        let once = src
            .nodes()
            .iter()
            .filter(|n| n.kind() == "variable_declarator")
            .filter(|n| {
                n.child_by_field_name("name")
                    .is_some_and(|m| src.text_of(m) == src.text_of(name))
            })
            .count()
            == 1;
        if decl.kind() != "lexical_declaration"
            || !src.text_of(decl).starts_with("const")
            || !crate::edit::inside(decl, JS.funcs)
            || plain(src, value).is_none()
            || !once
        {
            continue;
        }
        e.replace_text(decl.byte_range(), "");
        moved.extend([
            new(format!("\nconst {} = ", src.text_of(name))),
            orig(value.byte_range()),
            new(";\n"),
        ]);
    }
    if moved.len() == 1 {
        return None;
    }
    e.replace(src.text.len()..src.text.len(), moved);
    e.finish()
}

/// Single-quoted strings passed to calls written in double quotes.
fn double_quotes(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        if n.kind() == "string"
            && src.text_of(n).starts_with('\'')
            && n.parent().is_some_and(|p| p.kind() == "arguments")
        {
            if let Some(text) = plain(src, n).filter(|t| !t.contains('"')) {
                e.replace_text(n.byte_range(), format!("\"{text}\""));
            }
        }
    }
    e.finish()
}

/// A receiver that names the same object wherever it is written again: a
/// name, `this`, or a property of one of those.
fn pure_receiver(n: Node) -> bool {
    match n.kind() {
        "identifier" | "this" => true,
        "member_expression" => {
            n.child_by_field_name("object").is_some_and(pure_receiver)
                && n.child_by_field_name("property").map(|p| p.kind())
                    == Some("property_identifier")
        }
        _ => false,
    }
}

/// `recv.m(args)` as its method, receiver and arguments: a plain call (no
/// `?.`, no type arguments, not `super`) on a receiver with no effect of
/// its own.
fn plain_method_call<'t>(src: &Source, n: Node<'t>) -> Option<(Node<'t>, Node<'t>, Node<'t>)> {
    if n.kind() != "call_expression" {
        return None;
    }
    let func = n.child_by_field_name("function")?;
    let args = n.child_by_field_name("arguments")?;
    let recv = func.child_by_field_name("object")?;
    let plain = func.kind() == "member_expression"
        && args.kind() == "arguments"
        && func.end_byte() == args.start_byte()
        && !src.text_of(func).contains("?.")
        && n.child_by_field_name("type_arguments").is_none();
    (plain && pure_receiver(recv)).then_some((func, recv, args))
}

/// `recv.m(args)` written `recv.m.call(recv, args)`: `call` runs the
/// function with its first argument as `this` and the rest as its
/// arguments, so the same method runs on the same object with the same
/// arguments. Only where the receiver has no effect of its own (it is
/// written twice) and the call is a plain one (no `?.`, no type arguments,
/// not `super`).
fn method_call(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let Some((func, recv, args)) = plain_method_call(src, n) else {
            continue;
        };
        let this = src.text_of(recv).to_string();
        let sep = if named(args).is_empty() { "" } else { ", " };
        e.insert(func.end_byte(), ".call");
        e.insert(args.start_byte() + 1, format!("{this}{sep}"));
    }
    e.finish()
}

/// `recv.m(args)` written `const method_N = recv.m.bind(recv);` on a line
/// before its statement, and `method_N(args)`: `bind` makes the function
/// that runs `m` with `recv` as `this`, and reading `recv.m` before the
/// statement reads the same method (the receiver has no effect of its
/// own, and no function lies between the call and its statement).
fn method_value(src: &Source) -> Option<Rewritten> {
    method_values(
        src,
        &JS,
        |n| plain_method_call(src, n).map(|(func, recv, _)| (func, recv)),
        |name| format!("const {name} = "),
        |recv| format!(".bind({recv});"),
    )
}

/// `recv.m(args)` written `recv.m.apply(recv, [args])`: `apply` runs the
/// function with its first argument as `this` and the array's items as
/// its arguments. Not where an argument is spread already.
fn method_apply(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let Some((func, recv, args)) = plain_method_call(src, n) else {
            continue;
        };
        if named(args).iter().any(|a| a.kind() == "spread_element") {
            continue;
        }
        let this = src.text_of(recv).to_string();
        e.insert(func.end_byte(), ".apply");
        e.insert(args.start_byte() + 1, format!("{this}, ["));
        e.insert(args.end_byte() - 1, "]");
    }
    e.finish()
}

/// `recv.m(args)` written `recv["m"](args)`: a member read with its name
/// as a string is the same member, and a call of it has `recv` as `this`.
fn method_subscript(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let Some((func, recv, _)) = plain_method_call(src, n) else {
            continue;
        };
        let Some(name) = func.child_by_field_name("property") else {
            continue;
        };
        if name.kind() != "property_identifier" {
            continue;
        }
        e.replace_text(
            recv.end_byte()..name.end_byte(),
            format!("[\"{}\"]", src.text_of(name)),
        );
    }
    e.finish()
}
