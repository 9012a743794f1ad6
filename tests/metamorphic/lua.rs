//! Lua rewrites: ways a Redis script says the same thing. Each keeps what
//! the script does with any KEYS and ARGV, not only the fixture's.

use tree_sitter::Node;

use crate::edit::{named, new, orig, Edits, Lang, Rewritten, Source};
use crate::Rewrite;

pub fn catalog() -> Vec<Rewrite> {
    let r = |name, apply| Rewrite {
        name,
        lang: Lang::Lua,
        apply,
    };
    vec![
        r("lua-rcall-alias", rcall_alias),
        r("lua-varargs-wrapper", varargs_wrapper),
        r("lua-command-wrapper", command_wrapper),
        r("lua-keys-multi-assign", keys_multi_assign),
        r("lua-keys-locals", keys_locals),
        r("lua-argv-locals", argv_locals),
        r("lua-key-helper", key_helper),
        r("lua-guard-return", guard_return),
        r("lua-else-nest", else_nest),
        r("lua-double-quotes", double_quotes),
        r("lua-field-constants", field_constants),
        r("lua-unpack-args", unpack_args),
        r("lua-main-function", main_function),
        r("lua-function-values", function_values),
        r("lua-valkey-server", valkey_server),
    ]
}

/// The top-level statements of the script (its comments aside).
fn statements<'t>(src: &'t Source) -> Vec<Node<'t>> {
    named(src.root())
        .into_iter()
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// Where definitions go: before the first statement, after the header
/// comments (which declare the KEYS).
fn head(src: &Source) -> Option<usize> {
    statements(src).first().map(|n| n.start_byte())
}

/// Every `redis.call(...)`: the call node and its `redis.call` name node.
fn redis_calls<'t>(src: &'t Source) -> Vec<(Node<'t>, Node<'t>)> {
    src.nodes()
        .into_iter()
        .filter(|n| n.kind() == "function_call")
        .filter_map(|n| {
            let name = n.child_by_field_name("name")?;
            (name.kind() == "dot_index_expression" && src.text_of(name) == "redis.call")
                .then_some((n, name))
        })
        .collect()
}

fn call_args<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    call.child_by_field_name("arguments")
        .map(named)
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// Whether `name` is already a variable of the script (a field name, as
/// `call` in `redis.call`, is not).
fn taken(src: &Source, name: &str) -> bool {
    src.nodes().iter().any(|n| {
        n.kind() == "identifier"
            && src.text_of(*n) == name
            && !n.parent().is_some_and(|p| {
                p.kind() == "dot_index_expression" && p.child_by_field_name("field") == Some(*n)
            })
    })
}

/// `local rcall = redis.call`, and every call through it.
fn rcall_alias(src: &Source) -> Option<Rewritten> {
    rename_calls(src, "rcall", "local rcall = redis.call\n")
}

/// Every `redis.call` written with Valkey's name for the library,
/// `server.call`.
fn valkey_server(src: &Source) -> Option<Rewritten> {
    let calls = redis_calls(src);
    if calls.is_empty() || taken(src, "server") {
        return None;
    }
    let mut e = Edits::new(src.text);
    for (_, callee) in calls {
        e.replace_text(callee.byte_range(), "server.call");
    }
    e.finish()
}

/// A local function passing its varargs on to `redis.call`.
fn varargs_wrapper(src: &Source) -> Option<Rewritten> {
    rename_calls(
        src,
        "call",
        "local function call(...)\n  return redis.call(...)\nend\n",
    )
}

fn rename_calls(src: &Source, name: &str, definition: &str) -> Option<Rewritten> {
    let calls = redis_calls(src);
    if calls.is_empty() || taken(src, name) {
        return None;
    }
    let mut e = Edits::new(src.text);
    e.insert(head(src)?, definition);
    for (_, callee) in calls {
        e.replace_text(callee.byte_range(), name);
    }
    e.finish()
}

/// The string literal's content, when it is a plain quoted word.
fn word(src: &Source, node: Node) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let t = src.text_of(node);
    let inner = t.get(1..t.len().checked_sub(1)?)?;
    (!inner.is_empty()
        && inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then(|| inner.to_string())
}

/// `local function hset(key, ...) return redis.call('HSET', key, ...) end`
/// for the first command called with a key, and its calls through it.
fn command_wrapper(src: &Source) -> Option<Rewritten> {
    let calls = redis_calls(src);
    let command = calls.iter().find_map(|(c, _)| {
        let args = call_args(*c);
        (args.len() >= 2).then(|| word(src, args[0])).flatten()
    })?;
    let name = command.to_lowercase();
    if taken(src, &name) {
        return None;
    }
    let mut e = Edits::new(src.text);
    e.insert(
        head(src)?,
        format!(
            "local function {name}(key, ...)\n  return redis.call('{command}', key, ...)\nend\n"
        ),
    );
    for (call, _) in calls {
        let args = call_args(call);
        if args.len() < 2 || word(src, args[0]).as_deref() != Some(&command) {
            continue;
        }
        let rest = args[1].start_byte()..call.end_byte() - 1;
        e.replace(
            call.byte_range(),
            vec![new(format!("{name}(")), orig(rest), new(")")],
        );
    }
    e.finish()
}

