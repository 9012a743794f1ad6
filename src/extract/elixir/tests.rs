use super::*;
use crate::facts::Lang;

pub(super) fn facts(src: &str) -> FileFacts {
    let mut p = Parsers::new().unwrap();
    let tree = p.parse(Lang::Elixir, src.as_bytes()).unwrap();
    extract(tree.root_node(), src.as_bytes(), 0, &mut p)
}

pub(super) fn at(src: &str, needle: &str) -> u32 {
    src.find(needle).expect("needle") as u32
}

fn templates(f: &FileFacts) -> Vec<String> {
    f.templates.iter().map(|t| t.to_string()).collect()
}

fn str_of(v: &Value) -> &Template {
    match v {
        Value::Str(t) => t,
        other => panic!("a string expected, got {other:?}"),
    }
}

#[test]
fn queue_key_from_the_seed() {
    let src = "defmodule EchoMQ.Keyspace do\n  \
               def queue_key(queue, type) when is_binary(queue) and is_binary(type),\n    \
               do: IO.iodata_to_binary([\"emq:{\", queue, \"}:\", type])\nend\n";
    let f = facts(src);
    assert_eq!(f.functions.len(), 1);
    let fun = &f.functions[0];
    assert_eq!(fun.module, "EchoMQ.Keyspace");
    assert_eq!(fun.name, "queue_key");
    assert_eq!(fun.params, vec!["queue", "type"]);
    assert_eq!(fun.clause, 0);
    assert_eq!(fun.name_span.start, at(src, "queue_key("));
    let t = str_of(&fun.returns);
    assert_eq!(t.to_string(), "emq:{<queue>}:<type>");
    assert!(matches!(&t.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. })));
    assert!(matches!(&t.segs[3], Seg::Value(v) if matches!(**v, Value::Param { index: 1, .. })));
    let Seg::Lit { text, span } = &t.segs[0] else {
        panic!()
    };
    assert_eq!(text, "emq:{");
    assert_eq!(span.start, at(src, "emq:{"));
    assert_eq!(span.len(), 5);
    assert_eq!(templates(&f), vec!["emq:{<queue>}:<type>"]);
}

#[test]
fn interpolation_and_concatenation_are_flattened() {
    let src = r##"defmodule A do
  @prefix "emq:"
  def a(queue, type), do: "emq:{#{queue}}:#{type}"
  def b(queue, type), do: "emq:{" <> queue <> "}:" <> type
  def c(ctx), do: "#{@prefix}{#{base(ctx)}}:wait:#{Keys.wait(ctx)}"
  defp d(x), do: Enum.join(["emq", x, "pending"], ":")
end
"##;
    let f = facts(src);
    let got: Vec<(String, String)> = f
        .functions
        .iter()
        .map(|d| (d.name.clone(), d.returns.describe()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("a".into(), "emq:{<queue>}:<type>".into()),
            ("b".into(), "emq:{<queue>}:<type>".into()),
            ("c".into(), "<@prefix>{<base>}:wait:<wait>".into()),
            ("d".into(), "emq:<x>:pending".into()),
        ]
    );
    let c = str_of(&f.functions[2].returns);
    assert!(
        matches!(&c.segs[0], Seg::Value(v) if matches!(&**v, Value::Const { path, .. } if path == &vec!["@prefix".to_string()]))
    );
    assert!(
        matches!(&c.segs[4], Seg::Value(v) if matches!(&**v, Value::Call { path, args, .. } if path == &vec!["Keys".to_string(), "wait".to_string()] && matches!(args[0], Value::Param { index: 0, .. })))
    );
    // The separator keeps the span of its own string.
    let d = str_of(&f.functions[3].returns);
    assert_eq!(d.segs[1].span().start, at(src, ":\")"));
    // Only maximal expressions are templates.
    assert_eq!(
        templates(&f),
        vec![
            "emq:",
            "emq:{<queue>}:<type>",
            "emq:{<queue>}:<type>",
            "<@prefix>{<base>}:wait:<wait>",
            "emq:<x>:pending"
        ]
    );
    assert_eq!(f.consts.len(), 1);
    assert_eq!(f.consts[0].name, "@prefix");
    assert_eq!(f.consts[0].value.as_str().as_deref(), Some("emq:"));
    assert_eq!(f.consts[0].name_span.start, at(src, "prefix \""));
}

