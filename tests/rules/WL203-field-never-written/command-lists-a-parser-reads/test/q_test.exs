defmodule QTest do
  use ExUnit.Case
  test "the parser finds the key" do
    assert Q.key_of(["HGET", "tq:{a}:task:1", "owner"]) == {:ok, "tq:{a}:task:1"}
    assert ["HMGET", "tq:{a}:task:1", "owner"] == Q.render(:owner)
  end
end
