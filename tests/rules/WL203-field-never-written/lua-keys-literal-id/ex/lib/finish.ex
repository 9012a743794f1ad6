defmodule Finish do
  @finish File.read!("../scripts/finish.lua")

  def row(q, id), do: "st:{#{q}}:row:#{id}"

  def finish(conn, q, id, at), do: Redix.command(conn, ["EVAL", @finish, 1, row(q, id), at])

  def state(conn, q, id), do: Redix.command(conn, ["HGET", row(q, id), "state"])
end
