defmodule Q do
  def push(conn, q, id, type) do
    Redix.command(conn, ["ZADD", "emq:{#{q}}:pending", "0", id])
    Redix.command(conn, ["HSET", "emq:{#{q}}:job:#{id}", "state", "pending"])
    # Commands of any data type.
    Redix.command(conn, ["DEL", "emq:{#{q}}:job:#{id}"])
    Redix.command(conn, ["EXPIRE", "emq:{#{q}}:pending", "60"])
    # A key that names no type.
    Redix.command(conn, ["LPUSH", "emq:{#{q}}:#{type}", id])
  end
end
