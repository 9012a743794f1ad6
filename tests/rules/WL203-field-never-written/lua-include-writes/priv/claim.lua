local rcall = redis.call
--- @include "includes/take"
take(KEYS[1], ARGV[1])
