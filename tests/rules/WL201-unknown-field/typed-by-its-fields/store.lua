-- The job hash at the prefix the caller passes and the job's id: the key
-- names no type, the fields it writes are the job's.
local jobKey = ARGV[1] .. ARGV[2]
redis.call("HMSET", jobKey, "name", ARGV[3], "data", ARGV[4], "opts", ARGV[5], "timestampz", ARGV[6])
