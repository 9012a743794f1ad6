package pairs

import (
	"context"
	_ "embed"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed lua/pair-2.lua
var pairLua string

func SetPair(ctx context.Context, rdb *redis.Client, q string) error {
	lctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return rdb.Eval(lctx, pairLua, []string{"p:{" + q + "}:a", "p:{" + q + "}:b"}, "v").Err()
}
