defmodule A do
  def push(conn, q, id), do: Redix.command(conn, ["LPUSH", "bull:#{q}:wait", id])
end
