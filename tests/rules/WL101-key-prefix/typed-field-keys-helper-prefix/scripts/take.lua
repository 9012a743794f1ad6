-- KEYS[1] pending list
return redis.call('RPOP', KEYS[1])
