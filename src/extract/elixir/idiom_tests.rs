use super::tests::{at, facts};
use crate::facts::{ScriptSource, Seg, Value};

pub(super) fn path(v: &[&str]) -> Vec<String> {
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
    assert_eq!(c.name_span.start, at(src, "EVALSHA\"\n"));
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
            // A parameter's field: what the callers pass, for the link.
            ("row".into(), "payload".into(), Some(4)),
        ]
    );
    assert!(f.field_reads[..7].iter().all(|r| r.row.is_none()));
    assert!(matches!(
        f.field_reads[7].row,
        Some(Value::Param { index: 2, .. })
    ));
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
fn a_reply_passed_on_and_a_parameter_read() {
    let src = r##"defmodule R do
  def load(conn, key) do
    {:ok, flat} = Redix.command(conn, ["HGETALL", key])
    R.Row.decode(Enum.chunk_every(flat, 2), key)
  end
  def other(conn, key) do
    {:ok, flat} = Redix.command(conn, ["HMGET", key, "state"])
    R.Row.decode(flat, key)
  end
  def decode(%{"state" => s} = row, %Q{x: x}), do: {s, row["payload"], x}
end
"##;
    let f = facts(src);
    let passed: Vec<Option<String>> = f
        .calls
        .iter()
        .filter(|c| c.path.last().is_some_and(|n| n == "decode"))
        .map(|c| {
            let (command, key) = crate::facts::hash_reply_parts(&c.args[0])?;
            Some(format!("{} {}", command.describe(), key.describe()))
        })
        .collect();
    assert_eq!(passed, vec![Some("HGETALL key".into()), None]);
    let reads = crate::extract::reads_by_param(&f);
    // The struct pattern `%Q{x: x}` is no hash's reply.
    assert_eq!(
        reads,
        vec![("state".into(), Some(0)), ("payload".into(), Some(0))]
    );
}

#[test]
fn a_reply_returned_and_read_from_a_call() {
    let src = r##"defmodule R do
  def load(conn, key), do: Redix.command!(conn, ["HGETALL", key]) |> Enum.chunk_every(2)
  def raw(conn, key), do: Redix.command(conn, ["HGETALL", key])
  def get(conn, key) do
    row = R.load(conn, key)
    Map.get(row, "state")
  end
end
"##;
    let f = facts(src);
    let returned = |name: &str| {
        let d = f.functions.iter().find(|d| d.name == name).unwrap();
        crate::facts::hash_reply_parts(&d.returns).map(|(_, k)| k.describe())
    };
    assert_eq!(returned("load"), Some("key".into()));
    // `{:ok, reply}`, not the reply.
    assert_eq!(returned("raw"), None);
    let [r] = f.field_reads.as_slice() else {
        panic!("{:?}", f.field_reads)
    };
    assert!(matches!(&r.row, Some(Value::Call { path, .. }) if path == &["R", "load"]));
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
    let got = crate::extract::test_support::file_scripts(&f);
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
            "emq:{<q>}",
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

/// A pipe is followed for its first 1,000 steps (`values::MAX_PIPE_STEPS`):
/// every step is still a call, with its piped value as first argument, but
/// past that step the piped value is not known. Near the head, it is.
#[test]
fn a_pipe_is_followed_for_its_first_thousand_steps() {
    let src = format!(
        "defmodule P do\n  def f(q), do: q{}\nend\n",
        " |> g()".repeat(1002)
    );
    let f = facts(&src);
    assert_eq!(f.calls.len(), 1002);
    assert!(f
        .calls
        .iter()
        .all(|c| c.path == path(&["g"]) && c.args.len() == 1));
    // Step 2 takes step 1's value: `g(q)`.
    assert!(
        matches!(&f.calls[1001 - 1].args[0], Value::Call { path: p, .. } if p == &path(&["g"]))
    );
    // Step 1001 takes step 1000's: the last one followed.
    assert!(matches!(&f.calls[1].args[0], Value::Call { .. }));
    // Step 1002 takes step 1001's, which is past the bound.
    assert!(matches!(&f.calls[0].args[0], Value::Unknown { .. }));
}

#[test]
fn a_delegate_is_its_target_under_another_name() {
    let src = r##"defmodule Q do
  alias Q.Runner
  defdelegate eval(conn, body), to: Runner, as: :run
  defdelegate push(conn, q), to: Q.Impl
  defdelegate pop(conn), to: __MODULE__.Impl
end
"##;
    let f = facts(src);
    assert!(f.calls.is_empty(), "{:?}", f.calls);
    let aliases: Vec<(&str, Vec<String>)> = f
        .aliases
        .iter()
        .map(|a| (f.functions[a.func].name.as_str(), a.target.clone()))
        .collect();
    assert_eq!(
        aliases,
        vec![
            ("eval", path(&["Q", "Runner", "run"])),
            ("push", path(&["Q", "Impl", "push"])),
            ("pop", path(&["Q", "Impl", "pop"])),
        ]
    );
    let eval = &f.functions[f.aliases[0].func];
    assert_eq!((eval.module.as_str(), eval.params.len()), ("Q", 2));
    assert!(matches!(&eval.returns, Value::Call { path: p, args, .. }
        if p == &path(&["Q", "Runner", "run"])
        && matches!(args[..], [Value::Param { index: 0, .. }, Value::Param { index: 1, .. }])));
}

#[test]
fn a_list_headed_by_a_call_is_a_command_where_the_file_speaks_redis() {
    // The command's name comes from a function of another file. A file
    // that names no client reads it only where it holds a script and hands
    // the list to a function of the code base (the link proves it sends).
    let body = r#"
  def take(name), do: Store.command([Verbs.eval(), take_script(), 1, name])
  def spare(name), do: [Verbs.eval(), 1, name]
  defp take_script, do: "return redis.call('GET', KEYS[1])"
end
"#;
    let named = |src: String| -> Vec<String> {
        facts(&src)
            .commands
            .iter()
            .filter_map(|c| match &c.name_of {
                Some(Value::Call { path, .. }) => Some(path.join(".")),
                _ => None,
            })
            .collect()
    };
    let with_script = format!("defmodule Gate.Lock do{body}");
    assert_eq!(named(with_script.clone()), ["Verbs.eval"]);
    let without = with_script.replace("return redis.call('GET', KEYS[1])", "ok");
    assert!(named(without).is_empty());
    let client = format!("defmodule Gate.Lock do\n  # sent with :eredis{body}");
    assert_eq!(named(client), ["Verbs.eval", "Verbs.eval"]);
}
