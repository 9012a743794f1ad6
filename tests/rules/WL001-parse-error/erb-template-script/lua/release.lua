-- KEYS[1] the lock row
local lock = KEYS[1]

<%= include_partial "shared/_common.lua" %>

if redis.call('HGET', lock, 'state') == 'held' then
  return redis.call('DEL', lock)
end
return 0
