defmodule Q.Runner do
  def run(conn, body, keys, args) do
    Redix.command(conn, ["EVAL", body, length(keys)] ++ keys ++ args)
  end
end
