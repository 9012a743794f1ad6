defmodule B do
  def push(conn, q, id), do: Redix.command(conn, ["RPUSH", "bull:#{q}:wait", id])
  def drop(conn, q), do: Redix.command(conn, ["DEL", "bull:#{q}:wait"])
end
