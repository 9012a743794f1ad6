defmodule Q do
  @claim """
  local function task_key(id)
    return ARGV[1] .. id
  end
  redis.call('HSET', task_key(ARGV[2]), 'owner', ARGV[3])
  """
  def claim(conn, q, id, w), do: Redix.command(conn, ["EVAL", @claim, 0, "tq:{#{q}}:task:", id, w])
  def save(conn, q, id), do: Redix.command(conn, ["HSET", "tq:{#{q}}:task:#{id}", "status", "new"])
  def owner(conn, q, id), do: Redix.command(conn, ["HGET", "tq:{#{q}}:task:#{id}", "owner"])
end
