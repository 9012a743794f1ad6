defmodule Q do
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "emq:{#{q}}:job:#{id}", "state"])
end
