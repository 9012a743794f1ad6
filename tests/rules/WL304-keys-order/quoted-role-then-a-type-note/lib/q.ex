defmodule Q do
  @check """
  --[[
    KEYS[1] 'meta', (KEY)
    KEYS[2] 'stalled-check', (KEY)
  ]]
  local paused = redis.call('HGET', KEYS[1], 'paused')
  return redis.call('SET', KEYS[2], paused)
  """
  def meta(q), do: "tq:{#{q}}:meta"
  def stalled_check(q), do: "tq:{#{q}}:stalled-check"
  def check(conn, q), do: Redix.command(conn, ["EVAL", @check, 2, stalled_check(q), meta(q)])
  def rate(conn, q), do: Redix.command(conn, ["HGET", meta(q), "paused"])
  def stall(conn, q), do: Redix.command(conn, ["SET", stalled_check(q), "1"])
end
