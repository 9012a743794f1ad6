-- KEYS[1] the window; ARGV[1] the limit, ARGV[2] the period, ARGV[3] the cost
local n = redis.call('INCRBY', KEYS[1], ARGV[3])
if n == tonumber(ARGV[3]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return n <= tonumber(ARGV[1])
