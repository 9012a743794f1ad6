//! Python rewrites: a string literal passed to a call held in a module
//! constant, a function, a class attribute or a dict; an f-string written
//! with `str.format` or `%`, `str.format` and `%` as f-strings, `%` as
//! `str.format`, a `+` chain as an f-string or `"".join`; a call's
//! argument bound to a name first; a call's arguments unpacked from a list
//! (`*args`); a function's body moved into a function it calls; a list of
//! keys filled by `append`; a script bound to a name moved into a `.lua`
//! file beside the module, which a helper reads by the name it is passed
//! (`_read_lua("NAME.lua")`: the path is completed at the helper's call);
//! a method held in a name first (`method_0 = r.hset`) and called through
//! it.

use tree_sitter::Node;

use crate::edit::{each, named, new, orig, Edits, Lang, Rewritten, Source};
use crate::shared::{
    concat_chains, extract, group, let_argument, method_values, parse_template, rebuild, render,
    requote, spread_arguments, template, value_sites, Part, Syntax,
};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Python,
        apply,
    };
    vec![
        r("py-value-constant", value_constant),
        r("py-value-function", value_function),
        r("py-value-class-attribute", value_class),
        r("py-value-dict", value_dict),
        r("py-fstring-format", fstring_format),
        r("py-format-fstring", |src| {
            rebuild(src, formats(src), fstring)
        }),
        r("py-percent-fstring", |src| {
            rebuild(src, percents(src), fstring)
        }),
        r("py-concat-fstring", |src| {
            rebuild(src, concat_chains(src, &PY, "binary_operator"), fstring)
        }),
        r("py-concat-join", concat_join),
        r("py-percent-format", |src| {
            rebuild(src, percents(src), |p| {
                let (text, args) = template(p, "{}", braces);
                Some(format!("\"{text}\".format({args})"))
            })
        }),
        r("py-fstring-percent", |src| {
            rebuild(src, fstrings(src), |p| {
                let (text, args) = template(p, "%s", |l| l.replace('%', "%%"));
                let comma = if p.iter().filter(|x| matches!(x, Part::Arg(_))).count() == 1 {
                    ","
                } else {
                    ""
                };
                Some(format!("\"{text}\" % ({args}{comma})"))
            })
        }),
        r("py-let-argument", |src| {
            let_argument(src, &PY, |n| format!("{n} = "), "")
        }),
        r("py-star-arguments", |src| {
            spread_arguments(
                src,
                &PY,
                &[
                    "identifier",
                    "string",
                    "integer",
                    "attribute",
                    "call",
                    "binary_operator",
                ],
                |n| format!("{n} = ["),
                "]",
                |n| format!("*{n}"),
            )
        }),
        r("py-keys-append", keys_append),
        r("py-script-file-read-by-helper", script_file),
        r("py-single-quotes", |src| requote(src, &PY, '"', '\'')),
        r("py-method-value", method_value),
        r("py-getattr", getattr_call),
    ]
}

fn plain(src: &Source, n: Node) -> Option<String> {
    if n.kind() != "string" {
        return None;
    }
    let kids = named(n);
    let start = kids.first().map(|s| src.text_of(*s))?;
    if !start.starts_with(['"', '\''])
        || kids
            .iter()
            .any(|c| !matches!(c.kind(), "string_start" | "string_content" | "string_end"))
        || kids
            .iter()
            .any(|c| named(*c).iter().any(|g| g.kind() == "escape_sequence"))
    {
        return None;
    }
    let t = src.text_of(n);
    let q = start.len();
    Some(t[q..t.len() - q].to_string())
}

const PY: Syntax = Syntax {
    args: &["argument_list"],
    funcs: &["function_definition", "lambda"],
    idents: &["identifier"],
    blocks: &["block"],
    through: &[
        "argument_list",
        "call",
        "return_statement",
        "expression_statement",
        "assignment",
        "await",
        "attribute",
    ],
    call: "call",
    simple: &["identifier", "string", "integer", "attribute"],
    plain,
    keep_first: false,
};

fn value_constant(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &PY, false);
    extract(src, &sites, str::to_uppercase, |s| {
        each(s, "\n{U} = ", "\n")
    })
}

fn value_function(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &PY, false);
    extract(
        src,
        &sites,
        |s| format!("{s}()"),
        |s| each(s, "\n\ndef {}():\n    return ", "\n"),
    )
}

