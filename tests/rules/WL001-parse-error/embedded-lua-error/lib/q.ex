defmodule Q do
  @touch """
  redis.call('HSET', KEYS[1], 'state', 'pending'
  """
  def touch(conn, q, id), do: Redix.command(conn, ["EVAL", @touch, 1, "emq:{#{q}}:job:#{id}"])
end