#[test]
fn escapes_are_decoded_with_content_spans() {
    let src = "x = \"a\\\"b\\n\\#{c}:d\"\ny = ~S\"raw\\n:#{x}\"\n";
    let f = facts(src);
    let texts: Vec<String> = f
        .templates
        .iter()
        .map(|t| t.as_literal().unwrap_or_default())
        .collect();
    assert_eq!(texts, vec!["raw\\n:#{x}".to_string()]);
    // The first has a newline, so it is not a key; read it directly.
    let mut p = Parsers::new().unwrap();
    let tree = p.parse(Lang::Elixir, src.as_bytes()).unwrap();
    let mut cx_facts = None;
    crate::parse::walk(tree.root_node(), |n| {
        if n.kind() == "string" && cx_facts.is_none() {
            cx_facts = Some((n.start_byte(), n.end_byte()));
        }
        true
    });
    let (s, e) = cx_facts.unwrap();
    let piece = &src[s..e];
    let sub = facts(&format!("{piece}\n"));
    assert!(sub.templates.is_empty());
    assert_eq!(decode_escape("\\\""), "\"");
    assert_eq!(decode_escape("\\#"), "#");
    assert_eq!(decode_escape("\\x41"), "A");
    assert_eq!(decode_escape("\\u{1F600}"), "\u{1F600}");
}

#[test]
fn literal_string_has_one_decoded_lit() {
    let src = "def k, do: \"emq:\\\"q\\\":wait\"\n";
    let f = facts(src);
    let t = str_of(&f.functions[0].returns);
    assert_eq!(t.segs.len(), 1);
    let Seg::Lit { text, span } = &t.segs[0] else {
        panic!()
    };
    assert_eq!(text, "emq:\"q\":wait");
    assert_eq!(span.start, at(src, "emq:"));
    assert_eq!(span.end as usize, src.rfind('"').unwrap());
}

#[test]
fn bindings_are_substituted_in_commands() {
    let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace
  def enqueue(conn, q, id, p) do
    key = Keyspace.queue_key(q, "job:" <> id)
    s = "pending"
    Redix.command(conn, ["HSET", key, "state", s, "attempts", "0", "payload", p])
  end
end
"##;
    let f = facts(src);
    assert_eq!(f.commands.len(), 1);
    let c = &f.commands[0];
    assert_eq!(c.name, "HSET");
    assert_eq!(c.name_span.start, at(src, "HSET"));
    assert!(!c.open_tail);
    let Value::Call { path, args, .. } = &c.args[0] else {
        panic!("{:?}", c.args[0])
    };
    // The alias is expanded.
    assert_eq!(path, &["EchoMQ", "Keyspace", "queue_key"]);
    assert!(matches!(args[0], Value::Param { index: 1, .. }));
    assert_eq!(args[1].describe(), "job:<id>");
    let fields: Vec<Option<String>> = c
        .args
        .iter()
        .skip(1)
        .step_by(2)
        .map(|a| a.as_str())
        .collect();
    assert_eq!(
        fields,
        vec![
            Some("state".into()),
            Some("attempts".into()),
            Some("payload".into())
        ]
    );
    assert_eq!(c.args[1].span().start, at(src, "\"state\""));
    assert_eq!(str_of(&c.args[1]).segs[0].span().start, at(src, "state\""));
    assert_eq!(c.args[2].as_str().as_deref(), Some("pending"));
    assert!(matches!(c.args[6], Value::Param { index: 3, .. }));
    // enqueue returns the command call: a Call, so a candidate.
    assert_eq!(f.functions.len(), 1);
}

#[test]
fn pipelines_pipes_tails_and_maps() {
    let src = r##"defmodule W do
  @hset "HSET"
  def run(conn, sha, rest, k, s) do
    Redix.pipeline(conn, [[@hset, k, "state", :active], ["ZADD", k, 0, "x"] ++ rest])
    conn |> Redix.command(["EVALSHA", sha, 2, k | rest])
    Redix.command(conn, ["hmget", k] ++ ["state", "payload"])
    Redix.command(conn, ["HSET", k, %{"state" => s, "payload" => "p"}])
  end
end
"##;
    let f = facts(src);
    let names: Vec<&str> = f.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["HSET", "ZADD", "EVALSHA", "HMGET", "HSET"]);
    let hset = &f.commands[0];
    assert_eq!(hset.name_span.start, at(src, "@hset, k"));
    assert!(matches!(&hset.args[2], Value::Atom { name, .. } if name == "active"));
    assert!(f.commands[1].open_tail);
    assert_eq!(f.commands[1].args.len(), 3);
    let ev = &f.commands[2];
    assert!(ev.open_tail);
    assert!(matches!(ev.args[0], Value::Param { index: 1, .. }));
    assert!(matches!(ev.args[1], Value::Int { value: 2, .. }));
    assert!(matches!(ev.args[2], Value::Param { index: 3, .. }));
    let hmget = &f.commands[3];
    assert!(!hmget.open_tail);
    let fields: Vec<String> = hmget.args.iter().filter_map(|a| a.as_str()).collect();
    assert_eq!(fields, vec!["state", "payload"]);
    let Value::Map { pairs, .. } = &f.commands[4].args[1] else {
        panic!("map expected")
    };
    let keys: Vec<String> = pairs.iter().filter_map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, vec!["state", "payload"]);
    assert!(matches!(pairs[0].1, Value::Param { index: 4, .. }));
    assert_eq!(f.consts.len(), 1);
}

