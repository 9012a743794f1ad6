defmodule Q do
  @claim File.read!("priv/claim.lua")
  def claim(conn, q, id, w), do: Redix.command(conn, ["EVAL", @claim, 1, "tq:{#{q}}:task:#{id}", w])
  def save(conn, q, id), do: Redix.command(conn, ["HSET", "tq:{#{q}}:task:#{id}", "status", "new"])
  def owner(conn, q, id), do: Redix.command(conn, ["HGET", "tq:{#{q}}:task:#{id}", "owner"])
end
