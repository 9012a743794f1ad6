defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "emk:{#{q}}:job:#{id}", "state"])
end
