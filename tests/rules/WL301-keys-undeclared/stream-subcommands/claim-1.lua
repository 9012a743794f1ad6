-- A consumer group on the stream KEYS[1]; its subcommands come before it.
redis.pcall('XGROUP', 'CREATE', KEYS[1], 'workers', 0, 'MKSTREAM')
local groups = redis.call('XINFO', 'GROUPS', KEYS[1])
local msgs = redis.call('XREADGROUP', 'GROUP', 'workers', ARGV[1], 'COUNT', 10, 'STREAMS', KEYS[1], '>')
redis.call('XADD', 'audit', '*', 'who', ARGV[1])
return msgs
