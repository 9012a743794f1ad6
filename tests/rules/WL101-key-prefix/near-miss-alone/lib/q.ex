defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "exq:{#{q}}:job:#{id}", "state"])
end