#[test]
fn heredoc_script_has_lua_facts_in_host_bytes() {
    let src = r##"defmodule EchoMQ.Jobs do
  @enqueue """
  redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """
  @claim File.read!("priv/lua/claim.lua")
  @moduledoc "Jobs: redis.call docs"
end
"##;
    let f = facts(src);
    assert!(f.consts.is_empty());
    assert_eq!(f.scripts.len(), 2);
    let s = &f.scripts[0];
    assert_eq!(s.name.as_deref(), Some("enqueue"));
    assert_eq!(s.name_span.start, at(src, "enqueue \"\"\""));
    let ScriptSource::Inline(lua) = &s.source else {
        panic!("inline expected")
    };
    assert_eq!(lua.commands.len(), 2);
    let hset = &lua.commands[0];
    assert_eq!(hset.name, "HSET");
    let payload = &hset.args[5];
    assert_eq!(payload.as_str().as_deref(), Some("payload"));
    let sp = payload.span();
    assert_eq!(sp.start, at(src, "'payload'"));
    assert_eq!(&src[sp.start as usize..sp.end as usize], "'payload'");
    let c = &f.scripts[1];
    assert_eq!(c.name.as_deref(), Some("claim"));
    let ScriptSource::File {
        path,
        relative_to_file,
        span,
    } = &c.source
    else {
        panic!("file expected")
    };
    assert_eq!(path, "priv/lua/claim.lua");
    assert!(!relative_to_file);
    assert_eq!(span.start, at(src, "\"priv/"));
}

#[test]
fn inline_eval_script_becomes_a_script_ref() {
    let src = "def go(conn, k), do: Redix.command(conn, [\"EVAL\", \"\"\"\n  return redis.call('GET', KEYS[1])\n  \"\"\", 1, k])\n";
    let f = facts(src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name, None);
    let c = &f.commands[0];
    assert_eq!(c.name, "EVAL");
    assert!(matches!(c.args[0], Value::ScriptRef { index: 0, .. }));
    assert!(matches!(c.args[1], Value::Int { value: 1, .. }));
}

