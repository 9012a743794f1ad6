package broker

import (
	"context"

	"github.com/redis/rueidis"
)

const pairSource = `-- KEYS[1]: the first key
-- KEYS[2]: the second key
redis.call("SET", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[1])
`

type Broker struct {
	client rueidis.Client
	pair   *rueidis.Lua
}

func New(c rueidis.Client) *Broker {
	return &Broker{client: c, pair: rueidis.NewLuaScript(pairSource)}
}

func (b *Broker) SetPair(q string) error {
	return b.pair.Exec(context.Background(), b.client, []string{"p:{" + q + "}:a", "p:{" + q + "}:b"}, []string{"v"}).Error()
}
