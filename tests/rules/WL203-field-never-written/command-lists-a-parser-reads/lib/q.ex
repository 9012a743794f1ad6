defmodule Q do
  def save(conn, q, id, s), do: Redix.command(conn, ["HSET", "tq:{#{q}}:task:#{id}", "status", s])
  def key_of([_name, key | _]), do: {:ok, key}
end
