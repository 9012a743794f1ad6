-- KEYS[1] queue (LIST)
-- ARGV[1] packed [row prefix, id, kind]
local rcall = redis.call
local packed = cmsgpack.unpack(ARGV[1])
local row = packed[1] .. packed[2]
rcall('HSET', row, 'kind', packed[3], 'state', 'stashed')
rcall('RPUSH', KEYS[1], packed[2])
