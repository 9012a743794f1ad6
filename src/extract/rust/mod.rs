//! Rust extractor: key templates, key-builder functions, constants, redis-rs /
//! deadpool-redis / fred commands, Lua scripts and script invocations.
//!
//! One pass over the tree, with one context ([`Cx`]) that every module below
//! adds methods to:
//!
//! - `mod.rs`: the entry point [`extract`], the context and its scope, the
//!   visitor that sends each node kind to its module, shared node helpers;
//! - `items.rs`: functions, methods, `impl`/`trait` blocks, `const`/`static`
//!   and `let` (the `FunctionDef`s and `ConstDef`s);
//! - `paths.rs`: `use` imports, path segments, and which calls are calls of
//!   the code base (`CallFact`s);
//! - `values.rs`: expressions as `Value`s and `Template`s (`+`, `concat`,
//!   `join`, `replace`, calls);
//! - `strings.rs`: string literals, escapes, integers;
//! - `macros.rs`: `format!`-like macros, `concat!`, `vec!`, macro arguments
//!   parsed again, calls recovered from tokens, `macro_rules!` wrappers
//!   around `include_str!`;
//! - `scripts.rs`: Lua scripts in literals and `include_str!`, their
//!   bindings and their registration tables;
//! - `client.rs`: the table of client methods (redis-rs, deadpool-redis,
//!   fred) every chain is read through;
//! - `commands.rs`: method chains as commands, pipelines and script calls;
//!   field reads after HGETALL.
//!
//! The tree is walked without recursion proportional to its depth: the
//! visitor runs under [`walk`], and the few places that recurse (expression
//! values, nested items, macro arguments) stop at [`MAX_DEPTH`].
//!
//! Macro arguments (`format!`, `concat!`, `vec!`) are a flat `token_tree` in
//! the grammar. They are parsed again as one expression (a tuple or an array)
//! with the token tree as the parser's only included range, so every node of
//! that second tree is in host-file coordinates.

mod client;
mod commands;
mod items;
mod macros;
mod paths;
mod scripts;
mod strings;
mod values;

pub(crate) use client::{GENERIC_TYPED_METHODS, RECEIVER_WORDS, TYPED_METHODS};

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Parser};

use crate::extract::is_key_candidate;
use crate::facts::{FileFacts, FileId, Span, Value};
use crate::parse::{named_children, text, walk, Parsers};

use self::commands::Builder;
use self::macros::FORMAT_MACROS;
use self::paths::expand_use;
use self::strings::placeholders_of;

/// Bound on every recursion of this extractor (expression nesting, nested
/// items, nested macros).
const MAX_DEPTH: usize = 64;

pub fn extract(root: Node<'_>, src: &[u8], file: FileId, parsers: &mut Parsers) -> FileFacts {
    let mut cx = Cx {
        src,
        file,
        parsers,
        macro_parser: None,
        facts: FileFacts::default(),
        modules: Vec::new(),
        scope: Scope::default(),
        depth: 0,
        scripts_at: HashMap::new(),
        inner: HashSet::new(),
        pending_let: None,
        macro_cache: HashMap::new(),
        impl_types: Vec::new(),
        cur_func: None,
        hash_maps: HashMap::new(),
        uses: HashMap::new(),
        placeholders: placeholders_of(src),
        script_macros: HashMap::new(),
        call_cache: HashMap::new(),
    };
    cx.walk_sub(root);
    cx.facts
}

#[derive(Default)]
struct Scope {
    params: Vec<String>,
    locals: HashMap<String, Value>,
    builders: HashMap<String, Builder>,
}

struct Cx<'s, 'p> {
    src: &'s [u8],
    file: FileId,
    parsers: &'p mut Parsers,
    macro_parser: Option<Parser>,
    facts: FileFacts,
    modules: Vec<String>,
    scope: Scope,
    depth: usize,
    /// Scripts already recorded, by the start byte of their literal.
    scripts_at: HashMap<usize, usize>,
    /// Inner nodes of chains already handled at their top (`+` chains,
    /// method chains). Kept because `Node::parent` costs the tree's depth.
    inner: HashSet<NodeKey>,
    /// The `let` whose value is being walked: (value node, variable).
    pending_let: Option<(NodeKey, String)>,
    /// Values of format-like macros already evaluated, by node: a `let`
    /// value is both walked and evaluated.
    macro_cache: HashMap<NodeKey, Value>,
    /// The `impl`/`trait` types around the current item, innermost last.
    impl_types: Vec<String>,
    /// The enclosing function: an index into `facts.functions`.
    cur_func: Option<usize>,
    /// `use` imports of the file: alias → full path (without `crate`).
    uses: HashMap<String, Vec<String>>,
    /// Maps read from Redis by `HGETALL`, by variable: the key read.
    hash_maps: HashMap<String, Value>,
    /// `macro_rules!` wrappers around `include_str!(concat!(a, $x, b))`:
    /// name → (literal text before the argument, literal text after).
    script_macros: HashMap<String, (String, String)>,
    /// Values of calls already evaluated, by node.
    call_cache: HashMap<NodeKey, Value>,
    /// Placeholders replaced somewhere in the file (`.replace("{queue}", ..)`):
    /// literals holding them are not keys by themselves.
    placeholders: Vec<String>,
}

/// A node's identity that stays valid across the macro trees parsed again
/// (node ids are addresses, reused once a tree is dropped): its byte range
/// and kind.
type NodeKey = (usize, usize, u16);

fn node_key(n: Node<'_>) -> NodeKey {
    (n.start_byte(), n.end_byte(), n.kind_id())
}

