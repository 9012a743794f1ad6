defmodule Depot.Store do
  @store File.read!("../scripts/store.lua")

  def row(q, id), do: "dp:{#{q}}:parcel:#{id}"

  def put(conn, q, id, label, body, sent) do
    Redix.command(conn, ["EVAL", @store, 1, row(q, id), label, body, sent])
  end

  def load(conn, q, id) do
    Redix.command!(conn, ["HGETALL", row(q, id)])
    |> Enum.chunk_every(2)
    |> Map.new(fn [k, v] -> {k, v} end)
  end

  def status(conn, q, id), do: Redix.command(conn, ["HGETALL", row(q, id)])
end
