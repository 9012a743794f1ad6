defmodule Q do
  def push(conn, q, id) do
    Redix.command(conn, ["LPUSH", "emq:{#{q}}:pending", id])
    Redix.command(conn, ["GET", "emq:{#{q}}:job:#{id}"])
  end
end
