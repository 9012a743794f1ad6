# One call per row of the Python client table (`src/extract/python/client.rs`),
# each with what the extractor reads from it in a trailing comment (see
# `src/extract/clients/tests.rs`). Read, never run.

import redis

LUA = "return redis.call('GET', KEYS[1])"

def calls(r: redis.Redis, k):
    r.execute_command("HSET", k, "f", "v")  # HSET <k> f v
    r.eval(LUA, 1, k, "a")  # EVAL <LUA> <1> <k> a
    r.evalsha("sha", 1, k)  # EVALSHA sha <1> <k>
    r.eval(LUA, keys=[k], args=["a"])  # script <LUA> keys(<k>) args(a)
    r.evalsha("sha", [k], ["a"])  # script sha keys(<k>) args(a)
    r.eval(LUA, keys=[k])  # script <LUA> keys(<k>) args()
    r.eval_ro(LUA, 1, k)  # EVAL_RO <LUA> <1> <k>
    r.evalsha_ro("sha", 1, k)  # EVALSHA_RO sha <1> <k>
    r.fcall("take", 1, k, "a")  # FCALL take <1> <k> a
    r.fcall_ro("peek", 1, k)  # FCALL_RO peek <1> <k>
    script = r.register_script(LUA)  # -
    script(keys=[k], args=["a"])  # script <LUA> keys(<k>) args(a)
    r.hset(k, mapping={"f": "v", "g": "w"})  # HSET <k> f v g w
    r.hsetnx(k, "f", "v")  # HSETNX <k> f v
    r.hmset(k, mapping={"f": "v", "g": "w"})  # HMSET <k> f v g w
    r.hget(k, "f")  # HGET <k> f
    r.hmget(k, "f", "g")  # HMGET <k> f g
    r.hgetall(k)  # HGETALL <k>
    r.hdel(k, "f")  # HDEL <k> f
    r.hexists(k, "f")  # HEXISTS <k> f
    r.hincrby(k, "n", 1)  # HINCRBY <k> n <1>
    r.hincrbyfloat(k, "n", 1.5)  # HINCRBYFLOAT <k> n <5>
    r.hkeys(k)  # HKEYS <k>
    r.hvals(k)  # HVALS <k>
    r.hlen(k)  # HLEN <k>
    r.zadd(k, {"m": 1})  # ZADD <k> <1> m
    r.zrem(k, "m")  # ZREM <k> m
    r.zscore(k, "m")  # ZSCORE <k> m
    r.zcard(k)  # ZCARD <k>
    r.zcount(k, "0", "10")  # ZCOUNT <k> 0 10
    r.zincrby(k, 1, "m")  # ZINCRBY <k> <1> m
    r.zrange(k, 0, -1)  # ZRANGE <k> <0> <1>
    r.zrevrange(k, 0, -1)  # ZREVRANGE <k> <0> <1>
    r.zrangebyscore(k, 0, 10)  # ZRANGEBYSCORE <k> <0> <10>
    r.zremrangebyscore(k, "0", "10")  # ZREMRANGEBYSCORE <k> 0 10
    r.zpopmin(k)  # ZPOPMIN <k>
    r.lpush(k, "id")  # LPUSH <k> id
    r.rpush(k, "id")  # RPUSH <k> id
    r.lrem(k, 1, "id")  # LREM <k> <1> id
    r.llen(k)  # LLEN <k>
    r.lrange(k, 0, -1)  # LRANGE <k> <0> <1>
    r.ltrim(k, 0, 99)  # LTRIM <k> <0> <99>
    r.lpop(k)  # LPOP <k>
    r.rpop(k)  # RPOP <k>
    r.blpop(k, 5)  # BLPOP <k> <5>
    r.brpop(k, 5)  # BRPOP <k> <5>
    r.rpoplpush(k, d)  # RPOPLPUSH <k> <d>
    r.brpoplpush(k, d, 5)  # BRPOPLPUSH <k> <d> <5>
    r.lmove(k, d, "LEFT", "RIGHT")  # LMOVE <k> <d> LEFT RIGHT
    r.blmove(k, d, "LEFT", "RIGHT", 5)  # BLMOVE <k> <d> LEFT RIGHT <5>
    r.sadd(k, "m")  # SADD <k> m
    r.srem(k, "m")  # SREM <k> m
    r.smembers(k)  # SMEMBERS <k>
    r.sismember(k, "m")  # SISMEMBER <k> m
    r.scard(k)  # SCARD <k>
    r.setex(k, 60, "v")  # SETEX <k> <60> v
    r.psetex(k, 60, "v")  # PSETEX <k> <60> v
    r.setnx(k, "v")  # SETNX <k> v
    r.get(k)  # GET <k>
    r.set(k, "v")  # SET <k> v
    r.delete(k)  # DEL <k>
    r.exists(k)  # EXISTS <k>
    r.expire(k, 60)  # EXPIRE <k> <60>
    r.pexpire(k, 60)  # PEXPIRE <k> <60>
    r.incr(k)  # INCRBY <k>
    r.incrby(k, 2)  # INCRBY <k> <2>
    r.publish(k, "hello")  # PUBLISH <k> hello
    cache.get(k)  # -
