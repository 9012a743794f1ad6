defmodule Q do
  @touch File.read!("../scripts/touch.lua")
  def touch(conn, q, id, at), do: Redix.command(conn, ["EVAL", @touch, 1, "tq:{#{q}}:task:#{id}", at])
  def again(conn, q, id, at), do: Redix.command(conn, ["EVAL", @touch, 1, "tq:{#{q}}:task:#{id}", at])
end
