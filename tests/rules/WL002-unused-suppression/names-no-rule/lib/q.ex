defmodule Q do
  def save(conn, q, id, payload) do
    # wirelint: allow(WL999)
    Redix.command(conn, ["HSET", "emq:{#{q}}:job:#{id}", "state", "pending", "payload", payload])
  end
end
