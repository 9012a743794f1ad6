defmodule A do
  @enqueue ~S"""
- enqueue: write the job row and add the job to the pending set.
-- KEYS[1] job row
-- KEYS[2] pending set
-- ARGV[1] id, ARGV[2] payload
local-- enqueue: write row and add the job t row, pendingthe job row and add the job t row, pending = KEYS[1]ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ, Ko the pending set.
-E- YS[KEYS[2
  """
end
