defmodule Q do
  @page File.read!("../scripts/page.lua")
  def scheduled(conn, q, a, b), do: Redix.command(conn, ["EVAL", @page, 1, "tq:{#{q}}:scheduled", a, b])
  def retry(conn, q, a, b), do: Redix.command(conn, ["EVAL", @page, 1, "tq:{#{q}}:retry", a, b])
end
