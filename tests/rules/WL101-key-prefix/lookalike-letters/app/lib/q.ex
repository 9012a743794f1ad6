defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "еmq:{#{q}}:job:#{id}", "state"])
  def attempts(conn, q, id), do: Redix.command(conn, ["HGET", "em­q:{#{q}}:job:#{id}", "attempts"])
end
