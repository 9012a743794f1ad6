defmodule Q do
  def backlog(conn, q), do: Redix.command(conn, ["ZCARD", "emq:{#{q}}:pending"])
end
