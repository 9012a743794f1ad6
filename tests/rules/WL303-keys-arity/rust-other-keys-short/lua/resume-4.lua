-- KEYS[1] 'wait'
-- KEYS[2] 'active'
-- KEYS[3] 'paused'
-- KEYS[4] 'meta'
redis.call('RPOPLPUSH', KEYS[3], KEYS[1])
redis.call('LREM', KEYS[2], 0, ARGV[1])
return redis.call('HDEL', KEYS[4], 'paused')
