-- KEYS[1] the bucket; ARGV[1] the cost
return redis.call('INCRBY', KEYS[1], ARGV[1])
