defmodule Q do
  @enqueue """
  redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """
  defp run(conn, keys, args) do
    encoded = Enum.map(args, &to_string/1)
    Redix.command(conn, ["EVAL", @enqueue, length(keys) | keys ++ encoded])
  end

  def enqueue(conn, q, id) do
    run(conn, ["emq:{#{q}}:job:#{id}", "emq:{#{q}}:pending"], [id])
  end
end
