//! Go rewrites: a string literal passed to a call held in a package-level
//! `const`, `var`, typed `const` block or `func`; a `fmt.Sprintf` written
//! as `+` or `strings.Join`, a `+` chain as `fmt.Sprintf` or `strings.Join`; a call's
//! argument bound by `:=` first; a call split at the call it is made on
//! (`res := script.Run(..)`, then `res.Err()`); a slice of keys filled by
//! `append`; a function's body moved into a function it calls;
//! double-quoted strings written raw; a package's script moved into an
//! embedded `.lua` file that a loader stores through a map of pointers;
//! a method value held by `:=` first (`method_0 := rdb.HSet`) and called
//! through it; a client method's variadic arguments bound to a slice
//! first and spread (`args_0 := []interface{}{k, "f", v}`, then
//! `rdb.HSet(ctx, args_0...)`'s kin).

use tree_sitter::Node;

use crate::edit::{each, named, new, orig, Edits, Lang, Rewritten, Source};
use crate::shared::{
    arguments, concat_chains, delegate, extract, group, let_argument, method_values,
    parse_template, rebuild, rebuild_with, render, template, value_sites, Delegate, Part, Syntax,
};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Go,
        apply,
    };
    vec![
        r("go-value-const", value_const),
        r("go-value-var", value_var),
        r("go-value-typed-const-block", value_const_block),
        r("go-sprintf-concat", sprintf_concat),
        r("go-sprintf-join", |src| {
            rebuild_with(
                src,
                sprintfs(src),
                |p| Some(join(p)),
                |e| import(src, e, "strings"),
            )
        }),
        r("go-concat-sprintf", concat_sprintf),
        r("go-concat-join", concat_join),
        r("go-let-argument", |src| {
            let_argument(src, &GO, |n| format!("{n} := "), "")
        }),
        r("go-split-result", split_result),
        r("go-keys-append", keys_append),
        r("go-fn-delegate", fn_delegate),
        r("go-raw-strings", raw_strings),
        r("go-script-file-stored-through-pointer", script_file),
        r("go-method-value", method_value),
        r("go-variadic-slice", variadic_slice),
    ]
}

fn plain(src: &Source, n: Node) -> Option<String> {
    match n.kind() {
        "interpreted_string_literal" if !named(n).iter().any(|c| c.kind() == "escape_sequence") => {
            let t = src.text_of(n);
            Some(t[1..t.len() - 1].to_string())
        }
        "raw_string_literal" => {
            let t = src.text_of(n);
            Some(t[1..t.len() - 1].to_string())
        }
        _ => None,
    }
}

const GO: Syntax = Syntax {
    args: &["argument_list"],
    funcs: &["function_declaration", "method_declaration", "func_literal"],
    idents: &[
        "identifier",
        "field_identifier",
        "type_identifier",
        "package_identifier",
    ],
    blocks: &["statement_list"],
    through: &[
        "argument_list",
        "call_expression",
        "expression_list",
        "return_statement",
        "short_var_declaration",
        "assignment_statement",
        "expression_statement",
        "selector_expression",
    ],
    call: "call_expression",
    simple: &[
        "identifier",
        "interpreted_string_literal",
        "raw_string_literal",
        "int_literal",
        "selector_expression",
    ],
    plain,
    keep_first: false,
};

fn value_const(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &GO, true);
    extract(src, &sites, str::to_string, |s| {
        each(s, "\nconst {} = ", "\n")
    })
}

fn value_var(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &GO, true);
    extract(src, &sites, str::to_string, |s| {
        each(s, "\nvar {} = ", "\n")
    })
}

fn value_const_block(src: &Source) -> Option<Rewritten> {
    let sites = value_sites(src, &GO, true);
    extract(src, &sites, str::to_string, |s| {
        group(s, "\nconst (\n", "\t{} string = ", "\n", ")\n")
    })
}

/// Every `fmt.Sprintf` of `%s` holes only, as parts.
fn sprintfs<'t>(src: &'t Source) -> Vec<(Node<'t>, Vec<Part>)> {
    let mut out = Vec::new();
    for n in src.nodes() {
        if n.kind() != "call_expression"
            || n.child_by_field_name("function").map(|f| src.text_of(f)) != Some("fmt.Sprintf")
        {
            continue;
        }
        let Some(list) = n.child_by_field_name("arguments") else {
            continue;
        };
        let args = named(list);
        let Some(text) = args.first().and_then(|a| plain(src, *a)) else {
            continue;
        };
        let rest: Vec<String> = args[1..]
            .iter()
            .map(|a| src.text_of(*a).to_string())
            .collect();
        if let Some(parts) = parse_template(&text, "%s", &rest) {
            out.push((n, parts));
        }
    }
    out
}

