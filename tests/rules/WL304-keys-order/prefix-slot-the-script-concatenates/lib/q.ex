defmodule Q do
  @obliterate """
  -- KEYS[1] meta
  -- KEYS[2] base
  local baseKey = KEYS[2]
  redis.call('DEL', baseKey .. 'wait', baseKey .. 'active')
  return redis.call('DEL', KEYS[1])
  """
  def obliterate(conn, q) do
    Redix.command(conn, ["EVAL", @obliterate, 2, "tq:{#{q}}:meta", "tq:{#{q}}:"])
  end
end
