defmodule Util do
  def add(a, b, do: a + b
end
