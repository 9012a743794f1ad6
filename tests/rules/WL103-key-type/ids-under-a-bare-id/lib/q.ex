defmodule Q do
  # Words under the job's `<id>` that are no near miss of a type: a job
  # whose id is written in the code, a numeric id, and the types themselves.
  def push(conn, q, id) do
    Redix.command(conn, ["LPUSH", "jq:#{q}:wait", id])
    Redix.command(conn, ["HGET", "jq:#{q}:nightly-report", "data"])
    Redix.command(conn, ["HGET", "jq:#{q}:42", "data"])
    Redix.command(conn, ["HGET", "jq:#{q}:w:worker", "data"])
    Redix.command(conn, ["HGET", "jq:#{q}:metadata", "data"])
    Redix.command(conn, ["HGET", "jq:#{q}:#{id}", "data"])
  end
end