fn value_class(src: &Source) -> Option<Rewritten> {
    if PY.taken(src, "_Values") {
        return None;
    }
    let sites = value_sites(src, &PY, false);
    extract(
        src,
        &sites,
        |s| format!("_Values.{s}"),
        |s| group(s, "\n\nclass _Values:\n", "    {} = ", "\n", ""),
    )
}

fn value_dict(src: &Source) -> Option<Rewritten> {
    if PY.taken(src, "_VALUES") {
        return None;
    }
    let sites = value_sites(src, &PY, false);
    extract(
        src,
        &sites,
        |s| format!("_VALUES[\"{s}\"]"),
        |s| group(s, "\n_VALUES = {\n", "    \"{}\": ", ",\n", "}\n"),
    )
}

/// Every f-string with plain interpolations (no conversion, no format
/// spec, no escape), as parts.
fn fstrings<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    'next: for n in src.nodes() {
        let kids = named(n);
        let Some(start) = kids.first().map(|s| src.text_of(*s)) else {
            continue;
        };
        if n.kind() != "string" || !matches!(start, "f\"" | "f'") {
            continue;
        }
        let mut parts = Vec::new();
        for c in &kids[1..kids.len() - 1] {
            match c.kind() {
                "string_content" if !named(*c).iter().any(|g| g.kind() == "escape_sequence") => {
                    let t = src.text_of(*c).replace("{{", "{").replace("}}", "}");
                    parts.push(Part::Lit(t));
                }
                "interpolation" if named(*c).len() == 1 => {
                    let e = c.child_by_field_name("expression");
                    let Some(e) = e else { continue 'next };
                    parts.push(Part::Arg(src.text_of(e).to_string()));
                }
                _ => continue 'next,
            }
        }
        out.push((n, parts));
    }
    out
}

/// Every `"...{}...".format(args)` with positional `{}` holes, as parts.
fn formats<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    for n in src.nodes() {
        let Some(f) = n
            .child_by_field_name("function")
            .filter(|f| n.kind() == "call" && f.kind() == "attribute")
        else {
            continue;
        };
        let (Some(obj), Some(attr), Some(list)) = (
            f.child_by_field_name("object"),
            f.child_by_field_name("attribute"),
            n.child_by_field_name("arguments"),
        ) else {
            continue;
        };
        let Some(text) = plain(src, obj).filter(|_| src.text_of(attr) == "format") else {
            continue;
        };
        let args: Vec<String> = named(list)
            .iter()
            .map(|a| src.text_of(*a).to_string())
            .collect();
        if named(list).iter().any(|a| a.kind() == "keyword_argument") {
            continue;
        }
        if let Some(parts) = parse_template(&text, "{}", &args) {
            out.push((n, parts));
        }
    }
    out
}

/// Every `"...%s..." % (args)` with `%s` holes, as parts.
fn percents<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    for n in src.nodes() {
        let (Some(l), Some(op), Some(r)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("operator"),
            n.child_by_field_name("right"),
        ) else {
            continue;
        };
        let Some(text) = plain(src, l).filter(|_| {
            n.kind() == "binary_operator" && src.text_of(op) == "%" && r.kind() == "tuple"
        }) else {
            continue;
        };
        let args: Vec<String> = named(r)
            .iter()
            .map(|a| src.text_of(*a).to_string())
            .collect();
        if let Some(parts) = parse_template(&text, "%s", &args) {
            out.push((n, parts));
        }
    }
    out
}

fn braces(l: &str) -> String {
    l.replace('{', "{{").replace('}', "}}")
}

/// The parts as an f-string (no quote in an interpolation).
fn fstring(parts: &[Part]) -> Option<String> {
    if parts
        .iter()
        .any(|p| matches!(p, Part::Arg(a) if a.contains(['"', '{', '}', '\n'])))
    {
        return None;
    }
    Some(format!(
        "f\"{}\"",
        render(parts, braces, |a| format!("{{{a}}}"), "")
    ))
}

fn fstring_format(src: &Source) -> Option<Rewritten> {
    rebuild(src, fstrings(src), |parts| {
        let (text, args) = template(parts, "{}", braces);
        Some(format!("\"{text}\".format({args})"))
    })
}

fn concat_join(src: &Source) -> Option<Rewritten> {
    rebuild(src, concat_chains(src, &PY, "binary_operator"), |parts| {
        let items = render(parts, |l| format!("\"{l}\""), str::to_string, ", ");
        Some(format!("\"\".join([{items}])"))
    })
}

