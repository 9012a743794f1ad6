defmodule Q do
  def save(conn, q, id, payload) do
    # wirelint: allow(WL201)
    Redix.command(conn, ["HSET", "emq:{#{q}}:job:#{id}", "state", "pending", "payload", payload])
  end
end
