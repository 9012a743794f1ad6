defmodule Q do
  @touch File.read!("../scripts/touch.lua")
  def touch(conn, at), do: Redix.command(conn, ["EVAL", @touch, 1, "tq:test_queue:test_node", at])
  def again(conn, at), do: Redix.command(conn, ["EVAL", @touch, 1, "tq:test_queue:test_node", at])
  def other(conn, at), do: Redix.command(conn, ["EVAL", @touch, 1, "tq:queue_name:node_id", at])
end