#[test]
fn multi_clause_and_nested_modules() {
    let src = r##"defmodule EchoMQ do
  defmodule Keys do
    def key(:wait, q), do: "emq:{#{q}}:wait"
    def key(:active, q), do: "emq:{#{q}}:active"
    def key(other, _q), do: other
    def count, do: 3
  end
end
"##;
    let f = facts(src);
    let got: Vec<(String, usize, Vec<String>, String)> = f
        .functions
        .iter()
        .map(|d| {
            (
                d.module.clone(),
                d.clause,
                d.params.clone(),
                d.returns.describe(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "EchoMQ.Keys".into(),
                0,
                vec!["_".into(), "q".into()],
                "emq:{<q>}:wait".into()
            ),
            (
                "EchoMQ.Keys".into(),
                1,
                vec!["_".into(), "q".into()],
                "emq:{<q>}:active".into()
            ),
            (
                "EchoMQ.Keys".into(),
                2,
                vec!["other".into(), "_q".into()],
                "other".into()
            ),
            // Every function, with an unknown return when it is not a
            // string.
            ("EchoMQ.Keys".into(), 0, vec![], "3".into()),
        ]
    );
    assert!(matches!(f.functions[3].returns, Value::Unknown { .. }));
}

#[test]
fn heredoc_text_is_dedented() {
    let src = "def k do\n  \"\"\"\n    emq:\n    x\n    \"\"\"\nend\n";
    let f = facts(src);
    assert_eq!(
        f.functions[0].returns.as_str().as_deref(),
        Some("emq:\nx\n")
    );
}

#[test]
fn negatives() {
    let src = r##"defmodule N do
  require Logger
  def a(reason), do: Logger.error("failed: #{reason}")
  def b, do: ["a", "b"]
  def c, do: ["get it", 1]
end
"##;
    let f = facts(src);
    assert!(f.templates.is_empty(), "{:?}", templates(&f));
    assert!(f.commands.is_empty());
}

#[test]
fn error_nodes_are_read_and_nothing_panics() {
    let src = "defmodule A do\n  def k(q), do: \"emq:{\" <> q <> \"}:wait\"\n  def (( [\"HSET\", \"emq:x\", \"state\"\n";
    let f = facts(src);
    assert!(templates(&f).iter().any(|t| t == "emq:{<q>}:wait"));
    for junk in [
        "\"#{",
        "~S\"\"\"\n",
        "@",
        "[|]",
        "\"\\x{zz}\"",
        "<<\"a\">>",
        "\"\\u{110000}\"",
    ] {
        let _ = facts(junk);
    }
    let deep = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
    let _ = facts(&deep);
    let blow = (0..60).map(|_| "a = a <> a\n").collect::<String>();
    let _ = facts(&format!("def f(a) do\n{blow}a\nend\n"));
}

mod more_tests {
    use super::facts;
    use super::*;
    use crate::facts::Lang;

    #[test]
    fn bitstrings_pipes_and_pattern_params() {
        let src = r##"defmodule K do
  def a(q, t), do: <<"emq:{", q::binary, "}:", t::binary, 0::8>>
  def b(%{queue: q} = ctx, id), do: [ctx.prefix, q, id] |> Enum.join(":")
  def c(ctx = %{}), do: "emq:" <> ctx
  def d(conn, sha, k) do
    Redix.command(conn, ["EVALSHA", sha, _num_keys = 2, k, "2"])
  end
end
"##;
        let f = facts(src);
        let got: Vec<String> = f.functions.iter().map(|d| d.returns.describe()).collect();
        assert_eq!(got[0], "emq:{<q>}:<t><8>");
        assert_eq!(got[1], "<prefix>:<q>:<id>");
        assert_eq!(f.functions[1].params, vec!["ctx", "id"]);
        let b = match &f.functions[1].returns {
            Value::Str(t) => t,
            other => panic!("{other:?}"),
        };
        assert!(
            matches!(&b.segs[4], Seg::Value(v) if matches!(**v, Value::Param { index: 1, .. }))
        );
        // A parameter pattern `ctx = %{}` is not a local binding.
        let c = match &f.functions[2].returns {
            Value::Str(t) => t,
            other => panic!("{other:?}"),
        };
        assert!(
            matches!(&c.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. }))
        );
        let ev = &f.commands[0];
        assert_eq!(ev.name, "EVALSHA");
        assert!(matches!(ev.args[1], Value::Int { value: 2, .. }));
        assert!(matches!(ev.args[2], Value::Param { index: 2, .. }));
        assert_eq!(ev.args[3].as_str().as_deref(), Some("2"));
        let ts: Vec<String> = f.templates.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            ts,
            vec!["emq:{<q>}:<t><8>", "<prefix>:<q>:<id>", "emq:<ctx>"]
        );
    }

    #[test]
    fn word_lists_are_lists_of_strings() {
        let src = "defmodule W do\n  @fields ~w(state  attempts payload)\n  def f(c, k), do: Redix.command(c, [\"HMGET\", k | ~w(state payload)a])\nend\n";
        let f = facts(src);
        let Value::List { items, .. } = &f.consts[0].value else {
            panic!("{:?}", f.consts[0].value)
        };
        let words: Vec<String> = items.iter().filter_map(|i| i.as_str()).collect();
        assert_eq!(words, vec!["state", "attempts", "payload"]);
        assert_eq!(
            items[1].span().start as usize,
            src.find("attempts").unwrap()
        );
        assert_eq!(items[1].span().len(), 8);
        // A visible list after `|` is spliced in.
        let c = &f.commands[0];
        assert!(!c.open_tail);
        let fields: Vec<String> = c.args.iter().filter_map(|a| a.as_str()).collect();
        assert_eq!(fields, vec!["state", "payload"]);
    }

    /// Every prefix of a realistic file parses to some tree (often with
    /// errors); none of them may panic the extractor.
    #[test]
    fn truncated_inputs_never_panic() {
        let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace, as: Keys
  @enqueue ~S"""
  redis.call('HSET', KEYS[1], 'state', 'pending', 'payload', ARGV[2])
  """
  @fields ~w(state attempts payload)
  def enqueue(conn, queue, id, p) do
    row = Keys.queue_key(queue, "job:#{id}")
    Redix.pipeline(conn, [["EVALSHA", @enqueue, "1", row, p | []], ["HMGET", row | @fields]])
  end
  defp wait_key(%{queue: q}), do: <<"emq:{", q::binary, "}:wait">> <> "\u{1F600}é"
end
"##;
        let mut p = Parsers::new().unwrap();
        for end in 0..=src.len() {
            let bytes = &src.as_bytes()[..end];
            let tree = p.parse(Lang::Elixir, bytes).unwrap();
            let _ = extract(tree.root_node(), bytes, 0, &mut p);
        }
    }
}

