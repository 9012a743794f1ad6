defmodule A do
  @script """
  return redis.call('INCR', KEYS[1])
  """
  def touch(conn, key), do: Redix.command(conn, ["EVAL", @script, 1, key])
end
