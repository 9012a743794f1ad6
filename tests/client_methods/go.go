// One call per row of the Go client table (`src/extract/go/client.rs`),
// each with what the extractor reads from it in a trailing comment (see
// `src/extract/clients/tests.rs`). Read, never compiled.

package cases

import (
	"context"

	"github.com/redis/go-redis/v9"
	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/rueidis"
	radix "github.com/mediocregopher/radix/v3"
)

const src = "return redis.call('GET', KEYS[1])"

var script = redis.NewScript(src)

var rgScript = redigo.NewScript(1, src)

var lua = rueidis.NewLuaScript(src)

var rxScript = radix.NewEvalScript(1, src)

var rx4Script = radix.NewEvalScript(src)

func makers() {
	redis.NewScript(src) // -
	redigo.NewScript(1, src) // -
	rueidis.NewLuaScript(src, rueidis.WithLoadSHA1(true)) // -
	rueidis.NewLuaScriptReadOnly(src) // -
	rueidis.NewLuaScriptNoSha(src) // -
	rueidis.NewLuaScriptReadOnlyNoSha(src) // -
	rueidis.NewLuaScriptRetryable(src) // -
	rueidis.NewLuaScriptNoShaRetryable(src) // -
	radix.NewEvalScript(1, src) // -
}

