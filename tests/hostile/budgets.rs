//! A parse that runs out of time says which bytes it did not check; inputs that were quadratic keep their findings.

use super::*;

// ------------------------------------------- 3. a parse that runs out of time

/// 120 KB of junk after a real WL201 in a `.lua` file: the WL201 is found,
/// and a WL001 names the exact bytes not checked (a warning: nothing in them
/// could be protocol code); when they could be, the WL001 is an error.
#[test]
fn a_parse_over_budget_names_the_bytes_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let head = "redis.call('HSET', 'emq:{q}:job:1', 'state', 'x', 'payloadz', 'y')\n";
    let junk = "a + ".repeat(30_000);
    write(d, "junk.lua", format!("{head}{junk}\n").as_bytes());
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "wirelint.toml", b"ignore = [\"WL310\"]\n");

    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let found: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {}..{} {}",
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["span"]["start"]["offset"],
                d["span"]["end"]["offset"],
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    let (s, e) = (head.len(), head.len() + junk.len() + 1);
    assert_eq!(
        found,
        vec![
            "WL201 error 51..59 field `payloadz` is not a field of the `job` record".to_string(),
            format!("WL001 warning {s}..{e} bytes {s}..{e} were not checked: the parser or the extractor gave up on them (a time, read or value budget ran out, or its blocks nest too deep)"),
        ]
    );
    // Junk that could hold protocol code fails the run by itself.
    write(
        d,
        "junk.lua",
        format!("local ok = 1\n{}\n", "a + KEYS[1] + ".repeat(9_000)).as_bytes(),
    );
    let (code, findings, _) = check_json(d, &["."]);
    assert_eq!((code, findings), (1, strs(&["WL001 junk.lua:2"])));
    let (_, stdout, _) = run(&["check", ".", "--format", "json"], d);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["severity"], "error");
    assert!(
        v["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("and they could hold protocol code"),
        "{stdout}"
    );
}

// ------------------------------------------- 4. quadratic time or memory

/// The inputs that were quadratic keep their exact findings (their time and
/// memory are measured in `benches/hostile.rs`): every file sharing one bad
/// key has its WL103, every unknown field of one HSET its WL201, and a key
/// after a long pipe, after deeply nested `format!`, built of thousands of
/// concatenated parts, passed at the end of thousands of chained `.key()`
/// calls and at the end of a chain of builders whose names are prefixes of
/// one another is found.
#[test]
fn three_hundred_files_each_keep_their_finding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..300 {
        write(d, &format!("many/f{i:03}.lua"), KEY_LUA);
    }
    let (code, findings, _) = check_json(&d.join("many"), &["."]);
    let want: Vec<String> = (0..300).map(|i| format!("WL103 f{i:03}.lua:1")).collect();
    assert_eq!((code, findings), (1, want));
}

#[test]
fn three_hundred_fields_of_one_hset_each_keep_their_finding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fields: Vec<String> = (0..300).map(|i| format!("'f{i}', 1")).collect();
    let hset = format!(
        "redis.call('HSET', 'emq:{{q}}:job:1', {})\n",
        fields.join(", ")
    );
    write(d, "hset/s.lua", hset.as_bytes());
    // The embedded contract's id gate (WL310) is not what this test is about.
    write(d, "hset/wirelint.toml", b"ignore = [\"WL310\"]\n");
    let (code, findings, _) = check_json(&d.join("hset"), &["."]);
    assert_eq!(
        (code, findings),
        (1, vec!["WL201 s.lua:1".to_string(); 300])
    );
}

#[test]
fn a_pipe_of_five_thousand_steps_keeps_its_finding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mix = b"defmodule Q.MixProject do\nend\n";
    write(d, "pipe/mix.exs", mix);
    let pipe = format!(
        "defmodule P do\n  def f(x), do: x{}\n  def k(q), do: Redix.command(:r, [\"GET\", \"emq:{{#{{q}}}}:jobz\"])\nend\n",
        " |> g()".repeat(5_000)
    );
    write(d, "pipe/lib/p.ex", pipe.as_bytes());
    let (code, findings, _) = check_json(&d.join("pipe"), &["."]);
    assert_eq!((code, findings), (1, strs(&["WL103 lib/p.ex:3"])));
}

#[test]
fn formats_nested_deep_keep_the_key_after_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Eight `format!` inside one another still resolve; 1,001 do not (the
    // value depth bound), and the key after them is found.
    write(d, "fmt/Cargo.toml", b"[package]\nname = \"c\"\n");
    let nest = |n: usize| {
        format!(
            "{}format!(\"emq:{{{{{{}}}}}}:jobz\", q){}",
            "format!(\"{}\", ".repeat(n),
            ")".repeat(n)
        )
    };
    let lib = format!(
        "fn a(q: &str) -> String {{ {} }}\nfn c(q: &str) -> String {{ {} }}\n\
         fn r(c: &mut redis::Connection, q: &str) {{ redis::cmd(\"GET\").arg(a(q)); \
         redis::cmd(\"GET\").arg(c(q)); redis::cmd(\"GET\").arg(\"emq:{{q}}:jobz\"); }}\n",
        nest(7),
        nest(1_000)
    );
    write(d, "fmt/src/lib.rs", lib.as_bytes());
    let (code, findings, _) = check_json(&d.join("fmt"), &["."]);
    assert_eq!(
        (code, findings),
        (1, strs(&["WL103 src/lib.rs:1", "WL103 src/lib.rs:3"]))
    );
}

