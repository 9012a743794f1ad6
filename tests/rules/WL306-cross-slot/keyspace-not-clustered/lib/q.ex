defmodule Q do
  @move """
  return redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
  """
  def move(conn, q), do: Redix.command(conn, ["EVAL", @move, 2, "bq:{#{q}}:wait", "bq:#{q}:active"])
end
