//! Rust rewrites, part one: a value (a string literal passed to a call, or
//! a file's `&str` constant passed to one) held somewhere else and fetched
//! where it was: a `fn`, a `const`, a `static`, a `LazyLock`, a
//! `OnceLock`, a struct's field set in `new()`, a method on that struct, an
//! associated function another calls through `Self::`, a `HashMap`
//! registry filled in a constructor, a `match` registry; both looked up by
//! a literal name. Part two (`rust_build.rs`): strings built
//! other ways, keys through a `Vec`, builder chains split, functions moved.

use tree_sitter::Node;

use crate::edit::{
    distinct, each, inside, named, new, orig, Edits, Lang, Piece, Rewritten, Site, Source,
};
use crate::Rewrite;

#[path = "rust_build.rs"]
mod build;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Rust,
        apply,
    };
    let mut all = vec![
        r("rust-value-fn", value_fn),
        r("rust-value-const", value_const),
        r("rust-value-static", value_static),
        r("rust-value-lazylock", value_lazylock),
        r("rust-value-oncelock", value_oncelock),
        r("rust-value-struct-field", value_struct_field),
        r("rust-value-struct-method", value_struct_method),
        r("rust-value-self-assoc", value_self_assoc),
        r("rust-value-hashmap-registry", value_hashmap),
        r("rust-value-match-registry", value_match),
    ];
    all.extend(build::catalog());
    all
}

/// Whether `name` is an identifier of the file already.
pub fn taken(src: &Source, name: &str) -> bool {
    src.nodes().iter().any(|n| {
        matches!(
            n.kind(),
            "identifier" | "type_identifier" | "field_identifier"
        ) && src.text_of(*n) == name
    })
}

/// Whether `node` sits where a statement may be hoisted before it without
/// changing what runs: no closure, condition or arm between, and inside a
/// function's block.
pub fn hoistable(node: Node) -> Option<Node> {
    let mut at = node;
    loop {
        let parent = at.parent()?;
        match parent.kind() {
            "block" => {
                return inside(parent, &["function_item"]).then_some(at);
            }
            "arguments"
            | "call_expression"
            | "field_expression"
            | "await_expression"
            | "try_expression"
            | "reference_expression"
            | "let_declaration"
            | "expression_statement"
            | "parenthesized_expression"
            | "generic_function" => {}
            _ => return None,
        }
        at = parent;
    }
}

/// A file-level `const`/`static` of type `&str`: its name and whether its
/// value is a script.
fn str_constants(src: &Source) -> Vec<(String, bool)> {
    named(src.root())
        .into_iter()
        .filter(|n| matches!(n.kind(), "const_item" | "static_item"))
        .filter_map(|n| {
            let ty = src.text_of(n.child_by_field_name("type")?).replace(' ', "");
            if ty != "&str" && ty != "&'staticstr" {
                return None;
            }
            let value = src.text_of(n.child_by_field_name("value")?);
            let script = value.contains(".lua") || value.contains("redis.call");
            Some((
                src.text_of(n.child_by_field_name("name")?).to_string(),
                script,
            ))
        })
        .collect()
}

/// The values the rewrites of this file move: string literals and `&str`
/// constants of the file passed to a call inside a function.
fn sites<'t>(src: &'t Source) -> Vec<Site<'t>> {
    let constants = str_constants(src);
    let mut out = Vec::new();
    let mut literals = 0;
    for n in src.nodes() {
        if n.parent().map(|p| p.kind()) != Some("arguments")
            || !inside(n, &["function_item"])
            || inside(
                n,
                &["const_item", "static_item", "mod_item", "macro_invocation"],
            )
        {
            continue;
        }
        let stem = match n.kind() {
            "string_literal" => {
                literals += 1;
                format!("text_{}", literals - 1)
            }
            "identifier" => match constants.iter().find(|c| c.0 == src.text_of(n)) {
                Some((name, script)) => {
                    let suffix = if *script { "script" } else { "value" };
                    format!("{}_{suffix}", name.to_lowercase())
                }
                None => continue,
            },
            _ => continue,
        };
        out.push(Site { node: n, stem });
    }
    if out
        .iter()
        .any(|s| taken(src, &s.stem) || taken(src, &s.stem.to_uppercase()))
    {
        return Vec::new();
    }
    // A constant passed twice is fetched twice, defined once.
    out
}

/// Every site replaced by `fetch(stem)`, and `define(sites)` appended to
/// the file: the definitions hold the sites' original bytes.
fn extract(
    src: &Source,
    fetch: impl Fn(&str) -> String,
    define: impl Fn(&[&Site]) -> Vec<Piece>,
) -> Option<Rewritten> {
    let sites = sites(src);
    if sites.is_empty() {
        return None;
    }
    let mut e = Edits::new(src.text);
    for s in &sites {
        e.replace_text(s.node.byte_range(), fetch(&s.stem));
    }
    let mut tail = vec![new("\n")];
    tail.extend(define(&distinct(&sites)));
    e.replace(src.text.len()..src.text.len(), tail);
    e.finish()
}

