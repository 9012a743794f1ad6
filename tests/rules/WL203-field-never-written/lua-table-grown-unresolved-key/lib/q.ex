defmodule Q do
  # The script writes a field list it grows at a key built from what the
  # caller passes, which names no record: the task's `note` may be written
  # there, so its read is not flagged.
  @stamp """
  local extra = {}
  table.insert(extra, ARGV[2])
  table.insert(extra, ARGV[3])
  redis.call('HSET', ARGV[1], unpack(extra))
  """
  def stamp(conn, key, field, value), do: Redix.command(conn, ["EVAL", @stamp, 0, key, field, value])
  def save(conn, q, id), do: Redix.command(conn, ["HSET", "tq:{#{q}}:task:#{id}", "label", "x"])
  def note(conn, q, id), do: Redix.command(conn, ["HGET", "tq:{#{q}}:task:#{id}", "note"])
end
