redis.call("SET", KEYS[1], ARGV[1])
