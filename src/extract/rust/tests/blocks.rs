//! Block expressions as values: statements in order over the block's own
//! locals, then the tail; what the block cannot follow is a hole, an open
//! list, or unknown.

use crate::facts::{FileFacts, Value};

use super::facts;

/// What each function returns, by name.
fn returns(f: &FileFacts) -> Vec<(String, String)> {
    f.functions
        .iter()
        .map(|d| {
            let v = match &d.returns {
                Value::Unknown { .. } => "?".to_string(),
                v => v.describe(),
            };
            (d.name.clone(), v)
        })
        .collect()
}

/// Each script call's keys, and `..` when more may follow.
fn call_keys(f: &FileFacts) -> Vec<String> {
    f.script_calls
        .iter()
        .map(|c| {
            let mut keys: Vec<String> = c.keys.iter().map(Value::describe).collect();
            if c.open_keys {
                keys.push("..".into());
            }
            keys.join(" ")
        })
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_block_is_its_tail_after_its_statements() {
    let src = r#"
fn job(q: &str, id: &str) -> String {
    {
        let mut b = String::new();
        b.push_str("emq:{");
        b += q;
        write!(b, "}}:job:{}", id).unwrap();
        b
    }
}
fn line(q: &str) -> String {
    let v = {
        use std::fmt::Write as _;
        let mut b = String::with_capacity(8);
        let _ = write!(&mut b, "a:{}", q);
        writeln!(b, "!")?;
        b.push('c');
        b
    };
    v
}
fn nested(q: &str) -> String {
    let inner = { let p = "emq"; { let mut b = String::from(p); b.push_str(":"); b } };
    format!("{}{{{}}}", inner, q)
}
"#;
    let f = facts(src);
    assert_eq!(
        returns(&f),
        pairs(&[
            ("job", "emq:{<q>}:job:<id>"),
            ("line", "a:<q>!\n<c>"),
            ("nested", "emq:{<q>}"),
        ])
    );
}

#[test]
fn what_a_block_cannot_follow_is_a_hole_or_unknown() {
    let src = r#"
fn looped(parts: &[&str]) -> String {
    {
        let mut b = String::from("emq:");
        for p in parts { b.push_str(p); }
        b.push_str(":x");
        b
    }
}
fn branch(c: bool) -> String {
    { let mut b = String::from("emq:"); if c { b.push_str("y"); } b }
}
fn cleared() -> String {
    { let mut b = String::from("emq:"); b.clear(); b }
}
fn handed(q: &str) -> String {
    { let mut b = String::from("emq:"); fill(&mut b); b }
}
fn outer(q: &str) -> String {
    let mut k = String::from("emq:");
    let v = { k.push_str(q); k };
    v
}
fn no_tail() {
    { let mut b = String::new(); b.push_str("emq:"); }
}
"#;
    let f = facts(src);
    assert_eq!(
        returns(&f),
        pairs(&[
            ("looped", "emq:<b>:x"),
            ("branch", "emq:<b>"),
            ("cleared", "?"),
            ("handed", "?"),
            ("outer", "?"),
            ("no_tail", "?"),
        ])
    );
}

#[test]
fn keys_pushed_into_a_vec_are_the_list_a_call_receives() {
    let src = r#"
const S: &str = "return 1";
fn block(con: &mut C, q: &str) -> R {
    let keys = {
        let mut ks = Vec::new();
        ks.push(format!("emq:{{{}}}:a", q));
        ks.extend(["emq:b", "emq:c"]);
        ks
    };
    Script::new(S).key(&keys).invoke(con)
}
fn straight(con: &mut C, q: &str) -> R {
    let mut ks = vec![];
    ks.push("emq:a");
    ks.extend(vec!["emq:b"]);
    Script::new(S).key(&ks).invoke(con)
}
fn looped(con: &mut C, qs: &[&str]) -> R {
    let keys = { let mut ks = Vec::new(); ks.push("emq:a"); for q in qs { ks.push(q); } ks };
    Script::new(S).key(&keys).invoke(con)
}
fn branch(con: &mut C, c: bool) -> R {
    let mut ks = Vec::new();
    ks.push("emq:a");
    if c { ks.push("emq:b"); }
    Script::new(S).key(&ks).invoke(con)
}
fn fred(client: &Client, q: &str) -> R {
    let keys = { let mut ks = vec!["emq:a"]; ks.push(q); ks };
    client.evalsha(SHA, keys, ()).await
}
fn fred_open(client: &Client, c: bool) -> R {
    let keys = { let mut ks = vec!["emq:a"]; if c { ks.push("emq:b"); } ks };
    client.evalsha(SHA, keys, ()).await
}
"#;
    let f = facts(src);
    assert_eq!(
        call_keys(&f),
        vec![
            "emq:{<q>}:a emq:b emq:c",
            "emq:a emq:b",
            "..",
            "..",
            "emq:a q",
            "..",
        ]
    );
}
