package limiter

import (
	"context"
	"sync"

	libredis "github.com/redis/go-redis/v9"
)

const pairLua = `-- KEYS[1]: the counter
-- KEYS[2]: the window
redis.call("INCR", KEYS[1])
redis.call("PEXPIRE", KEYS[2], ARGV[1])
`

type Store struct {
	client  libredis.UniversalClient
	mu      sync.RWMutex
	pairSHA string
}

func (s *Store) load(ctx context.Context) error {
	sha, err := s.client.ScriptLoad(ctx, pairLua).Result()
	if err != nil {
		return err
	}
	s.pairSHA = sha
	return nil
}

func (s *Store) pair() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.pairSHA
}

func (s *Store) evalSHA(ctx context.Context, sha func() string, keys []string, args ...interface{}) error {
	return s.client.EvalSha(ctx, sha(), keys, args...).Err()
}

func (s *Store) Hit(ctx context.Context, key string) error {
	return s.evalSHA(ctx, s.pair, []string{"c:{" + key + "}", "w:{" + key + "}"}, 1000)
}
