//! Values followed by what the language means: a script's SHA1, lookups by
//! a literal key, what functions return, a GenServer's state, `then/2`,
//! Lua held by a local or returned by a function, and `apply/3`.

use super::idiom_tests::path;
use super::tests::{at, facts};
use crate::facts::{FileFacts, Op, Value};

fn const_of<'f>(f: &'f FileFacts, name: &str) -> &'f Value {
    &f.consts
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{name}"))
        .value
}

fn returns<'f>(f: &'f FileFacts, name: &str) -> Vec<&'f Value> {
    f.functions
        .iter()
        .filter(|d| d.name == name)
        .map(|d| &d.returns)
        .collect()
}

/// `#sha1(@name)`.
fn is_sha_of(v: &Value, attr: &str) -> bool {
    matches!(v, Value::Op { op: Op::Sha1, args, .. }
        if matches!(&args[..], [Value::Const { path, .. }] if path == &[attr.to_string()]))
}

#[test]
fn a_sha_of_an_attribute_is_the_same_however_it_is_written() {
    let src = r##"defmodule S do
  @lua "return redis.call('GET', KEYS[1])"
  @a :crypto.hash(:sha, @lua) |> Base.encode16(case: :lower)
  @b Base.encode16(:crypto.hash(:sha, @lua), case: :lower)
  @c @lua |> then(&:crypto.hash(:sha, &1)) |> Base.encode16() |> String.downcase()
  @d :crypto.hash(:md5, @lua) |> Base.encode16()
  def digest, do: @a
end
"##;
    let f = facts(src);
    for name in ["@a", "@b", "@c"] {
        assert!(
            is_sha_of(const_of(&f, name), "@lua"),
            "{name}: {:?}",
            const_of(&f, name)
        );
    }
    // Another digest is no script's SHA.
    assert!(f.consts.iter().all(|c| c.name != "@d"));
    assert!(matches!(returns(&f, "digest")[..], [Value::Const { .. }]));
}

#[test]
fn a_lookup_by_a_literal_key_is_what_the_collection_holds() {
    let src = r##"defmodule L do
  @table [enqueue: "a", ack: "b"]
  @by_string %{"enqueue" => "c"}
  def a, do: Keyword.fetch!(@table, :ack)
  def b, do: @table[:enqueue]
  def c(x) do
    scripts = %{enqueue: x, ack: "d"}
    Map.get(scripts, :ack)
  end
  def d, do: Map.get(@by_string, "enqueue")
  def e, do: Keyword.get(Other.table(), :ack)
  def f, do: Map.get(@by_string, :enqueue)
  def g(state), do: state.sha
end
"##;
    let f = facts(src);
    let lit = |name: &str| returns(&f, name)[0].as_str();
    assert_eq!(lit("a").as_deref(), Some("b"));
    assert_eq!(lit("b").as_deref(), Some("a"));
    assert_eq!(lit("c").as_deref(), Some("d"));
    assert_eq!(lit("d").as_deref(), Some("c"));
    // A collection from elsewhere: the lookup is left to the link.
    let Value::Op { op, args, .. } = returns(&f, "e")[0] else {
        panic!("{:?}", returns(&f, "e"))
    };
    assert_eq!(op, &Op::Lookup);
    assert_eq!(args[1].as_str().as_deref(), Some("ack"));
    assert!(matches!(&args[0], Value::Call { path, .. } if path == &["Other", "table"]));
    // An atom is not a string key: nothing is there.
    assert!(matches!(returns(&f, "f")[0], Value::Unknown { .. }));
    // A parameter's field.
    assert!(
        matches!(returns(&f, "g")[0], Value::Op { op: Op::Lookup, args, .. }
        if matches!(args[0], Value::Param { index: 0, .. }))
    );
}

