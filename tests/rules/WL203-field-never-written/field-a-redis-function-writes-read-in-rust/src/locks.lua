#!lua name=locks

local function take(keys, args)
  redis.call('HSET', keys[1], 'state', 'taken', 'owner', args[1])
  return 1
end

redis.register_function('take_lock', take)
