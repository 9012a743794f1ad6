defmodule Q do
  def config(conn, q), do: Redix.command(conn, ["GET", "emq_settings:" <> q])
  def other(conn, q), do: Redix.command(conn, ["GET", "emq-{#{q}}:not-a-type"])
  def state(conn, q, id), do: Redix.command(conn, ["HGET", "emq:{#{q}}:job:#{id}", "state"])
end
