//! Elixir rewrites, part one: a value (a plain string, or a module
//! attribute, passed in a function body) held in a `defp`, a multi-clause
//! function, a module attribute, another module's public function (by
//! `alias` or `import`); calls through `|>` and `then/2`. Part two
//! (`elixir_forms.rs`): strings built by `Enum.join`, iodata, `<>` or
//! interpolation, `do:` as a block, a list bound first, functions moved
//! to another module; a remote call made through `apply/3` or through a
//! captured function bound to a variable.

use tree_sitter::Node;

use crate::edit::{
    distinct, each, inside, named, new, orig, Edits, Lang, Piece, Rewritten, Site, Source,
};
use crate::Rewrite;

#[path = "elixir_forms.rs"]
mod forms;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Elixir,
        apply,
    };
    let mut all = vec![
        r("ex-value-defp", value_defp),
        r("ex-value-multi-clause", value_multi_clause),
        r("ex-value-attribute", value_attribute),
        r("ex-value-alias-module", value_alias_module),
        r("ex-value-import-module", value_import_module),
        r("ex-pipe", pipe),
        r("ex-then", then),
        r("ex-apply", apply_remote),
        r("ex-capture", capture_bound),
    ];
    all.extend(forms::catalog());
    all
}

/// The target name of a call (`def`, `Redix.command`'s `command`).
pub fn target<'a>(src: &'a Source, call: Node) -> Option<&'a str> {
    let t = call.child_by_field_name("target")?;
    match t.kind() {
        "identifier" => Some(src.text_of(t)),
        "dot" => t.child_by_field_name("right").map(|r| src.text_of(r)),
        _ => None,
    }
}

/// A `def`/`defp` call: its head (`name(args)`, guards aside) and body
/// (the `do:` value or the `do` block).
pub struct Def<'t> {
    pub node: Node<'t>,
    pub private: bool,
    pub head: Node<'t>,
    pub body: Node<'t>,
}

pub fn defs<'t>(src: &'t Source) -> Vec<Def<'t>> {
    let mut out = Vec::new();
    for n in src.nodes() {
        if n.kind() != "call" {
            continue;
        }
        let private = match target(src, n) {
            Some("def") => false,
            Some("defp") => true,
            _ => continue,
        };
        let Some(args) = named(n).into_iter().find(|c| c.kind() == "arguments") else {
            continue;
        };
        let Some(head) = named(args).into_iter().next() else {
            continue;
        };
        let body = named(n)
            .into_iter()
            .find(|c| c.kind() == "do_block")
            .or_else(|| {
                let kw = named(args).into_iter().find(|c| c.kind() == "keywords")?;
                let pair = named(kw).into_iter().next()?;
                (src.text_of(pair.child_by_field_name("key")?).trim() == "do:")
                    .then(|| pair.child_by_field_name("value"))?
            });
        if let Some(body) = body {
            out.push(Def {
                node: n,
                private,
                head,
                body,
            });
        }
    }
    out
}

/// Whether `node` lies inside the body of one of `defs`.
pub fn in_body(defs: &[Def], node: Node) -> bool {
    defs.iter()
        .any(|d| d.body.start_byte() <= node.start_byte() && node.end_byte() <= d.body.end_byte())
}

/// Whether `node` is (part of) a pattern: a clause's left side, or the
/// left of `=` or `<-`.
pub fn in_pattern(src: &Source, node: Node) -> bool {
    let mut at = node;
    while let Some(p) = at.parent() {
        let left = p.child_by_field_name("left") == Some(at);
        if p.kind() == "stab_clause" && left {
            return true;
        }
        if p.kind() == "binary_operator" && left {
            let op = p.child_by_field_name("operator").map(|o| src.text_of(o));
            if matches!(op, Some("=" | "<-" | "when")) {
                return true;
            }
        }
        at = p;
    }
    false
}

/// The module `node` is in: its `defmodule` call, the alias and the do
/// block.
pub fn module_of<'t>(src: &Source, node: Node<'t>) -> Option<(Node<'t>, String, Node<'t>)> {
    let mut at = node.parent();
    while let Some(n) = at {
        if n.kind() == "call" && target(src, n) == Some("defmodule") {
            let args = named(n).into_iter().find(|c| c.kind() == "arguments")?;
            let name = src.text_of(named(args).into_iter().next()?).to_string();
            let block = named(n).into_iter().find(|c| c.kind() == "do_block")?;
            return Some((n, name, block));
        }
        at = n.parent();
    }
    None
}