fn quoted(l: &str) -> String {
    format!("\"{l}\"")
}

fn sprintf_concat(src: &Source) -> Option<Rewritten> {
    rebuild(src, sprintfs(src), |parts| {
        Some(render(parts, quoted, str::to_string, " + "))
    })
}

/// `import "PATH"` after the package clause, unless the file imports it.
fn import(src: &Source, e: &mut Edits, path: &str) {
    let quoted = format!("\"{path}\"");
    if src
        .nodes()
        .iter()
        .any(|n| n.kind() == "import_spec" && src.text_of(*n).ends_with(&quoted))
    {
        return;
    }
    if let Some(p) = named(src.root())
        .into_iter()
        .find(|n| n.kind() == "package_clause")
    {
        e.insert(p.end_byte(), format!("\n\nimport {quoted}"));
    }
}

/// Every `+` chain written by `write`, with `path` imported.
fn rewrite_chains(
    src: &Source,
    path: &str,
    write: impl Fn(&[Part]) -> String,
) -> Option<Rewritten> {
    let chains = concat_chains(src, &GO, "binary_expression");
    rebuild_with(src, chains, |p| Some(write(p)), |e| import(src, e, path))
}

fn concat_sprintf(src: &Source) -> Option<Rewritten> {
    rewrite_chains(src, "fmt", |parts| {
        let (text, args) = template(parts, "%s", |l| l.replace('%', "%%"));
        format!("fmt.Sprintf(\"{text}\", {args})")
    })
}

fn join(parts: &[Part]) -> String {
    let items = render(parts, quoted, str::to_string, ", ");
    format!("strings.Join([]string{{{items}}}, \"\")")
}

fn concat_join(src: &Source) -> Option<Rewritten> {
    rewrite_chains(src, "strings", join)
}

/// A call made on the result of a call (`script.Run(..).Err()`): the
/// inner call bound by `:=` first.
fn split_result(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut done = 0;
    for n in src.nodes() {
        let Some(inner) = n
            .child_by_field_name("function")
            .filter(|f| n.kind() == "call_expression" && f.kind() == "selector_expression")
            .and_then(|f| f.child_by_field_name("operand"))
            .filter(|o| o.kind() == "call_expression")
        else {
            continue;
        };
        let Some(stmt) = GO.statement(src, n) else {
            continue;
        };
        let name = format!("res_{done}");
        if GO.taken(src, &name) {
            return None;
        }
        let indent = src.indent_at(stmt.start_byte());
        e.hoist(
            stmt.start_byte(),
            &indent,
            inner.byte_range(),
            format!("{name} := "),
            "",
            &name,
        );
        done += 1;
    }
    e.finish()
}

/// `keys := []T{a, b}` as `keys := make([]T, 0, 2)` and one `append` per
/// element.
fn keys_append(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let (Some(left), Some(right)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            continue;
        };
        let lit = named(right).into_iter().next();
        let Some(lit) = lit.filter(|l| {
            n.kind() == "short_var_declaration"
                && named(left).len() == 1
                && named(right).len() == 1
                && l.kind() == "composite_literal"
                && l.child_by_field_name("type")
                    .is_some_and(|t| t.kind() == "slice_type")
        }) else {
            continue;
        };
        let (Some(ty), Some(body)) = (
            lit.child_by_field_name("type"),
            lit.child_by_field_name("body"),
        ) else {
            continue;
        };
        let items = named(body);
        if items.len() < 2 || GO.statement(src, n) != Some(n) {
            continue;
        }
        let name = src.text_of(left);
        let indent = src.indent_at(n.start_byte());
        let mut pieces = vec![new(format!(
            "make({}, 0, {})",
            src.text_of(ty),
            items.len()
        ))];
        for item in items {
            pieces.push(new(format!("\n{indent}{name} = append({name}, ")));
            pieces.push(orig(item.byte_range()));
            pieces.push(new(")"));
        }
        e.replace(lit.byte_range(), pieces);
    }
    e.finish()
}

