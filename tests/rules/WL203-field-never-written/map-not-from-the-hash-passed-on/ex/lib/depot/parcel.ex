defmodule Depot.Parcel do
  defstruct [:id, :label, :body, :sent]

  def from_fields(id, fields) do
    %__MODULE__{
      id: id,
      label: Map.get(fields, "label"),
      body: fields["payload"],
      sent: sent_at(fields)
    }
  end

  defp sent_at(%{"sent" => s}), do: s
end
