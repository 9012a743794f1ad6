defmodule Jobs do
  def fetch(conn, prefix, queue, id) do
    {:ok, list} = Redix.command(conn, ["HGETALL", "#{prefix}:#{queue}:#{id}"])
    data = list |> Enum.chunk_every(2) |> Map.new(fn [k, v] -> {k, v} end)

    %{
      name: Map.get(data, "name"),
      data: Map.get(data, "data"),
      opts: Map.get(data, "opts"),
      processed_by: Map.get(data, "processedBy")
    }
  end
end