#[test]
fn functions_return_maps_keyword_lists_and_the_scripts_they_hold() {
    let src = r##"defmodule R do
  @push "return redis.call('LPUSH', KEYS[1], ARGV[1])"
  def table, do: [push: @push]
  def map, do: %{push: @push}
  def by(:push), do: @push
  def by(:none), do: nil
  defp inline_lua, do: """
  return redis.call("RPOP", KEYS[1])
  """
end
"##;
    let f = facts(src);
    assert!(matches!(returns(&f, "table")[0], Value::Map { pairs, .. } if pairs.len() == 1));
    assert!(matches!(returns(&f, "map")[0], Value::Map { pairs, .. } if pairs.len() == 1));
    let by: Vec<String> = returns(&f, "by").iter().map(|v| v.describe()).collect();
    assert_eq!(by, ["@push", ":nil"]);
    // Lua returned by a function is a script named after it.
    let Value::ScriptRef { index, .. } = returns(&f, "inline_lua")[0] else {
        panic!("{:?}", returns(&f, "inline_lua"))
    };
    assert_eq!(f.scripts[*index].name.as_deref(), Some("inline_lua"));
    assert!(!f.scripts[*index].local);
}

#[test]
fn a_genserver_callback_reads_the_state_init_made() {
    let src = r##"defmodule G do
  use GenServer
  @lua "return redis.call('INCR', KEYS[1])"
  def init(conn) do
    {:ok, sha} = Redix.command(conn, ["SCRIPT", "LOAD", @lua])
    {:ok, %{conn: conn, sha: sha}}
  end
  def handle_call(:a, _from, %{sha: sha} = state), do: {:reply, sha, state}
  def handle_cast(:b, state), do: state.sha
  def handle_info(:c, state), do: state.conn
  def other(%{sha: sha}), do: sha
end
"##;
    let f = facts(src);
    let sha_of_lua = |v: &Value| is_sha_of(v, "@lua");
    // `{:reply, sha, state}` is a tuple: the clause returns nothing known,
    // but `sha` is bound; `state.sha` is the SHA.
    assert!(sha_of_lua(returns(&f, "handle_cast")[0]));
    // `init/1`'s parameter means nothing in a callback.
    assert!(matches!(
        returns(&f, "handle_info")[0],
        Value::Unknown { .. }
    ));
    // Outside the callbacks, a map pattern reads its parameter.
    assert!(
        matches!(returns(&f, "other")[0], Value::Op { op: Op::Lookup, args, .. }
        if matches!(args[0], Value::Param { index: 0, .. }))
    );
}

#[test]
fn a_key_built_in_any_form_is_the_same_template() {
    let src = r##"defmodule K do
  def a(q), do: "emq:{#{q}}:wait"
  def b(q), do: "emq:{" <> q <> "}:wait"
  def c(q), do: Enum.join(["emq:{", q, "}:wait"])
  def d(q), do: ["emq:{", q, "}:wait"] |> IO.iodata_to_binary()
  def e(q), do: q |> then(&("emq:{" <> &1 <> "}:wait"))
  def f(q), do: q |> then(fn x -> "emq:{#{x}}:wait" end)
  def g(q), do: then(q, fn x -> ["emq:{", x, "}:wait"] |> Enum.join() end)
end
"##;
    let f = facts(src);
    for d in &f.functions {
        assert_eq!(d.returns.describe(), "emq:{<q>}:wait", "{}", d.name);
    }
}

#[test]
fn lua_held_by_a_local_is_a_script_of_this_file() {
    let src = r##"defmodule B do
  def run(conn) do
    script = "return redis.call('SET', KEYS[1], ARGV[1])"
    Redix.command(conn, ["EVAL", script, 1, "k", "v"])
  end
end
"##;
    let f = facts(src);
    assert_eq!(f.scripts.len(), 1);
    assert_eq!(f.scripts[0].name.as_deref(), Some("script"));
    assert!(f.scripts[0].local);
    assert!(matches!(
        f.commands[0].args[0],
        Value::ScriptRef { index: 0, .. }
    ));
}

