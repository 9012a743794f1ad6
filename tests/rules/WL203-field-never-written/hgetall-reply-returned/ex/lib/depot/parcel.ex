defmodule Depot.Parcel do
  def get(conn, q, id) do
    fields = Depot.Store.load(conn, q, id)
    %{label: fields["label"], body: Map.get(fields, "payload"), sent: fields["sent"]}
  end

  def status(conn, q, id) do
    # A `{:ok, reply}` tuple, not the reply: its "payload" is no field.
    reply = Depot.Store.status(conn, q, id)
    Map.get(reply, "payload")
  end
end
