defmodule Q.Job do
  alias Q.Script
  @push Script.compile(:push)

  # ["EVALSHA", sha, 2, row, pending]: no payload for ARGV[1].
  def push(row, pending), do: Script.eval(@push, [2, row, pending])
end