/// `keys = [a, b]` in a function as `keys = []` and one `append` per item.
fn keys_append(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let (Some(left), Some(right)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            continue;
        };
        let items = named(right);
        if n.kind() != "assignment"
            || left.kind() != "identifier"
            || right.kind() != "list"
            || items.len() < 2
            || items.iter().any(|i| i.kind().contains("comment"))
            || PY.statement(src, n) != n.parent()
        {
            continue;
        }
        let name = src.text_of(left);
        let indent = src.indent_at(n.start_byte());
        let mut pieces = vec![new("[]")];
        for item in items {
            pieces.push(new(format!("\n{indent}{name}.append(")));
            pieces.push(orig(item.byte_range()));
            pieces.push(new(")"));
        }
        e.replace(right.byte_range(), pieces);
    }
    e.finish()
}

/// `NAME = """..redis.call(..)"""`, the script's text in no escape: its
/// bytes moved into `NAME.lua` beside the module, read at run time by a
/// helper the name is passed to.
fn script_file(src: &Source) -> Option<Rewritten> {
    if PY.taken(src, "_read_lua") || PY.taken(src, "_wl_os") {
        return None;
    }
    let mut e = Edits::new(src.text);
    let mut any = false;
    for n in src.nodes() {
        let (Some(left), Some(right)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            continue;
        };
        let content = named(right);
        let plain = right.kind() == "string"
            && content.len() == 3
            && content[1].kind() == "string_content"
            && named(content[1]).is_empty()
            && matches!(src.text_of(content[0]), "\"\"\"" | "\"" | "'" | "'''");
        let name = src.text_of(left);
        if n.kind() != "assignment"
            || left.kind() != "identifier"
            || !plain
            || !src.text_of(content[1]).contains("redis.call")
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            continue;
        }
        let file = src.sibling(&format!("{name}.lua"));
        e.create(file, vec![orig(content[1].byte_range())]);
        e.replace_text(right.byte_range(), format!("_read_lua(\"{name}.lua\")"));
        any = true;
    }
    if !any {
        return None;
    }
    e.insert(
        0,
        "import os as _wl_os\n\n\ndef _read_lua(name):\n    with open(_wl_os.path.join(_wl_os.path.dirname(__file__), name)) as f:\n        return f.read()\n\n\n",
    );
    e.finish()
}

/// A receiver that names the same object wherever it is written again: a
/// name, or an attribute of one (`self.redis`).
fn pure_receiver(n: Node) -> bool {
    match n.kind() {
        "identifier" => true,
        "attribute" => n.child_by_field_name("object").is_some_and(pure_receiver),
        _ => false,
    }
}

/// `recv.m(args)` written `method_N = recv.m` on a line before its
/// statement and `method_N(args)`: reading `recv.m` gives the method bound
/// to `recv`, so the name calls the same method on the same object (the
/// receiver has no effect of its own, and no function lies between the
/// call and its statement).
fn method_value<'t>(src: &'t Source) -> Option<Rewritten> {
    let method = |n: Node<'t>| {
        let func = n.child_by_field_name("function")?;
        let recv = func.child_by_field_name("object")?;
        let plain = n.kind() == "call"
            && func.kind() == "attribute"
            && pure_receiver(recv)
            && n.child_by_field_name("arguments").map(|a| a.kind()) == Some("argument_list");
        plain.then_some((func, recv))
    };
    method_values(
        src,
        &PY,
        method,
        |name| format!("{name} = "),
        |_| String::new(),
    )
}

/// `recv.m(args)` written `getattr(recv, "m")(args)`: `getattr` with the
/// name as a string reads the same attribute, the method bound to `recv`.
fn getattr_call(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let (Some(func), Some(args)) = (
            n.child_by_field_name("function"),
            n.child_by_field_name("arguments"),
        ) else {
            continue;
        };
        let (Some(recv), Some(name)) = (
            func.child_by_field_name("object"),
            func.child_by_field_name("attribute"),
        ) else {
            continue;
        };
        if n.kind() != "call"
            || func.kind() != "attribute"
            || !pure_receiver(recv)
            || args.kind() != "argument_list"
        {
            continue;
        }
        e.replace_text(
            func.byte_range(),
            format!("getattr({}, \"{}\")", src.text_of(recv), src.text_of(name)),
        );
    }
    e.finish()
}