/// Each function (not a method) with a result and named parameters: its
/// body moved into `NAMEInner`, which it returns the call of.
fn fn_delegate(src: &Source) -> Option<Rewritten> {
    let mut all = Vec::new();
    for f in named(src.root()) {
        if f.kind() != "function_declaration" || f.child_by_field_name("result").is_none() {
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
        for p in named(params) {
            if p.kind() != "parameter_declaration" {
                return None;
            }
            let mut cursor = p.walk();
            args.extend(
                p.children_by_field_name("name", &mut cursor)
                    .map(|n| src.text_of(n).to_string()),
            );
        }
        all.push(Delegate {
            node: f,
            name,
            body,
            call: format!("{{\n\treturn {{}}({})\n}}", args.join(", ")),
        });
    }
    delegate(src, &GO, all, true)
}

/// Double-quoted strings passed to calls written raw (backquoted).
fn raw_strings(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        if n.kind() != "interpreted_string_literal"
            || n.parent().is_none_or(|p| p.kind() != "argument_list")
        {
            continue;
        }
        if let Some(text) = plain(src, n).filter(|t| !t.contains('`')) {
            e.replace_text(n.byte_range(), format!("`{text}`"));
        }
    }
    e.finish()
}

/// Each package-level `var name = Q.NewScript(`..`)` whose one argument is
/// a literal Lua script: its text moved into `name.lua` beside the file,
/// embedded, and `name` declared `*Q.Script` and set by a loader that
/// ranges over a map of pointers (`"name.lua": &name`) and stores
/// `*p = Q.NewScript(string(body))` through each.
fn script_file(src: &Source) -> Option<Rewritten> {
    let stem: String = src
        .stem()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let (fsys, load) = (format!("wlLua{stem}"), format!("wlLoad{stem}"));
    if src.text_of(src.root()).contains(&fsys) {
        return None;
    }
    let mut e = Edits::new(src.text);
    let mut moved: Vec<(String, String)> = Vec::new();
    for spec in src.nodes() {
        let top = spec
            .parent()
            .and_then(|d| d.parent())
            .is_some_and(|f| f.kind() == "source_file")
            || spec
                .parent()
                .and_then(|l| l.parent())
                .and_then(|d| d.parent())
                .is_some_and(|f| f.kind() == "source_file");
        if spec.kind() != "var_spec" || !top || spec.child_by_field_name("type").is_some() {
            continue;
        }
        let (Some(name), Some(values)) = (
            spec.child_by_field_name("name"),
            spec.child_by_field_name("value"),
        ) else {
            continue;
        };
        let [call] = named(values)[..] else { continue };
        let (Some(func), Some(args)) = (
            call.child_by_field_name("function"),
            call.child_by_field_name("arguments"),
        ) else {
            continue;
        };
        let [lit] = named(args)[..] else { continue };
        let (Some(pkg), Some(field)) = (
            func.child_by_field_name("operand"),
            func.child_by_field_name("field"),
        ) else {
            continue;
        };
        let Some(body) = plain(src, lit).filter(|b| b.contains("redis.call")) else {
            continue;
        };
        if src.text_of(field) != "NewScript" || call.kind() != "call_expression" {
            continue;
        }
        let (name, pkg) = (src.text_of(name).to_string(), src.text_of(pkg).to_string());
        let content = lit.start_byte() + 1..lit.end_byte() - 1;
        debug_assert_eq!(src.slice(content.clone()), body);
        e.create(src.sibling(&format!("{name}.lua")), vec![orig(content)]);
        e.replace_text(spec.byte_range(), format!("{name} *{pkg}.Script"));
        moved.push((name, pkg));
    }
    let (_, pkg) = moved.first()?;
    let files: Vec<String> = moved.iter().map(|(n, _)| format!("{n}.lua")).collect();
    let entries: String = moved
        .iter()
        .map(|(n, _)| format!("\t\t\"{n}.lua\": &{n},\n"))
        .collect();
    e.insert(
        src.text.len(),
        format!(
            "\n//go:embed {files}\nvar {fsys} embed.FS\n\n\
             func init() {{\n\t{load}(map[string]**{pkg}.Script{{\n{entries}\t}})\n}}\n\n\
             func {load}(m map[string]**{pkg}.Script) {{\n\
             \tfor file, p := range m {{\n\
             \t\tbody, _ := fs.ReadFile({fsys}, file)\n\
             \t\t*p = {pkg}.NewScript(string(body))\n\t}}\n}}\n",
            files = files.join(" "),
        ),
    );
    import(src, &mut e, "embed");
    import(src, &mut e, "io/fs");
    e.finish()
}

