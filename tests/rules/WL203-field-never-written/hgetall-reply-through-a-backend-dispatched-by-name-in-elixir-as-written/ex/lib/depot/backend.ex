defmodule Depot.Backend do
  @moduledoc "Storage behind the depot; the struct's module does the work."

  @callback parcel_fields(struct(), String.t(), String.t()) :: {:ok, map() | nil} | {:error, term()}

  def parcel_fields(b, q, id), do: dispatch(b, :parcel_fields, [q, id])

  defp dispatch(%mod{} = backend, fun, args), do: apply(mod, fun, [backend | args])
end
