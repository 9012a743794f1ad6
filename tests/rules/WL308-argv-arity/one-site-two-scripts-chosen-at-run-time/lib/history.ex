defmodule History do
  @as_list """
  redis.call('LPUSH', KEYS[1], ARGV[1])
  redis.call('LTRIM', KEYS[1], 0, ARGV[2])
  """
  @as_stream """
  redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'd', ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  """

  # Both scripts take one argument list; the list reads the first two.
  def add(conn, key, data, size, ttl, lists?) do
    script = if lists?, do: @as_list, else: @as_stream
    Redix.command(conn, ["EVAL", script, 1, key, data, size, ttl])
  end
end
