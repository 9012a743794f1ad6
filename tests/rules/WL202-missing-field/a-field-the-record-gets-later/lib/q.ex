defmodule Q do
  @enqueue """
  redis.call('HSET', KEYS[1], 'state', 'pending', 'payload', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """
  def enqueue(conn, q, id, payload) do
    Redix.command(conn, ["EVAL", @enqueue, 2, "emq:{#{q}}:job:#{id}", "emq:{#{q}}:pending", id, payload])
  end
end
