defmodule Q do
  def save(conn, q, id, data) do
    Redix.command(conn, ["HSET", "emq:{#{q}}:job:#{id}", "state", "pending", "payloud", data])
  end
end
