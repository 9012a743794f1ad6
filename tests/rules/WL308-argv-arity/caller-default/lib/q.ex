defmodule Q do
  @enqueue """
  local function hset(key, ...)
    return redis.call('HSET', key, ...)
  end
  local payload = ARGV[2]
  if payload == nil then
    payload = '{}'
  end
  hset(KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', payload)
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """
  def enqueue(conn, q, id) do
    Redix.command(conn, ["EVAL", @enqueue, 2, "emq:{#{q}}:job:#{id}", "emq:{#{q}}:pending", id])
  end
end