fn is_screaming(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn is_comment(n: Node<'_>) -> bool {
    n.kind().ends_with("comment") || n.kind() == "attribute_item"
}

fn args_of(call: Node<'_>) -> Vec<Node<'_>> {
    call.child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| !is_comment(*c))
        .collect()
}

impl<'s, 'p> Cx<'s, 'p> {
    fn span(&self, n: Node<'_>) -> Span {
        Span::new(self.file, n.start_byte(), n.end_byte())
    }

    fn text(&self, n: Node<'_>) -> String {
        text(n, self.src).into_owned()
    }

    /// The source text of a node for a hole's label, bounded (labels are
    /// for messages; a huge expression must not be copied at every level).
    fn label(&self, n: Node<'_>) -> String {
        const MAX: usize = 200;
        if n.end_byte() - n.start_byte() <= MAX {
            return self.text(n);
        }
        let end = (n.start_byte() + MAX).min(self.src.len());
        String::from_utf8_lossy(&self.src[n.start_byte()..end]).into_owned()
    }

    fn module(&self) -> String {
        self.modules.join("::")
    }

    /// Walks a subtree with the visitor, one level deeper.
    fn walk_sub(&mut self, n: Node<'_>) {
        if self.depth > MAX_DEPTH {
            return;
        }
        self.depth += 1;
        walk(n, |m| self.visit(m));
        self.depth -= 1;
    }

    /// The visitor: returns whether to descend.
    fn visit(&mut self, n: Node<'_>) -> bool {
        match n.kind() {
            "line_comment" | "block_comment" | "attribute_item" | "inner_attribute_item" => false,
            "mod_item" => {
                let (Some(name), Some(body)) =
                    (n.child_by_field_name("name"), n.child_by_field_name("body"))
                else {
                    return false;
                };
                self.modules.push(self.text(name));
                self.walk_sub(body);
                self.modules.pop();
                false
            }
            "function_item" | "function_signature_item" => {
                self.function(n);
                false
            }
            "impl_item" | "trait_item" => {
                self.impl_item(n);
                false
            }
            "macro_definition" => {
                self.macro_definition(n);
                false
            }
            "const_item" | "static_item" => {
                self.const_item(n);
                true
            }
            "let_declaration" => {
                self.let_decl(n);
                false
            }
            "string_literal" | "raw_string_literal" => {
                self.literal(n);
                false
            }
            "token_tree" => {
                self.include_in_tokens(n);
                true
            }
            "macro_invocation" => {
                let name = self.macro_name(n);
                if name == "include_str" || self.script_macros.contains_key(&name) {
                    self.script_of(n);
                    false
                } else if FORMAT_MACROS.contains(&name.as_str()) || name == "concat" {
                    let v = self.macro_value(n, 0);
                    self.push_template(v);
                    false
                } else {
                    !self.walk_macro(n, &name)
                }
            }
            "binary_expression" => {
                if self.operator(n) != "+" {
                    return true;
                }
                // Only the top of a `+` chain is evaluated (the chain nests
                // to the left; its inner nodes are prefixes of it).
                if self.inner.contains(&node_key(n)) {
                    return true;
                }
                self.mark_plus_spine(n);
                let v = self.value(n, 0);
                if matches!(v, Value::Str(_)) {
                    self.push_template(v);
                    false
                } else {
                    true
                }
            }
            "index_expression" => {
                self.index_read(n);
                true
            }
            "use_declaration" => {
                if let Some(arg) = n.child_by_field_name("argument") {
                    let mut out = Vec::new();
                    expand_use(&self.text(arg), &[], &mut out);
                    self.uses.extend(out);
                }
                false
            }
            "call_expression" => {
                self.field_read(n);
                self.call_fact(n);
                if self.inner.contains(&node_key(n)) {
                    return true;
                }
                self.chain_statement(n);
                if method_of(n, self.src).is_some_and(|(m, _)| m == "replace") {
                    let v = self.value(n, 0);
                    self.push_template(v);
                    return true;
                }
                if self.is_join(n) {
                    let v = self.value(n, 0);
                    self.push_template(v);
                    return false;
                }
                true
            }
            _ => true,
        }
    }

    fn push_template(&mut self, v: Value) {
        if let Value::Str(t) = v {
            let t = t.normalized();
            if is_key_candidate(&t) {
                self.facts.templates.push(t);
            }
        }
    }

    fn operator(&self, n: Node<'_>) -> String {
        n.child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or_default()
    }
}

/// `&x`, `&mut x` → `x`.
fn peel_ref(n: Node<'_>) -> Node<'_> {
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        match cur.kind() {
            "reference_expression" => match cur.child_by_field_name("value") {
                Some(v) => cur = v,
                None => break,
            },
            "parenthesized_expression" => match named_children(cur).into_iter().next() {
                Some(v) => cur = v,
                None => break,
            },
            _ => break,
        }
    }
    cur
}

/// `recv.method(..)` → `(method, recv)`.
fn method_of<'t>(n: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)> {
    if n.kind() != "call_expression" {
        return None;
    }
    let mut func = n.child_by_field_name("function")?;
    if func.kind() == "generic_function" {
        func = func.child_by_field_name("function")?;
    }
    if func.kind() != "field_expression" {
        return None;
    }
    let field = func.child_by_field_name("field")?;
    Some((
        text(field, src).into_owned(),
        func.child_by_field_name("value")?,
    ))
}

#[cfg(test)]
mod tests {
    use super::extract;
    use crate::facts::{
        CallFact, Command, FileFacts, Lang, ScriptDef, ScriptSource, Seg, Span, Value,
    };
    use crate::parse::Parsers;

    fn facts(src: &str) -> FileFacts {
        let mut p = Parsers::new().unwrap();
        let tree = p.parse(Lang::Rust, src.as_bytes()).unwrap();
        extract(tree.root_node(), src.as_bytes(), 0, &mut p)
    }

    fn at(src: &str, needle: &str) -> u32 {
        src.find(needle).expect("needle") as u32
    }

    fn tpls(f: &FileFacts) -> Vec<String> {
        f.templates.iter().map(|t| t.to_string()).collect()
    }

    fn lit_args(c: &Command) -> Vec<String> {
        c.args
            .iter()
            .map(|a| a.as_str().unwrap_or_else(|| format!("<{}>", a.describe())))
            .collect()
    }

