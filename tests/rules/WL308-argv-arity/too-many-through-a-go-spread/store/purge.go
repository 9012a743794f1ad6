package store

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// purgeCmd reads one ARGV value: the row prefix.
var purgeCmd = redis.NewScript(`
local ids = redis.call("ZRANGE", KEYS[1], 0, -1)
for _, id in ipairs(ids) do
	redis.call("DEL", ARGV[1] .. id)
end
return #ids`)

type Store struct{ rdb *redis.Client }

// purge passes the queue's name too, which the script never reads.
func (s *Store) purge(ctx context.Context, set, q string) error {
	argv := []interface{}{"emq:{" + q + "}:job:", q}
	return purgeCmd.Run(ctx, s.rdb, []string{set}, argv...).Err()
}

func (s *Store) PurgePending(ctx context.Context, q string) error {
	return s.purge(ctx, "emq:{"+q+"}:pending", q)
}
