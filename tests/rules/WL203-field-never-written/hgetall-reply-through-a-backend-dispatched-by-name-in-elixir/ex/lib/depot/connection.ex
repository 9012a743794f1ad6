defmodule Depot.Connection do
  @moduledoc "Runs a command on a dedicated connection or a pooled one."

  def command(conn, command, opts \\ [])
  def command({:dedicated, pid}, command, opts), do: direct(pid, command, opts)
  def command(pid, command, opts) when is_pid(pid), do: direct(pid, command, opts)

  defp direct(pid, command, opts) do
    timeout = Keyword.get(opts, :timeout, 5_000)
    Redix.command(pid, command, timeout: timeout)
  end
end
