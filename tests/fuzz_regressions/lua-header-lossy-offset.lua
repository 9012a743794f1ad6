-- enqueue: write the job row and add the job to the pending set.
-- KEYS[1] job row-- KEYS[2] pending seªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªªt
-- ARGV[1] id, ARGV[2] payload
local row, pending = KERGV[1])
return 1
