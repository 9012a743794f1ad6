defmodule Q do
  # The header names KEYS[2] in the words of the contract's compound type
  # name: a description, which says nothing against the `data` key passed.
  @metrics """
  --[[
    KEYS[1] 'metrics' key
    KEYS[2] 'metrics data' key
  ]]
  local n = redis.call('HGET', KEYS[1], 'count')
  return {n, redis.call('LRANGE', KEYS[2], 0, -1)}
  """
  def metrics(conn, q, state) do
    Redix.command(conn, ["EVAL", @metrics, 2, "emq:{#{q}}:metrics:#{state}", "emq:{#{q}}:metrics:#{state}:data"])
  end
end
