-- KEYS[1] 'wait'
-- KEYS[2] 'active'
-- KEYS[3] 'paused'
-- KEYS[4] 'meta'
-- KEYS[5] 'events'
-- KEYS[6] 'delayed'
-- KEYS[7] 'marker'
redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
redis.call('LREM', KEYS[3], 0, ARGV[1])
redis.call('HGET', KEYS[4], 'paused')
redis.call('XADD', KEYS[5], '*', 'event', 'moved')
redis.call('ZREM', KEYS[6], ARGV[1])
return redis.call('ZADD', KEYS[7], 0, '0')
