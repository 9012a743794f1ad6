//! Hover in `wirelint server` on what a newcomer points at: a key
//! builder's definition (Elixir and Rust) and a call of it, and a field
//! literal a speaker reads: the key's template, and who writes and reads
//! the key's record or the field, with the places.

mod common;

use serde_json::{json, Value};

use common::lsp::{uri, Client};

const TASK_ROW: &str = "**key** `tq:{<*>}:task:<*>`\n\n\
- `(shared scripts)`: unused\n- `tq_admin`: agrees\n- `tq_dash`: agrees\n- `tq_ex`: agrees\n- `tq_rs`: agrees\n\n\
written by: `(shared scripts)` (scripts/claim.lua:7, scripts/claim.lua:8), `tq_admin` (tq_admin/src/main.rs:14), `tq_ex` (tq_ex/lib/tq.ex:10, tq_ex/lib/tq.ex:24), `tq_rs` (tq_rs/src/lib.rs:24)\n\n\
read by: `tq_admin` (tq_admin/src/main.rs:10), `tq_dash` (tq_dash/lib/dash.ex:5), `tq_ex` (tq_ex/lib/tq.ex:16, tq_ex/lib/tq.ex:19), `tq_rs` (tq_rs/src/lib.rs:38)";

#[test]
fn a_hover_on_a_key_builder_or_a_field_says_who_writes_and_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::copy_tree(&common::repo().join("fixtures/four-speakers"), &root);
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let tq = root.join("tq_ex/lib/tq.ex");
    let rs = root.join("tq_rs/src/lib.rs");
    let value = |r: Value| r["result"]["contents"]["value"].clone();

    // The definition of a builder, in Elixir and in Rust.
    assert_eq!(
        value(c.hover(&tq, 3, "task_key")),
        format!("`task_key/2` builds the key `tq:{{<queue>}}:task:<id>`\n\n{TASK_ROW}")
    );
    assert_eq!(
        value(c.hover(&rs, 6, "task_key")),
        format!("`task_key/2` builds the key `tq:{{<queue>}}:task:<id>`\n\n{TASK_ROW}")
    );
    // A call of it: the key's row.
    assert_eq!(value(c.hover(&tq, 9, "task_key")), TASK_ROW);
    // A function that sends keys builds none: no hover on its name.
    assert_eq!(c.hover(&tq, 7, "push")["result"], Value::Null);

    // A field literal the Rust peer only reads: its writer is the script.
    assert_eq!(
        value(c.hover(&rs, 37, "\"pb\"")),
        "**field** `tq:{<*>}:task:<*> pb`\n\n\
         - `(shared scripts)`: agrees\n- `tq_admin`: unused\n- `tq_dash`: agrees\n- `tq_ex`: agrees\n- `tq_rs`: agrees\n\n\
         written by: `(shared scripts)` (scripts/claim.lua:7)\n\n\
         read by: `tq_dash` (tq_dash/lib/dash.ex:5), `tq_ex` (tq_ex/lib/tq.ex:16), `tq_rs` (tq_rs/src/lib.rs:38)"
    );

    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A key whose namespace is a value (`"#{prefix}:#{name}"`, as BullMQ's
/// `Keys.job/2` builds it) has no row of the matrix: a hover on its
/// builder, on a call of it, or on a field literal sent with it still
/// says who writes and reads it (a shared script it is passed to writes
/// it), and which scripts take it in which slot. A builder that adds to
/// it (`lock/2`) builds another key.
#[test]
fn a_hover_on_a_builder_of_a_key_without_a_row_says_who_uses_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "wirelint.toml", "contract = false\n");
    write(
        &root,
        "scripts/touch-1.lua",
        "-- KEYS[1] the job row\nredis.call('HSET', KEYS[1], 'state', ARGV[1])\nreturn 1\n",
    );
    write(
        &root,
        "ex/mix.exs",
        "defmodule Q.MixProject do\n  use Mix.Project\n  def project, do: [app: :q, version: \"0.1.0\"]\nend\n",
    );
    write(
        &root,
        "ex/lib/keys.ex",
        r##"defmodule Q.Keys do
  def base(%{prefix: prefix, name: name}), do: "#{prefix}:#{name}"

  def job(ctx, id), do: "#{base(ctx)}:#{id}"

  def lock(ctx, id), do: "#{job(ctx, id)}:lock"
end
"##,
    );
    write(
        &root,
        "ex/lib/jobs.ex",
        r#"defmodule Q.Jobs do
  alias Q.Keys

  @touch File.read!(Path.join(__DIR__, "../../scripts/touch-1.lua"))

  def touch(conn, ctx, id, state) do
    Redix.command(conn, ["EVAL", @touch, 1, Keys.job(ctx, id), state])
  end

  def get(conn, ctx, id) do
    {:ok, row} = Redix.command(conn, ["HGETALL", Keys.job(ctx, id)])
    Map.get(row, "state")
  end

  def state(conn, ctx, id) do
    Redix.command(conn, ["HGET", Keys.job(ctx, id), "state"])
  end

  def lock(conn, ctx, id) do
    Redix.command(conn, ["GET", Keys.lock(ctx, id)])
  end
end
"#,
    );
    // A test's read is no speaker's use, as in the matrix.
    write(
        &root,
        "ex/test/jobs_test.exs",
        "defmodule Q.JobsTest do\n  use ExUnit.Case\n\n  def read(conn, ctx, id), do: Redix.command(conn, [\"HGET\", Q.Keys.job(ctx, id), \"state\"])\nend\n",
    );
    let mut c = Client::start(&root);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let keys = root.join("ex/lib/keys.ex");
    let jobs = root.join("ex/lib/jobs.ex");
    let value = |r: Value| r["result"]["contents"]["value"].clone();
    let uses = "written by: `(shared scripts)` (scripts/touch-1.lua:2)\n\n\
                read by: `ex` (ex/lib/jobs.ex:11, ex/lib/jobs.ex:16)\n\n\
                passed to `touch` as KEYS[1] by `ex` (ex/lib/jobs.ex:7)";
    assert_eq!(
        value(c.hover(&keys, 3, "job")),
        format!("`job/2` builds the key `<base>:<id>`\n\n{uses}")
    );
    assert_eq!(
        value(c.hover(&jobs, 10, "job")),
        format!("**key** `<prefix>:<name>:<id>`\n\n{uses}")
    );
    assert_eq!(
        value(c.hover(&jobs, 15, "\"state\"")),
        "**field** `state` of the key `<prefix>:<name>:<id>`\n\n\
         written by: `(shared scripts)` (scripts/touch-1.lua:2)\n\n\
         read by: `ex` (ex/lib/jobs.ex:12, ex/lib/jobs.ex:16)"
    );
    // The same from the read of the map the whole hash filled.
    assert_eq!(
        value(c.hover(&jobs, 11, "\"state\"")),
        value(c.hover(&jobs, 15, "\"state\""))
    );
    assert_eq!(
        value(c.hover(&keys, 5, "lock")),
        "`lock/2` builds the key `<job>:lock`\n\nread by: `ex` (ex/lib/jobs.ex:20)"
    );
    // `base/1` builds no key of its own: every use adds to it.
    assert_eq!(c.hover(&keys, 1, "base")["result"], Value::Null);

    shut_down(c);
}

/// `shutdown`, then `exit`: the server ends with 0.
fn shut_down(mut c: Client) {
    let r = c.request("shutdown", json!(null));
    assert_eq!(r["result"], Value::Null);
    c.notify("exit", json!(null));
    assert_eq!(c.child.wait().unwrap().code(), Some(0));
}
