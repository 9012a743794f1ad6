defmodule Q do
  @promote """
  -- KEYS[1] 'delayed'
  -- KEYS[2] where the job goes next
  -- KEYS[3] 'wait'
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('LPUSH', KEYS[3], ARGV[1])
  return redis.call('PUBLISH', KEYS[2], ARGV[1])
  """
  def promote(conn, q, id) do
    Redix.command(conn, ["EVAL", @promote, 3, "tq:{#{q}}:delayed", "tq:{#{q}}:wait", "tq:{#{q}}:events", id])
  end
end
