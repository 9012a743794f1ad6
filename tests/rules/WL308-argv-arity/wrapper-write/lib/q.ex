defmodule Q do
  @enqueue """
  local function hset(key, ...)
    return redis.call('HSET', key, ...)
  end
  local function score(key, member)
    redis.call('ZADD', key, 0, member)
  end
  hset(KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
  score(KEYS[2], ARGV[1])
  """
  def enqueue(conn, q, id) do
    Redix.command(conn, ["EVAL", @enqueue, 2, "emq:{#{q}}:job:#{id}", "emq:{#{q}}:pending", id])
  end
end
