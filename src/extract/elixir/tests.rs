use super::strings::decode_escape;
use super::*;
use crate::facts::{FileFacts, Lang, ScriptSource, Seg, Template, Value};
use crate::parse::Parsers;

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
            ("c".into(), "emq:{<base>}:wait:<wait>".into()),
            ("d".into(), "emq:<x>:pending".into()),
        ]
    );
    let c = str_of(&f.functions[2].returns);
    // `@prefix` is the literal it is set from, spanned at the attribute.
    assert!(matches!(&c.segs[0], Seg::Lit { text, .. } if text == "emq:"));
    assert_eq!(c.segs[0].span().start, at(src, "emq:\"\n"));
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
            "emq:{<queue>}:<type>",
            "emq:{<queue>}:<type>",
            "emq:{<base>}:wait:<wait>",
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
    // A byte past ASCII: no text holds it alone.
    assert_eq!(decode_escape("\\xFF"), "\u{FFFD}");
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
    assert_eq!(hset.name_span.start, at(src, "HSET\"\n"));
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
            // Every function, with what its last expression gives.
            ("EchoMQ.Keys".into(), 0, vec![], "3".into()),
        ]
    );
    assert!(matches!(
        f.functions[3].returns,
        Value::Int { value: 3, .. }
    ));
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
    // `q` is what `ctx` holds under `:queue`, and `ctx.prefix` under
    // `:prefix`: lookups named by their keys.
    assert_eq!(got[1], "<prefix>:<queue>:<id>");
    assert_eq!(f.functions[1].params, vec!["ctx", "id"]);
    let b = match &f.functions[1].returns {
        Value::Str(t) => t,
        other => panic!("{other:?}"),
    };
    assert!(matches!(&b.segs[4], Seg::Value(v) if matches!(**v, Value::Param { index: 1, .. })));
    // A parameter pattern `ctx = %{}` is not a local binding.
    let c = match &f.functions[2].returns {
        Value::Str(t) => t,
        other => panic!("{other:?}"),
    };
    assert!(matches!(&c.segs[1], Seg::Value(v) if matches!(**v, Value::Param { index: 0, .. })));
    let ev = &f.commands[0];
    assert_eq!(ev.name, "EVALSHA");
    assert!(matches!(ev.args[1], Value::Int { value: 2, .. }));
    assert!(matches!(ev.args[2], Value::Param { index: 2, .. }));
    assert_eq!(ev.args[3].as_str().as_deref(), Some("2"));
    let ts: Vec<String> = f.templates.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        ts,
        vec!["emq:{<q>}:<t><8>", "<prefix>:<queue>:<id>", "emq:<ctx>"]
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