mod idiom_tests {
    use super::*;
    use super::{at, facts};

    fn path(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_clause_is_a_function_and_facts_know_their_function() {
        let src = r##"defmodule EchoMQ.Jobs do
  Redix.command(:top, ["DEL", "x"])
  def full_key("", key), do: key
  def full_key(ns, key), do: "#{ns}:#{key}"
  def count(conn), do: 1 + 2
  def enqueue(conn, q) do
    Redix.command(conn, ["HSET", full_key("emq", q), "state", "pending"])
    log(q)
  end
  defp log(q), do: IO.puts("job #{q}")
end
"##;
        let f = facts(src);
        let got: Vec<(String, usize, usize)> = f
            .functions
            .iter()
            .map(|d| (d.name.clone(), d.clause, d.params.len()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("full_key".into(), 0, 2),
                ("full_key".into(), 1, 2),
                ("count".into(), 0, 1),
                ("enqueue".into(), 0, 2),
                ("log".into(), 0, 1),
            ]
        );
        // A literal pattern still occupies its index.
        assert_eq!(f.functions[0].params, vec!["_", "key"]);
        assert!(matches!(
            f.functions[0].returns,
            Value::Param { index: 1, .. }
        ));
        assert_eq!(f.functions[1].returns.describe(), "<ns>:<key>");
        assert!(matches!(f.functions[2].returns, Value::Unknown { .. }));
        // `IO.puts` is not a key builder: its clause returns unknown.
        assert!(matches!(f.functions[4].returns, Value::Unknown { .. }));
        assert_eq!(f.functions[3].name_span.start, at(src, "enqueue(conn, q)"));
        let cmds: Vec<(&str, Option<usize>)> = f
            .commands
            .iter()
            .map(|c| (c.name.as_str(), c.func))
            .collect();
        assert_eq!(cmds, vec![("DEL", None), ("HSET", Some(3))]);
        let calls: Vec<(Vec<String>, Option<usize>)> =
            f.calls.iter().map(|c| (c.path.clone(), c.func)).collect();
        assert_eq!(
            calls,
            vec![(path(&["full_key"]), Some(3)), (path(&["log"]), Some(3))]
        );
        assert_eq!(f.calls[0].span.start, at(src, "full_key(\"emq\""));
        assert_eq!(f.calls[0].args[0].as_str().as_deref(), Some("emq"));
        assert!(matches!(f.calls[0].args[1], Value::Param { index: 1, .. }));
    }

    #[test]
    fn evalsha_tails_and_numkeys() {
        let src = r##"defmodule W do
  def a(conn, sha, keys, args), do: Redix.command(conn, ["EVALSHA", sha, length(keys) | keys ++ args])
  def b(conn, sha, keys, args), do: Redix.command(conn, ["EVALSHA", sha, length(keys)] ++ keys ++ args)
  def c(conn, sha, job, pending, id) do
    keys = [job, pending]
    Redix.command(conn, ["EVALSHA", sha, length(keys) | keys ++ [id]])
  end
  def d(conn, sha, k) do
    Redix.command(conn, ["EVALSHA", sha, "2", k, _num_keys = 2])
  end
end
"##;
        let f = facts(src);
        assert_eq!(f.commands.len(), 4);
        for c in &f.commands[..2] {
            assert_eq!(c.name, "EVALSHA");
            assert!(c.open_tail);
            assert_eq!(c.args.len(), 2);
            assert!(matches!(c.args[0], Value::Param { index: 1, .. }));
            let Value::Call { path: p, args, .. } = &c.args[1] else {
                panic!("{:?}", c.args[1])
            };
            assert_eq!(p, &path(&["length"]));
            assert!(matches!(args[0], Value::Param { index: 2, .. }));
            let tail: Vec<String> = c.tail.iter().map(|t| t.describe()).collect();
            assert_eq!(tail, vec!["keys", "args"]);
            assert!(matches!(c.tail[0], Value::Param { index: 2, .. }));
            assert!(matches!(c.tail[1], Value::Param { index: 3, .. }));
        }
        // A visible list: its length is the count, its items are spliced in.
        let c = &f.commands[2];
        assert!(!c.open_tail);
        assert!(c.tail.is_empty());
        let Value::Int { value: 2, span } = c.args[1] else {
            panic!("{:?}", c.args[1])
        };
        assert_eq!(span.start, at(src, "length(keys) | keys ++ [id]"));
        let rest: Vec<String> = c.args[2..].iter().map(|a| a.describe()).collect();
        assert_eq!(rest, vec!["job", "pending", "id"]);
        assert!(matches!(c.args[2], Value::Param { index: 2, .. }));
        let d = &f.commands[3];
        assert_eq!(d.args[1].as_str().as_deref(), Some("2"));
        assert!(matches!(d.args[3], Value::Int { value: 2, .. }));
    }

    #[test]
    fn a_command_head_bound_to_a_variable_is_recorded_where_appended() {
        let src = r##"defmodule W do
  @evalsha "EVALSHA"
  def run(conn, sha, keys, args) do
    cmd = [@evalsha, sha, length(keys)]
    Redix.command(conn, cmd ++ keys ++ args)
  end
  def get(conn, k) do
    cmd = ["GET", k]
    Redix.command(conn, cmd)
  end
end
"##;
        let f = facts(src);
        assert_eq!(f.commands.len(), 2, "{:?}", f.commands);
        let c = &f.commands[0];
        assert_eq!(c.name, "EVALSHA");
        assert_eq!(c.name_span.start, at(src, "@evalsha, sha"));
        assert_eq!(c.span.start, at(src, "cmd ++ keys"));
        assert_eq!(c.func, Some(0));
        assert_eq!(c.args.len(), 2);
        let tail: Vec<String> = c.tail.iter().map(|t| t.describe()).collect();
        assert_eq!(tail, vec!["keys", "args"]);
        assert_eq!(f.commands[1].name, "GET");
        assert_eq!(f.commands[1].func, Some(1));
    }

    #[test]
    fn calls_expand_aliases_imports_and_pipes() {
        let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace
  alias EchoMQ.Scripts, as: S
  alias EchoMQ.{Conn, Codec}
  import EchoMQ.Keys
  def run(conn, q, id) do
    k = Keyspace.job_key(q, id)
    S.execute(conn, :enqueue, [k, pending_key(q)], [id])
    q |> Codec.encode(:json)
    __MODULE__.helper(q)
    Conn.get(conn)
    local(q)
    Enum.map([q], &to_string/1)
    Map.get(%{}, :a)
    ctx.queue
    String.upcase(q)
  end
  defp local(q), do: q
  def helper(q), do: q
end
"##;
        let f = facts(src);
        let paths: Vec<Vec<String>> = f.calls.iter().map(|c| c.path.clone()).collect();
        assert_eq!(
            paths,
            vec![
                path(&["EchoMQ", "Keyspace", "job_key"]),
                path(&["EchoMQ", "Scripts", "execute"]),
                path(&["EchoMQ", "Keys", "pending_key"]),
                path(&["EchoMQ", "Codec", "encode"]),
                path(&["EchoMQ", "Jobs", "helper"]),
                path(&["EchoMQ", "Conn", "get"]),
                path(&["local"]),
            ]
        );
        let exec = &f.calls[1];
        assert!(matches!(&exec.args[1], Value::Atom { name, .. } if name == "enqueue"));
        let Value::List { items, .. } = &exec.args[2] else {
            panic!("{:?}", exec.args[2])
        };
        // The local `k` is substituted by its value.
        assert!(
            matches!(&items[0], Value::Call { path: p, .. } if p == &path(&["EchoMQ", "Keyspace", "job_key"]))
        );
        assert!(
            matches!(&items[1], Value::Call { path: p, .. } if p == &path(&["EchoMQ", "Keys", "pending_key"]))
        );
        // The piped value is the first argument; the span covers the pipe.
        let enc = &f.calls[3];
        assert!(matches!(enc.args[0], Value::Param { index: 1, .. }));
        assert!(matches!(&enc.args[1], Value::Atom { name, .. } if name == "json"));
        assert_eq!(enc.span.start, at(src, "q |> Codec"));
        assert!(f.calls.iter().all(|c| c.func == Some(0)));
    }

    #[test]
    fn field_reads_after_hgetall() {
        let src = r##"defmodule R do
  def a(conn, key) do
    {:ok, row} = Redix.command(conn, ["HGETALL", key])
    Map.get(row, "payload")
  end
  def b(conn, q, id) do
    row = Redix.command!(conn, ["HGETALL", "emq:{#{q}}:job:#{id}"])
    {row["state"], Map.fetch!(row, :attempts)}
  end
  def c(conn, key) do
    {:ok, flat} = conn |> Redix.command(["HGETALL", key])
    row = flat |> Enum.chunk_every(2) |> Map.new(fn [k, v] -> {k, v} end)
    %{"payload" => p, "state" => s} = row
    row |> Map.get("attempts")
  end
  def d(conn, key) do
    case Redix.command(conn, ["HGETALL", key]) do
      {:ok, row} -> row["payload"]
      _ -> nil
    end
  end
  def e(conn, key, m) do
    {:ok, row} = Redix.command(conn, ["HMGET", key, "state"])
    other = %{"payload" => 1}
    {Map.get(row, "payload"), other["payload"], Map.get(m, "payload")}
  end
end
"##;
        let f = facts(src);
        let got: Vec<(String, String, Option<usize>)> = f
            .field_reads
            .iter()
            .map(|r| (r.key.describe(), r.field.as_str().unwrap(), r.func))
            .collect();
        assert_eq!(
            got,
            vec![
                ("key".into(), "payload".into(), Some(0)),
                ("emq:{<q>}:job:<id>".into(), "state".into(), Some(1)),
                ("emq:{<q>}:job:<id>".into(), "attempts".into(), Some(1)),
                ("key".into(), "payload".into(), Some(2)),
                ("key".into(), "state".into(), Some(2)),
                ("key".into(), "attempts".into(), Some(2)),
                ("key".into(), "payload".into(), Some(3)),
            ]
        );
        assert!(matches!(
            f.field_reads[0].key,
            Value::Param { index: 1, .. }
        ));
        assert_eq!(f.field_reads[0].span.start, at(src, "\"payload\")"));
        assert_eq!(f.field_reads[1].span.start, at(src, "\"state\"]"));
        assert!(matches!(&f.field_reads[2].field, Value::Atom { name, .. } if name == "attempts"));
        assert_eq!(f.field_reads[2].span.start, at(src, ":attempts"));
        assert_eq!(
            f.field_reads[3].span.start,
            at(src, "\"payload\" => p, \"state\"")
        );
    }

    #[test]
    fn script_texts_are_what_elixir_sends() {
        let src = "defmodule S do\n  @a \"\"\"\n    local k = KEYS[1]\n      return redis.call('GET', k) -- \\\\ \\t\n    \"\"\"\n  @b ~S\"\"\"\n  return redis.call('GET', KEYS[1]) -- \\t\n  \"\"\"\n  def go(conn, k), do: Redix.command(conn, [\"EVAL\", \"\"\"\n    return redis.call('DEL', KEYS[1])\n    \"\"\", 1, k])\nend\n";
        let f = facts(src);
        let texts: Vec<Option<&str>> = f.scripts.iter().map(|s| s.text.as_deref()).collect();
        assert_eq!(
            texts,
            vec![
                Some("local k = KEYS[1]\n  return redis.call('GET', k) -- \\ \t\n"),
                Some("return redis.call('GET', KEYS[1]) -- \\t\n"),
                Some("return redis.call('DEL', KEYS[1])\n"),
            ]
        );
        assert_eq!(f.scripts[1].name.as_deref(), Some("b"));
        assert!(matches!(
            f.commands[0].args[0],
            Value::ScriptRef { index: 2, .. }
        ));
        let ScriptSource::Inline(lua) = &f.scripts[2].source else {
            panic!()
        };
        assert_eq!(lua.commands[0].name, "DEL");
        assert_eq!(lua.commands[0].func, None);
    }

    #[test]
    fn script_files_from_path_expressions() {
        let src = r##"defmodule S do
  @path "priv/lua/claim.lua"
  @external_resource @path
  @claim File.read!(@path)
  @a File.read!(Path.join(__DIR__, "../../priv/lua/a.lua"))
  @b File.read!(Path.join(:code.priv_dir(:echo_mq), "lua/b.lua"))
  @c Application.app_dir(:echo_mq, "priv/lua/c.lua") |> File.read!()
  @d File.read!(Path.join([:code.priv_dir(:echo_mq), "lua", "d.lua"]))
  @enqueue_sha Script.sha("enqueue")
  @cfg Application.get_env(:echo_mq, :x)
end
"##;
        let f = facts(src);
        let got: Vec<(String, String, bool)> = f
            .scripts
            .iter()
            .map(|s| match &s.source {
                ScriptSource::File {
                    path,
                    relative_to_file,
                    ..
                } => (s.name.clone().unwrap(), path.clone(), *relative_to_file),
                _ => panic!("file expected"),
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("claim".into(), "priv/lua/claim.lua".into(), false),
                ("a".into(), "../../priv/lua/a.lua".into(), true),
                ("b".into(), "priv/lua/b.lua".into(), false),
                ("c".into(), "priv/lua/c.lua".into(), false),
                ("d".into(), "priv/lua/d.lua".into(), false),
            ]
        );
        // A compile-time helper naming a script: a const holding the call.
        let sha = f.consts.iter().find(|c| c.name == "@enqueue_sha").unwrap();
        let Value::Call { path: p, args, .. } = &sha.value else {
            panic!("{:?}", sha.value)
        };
        assert_eq!(p, &path(&["Script", "sha"]));
        assert_eq!(args[0].as_str().as_deref(), Some("enqueue"));
        assert!(f.consts.iter().all(|c| c.name != "@cfg"));
        assert_eq!(f.calls.len(), 1, "{:?}", f.calls);
        assert_eq!(f.calls[0].path, path(&["Script", "sha"]));
    }
}

mod key_idiom_tests {
    use super::*;
    use super::{at, facts};

