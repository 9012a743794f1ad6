-- KEYS[1] active list
-- ARGV[1] count, ARGV[2] force ("" means no)
local active = redis.call("LLEN", KEYS[1])
if active > 0 and ARGV[2] == "" then
  return -2
end
redis.call("DEL", KEYS[1])
return tonumber(ARGV[1]) - 1
