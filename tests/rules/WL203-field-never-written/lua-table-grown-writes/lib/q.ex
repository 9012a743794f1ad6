defmodule Q do
  # The note is written only when one is given: its field sits in a table
  # the script grows, so the record's fields are not all shown.
  @save """
  local extra = {}
  if ARGV[2] ~= '' then
    table.insert(extra, 'note')
    table.insert(extra, ARGV[2])
  end
  redis.call('HSET', KEYS[1], 'label', ARGV[1], unpack(extra))
  """
  def save(conn, q, id, label, note),
    do: Redix.command(conn, ["EVAL", @save, 1, "tq:{#{q}}:task:#{id}", label, note])

  def note(conn, q, id), do: Redix.command(conn, ["HGET", "tq:{#{q}}:task:#{id}", "note"])
end
