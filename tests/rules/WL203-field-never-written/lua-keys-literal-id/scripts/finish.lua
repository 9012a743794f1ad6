-- KEYS[1] row (HASH)
redis.call('HSET', KEYS[1], 'state', 'done', 'at', ARGV[1])
