defmodule Q do
  def claim(conn, q, w, id), do: Redix.command(conn, ["LPUSH", "bq:{#{q}}:inflight:#{w}", id])
  def running(conn, q, w), do: Redix.command(conn, ["LLEN", "stats:{#{q}}:inflight"])
end
