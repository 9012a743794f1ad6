defmodule A do
  def save(conn, q, id, p), do: Redix.command(conn, ["HSET", "tq:{#{q}}:task:#{id}", "state", "new", "payload", p])
  def load(conn, q, id), do: Redix.command(conn, ["HMGET", "tq:{#{q}}:task:#{id}", "state", "payload"])
end
