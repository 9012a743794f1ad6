-- KEYS[1] 'task'
-- KEYS[2] 'seen set'
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return 1
