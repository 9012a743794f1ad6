defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "other:{#{q}}:pending", "state"])
end