/// The names the file's imports give their packages (the last part of the
/// path, or the alias).
fn package_names(src: &Source) -> Vec<String> {
    src.nodes()
        .into_iter()
        .filter(|n| n.kind() == "import_spec")
        .filter_map(|n| match n.child_by_field_name("name") {
            Some(alias) => Some(src.text_of(alias).to_string()),
            None => {
                let path = src.text_of(n.child_by_field_name("path")?);
                let path = path.trim_matches(|c| c == '"' || c == '`');
                Some(path.rsplit('/').next()?.to_string())
            }
        })
        .collect()
}

/// A value that names the same object wherever it is written again: a
/// variable, or a field of one.
fn pure_operand(src: &Source, n: Node, packages: &[String]) -> bool {
    match n.kind() {
        "identifier" => !packages.iter().any(|p| p == src.text_of(n)),
        "selector_expression" => n
            .child_by_field_name("operand")
            .is_some_and(|o| pure_operand(src, o, packages)),
        _ => false,
    }
}

/// `recv.M(args)` written `method_N := recv.M` on a line before its
/// statement and `method_N(args)`: a method value binds its receiver when
/// it is read, so the name calls the same method on the same value (the
/// receiver is a variable or a field of one, read with no effect, and no
/// function lies between the call and its statement). Not a package's
/// function (a generic one has no value without its type arguments).
fn method_value<'t>(src: &'t Source) -> Option<Rewritten> {
    let packages = package_names(src);
    let method = |n: Node<'t>| {
        let func = n.child_by_field_name("function")?;
        let recv = func.child_by_field_name("operand")?;
        let plain = n.kind() == "call_expression"
            && n.child_by_field_name("type_arguments").is_none()
            && func.kind() == "selector_expression"
            && pure_operand(src, recv, &packages);
        plain.then_some((func, recv))
    };
    method_values(
        src,
        &GO,
        method,
        |name| format!("{name} := "),
        |_| String::new(),
    )
}

/// Where a client method's `...interface{}` parameter starts, counted
/// after a leading context and without one: go-redis's `Do(ctx,
/// args...)`, redigo's `Do(cmd, args...)`, `Send` and a script's
/// `Do(conn, keysAndArgs...)`, `HSet(ctx, key, values...)`, `Eval(ctx,
/// script, keys, args...)`, `script.Run(ctx, rdb, keys, args...)`.
const VARIADIC_FROM: &[(&str, Option<usize>, Option<usize>)] = &[
    ("Do", Some(0), Some(1)),
    ("Send", None, Some(1)),
    ("HSet", Some(1), None),
    ("Eval", Some(2), Some(2)),
    ("EvalSha", Some(2), Some(2)),
    ("EvalRO", Some(2), Some(2)),
    ("EvalShaRO", Some(2), Some(2)),
    ("Run", Some(2), Some(2)),
];

/// The variadic arguments of each client call of [`VARIADIC_FROM`]
/// (written one by one) bound to `args_N := []interface{}{..}` on a line
/// before the call's statement, and `args_N...` in their place: Go passes
/// a spread slice as the variadic parameter's items.
fn variadic_slice(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    let mut made = 0;
    for n in src.nodes() {
        let Some(func) = n.child_by_field_name("function") else {
            continue;
        };
        let Some(field) = func.child_by_field_name("field") else {
            continue;
        };
        let Some(&(_, after_ctx, alone)) = VARIADIC_FROM
            .iter()
            .find(|(m, ..)| *m == src.text_of(field))
        else {
            continue;
        };
        let args = n
            .child_by_field_name("arguments")
            .map(arguments)
            .unwrap_or_default();
        let lead = args.first().map(|a| src.text_of(*a).to_ascii_lowercase());
        let ctx = lead.is_some_and(|t| t.contains("ctx") || t.starts_with("context."));
        let Some(from) = (if ctx { after_ctx.map(|f| f + 1) } else { alone }) else {
            continue;
        };
        let tail = &args[from.min(args.len())..];
        let (Some(first), Some(last)) = (tail.first(), tail.last()) else {
            continue;
        };
        if tail
            .iter()
            .any(|a| a.kind() == "variadic_argument" || a.kind() == "comment")
        {
            continue;
        }
        let Some(stmt) = GO.statement(src, n) else {
            continue;
        };
        let name = format!("args_{made}");
        if GO.taken(src, &name) {
            return None;
        }
        e.hoist(
            stmt.start_byte(),
            &src.indent_at(stmt.start_byte()),
            first.start_byte()..last.end_byte(),
            format!("{name} := []interface{{}}{{"),
            "}",
            &format!("{name}..."),
        );
        made += 1;
    }
    e.finish()
}
