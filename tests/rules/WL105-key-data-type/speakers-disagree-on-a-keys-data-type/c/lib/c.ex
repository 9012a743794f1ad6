defmodule C do
  def take(conn, q), do: Redix.command(conn, ["RPOP", "bull:#{q}:wait"])
  # One speaker's own keys of two types are not between speakers.
  def mark(conn, q), do: Redix.command(conn, ["SET", "bull:#{q}:stamp", "1"])
  def bump(conn, q), do: Redix.command(conn, ["HINCRBY", "bull:#{q}:stamp", "n", "1"])
end
