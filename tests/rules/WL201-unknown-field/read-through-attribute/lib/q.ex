defmodule Q do
  @status "status"

  def state(conn, q, id) do
    {:ok, row} = Redix.command(conn, ["HGETALL", "emq:{#{q}}:job:#{id}"])
    Map.get(row, @status)
  end
end
