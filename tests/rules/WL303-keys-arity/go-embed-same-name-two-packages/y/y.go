package y

import (
	"context"
	_ "embed"

	"github.com/redis/go-redis/v9"
)

//go:embed pair-1.lua
var pairLua string

func Set(ctx context.Context, rdb *redis.Client, q string) error {
	return rdb.Eval(ctx, pairLua, []string{"p:{" + q + "}:a"}, "v").Err()
}