func calls(ctx context.Context, rdb *redis.Client, conn redigo.Conn, k string) {
	rdb.Do(ctx, "HSET", k, "f", "v") // HSET <k> f v
	conn.Do("HGET", k, "f") // HGET <k> f
	conn.Send("HDEL", k, "f") // HDEL <k> f
	rdb.Eval(ctx, src, []string{k}, "a") // script <src> keys(<k>) args(a)
	rdb.EvalSha(ctx, "sha", []string{k}) // script sha keys(<k>) args()
	rdb.EvalRO(ctx, src, []string{k}) // script <src> keys(<k>) args()
	rdb.EvalShaRO(ctx, "sha", []string{k}) // script sha keys(<k>) args()
	rdb.FCall(ctx, "take", []string{k}, "a") // script take keys(<k>) args(a)
	rdb.FCallRO(ctx, "peek", []string{k}) // script peek keys(<k>) args()
	rdb.FCallRo(ctx, "peek", []string{k}) // script peek keys(<k>) args()
	script.Run(ctx, rdb, []string{k}, "a") // script <script> keys(<k>) args(a)
	script.RunRO(ctx, rdb, []string{k}) // script <script> keys(<k>) args()
	script.Eval(ctx, rdb, []string{k}) // script <script> keys(<k>) args()
	script.EvalSha(ctx, rdb, []string{k}) // script <script> keys(<k>) args()
	script.EvalRO(ctx, rdb, []string{k}) // script <script> keys(<k>) args()
	script.EvalShaRO(ctx, rdb, []string{k}) // script <script> keys(<k>) args()
	rgScript.Do(conn, k, "a") // script <rgScript> keys(<k>) args(a)
	rgScript.Send(conn, k, "a") // script <rgScript> keys(<k>) args(a)
	lua.Exec(ctx, rdb, []string{k}, []string{"a", "b"}) // script <lua> keys(<k>) args(a b)
	rxScript.Cmd(&out, k, "a") // script <rxScript> keys(<k>) args(a)
	rx4Script.Cmd(&out, []string{k}, "a") // script <rx4Script> keys(<k>) args(a)
	radix.Cmd(&out, "HSET", k, "f", "v") // HSET <k> f v
	radix.FlatCmd(nil, "HGET", k, "f") // HGET <k> f
	redis.NewCmd(ctx, "HSET", k, "f", "v") // HSET <k> f v
	redis.NewSliceCmd(ctx, "HMGET", k, "f") // HMGET <k> f
	redis.NewStatusCmd(ctx, "SET", k, "v") // SET <k> v
	redis.NewIntCmd(ctx, "HDEL", k, "f") // HDEL <k> f
	redis.NewIntSliceCmd(ctx, "LRANGE", k, 0, 1) // LRANGE <k> <0> <1>
	redis.NewBoolCmd(ctx, "HEXISTS", k, "f") // HEXISTS <k> f
	redis.NewBoolSliceCmd(ctx, "SISMEMBER", k, "m") // SISMEMBER <k> m
	redis.NewStringCmd(ctx, "HGET", k, "f") // HGET <k> f
	redis.NewFloatCmd(ctx, "ZSCORE", k, "m") // ZSCORE <k> m
	redis.NewStringSliceCmd(ctx, "HKEYS", k) // HKEYS <k>
	redis.NewMapStringStringCmd(ctx, "HGETALL", k) // HGETALL <k>
	redis.NewMapStringIntCmd(ctx, "HGETALL", k) // HGETALL <k>
	redis.NewZSliceCmd(ctx, "ZRANGE", k, 0, 1) // ZRANGE <k> <0> <1>
	rdb.HSet(ctx, k, "f", "v", "g", "w") // HSET <k> f v g w
	rdb.HSetNX(ctx, k, "f", "v") // HSETNX <k> f v
	rdb.HMSet(ctx, k, "f", "v") // HMSET <k> f v
	rdb.HGet(ctx, k, "f") // HGET <k> f
	rdb.HMGet(ctx, k, "f", "g") // HMGET <k> f g
	rdb.HGetAll(ctx, k) // HGETALL <k>
	rdb.HDel(ctx, k, "f") // HDEL <k> f
	rdb.HExists(ctx, k, "f") // HEXISTS <k> f
	rdb.HIncrBy(ctx, k, "n", 1) // HINCRBY <k> n <1>
	rdb.HIncrByFloat(ctx, k, "n", 1.5) // HINCRBYFLOAT <k> n <5>
	rdb.HKeys(ctx, k) // HKEYS <k>
	rdb.HVals(ctx, k) // HVALS <k>
	rdb.HLen(ctx, k) // HLEN <k>
	rdb.ZAdd(ctx, k, redis.Z{Score: 1, Member: "m"}) // ZADD <k> <1> m
	rdb.ZAddNX(ctx, k, redis.Z{Score: 1, Member: "m"}) // ZADD <k> <1> m
	rdb.ZRem(ctx, k, "m") // ZREM <k> m
	rdb.ZScore(ctx, k, "m") // ZSCORE <k> m
	rdb.ZCard(ctx, k) // ZCARD <k>
	rdb.ZCount(ctx, k, "0", "10") // ZCOUNT <k> 0 10
	rdb.ZIncrBy(ctx, k, 1, "m") // ZINCRBY <k> <1> m
	rdb.ZRange(ctx, k, 0, -1) // ZRANGE <k> <0> <1>
	rdb.ZRevRange(ctx, k, 0, -1) // ZREVRANGE <k> <0> <1>
	rdb.ZRemRangeByScore(ctx, k, "0", "10") // ZREMRANGEBYSCORE <k> 0 10
	rdb.ZPopMin(ctx, k) // ZPOPMIN <k>
	rdb.LPush(ctx, k, "id") // LPUSH <k> id
	rdb.RPush(ctx, k, "id") // RPUSH <k> id
	rdb.LRem(ctx, k, 1, "id") // LREM <k> <1> id
	rdb.LLen(ctx, k) // LLEN <k>
	rdb.LRange(ctx, k, 0, -1) // LRANGE <k> <0> <1>
	rdb.LTrim(ctx, k, 0, 99) // LTRIM <k> <0> <99>
	rdb.LPop(ctx, k) // LPOP <k>
	rdb.RPop(ctx, k) // RPOP <k>
	rdb.RPopLPush(ctx, k, d) // RPOPLPUSH <k> <d>
	rdb.BRPopLPush(ctx, k, d, 5) // BRPOPLPUSH <k> <d> <5>
	rdb.LMove(ctx, k, d, "LEFT", "RIGHT") // LMOVE <k> <d> LEFT RIGHT
	rdb.SAdd(ctx, k, "m") // SADD <k> m
	rdb.SRem(ctx, k, "m") // SREM <k> m
	rdb.SMembers(ctx, k) // SMEMBERS <k>
	rdb.SIsMember(ctx, k, "m") // SISMEMBER <k> m
	rdb.SCard(ctx, k) // SCARD <k>
	rdb.SetNX(ctx, k, "v") // SETNX <k> v
	rdb.Get(ctx, k) // GET <k>
	rdb.Set(ctx, k, "v") // SET <k> v
	rdb.Del(ctx, k) // DEL <k>
	rdb.Exists(ctx, k) // EXISTS <k>
	rdb.Expire(ctx, k, 60) // EXPIRE <k> <60>
	rdb.Incr(ctx, k) // INCR <k>
	rdb.IncrBy(ctx, k, 2) // INCRBY <k> <2>
	rdb.Publish(ctx, k, "hello") // PUBLISH <k> hello
	rdb.ScriptLoad(ctx, src) // SCRIPT LOAD <src>
	cache.Get(k) // -
}
