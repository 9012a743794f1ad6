//! Elixir rewrites, part two: an interpolated string built by
//! `Enum.join`, iodata or `<>`, and a `<>` chain written as interpolation
//! (the parts of keys are binaries, as `when is_binary` says where the
//! code says it); `do:` written as a block; a command list bound to a
//! variable first, or built by a function of its module from its words
//! after the command's name; functions moved to another module, reached by
//! `defdelegate` or `import`.

use tree_sitter::Node;

use super::{
    attribute_read, defs, in_body, in_pattern, module_of, statement_through, taken, target, Def,
};
use crate::edit::{inside, named, new, orig, Edits, Lang, Rewritten, Source};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Elixir,
        apply,
    };
    vec![
        r("ex-interpolation-enum-join", enum_join),
        r("ex-interpolation-iodata", iodata),
        r("ex-interpolation-concat", concat),
        r("ex-concat-interpolation", interpolate),
        r("ex-do-block", do_block),
        r("ex-bind-command-list", bind_list),
        r("ex-command-built-by-a-function", built_list),
        r("ex-move-defdelegate", move_defdelegate),
        r("ex-move-defp-import", move_defp_import),
    ]
}

/// An interpolated one-line string in a function body, in parts: literal
/// text as written (`Ok`) and the holes' expressions (`Err`).
fn interpolated<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Result<String, Node<'t>>>)> {
    let defs = defs(src);
    let mut out = Vec::new();
    for n in src.nodes() {
        let text = src.text_of(n);
        if n.kind() != "string" || !text.starts_with('"') || text.starts_with("\"\"\"") {
            continue;
        }
        if !in_body(&defs, n) || in_pattern(src, n) || inside(n, &["interpolation"]) {
            continue;
        }
        let mut parts = Vec::new();
        let mut at = n.start_byte() + 1;
        for c in named(n) {
            if c.kind() == "interpolation" {
                if at < c.start_byte() {
                    parts.push(Ok(src.slice(at..c.start_byte()).to_string()));
                }
                let Some(inner) = named(c).into_iter().next() else {
                    continue;
                };
                parts.push(Err(inner));
                at = c.end_byte();
            }
        }
        if parts.iter().all(|p| p.is_ok()) {
            continue;
        }
        if at < n.end_byte() - 1 {
            parts.push(Ok(src.slice(at..n.end_byte() - 1).to_string()));
        }
        out.push((n, parts));
    }
    out
}

/// Every interpolated string as `open` + its parts joined by `sep` +
/// `close`.
fn rebuild(src: &Source, open: &str, sep: &str, close: &str) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (n, parts) in interpolated(src) {
        let mut pieces = vec![new(open)];
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                pieces.push(new(sep));
            }
            match p {
                Ok(lit) => pieces.push(new(format!("\"{lit}\""))),
                Err(hole) => pieces.extend(super::term(src, *hole)),
            }
        }
        pieces.push(new(close));
        e.replace(n.byte_range(), pieces);
    }
    e.finish()
}

fn enum_join(src: &Source) -> Option<Rewritten> {
    rebuild(src, "Enum.join([", ", ", "])")
}

fn iodata(src: &Source) -> Option<Rewritten> {
    rebuild(src, "IO.iodata_to_binary([", ", ", "])")
}

fn concat(src: &Source) -> Option<Rewritten> {
    rebuild(src, "(", " <> ", ")")
}

/// The operands of a `<>` chain.
fn operands<'t>(src: &Source, n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let op = n.child_by_field_name("operator").map(|o| src.text_of(o));
    if n.kind() == "binary_operator" && op == Some("<>") {
        if let (Some(l), Some(r)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) {
            operands(src, l, out);
            operands(src, r, out);
            return;
        }
    }
    out.push(n);
}

/// A `<>` chain with a string in it, in a function body, as one
/// interpolated string.
fn interpolate(src: &Source) -> Option<Rewritten> {
    let defs = defs(src);
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let is_concat = |x: Node| {
            x.kind() == "binary_operator"
                && x.child_by_field_name("operator").map(|o| src.text_of(o)) == Some("<>")
        };
        if !is_concat(n)
            || n.parent().is_some_and(is_concat)
            || !in_body(&defs, n)
            || in_pattern(src, n)
        {
            continue;
        }
        let mut parts = Vec::new();
        operands(src, n, &mut parts);
        let quoted = |p: &Node| {
            let t = src.text_of(*p);
            p.kind() == "string" && t.starts_with('"') && !t.starts_with("\"\"\"")
        };
        if !parts.iter().any(quoted) {
            continue;
        }
        let mut pieces = vec![new("\"")];
        for p in &parts {
            if quoted(p) {
                pieces.push(orig(p.start_byte() + 1..p.end_byte() - 1));
            } else {
                pieces.extend([new("#{"), orig(p.byte_range()), new("}")]);
            }
        }
        pieces.push(new("\""));
        e.replace(n.byte_range(), pieces);
    }
    e.finish()
}

