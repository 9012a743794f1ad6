defmodule A do
  @touch """
  redis.call('HSET', KEYS[1], 'seen', ARGV[1])
  return "ok"
  """
  def touch(conn, id, t), do: Redix.command(conn, ["EVAL", @touch, 1, "tq:task:#{id}", t])
end