/// Every `TABLE[n]` with a literal `n`, and the distinct `n`s in order.
fn indexed<'t>(src: &'t Source, table: &str) -> (Vec<(Node<'t>, u32)>, Vec<u32>) {
    let mut uses = Vec::new();
    for n in src.nodes() {
        if n.kind() != "bracket_index_expression" {
            continue;
        }
        let (Some(t), Some(f)) = (
            n.child_by_field_name("table"),
            n.child_by_field_name("field"),
        ) else {
            continue;
        };
        if src.text_of(t) != table || f.kind() != "number" {
            continue;
        }
        if let Ok(i) = src.text_of(f).parse::<u32>() {
            uses.push((n, i));
        }
    }
    let mut distinct: Vec<u32> = uses.iter().map(|u| u.1).collect();
    distinct.sort();
    distinct.dedup();
    (uses, distinct)
}

fn table_locals(src: &Source, table: &str, stem: &str, multi: bool) -> Option<Rewritten> {
    let (uses, distinct) = indexed(src, table);
    if distinct.is_empty() || distinct.iter().any(|i| taken(src, &format!("{stem}{i}"))) {
        return None;
    }
    let names: Vec<String> = distinct.iter().map(|i| format!("{stem}{i}")).collect();
    let values: Vec<String> = distinct.iter().map(|i| format!("{table}[{i}]")).collect();
    let definition = if multi {
        format!("local {} = {}\n", names.join(", "), values.join(", "))
    } else {
        names
            .iter()
            .zip(&values)
            .map(|(n, v)| format!("local {n} = {v}\n"))
            .collect()
    };
    let mut e = Edits::new(src.text);
    e.insert(head(src)?, definition);
    for (node, i) in uses {
        e.replace_text(node.byte_range(), format!("{stem}{i}"));
    }
    e.finish()
}

/// `local key1, key2 = KEYS[1], KEYS[2]`.
fn keys_multi_assign(src: &Source) -> Option<Rewritten> {
    table_locals(src, "KEYS", "key", true)
}

/// `local key1 = KEYS[1]`, one a line.
fn keys_locals(src: &Source) -> Option<Rewritten> {
    table_locals(src, "KEYS", "key", false)
}

/// `local arg1, arg2 = ARGV[1], ARGV[2]`.
fn argv_locals(src: &Source) -> Option<Rewritten> {
    table_locals(src, "ARGV", "arg", true)
}

/// A key concatenated in a call (`KEYS[3] .. id`) built by a local helper
/// function instead.
fn key_helper(src: &Source) -> Option<Rewritten> {
    if taken(src, "key_of") {
        return None;
    }
    let mut e = Edits::new(src.text);
    for (call, _) in redis_calls(src) {
        for arg in call_args(call) {
            let (Some(l), Some(r)) = (
                arg.child_by_field_name("left"),
                arg.child_by_field_name("right"),
            ) else {
                continue;
            };
            if arg.kind() != "binary_expression"
                || src.slice(l.end_byte()..r.start_byte()).trim() != ".."
            {
                continue;
            }
            e.replace(
                arg.byte_range(),
                vec![
                    new("key_of("),
                    orig(l.byte_range()),
                    new(", "),
                    orig(r.byte_range()),
                    new(")"),
                ],
            );
        }
    }
    if e.is_empty() {
        return None;
    }
    e.insert(
        head(src)?,
        "local function key_of(base, id)\n  return base .. id\nend\n",
    );
    e.finish()
}

/// The parts of a top-level `if C then BODY end` (no `else`), when BODY
/// declares no local: its condition and body.
fn plain_if<'t>(src: &Source, node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
    if node.kind() != "if_statement" {
        return None;
    }
    let mut cursor = node.walk();
    if node
        .named_children(&mut cursor)
        .any(|c| c.kind() == "elseif_statement" || c.kind() == "else_statement")
    {
        return None;
    }
    let cond = node.child_by_field_name("condition")?;
    let body = node.child_by_field_name("consequence")?;
    let _ = src;
    Some((cond, body))
}

