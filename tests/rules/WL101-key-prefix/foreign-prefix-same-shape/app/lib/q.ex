defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "jobs:{#{q}}:job:#{id}", "state"])
end
