defmodule Q do
  def save(conn, q, id, s), do: Redix.command(conn, ["HSET", "tq:{#{q}}:task:#{id}", "status", s, "pb", "w1"])
  def owner(conn, q, id), do: Redix.command(conn, ["HGET", "tq:{#{q}}:task:#{id}", "pb"])
end
