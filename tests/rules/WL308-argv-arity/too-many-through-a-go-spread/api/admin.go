package api

import (
	"context"

	"example.com/q/store"
)

func Reset(ctx context.Context, s *store.Store) error {
	return s.PurgePending(ctx, "default")
}

func ResetCritical(ctx context.Context, s *store.Store) error {
	return s.PurgePending(ctx, "critical")
}
