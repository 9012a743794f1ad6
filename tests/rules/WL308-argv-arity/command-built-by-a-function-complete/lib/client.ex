defmodule Q.Client do
  @evalsha "EVALSHA"
  @eval "EVAL"
  @hset "HSET"

  def hset(key, field, value), do: query([@hset, key, field, value])
  def evalsha_command(args), do: [@evalsha] ++ args
  def eval_command(args), do: [@eval] ++ args
  def query(command), do: Redix.command(:q_redix, command, timeout: 5000)
end
