package q

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const hget = "HGET"

func State(ctx context.Context, rdb *redis.Client, q, id string) (string, error) {
	return rdb.Do(ctx, hget, "emq:{"+q+"}:jobz:"+id, "state").Text()
}
