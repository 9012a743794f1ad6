defmodule Q do
  @schedule """
  -- KEYS[1] producer key
  -- KEYS[2] ns:qname (sorted set key)
  local sourceKey = KEYS[3]
  redis.call('HSET', KEYS[1], 'next', ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
  return redis.call('LPUSH', sourceKey, ARGV[2])
  """
  def schedule(conn, q, pid, id, at) do
    Redix.command(conn, ["EVAL", @schedule, 3, "tq:{#{q}}:job:#{pid}", "tq:{#{q}}:delayed", "dest", at, id])
  end
end
