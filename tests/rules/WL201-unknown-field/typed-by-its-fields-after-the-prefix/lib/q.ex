defmodule Q do
  # The keyspace's prefix, then holes: the fields tell the job hash.
  def save(conn, q, id) do
    Redix.command(conn, ["HSET", "jq:#{q}:#{id}", "name", "x", "data", "{}", "opts", "{}", "timestmp", "1"])
  end
end