#[test]
fn clauses_say_the_literals_they_require_and_heads_their_defaults() {
    let src = r##"defmodule C do
  @enqueue "return redis.call('LPUSH', KEYS[1], ARGV[1])"
  def script(:enqueue), do: @enqueue
  def script("ack"), do: "x"
  def script(other), do: other
  def run(conn, keys, script \\ @enqueue, opts \\ [])
  def run(conn, keys, script, _opts), do: Redix.command(conn, ["EVAL", script, length(keys) | keys])
  def load(conn) do
    with {:ok, sha} <- Redix.command(conn, ["SCRIPT", "LOAD", @enqueue]) do
      sha
    end
  end
end
"##;
    let f = facts(src);
    let pats: Vec<Vec<Option<String>>> = f
        .functions
        .iter()
        .filter(|d| d.name == "script")
        .map(|d| {
            d.patterns
                .iter()
                .map(|p| p.as_ref().map(Value::describe))
                .collect()
        })
        .collect();
    assert_eq!(
        pats,
        [
            vec![Some(":enqueue".to_string())],
            vec![Some("ack".to_string())],
            vec![]
        ]
    );
    let run = f.functions.iter().find(|d| d.name == "run").unwrap();
    assert_eq!(run.defaults, 2);
    let defaults: Vec<Option<String>> = run
        .default_values
        .iter()
        .map(|p| p.as_ref().map(Value::describe))
        .collect();
    assert_eq!(
        defaults,
        [None, None, Some("@enqueue".into()), Some("list".into())]
    );
    // `with {:ok, sha} <- ..` binds the SHA.
    let load = f.functions.iter().find(|d| d.name == "load").unwrap();
    let Value::Op { op, .. } = &load.returns else {
        panic!("{:?}", load.returns)
    };
    assert_eq!(op, &Op::Sha1);
}

/// A function of the file that returns a constant is that constant where
/// it is called: a command name (the clause chosen by its literal
/// pattern), and no key template of its own.
#[test]
fn functions_returning_constants_are_their_constants() {
    let src = r##"defmodule Q do
  def push(conn, q), do: Redix.command(conn, [verb(:set), "q:{" <> q <> "}:row", field(), "1"])
  defp verb(:set), do: "HSET"
  defp verb(:get), do: "HGET"
  defp field, do: @field
  @field "state"
  defp prefix, do: "q:{"
end
"##;
    let f = facts(src);
    assert_eq!(f.commands.len(), 1);
    assert_eq!(f.commands[0].name, "HSET");
    assert!(matches!(&f.commands[0].args[1], Value::Const { path, .. } if path == &["@field"]));
    assert!(
        f.templates
            .iter()
            .all(|t| t.as_literal().as_deref() != Some("q:{")),
        "{:?}",
        f.templates
    );
}

/// An attribute set from a literal is that literal wherever it is read,
/// spanned at the attribute's value: a command's words, its numkeys, a
/// field read.
#[test]
fn an_attribute_set_from_a_literal_is_that_literal() {
    let src = r##"defmodule A do
  @lua "return redis.call('INCR', KEYS[1])"
  @script "SCRIPT"
  @load "LOAD"
  @eval "EVAL"
  @two "2"
  @state "state"
  @state_again @state
  def init(conn) do
    {:ok, sha} = Redix.command(conn, [@script, @load, @lua])
    sha
  end
  def run(conn, a, b), do: Redix.command(conn, [@eval, @lua, @two, a, b])
  def read(conn, key) do
    {:ok, row} = Redix.command(conn, ["HGETALL", key])
    {Map.get(row, @state), row[@state_again]}
  end
end
"##;
    let f = facts(src);
    assert!(is_sha_of(returns(&f, "init")[0], "@lua"));
    let eval = f.commands.iter().find(|c| c.name == "EVAL").unwrap();
    assert_eq!(eval.name_span.start, at(src, "EVAL\""));
    assert_eq!(eval.args[1].as_str().as_deref(), Some("2"));
    assert_eq!(eval.args[1].span().start, at(src, "\"2\""));
    let reads: Vec<(String, u32)> = f
        .field_reads
        .iter()
        .map(|r| (r.field.as_str().unwrap(), r.field.span().start))
        .collect();
    let state = at(src, "\"state\"");
    assert_eq!(
        reads,
        vec![("state".into(), state), ("state".into(), state)]
    );
    // No template for a literal an attribute is set from: its uses hold it.
    assert!(f.templates.is_empty(), "{:?}", f.templates);
}

