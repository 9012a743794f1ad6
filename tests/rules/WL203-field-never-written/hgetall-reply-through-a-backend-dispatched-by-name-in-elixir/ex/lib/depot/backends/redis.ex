defmodule Depot.Backends.Redis do
  @behaviour Depot.Backend
  defstruct [:conn]

  @store File.read!("../scripts/store.lua")

  def row(q, id), do: "dp:{#{q}}:parcel:#{id}"

  def put(%__MODULE__{conn: conn}, q, id, label, body, sent) do
    Redix.command(conn, ["EVAL", @store, 1, row(q, id), label, body, sent])
  end

  @impl true
  def parcel_fields(%__MODULE__{conn: conn}, q, id) do
    case Depot.Connection.command(conn, ["HGETALL", row(q, id)]) do
      {:ok, []} -> {:ok, nil}
      {:ok, flat} -> {:ok, to_map(flat)}
      {:error, _} = error -> error
    end
  end

  defp to_map(flat) do
    flat
    |> Enum.chunk_every(2)
    |> Enum.into(%{}, fn [k, v] -> {k, v} end)
  end
end
