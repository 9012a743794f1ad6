defmodule Q do
  @stage """
  redis.call('HSET', KEYS[1], 'state', 'staged')
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  """
  def stage(conn, q, id) do
    Redix.command(conn, ["EVAL", @stage, 2, "emq:{#{q}}:job:#{id}", "emq:{#{q}}:aggregation_sets", id])
  end
end
