-- Files a parcel in its row: label, body, not sent yet.
redis.call('HSET', KEYS[1], 'label', ARGV[1], 'body', ARGV[2], 'sent', 0)
return 1