/// What a function gives back, written out: a tuple is a record of its
/// positions, a `case` one of its clauses' values, a client's reply `{:ok,
/// reply}`, the map made from a flat reply that reply, and `apply/3` a
/// call of the function its name names.
#[test]
fn tuples_cases_replies_and_apply_are_values() {
    let src = r##"defmodule W do
  def direct(pid, command), do: Redix.command(pid, command, timeout: 5_000)
  def read!(pid, key), do: Redix.command!(pid, ["HGETALL", key])
  def get(pid, key), do: Redix.command(pid, ["GET", key])
  def fields(pid, key) do
    case direct(pid, ["HGETALL", key]) do
      {:ok, []} -> {:ok, nil}
      {:ok, flat} -> {:ok, to_map(flat)}
    end
  end
  defp to_map(flat), do: flat |> Enum.chunk_every(2) |> Enum.into(%{}, fn [k, v] -> {k, v} end)
  defp other_map(flat), do: flat |> Enum.chunk_every(2) |> Map.new(fn [k, v] -> {v, k} end)
  defp dispatch(%mod{} = b, fun, args), do: apply(mod, fun, [b | args])
end
"##;
    let f = facts(src);
    let shown = |name: &str| -> Vec<String> {
        returns(&f, name)
            .into_iter()
            .map(|v| format!("{v:?}"))
            .map(|s| {
                // Spans aside.
                let mut out = String::new();
                let mut rest = s.as_str();
                while let Some(i) = rest.find(", span: Span {") {
                    out.push_str(&rest[..i]);
                    rest = &rest[i..];
                    let end = rest.find('}').map_or(rest.len(), |e| e + 1);
                    rest = &rest[end..];
                }
                out.push_str(rest);
                out
            })
            .collect()
    };
    let reply_of = |cmd: &str| {
        format!(
            "Map {{ pairs: [(Int {{ value: 0 }}, Atom {{ name: \"ok\" }}), \
             (Int {{ value: 1 }}, Op {{ op: Reply, args: [{cmd}] }})] }}"
        )
    };
    assert_eq!(
        shown("direct"),
        [reply_of("Param { index: 1, name: \"command\" }")]
    );
    let hgetall = "List { items: [Str(Template { segs: [Lit { text: \"HGETALL\" }] }), \
                   Param { index: 1, name: \"key\" }], tail: [] }";
    assert_eq!(
        shown("read!"),
        [format!("Op {{ op: Reply, args: [{hgetall}] }}")]
    );
    // A reply no field is read of: no value.
    assert!(shown("get")[0].starts_with("Unknown"), "{:?}", shown("get"));
    assert_eq!(shown("to_map"), ["Param { index: 0, name: \"flat\" }"]);
    assert!(shown("other_map")[0].starts_with("Unknown"));
    let fields = shown("fields");
    assert!(fields[0].starts_with("OneOf { alts: [Map { pairs: [(Int { value: 0 }"));
    assert!(
        fields[0].contains("Call { path: [\"to_map\"], args: [Op { op: Field(\"1\"), args: [Call { path: [\"direct\"]"),
        "{fields:?}"
    );
    assert_eq!(
        shown("dispatch"),
        ["Op { op: Dispatch, args: [Unknown { label: \"mod\" }, \
          Param { index: 1, name: \"fun\" }, List { items: [Param { index: 0, name: \"b\" }], \
          tail: [Param { index: 2, name: \"args\" }] }] }"]
    );
}