/// Whether `name` already appears as a word of the file.
pub fn taken(src: &Source, name: &str) -> bool {
    src.nodes().iter().any(|n| {
        matches!(n.kind(), "identifier" | "alias" | "atom")
            && src.text_of(*n).trim_start_matches(':') == name
    })
}

/// A plain string: double-quoted, one line, no interpolation.
pub fn plain_string(src: &Source, n: Node) -> bool {
    n.kind() == "string"
        && src.text_of(n).starts_with('"')
        && !src.text_of(n).starts_with("\"\"\"")
        && !named(n).iter().any(|c| c.kind() == "interpolation")
}

/// An attribute read (`@name`, not a definition `@name value`): its name.
pub fn attribute_read(src: &Source, n: Node) -> Option<String> {
    if n.kind() != "unary_operator" || !src.text_of(n).starts_with('@') {
        return None;
    }
    let operand = n.child_by_field_name("operand")?;
    (operand.kind() == "identifier").then(|| src.text_of(operand).to_string())
}

/// The values passed in function bodies: plain strings and attribute
/// reads, as call arguments or list items.
fn sites<'t>(src: &'t Source, attributes: bool) -> Vec<Site<'t>> {
    let defs = defs(src);
    let mut out = Vec::new();
    let mut count = 0;
    for n in src.nodes() {
        let parent = n.parent().map(|p| p.kind());
        if !matches!(parent, Some("arguments" | "list")) || !in_body(&defs, n) || in_pattern(src, n)
        {
            continue;
        }
        if plain_string(src, n) {
            out.push(Site {
                node: n,
                stem: format!("text_{count}"),
            });
            count += 1;
        } else if let Some(name) = attribute_read(src, n).filter(|_| attributes) {
            out.push(Site {
                node: n,
                stem: format!("{name}_value"),
            });
        }
    }
    if out.iter().any(|s| taken(src, &s.stem)) {
        return Vec::new();
    }
    out
}

/// Every site replaced by `fetch(stem)`; `define(sites)` inserted at the
/// end of the sites' module (before its `end`).
fn extract(
    src: &Source,
    attributes: bool,
    fetch: impl Fn(&str) -> String,
    define: impl Fn(&[&Site]) -> Vec<Piece>,
) -> Option<Rewritten> {
    let sites = sites(src, attributes);
    let (_, _, block) = module_of(src, sites.first()?.node)?;
    if sites
        .iter()
        .any(|s| module_of(src, s.node).map(|m| m.2) != Some(block))
    {
        return None;
    }
    let mut e = Edits::new(src.text);
    for s in &sites {
        e.replace_text(s.node.byte_range(), fetch(&s.stem));
    }
    let end = block.end_byte() - "end".len();
    e.replace(end..end, define(&distinct(&sites)));
    e.finish()
}

fn value_defp(src: &Source) -> Option<Rewritten> {
    extract(
        src,
        true,
        |s| format!("{s}()"),
        |sites| each(sites, "\n  defp {}, do: ", "\n"),
    )
}

fn value_multi_clause(src: &Source) -> Option<Rewritten> {
    if taken(src, "value") {
        return None;
    }
    extract(
        src,
        true,
        |s| format!("value(:{s})"),
        |sites| {
            let mut out = vec![new("\n")];
            out.extend(each(sites, "  defp value(:{}), do: ", "\n"));
            out
        },
    )
}

/// Each value in a new attribute, set before the first function that uses
/// one (where every attribute read there is already set).
fn value_attribute(src: &Source) -> Option<Rewritten> {
    let sites = sites(src, true);
    let defs = defs(src);
    let first = defs.iter().find(|d| {
        sites
            .iter()
            .any(|s| in_body(std::slice::from_ref(d), s.node))
    })?;
    let mut e = Edits::new(src.text);
    for s in &sites {
        e.replace_text(s.node.byte_range(), format!("@{}", s.stem));
    }
    let indent = src.indent_at(first.node.start_byte());
    let mut pieces = Vec::new();
    for s in distinct(&sites) {
        pieces.extend([
            new(format!("@{} ", s.stem)),
            orig(s.node.byte_range()),
            new(format!("\n{indent}")),
        ]);
    }
    pieces.push(new(format!("\n{indent}")));
    e.replace(first.node.start_byte()..first.node.start_byte(), pieces);
    e.finish()
}

