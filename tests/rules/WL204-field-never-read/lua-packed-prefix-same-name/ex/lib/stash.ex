defmodule Stash do
  @stash File.read!("../scripts/stash.lua")

  def row_prefix(q), do: "st:{#{q}}:row:"

  def stash(conn, q, id, kind) do
    packed = Msgpax.pack!([row_prefix(q), id, kind], iodata: false)
    Redix.command(conn, ["EVAL", @stash, 1, "st:{#{q}}:queue", packed])
  end

  def field(conn, q, id), do: Redix.command(conn, ["HGET", row_prefix(q) <> id, "state"])
end
