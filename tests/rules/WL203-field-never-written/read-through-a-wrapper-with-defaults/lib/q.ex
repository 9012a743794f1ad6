defmodule Q do
  def q(conn, command, opts \\ []), do: Redix.command(conn, command, opts)
  def save(conn, q, id, s), do: q(conn, ["HSET", "tq:{#{q}}:task:#{id}", "status", s])
  def owner(conn, q, id), do: q(conn, ["HGET", "tq:{#{q}}:task:#{id}", "owner"])
end
