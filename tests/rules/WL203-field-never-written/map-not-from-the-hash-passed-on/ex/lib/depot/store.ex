defmodule Depot.Store do
  @store File.read!("../scripts/store.lua")

  def row(q, id), do: "dp:{#{q}}:parcel:#{id}"

  def put(conn, q, id, label, body, sent) do
    Redix.command(conn, ["EVAL", @store, 1, row(q, id), label, body, sent])
  end

  def fetch(conn, q, id) do
    {:ok, blob} = Redix.command(conn, ["GET", row(q, id) <> ":copy"])
    Depot.Parcel.from_fields(id, Jason.decode!(blob))
  end
end
