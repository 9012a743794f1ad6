-- KEYS[1] source list
-- KEYS[2] target list
return redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
