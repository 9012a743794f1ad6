defmodule Q.Job do
  alias Q.Script
  @push Script.compile(:push)

  # The wire is ["EVALSHA", sha, 2, row, pending, payload]: numkeys is the
  # first item of the list the wrapper appends.
  def push(row, pending, payload), do: Script.eval(@push, [2, row, pending, payload])
end
