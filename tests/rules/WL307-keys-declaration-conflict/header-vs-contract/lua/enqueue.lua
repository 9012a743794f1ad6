-- Enqueue a job.
-- KEYS[1] 'job'
-- KEYS[2] 'pending'
-- KEYS[3] 'wait'
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'payload', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
