// One call per row of the JavaScript and TypeScript client table
// (`src/extract/js/client.rs`), each with what the extractor reads from it
// in a trailing comment (see `src/extract/clients/tests.rs`). Read, never
// run.

import Redis from "ioredis";

const LUA = "return redis.call('GET', KEYS[1])";

async function calls(redis: Redis, client: any, k: string) {
  await redis.eval(LUA, 1, k, "a"); // EVAL <script> <1> <k> a
  await redis.evalsha("sha", 1, k); // EVALSHA sha <1> <k>
  await redis.evalshaAsync("sha", 1, k); // EVALSHA sha <1> <k>
  await client.hgetAsync(k, "f"); // HGET <k> f
  await redis.Async(k); // -
  await redis.eval_ro(LUA, 1, k); // EVAL_RO <script> <1> <k>
  await redis.evalsha_ro("sha", 1, k); // EVALSHA_RO sha <1> <k>
  await redis.fcall("take", 1, k, "a"); // FCALL take <1> <k> a
  await redis.fcall_ro("peek", 1, k); // FCALL_RO peek <1> <k>
  await client.fcall("take", [k], ["a"]); // script take keys(<k>) args(a)
  await client.fcallReadonly("peek", [k], []); // script peek keys(<k>) args()
  await redis.call("HSET", k, "f", "v"); // HSET <k> f v
  await client.send_command("hget", [k, "f"]); // HGET <k> f
  await client.sendCommand(["HDEL", k, "f"]); // HDEL <k> f
  await redis.multi([["hset", k, "f", "v"]]).exec(); // HSET <k> f v
  await redis.pipeline([["lpush", k, "a"]]).exec(); // LPUSH <k> a
  await redis.hset(k, { f: "v", g: "w" }); // HSET <k> f v g w
  await redis.hsetnx(k, "f", "v"); // HSETNX <k> f v
  await redis.hmset(k, { f: "v", g: "w" }); // HMSET <k> f v g w
  await redis.hget(k, "f"); // HGET <k> f
  await redis.hmget(k, "f", "g"); // HMGET <k> f g
  await redis.hgetall(k); // HGETALL <k>
  await redis.hincrby(k, "n", 1); // HINCRBY <k> n <1>
  await redis.hincrbyfloat(k, "n", 1.5); // HINCRBYFLOAT <k> n <5>
  await redis.hdel(k, "f"); // HDEL <k> f
  await redis.hexists(k, "f"); // HEXISTS <k> f
  await redis.hkeys(k); // HKEYS <k>
  await redis.hvals(k); // HVALS <k>
  await redis.hlen(k); // HLEN <k>
  await redis.zadd(k, 1, "m"); // ZADD <k> <1> m
  await redis.zrem(k, "m"); // ZREM <k> m
  await redis.zscore(k, "m"); // ZSCORE <k> m
  await redis.zcard(k); // ZCARD <k>
  await redis.zrange(k, 0, -1); // ZRANGE <k> <0> <1>
  await redis.zrangebyscore(k, 0, 10); // ZRANGEBYSCORE <k> <0> <10>
  await redis.zremrangebyscore(k, "0", "10"); // ZREMRANGEBYSCORE <k> 0 10
  await redis.lpush(k, "id"); // LPUSH <k> id
  await redis.rpush(k, "id"); // RPUSH <k> id
  await redis.lrem(k, 1, "id"); // LREM <k> <1> id
  await redis.llen(k); // LLEN <k>
  await redis.lrange(k, 0, -1); // LRANGE <k> <0> <1>
  await redis.rpoplpush(k, d); // RPOPLPUSH <k> <d>
  await redis.brpoplpush(k, d, 5); // BRPOPLPUSH <k> <d> <5>
  await redis.lmove(k, d, "LEFT", "RIGHT"); // LMOVE <k> <d> LEFT RIGHT
  await redis.blmove(k, d, "LEFT", "RIGHT", 5); // BLMOVE <k> <d> LEFT RIGHT <5>
  await redis.sadd(k, "m"); // SADD <k> m
  await redis.srem(k, "m"); // SREM <k> m
  await redis.smembers(k); // SMEMBERS <k>
  await redis.sismember(k, "m"); // SISMEMBER <k> m
  await redis.incrby(k, 2); // INCRBY <k> <2>
  await redis.pexpire(k, 60); // PEXPIRE <k> <60>
  await redis.get(k); // GET <k>
  await redis.set(k, "v"); // SET <k> v
  await redis.del(k); // DEL <k>
  await redis.exists(k); // EXISTS <k>
  await redis.expire(k, 60); // EXPIRE <k> <60>
  await redis.incr(k); // INCR <k>
  await redis.publish(k, "hello"); // PUBLISH <k> hello
  cache.get(k); // -
}
