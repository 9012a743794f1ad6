defmodule Depot.Parcel do
  defstruct [:id, :label, :body, :sent]

  def fetch(backend, q, id) do
    case Depot.Backend.parcel_fields(backend, q, id) do
      {:ok, nil} -> {:ok, nil}
      {:ok, fields} -> {:ok, from_fields(id, fields)}
      {:error, _} = error -> error
    end
  end

  def from_fields(id, fields) do
    %__MODULE__{
      id: id,
      label: Map.get(fields, "label"),
      body: Map.get(fields, "body"),
      sent: Map.get(fields, "sent")
    }
  end
end
