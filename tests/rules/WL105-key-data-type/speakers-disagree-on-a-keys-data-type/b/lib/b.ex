defmodule B do
  # This port keeps the wait key as a sorted set: WRONGTYPE against the others.
  def push(conn, q, id), do: Redix.command(conn, ["ZADD", "bull:#{q}:wait", "0", id])
  def drop(conn, q), do: Redix.command(conn, ["DEL", "bull:#{q}:wait"])
end
