defmodule Q do
  @obliterate """
local active = redis.call("LLEN", KEYS[1])
if active > 0 and ARGV[2] == "" then
  return -2
end
redis.call("DEL", KEYS[1], ARGV[2])
return tonumber(ARGV[1]) - 1
  """
  def obliterate(conn, count, force) do
    Redix.command(conn, ["EVAL", @obliterate, 1, "q:active", count, force_flag(force)])
  end

  defp force_flag(true), do: "force"
  defp force_flag(false), do: ""
end
