# One call per row of the Ruby client table (`src/extract/ruby/client.rs`),
# each with what the extractor reads from it in a trailing comment (see
# `src/extract/clients/tests.rs`). Read, never run.

LUA = "return redis.call('GET', KEYS[1])"

def calls(redis, k)
  redis.call("HSET", k, "f", "v") # HSET <k> f v
  redis.call_v(["HGET", k, "f"]) # HGET <k> f
  redis.eval(LUA, keys: [k], argv: ["a"]) # script <LUA> keys(<k>) args(a)
  redis.evalsha("sha", [k], ["a"]) # script sha keys(<k>) args(a)
  sha = redis.script(:load, LUA) # -
  prescription = RedisPrescription.new(LUA) # -
  prescription.call(redis, keys: [k], argv: ["a"]) # script <LUA> keys(<k>) args(a)
  redis.hset(k, "f", "v", "g", "w") # HSET <k> f v g w
  redis.hsetnx(k, "f", "v") # HSETNX <k> f v
  redis.hmset(k, "f", "v", "g", "w") # HMSET <k> f v g w
  redis.mapped_hmset(k, "f", "v", "g", "w") # HMSET <k> f v g w
  redis.hget(k, "f") # HGET <k> f
  redis.hmget(k, "f", "g") # HMGET <k> f g
  redis.mapped_hmget(k, "f", "g") # HMGET <k> f g
  redis.hgetall(k) # HGETALL <k>
  redis.hdel(k, "f") # HDEL <k> f
  redis.hexists(k, "f") # HEXISTS <k> f
  redis.hincrby(k, "n", 1) # HINCRBY <k> n <1>
  redis.hincrbyfloat(k, "n", 1.5) # HINCRBYFLOAT <k> n <5>
  redis.hkeys(k) # HKEYS <k>
  redis.hvals(k) # HVALS <k>
  redis.hlen(k) # HLEN <k>
  redis.zadd(k, 1, "m") # ZADD <k> <1> m
  redis.zrem(k, "m") # ZREM <k> m
  redis.zscore(k, "m") # ZSCORE <k> m
  redis.zcard(k) # ZCARD <k>
  redis.zcount(k, "0", "10") # ZCOUNT <k> 0 10
  redis.zincrby(k, 1, "m") # ZINCRBY <k> <1> m
  redis.zrange(k, 0, -1) # ZRANGE <k> <0> <1>
  redis.zrevrange(k, 0, -1) # ZREVRANGE <k> <0> <1>
  redis.zrangebyscore(k, 0, 10) # ZRANGEBYSCORE <k> <0> <10>
  redis.zrevrangebyscore(k, 10, 0) # ZREVRANGEBYSCORE <k> <10> <0>
  redis.zremrangebyscore(k, "0", "10") # ZREMRANGEBYSCORE <k> 0 10
  redis.zremrangebyrank(k, 0, 10) # ZREMRANGEBYRANK <k> <0> <10>
  redis.zpopmin(k) # ZPOPMIN <k>
  redis.zpopmax(k) # ZPOPMAX <k>
  redis.lpush(k, "id") # LPUSH <k> id
  redis.rpush(k, "id") # RPUSH <k> id
  redis.lrem(k, 1, "id") # LREM <k> <1> id
  redis.llen(k) # LLEN <k>
  redis.lrange(k, 0, -1) # LRANGE <k> <0> <1>
  redis.lindex(k, 0) # LINDEX <k> <0>
  redis.ltrim(k, 0, 99) # LTRIM <k> <0> <99>
  redis.lpop(k) # LPOP <k>
  redis.rpop(k) # RPOP <k>
  redis.blpop(k, 5) # BLPOP <k> <5>
  redis.brpop(k, 5) # BRPOP <k> <5>
  redis.rpoplpush(k, d) # RPOPLPUSH <k> <d>
  redis.brpoplpush(k, d, 5) # BRPOPLPUSH <k> <d> <5>
  redis.lmove(k, d, "LEFT", "RIGHT") # LMOVE <k> <d> LEFT RIGHT
  redis.blmove(k, d, "LEFT", "RIGHT", 5) # BLMOVE <k> <d> LEFT RIGHT <5>
  redis.sadd(k, "m") # SADD <k> m
  redis.sadd?(k, "m") # SADD <k> m
  redis.srem(k, "m") # SREM <k> m
  redis.srem?(k, "m") # SREM <k> m
  redis.smembers(k) # SMEMBERS <k>
  redis.sismember(k, "m") # SISMEMBER <k> m
  redis.scard(k) # SCARD <k>
  redis.sscan(k, 0) # SSCAN <k> <0>
  redis.zscan(k, 0) # ZSCAN <k> <0>
  redis.hscan(k, 0) # HSCAN <k> <0>
  redis.setex(k, 60, "v") # SETEX <k> <60> v
  redis.psetex(k, 60, "v") # PSETEX <k> <60> v
  redis.setnx(k, "v") # SETNX <k> v
  redis.unlink(k) # UNLINK <k>
  redis.incrby(k, 2) # INCRBY <k> <2>
  redis.get(k) # GET <k>
  redis.set(k, "v") # SET <k> v
  redis.del(k) # DEL <k>
  redis.exists(k) # EXISTS <k>
  redis.exists?(k) # EXISTS <k>
  redis.expire(k, 60) # EXPIRE <k> <60>
  redis.pexpire(k, 60) # PEXPIRE <k> <60>
  redis.incr(k) # INCR <k>
  redis.decr(k) # DECR <k>
  redis.publish(k, "hello") # PUBLISH <k> hello
  cache.get(k) # -
end
