defmodule Depot.Store do
  @store File.read!("../scripts/store.lua")

  def row(q, id), do: "dp:{#{q}}:parcel:#{id}"

  def put(conn, q, id, label, body, sent) do
    Redix.command(conn, ["EVAL", @store, 1, row(q, id), label, body, sent])
  end

  def fetch(conn, q, id) do
    {:ok, fields} = Redix.command(conn, ["HGETALL", row(q, id)])
    Depot.Parcel.from_fields(id, fields |> Enum.chunk_every(2) |> Map.new(fn [k, v] -> {k, v} end))
  end
end
