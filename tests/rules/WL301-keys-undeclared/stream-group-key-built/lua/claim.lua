-- KEYS[1]: the job stream
local stream = KEYS[1]
redis.call('XGROUP', 'CREATE', stream, 'workers', 0, 'MKSTREAM')
local groups = redis.call('XINFO', 'GROUPS', stream)
local msgs = redis.call('XREADGROUP', 'GROUP', 'workers', ARGV[1], 'COUNT', 10, 'STREAMS', stream, '>')
redis.call('XGROUP', 'CREATE', 'jobs:dead', 'workers', 0, 'MKSTREAM')
return msgs
