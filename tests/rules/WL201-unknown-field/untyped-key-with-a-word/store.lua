-- `dn:` names a type of its own, whatever the fields: not the job.
local nextKey = ARGV[1] .. "dn:" .. ARGV[2]
redis.call("HMSET", nextKey, "name", ARGV[3], "data", ARGV[4], "opts", ARGV[5], "jid", ARGV[6])
-- Too few fields to tell: one known, one not.
local jobKey = ARGV[1] .. ARGV[2]
redis.call("HSET", jobKey, "name", ARGV[3], "timestampz", ARGV[6])
