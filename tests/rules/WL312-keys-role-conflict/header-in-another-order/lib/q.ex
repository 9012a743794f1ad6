defmodule Q do
  # The port's own copy of enqueue keeps its keys in its own order.
  @enqueue """
  -- KEYS[1] 'pending'
  -- KEYS[2] 'job'
  redis.call('HSET', KEYS[2], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
  redis.call('ZADD', KEYS[1], 0, ARGV[1])
  """
  def enqueue(conn, q, id, payload) do
    Redix.command(conn, ["EVAL", @enqueue, 2, "emq:{#{q}}:pending", "emq:{#{q}}:job:#{id}", id, payload])
  end
end
