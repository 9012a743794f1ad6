-- KEYS[1] the job row, KEYS[2] the pending set; ARGV[1] the job id
redis.call("HSET", KEYS[1], "state", "waiting")
redis.call("ZADD", KEYS[2], 0, ARGV[1])
return 1