#[test]
fn the_shapes_of_tests_shapes_keep_their_findings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Shapes of `tests/shapes` (timed in `benches/hostile.rs`): a key of
    // 2,000 concatenated parts; a script under 2,000 chained `.key(..)`;
    // commands nested 300 deep in Elixir lists, in Elixir `if`s, and
    // pushes in Rust `if`s; 300 scripts each run by its own function; 300
    // suppressions; 300 keys read that nothing writes beside 600 written;
    // 100 modules that each define `k`; Elixir blocks nested too deep.
    let lines = |path: &str, lines: Vec<usize>| -> Vec<String> {
        lines.into_iter().map(|l| format!("{path}:{l}")).collect()
    };
    let wl103 = |path: &str, ls: Vec<usize>| -> Vec<String> { lines(&format!("WL103 {path}"), ls) };
    let cases: Vec<(&str, shapes::Files, i32, Vec<String>)> = vec![
        (
            "concat",
            shapes::long_concatenation(2_000),
            1,
            wl103("s.lua", vec![1]),
        ),
        (
            "keys",
            shapes::long_key_chain(2_000),
            1,
            wl103("src/lib.rs", vec![3]),
        ),
        (
            "nest",
            shapes::nested_lists(300),
            1,
            wl103("lib/n.ex", vec![2; 300]),
        ),
        (
            "ifs",
            shapes::nested_ifs(300),
            1,
            wl103("lib/i.ex", (3..303).collect()),
        ),
        (
            "push",
            shapes::nested_pushes(300),
            1,
            wl103("src/lib.rs", vec![1; 300]),
        ),
        (
            "scripts",
            shapes::scripts_each_run(300),
            1,
            wl103("lib/s.ex", (0..300).map(|i| 3 + 2 * i).collect()),
        ),
        ("sup", shapes::suppressions(300), 0, Vec::new()),
        (
            "orphan",
            shapes::orphan_reads(300),
            0,
            lines("WL104 lib/r.ex", (0..300).map(|i| 3 + 2 * i).collect()),
        ),
        (
            "same",
            shapes::same_named_builders(100),
            1,
            wl103("lib/a.ex", (0..100).map(|i| 2 + 3 * i).collect()),
        ),
        // 1,200 nested `if`s (16,500 nested blocks took 4.6 s, inside
        // tree-sitter): the file is parsed up to the line where the blocks
        // nest 1,001 deep, the rest is named as not checked.
        (
            "deep",
            shapes::nested_ifs(1_200),
            1,
            [
                vec!["WL001 lib/i.ex:1".to_string()],
                wl103("lib/i.ex", (3..1001).collect()),
                vec!["WL001 lib/i.ex:1001".to_string()],
            ]
            .concat(),
        ),
    ];
    for (name, files, want_code, want) in cases {
        for (rel, text) in &files {
            write(&d.join(name), rel, text.as_bytes());
        }
        let (code, findings, _) = check_json(&d.join(name), &["."]);
        assert_eq!((code, findings), (want_code, want), "{name}");
    }
}

#[test]
fn a_chain_of_three_hundred_builders_resolves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mix = b"defmodule Q.MixProject do\nend\n";
    write(d, "chain/mix.exs", mix);
    let name = |i: usize| format!("k{}", "_k".repeat(i));
    let mut body = String::from("defmodule S do\n  def k(q), do: \"emq:{#{q}}:jobz\"\n");
    for i in 1..300 {
        body.push_str(&format!(
            "  def {}(q), do: \"#{{{}(q)}}\"\n",
            name(i),
            name(i - 1)
        ));
    }
    body.push_str(&format!(
        "  def run(c, q), do: Redix.command(c, [\"GET\", {}(q)])\nend\n",
        name(299)
    ));
    write(d, "chain/lib/s.ex", body.as_bytes());
    let (code, findings, _) = check_json(&d.join("chain"), &["."]);
    assert_eq!((code, findings), (1, strs(&["WL103 lib/s.ex:2"])));
}

/// Twelve speakers, each writing a field the contract lacks: each finding
/// names ten of the eleven others and counts the rest (thousands of
/// speakers made every finding name every other: 3,000 crates, 1 GB),
/// while the counts stay whole.
#[test]
fn a_finding_names_ten_other_speakers_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..12 {
        write(
            d,
            &format!("c{i:02}/Cargo.toml"),
            format!("[package]\nname = \"c{i:02}\"\n").as_bytes(),
        );
        write(
            d,
            &format!("c{i:02}/src/lib.rs"),
            format!("pub fn f(c: &mut redis::Connection) {{ let _: () = redis::cmd(\"HSET\").arg(\"emq:{{q}}:job:1\").arg(\"state\").arg(1).arg(\"f{i}\").arg(2).query(c).unwrap(); }}\n").as_bytes(),
        );
    }
    let (code, stdout, _) = run(&["check", ".", "--format", "json"], d);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let first = &v["diagnostics"][0];
    assert_eq!(
        (first["code"].as_str(), first["path"].as_str()),
        (Some("WL201"), Some("c00/src/lib.rs"))
    );
    assert_eq!(
        first["help"].as_str().unwrap(),
        "the other 11 speakers (`c01`, `c02`, `c03`, `c04`, `c05`, `c06`, `c07`, `c08`, `c09`, `c10`, … and 1 more) read the contract's fields and find nothing in rows that `c00` writes. 11 of 12 speakers still agree on the job's fields; `c00` alone diverges"
    );
    assert_eq!(first["impact"]["unaffected"].as_array().unwrap().len(), 11);
}