/// `if C then BODY end return R` as `if not (C) then return R end BODY
/// return R`: the branch that skips the write returns early.
fn guard_return(src: &Source) -> Option<Rewritten> {
    let stmts = statements(src);
    let [.., last_if, ret] = stmts[..] else {
        return None;
    };
    if ret.kind() != "return_statement" {
        return None;
    }
    let (cond, body) = plain_if(src, last_if)?;
    let inner = named(body);
    if inner.iter().any(|n| n.kind() == "variable_declaration") {
        return None;
    }
    let body_returns = inner.last().is_some_and(|n| n.kind() == "return_statement");
    let mut pieces = vec![
        new("if not ("),
        orig(cond.byte_range()),
        new(") then\n  "),
        orig(ret.byte_range()),
        new("\nend\n"),
        orig(body.byte_range()),
    ];
    if !body_returns {
        pieces.push(new("\n"));
        pieces.push(orig(ret.byte_range()));
    }
    let mut e = Edits::new(src.text);
    e.replace(last_if.start_byte()..ret.end_byte(), pieces);
    e.finish()
}

/// A top-level `if C then return X end` followed by more statements, with
/// the rest nested in its `else`.
fn else_nest(src: &Source) -> Option<Rewritten> {
    let stmts = statements(src);
    let at = stmts.iter().position(|s| {
        plain_if(src, *s).is_some_and(|(_, body)| {
            let inner = named(body);
            inner.len() == 1 && inner[0].kind() == "return_statement"
        })
    })?;
    let rest = stmts.get(at + 1..).filter(|r| !r.is_empty())?;
    let guard = stmts[at];
    let end_kw = guard.end_byte() - "end".len();
    let mut e = Edits::new(src.text);
    e.replace(
        end_kw..rest.last()?.end_byte(),
        vec![
            new("else\n"),
            orig(rest[0].start_byte()..rest.last()?.end_byte()),
            new("\nend"),
        ],
    );
    e.finish()
}

/// Single-quoted strings written with double quotes.
fn double_quotes(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        let t = src.text_of(n);
        if n.kind() == "string" && t.starts_with('\'') && !t.contains(['"', '\\']) {
            e.replace_text(n.byte_range(), format!("\"{}\"", &t[1..t.len() - 1]));
        }
    }
    e.finish()
}

/// Every quoted word a command is given after its key (hash fields,
/// values) held in a local constant.
fn field_constants(src: &Source) -> Option<Rewritten> {
    let mut defs: Vec<(String, String)> = Vec::new();
    let mut e = Edits::new(src.text);
    for (call, _) in redis_calls(src) {
        for arg in call_args(call).into_iter().skip(2) {
            let Some(w) = word(src, arg) else { continue };
            let name = format!("F_{}", w.to_uppercase());
            if !defs.iter().any(|d| d.0 == name) {
                if taken(src, &name) {
                    return None;
                }
                defs.push((name.clone(), src.text_of(arg).to_string()));
            }
            e.replace_text(arg.byte_range(), name);
        }
    }
    if defs.is_empty() {
        return None;
    }
    let text: String = defs
        .iter()
        .map(|(n, v)| format!("local {n} = {v}\n"))
        .collect();
    e.insert(head(src)?, text);
    e.finish()
}

/// The arguments after the key passed as `unpack({...}, 1, n)` (the count
/// keeps a nil argument where it was).
fn unpack_args(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for (call, _) in redis_calls(src) {
        let args = call_args(call);
        if args.len() < 4 {
            continue;
        }
        let rest = args[2].start_byte()..args.last()?.end_byte();
        e.replace(
            rest.clone(),
            vec![
                new("unpack({"),
                orig(rest),
                new(format!("}}, 1, {})", args.len() - 2)),
            ],
        );
    }
    e.finish()
}

/// The whole script as a local function, called by the chunk's return.
fn main_function(src: &Source) -> Option<Rewritten> {
    let stmts = statements(src);
    let first = stmts.first()?;
    if taken(src, "main") || src.nodes().iter().any(|n| n.kind() == "vararg_expression") {
        return None;
    }
    let mut e = Edits::new(src.text);
    let body = first.start_byte()..stmts.last()?.end_byte();
    e.replace(
        body.clone(),
        vec![
            new("local function main()\n"),
            orig(body),
            new("\nend\nreturn main()"),
        ],
    );
    e.finish()
}

/// Each `local function f(..) .. end` whose body does not name `f` (it
/// would not see itself) written `local f = function(..) .. end`.
fn function_values(src: &Source) -> Option<Rewritten> {
    let mut e = Edits::new(src.text);
    for n in src.nodes() {
        if n.kind() != "function_declaration" {
            continue;
        }
        let Some(name) = n.child_by_field_name("name") else {
            continue;
        };
        let head = src.slice(n.start_byte()..name.start_byte());
        if name.kind() != "identifier"
            || head.split_whitespace().collect::<Vec<_>>() != ["local", "function"]
        {
            continue;
        }
        let f = src.text_of(name);
        let rest = src.slice(name.end_byte()..n.end_byte());
        let recursive = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == f);
        if recursive {
            continue;
        }
        e.replace_text(
            n.start_byte()..name.end_byte(),
            format!("local {f} = function"),
        );
    }
    if e.is_empty() {
        return None;
    }
    e.finish()
}
