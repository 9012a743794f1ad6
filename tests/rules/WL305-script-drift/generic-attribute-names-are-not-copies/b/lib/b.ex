defmodule B do
  @script """
  return redis.call('DEL', KEYS[1])
  """
  def forget(conn, key), do: Redix.command(conn, ["EVAL", @script, 1, key])
end
