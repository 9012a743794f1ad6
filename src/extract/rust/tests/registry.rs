//! Values the file's own definitions give where a command needs its name:
//! a field its constructor sets, a method of the type's `impl`, a map
//! filled in a constructor and looked up by a literal, a `match` arm; and
//! the facts they leave for the link (a map field, a function's clauses).

use crate::facts::Value;

use super::{at, facts};

fn names(src: &str) -> Vec<(String, u32)> {
    facts(src)
        .commands
        .iter()
        .map(|c| (c.name.clone(), c.name_span.start))
        .collect()
}

#[test]
fn a_field_its_constructor_sets_names_a_command() {
    // The type is defined after its use: the name is read once the file
    // is walked.
    let src = r#"
fn state(con: &mut C, key: &str) -> R {
    redis::cmd(Values::new().cmd).arg(key).arg(Other::new().cmd).query(con)
}
struct Values { cmd: &'static str }
impl Values {
    fn new() -> Self { Values { cmd: "hget" } }
    fn send(&self, con: &mut C) -> R { redis::cmd(self.cmd).query(con) }
}
struct Other { cmd: &'static str }
impl Other {
    fn new() -> Self { Self { cmd: "state" } }
}
"#;
    assert_eq!(
        names(src),
        [
            ("HGET".to_string(), at(src, "hget\"")),
            ("HGET".to_string(), at(src, "hget\""))
        ]
    );
    // An argument is left to the link: the field of what `Other::new()`
    // makes.
    let f = facts(src);
    assert!(matches!(
        &f.commands[0].args[1],
        Value::Op { op: crate::facts::Op::Field(f), args, .. }
            if &**f == "cmd"
                && matches!(&args[0], Value::Call { path, .. } if path == &["Other", "new"])
    ));
}

#[test]
fn a_method_of_the_impl_names_a_command() {
    let src = r#"
fn state(con: &mut C, key: &str) -> R {
    redis::pipe().cmd(Values::new().get_cmd()).arg(key).query(con)
}
struct Values { cmd: &'static str }
impl Values {
    fn new() -> Self { Values { cmd: "HGET" } }
    fn get_cmd(&self) -> &'static str { self.cmd }
}
"#;
    assert_eq!(names(src), [("HGET".to_string(), at(src, "HGET\""))]);
}

#[test]
fn a_map_filled_in_a_constructor_names_a_command() {
    let src = r#"
fn state(con: &mut C, key: &str, name: &str) -> R {
    redis::cmd(Registry::new().get("read")).arg(key).query(con)?;
    redis::cmd(Registry::new().get("gone")).arg(key).query(con)?;
    redis::cmd(Registry::new().get(name)).arg(key).query(con)?;
    redis::cmd(Table::new().all["write"]).arg(key).query(con)?;
    redis::cmd(Pairs::new().all.get("read").unwrap()).arg(key).query(con)
}
struct Registry { all: HashMap<&'static str, &'static str> }
impl Registry {
    fn new() -> Self {
        let mut all = std::collections::HashMap::new();
        all.insert("read", "HGET");
        all.insert("write", "HSET");
        Registry { all }
    }
    fn get(&self, name: &str) -> &'static str { self.all[name] }
}
struct Table { all: HashMap<&'static str, &'static str> }
impl Table {
    fn new() -> Self { Table { all: HashMap::from([("write", "HSETNX")]) } }
}
struct Pairs { all: BTreeMap<&'static str, &'static str> }
impl Pairs {
    fn new() -> Self {
        let all = [("read", "HMGET")].into_iter().collect::<BTreeMap<_, _>>();
        Pairs { all }
    }
}
"#;
    // A key the map does not hold, or one the code does not show, names
    // nothing: no command is guessed.
    assert_eq!(
        names(src),
        [
            ("HGET".to_string(), at(src, "HGET\"")),
            ("HSETNX".to_string(), at(src, "HSETNX\"")),
            ("HMGET".to_string(), at(src, "HMGET\""))
        ]
    );
    let f = facts(src);
    let all: Vec<_> = f.consts.iter().filter(|c| c.name == ".all").collect();
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].module, "Registry");
    let Value::Map { pairs, .. } = &all[0].value else {
        panic!("{:?}", all[0].value)
    };
    let pairs: Vec<_> = pairs
        .iter()
        .map(|(k, v)| (k.as_str().unwrap(), v.as_str().unwrap()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("read".into(), "HGET".into()),
            ("write".into(), "HSET".into())
        ]
    );
    // `self.all[name]`: a lookup in the receiver's field by the parameter.
    let get = f.functions.iter().find(|d| d.name == "get").unwrap();
    assert!(matches!(
        &get.returns,
        Value::Op { op: crate::facts::Op::Lookup, args, .. }
            if matches!(&args[0], Value::Param { index: crate::facts::RECEIVER, name, .. } if name == "all")
            && matches!(&args[1], Value::Param { index: 0, .. })
    ));
}

#[test]
fn a_map_filled_in_a_loop_is_not_known() {
    let src = r#"
fn state(con: &mut C, key: &str) -> R {
    redis::cmd(Registry::new().get("read")).arg(key).query(con)
}
struct Registry { all: HashMap<&'static str, &'static str> }
impl Registry {
    fn new() -> Self {
        let mut all = HashMap::new();
        all.insert("read", "HGET");
        for (k, v) in more() { all.insert(k, v); }
        Registry { all }
    }
    fn get(&self, name: &str) -> &'static str { self.all[name] }
}
"#;
    assert_eq!(names(src), []);
}

#[test]
fn a_match_on_a_parameter_is_a_function_of_ordered_clauses() {
    let src = r#"
fn state(con: &mut C, key: &str) -> R {
    redis::cmd(lookup("read")).arg(key).query(con)?;
    redis::cmd(lookup("other")).arg(key).query(con)?;
    redis::cmd(by_number(2)).arg(key).query(con)
}
fn lookup(name: &str) -> &'static str {
    match name {
        "read" | "get" => "HGET",
        "write" => "HSET",
        _ => "GET",
    }
}
fn by_number(n: u32) -> &'static str {
    match n { 1 => "HGET", 2 => "HDEL", _ => "GET" }
}
fn guarded(name: &str) -> &'static str {
    match name { "a" if ready() => "HGET", _ => "GET" }
}
"#;
    assert_eq!(
        names(src),
        [
            ("HGET".to_string(), at(src, "HGET\"")),
            ("GET".to_string(), at(src, "GET\",\n    }")),
            ("HDEL".to_string(), at(src, "HDEL\""))
        ]
    );
    let f = facts(src);
    let clauses: Vec<(usize, Vec<Option<String>>, String)> = f
        .functions
        .iter()
        .filter(|d| d.name == "lookup")
        .map(|d| {
            assert!(d.ordered);
            (
                d.clause,
                d.patterns
                    .iter()
                    .map(|p| p.as_ref().and_then(Value::as_str))
                    .collect(),
                d.returns.as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        clauses,
        [
            (0, vec![Some("read".to_string())], "HGET".to_string()),
            (1, vec![Some("get".to_string())], "HGET".to_string()),
            (2, vec![Some("write".to_string())], "HSET".to_string()),
            (3, vec![None], "GET".to_string()),
        ]
    );
    // A guard decides at run time: the function stays one value.
    let guarded: Vec<_> = f.functions.iter().filter(|d| d.name == "guarded").collect();
    assert_eq!(guarded.len(), 1);
    assert!(!guarded[0].ordered);
}