fn value_fn(src: &Source) -> Option<Rewritten> {
    extract(
        src,
        |s| format!("{s}()"),
        |sites| each(sites, "\nfn {}() -> &'static str {\n    ", "\n}\n"),
    )
}

fn value_const(src: &Source) -> Option<Rewritten> {
    extract(
        src,
        |s| s.to_uppercase(),
        |sites| each(sites, "\nconst {U}: &str = ", ";\n"),
    )
}

fn value_static(src: &Source) -> Option<Rewritten> {
    extract(
        src,
        |s| s.to_uppercase(),
        |sites| each(sites, "\nstatic {U}: &str = ", ";\n"),
    )
}

fn value_lazylock(src: &Source) -> Option<Rewritten> {
    extract(
        src,
        |s| format!("*{}", s.to_uppercase()),
        |sites| {
            each(
                sites,
                "\nstatic {U}: std::sync::LazyLock<&'static str> = std::sync::LazyLock::new(|| ",
                ");\n",
            )
        },
    )
}

fn value_oncelock(src: &Source) -> Option<Rewritten> {
    extract(
        src,
        |s| format!("{s}()"),
        |sites| {
            each(
                sites,
                "\nfn {}() -> &'static str {\n    static CELL: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();\n    CELL.get_or_init(|| ",
                ")\n}\n",
            )
        },
    )
}

/// `struct Values { stem: &'static str, .. }` with `new()` setting each
/// field to its value, and `methods` in its `impl`.
fn holder(sites: &[&Site], methods: &str) -> Vec<Piece> {
    let mut out = vec![new("\nstruct Values {\n")];
    for s in sites {
        out.push(new(format!("    {}: &'static str,\n", s.stem)));
    }
    out.push(new(
        "}\n\nimpl Values {\n    fn new() -> Self {\n        Values {\n",
    ));
    for s in sites {
        out.push(new(format!("            {}: ", s.stem)));
        out.push(orig(s.node.byte_range()));
        out.push(new(",\n"));
    }
    out.push(new(format!("        }}\n    }}\n{methods}}}\n")));
    out
}

fn value_struct_field(src: &Source) -> Option<Rewritten> {
    if taken(src, "Values") {
        return None;
    }
    extract(
        src,
        |s| format!("Values::new().{s}"),
        |sites| holder(sites, ""),
    )
}

fn value_struct_method(src: &Source) -> Option<Rewritten> {
    if taken(src, "Values") {
        return None;
    }
    extract(
        src,
        |s| format!("Values::new().get_{s}()"),
        |sites| {
            let methods: String = sites
                .iter()
                .map(|s| {
                    format!(
                        "\n    fn get_{0}(&self) -> &'static str {{\n        self.{0}\n    }}\n",
                        s.stem
                    )
                })
                .collect();
            holder(sites, &methods)
        },
    )
}

/// The value returned by an associated function that another one of the
/// same `impl` calls through `Self::`.
fn value_self_assoc(src: &Source) -> Option<Rewritten> {
    if taken(src, "Values") {
        return None;
    }
    extract(
        src,
        |s| format!("Values::get_{s}()"),
        |sites| {
            let mut out = vec![new("\nstruct Values;\n\nimpl Values {\n")];
            for s in sites {
                out.push(new(format!(
                    "    fn get_{0}() -> &'static str {{\n        Self::raw_{0}()\n    }}\n\n    fn raw_{0}() -> &'static str {{\n        ",
                    s.stem
                )));
                out.push(orig(s.node.byte_range()));
                out.push(new("\n    }\n"));
            }
            out.push(new("}\n"));
            out
        },
    )
}

fn value_hashmap(src: &Source) -> Option<Rewritten> {
    if taken(src, "Registry") {
        return None;
    }
    extract(
        src,
        |s| format!("Registry::new().get(\"{s}\")"),
        |sites| {
            let mut out = vec![new(
                "\nstruct Registry {\n    all: std::collections::HashMap<&'static str, &'static str>,\n}\n\n\
                 impl Registry {\n    fn new() -> Self {\n        let mut all = std::collections::HashMap::new();\n",
            )];
            out.extend(each(sites, "        all.insert(\"{}\", ", ");\n"));
            out.push(new(
                "        Registry { all }\n    }\n\n    fn get(&self, name: &str) -> &'static str {\n        self.all[name]\n    }\n}\n",
            ));
            out
        },
    )
}

fn value_match(src: &Source) -> Option<Rewritten> {
    if taken(src, "lookup") {
        return None;
    }
    extract(
        src,
        |s| format!("lookup(\"{s}\")"),
        |sites| {
            let mut out = vec![new(
                "\nfn lookup(name: &str) -> &'static str {\n    match name {\n",
            )];
            out.extend(each(sites, "        \"{}\" => ", ",\n"));
            out.push(new("        _ => \"\",\n    }\n}\n"));
            out
        },
    )
}