/// The strings in a new module of their own (`<Module>.Values`, in a file
/// beside this one), fetched through `alias` (`Values.text_0()`) or
/// `import` (`text_0()`).
fn other_module(src: &Source, import: bool) -> Option<Rewritten> {
    if taken(src, "Values") {
        return None;
    }
    let sites = sites(src, false);
    let (_, module, block) = module_of(src, sites.first()?.node)?;
    if sites
        .iter()
        .any(|s| module_of(src, s.node).map(|m| m.2) != Some(block))
    {
        return None;
    }
    let full = format!("{module}.Values");
    let mut e = Edits::new(src.text);
    let start = named(block).first()?.start_byte();
    let directive = if import { "import" } else { "alias" };
    e.insert(start, format!("{directive} {full}\n\n  "));
    for s in &sites {
        let fetch = if import {
            format!("{}()", s.stem)
        } else {
            format!("Values.{}()", s.stem)
        };
        e.replace_text(s.node.byte_range(), fetch);
    }
    let mut file = vec![new(format!("defmodule {full} do\n  @moduledoc false\n"))];
    file.extend(each(&distinct(&sites), "\n  def {}, do: ", "\n"));
    file.push(new("end\n"));
    e.create(src.sibling(&format!("{}_values.ex", src.stem())), file);
    e.finish()
}

fn value_alias_module(src: &Source) -> Option<Rewritten> {
    other_module(src, false)
}

fn value_import_module(src: &Source) -> Option<Rewritten> {
    other_module(src, true)
}

/// Calls in function bodies to a module's function (`Mod.fun(a, b)`) or a
/// function the file defines, with a first argument: outermost first, none
/// inside another.
fn call_sites<'t>(src: &'t Source) -> Vec<(Node<'t>, Node<'t>, Vec<Node<'t>>)> {
    let defs = defs(src);
    let local: Vec<&str> = defs
        .iter()
        .filter_map(|d| {
            let h = if d.head.kind() == "call" {
                d.head
            } else {
                return None;
            };
            target(src, h)
        })
        .collect();
    let mut out: Vec<(Node, Node, Vec<Node>)> = Vec::new();
    for n in src.nodes() {
        if n.kind() != "call"
            || !in_body(&defs, n)
            || in_pattern(src, n)
            || inside(n, &["interpolation"])
        {
            continue;
        }
        let Some(t) = n.child_by_field_name("target") else {
            continue;
        };
        let remote = t.kind() == "dot"
            && t.child_by_field_name("left")
                .is_some_and(|l| l.kind() == "alias");
        let ours = t.kind() == "identifier" && local.contains(&src.text_of(t));
        // The right of `|>` has its first argument already.
        let piped = n.parent().is_some_and(|p| {
            p.kind() == "binary_operator"
                && p.child_by_field_name("right") == Some(n)
                && p.child_by_field_name("operator").map(|o| src.text_of(o)) == Some("|>")
        });
        if !(remote || ours) || piped || named(n).iter().any(|c| c.kind() == "do_block") {
            continue;
        }
        let Some(args) = named(n).into_iter().find(|c| c.kind() == "arguments") else {
            continue;
        };
        if !src.text_of(args).starts_with('(') {
            continue;
        }
        let items = named(args);
        if items.is_empty() || items.iter().any(|a| a.kind() == "keywords") {
            continue;
        }
        if out
            .iter()
            .any(|(o, _, _)| o.start_byte() <= n.start_byte() && n.end_byte() <= o.end_byte())
        {
            continue;
        }
        out.push((n, t, items));
    }
    out
}

/// `expr` as a pipeline's head: parenthesized unless it is a term.
pub fn term(src: &Source, n: Node) -> Vec<Piece> {
    let simple = matches!(
        n.kind(),
        "identifier" | "call" | "string" | "atom" | "list" | "integer" | "alias" | "map" | "tuple"
    ) || attribute_read(src, n).is_some();
    if simple {
        vec![orig(n.byte_range())]
    } else {
        vec![new("("), orig(n.byte_range()), new(")")]
    }
}

