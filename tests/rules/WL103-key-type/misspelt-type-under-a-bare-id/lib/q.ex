defmodule Q do
  # `wiat` spells no type, but the job's `<id>` matches any word: one edit
  # from `wait`, it is the list misspelt.
  def push(conn, q, id), do: Redix.command(conn, ["LPUSH", "jq:#{q}:wiat", id])
end
