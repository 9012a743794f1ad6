defmodule Q do
  alias Q.Runner

  @enqueue """
  redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """

  defdelegate eval(conn, body, keys, args), to: Runner, as: :run

  def enqueue(conn, q, id) do
    eval(conn, @enqueue, ["emq:{#{q}}:job:#{id}", "emq:{#{q}}:pending"], [id, "p"])
  end
end