/// A call's other arguments, after its first: `(b, c)`.
fn rest_args(items: &[Node], call: Node) -> Vec<Piece> {
    match items.get(1) {
        Some(second) => vec![
            new("("),
            orig(second.start_byte()..call.end_byte() - 1),
            new(")"),
        ],
        None => vec![new("()")],
    }
}

/// Whether a call's parent needs a pipeline in parentheses.
fn wrap(call: Node) -> bool {
    call.parent().is_some_and(|p| {
        !matches!(
            p.kind(),
            "arguments" | "list" | "do_block" | "body" | "pair" | "stab_clause"
        )
    })
}

/// Every call site rewritten as its first argument piped into `tail`
/// (built from the call's target, arguments and node), in parentheses
/// where the call's parent needs them.
fn pipelines(src: &Source, tail: impl Fn(Node, Node, &[Node]) -> Vec<Piece>) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (call, t, items) in call_sites(src) {
        let mut pieces = if wrap(call) {
            vec![new("(")]
        } else {
            Vec::new()
        };
        pieces.extend(term(src, items[0]));
        pieces.extend(tail(call, t, &items));
        if wrap(call) {
            pieces.push(new(")"));
        }
        e.replace(call.byte_range(), pieces);
    }
    e.finish()
}

/// `f(a, b)` as `a |> f(b)`.
fn pipe(src: &Source) -> Option<Rewritten> {
    pipelines(src, |call, t, items| {
        let mut out = vec![new(" |> "), orig(t.byte_range())];
        out.extend(rest_args(items, call));
        out
    })
}

/// `f(a, b)` as `a |> then(fn value -> f(value, b) end)`.
fn then(src: &Source) -> Option<Rewritten> {
    if taken(src, "value") {
        return None;
    }
    pipelines(src, |call, t, items| {
        let mut out = vec![new(" |> then(fn value -> "), orig(t.byte_range())];
        match items.get(1) {
            Some(second) => out.extend([
                new("(value, "),
                orig(second.start_byte()..call.end_byte() - 1),
                new(")"),
            ]),
            None => out.push(new("(value)")),
        }
        out.push(new(" end)"));
        out
    })
}

/// `Mod.fun(a, b)` as `apply(Mod, :fun, [a, b])`: a remote call (its
/// module an alias) made through `Kernel.apply/3`.
fn apply_remote(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (call, t, items) in call_sites(src) {
        let (Some(module), Some(fun)) = (
            t.child_by_field_name("left"),
            t.child_by_field_name("right"),
        ) else {
            continue;
        };
        if t.kind() != "dot" || module.kind() != "alias" {
            continue;
        }
        let (Some(first), Some(last)) = (items.first(), items.last()) else {
            continue;
        };
        e.replace(
            call.byte_range(),
            vec![
                new("apply("),
                orig(module.byte_range()),
                new(format!(", :{}, [", src.text_of(fun))),
                orig(first.start_byte()..last.end_byte()),
                new("])"),
            ],
        );
    }
    e.finish()
}

/// `Mod.fun(a, b)` as `fun_0 = &Mod.fun/2` in the statement before, then
/// `fun_0.(a, b)`: a remote call made through a captured function.
fn capture_bound(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut count = 0;
    for (call, t, items) in call_sites(src) {
        let module = t.child_by_field_name("left");
        if t.kind() != "dot" || module.is_none_or(|m| m.kind() != "alias") {
            continue;
        }
        // A capture bound before the statement is the same function there,
        // whatever operators lie between.
        let through = ["arguments", "call", "list", "binary_operator"];
        let Some(stmt) = statement_through(call, &through) else {
            continue;
        };
        let name = format!("fun_{count}");
        if taken(src, &name) {
            return None;
        }
        count += 1;
        let indent = src.indent_at(stmt.start_byte());
        e.insert(
            stmt.start_byte(),
            format!("{name} = &{}/{}\n{indent}", src.text_of(t), items.len()),
        );
        e.replace_text(t.byte_range(), format!("{name}."));
    }
    e.finish()
}

/// The statement of a `do` block (or a function's body) that holds
/// `node`, when nothing but nodes of the kinds `through` lie between.
pub fn statement_through<'t>(node: Node<'t>, through: &[&str]) -> Option<Node<'t>> {
    let mut at = node;
    for _ in 0..64 {
        let p = at.parent()?;
        match p.kind() {
            "do_block" | "body" => return Some(at),
            k if through.contains(&k) => at = p,
            _ => return None,
        }
    }
    None
}
