-- marks a task as seen
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
