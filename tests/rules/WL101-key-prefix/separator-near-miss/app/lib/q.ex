defmodule Q do
  @prefix "emq-"
  def job_key(q, id), do: @prefix <> "{" <> q <> "}:job:" <> id
  def state(conn, q, id), do: Redix.command(conn, ["HGET", job_key(q, id), "state"])
  def pending(conn, q), do: Redix.command(conn, ["ZCARD", "emq;{#{q}}:pending"])
end
