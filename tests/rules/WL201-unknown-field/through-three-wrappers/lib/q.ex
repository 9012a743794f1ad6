defmodule Q do
  def run(conn, cmd), do: Redix.command(conn, cmd)
  def via(conn, cmd), do: run(conn, cmd)
  def via_again(conn, cmd), do: via(conn, cmd)
  def go(conn, id), do: via_again(conn, ["HSET", "emq:{q}:job:" <> id, "bogus", "1"])
end
