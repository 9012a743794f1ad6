//! Key templates, functions and constants: format strings, literals, `+`
//! chains, `replace`, modules and `impl` blocks, inputs that must stay safe.

use crate::facts::{Lang, Seg, Value};
use crate::parse::Parsers;

use super::{at, command_lines, facts, lit_args, tpls};

#[test]
fn format_templates_with_escaped_braces() {
    let src = "fn a(queue: &str, ty: &str) -> String { format!(\"emq:{{{}}}:{}\", queue, ty) }\n\
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
    assert!(matches!(&t.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. })));
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
    assert!(matches!(&t.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. })));
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
fn macros_holding_expressions_are_walked() {
    let src = r#"
async fn f(con: &mut C, q: &str) {
    let (a, b) = tokio::try_join!(con.hget(q, "state"), con.hget(q, "data"))?;
    let v = vec![format!("emq:{{{}}}:wait", q), "emq:x:y".to_string()];
    assert_eq!(key, "emq:{q}:wait");
}
"#;
    let f = facts(src);
    let got = command_lines(&f);
    assert_eq!(
        got,
        vec!["HGET [\"<q>\", \"state\"]", "HGET [\"<q>\", \"data\"]"]
    );
    // The expected key of an assertion is not a key on the wire.
    assert_eq!(tpls(&f), vec!["emq:{<q>}:wait", "emq:x:y"]);
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
    // Speed is the benchmarks' to measure (benches/hostile.rs); here the
    // walk must end, with no template out of a call chain.
    assert!(facts(&calls).templates.is_empty());
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

/// Nested macros parse their arguments once per level; past the file's
/// reparse budget (its length plus 256 KB) a macro is not checked, and the
/// facts say which bytes (WL001), instead of taking seconds and gigabytes.
#[test]
fn nested_macros_past_the_reparse_budget_are_reported_unchecked() {
    let n = 10_000;
    let src = format!(
        "fn k(q: &str) -> String {{ {}\"emq:{{q}}:pending\"{} }}\n",
        "format!(\"{}\", ".repeat(n),
        ")".repeat(n)
    );
    let f = facts(&src);
    let span = f.unchecked.expect("a region left unchecked");
    // The first level parsed again is the outermost macro's arguments;
    // the budget runs out a few levels in.
    let level = "format!(\"{}\", ".len();
    let tt_start = |i: usize| "fn k(q: &str) -> String { ".len() + i * level + "format!".len();
    assert!(span.start as usize > tt_start(1), "{span:?}");
    assert!((span.start as usize) < tt_start(8), "{span:?}");
    assert!(span.end as usize <= src.len());
    // An ordinary file stays within it.
    let ok =
        facts("fn k(q: &str) -> String { format!(\"emq:{{{}}}:{}\", q, format!(\"x{}\", 1)) }\n");
    assert_eq!(ok.unchecked, None);
}

#[test]
fn strings_grown_by_push_str_add_assign_and_write_are_one_key() {
    let src = r#"
use std::fmt::Write;
fn a(q: &str) -> String {
    let mut k = String::from("emq:{");
    k.push_str(q);
    k.push_str("}:pending");
    k
}
fn b(q: &str) -> String {
    let mut k = String::new();
    k += "emq:{";
    k += q;
    k += "}:pending";
    k
}
fn c(q: &str) -> String {
    let mut k = String::with_capacity(8);
    write!(k, "emq:{{{}}}", q).unwrap();
    k.push_str(":pending");
    k
}
fn d(q: &str, more: bool) -> String {
    let mut k = String::from("emq:{");
    k.push_str(q);
    if more {
        k.push_str("}:x");
    }
    k
}
"#;
    let f = facts(src);
    // No piece is a key of its own; a part appended under a branch is a hole.
    assert_eq!(
        tpls(&f),
        [
            "emq:{<q>}:pending",
            "emq:{<q>}:pending",
            "emq:{<q>}:pending",
            "emq:{<q><k>"
        ]
    );
    for func in &f.functions[..3] {
        assert_eq!(
            func.returns.describe(),
            "emq:{<q>}:pending",
            "{}",
            func.name
        );
    }
}

#[test]
fn struct_literals_define_their_fields_and_cells_their_initialisers() {
    let src = r#"
mod scripts {
    pub struct Scripts { enqueue: Script }
    impl Scripts {
        pub fn new() -> Self { Self { enqueue: Script::new(include_str!("enqueue.lua")) } }
        pub fn enqueue(&self) -> &Script { &self.enqueue }
    }
    static CELL: OnceLock<Script> = OnceLock::new();
    pub fn cell() -> &'static Script { CELL.get_or_init(|| Script::new(include_str!("cell.lua"))) }
}
"#;
    let f = facts(src);
    let field: Vec<(&str, &str, String)> = f
        .consts
        .iter()
        .filter(|c| c.name.starts_with('.'))
        .map(|c| (c.module.as_str(), c.name.as_str(), c.value.describe()))
        .collect();
    assert_eq!(field, [("scripts::Scripts", ".enqueue", "script".into())]);
    let returns: Vec<(&str, String)> = f
        .functions
        .iter()
        .map(|x| (x.name.as_str(), x.returns.describe()))
        .collect();
    assert_eq!(
        returns,
        [
            ("new", "new".into()),
            ("enqueue", "enqueue".into()),
            ("cell", "script".into())
        ]
    );
}

/// A receiver written with its type (`self: &Self`, `self: Arc<Self>`) is
/// the receiver, as `&self` is: no parameter, and `self.f` its field.
#[test]
fn a_typed_self_is_the_receiver() {
    let src = r#"
impl Proxy {
    async fn read(self: &Proxy, con: &mut C, id: &str) -> R {
        self.read_state.key(id).invoke_async(con).await
    }
    fn owned(self: Arc<Self>) {}
}
"#;
    let f = facts(src);
    assert_eq!(f.functions[0].params, vec!["con", "id"]);
    assert!(f.functions[1].params.is_empty());
    assert!(matches!(
        &f.script_calls[0].script,
        Value::Param { index, name, .. } if *index == crate::facts::RECEIVER && name == "read_state"
    ));
}

/// `.concat()` and `.join(sep)` join the items of any list the code shows
/// whole, not only an array written in place: a `Vec` its pushes filled, a
/// `vec![..]` in a local. A list with items it does not show joins to
/// nothing known.
#[test]
fn joins_of_lists_a_value_holds() {
    let src = r#"
fn pending(q: &str) -> String {
    { let mut v = Vec::new(); v.push("emq:{"); v.push(q); v.push("}:pending"); v }.concat()
}
fn job(q: &str, id: &str) -> String {
    let parts = vec!["emq", q, "job", id];
    parts.join(":")
}
fn other(q: &str, more: Vec<&str>) -> String {
    let mut parts = vec!["emq", q];
    parts.extend(more);
    parts.join(":")
}
"#;
    let f = facts(src);
    let returns: Vec<String> = f.functions.iter().map(|d| d.returns.describe()).collect();
    assert_eq!(returns[0], "emq:{<q>}:pending");
    assert_eq!(returns[1], "emq:<q>:job:<id>");
    assert!(!matches!(f.functions[2].returns, Value::Str(_)));
}
