redis.call("HSET", KEYS[1], "payload", ARGV[1])
redis.call("ZADD", KEYS[2], 0, KEYS[1])