    #[test]
    fn helpers_attributes_sigils_and_iodata() {
        let src = r##"defmodule EchoMQ.Keys do
  import EchoMQ.Base
  @prefix "emq:"
  def wait(ctx), do: "#{base(ctx)}:wait"
  def tagged(q), do: "#{@prefix}{#{q}}"
  def sig(q), do: ~s(emq:{#{q}}:pending)
  def raw, do: ~S(emq:{#{q}}:x)
  def io(q, id), do: IO.iodata_to_binary(["emq:", ["{", q, "}"], [":job:", [id]]])
  def shown(m), do: "emq:" <> inspect(m)
end
"##;
        let f = facts(src);
        let got: Vec<String> = f.functions.iter().map(|d| d.returns.describe()).collect();
        assert_eq!(
            got,
            vec![
                "<base>:wait",
                "<@prefix>{<q>}",
                "emq:{<q>}:pending",
                "emq:{#{q}}:x",
                "emq:{<q>}:job:<id>",
                "emq:<m>",
            ]
        );
        // `base` is imported: its module is prepended; the parameter is
        // bound at the call.
        let Value::Str(t) = &f.functions[0].returns else {
            panic!()
        };
        let Seg::Value(v) = &t.segs[0] else { panic!() };
        let Value::Call { path, args, span } = &**v else {
            panic!("{v:?}")
        };
        assert_eq!(path, &["EchoMQ", "Base", "base"]);
        assert!(matches!(args[0], Value::Param { index: 0, .. }));
        assert_eq!(span.start, at(src, "base(ctx)"));
        let Seg::Lit { text, span } = &t.segs[1] else {
            panic!()
        };
        assert_eq!(text, ":wait");
        assert_eq!(span.start, at(src, ":wait\""));
        // Text the code does not show never becomes literal braces.
        let Value::Str(t) = &f.functions[5].returns else {
            panic!()
        };
        assert!(matches!(t.segs[1], Seg::Hole { .. }), "{:?}", t.segs);
        // Nested iodata keeps each piece's own span.
        let Value::Str(t) = &f.functions[4].returns else {
            panic!()
        };
        assert_eq!(t.segs[1].span().start, at(src, "{\", q"));
    }

    #[test]
    fn a_log_helper_named_like_a_key_builder_is_not_a_key() {
        let src = r##"defmodule EchoMQ.Log do
  require Logger
  def job_key(q, id), do: "could not enqueue job #{id} on #{q}"
  def warn(q, id), do: Logger.warning(job_key(q, id))
end
"##;
        let f = facts(src);
        assert!(f.templates.is_empty());
        assert!(f.commands.is_empty());
        // Still a function (the link may resolve calls to it), but never a
        // key unless a command uses it.
        assert_eq!(f.functions.len(), 2);
        assert_eq!(f.calls.len(), 1);
        assert_eq!(f.calls[0].path, vec!["job_key".to_string()]);
    }
}