/// `def f(x), do: expr` as a `do` ... `end` block.
fn do_block(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for d in defs(src) {
        if d.body.kind() == "do_block" {
            continue;
        }
        let Some(kw) = d.body.parent().and_then(|p| p.parent()) else {
            continue;
        };
        if kw.kind() != "keywords" || named(kw).len() != 1 {
            continue;
        }
        let indent = src.indent_at(d.node.start_byte());
        let head_end = d.head.end_byte().max(d.head.parent().map_or(0, |a| {
            named(a)
                .iter()
                .filter(|c| c.kind() != "keywords")
                .map(|c| c.end_byte())
                .max()
                .unwrap_or(0)
        }));
        e.replace_text(head_end..d.body.start_byte(), format!(" do\n{indent}  "));
        e.replace_text(
            d.body.end_byte()..d.node.end_byte(),
            format!("\n{indent}end"),
        );
    }
    e.finish()
}

/// A list argument of a module's function (`Redix.command(conn, [...])`)
/// bound to a variable in the statement before.
fn bind_list(src: &Source) -> Option<Rewritten> {
    let defs = defs(src);
    let mut e = Edits::new(src.text);
    let mut count = 0;
    let mut bound: Vec<std::ops::Range<usize>> = Vec::new();
    for n in src.nodes() {
        if n.kind() != "list"
            || n.parent().map(|p| p.kind()) != Some("arguments")
            || !in_body(&defs, n)
        {
            continue;
        }
        let Some(call) = n.parent().and_then(|a| a.parent()) else {
            continue;
        };
        if call
            .child_by_field_name("target")
            .is_none_or(|t| t.kind() != "dot")
        {
            continue;
        }
        if bound
            .iter()
            .any(|b| b.start <= n.start_byte() && n.end_byte() <= b.end)
        {
            continue;
        }
        let Some(stmt) = statement_through(n, &["arguments", "call", "list"]) else {
            continue;
        };
        let name = format!("command_{count}");
        if taken(src, &name) {
            return None;
        }
        count += 1;
        let indent = src.indent_at(stmt.start_byte());
        e.hoist(
            stmt.start_byte(),
            &indent,
            n.byte_range(),
            format!("{name} = "),
            "",
            &name,
        );
        bound.push(n.byte_range());
    }
    e.finish()
}

/// `Redix.command(conn, ["EVALSHA", sha, 1 | keys])` as
/// `Redix.command(conn, wl_command_0([sha, 1 | keys]))`, with `defp
/// wl_command_0(args), do: ["EVALSHA"] ++ args` at the module's end: a
/// command list a function of the code base builds (script commands).
fn built_list(src: &Source) -> Option<Rewritten> {
    let defs = defs(src);
    let mut e = Edits::new(src.text);
    let mut count = 0;
    let mut builders: Vec<(usize, String)> = Vec::new();
    for n in src.nodes() {
        if n.kind() != "list"
            || n.parent().map(|p| p.kind()) != Some("arguments")
            || !in_body(&defs, n)
        {
            continue;
        }
        let dotted = n
            .parent()
            .and_then(|a| a.parent())
            .and_then(|c| c.child_by_field_name("target"))
            .is_some_and(|t| t.kind() == "dot");
        let Some(head) = named(n).into_iter().next() else {
            continue;
        };
        let word = src.text_of(head).trim_matches('"');
        // Script commands: a whole-hash read's reply (`HGETALL`) through a
        // built command is not read yet (docs/precision.md).
        let command = head.kind() == "string" && (word == "SCRIPT" || word.starts_with("EVAL"));
        let Some((_, _, block)) = module_of(src, n) else {
            continue;
        };
        if !dotted || !command {
            continue;
        }
        let name = format!("wl_command_{count}");
        if taken(src, &name) {
            return None;
        }
        count += 1;
        let rest = src.slice(head.end_byte()..n.end_byte() - 1);
        let rest = rest.trim_start().trim_start_matches(',').trim_start();
        e.replace_text(n.byte_range(), format!("{name}([{rest}])"));
        let def = format!("  defp {name}(args), do: [{}] ++ args\n", src.text_of(head));
        builders.push((block.end_byte() - "end".len(), def));
    }
    builders.sort();
    let mut at = 0;
    let mut text = String::new();
    for (end, def) in builders {
        if end != at && !text.is_empty() {
            e.insert(at, std::mem::take(&mut text));
        }
        at = end;
        text.push_str(&def);
    }
    if !text.is_empty() {
        e.insert(at, text);
    }
    e.finish()
}

/// The name and arity of a definition whose parameters are all plain
/// variables, without guards.
fn plain_head(src: &Source, d: &Def) -> Option<(String, Vec<String>)> {
    if d.head.kind() != "call" {
        return None;
    }
    let name = target(src, d.head)?.to_string();
    let params = match named(d.head).into_iter().find(|c| c.kind() == "arguments") {
        Some(a) => named(a),
        None => Vec::new(),
    };
    let mut out = Vec::new();
    for p in params {
        if p.kind() != "identifier" || src.text_of(p).starts_with('_') {
            return None;
        }
        out.push(src.text_of(p).to_string());
    }
    Some((name, out))
}

