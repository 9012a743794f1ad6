defmodule QTest do
  use ExUnit.Case
  test "not an old prefix", do: refute Q.job_key("a", 1) == "emk:{a}:job:1"
end
