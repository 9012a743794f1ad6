defmodule Q do
  @is_full """
  -- KEYS[1] meta key
  -- KEYS[2] active key
  local limit = redis.call('HGET', KEYS[1], 'concurrency')
  return redis.call('LLEN', KEYS[2]) >= tonumber(limit)
  """
  def meta(q), do: "tq:{#{q}}:meta"
  def limiter(q), do: "tq:{#{q}}:limiter"
  def active(q), do: "tq:{#{q}}:active"
  def full?(conn, q), do: Redix.command(conn, ["EVAL", @is_full, 2, limiter(q), active(q)])
  def rate(conn, q), do: Redix.command(conn, ["HGET", meta(q), "rate"])
end
