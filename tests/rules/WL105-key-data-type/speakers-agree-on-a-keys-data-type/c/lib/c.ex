defmodule C do
  def take(conn, q), do: Redix.command(conn, ["RPOP", "bull:#{q}:wait"])
end
