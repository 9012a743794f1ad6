-- one page of any of a queue's sorted sets
return redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