/// `apply(Mod, :fun, [a, b])` with its module, function and list written
/// in place is the call `Mod.fun(a, b)` for every reader of a call: a call
/// of the code base, a client's send, where a command list goes, a field
/// read, a value and a string builder. Any other `apply` stays a dispatch
/// (above).
#[test]
fn apply_with_its_callee_written_is_that_call() {
    let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace
  def run(conn, q, id, cmd) do
    row = apply(Keyspace, :job_key, [q, id])
    apply(Redix, :command, [conn, ["HSET", row, "state", "pending"]])
    apply(EchoMQ.Store, :q, [conn, ["ZADD", "emq:{#{q}}:pending", 0, id]])
    apply(Redix, :command, [conn, cmd])
    apply(:eredis, :q, [conn, cmd])
    {:ok, fields} = apply(Redix, :command, [conn, ["HGETALL", row]])
    apply(Map, :get, [Enum.into(Enum.chunk_every(fields, 2), %{}, fn [k, v] -> {k, v} end), "payload"])
    apply(__MODULE__, :local, [q])
  end
  def key(q), do: apply(IO, :iodata_to_binary, [["emq:{", q, "}:x"]])
  def local(q), do: q
  def open(mod, conn, args), do: apply(Keyspace, :job_key, [conn | args])
end
"##;
    let f = facts(src);
    assert_eq!(
        call_paths(&f),
        vec![
            path(&["EchoMQ", "Keyspace", "job_key"]),
            path(&["EchoMQ", "Store", "q"]),
            path(&["EchoMQ", "Jobs", "local"]),
        ]
    );
    assert!(matches!(
        f.calls[0].args[..],
        [Value::Param { index: 1, .. }, Value::Param { index: 2, .. }]
    ));
    // `Redix.command(conn, cmd)` and `:eredis.q(conn, cmd)`: the sends of a
    // parameter.
    sent_as_written(&f, 2);
    // The field read of the hash's reply.
    let read: Vec<String> = f
        .field_reads
        .iter()
        .map(|r| format!("{:?}", r.field))
        .collect();
    assert_eq!(read.len(), 1, "{read:?}");
    assert!(read[0].contains("payload"), "{read:?}");
    // `IO.iodata_to_binary` through `apply`: one template, not its pieces.
    let templates: Vec<String> = f.templates.iter().map(|t| t.to_string()).collect();
    assert_eq!(templates, ["emq:{<q>}:pending", "emq:{<q>}:x"]);
    // A list with a tail: the arguments are not written, no call is read.
    assert_eq!(returns(&f, "open").len(), 1);
    assert!(matches!(returns(&f, "open")[0], Value::Op { .. }));
}

/// `f.(a, b)` where `f` holds `&Mod.fun/2` (bound in the same body, or
/// written in place) is the call `Mod.fun(a, b)`; a name bound again to
/// something else, or a call with another count of arguments, is not.
#[test]
fn a_captured_function_called_is_that_call() {
    let src = r##"defmodule EchoMQ.Jobs do
  alias EchoMQ.Keyspace
  def run(conn, q, id, cmd) do
    key = &Keyspace.job_key/2
    send_it = &Redix.command/2
    row = key.(q, id)
    send_it.(conn, ["HSET", row, "state", "pending"])
    (&EchoMQ.Store.q/2).(conn, ["ZADD", "k", 0, id])
    send_it.(conn, cmd)
    send_it.(conn)
    key = fn a, b -> a <> b end
    key.(q, id)
  end
end
"##;
    let f = facts(src);
    assert_eq!(
        call_paths(&f),
        vec![
            path(&["EchoMQ", "Keyspace", "job_key"]),
            path(&["EchoMQ", "Store", "q"]),
        ]
    );
    sent_as_written(&f, 1);
}

fn call_paths(f: &FileFacts) -> Vec<Vec<String>> {
    f.calls.iter().map(|c| c.path.clone()).collect()
}

/// What `run` of the two cases above sends, as the same calls written
/// directly would: `HSET` to the client, its key the key builder's call;
/// `ZADD` handed to `EchoMQ.Store.q` as its second of two arguments; and
/// `sends` sends of the parameter `cmd`.
fn sent_as_written(f: &FileFacts, sends: usize) {
    let hset = &f.commands[0];
    assert_eq!(hset.name, "HSET");
    assert!(matches!(hset.sink, crate::facts::Sink::Client));
    assert!(
        matches!(&hset.args[0], Value::Call { path: p, .. } if p == &path(&["EchoMQ", "Keyspace", "job_key"]))
    );
    assert_eq!(
        f.commands[1].sink,
        crate::facts::Sink::Call {
            path: path(&["EchoMQ", "Store", "q"]),
            arg: 1,
            arity: 2,
        }
    );
    let sent: Vec<String> = f.sends.iter().map(|s| format!("{:?}", s.command)).collect();
    assert_eq!(sent.len(), sends, "{sent:?}");
    assert!(
        sent.iter().all(|s| s.starts_with("Param { index: 3")),
        "{sent:?}"
    );
}
