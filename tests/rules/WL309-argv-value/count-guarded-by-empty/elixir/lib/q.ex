defmodule Q do
  @add_log """
local count = redis.call("RPUSH", KEYS[1], ARGV[1])
if ARGV[2] ~= '' then
  local keep = tonumber(ARGV[2])
  redis.call("LTRIM", KEYS[1], -keep, -1)
end
return count
  """
  def add_log(conn, line) do
    Redix.command(conn, ["EVAL", @add_log, 1, "q:logs", line, ""])
  end
end
