defmodule T do
  @table %{pair: {"""
  redis.call("SET", KEYS[1], ARGV[1])
  redis.call("SET", KEYS[2], ARGV[1])
  """, 2}}

  def get(name), do: Map.get(@table, name)

  def run_raw(conn, body, keys, args) do
    Redix.command(conn, ["EVAL", body, length(keys)] ++ keys ++ args)
  end

  def set_pair(conn, q) do
    {body, _} = get(:pair)
    keys = ["p:{#{q}}:a", "p:{#{q}}:b"]
    run_raw(conn, body, keys, ["v"])
  end
end
