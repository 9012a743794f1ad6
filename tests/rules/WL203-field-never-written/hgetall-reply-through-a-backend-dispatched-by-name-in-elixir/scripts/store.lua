-- KEYS[1] parcel row
-- ARGV[1] label, ARGV[2] body, ARGV[3] sent at
local rcall = redis.call
rcall('HSET', KEYS[1], 'label', ARGV[1], 'body', ARGV[2], 'sent', ARGV[3])
return 1