    #[test]
    fn format_templates_with_escaped_braces() {
        let src =
            "fn a(queue: &str, ty: &str) -> String { format!(\"emq:{{{}}}:{}\", queue, ty) }\n\
                   fn b(queue: &str, ty: &str) -> String { format!(\"emq:{{{queue}}}:{ty}\") }\n";
        let f = facts(src);
        assert_eq!(tpls(&f), vec!["emq:{<queue>}:<ty>", "emq:{<queue>}:<ty>"]);
        assert_eq!(f.functions.len(), 2);
        let Value::Str(t) = &f.functions[0].returns else {
            panic!()
        };
        let Seg::Lit { text, span } = &t.segs[0] else {
            panic!()
        };
        assert_eq!(text, "emq:{");
        assert_eq!(span.start, at(src, "emq:{{{}"));
        assert_eq!(span.end, at(src, "emq:{{{}") + 6);
        assert!(
            matches!(&t.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. }))
        );
    }
    #[test]
    fn modules_consts_and_functions() {
        let src = r#"
pub const TOP: &str = "emq:";
mod keys {
    pub const PREFIX: &str = "emq:";
    pub static SEP: &str = concat!(":", "{");
    pub mod inner { const DEEP: i64 = 5; }
    pub fn job_key(q: &str, id: &str) -> String {
        format!("{}{{{}}}:job:{}", PREFIX, q, id)
    }
    pub struct Keys { prefix: String }
    impl Keys {
        pub const WAIT: &'static str = "wait";
        pub fn wait(&self, q: &str) -> String { let k = format!("{}:{{{}}}:wait", self.prefix, q); k }
        pub fn other(&self) -> String { crate::keys::job_key(&self.prefix, "x") }
        pub fn plain(&self) -> usize { 3 }
    }
}
"#;
        let f = facts(src);
        let consts: Vec<(String, String)> = f
            .consts
            .iter()
            .map(|c| (c.module.clone(), c.name.clone()))
            .collect();
        assert_eq!(
            consts,
            vec![
                ("".into(), "TOP".into()),
                ("keys".into(), "PREFIX".into()),
                ("keys".into(), "SEP".into()),
                ("keys::inner".into(), "DEEP".into()),
                ("keys".into(), "WAIT".into()),
            ]
        );
        assert_eq!(f.consts[2].value.as_str().as_deref(), Some(":{"));
        assert_eq!(f.consts[1].name_span.start, at(src, "PREFIX"));
        assert!(matches!(f.consts[3].value, Value::Int { value: 5, .. }));
        let names: Vec<(&str, &str)> = f
            .functions
            .iter()
            .map(|d| (d.module.as_str(), d.name.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("keys", "job_key"),
                ("keys::Keys", "wait"),
                ("keys::Keys", "other"),
                ("keys::Keys", "plain")
            ]
        );
        assert!(matches!(f.functions[3].returns, Value::Unknown { .. }));
        assert_eq!(f.functions[0].params, vec!["q", "id"]);
        assert_eq!(f.functions[0].returns.describe(), "<PREFIX>{<q>}:job:<id>");
        assert_eq!(f.functions[1].params, vec!["q"]);
        assert_eq!(f.functions[1].returns.describe(), "<prefix>:{<q>}:wait");
        let Value::Call { path, args, .. } = &f.functions[2].returns else {
            panic!()
        };
        assert_eq!(
            path,
            &vec!["crate".to_string(), "keys".into(), "job_key".into()]
        );
        assert_eq!(args[1].as_str().as_deref(), Some("x"));
        assert_eq!(f.functions[0].name_span.start, at(src, "job_key"));
    }

    #[test]
    fn plain_strings_decode_and_keep_content_spans() {
        let src = "const A: &str = \"emq:\\\"q\\\"\\n\\u{41}\";\nconst B: &str = r#\"emq:{x}\"#;\n\
                   const C: &str = \"emq:a\\\n      b\";\n";
        let f = facts(src);
        assert_eq!(f.consts[0].value.as_str().as_deref(), Some("emq:\"q\"\nA"));
        let Value::Str(t) = &f.consts[0].value else {
            panic!()
        };
        assert_eq!(t.segs[0].span().start, at(src, "emq:\\\""));
        assert_eq!(t.segs[0].span().end, at(src, "\";\nconst B"));
        assert_eq!(f.consts[1].value.as_str().as_deref(), Some("emq:{x}"));
        assert_eq!(f.consts[1].value.span().start + 3, at(src, "emq:{x}"));
        assert_eq!(f.consts[2].value.as_str().as_deref(), Some("emq:ab"));
        assert_eq!(tpls(&f), vec!["emq:{x}", "emq:ab"]);
    }

    #[test]
    fn format_args_forms() {
        let src = r#"
const PREFIX: &str = "emq";
fn k(q: &str, id: u64) -> String {
    let base = format!("{PREFIX}:{{{}}}", q);
    let a = format!("{0}:{1}:{0}", base, "job");
    let b = format!("{b}:{id:>8}:{x}", b = base, x = keys::job_key(q, id));
    let c = format!("{}:{:?}:{}", Self::PREFIX, q, self.keys.wait());
    let d = String::from("emq:") + &q + ":pending";
    let e = ["emq", q.as_str(), "wait"].join(":");
    let g = [PREFIX, ":{", q].concat();
    d
}
"#;
        let f = facts(src);
        assert_eq!(
            tpls(&f),
            vec![
                "<PREFIX>:{<q>}",
                "<PREFIX>:{<q>}:job:<PREFIX>:{<q>}",
                "<PREFIX>:{<q>}:<id>:<job_key>",
                "<PREFIX>:<q>:<wait>",
                "emq::<q>:pending".replace("::", ":").as_str(),
                "emq:<q>:wait",
                "<PREFIX>:{<q>",
            ]
        );
        let d = &f.functions[0];
        assert_eq!(d.returns.describe(), "emq:<q>:pending");
        let Value::Str(t) = &d.returns else { panic!() };
        assert!(
            matches!(&t.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. }))
        );
    }

    #[test]
    fn format_edge_cases_do_not_panic() {
        let src = "fn f(e: E) { let a = format!(\"{{}}\"); let b = format!(\"{\"); let c = format!(\"}\"); \
                   let d = format!(\"{:}\"); let x = format!(\"error: {}\", e); let y = format!(\"{}\"); \
                   let z = format!(); let w = format!(\"é:{{{\"); let v = format!(\"a:{}{}\", 1); }\n";
        let f = facts(src);
        assert_eq!(tpls(&f), vec!["é:{{".to_string(), "a:1<_>".to_string()]);
        for junk in [
            "fn f() { format!(\"{",
            "format!(",
            "fn x() { let = format!(\"{}}}{{\", ) }",
            "r#\"",
            "\"\\u{ZZ}\"",
        ] {
            let _ = facts(junk);
        }
    }

    #[test]
    fn error_messages_are_not_templates() {
        let f = facts("fn f(e: E) -> String { format!(\"error: {}\", e) }\n");
        assert!(f.templates.is_empty());
    }
    #[test]
    fn redis_rs_command_chains() {
        let src = r#"
async fn save(con: &mut C, q: &str, s: &str) -> R {
    let key = keys::job(q, "1");
    redis::cmd("hset").arg(&key).arg("state").arg(s).query_async(con).await?;
    deadpool_redis::redis::cmd("HMGET").arg(&key).arg(&["payload", "attempts"]).query_async(con).await?;
    redis::pipe().atomic().cmd("HSET").arg(&key).arg("state").arg("active").ignore()
        .cmd("ZADD").arg(format!("emq:{{{}}}:active", q)).arg(0).arg(vec!["a", "b"]).query_async(con).await?;
    let mut c = redis::cmd("EVALSHA");
    c.arg(sha).arg(2);
    c.arg(&key);
    for k in extra { c.arg(k); }
    Ok(())
}
"#;
        let f = facts(src);
        let names: Vec<&str> = f.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["HSET", "HMGET", "HSET", "ZADD", "EVALSHA"]);
        let hset = &f.commands[0];
        assert_eq!(hset.name_span.start, at(src, "hset\""));
        assert_eq!(lit_args(hset), vec!["<job>", "state", "<s>"]);
        assert!(
            matches!(&hset.args[0], Value::Call { path, .. } if path == &vec!["keys".to_string(), "job".into()])
        );
        assert_eq!(hset.args[1].span().start, at(src, "\"state\""));
        assert_eq!(
            lit_args(&f.commands[1]),
            vec!["<job>", "payload", "attempts"]
        );
        assert_eq!(lit_args(&f.commands[2]), vec!["<job>", "state", "active"]);
        assert_eq!(f.commands[3].args[0].describe(), "emq:{<q>}:active");
        assert_eq!(lit_args(&f.commands[3])[1..], ["<0>", "a", "b"]);
        let eval = &f.commands[4];
        assert_eq!(lit_args(eval), vec!["<sha>", "<2>", "<job>"]);
        assert!(eval.open_tail);
        assert!(!f.commands[0].open_tail);
        assert_eq!(tpls(&f), vec!["emq:{<q>}:active"]);
    }

    #[test]
    fn typed_commands_redis_rs_and_fred() {
        let src = r#"
async fn f(con: &mut C, client: &Client, key: &str, map: HashMap<String, String>) {
    let _: () = con.hset(key, "state", "wait").await?;
    con.hset_nx(key, "lock", 1).await?;
    con.hset_multiple(key, &[("state", s), ("attempts", a)]).await?;
    let v: Option<String> = con.hget(key, "payload").await?;
    con.hmget(key, &["a", "b"]).await?;
    con.hincr(key, "attempts", 1).await?;
    con.hdel(key, &["x", "y"]).await?;
    con.hgetall(key).await?;
    con.hexists(key, "z").await?;
    con.get(key).await?;
    con.set(key, 5).await?;
    client.hset::<(), _, _>(key, [("state", s), ("data", d)]).await?;
    client.hget::<String, _, _>(key, "data").await?;
    let m = map.get("payload");
    let n = self.cache.get("payload");
    let z = pool.get().await?;
}
"#;
        let f = facts(src);
        let got: Vec<(String, Vec<String>)> = f
            .commands
            .iter()
            .map(|c| (c.name.clone(), lit_args(c)[1..].to_vec()))
            .collect();
        let want: Vec<(&str, Vec<&str>)> = vec![
            ("HSET", vec!["state", "wait"]),
            ("HSETNX", vec!["lock", "<1>"]),
            ("HSET", vec!["state", "<s>", "attempts", "<a>"]),
            ("HGET", vec!["payload"]),
            ("HMGET", vec!["a", "b"]),
            ("HINCRBY", vec!["attempts", "<1>"]),
            ("HDEL", vec!["x", "y"]),
            ("HGETALL", vec![]),
            ("HEXISTS", vec!["z"]),
            ("GET", vec![]),
            ("SET", vec!["<5>"]),
            ("HSET", vec!["state", "<s>", "data", "<d>"]),
            ("HGET", vec!["data"]),
        ];
        let want: Vec<(String, Vec<String>)> = want
            .into_iter()
            .map(|(n, a)| (n.to_string(), a.into_iter().map(String::from).collect()))
            .collect();
        assert_eq!(got, want);
        assert!(matches!(
            &f.commands[0].args[0],
            Value::Param { index: 2, .. }
        ));
        assert_eq!(f.commands[3].name_span.start, at(src, "hget(key"));
    }

    #[test]
    fn hashmap_get_is_not_a_command() {
        let f = facts("fn f(map: &HashMap<String, String>) { let v = map.get(\"payload\"); map.insert(1, 2); }\n");
        assert!(f.commands.is_empty());
    }
    fn inline(d: &ScriptDef) -> &crate::facts::LuaFacts {
        match &d.source {
            ScriptSource::Inline(l) => l,
            other => panic!("inline script expected: {other:?}"),
        }
    }

    #[test]
    fn inline_lua_in_raw_string_keeps_host_spans() {
        let src = "fn run(con: &mut C, k: &str, j: &str) {\n    let script = redis::Script::new(r#\"\n        redis.call('HSET', KEYS[1], 'payload', ARGV[1])\n    \"#);\n    script.key(k).key(j).arg(\"x\").invoke(con);\n}\n";
        let f = facts(src);
        assert_eq!(f.scripts.len(), 1);
        assert_eq!(f.scripts[0].name.as_deref(), Some("script"));
        assert_eq!(f.scripts[0].name_span.start, at(src, "script ="));
        let lua = inline(&f.scripts[0]);
        assert_eq!(lua.commands.len(), 1);
        let arg = &lua.commands[0].args[1];
        assert_eq!(arg.as_str().as_deref(), Some("payload"));
        let Value::Str(t) = arg else { panic!() };
        let sp = t.segs[0].span();
        assert_eq!(&src[sp.start as usize..sp.end as usize], "payload");
        assert_eq!(sp.start, at(src, "payload"));
        assert_eq!(f.script_calls.len(), 1);
        let call = &f.script_calls[0];
        assert!(matches!(call.script, Value::ScriptRef { index: 0, .. }));
        assert_eq!(call.keys.len(), 2);
        assert!(matches!(call.keys[1], Value::Param { index: 2, .. }));
        assert_eq!(call.args[0].as_str().as_deref(), Some("x"));
        assert!(!call.open_keys);
    }

    #[test]
    fn named_scripts_in_consts_statics_and_macros() {
        let src = r##"
const MOVE: &str = "local k = KEYS[1]\nredis.call('LPUSH', k, ARGV[1])";
static ENQUEUE: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("../lua/enqueue.lua")));
static RETRY: OnceLock<Script> = OnceLock::new();
lazy_static! {
    static ref REMOVE: Script = Script::new(include_str!("remove.lua"));
    static ref ACK: redis::Script = redis::Script::new(r#"return redis.call('DEL', KEYS[1])"#);
}
fn go(con: &mut C, q: &str, keys: &[String]) {
    ENQUEUE.key(keys::wait(q)).key(format!("emq:{{{}}}:jobs", q)).arg(1).invoke_async(con).await?;
    let mut inv = REMOVE.prepare_invoke();
    for k in keys { inv.key(k); }
    inv.arg("a").invoke_async(con).await?;
    Script::new("return redis.call('GET', KEYS[1])").key(&keys).invoke(con)?;
    redis::cmd("EVAL").arg("return redis.call('TYPE', KEYS[1])").arg(1).arg(q).query(con)?;
    client.evalsha::<(), _, _, _>(SHA, vec!["emq:{a}:x", q], vec![1]).await?;
    client.eval::<(), _, _, _>(LUA, keys, ()).await?;
}
"##;
        let f = facts(src);
        let names: Vec<Option<&str>> = f.scripts.iter().map(|s| s.name.as_deref()).collect();
        assert_eq!(
            names,
            vec![
                Some("MOVE"),
                Some("ENQUEUE"),
                Some("REMOVE"),
                Some("ACK"),
                None,
                None
            ]
        );
        let ScriptSource::File {
            path,
            relative_to_file,
            span,
        } = &f.scripts[1].source
        else {
            panic!()
        };
        assert_eq!(path, "../lua/enqueue.lua");
        assert!(relative_to_file);
        assert_eq!(span.start, at(src, "../lua/enqueue.lua"));
        assert_eq!(f.scripts[1].name_span.start, at(src, "ENQUEUE"));
        assert_eq!(f.scripts[3].name_span.start, at(src, "ACK"));
        assert_eq!(inline(&f.scripts[0]).commands[0].name, "LPUSH");
        assert_eq!(inline(&f.scripts[5]).commands[0].name, "TYPE");
        let calls = &f.script_calls;
        assert_eq!(calls.len(), 5);
        assert!(
            matches!(&calls[0].script, Value::Const { path, .. } if path == &vec!["ENQUEUE".to_string()])
        );
        assert_eq!(calls[0].keys.len(), 2);
        assert_eq!(calls[0].keys[1].describe(), "emq:{<q>}:jobs");
        assert!(matches!(calls[0].args[0], Value::Int { value: 1, .. }));
        assert!(!calls[0].open_keys);
        assert!(calls[1].open_keys);
        assert_eq!(calls[1].args[0].as_str().as_deref(), Some("a"));
        assert!(matches!(calls[2].script, Value::ScriptRef { index: 4, .. }));
        assert!(calls[2].open_keys);
        assert_eq!(calls[3].keys.len(), 2);
        assert_eq!(calls[3].keys[0].as_str().as_deref(), Some("emq:{a}:x"));
        assert!(calls[4].open_keys);
        assert_eq!(f.commands[0].name, "EVAL");
    }

    #[test]
    fn macros_holding_expressions_are_walked() {
        let src = r#"
async fn f(con: &mut C, q: &str) {
    let (a, b) = tokio::try_join!(con.hget(q, "state"), con.hget(q, "data"))?;
    let v = vec![format!("emq:{{{}}}:wait", q), "emq:x:y".to_string()];
    assert_eq!(key, "emq:{q}:wait");
}
"#;
        let f = facts(src);
        let got: Vec<String> = f
            .commands
            .iter()
            .map(|c| format!("{} {:?}", c.name, lit_args(c)))
            .collect();
        assert_eq!(
            got,
            vec!["HGET [\"<q>\", \"state\"]", "HGET [\"<q>\", \"data\"]"]
        );
        assert_eq!(tpls(&f), vec!["emq:{<q>}:wait", "emq:x:y", "emq:{q}:wait"]);
    }

    #[test]
    fn calls_inside_json_are_recovered_from_tokens() {
        let src = r#"
fn f(con: &mut C, q: &str) -> serde_json::Value {
    json!({ "state": con.hget(q, "state")?, "rows": [con.hget(q, "payload")?], "n": m.len() })
}
"#;
        let f = facts(src);
        let got: Vec<String> = f
            .commands
            .iter()
            .map(|c| format!("{} {:?}", c.name, lit_args(c)))
            .collect();
        assert_eq!(
            got,
            vec!["HGET [\"<q>\", \"state\"]", "HGET [\"<q>\", \"payload\"]"]
        );
        let at = src.find("\"payload\")").unwrap() as u32 + 1;
        let field = &f.commands[1].args[1];
        assert_eq!(field.span().start, at - 1);
    }

    #[test]
    fn deep_and_long_inputs_are_safe() {
        let n = 20_000;
        let long = format!(
            "fn f() {{ let k = \"emq:\".to_string(){}; }}\n",
            " + \"a:b\"".repeat(n)
        );
        let f = facts(&long);
        assert_eq!(f.templates.len(), 1);
        let ints = format!("fn g() {{ let k = 1{}; }}\n", " + 1".repeat(n));
        assert!(facts(&ints).templates.is_empty());
        let deep = format!(
            "fn h() {{ let k = {}\"emq:a\"{}; }}\n",
            "(".repeat(5_000),
            ")".repeat(5_000)
        );
        let _ = facts(&deep);
        let fmt = format!(
            "fn i(q: &str) -> String {{ {}\"emq:{{}}\", q{} }}\n",
            "format!(\"{}\", ".repeat(200),
            ")".repeat(200)
        );
        let _ = facts(&fmt);
        let mods = format!(
            "{}const A: &str = \"emq:x\";{}\n",
            "mod m { ".repeat(300),
            "}".repeat(300)
        );
        let f = facts(&mods);
        assert_eq!(f.templates.len(), 0);
        let calls = format!(
            "fn j() {{ {}x{}; }}\n",
            "f(".repeat(20_000),
            ")".repeat(20_000)
        );
        let start = std::time::Instant::now();
        let _ = facts(&calls);
        assert!(start.elapsed().as_secs() < 5);
    }
    #[test]
    fn write_macros_skip_the_writer_and_errors_are_walked() {
        let src = r#"
impl fmt::Display for K {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "emq:{{{}}}:wait", self.q) }
}
#[derive(Debug)]
struct S { #[cfg(x)] a: u8 }
fn broken(con: &mut C, q: &str) {
    let p = S { #[cfg(test)] a, .. } = s;
    con.hget(q, "state") ))) ;
    let k = format!("emq:{{{}}}:x", q);
}
"#;
        let f = facts(src);
        let mut p = Parsers::new().unwrap();
        assert!(p
            .parse(Lang::Rust, src.as_bytes())
            .unwrap()
            .root_node()
            .has_error());
        assert_eq!(tpls(&f)[0], "emq:{<q>}:wait");
        assert!(tpls(&f).contains(&"emq:{<q>}:x".to_string()));
        assert!(f
            .commands
            .iter()
            .any(|c| c.name == "HGET" && lit_args(c)[1] == "state"));
    }

    #[test]
    fn key_builder_segments_are_exact() {
        let src = "fn key(prefix: &str, q: &str, kind: &str) -> String { format!(\"{prefix}:{{{q}}}:{kind}\") }\n\
                   async fn f(client: &Client, k: &str) { client.hset::<(), _, _>(k, HashMap::from([(\"state\", 1)])).await; }\n";
        let f = facts(src);
        let Value::Str(t) = &f.functions[0].returns else {
            panic!()
        };
        let shape: Vec<String> = t
            .segs
            .iter()
            .map(|s| match s {
                Seg::Lit { text, span } => format!("L{text}@{}", span.start),
                Seg::Value(v) => match &**v {
                    Value::Param { index, name, .. } => format!("P{index}{name}"),
                    other => format!("{other:?}"),
                },
                Seg::Hole { label, .. } => format!("H{label}"),
            })
            .collect();
        let lit = |n: &str| src.find(n).unwrap();
        assert_eq!(
            shape,
            vec![
                "P0prefix".to_string(),
                format!("L:{{@{}", lit(":{{{q")),
                "P1q".into(),
                format!("L}}:@{}", lit("}}}:{kind") + 1),
                "P2kind".into(),
            ]
        );
        let hset = &f.commands[0];
        assert_eq!(lit_args(hset), vec!["<k>", "state", "<1>"]);
    }

    #[test]
    fn every_function_is_emitted_with_func_indexes() {
        let src = r#"
fn helper() -> usize { 3 }
struct Keys { prefix: String }
impl<T> Keys<T> {
    fn wait(&self, q: &str) -> String { format!("emq:{{{}}}:wait", q) }
    fn save(&self, con: &mut C, k: &str) { con.hset(k, "state", "x"); }
}
trait Run { fn run(&self); fn go(&self) { let x = 1; } }
fn outer(con: &mut C) {
    fn inner() {}
    redis::cmd("HGET").arg("k").arg("state").query(con);
}
static X: LazyLock<Script> = LazyLock::new(|| Script::new("return redis.call('GET', KEYS[1])"));
fn call() { X.key("a").invoke(con); }
"#;
        let f = facts(src);
        let names: Vec<(&str, &str)> = f
            .functions
            .iter()
            .map(|d| (d.module.as_str(), d.name.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("", "helper"),
                ("Keys", "wait"),
                ("Keys", "save"),
                ("Run", "run"),
                ("Run", "go"),
                ("", "outer"),
                ("", "inner"),
                ("", "call"),
            ]
        );
        assert!(matches!(f.functions[0].returns, Value::Unknown { .. }));
        assert_eq!(f.functions[1].returns.describe(), "emq:{<q>}:wait");
        assert_eq!(f.functions[2].params, vec!["con", "k"]);
        assert_eq!(f.functions[5].name_span.start, at(src, "outer"));
        let cmds: Vec<(&str, Option<usize>)> = f
            .commands
            .iter()
            .map(|c| (c.name.as_str(), c.func))
            .collect();
        assert_eq!(cmds, vec![("HSET", Some(2)), ("HGET", Some(5))]);
        assert_eq!(f.script_calls.len(), 1);
        assert_eq!(f.script_calls[0].func, Some(7));
    }

    #[test]
    fn loops_and_opaque_slices_fill_tails() {
        let src = r#"
fn run(con: &mut C, sha: &str, keys: &[String], args: Vec<String>) {
    let mut c = redis::cmd("EVALSHA");
    c.arg(sha).arg(keys.len());
    for k in keys.iter() { c.arg(k); }
    c.arg(&args);
    c.query(con);
    redis::cmd("DEL").arg(&keys).query(con);
    let mut inv = SCRIPT.prepare_invoke();
    for k in keys { inv.key(k); }
    inv.invoke(con);
    SCRIPT.key(&keys).arg(1).invoke(con);
    client.evalsha::<(), _, _, _>(SHA, keys, args).await?;
}
"#;
        let f = facts(src);
        let param = |v: &Value| match v {
            Value::Param { index, name, .. } => format!("{index}{name}"),
            other => format!("{other:?}"),
        };
        let eval = &f.commands[0];
        assert_eq!(eval.name, "EVALSHA");
        assert!(eval.open_tail);
        assert_eq!(
            eval.tail.iter().map(param).collect::<Vec<_>>(),
            vec!["2keys", "3args"]
        );
        assert_eq!(eval.tail[0].span().start, at(src, "keys.iter()"));
        let del = &f.commands[1];
        assert!(del.open_tail && del.args.is_empty());
        assert_eq!(
            del.tail.iter().map(param).collect::<Vec<_>>(),
            vec!["2keys"]
        );
        assert_eq!(f.script_calls.len(), 3);
        for c in &f.script_calls {
            assert!(c.open_keys);
            assert_eq!(c.keys_from.as_ref().map(param).as_deref(), Some("2keys"));
            assert_eq!(c.func, Some(0));
        }
        assert_eq!(
            f.script_calls[0].keys_from.as_ref().unwrap().span().start,
            at(src, "keys { inv")
        );
    }

    fn path_of(c: &CallFact) -> String {
        c.path.join("::")
    }

    #[test]
    fn calls_to_the_code_base() {
        let src = r#"
use crate::scripts::execute;
use crate::{keys, lua::{self, run as go}};
use redis::cmd;
impl Queue {
    fn add(&self, con: &mut C, q: &str, id: &str) -> R {
        let keys = vec![keys::job(q, id), self.keys.wait()];
        execute(con, "moveToActive", &keys, &[id]);
        scripts::execute(con, "x", &keys, &[]);
        self.run(con, q);
        go(1);
        lua::load("a");
        LuaScript::execute(&self.s, con, keys, vec!["a"]);
        self.script.execute(con, vec![keys::pending(q)], ["b", "c"]);
        let n = keys.len() + q.to_string().len();
        let v: Vec<String> = keys.iter().map(|k| k.clone()).collect();
        let t = Some(String::from("x"));
        let f = |x: u8| x;
        f(1);
        cmd("GET").arg(q).query(con)?;
        Ok(Kind::Job(id))
    }
}
"#;
        let f = facts(src);
        let got: Vec<String> = f.calls.iter().map(path_of).collect();
        assert_eq!(
            got,
            vec![
                "keys::job",
                "wait",
                "scripts::execute",
                "scripts::execute",
                "self::run",
                "lua::run",
                "lua::load",
                "LuaScript::execute",
                "execute",
                "keys::pending",
            ]
        );
        let exec = &f.calls[2];
        assert_eq!(exec.func, Some(0));
        assert_eq!(exec.span.start, at(src, "execute(con, \"move"));
        assert!(matches!(exec.args[0], Value::Param { index: 0, .. }));
        assert_eq!(exec.args[1].as_str().as_deref(), Some("moveToActive"));
        let Value::List { items, .. } = &exec.args[2] else {
            panic!("{:?}", exec.args[2])
        };
        assert_eq!(items.len(), 2);
        assert!(
            matches!(&items[0], Value::Call { path, .. } if path == &vec!["keys".to_string(), "job".into()])
        );
        let Value::List { items, .. } = &exec.args[3] else {
            panic!()
        };
        assert!(matches!(items[0], Value::Param { index: 2, .. }));
        assert_eq!(f.calls[4].args.len(), 2);
        let ufcs = &f.calls[7];
        assert_eq!(ufcs.args.len(), 4);
        assert!(matches!(ufcs.args[2], Value::List { .. }));
        let m = &f.calls[8];
        assert_eq!(m.args.len(), 3);
        let Value::List { items, .. } = &m.args[2] else {
            panic!()
        };
        assert_eq!(items[1].as_str().as_deref(), Some("c"));
    }

    #[test]
    fn field_reads_after_hgetall() {
        let src = r#"
async fn load(con: &mut C, q: &str, id: &str) -> R {
    let key = keys::job(q, id);
    let fields: HashMap<String, String> = con.hgetall(&key).await?;
    let p = fields.get("payload").cloned();
    let s = &fields["state"];
    let mut row: HashMap<String, String> = redis::cmd("HGETALL").arg(keys::job(q, id)).query_async(con).await?;
    let a = row.remove("attempts");
    let other: HashMap<&str, &str> = HashMap::new();
    let x = other.get("payload");
    let cfg = load_config();
    let y = cfg["payload"];
    let fields = 3;
    let z = fields.get("payload");
    Ok(())
}
fn fred(client: &Client) { let m: HashMap<String, String> = client.hgetall("emq:{q}:job:1").await?; m.get("data"); }
"#;
        let f = facts(src);
        let got: Vec<(String, String, u32, Option<usize>)> = f
            .field_reads
            .iter()
            .map(|r| {
                (
                    r.key.describe(),
                    r.field.as_str().unwrap(),
                    r.span.start,
                    r.func,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "job".into(),
                    "payload".into(),
                    at(src, "payload\").cl"),
                    Some(0)
                ),
                ("job".into(), "state".into(), at(src, "state\"]"), Some(0)),
                (
                    "job".into(),
                    "attempts".into(),
                    at(src, "attempts\")"),
                    Some(0)
                ),
                (
                    "emq:{q}:job:1".into(),
                    "data".into(),
                    at(src, "data\")"),
                    Some(1)
                ),
            ]
        );
        assert_eq!(f.field_reads[0].span.len(), "payload".len() as u32);
        assert!(f.commands.iter().all(|c| c.name == "HGETALL"));
    }

    #[test]
    fn placeholder_replace_leaves_no_braces() {
        let src = r#"
const ACTIVE: &str = "emq:{queue}:active";
fn active(ns: &str) -> String { ACTIVE.replace("{queue}", ns) }
fn other(con: &mut C, id: &str) {
    let k = "emq:{queue}:job:{id}".replace("{queue}", "q1").replace("{id}", id);
    con.hget(k, "state");
}
"#;
        let f = facts(src);
        assert_eq!(
            f.functions[0].returns.to_owned().describe(),
            "emq:<ns>:active"
        );
        let Value::Str(t) = &f.functions[0].returns else {
            panic!()
        };
        let Seg::Lit { text, span } = &t.segs[2] else {
            panic!()
        };
        assert_eq!(text, ":active");
        assert_eq!(span.start, at(src, ":active"));
        assert_eq!(span.len(), 7);
        assert_eq!(tpls(&f), vec!["emq:<ns>:active", "emq:q1:job:<id>"]);
        assert_eq!(f.commands[0].args[0].describe(), "emq:q1:job:<id>");
    }

    fn file_path(d: &ScriptDef) -> (&str, Span) {
        match &d.source {
            ScriptSource::File { path, span, .. } => (path.as_str(), *span),
            other => panic!("file script expected: {other:?}"),
        }
    }

    #[test]
    fn scripts_registered_with_their_key_counts() {
        let src = r#"
const SCRIPTS: &[(&str, usize, &str)] = &[
    ("moveToActive", 11, include_str!("../lua/moveToActive-11.lua")),
    ("retryJob", 0x3, include_str!(concat!("../lua/", "retryJob-3.lua"))),
];
static ALL: LazyLock<Vec<LuaScript>> = LazyLock::new(|| vec![
    LuaScript { name: "addJob", num_keys: 8, body: include_str!("../lua/addJob-8.lua") },
    LuaScript::new("pause", 5, Script::new(include_str!("../lua/pause-5.lua"))),
]);
lazy_static! {
    static ref EXTRA: Vec<(&'static str, i32, &'static str)> = vec![("drain", 4, include_str!("../lua/drain-4.lua"))];
}
fn plain() -> (i32, Script) { (2, Script::new("return redis.call('GET', KEYS[1])")) }
"#;
        let f = facts(src);
        let got: Vec<(Option<&str>, &str, Option<u32>)> = f
            .scripts
            .iter()
            .map(|d| {
                let path = match &d.source {
                    ScriptSource::File { path, .. } => path.as_str(),
                    ScriptSource::Inline(_) => "<inline>",
                };
                (d.name.as_deref(), path, d.declared_keys.map(|k| k.0))
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (Some("moveToActive"), "../lua/moveToActive-11.lua", Some(11)),
                (Some("retryJob"), "../lua/retryJob-3.lua", Some(3)),
                (Some("addJob"), "../lua/addJob-8.lua", Some(8)),
                (Some("pause"), "../lua/pause-5.lua", Some(5)),
                (Some("drain"), "../lua/drain-4.lua", Some(4)),
                (None, "<inline>", Some(2)),
            ]
        );
        let (n, sp) = f.scripts[0].declared_keys.unwrap();
        assert_eq!((n, sp.start, sp.len()), (11, at(src, "11,"), 2));
        assert_eq!(f.scripts[0].name_span.start, at(src, "moveToActive\""));
        assert_eq!(f.scripts[0].name_span.len(), "moveToActive".len() as u32);
        let (_, span) = file_path(&f.scripts[1]);
        assert_eq!(span.start, at(src, "../lua/\""));
        assert_eq!(span.end, at(src, "retryJob-3.lua") + 14);
        assert_eq!(f.scripts[2].declared_keys.unwrap().1.start, at(src, "8,"));
        assert_eq!(
            f.scripts[4].declared_keys.unwrap().1.start,
            at(src, "4, include")
        );
        assert_eq!(f.scripts[4].name_span.start, at(src, "drain"));
    }

    #[test]
    fn macro_rules_wrappers_around_include_str() {
        let src = r#"
macro_rules! script {
    ($file:expr) => {
        include_str!(concat!("../scripts/", $file))
    };
}
macro_rules! lua { ($name:literal) => { include_str!(concat!("../lua/", $name, ".lua")) }; }
static ENQUEUE: &str = script!("enqueue.lua");
lazy_static! { static ref ACK: Script = Script::new(lua!("ack")); }
fn go(con: &mut C) { Script::new(script!("move-2.lua")).key("emq:{q}:a").invoke(con); }
"#;
        let f = facts(src);
        let got: Vec<(Option<&str>, &str, u32)> = f
            .scripts
            .iter()
            .map(|d| {
                let (p, sp) = file_path(d);
                (d.name.as_deref(), p, sp.start)
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Some("ENQUEUE"),
                    "../scripts/enqueue.lua",
                    at(src, "enqueue.lua")
                ),
                (Some("ACK"), "../lua/ack.lua", at(src, "ack\"")),
                (None, "../scripts/move-2.lua", at(src, "move-2.lua")),
            ]
        );
        assert!(matches!(
            f.script_calls[0].script,
            Value::ScriptRef { index: 2, .. }
        ));
    }

    #[test]
    fn script_text_is_what_is_sent() {
        let src = "const A: &str = \"local k = KEYS[1]\\n\\\n        redis.call('DEL', k)\\t-- \\u{e9}\\\"\";\n\
                   const B: &str = r#\"return redis.call('GET', KEYS[1]) -- \\n \"x\"\n  \"#;\n";
        let f = facts(src);
        assert_eq!(
            f.scripts[0].text.as_deref(),
            Some("local k = KEYS[1]\nredis.call('DEL', k)\t-- é\"")
        );
        assert_eq!(
            f.scripts[1].text.as_deref(),
            Some("return redis.call('GET', KEYS[1]) -- \\n \"x\"\n  ")
        );
        assert_eq!(inline(&f.scripts[0]).commands[0].name, "DEL");
    }

    #[test]
    fn rust_client_fixtures_yield_their_facts() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rust-clients/");
        let read = |p: &str| std::fs::read_to_string(format!("{dir}{p}")).unwrap();
        // deadpool: a wrapper macro, a registration count, a wrapper fn with a loop tail.
        let src = read("deadpool/src/scripts.rs");
        let f = facts(&src);
        assert_eq!(f.scripts.len(), 1);
        assert_eq!(f.scripts[0].name.as_deref(), Some("enqueue"));
        assert_eq!(f.scripts[0].declared_keys.map(|k| k.0), Some(2));
        assert_eq!(file_path(&f.scripts[0]).0, "../lua/enqueue-2.lua");
        let exec = f
            .functions
            .iter()
            .position(|d| d.name == "execute")
            .unwrap();
        assert_eq!(f.functions[exec].module, "LuaScript");
        let eval = &f.commands[0];
        assert_eq!((eval.name.as_str(), eval.func), ("EVAL", Some(exec)));
        assert!(eval.open_tail);
        let tail: Vec<String> = eval.tail.iter().map(|v| v.describe()).collect();
        assert_eq!(tail, vec!["keys", "args"]);
        let src = read("deadpool/src/jobs.rs");
        let f = facts(&src);
        let call = f.calls.iter().find(|c| c.path == ["execute"]).unwrap();
        let Value::List { items, .. } = &call.args[1] else {
            panic!("{:?}", call.args[1])
        };
        assert_eq!(items.len(), 2);
        // fred: field reads after hgetall, none from the labels map.
        let src = read("fred/src/lib.rs");
        let f = facts(&src);
        let reads: Vec<String> = f
            .field_reads
            .iter()
            .map(|r| r.field.as_str().unwrap())
            .collect();
        assert_eq!(reads, vec!["payload"]);
        // redis-sync: keys added in a loop over a visible array.
        let src = read("redis-sync/src/jobs.rs");
        let f = facts(&src);
        let Some(Value::List { items, .. }) = &f.script_calls[0].keys_from else {
            panic!("{:?}", f.script_calls[0].keys_from)
        };
        assert_eq!(items.len(), 2);
        assert_eq!(f.field_reads.len(), 2);
    }
}