/// The definitions of the file's first module that can move together to
/// another module: plain heads, every clause of a name, no attribute read,
/// no call to a function of the module that stays.
fn movable<'a, 't>(src: &Source, defs: &'a [Def<'t>], private: bool) -> Vec<&'a Def<'t>> {
    let top = |d: &&Def| module_of(src, d.node).map(|m| m.0.start_byte());
    let first = defs.first().and_then(|d| top(&d));
    let ours: Vec<&Def> = defs
        .iter()
        .filter(|d| top(d) == first && d.private == private)
        .collect();
    let names: Vec<String> = defs
        .iter()
        .filter_map(|d| target(src, d.head).map(str::to_string))
        .collect();
    let mut keep: Vec<&Def> = ours
        .iter()
        .copied()
        .filter(|d| plain_head(src, d).is_some())
        .filter(|d| {
            !crate::edit::descendants(d.body)
                .iter()
                .any(|n| attribute_read(src, *n).is_some())
        })
        .collect();
    loop {
        let moving: Vec<String> = keep
            .iter()
            .filter_map(|d| target(src, d.head).map(str::to_string))
            .collect();
        let before = keep.len();
        let now = keep.clone();
        keep.retain(|d| {
            let name = target(src, d.head).unwrap_or("");
            let clauses = ours
                .iter()
                .filter(|o| target(src, o.head) == Some(name))
                .count();
            let kept = now
                .iter()
                .filter(|o| target(src, o.head) == Some(name))
                .count();
            let calls_stay = crate::edit::descendants(d.body).iter().any(|n| {
                n.kind() == "call"
                    && n.child_by_field_name("target")
                        .is_some_and(|t| t.kind() == "identifier")
                    && target(src, *n).is_some_and(|t| {
                        names.iter().any(|x| x == t) && !moving.iter().any(|x| x == t)
                    })
            });
            clauses == kept && !calls_stay
        });
        if keep.len() == before {
            return keep;
        }
    }
}

/// The module's `alias`/`import`/`require` lines, for the new module.
fn directives(src: &Source, block: Node) -> String {
    named(block)
        .into_iter()
        .filter(|n| {
            n.kind() == "call" && matches!(target(src, *n), Some("alias" | "import" | "require"))
        })
        .map(|n| format!("  {}\n", src.text_of(n)))
        .collect()
}

/// `moving` into `<Module>.<suffix>` (a file beside this one), each as
/// `def`; in their place `stub(name, params, module)` once per name.
fn move_out(
    src: &Source,
    moving: &[&Def],
    suffix: &str,
    stub: impl Fn(&str, &[String], &str) -> String,
    head_directive: Option<&str>,
) -> Option<Rewritten> {
    let first = moving.first()?;
    let (_, module, block) = module_of(src, first.node)?;
    let full = format!("{module}.{suffix}");
    if taken(src, suffix) {
        return None;
    }
    let mut file = vec![new(format!(
        "defmodule {full} do\n  @moduledoc false\n{}",
        directives(src, block)
    ))];
    let mut e = Edits::new(src.text);
    let mut stubbed: Vec<String> = Vec::new();
    for d in moving {
        let (name, params) = plain_head(src, d)?;
        let kw = d.node.child_by_field_name("target")?;
        file.extend([
            new("\n  def"),
            orig(kw.end_byte()..d.node.end_byte()),
            new("\n"),
        ]);
        let text = if stubbed.contains(&name) {
            String::new()
        } else {
            stubbed.push(name.clone());
            stub(&name, &params, &full)
        };
        e.replace_text(d.node.byte_range(), text);
    }
    file.push(new("end\n"));
    if let Some(dir) = head_directive {
        e.insert(
            named(block).first()?.start_byte(),
            format!("{dir} {full}\n\n  "),
        );
    }
    e.create(
        src.sibling(&format!("{}_{}.ex", src.stem(), suffix.to_lowercase())),
        file,
    );
    e.finish()
}

/// Public functions moved to `<Module>.Impl`, delegated to from here.
fn move_defdelegate(src: &Source) -> Option<Rewritten> {
    let defs = defs(src);
    let moving = movable(src, &defs, false);
    move_out(
        src,
        &moving,
        "Impl",
        |name, params, full| format!("defdelegate {name}({}), to: {full}", params.join(", ")),
        None,
    )
}

/// Private functions moved to `<Module>.Private` as public ones, imported.
fn move_defp_import(src: &Source) -> Option<Rewritten> {
    let defs = defs(src);
    let moving = movable(src, &defs, true);
    move_out(
        src,
        &moving,
        "Private",
        |_, _, _| String::new(),
        Some("import"),
    )
}
